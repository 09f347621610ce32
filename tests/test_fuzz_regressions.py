"""Every input a fuzz harness ever failed on (fuzz/regressions/<harness>/) and each harness's seed
inputs, run through the harness's one-input function, so the bugs found stay fixed. The libFuzzer
harnesses' inputs (fuzz/regressions/cpp_*) are replayed by scripts/fuzz.sh, which builds them."""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "fuzz"
REGRESSIONS = FUZZ / "regressions"
HARNESSES = sorted(path.stem[len("fuzz_") :] for path in FUZZ.glob("fuzz_*.py"))
CPP_HARNESSES = sorted(path.stem[len("fuzz_") :] for path in (FUZZ / "cpp").glob("fuzz_*.cpp"))


def harness(name: str) -> ModuleType:
    return importlib.import_module(f"fuzz.fuzz_{name}")


def stored_inputs() -> list[tuple[str, Path]]:
    return [
        (name, path)
        for name in HARNESSES
        if (REGRESSIONS / name).is_dir()
        for path in sorted((REGRESSIONS / name).iterdir())
    ]


def test_every_regression_folder_belongs_to_a_harness() -> None:
    known = set(HARNESSES) | {f"cpp_{name}" for name in CPP_HARNESSES}
    folders = {path.name for path in REGRESSIONS.iterdir() if path.is_dir()}
    assert folders <= known, f"no harness for {sorted(folders - known)}"
    assert HARNESSES, "no atheris harness found in fuzz/"


@pytest.mark.parametrize(
    ("name", "path"), stored_inputs(), ids=[f"{n}/{p.name}" for n, p in stored_inputs()]
)
def test_stored_input_passes(name: str, path: Path) -> None:
    harness(name).one_input(path.read_bytes())


@pytest.mark.parametrize("name", HARNESSES)
def test_seed_inputs_pass(name: str) -> None:
    module = harness(name)
    seeds = module.seeds()
    assert seeds, f"fuzz_{name} has no seed inputs"
    start = time.process_time()
    for seed in seeds:
        module.one_input(seed)
    # The seeds double as the fast smoke test of each harness; a slow one would starve CI.
    assert time.process_time() - start < 60


@pytest.mark.parametrize("name", HARNESSES)
def test_any_bytes_decode(name: str) -> None:
    """Short, empty and all-0xFF inputs reach the checks too: a harness never fails on its own."""
    module = harness(name)
    for raw in (b"", b"\x00", b"\xff" * 64, bytes(range(256))):
        module.one_input(raw)
