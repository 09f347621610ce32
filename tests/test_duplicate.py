"""Duplicate games and the SPRT of rivals.arena, checked on the replays they write."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import arena, stats


def chance_and_decisions(record: dict[str, Any]) -> tuple[list[int], int]:
    """A replay line's chance outcomes in order, and the number of its first decision."""
    game = rivals.make(record["game"], **record["params"])
    state = game.new_initial_state()
    outcomes, first_decision = [], -1
    for number, entry in enumerate(record["actions"]):
        if state.is_chance_node():
            outcomes.append(entry["action"])
        elif first_decision < 0:
            first_decision = number
        state.apply_action(entry["action"])
    return outcomes, first_decision


def same_draws(a: list[int], b: list[int]) -> bool:
    """Whether two chance sequences agree as far as both go (a game that ends sooner reveals
    fewer cards), and share the opening deal at least."""
    common = min(len(a), len(b))
    return common > 0 and a[:common] == b[:common]


def play(
    path: Path, name: str, bots: list[Any], games: int, duplicate: bool, **params: Any
) -> list[dict[str, Any]]:
    game = rivals.make(name, **params)
    lineup = arena.Lineup.of(game, bots)
    with arena.Arena(lineup, games, seed=11, out=path, duplicate=duplicate) as match:
        match.run()
    return [line.decode() for line in arena.read_log(path)]


def opening_deal(record: dict[str, Any]) -> list[int]:
    """The chance outcomes before the first decision: the deal."""
    outcomes, first = chance_and_decisions(record)
    return outcomes[:first]  # every action before the first decision is chance


def test_sekigahara_pairs_share_every_chance_outcome_with_the_seats_swapped(
    tmp_path: Path,
) -> None:
    bots = [("mcts", {"iterations": 10}), "random"]
    records = play(tmp_path / "dup.jsonl", "sekigahara", bots, 8, duplicate=True)
    for first, second in zip(records[::2], records[1::2]):
        assert first["arena"]["duplicate"] == 2
        assert first["arena"]["labels"] == second["arena"]["labels"][::-1]
        assert first["bots"] == second["bots"][::-1]
        # Sekigahara's chance is the order the deck is revealed in: the same in both games.
        assert same_draws(chance_and_decisions(first)[0], chance_and_decisions(second)[0])
        assert first["actions"] != second["actions"]
    # Pairs differ from each other, and unpaired games differ from their neighbours.
    deals = [chance_and_decisions(r)[0] for r in records[::2]]
    assert len({json.dumps(d) for d in deals}) == len(deals)
    single = play(tmp_path / "single.jsonl", "sekigahara", bots, 8, duplicate=False)
    assert "duplicate" not in single[0]["arena"]
    pairs_alike = sum(
        same_draws(chance_and_decisions(a)[0], chance_and_decisions(b)[0])
        for a, b in zip(single[::2], single[1::2])
    )
    assert pairs_alike == 0


@pytest.mark.parametrize(
    ("name", "params", "bots", "group"),
    [
        ("rosenkoenig", {}, ["mcts", "random"], 2),
        ("rosenkoenig", {"players": 4}, ["mcts", "random"], 2),  # two teams
        ("rheinlaender", {"max_turns": 20}, ["mcts", "random"], 3),
        ("verraeter", {"rounds": 1}, ["mcts", "random"], 4),
        ("battlecards", {"max_turns": 20}, ["mcts", "random"], 2),
    ],
)
def test_a_duplicate_group_is_every_seat_rotation_with_one_deal(
    name: str, params: dict[str, Any], bots: list[Any], group: int, tmp_path: Path
) -> None:
    cheap = [(bot, {"iterations": 5}) if bot == "mcts" else bot for bot in bots]
    records = play(tmp_path / "log.jsonl", name, cheap, 2 * group, True, **params)
    assert all(r["arena"]["duplicate"] == group for r in records)
    for start in (0, group):
        members = records[start : start + group]
        rotations = {tuple(r["arena"]["labels"]) for r in members}
        assert len(rotations) == group  # every distinct seating once
        deals = [opening_deal(r) for r in members]
        assert deals[0] and all(deal == deals[0] for deal in deals)
    assert opening_deal(records[0]) != opening_deal(records[group])


