"""Running code in a fresh interpreter, so that a crash (a segfault, an abort, a hang) fails the
test that provoked it instead of killing the test runner."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def run_isolated(code: str, timeout: float = 120, **options: Any) -> str:
    """Runs ``code`` with this interpreter (the repository root on the path) and returns its
    stdout; fails with its stderr when it exits non-zero or takes longer than ``timeout``."""
    env = dict(
        os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(code)],
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
            **options,
        )
    except subprocess.TimeoutExpired as expired:
        raise AssertionError(f"hung for {timeout} s; output so far: {expired.stdout!r}") from None
    assert done.returncode == 0, (
        f"exit status {done.returncode}\n--- stdout\n{done.stdout}\n--- stderr\n{done.stderr}"
    )
    return done.stdout


def under_sanitizer() -> bool:
    """Whether the engine runs under AddressSanitizer (scripts/sanitize.sh preloads it), which
    reserves terabytes of address space and so cannot run under an address-space limit."""
    return "libasan" in os.environ.get("LD_PRELOAD", "")


def build_cpp_program(folder: Path, sources: list[Path], name: str, *flags: str) -> Path:
    """Compiles a C++ test program from ``sources`` into ``folder`` with the engine's wheel flags
    (and ``flags``), by the compiler that built the engine; returns its path."""
    from rivals.bench import _tuned

    compiler = _tuned.find_compiler()
    assert compiler is not None, "a C++ compiler builds the engine, so one is on PATH"
    program = folder / name
    subprocess.run(
        [compiler, *_tuned.FLAGS, *flags, "-o", str(program), *map(str, sources)],
        check=True,
        capture_output=True,
        text=True,
    )
    return program


def run_engine_check(folder: Path, name: str, timeout: float = 120) -> list[str]:
    """Builds ``tests/cpp/{name}.cpp`` against the installed engine (its headers and library) and
    runs it; fails with its output unless it exits cleanly with ``ok`` as its last line, and
    returns the lines before that."""
    from rivals.cmake_dir import cmake_dir

    package = Path(cmake_dir()).parent
    program = build_cpp_program(
        folder,
        [ROOT / f"tests/cpp/{name}.cpp", package / "lib/librivals.a"],
        name,
        "-pthread",
        f"-I{package / 'include'}",
    )
    done = subprocess.run([str(program)], capture_output=True, text=True, timeout=timeout)
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and lines[-1:] == ["ok"], done.stdout + done.stderr
    return lines[:-1]
