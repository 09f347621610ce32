"""``rivals play`` and ``rivals rules``, run in-process: a person's game at the terminal against
bots (moves, undo, hints, saving and resuming it, what the person's seat may see) and the rules
pages it points to."""

from __future__ import annotations

import io
import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

import rivals
from rivals import cli, replay, rulebook
from rivals.play import reveals
from tests.random_play import random_action

# plain_terminal is autouse: imported, it gives these tests the wide, colourless output too.
from tests.test_cli import Capture, plain_terminal, run  # noqa: F401


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