def test_pairs_are_counted_as_pentanomial_and_games_as_trinomial() -> None:
    game = rivals.make("sekigahara")
    lineup = arena.Lineup.of(game, [("mcts", {"iterations": 30}), ("mcts", {"iterations": 5})])
    with arena.Arena(lineup, 20, seed=3) as match:
        standings = match.run()
    assert standings.paired and sum(standings.pentanomial) == 10
    assert sum(standings.trinomial) == 20 and standings.pending is None
    first = standings.records[0]
    assert standings.trinomial == [first.losses, first.draws, first.wins]
    # The pair totals add up to the games' points.
    pair_points = sum(k / 2 * n for k, n in enumerate(standings.pentanomial))
    assert pair_points == first.wins + first.draws / 2


def sprt_arena(path: Path, games: int, resume: bool = False) -> arena.Arena:
    game = rivals.make("rosenkoenig")
    lineup = arena.Lineup.of(game, ["random", ("mcts", {"iterations": 20})])
    return arena.Arena(lineup, games, seed=2, out=path, resume=resume, sprt=stats.Sprt(0, 150))


def test_the_sprt_stops_at_its_decision_whatever_the_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tmp_path / "whole.jsonl"
    with sprt_arena(whole, 400) as match:
        match.run()
        decided_after = match.standings.games
        assert match.decision == "H1"
        assert match.llr() >= stats.Sprt(0, 150).bounds[1]
    assert decided_after < 400 and decided_after % 2 == 0
    # The test was undecided one pair earlier.
    lines = whole.read_bytes().splitlines(keepends=True)
    assert len(lines) == decided_after
    earlier = tmp_path / "earlier.jsonl"
    earlier.write_bytes(b"".join(lines[:-2]))
    assert stats.Sprt(0, 150).decision(arena.tally(earlier).counts()[::-1]) is None
    # Tiny chunks, and a resume from the middle, stop at the same game with the same file.
    monkeypatch.setattr(arena.backends, "CHUNK_SECONDS", 0.0)
    part = tmp_path / "part.jsonl"
    part.write_bytes(b"".join(lines[:5]))
    with sprt_arena(part, 400, resume=True) as match:
        match.run()
        assert match.decision == "H1" and match.standings.games == decided_after
    assert part.read_bytes() == whole.read_bytes()
    # A decided test resumed plays nothing more.
    with sprt_arena(whole, 400, resume=True) as match:
        assert match.decision == "H1" and match.remaining == 0
        match.run()
    assert whole.read_bytes() == b"".join(lines)


def test_resume_refuses_to_mix_paired_and_unpaired_games(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    play(path, "sekigahara", ["random", "random"], 4, duplicate=False)
    before = path.read_bytes()
    lineup = arena.Lineup.of(rivals.make("sekigahara"), ["random", "random"])
    with pytest.raises(arena.OtherArena, match="written as unpaired games, this arena plays dup"):
        arena.Arena(lineup, 6, seed=11, out=path, resume=True)
    assert path.read_bytes() == before


def test_an_sprt_needs_two_bots() -> None:
    lineup = arena.Lineup.of(rivals.make("verraeter"), ["mcts", "random"])
    with pytest.raises(ValueError, match="an SPRT compares two bots; this arena has 4"):
        arena.Arena(lineup, 10, sprt=stats.Sprt(0, 10))


def test_play_match_chance_group_shares_the_stream_of_the_group_number() -> None:
    game = rivals.make("sekigahara")
    bots = ["random", "random"]
    paired = game.play_match(bots, 4, 9, 0, 1, True, 2)
    single = game.play_match(bots, 4, 9, 0, 1, True, 1)

    def chance(history: list[int]) -> list[int]:
        state, outcomes = game.new_initial_state(), []
        for action in history:
            if state.is_chance_node():
                outcomes.append(action)
            state.apply_action(action)
        return outcomes

    # Group k draws from the chance stream of unpaired game k; bots stay seeded per game.
    assert same_draws(chance(paired["histories"][0]), chance(paired["histories"][1]))
    assert same_draws(chance(paired["histories"][2]), chance(single["histories"][1]))
    assert not same_draws(chance(paired["histories"][1]), chance(single["histories"][1]))
    assert paired["histories"][0] == single["histories"][0]  # game 0 is the same game
    assert paired["seating"].tolist() == single["seating"].tolist()
    for bad in (0, 65, "2"):
        with pytest.raises(ValueError, match=r"chance_group must be an int 1\.\.64"):
            game.play_match(bots, 1, 0, 0, 1, False, bad)
