"""The engine's side of a compact record: the record lines ``play_match`` writes (byte for byte
those built from the histories) and ``Game.check_histories``, which replays many stored games at
once and names the first bad one by game and action, in the order the file holds them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import arena, stats
from rivals.arena import records


def history_lines(histories: list[list[int]], first_game: int, width: int) -> bytes:
    """The record lines as Python writes them from the histories."""
    dtype = np.uint8 if width == 1 else np.dtype(">u2")
    hexes = [np.asarray(h, dtype).tobytes().hex() for h in histories]
    return "".join(
        f'{{"index": {first_game + k}, "actions": "{text}"}}\n' for k, text in enumerate(hexes)
    ).encode()


def played(name: str, games: int, seed: int = 3) -> tuple[rivals.Game, list[list[int]]]:
    game = rivals.make(name)
    bots = ["random"] * game.num_players
    return game, game.play_match(bots, games, seed=seed, keep_histories=True)["histories"]


def flat(histories: list[list[int]]) -> tuple[np.ndarray[Any, Any], list[int]]:
    return np.concatenate([np.asarray(h, np.int32) for h in histories]), [len(h) for h in histories]


@pytest.mark.parametrize("name", rivals.games())
def test_record_lines_are_those_of_the_histories(name: str) -> None:
    game = rivals.make(name)
    bots = ["random"] * game.num_players
    both = game.play_match(bots, 9, 3, 95, 2, keep_histories=True, records=True)
    width = records.action_bytes(game)
    assert both["records"] == history_lines(both["histories"], 95, width)
    alone = game.play_match(bots, 9, 3, 95, 1, records=True)
    assert "histories" not in alone
    assert alone["records"] == both["records"]
    np.testing.assert_array_equal(alone["returns"], both["returns"])


@pytest.mark.parametrize("name", rivals.games())
def test_check_histories_gives_every_games_returns(name: str) -> None:
    game, histories = played(name, 7)
    actions, lengths = flat(histories)
    expected = [game.state_from_history(h).returns() for h in histories]
    for threads in (1, 3):
        checked = game.check_histories(actions, lengths, threads)
        np.testing.assert_array_equal(checked["returns"], expected)
    # Any integer array: a record's big-endian 2-byte actions too.
    checked = game.check_histories(actions.astype(">u2"), np.asarray(lengths, np.uint16))
    np.testing.assert_array_equal(checked["returns"], expected)


def illegal_action(game: rivals.Game, history: list[int], at: int) -> int:
    legal = set(game.state_from_history(history[:at]).legal_actions())
    return next(a for a in range(game.num_distinct_actions) if a not in legal)


def test_an_illegal_action_names_its_game_and_action_and_changes_nothing() -> None:
    game, histories = played("rosenkoenig", 6)
    actions, lengths = flat(histories)
    starts = np.cumsum([0, *lengths])
    spoilt = actions.copy()
    # Games 3 and 4 are bad, in different blocks of three threads: game 3 is the one named.
    for k, j in ((3, 20), (4, 7)):
        spoilt[starts[k] + j] = illegal_action(game, histories[k], j)
    kept = spoilt.copy()
    with pytest.raises(ValueError) as raised:
        game.check_histories(spoilt, lengths, 3)
    bad = [int(a) for a in spoilt[starts[3] : starts[4]]]
    with pytest.raises(ValueError) as alone:
        game.state_from_history(bad)
    error: Any = raised.value
    assert (error.game, error.reason) == (3, str(alone.value))
    assert str(error) == f"game 3: {alone.value}"
    assert error.reason.startswith("action #20: rosenkoenig: action ")
    np.testing.assert_array_equal(spoilt, kept)
    np.testing.assert_array_equal(
        game.check_histories(actions, lengths, 3)["returns"],
        [game.state_from_history(h).returns() for h in histories],
    )


def test_an_unfinished_game_or_lengths_that_do_not_fit_are_named() -> None:
    game, histories = played("sekigahara", 4)
    actions, lengths = flat(histories)
    short = [*lengths[:2], lengths[2] - 1, lengths[3]]
    without = np.delete(actions, sum(lengths[:3]) - 1)
    with pytest.raises(ValueError, match=rf"^game 2: the game is not over after its {short[2]} "):
        game.check_histories(without, short)
    with pytest.raises(ValueError, match=r"^sekigahara check_histories: the games' lengths add up"):
        game.check_histories(actions, lengths[:3])
    with pytest.raises(ValueError, match=r"go past"):
        game.check_histories(actions[:10], [11])
    with pytest.raises(ValueError, match=r"go past"):
        game.check_histories(actions, [-1, *lengths])
    with pytest.raises(ValueError, match=r"actions is a 1-D array of integers"):
        game.check_histories(actions.astype(float), lengths)
    with pytest.raises(ValueError, match=r"actions is a 1-D array of integers"):
        game.check_histories(actions.reshape(1, -1), lengths)
    with pytest.raises(ValueError, match=r"^game 1: action #0: action 4294967296 is out of range"):
        game.check_histories(np.asarray([*histories[0], 2**32], np.int64), [lengths[0], 1])
    # No games: an empty list is numpy's empty array of floats.
    assert game.check_histories([], [])["returns"].shape == (0, game.num_players)


def record(path: Path, games: int) -> list[bytes]:
    who = arena.Lineup.of(rivals.make("rosenkoenig"), ["random", "random"])
    with arena.Arena(who, games, seed=5, out=path) as match:
        match.run()
    return path.read_bytes().splitlines(keepends=True)


def with_action(line: bytes, at: int, action: int) -> bytes:
    start = line.index(b'"actions": "') + len(b'"actions": "') + 2 * at
    return line[:start] + f"{action:02x}".encode() + line[start + 2 :]


@pytest.mark.parametrize("batch", [2, 4096])
def test_a_stored_game_is_named_by_its_line_in_the_files_order(
    batch: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(records.RecordGames, "BATCH", batch)
    path = tmp_path / "games.rec"
    header, *games = record(path, 7)
    game = rivals.make("rosenkoenig")
    history = records.game_line(arena.LogLine(5, 0, games[3].rstrip(b"\n"), True), 1, "")[1]
    illegal = with_action(games[3], 9, illegal_action(game, history, 9))
    malformed = games[5].replace(b'": ', b'":')
    who = arena.Lineup.of(game, ["random", "random"])
    cases = {
        # The illegal action of game 3 (line 5) comes before the malformed line of game 5.
        (*games[:3], illegal, games[4], malformed, games[6]): r":5: corrupt: action #9: ",
        (*games[:3], malformed, *games[4:]): r":5: corrupt: not a game line",
        (*games[:5], illegal, games[6]): r":7: corrupt: game 3 where game 5 was due",
        (*games[:6], illegal): r":8: corrupt: game 3 where game 6 was due",
    }
    for lines, message in cases.items():
        content = header + b"".join(lines)
        path.write_bytes(content)
        with pytest.raises(arena.CorruptLog, match=message):
            arena.tally(path)
        with pytest.raises(arena.CorruptLog, match=message):
            arena.Arena(who, 7, seed=5, out=path, resume=True)
        assert path.read_bytes() == content
    path.write_bytes(header + b"".join(games))
    with arena.Arena(who, 7, seed=5, out=path, resume=True) as match:
        assert match.resumed == 7
        assert match.standings == arena.tally(path)


def test_an_sprt_arena_keeps_exactly_its_games_in_a_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lineup = arena.Lineup.of(rivals.make("rosenkoenig"), ["random", ("mcts", {"iterations": 20})])

    def sprt_arena(path: Path, resume: bool = False) -> arena.Arena:
        return arena.Arena(lineup, 400, seed=2, out=path, resume=resume, sprt=stats.Sprt(0, 150))

    with sprt_arena(tmp_path / "games.jsonl") as match:
        match.run()
        decided_after = match.standings.games
    assert decided_after < 400
    whole = tmp_path / "whole.rec"
    with sprt_arena(whole) as match:
        match.run()
        assert (match.decision, match.standings.games) == ("H1", decided_after)
    # The chunk the test was decided in is cut at the deciding game: a header and those games.
    header, *games = whole.read_bytes().splitlines(keepends=True)
    assert len(games) == decided_after
    assert arena.tally(whole).games == decided_after
    # Tiny chunks, resumed from the middle, stop at the same game with the same file; a decided
    # test resumed plays nothing more.
    monkeypatch.setattr(arena.backends, "CHUNK_SECONDS", 0.0)
    part = tmp_path / "part.rec"
    part.write_bytes(header + b"".join(games[:5]))
    with sprt_arena(part, resume=True) as match:
        match.run()
        assert (match.decision, match.standings.games) == ("H1", decided_after)
    assert part.read_bytes() == whole.read_bytes()
    with sprt_arena(whole, resume=True) as match:
        assert match.decision == "H1" and match.remaining == 0
    # A game after the decision is another arena's.
    whole.write_bytes(whole.read_bytes() + games[-1].replace(b'"index": ', b'"index": 1'))
    with pytest.raises(arena.OtherArena, match="goes on after the SPRT was decided"):
        sprt_arena(whole, resume=True)
