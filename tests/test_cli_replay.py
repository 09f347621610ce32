"""``rivals replay`` and ``rivals render``, run in-process: a saved game or a replay log read
back move by move, for the whole table or one seat, and drawn as SVG and HTML."""

from __future__ import annotations

import io
import json
import os
import random
import re
from pathlib import Path

import pytest
from rich.console import Console

import rivals
from rivals import render, replay, viewer
from rivals.render import svg
from tests.random_play import random_action, random_arena

# plain_terminal is autouse: imported, it gives these tests the wide, colourless output too.
from tests.test_cli import Capture, plain_terminal, run  # noqa: F401


@pytest.fixture
def saved_game(tmp_path: Path) -> tuple[Path, rivals.State]:
    game = rivals.make("rosenkoenig")
    histories = game.play_match(["random", "random"], 1, seed=4, keep_histories=True)["histories"]
    state = game.state_from_history(histories[0])
    path = tmp_path / "game.json"
    path.write_text(replay.dumps(state, indent=1), encoding="utf-8")
    return path, state


def test_replay_prints_every_move(capsys: Capture, saved_game: tuple[Path, rivals.State]) -> None:
    path, state = saved_game
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    moves = re.findall(r"^\s*(\d+)\s+(chance|Red \(0\)|White \(1\))\s+(\S.*)$", out, re.MULTILINE)
    assert [int(m[0]) for m in moves] == list(range(1, len(state.history()) + 1))
    walker = state.game.new_initial_state()
    for (_, _, text), action in zip(moves, state.history()):
        assert text.strip() == walker.action_to_string(action)
        walker.apply_action(action)
    assert out.count("final position") == 1
    assert re.search(r"result: (Red wins|White wins|draw)", out)


def test_replay_of_a_game_in_progress_shows_who_is_to_move(
    capsys: Capture, saved_game: tuple[Path, rivals.State], tmp_path: Path
) -> None:
    _, finished = saved_game
    history = finished.history()
    state = next(
        state
        for length in range(30, len(history))
        if not (state := finished.game.state_from_history(history[:length])).is_chance_node()
    )
    path = tmp_path / "unfinished.json"
    path.write_text(replay.dumps(state), encoding="utf-8")
    status, out, _ = run(capsys, "replay", str(path))
    assert status == 0
    assert "final position" not in out
    assert re.search(r"^(Red|White) \(seat [01]\) to move$", out, re.MULTILINE)
    assert "(game in progress)" in out


def test_replay_boards(capsys: Capture, saved_game: tuple[Path, rivals.State]) -> None:
    path, state = saved_game
    status, out, _ = run(capsys, "replay", str(path), "--boards")
    assert status == 0
    assert out.count("stones left") == len(state.history()) + 1


def test_replay_jsonl_index(capsys: Capture, tmp_path: Path) -> None:
    path = random_arena(tmp_path / "games.jsonl", "rosenkoenig", 3)
    capsys.readouterr()
    third = replay.loads(path.read_text(encoding="utf-8").splitlines()[2])
    status, out, _ = run(capsys, "replay", str(path), "--index", "2")
    assert status == 0
    assert "White (1): random#2" in out
    assert f"{len(third.history()):>4}  " in out
    status, _, err = run(capsys, "replay", str(path), "--index", "3")
    assert status == 2 and "holds 3 replays" in err


