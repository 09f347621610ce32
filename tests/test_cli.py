"""The command line, run in-process: arena, play, replay, bench, games."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import shlex
import sys
from pathlib import Path

import pytest
from rich.console import Console

import rivals
from rivals import cli, render, replay, rulebook, stats, viewer
from rivals import tournament as tournaments
from rivals.play import reveals
from rivals.render import svg
from tests.random_play import random_action, random_arena

Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wide, colourless output, whatever the environment running the tests asks for."""
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def table_rows(out: str, labels: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """games, wins, draws, losses of each bot, read back from the results table."""
    rows = {}
    for label in labels:
        pattern = rf"^\s*{re.escape(label)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s"
        match = re.search(pattern, out, flags=re.MULTILINE)
        assert match, f"no row for {label} in:\n{out}"
        games, wins, draws, losses = (int(x) for x in match.groups())
        rows[label] = (games, wins, draws, losses)
    return rows


# --------------------------------------------------------------------------------------------
# arena


def test_arena_random_bots(capsys: Capture) -> None:
    status, out, _ = run(
        capsys, "arena", "rosenkoenig", "--bots", "random,random", "--games", "12", "--threads", "1"
    )
    assert status == 0
    rows = table_rows(out, ["random", "random#2"])
    (games_a, wins_a, draws_a, losses_a), (games_b, wins_b, draws_b, losses_b) = rows.values()
    assert games_a == games_b == 12
    assert wins_a + draws_a + losses_a == 12
    assert (wins_a, draws_a, losses_a) == (losses_b, draws_b, wins_b)
    assert "games/s" in out and "mean length" in out


def test_arena_mcts_writes_replays_that_match_the_table(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--bots",
        "mcts,random",
        "--games",
        "8",
        "--param",
        "mcts.iterations=50",
        "--threads",
        "2",
        "--out",
        str(path),
    )
    assert status == 0
    rows = table_rows(out, ["mcts", "random"])
    assert rows["mcts"][0] == rows["random"][0] == 8
    assert rows["mcts"][1] + rows["random"][1] + rows["mcts"][2] == 8
    assert "iterations=50" in out

    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    wins = {"mcts": 0, "random": 0}
    for index, line in enumerate(lines):
        data = json.loads(line)
        state = replay.loads(line)  # checks every move and the recorded result
        assert state.is_terminal()
        assert state.returns() == data["result"]["returns"]
        assert data["arena"]["index"] == index
        assert data["arena"]["seed"] == 0
        full = rivals.bots.make("mcts", state.game, 0, iterations=50).params
        mcts = {"name": "mcts", "params": full}
        random_bot = {"name": "random", "params": {}}
        seats = [mcts, random_bot] if index % 2 == 0 else [random_bot, mcts]
        assert data["bots"] == seats
        assert data["arena"]["labels"] == [bot["name"] for bot in seats]
        for seat, bot in enumerate(data["arena"]["labels"]):
            if state.returns()[seat] > 0:
                wins[bot] += 1
    assert wins == {"mcts": rows["mcts"][1], "random": rows["random"][1]}


def test_arena_is_independent_of_threads_and_chunks(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = ["arena", "rosenkoenig", "--bots", "mcts,random", "--games", "6", "--seed", "11"]
    common += ["--param", "mcts.iterations=30"]
    outputs = []
    for threads in ("1", "2"):
        path = tmp_path / f"t{threads}.jsonl"
        status, out, _ = run(capsys, *common, "--threads", threads, "--out", str(path))
        assert status == 0
        outputs.append((table_rows(out, ["mcts", "random"]), path.read_bytes()))
    # Chunks of one game each (the chunk size follows the time per chunk) change nothing either.
    monkeypatch.setattr(rivals.arena.backends, "CHUNK_SECONDS", 0.0)
    path = tmp_path / "chunked.jsonl"
    status, out, _ = run(capsys, *common, "--threads", "1", "--out", str(path))
    outputs.append((table_rows(out, ["mcts", "random"]), path.read_bytes()))
    assert outputs[0] == outputs[1] == outputs[2]

    # The arena's games are play_match's, in duplicate pairs (chance_group 2) by default.
    game = rivals.make("rosenkoenig")
    direct = game.play_match(
        [("mcts", {"iterations": 30}), "random"], 6, seed=11, keep_histories=True, chance_group=2
    )
    recorded = [json.loads(line) for line in outputs[0][1].decode().splitlines()]
    assert [[e["action"] for e in r["actions"]] for r in recorded] == direct["histories"]
    path = tmp_path / "unpaired.jsonl"
    status, _, _ = run(capsys, *common, "--unpaired", "--out", str(path))
    assert status == 0
    unpaired = game.play_match(
        [("mcts", {"iterations": 30}), "random"], 6, seed=11, keep_histories=True
    )
    recorded = [json.loads(line) for line in path.read_text().splitlines()]
    assert [[e["action"] for e in r["actions"]] for r in recorded] == unpaired["histories"]


def test_arena_four_players_in_teams(capsys: Capture) -> None:
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--game-param",
        "players=4",
        "--bots",
        "mcts,random",
        "--param",
        "mcts.iterations=20",
        "--games",
        "6",
    )
    assert status == 0
    assert "players=4" in out
    rows = table_rows(out, ["mcts", "random"])
    for games, wins, draws, losses in rows.values():
        assert games == 6 and wins + draws + losses == 6
    assert rows["mcts"][1] == rows["random"][3]
    assert "both sides" not in out


def interrupt_after_first_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C arrives while the second chunk is being written."""
    append = rivals.arena.ReplayLog.append
    calls = []

    def append_then_interrupt(log: rivals.arena.ReplayLog, text: str) -> None:
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        append(log, text)

    monkeypatch.setattr(rivals.arena.ReplayLog, "append", append_then_interrupt)


def test_arena_resume_finishes_exactly_like_an_uninterrupted_run(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = ["arena", "rosenkoenig", "--bots", "mcts,random", "--games", "9", "--seed", "4"]
    common += ["--param", "mcts.iterations=20", "--threads", "2"]
    whole = tmp_path / "whole.jsonl"
    status, whole_out, _ = run(capsys, *common, "--out", str(whole))
    assert status == 0

    cut = tmp_path / "cut.jsonl"
    with monkeypatch.context() as patch:
        interrupt_after_first_chunk(patch)
        status, _, _ = run(capsys, *common, "--out", str(cut))
    assert status == 130
    written = cut.read_bytes()
    assert 0 < written.count(b"\n") < 9
    # A write cut off mid-line leaves a partial last line: resume drops it.
    cut.write_bytes(written + b'{"format": "rivals-re')
    status, resumed_out, _ = run(capsys, *common, "--out", str(cut), "--resume")
    assert status == 0
    assert cut.read_bytes() == whole.read_bytes()
    rows = ["mcts", "random"]
    assert table_rows(resumed_out, rows) == table_rows(whole_out, rows)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--seed", "5"], "seed 4, not 5"),
        (["--bots", "random,mcts"], "other bots"),
        (["--game-param", "players=4"], "other parameters"),
    ],
)
def test_arena_resume_refuses_another_arena(
    capsys: Capture, tmp_path: Path, change: list[str], message: str
) -> None:
    path = tmp_path / "a.jsonl"
    base = ["arena", "rosenkoenig", "--games", "2", "--param", "mcts.iterations=5"]
    status, _, _ = run(capsys, *base, "--seed", "4", "--bots", "mcts,random", "--out", str(path))
    assert status == 0
    argv = {"--seed": "4", "--bots": "mcts,random"}
    argv.update(dict(zip(change[::2], change[1::2])))
    flat = [item for pair in argv.items() for item in pair if pair[0] != "--game-param"]
    if "--game-param" in argv:
        flat += ["--game-param", argv["--game-param"]]
    status, _, err = run(capsys, *base, *flat, "--out", str(path), "--resume")
    assert status == 2
    assert message in err


def test_arena_resume_needs_out(capsys: Capture) -> None:
    status, _, err = run(capsys, "arena", "rosenkoenig", "--games", "1", "--resume")
    assert status == 2
    assert "--out" in err


def test_arena_interrupted_leaves_whole_lines(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupt_after_first_chunk(monkeypatch)
    path = tmp_path / "cut.jsonl"
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--bots",
        "random,random",
        "--games",
        "50",
        "--threads",
        "2",
        "--out",
        str(path),
    )
    assert status == 130
    assert "interrupted after 2 of 50 games" in out
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        replay.loads(line)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nosuchbot"], "nosuchbot"),
        (["--bots", "mcts,,random"], "--bots"),
        (["--bots", "random", "--param", "mcts.iterations=5"], "no bot 'mcts'"),
        (["--bots", "mcts", "--param", "iterations=5"], "BOT.KEY=VALUE"),
        (["--bots", "mcts", "--param", "mcts.bogus=1"], "bogus"),
        (["--bots", "random,random,random"], "3 bots for 2 seats"),
        (["--bots", "random", "random", "random"], "3 bots for 2 seats"),
        (["--bots", "random,", "random"], "expected names separated by spaces or commas"),
        # A byte that is not UTF-8 in an argument comes as a lone surrogate.
        (["--bots", "random", "r\udcff"], "--bots: the name of bots[1] must be 1 to 100 char"),
        (["--game-param", "players=3"], "players"),
        (["--game-param", "players"], "KEY=VALUE"),
    ],
)
def test_arena_errors(capsys: Capture, argv: list[str], message: str) -> None:
    status, _, err = run(capsys, "arena", "rosenkoenig", "--games", "1", *argv)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_arena_and_tournament_take_bots_apart_or_joined_by_commas(
    capsys: Capture, tmp_path: Path, command: str
) -> None:
    """``--bots mcts random``, ``--bots mcts,random`` and a mix are one lineup, for both."""
    outputs, records = [], []
    for index, bots in enumerate(
        (["mcts", "random", "mcts"], ["mcts,random,mcts"], ["mcts,random", "mcts"])
    ):
        out = tmp_path / f"{index}.jsonl"
        game = "verraeter" if command == "arena" else "rosenkoenig"  # two sides for a tournament
        argv = [command, game, "--bots", *bots, "--games", "2", "--threads", "1", "--out", str(out)]
        status, printed, err = run(capsys, *argv, "--param", "mcts.iterations=5")
        assert status == 0, err
        outputs.append(printed_lines(printed.replace(str(out), "OUT")))
        records.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert records[0] == records[1] == records[2]
    assert "mcts#2: mcts with iterations=5" in outputs[0]


def test_unknown_game(capsys: Capture) -> None:
    status, _, err = run(capsys, "arena", "chess", "--games", "1")
    assert status == 2 and "chess" in err


# --------------------------------------------------------------------------------------------
# play


def play(capsys: Capture, monkeypatch: pytest.MonkeyPatch, lines: str, *extra: str) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    status = cli.main(["play", "rosenkoenig", "--bot", "random", "--seed", "5", *extra])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def positions(out: str) -> list[str]:
    """Each position shown to the human: its move list and supply line, in order."""
    return re.findall(r"^(stones left .*\n(?:moves: .*)?)", out, flags=re.MULTILINE)


def test_play_moves_undo_quit(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "1\n2\nundo\n1\nDRAW\nundo\nquit\n")
    shown = positions(out)
    # The start, after two moves, after the undo, after two more moves.
    assert len(shown) == 6
    assert shown[3] == shown[1]
    assert out.count("taken back") == 1
    # The card drawn is known now, and undoing would draw anew: a draw is never taken back.
    assert "cannot undo: chance has been resolved (a card drawn or dealt) since your move" in out
    assert "Red (seat 0) you to move" in out
    assert "White (1) random:" in out


def test_the_command_line_page_shows_the_screen_play_starts_with(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """docs/cli.md, "rivals play": the opening screen shown is the one printed, line for line, at
    the width the page names."""
    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    intro, block = page.split("The last of these starts so", 1)[1].split("```\n", 2)[:2]
    width = re.search(r"(\d+) columns wide", intro)
    assert width, "the page names the terminal's width"
    shown = block.splitlines()
    assert shown[-1] == "your move> 1", "the screen ends where the first move is typed"
    monkeypatch.setenv("COLUMNS", width.group(1))
    monkeypatch.setattr("sys.stdin", io.StringIO("1\nquit\n"))
    assert cli.main(["play", "sekigahara", "--bot", "mcts", "--seed", "3"]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    assert printed[: len(shown)] == shown


def test_play_undo_before_any_move(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "undo\nquit\n")
    assert "nothing to undo" in out


def test_play_rejects_bad_input_and_asks_again(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No stone is on the board yet, so a hero move is well formed but never legal.
    out = play(capsys, monkeypatch, "hero N1\nflibber\n99\n1\n")
    assert "'hero N1' is not legal here" in out
    assert "'flibber' is not a move or a command" in out
    assert "'99' is not a move" in out
    assert out.count("your move>") == 5  # three rejected, one accepted, then end of input
    assert len(positions(out)) == 2


def test_play_answers_a_typo_with_the_moves_and_what_was_meant(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Seed 5 deals Red S3 SW1 W1 W2 NW2.
    out = play(capsys, monkeypatch, "hnt\nsave\nsw 1\nflibber\n1\n")
    assert "moves: 1 S3   2 SW1" in out
    blocks = out.split("your move> ")[1:5]
    assert "did you mean hint?" in blocks[0]
    assert "usage: save FILE" in blocks[1]  # a command without its file: told how it goes
    assert "did you mean SW1?" in blocks[2]
    assert "did you mean" not in blocks[3]
    for block in (blocks[0], blocks[2], blocks[3]):
        # One line on the mistake (and one on what was meant), the moves, one line on help.
        assert "moves: 1 S3   2 SW1   3 W1   4 W2   5 NW2" in block, block
        flat = " ".join(block.split())
        assert "help explains how moves are written" in flat
        assert "rivals rules rosenkoenig" in flat
        assert len(block.strip().splitlines()) <= 6, block
    assert len(positions(out)) == 2  # the move after them was played


def test_play_refuses_odd_input_without_stopping(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Digits int() refuses (a superscript two), a number past int()'s digit limit, a NUL in a
    # file name, a line too long to be a command, escapes meant for the terminal: each is refused
    # and the game goes on to the move after them.
    monkeypatch.chdir(tmp_path)
    lines = ["\u00b2", "9" * 20, "save a\x00b", "x" * 10_000, "save \x1b[31mred.json", "1"]
    out = play(capsys, monkeypatch, "\n".join(lines) + "\n")
    assert "'\u00b2' is not a move or a command" in out
    assert "'99999999999999999999' is not a move or a command" in out  # no menu number
    assert "cannot save 'a\\x00b': not a file name" in out
    assert "a line of 10000 characters is not a move or a command" in out
    assert "\x1b" not in out and "saved '\\x1b[31mred.json'" in out
    assert len(positions(out)) == 2  # the move after them was played


def test_play_ends_on_input_without_line_ends_or_without_input(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = play(capsys, monkeypatch, "x" * (3 << 20))
    assert "input line longer than 1048576 characters: stopping" in out
    out = play(capsys, monkeypatch, "x" * 5000)  # the input ends in a long line
    assert "a line of 5000 characters is not a move or a command" in out
    out = play(capsys, monkeypatch, "1" + " " * 4095 + "\n")  # 4,096 characters: a command
    assert "is not a move or a command" not in out and len(positions(out)) == 2
    monkeypatch.setattr("sys.stdin", None)  # started with standard input closed
    assert cli.main(["play", "rosenkoenig", "--bot", "random", "--seed", "5"]) == 0
    assert "seed 5" in capsys.readouterr().out


def test_play_hint_and_save(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    out = play(
        capsys,
        monkeypatch,
        f"hint\n1\nsave {path}\nquit\n",
        "--param",
        "mcts.iterations=20",
    )
    assert re.search(r"hint: mcts would play \S+", out)
    data = json.loads(path.read_text(encoding="utf-8"))
    assert replay.from_dict(data).history() == [entry["action"] for entry in data["actions"]]
    assert data["actions"][10]["player"] == 0  # the human's move, after the ten cards dealt
    assert f"saved {path}" in out


def test_play_hides_what_a_replay_or_an_undo_would_tell(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(f"1\nundo\nsave {path}\nquit\n"))
    argv = ["play", "verraeter", "--bot", "random", "--seed", "3", "--seat", "1"]
    assert cli.main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    # The other seats have drafted since: taking the move back would keep what they showed.
    assert "cannot undo: another seat has moved since your move" in out
    # Saved in progress, with a word on what the file holds and how the game goes on.
    assert f"saved {path} it holds every hidden card" in out
    assert "open it only once the game is over" in out
    assert f"rivals play --resume {path} continues this game" in out
    data = json.loads(path.read_text(encoding="utf-8"))
    assert not replay.from_dict(data).is_terminal()
    assert data["bots"][1] is None
    assert [bot["name"] for seat, bot in enumerate(data["bots"]) if seat != 1] == ["random"] * 3


def resume(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, lines: str, *argv: str, status: int = 0
) -> tuple[str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert cli.main(["play", *argv]) == status
    out, err = capsys.readouterr()
    return out, err


@pytest.mark.parametrize("game", ["verraeter", "battlecards", "rheinlaender", "rosenkoenig"])
def test_play_saves_a_game_in_progress_and_resumes_it(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, game: str
) -> None:
    path = tmp_path / "game.json"
    argv = [game, "--bot", "random", "--seed", "4", "--seat", "1"]
    resume(capsys, monkeypatch, f"1\n1\nsave {path}\nquit\n", *argv)
    saved = replay.from_dict(json.loads(path.read_text(encoding="utf-8")))
    hidden = saved.game.info.information == "imperfect"
    # Resumed as the seat it was saved by, against the bots it was saved with.
    out, _ = resume(capsys, monkeypatch, "undo\n1\n1\nquit\n", "--resume", str(path))
    flat = " ".join(out.split())
    assert f"resumed {path}: {len(saved.history())} moves played" in flat
    assert re.search(r"you are (\w+ \()?seat 1\)? against random", flat), flat
    if hidden:
        # The person may have read the file: nothing before the save is taken back.
        assert "cannot undo: the saved game shows every hidden card since your move" in flat
    last = " ".join(out.rsplit("your move> quit", 1)[1].split())
    assert re.fullmatch(
        rf"seed \d+ \(--seed \d+ with --resume {re.escape(str(path))} draws the later cards "
        r"again\)",
        last,
    ), last
    # Played on to the end from the saved position.
    moves = "1\n" * 600
    done = tmp_path / "done.json"
    resume(capsys, monkeypatch, f"{moves}save {done}\nquit\n", "--resume", str(path), "--seed", "1")
    final = replay.from_dict(json.loads(done.read_text(encoding="utf-8")))
    assert final.is_terminal()
    assert final.history()[: len(saved.history())] == saved.history()


def test_play_resume_says_which_settings_the_file_gives_its_bots(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    argv = ["verraeter", "--param", "iterations=7", "--param", "exploration=0.5", "--seed", "2"]
    resume(capsys, monkeypatch, f"save {path}\nquit\n", *argv)
    out, _ = resume(capsys, monkeypatch, "quit\n", "--resume", str(path))
    for seat in (1, 2, 3):
        assert f"  seat {seat}: ismcts with iterations=7 exploration=0.5\n" in out
    # --param chooses anew: the file's settings are not used, nor told.
    out, _ = resume(capsys, monkeypatch, "quit\n", "--resume", str(path), "--param", "iterations=3")
    assert "with iterations" not in out


def test_play_resume_refuses_what_does_not_fit(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    resume(capsys, monkeypatch, f"1\nsave {path}\nquit\n", "verraeter", "--bot", "random")
    cases = [
        (["--resume", str(path), "--seat", "2"], "was saved by the player of seat 0"),
        (["--resume", str(path), "--game-param", "players=3"], "keeps the rules it was saved"),
        (["rosenkoenig", "--resume", str(path)], "is a game of verraeter, not rosenkoenig"),
        (["--resume", str(tmp_path / "none.json")], "no such file"),
        ([], "name a game"),
    ]
    for argv, message in cases:
        _, err = resume(capsys, monkeypatch, "quit\n", *argv, status=2)
        assert message in err, (argv, err)
    # A file whose bot settings the bot refuses: the seat is named, the game not started.
    data = json.loads(path.read_text(encoding="utf-8"))
    data["bots"][2]["params"]["iterations"] = -1
    broken = tmp_path / "broken.json"
    broken.write_text(json.dumps(data), encoding="utf-8")
    _, err = resume(capsys, monkeypatch, "quit\n", "--resume", str(broken), status=2)
    assert f"{broken}: seat 2" in err and "iterations" in err
    ended = tmp_path / "ended.json"
    resume(
        capsys,
        monkeypatch,
        "1\n" * 200 + f"save {ended}\nquit\n",
        "rosenkoenig",
        "--bot",
        "random",
        "--seed",
        "5",
    )
    _, err = resume(capsys, monkeypatch, "quit\n", "--resume", str(ended), status=2)
    assert "the game is over (rivals replay" in err


def test_play_takes_nothing_back_once_a_saved_game_has_shown_the_cards(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # Rheinlaender ends on the person's own move, which undo could take back; saved at the end,
    # the game holds every hand, so a move taken back after it would be played knowing them.
    moves = "1\n" * 200  # more than the game lasts: the rest are refused at its end
    argv = ["play", "rheinlaender", "--bot", "random", "--seed", "0"]
    monkeypatch.setattr("sys.stdin", io.StringIO(moves + "undo\nquit\n"))
    assert cli.main(argv) == 0
    assert "taken back to your previous move" in capsys.readouterr().out
    path = tmp_path / "game.json"
    monkeypatch.setattr("sys.stdin", io.StringIO(moves + f"save {path}\nundo\nquit\n"))
    assert cli.main(argv) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert f"saved {path}" in out
    assert "cannot undo: the saved game shows every hidden card since your move" in out
    assert "taken back" not in out


def test_a_battle_reveals_cards_and_deploying_does_not() -> None:
    game = rivals.make("battlecards")
    rng = random.Random(1)
    told: dict[tuple[str, bool], int] = {}
    for _ in range(4):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
                continue
            seat, before = state.current_player(), state.history()
            action = rng.choice(state.legal_actions())
            verb = state.action_to_string(action).split()[0]
            state.apply_action(action)
            if verb in ("fight", "deploy") and not state.is_terminal():
                key = (verb, reveals(game, seat, before, [action]))
                told[key] = told.get(key, 0) + 1
    assert told.get(("fight", True), 0) >= 3  # enemy cards turned face up
    assert told.get(("deploy", True), 0) == 0 and told.get(("deploy", False), 0) >= 10


def test_play_save_never_overwrites(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "game.json"
    path.write_text("an earlier game\n", encoding="utf-8")
    out = play(capsys, monkeypatch, f"1\nsave {path}\nquit\n")
    assert f"{path} exists; save to a new file name" in out
    assert path.read_text(encoding="utf-8") == "an earlier game\n"


@pytest.mark.parametrize(
    ("game", "bot", "hint"),
    [
        ("verraeter", "ismcts", "ismcts"),
        ("battlecards", "ismcts", "ismcts"),
        ("sekigahara", "mcts", "mcts"),
    ],
)
def test_play_defaults_to_bots_that_do_not_peek(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, game: str, bot: str, hint: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("hint\nquit\n"))
    params = ["--param", f"{bot}.iterations=10"] + (
        [] if bot == hint else ["--param", f"{hint}.iterations=10"]
    )
    assert cli.main(["play", game, "--seed", "2", *params]) == 0
    out = capsys.readouterr().out
    assert f"against {bot}\n" in out
    # The seed decides the cards: it is told only when the person leaves.
    *session, last = out.rstrip().splitlines()
    assert "seed" not in "\n".join(session)
    assert last == "seed 2 (--seed 2 deals and draws this game's cards again)"
    assert f"hint: {hint} would play " in out
    assert "sees your hidden cards" not in out


def test_play_says_when_a_bot_peeks(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert cli.main(["play", "rheinlaender", "--bot", "mcts", "--param", "iterations=5"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "note: mcts searches the true state, so it sees your hidden cards" in out
    assert "you are red (seat 0) against mcts" in out


def test_rules_prints_the_page(capsys: Capture) -> None:
    # The rules a person plays by, and where the engine's encoding is: --full adds it.
    status, out, _ = run(capsys, "rules", "verraeter")
    assert status == 0
    assert out.startswith("# Verräter (Traitor)")
    page = rulebook.page("verraeter")
    assert out.startswith(rulebook.rules("verraeter")) and page.startswith(
        rulebook.rules("verraeter")
    )
    assert "## Engine encoding" in page and "## Engine encoding" not in out
    assert "## End and scoring" in out
    assert out.rstrip().endswith("`rivals rules verraeter --full`.")
    status, out, _ = run(capsys, "rules", "verraeter", "--full")
    assert status == 0 and out == page
    status, _, err = run(capsys, "rules", "chess")
    assert status == 2 and "unknown game 'chess'" in err


def test_rules_at_a_terminal_go_through_a_pager(tmp_path: Path) -> None:
    pexpect = pytest.importorskip("pexpect")
    kept = tmp_path / "paged.txt"
    pager = tmp_path / "pager.py"
    pager.write_text(
        f"import sys\nopen({str(kept)!r}, 'w', encoding='utf-8').write(sys.stdin.read())\n",
        encoding="utf-8",
    )
    for extra, encoding in (([], False), (["--full"], True)):
        child = pexpect.spawn(
            sys.executable,
            ["-m", "rivals.cli", "rules", "rosenkoenig", *extra],
            env={**os.environ, "PAGER": f"{sys.executable} {pager}", "TERM": "xterm-256color"},
            dimensions=(24, 80),
            encoding="utf-8",
            timeout=60,
        )
        child.expect(pexpect.EOF)
        child.close()
        assert child.exitstatus == 0
        paged = kept.read_text(encoding="utf-8")
        assert "Rosenkönig" in paged and "End of the game" in paged
        assert "\x1b[" in paged  # rendered with its styles
        assert ("Engine encoding" in paged) == encoding
        # Nothing of the page went to the terminal itself.
        assert "End of the game" not in child.before


def test_rules_pages_ship_in_the_package() -> None:
    from importlib import resources

    shipped = resources.files("rivals").joinpath("rules")
    docs = Path(__file__).parents[1] / "docs" / "rules"
    for name in rivals.games():
        page = shipped.joinpath(f"{name}.md")
        assert page.is_file(), name
        assert page.read_text(encoding="utf-8") == (docs / f"{name}.md").read_text(encoding="utf-8")


def test_play_to_the_end(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "1\n" * 200, "--seat", "1")
    assert "game over:" in out
    assert re.search(r"game over: (Red|White) wins|game over: draw", out)
    assert "the game is over" in out


def test_play_four_players(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    out = play(capsys, monkeypatch, "1\nquit\n", "--game-param", "players=4", "--seat", "2")
    assert "you are Red (seat 2)" in out
    assert "White (seat 3) random" in out


def test_play_bad_seat(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert cli.main(["play", "rosenkoenig", "--seat", "2"]) == 2
    assert "seats 0 to 1" in capsys.readouterr().err


# --------------------------------------------------------------------------------------------
# replay


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


# --------------------------------------------------------------------------------------------
# games, version, bench


def test_games(capsys: Capture) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert re.search(r"rosenkoenig\s+2, 4\s+\S", out)
    for name in rivals.games():
        assert name in out


def test_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"rivals {rivals.__version__}"


def test_no_command_prints_help(capsys: Capture) -> None:
    assert cli.main([]) == 2
    assert "arena" in capsys.readouterr().out


def test_bench_calls_rivals_bench(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    from rivals import bench

    calls: list[tuple[list[str], bool, bool]] = []

    def fake(games: list[str], quick: bool, markdown_page: bool = False) -> int:
        calls.append((games, quick, markdown_page))
        return 0

    monkeypatch.setattr(bench, "main", fake)
    assert cli.main(["bench", "rosenkoenig", "--quick"]) == 0
    assert cli.main(["bench"]) == 0
    assert cli.main(["bench", "scale"]) == 0
    assert cli.main(["bench", "sekigahara", "--markdown"]) == 0
    assert calls == [
        (["rosenkoenig"], True, False),
        (rivals.games(), False, False),
        (["scale"], False, False),
        (["sekigahara"], False, True),
    ]
    status, _, err = run(capsys, "bench", "chess")
    assert status == 2 and "chess" in err


# A command of docs/cli.md and, right below it, what it prints.
PRINTED = re.compile(
    r"```sh\n(rivals (?:arena|tournament) (?:[^\n]*\\\n)*[^\n]*)\n```\n\n```\n(.*?)```\n", re.DOTALL
)


def printed_lines(text: str) -> list[str]:
    """The lines of a command's output as the page can show them: blank lines and the machine's
    speed (games per second, seconds, threads) aside."""
    lines = []
    for line in text.splitlines():
        line = re.sub(r"[\d.,]+ games/s", "N games/s", line.rstrip())
        line = re.sub(r"[\d.,]+ s( on \d+ threads?)?(?=[;,]|$)", "T", line)
        if line:
            lines.append(line)
    return lines


def test_the_command_line_page_shows_what_arena_and_tournament_print(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """docs/cli.md: the output shown below each `rivals arena` or `rivals tournament` command is
    what the command prints (bots by iterations: the same on any machine), and so is the game of
    the first arena's file that `rivals replay` shows."""
    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    samples = PRINTED.findall(page)
    assert len(samples) >= 3, "the arena, free-for-all and tournament examples"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    for command, shown in samples:
        argv = shlex.split(command.replace("\\\n", " "))
        assert cli.main(argv[1:]) == 0, command
        printed = capsys.readouterr().out
        assert printed_lines(printed) == printed_lines(shown), command
    # A game of the first arena's file, move by move; "..." stands for lines left out.
    replayed = re.search(
        r"```sh\n(rivals replay games\.jsonl [^\n]*)\n```\n\n```\n(.*?)```", page, re.S
    )
    assert replayed, "the page shows a game of that file replayed"
    assert cli.main(shlex.split(replayed.group(1))[1:]) == 0
    printed = printed_lines(capsys.readouterr().out)
    at, skipping = 0, False
    for line in printed_lines(replayed.group(2)):
        if line.strip() == "...":
            skipping = True
            continue
        found = printed.index(line, at) if skipping else at
        assert printed[found] == line, (line, printed[found])
        at, skipping = found + 1, False


def test_the_command_line_page_names_every_benchmark_that_is_not_a_game() -> None:
    """docs/cli.md, "rivals bench": besides the games, every name `rivals bench` takes."""
    from rivals import bench

    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = page.split("## `rivals bench`", 1)[1].split("\n## ", 1)[0]
    others = sorted(set(bench.games()) - set(rivals.games()))
    assert others, "scale and learning are benchmarks of their own"
    for name in others:
        assert f"`{name}`" in section, name


def test_bench_help_names_every_benchmark_that_is_not_a_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rivals import bench

    with pytest.raises(SystemExit):
        cli.main(["bench", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in sorted(set(bench.games()) - set(rivals.games())):
        assert f"{name} (" in shown, name


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


def test_rules_and_pictures_go_to_a_redirected_standard_output() -> None:
    # A caller may put a text stream in stdout's place, which has no bytes underneath.
    caught = io.StringIO()
    with contextlib.redirect_stdout(caught):
        assert cli.main(["rules", "rosenkoenig", "--plain"]) == 0
    assert caught.getvalue().startswith("# Rosenk")


def test_a_few_games_get_no_interval_and_an_sprt_a_wider_one(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two pairs of random play, each split 1-1, said "Elo +0 (-17 to +17)"; a Sekigahara pair
    lost twice, "swept (<= -408)"."""
    monkeypatch.setenv("COLUMNS", "200")
    status, out, _ = run(capsys, "arena", "rosenkoenig", "--bots", "random,random", "--games", "4")
    assert status == 0
    assert (
        "random vs random#2: Elo +0 (too few games for a 95% interval), 2 duplicate pairs "
        "0-0-2-0-0" in out
    )
    status, out, _ = run(capsys, "arena", "sekigahara", "--bots", "random,random", "--games", "2")
    assert status == 0 and "Elo swept (too few games for a 95% interval), 1 duplicate" in out
    argv = ["arena", "rosenkoenig", "--bots", "random,mcts", "--param", "mcts.iterations=20"]
    status, out, _ = run(capsys, *argv, "--games", "400", "--sprt", "0,150")
    assert status == 0
    line = next(line for line in out.splitlines() if line.startswith("random vs mcts: Elo "))
    assert "at 95% after the SPRT" in line
    pairs = [int(n) for n in line.split(" duplicate pairs ")[1].split()[0].split("-")]
    after = stats.elo_estimate(pairs, sequential=True)
    assert tournaments.elo_text(after) in line
    assert tournaments.elo_text(stats.elo_estimate(pairs)) not in line
