"""Keeps a failing input of an atheris harness as a regression, pinned to the game it failed on.

    python fuzz/store.py HARNESS ARTIFACT NAME

decodes ARTIFACT as harness ``fuzz_HARNESS`` does, with the games registered now, and writes it to
``fuzz/regressions/HARNESS/NAME`` with a first line ``rivals-fuzz {"game": ..., "params": ...}``
(``{"game", "param", "shipped"}`` for the data harness) naming the game it picked. The input's
bytes follow unchanged; the header overrides only what their choice byte selects, so the stored
input keeps failing on that game however many games and parameter sets are added later. Then it
runs the stored input through the harness and says whether it passes (after the fix) or fails.

Inputs that pick no game (a whole replay, in the replay harness's modes 0 and 1) are stored as
they are.
"""

from __future__ import annotations

import contextlib
import importlib
import sys
import traceback
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from fuzz._common import ROOT, read_pin, take_pick, write_pin


def pinned(harness: str, raw: bytes) -> bytes:
    """``raw`` with the header of the game it picks (kept as it is when it has one already)."""
    pin, body = read_pin(raw)
    if pin is not None:
        return raw
    module = importlib.import_module(f"fuzz.fuzz_{harness}")
    take_pick()
    # A failing input is what this tool is for: it is run for the pick it makes.
    with contextlib.suppress(Exception):
        module.one_input(body)
    picked = take_pick()
    return write_pin(picked, body) if picked else raw


def main(argv: list[str]) -> int:
    if len(argv) != 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    harness, artifact, name = argv
    if not (ROOT / "fuzz" / f"fuzz_{harness}.py").is_file():
        print(f"store.py: no atheris harness fuzz/fuzz_{harness}.py", file=sys.stderr)
        return 2
    target = ROOT / "fuzz" / "regressions" / harness / name
    if target.exists():
        print(f"store.py: {target} exists; choose another name", file=sys.stderr)
        return 2
    data = pinned(harness, Path(artifact).read_bytes())
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(data)
    header = read_pin(data)[0]
    print(f"stored {target.relative_to(ROOT)}" + (f" pinned to {header}" if header else ""))
    module = importlib.import_module(f"fuzz.fuzz_{harness}")
    try:
        module.one_input(data)
    except Exception:
        traceback.print_exc()
        print("it fails: fix the bug, then tests/test_fuzz_regressions.py keeps it fixed")
        return 1
    print("it passes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
