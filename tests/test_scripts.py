"""scripts/setup.sh and scripts/test.sh as a newcomer meets them: a build says what it does and
how long it usually takes, a run with nothing to build says nothing, and the test script's depth
is the quick one unless asked for the full one (as CI asks)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def fake_venv(folder: Path) -> tuple[Path, Path]:
    """A venv whose python only notes how it was called: setup.sh's steps without a build."""
    calls = folder / "calls"
    python = folder / "venv" / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.write_text(f'#!/bin/sh\necho "$*" >> "{calls}"\n', encoding="utf-8")
    python.chmod(0o755)
    return python.parents[1], calls


def setup(venv: Path) -> subprocess.CompletedProcess[str]:
    environment = {**os.environ, "RIVALS_VENV": str(venv), "RIVALS_CCACHE": "0"}
    return subprocess.run(
        ["bash", str(ROOT / "scripts" / "setup.sh")],
        env=environment,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_setup_says_what_it_builds_and_nothing_when_nothing_changed(tmp_path: Path) -> None:
    venv, calls = fake_venv(tmp_path)
    first = setup(venv)
    assert first.returncode == 0, first.stderr
    assert first.stdout == ""
    assert first.stderr.startswith("rivals: setting up"), first.stderr
    assert "the first time usually" in first.stderr and "minutes" in first.stderr
    assert first.stderr.rstrip().splitlines()[-1].startswith("rivals: done in ")
    assert "--editable" in calls.read_text(encoding="utf-8")

    # Built after every input: nothing to do, nothing said, pip not asked.
    calls.unlink()
    later = time.time() + 3600
    for stamp in (".rivals-deps", ".rivals-built"):
        os.utime(venv / stamp, (later, later))
    quiet = setup(venv)
    assert (quiet.returncode, quiet.stdout, quiet.stderr) == (0, "", "")
    assert not calls.exists()

    # A compiled input newer than the last build: a rebuild, announced.
    os.utime(venv / ".rivals-built", (0, 0))
    rebuilt = setup(venv)
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert rebuilt.stderr.startswith("rivals: rebuilding the C++ engine"), rebuilt.stderr
    assert "usually" in rebuilt.stderr and "rivals: done in " in rebuilt.stderr
    assert "--no-deps --editable" in calls.read_text(encoding="utf-8")


def stub_tools(venv: Path, calls: Path) -> None:
    """Every program scripts/test.sh runs from the venv, noting its arguments and the depth."""
    for tool in ("python", "ruff", "mypy", "mkdocs", "clang-format"):
        path = venv / "bin" / tool
        path.write_text(
            f'#!/bin/sh\necho "{tool} RIVALS_TEST_SCALE=$RIVALS_TEST_SCALE $*" >> "{calls}"\n',
            encoding="utf-8",
        )
        path.chmod(0o755)


def pytest_call(venv: Path, calls: Path, *arguments: str, scale: str | None = None) -> str:
    environment = {**os.environ, "RIVALS_VENV": str(venv), "RIVALS_CCACHE": "0"}
    environment.pop("RIVALS_TEST_SCALE", None)
    if scale is not None:
        environment["RIVALS_TEST_SCALE"] = scale
    calls.write_text("", encoding="utf-8")
    done = subprocess.run(
        ["bash", str(ROOT / "scripts" / "test.sh"), *arguments],
        env=environment,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (line,) = [
        line for line in calls.read_text(encoding="utf-8").splitlines() if " -m pytest" in line
    ]
    return line


def test_the_test_script_is_quick_by_default_and_full_when_asked(tmp_path: Path) -> None:
    venv, calls = fake_venv(tmp_path)
    stub_tools(venv, calls)
    later = time.time() + 3600
    for stamp in (".rivals-deps", ".rivals-built"):
        (venv / stamp).touch()
        os.utime(venv / stamp, (later, later))
    assert pytest_call(venv, calls, "-k", "stats").startswith(
        "python RIVALS_TEST_SCALE=0.2 -m pytest -q -n auto -k stats"
    )
    assert " RIVALS_TEST_SCALE=1 -m pytest -q -n auto -k stats" in pytest_call(
        venv, calls, "--full", "-k", "stats"
    )
    # A depth of one's own is kept, unless --full asks for all.
    assert " RIVALS_TEST_SCALE=0.5 " in pytest_call(venv, calls, scale="0.5")
    assert " RIVALS_TEST_SCALE=1 " in pytest_call(venv, calls, "--full", scale="0.5")
    # CI runs the full depth.
    assert "bash scripts/test.sh --full\n" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
