"""``rivals play`` driven as a person drives it: in a pseudo-terminal, every game from the first
move to the end, with a fixed seed and quick bots. Each screen is checked against the true state
(``to_dict()``) at that moment: it never shows a card another seat holds hidden. Illegal input
gets the moves again (``help`` the game's own help), and the last line names the winner in
words."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import replay
from rivals.render import result_text
from rivals.render._data import card_index
from tests.battlecards.helpers import unseen_by_others

pexpect = pytest.importorskip("pexpect")

ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[=>]|\r")
PROMPT = [r"your move> ", r"\n(?:\x1b\[[0-9;]*m)*> "]
HINT = re.compile(r"hint: \S+ would play (.+?)(?: \(\d+\))?\n")
# Words of each game's move help that the rejection of an illegal input must show.
HELP_WORDS = {
    "battlecards": "deploy one reserve card face down",
    "rheinlaender": "reinforce 13L with 40",
    "rosenkoenig": "hero NE2",
    "sekigahara": "place 7",
    "verraeter": "the traitor (Verraeter) changes house",
}
SEED = {"battlecards": 4, "rheinlaender": 2, "rosenkoenig": 3, "sekigahara": 5, "verraeter": 1}


def play(*argv: str, env: dict[str, str], dimensions: tuple[int, int] | None = None) -> Any:
    """``rivals play *argv`` in a pseudo-terminal (pexpect's), with ``env`` added to this
    environment; ``dimensions`` (rows, columns), None for pexpect's own."""
    return pexpect.spawn(
        sys.executable,
        ["-m", "rivals.cli", "play", *argv],
        env={**os.environ, **env},
        dimensions=dimensions,
        encoding="utf-8",
        timeout=60,
    )


def screens_of(game: str, tmp_path: Path) -> tuple[list[str], str, rivals.State, int]:
    """Plays ``game`` as seat 0 to the end, each move the one a hint proposes; returns the
    screen shown before every decision, the whole transcript, the final state and the seat."""
    hint = "mcts" if game in ("rosenkoenig", "sekigahara") else "ismcts"
    saved = tmp_path / f"{game}.json"
    child = play(
        game,
        *("--bot", "random", "--seed", str(SEED[game]), "--param", f"{hint}.iterations=8"),
        env={"COLUMNS": "110", "LINES": "60", "TERM": "xterm-256color"},
        dimensions=(60, 110),
    )
    transcript: list[str] = []

    def wait() -> tuple[int, str]:
        found = child.expect(PROMPT)
        text = ANSI.sub("", child.before)
        transcript.append(text)
        return found, text

    found, first = wait()
    screens = [first]
    child.sendline("flibber")
    _, rejected = wait()
    assert "'flibber' is not a move or a command" in rejected
    # The moves again, numbered, and where the game's help and rules are.
    assert re.search(r"(^ *|: )1 \S", rejected, re.MULTILINE), rejected
    assert f"rivals rules {game}" in " ".join(rejected.split())
    child.sendline("help")
    _, helped = wait()
    assert HELP_WORDS[game] in " ".join(helped.split())
    while found == 0:
        child.sendline("hint")
        _, answer = wait()
        match = HINT.search(answer)
        assert match is not None, answer
        child.sendline(match.group(1))
        found, screen = wait()
        screens.append(screen)
    child.sendline(f"save {saved}")
    wait()
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    final = replay.loads(saved.read_text(encoding="utf-8"))
    return screens, "".join(transcript), final, 0


def hidden_from(state: rivals.State, seat: int) -> list[str]:
    """Names of the cards in ``state`` that seat ``seat`` may not see (docs/rules/*.md,
    "Hidden information")."""
    snapshot: dict[str, Any] = state.to_dict()
    name = state.game.name
    out: list[str] = []
    if name == "battlecards":
        cards = card_index(state.game, ("conflict", "german", "british"))
        out = [str(cards[card]["name"]) for card in unseen_by_others(snapshot, 1 - seat)]
    return out


def hidden_picks(state: rivals.State, seat: int) -> dict[int, str]:
    """Verräter: the action cards other seats have drafted this round before the reveal."""
    snapshot: dict[str, Any] = state.to_dict()
    if snapshot["phase"] in ("builder", "draw", "discard"):
        return {}
    return {
        other: str(card)
        for other, card in enumerate(snapshot["actions"])
        if other != seat and card is not None
    }


# A seat's row in the seats table: Verräter's shows the house, Rheinländer's the knights left.
ROWS = {
    "verraeter": re.compile(r"\bseat (\d) \S+\s+(?:eagle|rose)\s"),
    "rheinlaender": re.compile(r"\(seat (\d)\) \S+\s+\d"),
}


def seat_rows(game: str, screen: str) -> dict[int, str]:
    """The row of each seat in the seats table of a screen."""
    rows: dict[int, str] = {}
    pattern = ROWS.get(game)
    for line in screen.splitlines() if pattern else []:
        match = pattern.search(line) if pattern else None
        if match:
            rows[int(match.group(1))] = line
    return rows


@pytest.mark.parametrize("game", sorted(SEED))
def test_play_a_whole_game_in_a_terminal(game: str, tmp_path: Path) -> None:
    screens, transcript, final, seat = screens_of(game, tmp_path)
    history = final.history()
    walker = final.game.new_initial_state()
    decisions = []
    for index, action in enumerate(history):
        if walker.current_player() == seat:
            decisions.append(index)
        walker.apply_action(action)
    # A screen before each decision of the person's, and one at the end.
    assert len(screens) == len(decisions) + 1
    points = [*decisions, len(history)]
    checked = 0
    for screen, point in zip(screens, points):
        state = final.game.state_from_history(history[:point])
        flat = " ".join(screen.split())
        for secret in hidden_from(state, seat):
            checked += 1
            # A whole name: "Spitfire Mk I" may be hidden while "Spitfire Mk IX" lies face up.
            shown = re.search(rf"(?<!\w){re.escape(secret)}(?!\w)", flat)
            assert shown is None, (point, secret)
        rows = seat_rows(game, screen)
        if game in ROWS:
            snapshot = state.to_dict()
            assert sorted(rows) == list(range(final.game.num_players)), point
            for other, row in rows.items():
                if other != seat:
                    assert f"{len(snapshot['hands'][other])} cards" in row, (point, row)
        if game == "verraeter":
            for other, card in hidden_picks(state, seat).items():
                checked += 1
                assert card not in rows[other] and " ? " in rows[other], (point, rows[other])
                assert f"pick {card}" not in screen, (point, card)
            assert not re.search(r"aside [A-Z]", screen)
        if game == "rheinlaender":
            # Cards dealt to the others are never told, only that one was dealt.
            assert not re.search(r"card \d+ to (yellow|green)", screen)
    if game in ("battlecards", "verraeter"):
        assert checked > 0
    last_lines = [line for line in screens[-1].splitlines() if line.strip()]
    assert last_lines[-1].strip() == f"game over: {result_text(final)}"
    assert final.is_terminal()
    assert re.search(r"\b(wins|win|draw)\b", last_lines[-1])
    assert "returns [" not in transcript
    # The seat is named once: "Ishida (seat 0)", never "seat 0 (seat 0)".
    assert "seat 0 (seat 0)" not in transcript


def test_ctrl_c_ends_cleanly_while_a_bot_thinks() -> None:
    child = play("sekigahara", "--seed", "1", "--param", "time_s=3", env={"COLUMNS": "110"})
    child.expect(PROMPT)
    child.sendline("end")
    child.expect("thinking")
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = ANSI.sub("", child.before)
    assert "interrupted: the game ends here" in text
    assert "Traceback" not in text
    assert child.exitstatus == 130


def test_ctrl_c_at_the_prompt_ends_cleanly() -> None:
    child = play("verraeter", "--seed", "1", "--bot", "random", env={"COLUMNS": "110"})
    child.expect(PROMPT)
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    text = ANSI.sub("", child.before)
    assert "interrupted" in text and "Traceback" not in text
    assert child.exitstatus == 130


# The first line of the board's map (Rheinländer's section numbers), of the person's forces
# (Battlecards) or of the first camp (Sekigahara): from there down to the prompt must fit an
# 80 x 24 terminal.
BOARD_TOP = {
    "rheinlaender": r"^\s*1  2  3 ",
    "battlecards": r"^(▶ |  )Germany \(seat 0\)",
    "sekigahara": r"^(▶ )?Ishida Mitsunari \(seat 0\)",
}


@pytest.mark.parametrize("game", sorted(BOARD_TOP))
def test_an_80_by_24_terminal_keeps_the_board_and_the_moves_in_sight(game: str) -> None:
    child = play(
        game,
        *("--bot", "random", "--seed", str(SEED[game])),
        env={"TERM": "xterm-256color"},
        dimensions=(24, 80),
    )
    heights = []
    for turn in range(30):
        if child.expect(PROMPT) == 1:
            break
        lines = ANSI.sub("", child.before).split("\n")
        top = [at for at, line in enumerate(lines) if re.search(BOARD_TOP[game], line)]
        assert top, lines
        heights.append(len(lines) - top[-1])  # the board's lines, the moves and the prompt
        if turn == 3:
            # The full board, key and headings included, is one command away.
            child.sendline("board")
            child.expect(PROMPT)
            full = ANSI.sub("", child.before)
            key = {
                "rheinlaender": "0-4 a seat's knight",
                "battlecards": "battle list (",
                "sekigahara": "str: the strength a card counts now",
            }[game]
            assert key in full
        child.sendline("1")
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert len(heights) >= 18
    assert max(heights) <= 24, heights
