"""OpenSpiel as a baseline, kept out of rivals' own environment.

pyspiel is not a dependency of rivals: the benchmark builds a private virtual environment once,
``bench/.venv-openspiel`` in the source tree, and runs ``bench/pyspiel_loop.py`` there in a
subprocess. Anything that goes wrong is reported as a reason to skip the row, never as an error.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

VENV_NAME = ".venv-openspiel"
SCRIPT_NAME = "pyspiel_loop.py"
INSTALL_TIMEOUT_S = 1200


def find_bench_dir() -> Path | None:
    """The source tree's ``bench/`` folder, or ``None`` when rivals runs outside a checkout.

    RIVALS_BENCH_DIR wins; otherwise the current folder and the installed package are searched
    upwards, which finds the checkout both from inside it and from its ``.venv`` (scripts/run.sh).
    """
    explicit = os.environ.get("RIVALS_BENCH_DIR")
    if explicit:
        path = Path(explicit)
        return path if (path / SCRIPT_NAME).is_file() else None
    for start in (Path.cwd(), Path(__file__).resolve()):
        for folder in (start, *start.parents):
            if (folder / "bench" / SCRIPT_NAME).is_file() and (folder / "pyproject.toml").is_file():
                return folder / "bench"
    return None


@dataclass(frozen=True)
class Pyspiel:
    """A working OpenSpiel environment: the interpreter that imports pyspiel, and the loop."""

    python: Path
    script: Path


def _venv_python(venv: Path) -> Path:
    if sys.platform == "win32":
        return venv / "Scripts" / "python.exe"
    return venv / "bin" / "python"


def _imports_pyspiel(python: Path) -> bool:
    if not python.is_file():
        return False
    probe = subprocess.run(
        [str(python), "-c", "import pyspiel"], capture_output=True, timeout=120, check=False
    )
    return probe.returncode == 0


def ensure_pyspiel(log: Callable[[str], None]) -> Pyspiel | str:
    """The OpenSpiel environment, created on first use; otherwise a string saying why not."""
    bench = find_bench_dir()
    if bench is None:
        return "no rivals source tree (bench/pyspiel_loop.py) found; set RIVALS_BENCH_DIR"
    venv = bench / VENV_NAME
    python = _venv_python(venv)
    script = bench / SCRIPT_NAME
    if _imports_pyspiel(python):
        return Pyspiel(python, script)
    log(f"creating {venv} with open-spiel (once; log in {venv / 'install.log'})")
    try:
        if not python.is_file():
            subprocess.run(
                [sys.executable, "-m", "venv", str(venv)],
                capture_output=True,
                timeout=INSTALL_TIMEOUT_S,
                check=True,
            )
        with open(venv / "install.log", "w", encoding="utf-8") as install_log:
            subprocess.run(
                [str(python), "-m", "pip", "install", "--quiet", "open-spiel"],
                stdout=install_log,
                stderr=subprocess.STDOUT,
                timeout=INSTALL_TIMEOUT_S,
                check=True,
            )
    except (OSError, subprocess.SubprocessError) as error:
        return f"open-spiel could not be installed into {venv}: {error}"
    if not _imports_pyspiel(python):
        return f"open-spiel installed into {venv} but pyspiel does not import"
    return Pyspiel(python, script)


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
