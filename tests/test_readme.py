"""The front pages as the code has them: the README's Python example runs, its table of games and
list of sub-commands are the engine's and the command line's, the installation page names every
extra a user may install, and the paths and links of every page exist."""

from __future__ import annotations

import pathlib
import re

import pytest

import rivals


def test_readme_example_runs(capsys: pytest.CaptureFixture[str]) -> None:
    text = pathlib.Path(__file__).parents[1].joinpath("README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.DOTALL)
    assert blocks, "the README has a Python example"
    namespace: dict[str, object] = {}
    exec(compile(blocks[0], "README.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert "wins" in printed or "draw" in printed
    assert namespace["results"]["returns"].shape == (20, 2)  # type: ignore[index]


def test_the_installation_page_names_every_extra() -> None:
    """docs/installation.md, "From a wheel": a line for each optional extra of pyproject.toml
    (`test` and `dev` are the checkout's own)."""
    root = pathlib.Path(__file__).parents[1]
    project = root.joinpath("pyproject.toml").read_text(encoding="utf-8")
    section = project.split("[project.optional-dependencies]\n", 1)[1].split("\n[", 1)[0]
    extras = set(re.findall(r"^([a-z][a-z0-9_-]*) = ", section, flags=re.MULTILINE))
    assert {"test", "dev", "ray"} <= extras
    page = root.joinpath("docs", "installation.md").read_text(encoding="utf-8")
    for extra in sorted(extras - {"test", "dev"}):
        assert f'pip install "rivals[{extra}]"' in page, extra


def test_the_readme_lists_every_game_with_its_player_counts() -> None:
    """The README's table of games: a row per game, linking its rules page, with the player
    counts the game accepts (`3-5` a range, `2, or 4 in teams` a list)."""
    text = pathlib.Path(__file__).parents[1].joinpath("README.md").read_text(encoding="utf-8")
    counts = {}
    for line in text.splitlines():
        page = re.match(r"\| \[[^\]]+\]\(docs/rules/(\w+)\.md\)[^|]*\| ([^|]+) \|", line)
        if page:
            ranges = re.findall(r"(\d+)(?:-(\d+))?", page.group(2))
            counts[page.group(1)] = tuple(
                n for low, high in ranges for n in range(int(low), int(high or low) + 1)
            )
    assert sorted(counts) == rivals.games()
    for name, listed in counts.items():
        assert listed == rivals.make(name).info.player_counts, name


def test_the_readme_names_every_sub_command() -> None:
    """The README's list of what `scripts/run.sh` runs: every `rivals` sub-command, in the order
    `rivals --help` lists them."""
    from rivals import cli

    text = pathlib.Path(__file__).parents[1].joinpath("README.md").read_text(encoding="utf-8")
    listed = re.search(r"runs any `rivals` sub-command \(([^)]*)\)", " ".join(text.split()))
    assert listed, "the README lists the sub-commands"
    names = re.findall(r"`([a-z]+)`", listed.group(1))
    assert names == list(cli.build_parser().commands)  # type: ignore[attr-defined]


def test_the_paths_and_links_of_the_pages_exist() -> None:
    """The README and docs/*.md: every file or folder of the repository they name (a path in
    backticks from a top-level folder, or a relative link) is there."""
    root = pathlib.Path(__file__).parents[1]
    # build/ is made by the build (the fuzzers' folders among it), not kept in the repository.
    kept = [p.name for p in root.iterdir() if p.is_dir() and p.name[0] not in "._"]
    folders = "|".join(name for name in kept if name != "build")
    named = re.compile(rf"`((?:{folders})/[\w./-]*)`")
    missing = []
    for page in [root / "README.md", *sorted((root / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        for path in named.findall(text):
            if not (root / path).exists():
                missing.append(f"{page.name}: {path}")
        for link in re.findall(r"\]\(([^)#\s:]+)(?:#[^)]*)?\)", text):
            if not (page.parent / link).exists():
                missing.append(f"{page.name}: link {link}")
    assert not missing