def test_replay_corrupt_entry(
    capsys: Capture, tmp_path: Path, saved_game: tuple[Path, rivals.State]
) -> None:
    path, _ = saved_game
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"][14]["action"] = 49
    data["actions"][14]["text"] = "pass"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    status, out, err = run(capsys, "replay", str(bad))
    assert status == 2
    assert out == ""
    assert "actions[14]" in err and "bad.json" in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [(None, "no such file"), ("{not json", "not JSON"), ('{"format": "x"}', "'format'")],
)
def test_replay_errors(capsys: Capture, tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "replay.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path))
    assert status == 2 and message in err
    assert len(err.strip().splitlines()) == 1


def test_replay_bad_line_in_jsonl(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    good = replay.dumps(rivals.make("rosenkoenig").new_initial_state())
    path.write_text(good + "\n" + good[:40] + "\n", encoding="utf-8")
    status, _, err = run(capsys, "replay", str(path), "--index", "1")
    assert status == 2 and "line 2" in err and "not JSON" in err


def test_replay_for_one_seat_shows_only_its_view(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "1000")  # a move whose reveal is long stays on one line
    game = rivals.make("verraeter")
    history = game.play_match(["random"] * game.num_players, 1, seed=2, keep_histories=True)[
        "histories"
    ][0]
    state = game.state_from_history(history)
    path = tmp_path / "game.json"
    path.write_text(replay.dumps(state), encoding="utf-8")

    def moves(out: str) -> list[str]:
        return [m.strip() for m in re.findall(r"^\s*\d+\s+(?:chance|seat \d)\s+(.*)$", out, re.M)]

    status, out, _ = run(capsys, "replay", str(path), "--player", "1")
    assert status == 0 and "as seat 1 sees it" in out
    seen = moves(out)
    assert seen == render.move_texts(state, 1)
    assert any("(hidden)" in text for text in seen)  # other seats' picks and draws
    status, whole, _ = run(capsys, "replay", str(path))
    everything = moves(whole)
    assert not any("(hidden)" in text for text in everything)

    # The final position as seat 1 sees it, not the whole table.
    def shown(player: int | None) -> str:
        console = Console(file=io.StringIO(), width=1000, no_color=True)
        console.print(render.render(state, player=player))
        return console.file.getvalue()  # type: ignore[attr-defined,no-any-return]

    assert shown(1) != shown(None)
    assert shown(1) in out and shown(None) not in out


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_replay_reads_regular_files_only(capsys: Capture, tmp_path: Path, kind: str) -> None:
    """A FIFO would block the reader for ever and /dev/zero never ends: both are refused."""
    if kind == "fifo":
        path = tmp_path / "game.json"
        os.mkfifo(path)
    else:
        path = Path("/dev/zero")
    status, out, err = run(capsys, "replay", str(path))
    assert status == 2 and out == ""
    assert err.strip() == f"rivals replay: error: {path}: not a regular file"
    with pytest.raises(ValueError, match="not a regular file"):
        replay.load(path)


def test_replay_load_reads_a_file(saved_game: tuple[Path, rivals.State]) -> None:
    path, state = saved_game
    assert replay.load(path).history() == state.history()


def test_render_falls_back_to_str(monkeypatch: pytest.MonkeyPatch) -> None:
    from rich.console import Console

    from rivals import boxes, render

    state = rivals.make("rosenkoenig").new_initial_state()
    # As for a game whose box has no terminal pictures.
    monkeypatch.setitem(boxes._found, ("rosenkoenig", "terminal"), None)
    console = Console(width=100, record=True)
    console.print(render.render(state, ["you", "mcts"]))
    text = console.export_text()
    assert str(state).strip().splitlines()[0] in text
    assert "seat 1: mcts" in text
    assert render.seat_label("rosenkoenig", 2, 1) == "seat 1"
    assert render.result_text(state) == "scores 0-0 (game in progress)"


def test_replay_html_and_render_svg(capsys: Capture, tmp_path: Path) -> None:
    state = rivals.make("rosenkoenig").new_initial_state()
    rng = random.Random(2)
    for _ in range(40):
        state.apply_action(rng.choice(state.legal_actions()))
    path = tmp_path / "game.json"
    path.write_text(replay.dumps(state), encoding="utf-8")

    page = tmp_path / "game.html"
    status, out, _ = run(capsys, "replay", str(path), "--html", str(page))
    assert status == 0 and "40 moves" in out
    html = page.read_text(encoding="utf-8")
    assert len(viewer.frames_of(html)) == 41 and "http" not in html.split("<svg", 1)[0].lower()

    picture = tmp_path / "step.svg"
    status, _, _ = run(capsys, "render", str(path), "--step", "12", "--out", str(picture))
    assert status == 0
    expected = svg.to_svg(state.game.state_from_history(state.history()[:12]))
    assert picture.read_text(encoding="utf-8") == expected
    status, out, _ = run(capsys, "render", str(path))
    assert status == 0 and out == svg.to_svg(state)
    status, _, err = run(capsys, "render", str(path), "--step", "99")
    assert status == 2 and "step 99 is out of range" in err


def test_replay_html_of_the_whole_record_switches_views(capsys: Capture, tmp_path: Path) -> None:
    state = rivals.make("verraeter").new_initial_state()
    rng = random.Random(3)
    for _ in range(60):
        state.apply_action(random_action(state, rng))
    path = tmp_path / "game.json"
    path.write_text(replay.dumps(state), encoding="utf-8")
    pages = {}
    for name, extra in (("whole", []), ("seat", ["--player", "1"]), ("public", ["--spectator"])):
        page = tmp_path / f"{name}.html"
        status, out, _ = run(capsys, "replay", str(path), "--html", str(page), *extra)
        assert status == 0
        said = "every seat's view, hidden cards included" in " ".join(out.split())
        assert said == (name == "whole"), out
        pages[name] = page.read_text(encoding="utf-8")
    assert '<select id="view"' in pages["whole"]
    assert "<select" not in pages["seat"] and "<select" not in pages["public"]
    assert pages["public"] == viewer.to_html(state)
    assert pages["seat"] == viewer.to_html(state, 1)
    status, _, err = run(capsys, "replay", str(path), "--player", "1", "--spectator")
    assert status == 2 and "choose one view" in err


def test_replay_html_and_render_svg_keep_existing_files(capsys: Capture, tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    status, _, _ = run(
        capsys, "arena", "sekigahara", "--bots", "random,random", "--games", "2", "--out", str(log)
    )
    assert status == 0
    record = log.read_bytes()
    page, picture = tmp_path / "game.html", tmp_path / "end.svg"
    page.write_text("kept", encoding="utf-8")
    picture.write_text("kept", encoding="utf-8")
    status, _, err = run(capsys, "replay", str(log), "--index", "0", "--html", str(page))
    assert status == 2 and "already exists" in err and "--force" in err
    status, _, err = run(capsys, "render", str(log), "--index", "0", "--out", str(picture))
    assert status == 2 and "already exists" in err and "--force" in err
    assert page.read_text(encoding="utf-8") == picture.read_text(encoding="utf-8") == "kept"
    # --force replaces an old output but never the saved game it reads.
    for command, option in (("replay", "--html"), ("render", "--out")):
        for spelling in (log, tmp_path / "." / "games.jsonl"):
            argv = (command, str(log), "--index", "0", option, str(spelling), "--force")
            status, _, err = run(capsys, *argv)
            assert status == 2 and "is the replay file being read" in err
    assert log.read_bytes() == record
    status, _, _ = run(capsys, "replay", str(log), "--index", "1", "--html", str(page), "--force")
    assert status == 0 and len(viewer.frames_of(page.read_text(encoding="utf-8"))) > 1
    status, _, _ = run(capsys, "render", str(log), "--index", "1", "--out", str(picture), "--force")
    assert status == 0 and picture.read_text(encoding="utf-8").startswith("<svg")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["end.svg", "game.html", "games.jsonl"]
