"""OpenSpiel as a baseline, from the environment rivals runs in.

pyspiel is an optional extra of rivals (``pip install 'rivals[openspiel]'``). The benchmark never
creates environments or installs packages: when pyspiel is importable here, ``_pyspiel_loop.py``
runs in a subprocess of this interpreter; otherwise the row is skipped, saying why.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

SCRIPT = Path(__file__).resolve().with_name("_pyspiel_loop.py")


@dataclass(frozen=True)
class Pyspiel:
    """A working OpenSpiel environment: the interpreter that imports pyspiel, and the loop."""

    python: Path
    script: Path


def find_pyspiel() -> Pyspiel | str:
    """This interpreter when it has pyspiel; otherwise a string saying what is missing."""
    if importlib.util.find_spec("pyspiel") is None:
        return (
            "open-spiel is not installed in this environment "
            f"({sys.executable}); pip install 'rivals[openspiel]'"
        )
    return Pyspiel(Path(sys.executable), SCRIPT)


def loop_plies_per_s(env: Pyspiel, game: str, seconds: float, seed: int) -> float:
    """Plies/s of the random-move loop over pyspiel ``game``, timed inside the subprocess.

    The subprocess's start-up and pyspiel's import are outside the timed part.
    """
    done = subprocess.run(
        [
            str(env.python),
            str(env.script),
            "--game",
            game,
            "--seconds",
            repr(seconds),
            "--seed",
            str(seed),
        ],
        capture_output=True,
        text=True,
        timeout=120 + 10 * seconds,
        check=False,
    )
    if done.returncode != 0:
        raise RuntimeError(f"{env.script} failed: {done.stderr.strip()[-2000:]}")
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return float(result["plies_per_s"])
