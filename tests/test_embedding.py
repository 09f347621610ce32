"""The C++ embedding guide works: the example program builds against the installed package's
CMake package (find_package(rivals)), which gives it the C++20 its headers need, and plays every
game; what an embedding program can get wrong is refused, not undefined."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from filelock import FileLock

import rivals
from tests.isolated import run_engine_check

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "embed"


@pytest.fixture(scope="session")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The example, built once per test run: parallel workers share the run's base temporary
    directory, and the first to take the lock builds while the others wait for it."""
    cmake = shutil.which("cmake")
    assert cmake is not None, "cmake builds the engine, so it is on PATH wherever tests run"
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent
    build = shared / "embed"
    with FileLock(str(shared / "embed.lock")):
        if not (build / "embed").exists():
            prefix = subprocess.run(
                [sys.executable, "-m", "rivals.cmake_dir"],
                check=True,
                capture_output=True,
                text=True,
            ).stdout.strip()
            subprocess.run(
                [cmake, "-S", str(EXAMPLE), "-B", str(build), f"-DCMAKE_PREFIX_PATH={prefix}"],
                check=True,
                capture_output=True,
            )
            subprocess.run([cmake, "--build", str(build)], check=True, capture_output=True)
    return build / "embed"


@pytest.mark.parametrize("name", rivals.games())
def test_the_example_plays_every_game(program: Path, name: str) -> None:
    done = subprocess.run([str(program), name], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{name}: one game of ")
    returns = [float(r) for r in lines[0].split("returns")[1].split()]
    assert len(returns) == rivals.make(name).num_players
    assert sum(returns) == pytest.approx(0.0, abs=0.02)
    assert lines[2] == "mcts against random: 4 games played"


def test_the_example_reports_an_unknown_game(program: Path) -> None:
    done = subprocess.run([str(program), "chess"], capture_output=True, text=True)
    assert done.returncode == 2
    assert "unknown game 'chess'" in done.stderr


def test_misuse_from_cpp_is_refused_with_invalid_argument(tmp_path: Path) -> None:
    # tests/cpp/embedding_misuse.cpp: a parameter twice, null arrays, no actions.
    assert run_engine_check(tmp_path, "embedding_misuse") == []
