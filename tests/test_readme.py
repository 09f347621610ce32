"""The README's Python example runs as printed."""

from __future__ import annotations

import pathlib
import re

import pytest


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = pathlib.Path(__file__).parents[1].joinpath("README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README has a Python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "wins" in printed or "draw" in printed
    assert namespace["results"]["returns"].shape == (20, 2)  # type: ignore[index]
