"""rivals.arena: the same games whatever the backend, chunking or threads (the replay log itself:
test_arena_log.py)."""

from __future__ import annotations

import json
import re
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

import rivals
from rivals import arena
from tests.corrupt_records import CORRUPTIONS, corrupt

BOTS: list[arena.BotSpec] = [("mcts", {"iterations": 20}), ("random", {})]


def test_local_chunks_and_threads_give_the_same_games(monkeypatch: pytest.MonkeyPatch) -> None:
    game = rivals.make("rosenkoenig")
    direct = game.play_match(BOTS, 12, seed=3, keep_histories=True)
    monkeypatch.setattr(arena.backends, "CHUNK_SECONDS", 0.0)
    for threads in (1, 2):
        seen: list[int] = []
        result = arena.run(
            game,
            BOTS,
            12,
            seed=3,
            backend=arena.LocalBackend(threads),
            keep_histories=True,
            on_chunk=lambda chunk, seen=seen: seen.append(chunk.first_game),
        )
        assert seen == sorted(seen) and seen[0] == 0 and len(seen) > 1
        np.testing.assert_array_equal(result.returns, direct["returns"])
        np.testing.assert_array_equal(result.seating, direct["seating"])
        assert result.histories == direct["histories"]


def test_an_arena_can_start_in_the_middle() -> None:
    game = rivals.make("rosenkoenig", players=4)
    bots = [("random", {})] * 4
    whole = arena.run(game, bots, 10, seed=8)
    tail = arena.run(game, bots, 4, seed=8, first_game=6)
    np.testing.assert_array_equal(whole.returns[6:], tail.returns)
    np.testing.assert_array_equal(whole.seating[6:], tail.seating)


@pytest.fixture(scope="module")
def ray_backend() -> Iterator[arena.RayBackend]:
    import ray  # the optional backend's package: scripts/setup.sh installs it for the suite

    backend = arena.RayBackend(chunk_games=3)
    yield backend
    ray.shutdown()


def test_ray_backend_gives_the_same_games_as_local_threads(
    ray_backend: arena.RayBackend,
) -> None:
    game = rivals.make("rosenkoenig")
    local = arena.run(game, BOTS, 10, seed=5, backend=arena.LocalBackend(2), keep_histories=True)
    remote = arena.run(game, BOTS, 10, seed=5, backend=ray_backend, keep_histories=True)
    np.testing.assert_array_equal(local.returns, remote.returns)
    np.testing.assert_array_equal(local.lengths, remote.lengths)
    assert local.histories == remote.histories


def test_missing_ray_is_a_clear_error(monkeypatch: pytest.MonkeyPatch) -> None:
    # A None entry in sys.modules makes every import of that name fail.
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ValueError, match="pip install"):
        arena.RayBackend()


# --------------------------------------------------------------------------------------------
# Lineups


def labels(lineup: arena.Lineup) -> list[str]:
    return [entry.label for entry in lineup.entries]


def test_free_for_all_seats_are_entries_of_their_own() -> None:
    lineup = arena.Lineup.of(rivals.make("verraeter"), ["mcts", "random"])
    assert labels(lineup) == ["mcts", "random", "mcts#2", "random#2"]
    assert lineup.seat_entry == (0, 1, 2, 3) and not lineup.teams
    lineup = arena.Lineup.of(rivals.make("rosenkoenig"), ["random"])
    assert labels(lineup) == ["random", "random#2"]
    assert lineup.seat_labels(1) == ["random#2", "random"]
    with pytest.raises(ValueError, match="3 bots for 2 seats"):
        arena.Lineup.of(rivals.make("rosenkoenig"), ["random"] * 3)


def test_teams_only_where_the_game_has_teams() -> None:
    game = rivals.make("rosenkoenig", players=4)
    lineup = arena.Lineup.of(game, ["mcts", "random"])
    assert labels(lineup) == ["mcts", "random"] and lineup.seat_entry == (0, 1, 0, 1)
    assert lineup.teams
    assert labels(arena.Lineup.of(game, ["random"])) == ["random", "random#2"]
    by_seat = arena.Lineup.of(game, ["random"] * 4)
    assert by_seat.seat_entry == (0, 1, 2, 3) and not by_seat.teams
    with pytest.raises(ValueError, match="2 teams of 2 seats"):
        arena.Lineup.of(game, ["random"] * 3)


def test_entries_carry_every_parameter_from_the_engine() -> None:
    game = rivals.make("rosenkoenig")
    lineup = arena.Lineup.of(
        game, [("mcts", {"iterations": 7}), "mcts"], {"mcts#2": {"threads": 2}}
    )
    first, second = lineup.entries
    assert first.params == rivals.bots.make("mcts", game, 0, iterations=7).params
    assert second.params["threads"] == 2 and second.params["iterations"] == 1000
    assert set(first.params) == {
        "iterations",
        "time_s",
        "clock",
        "exploration",
        "max_nodes",
        "threads",
        "reuse_tree",
        "rollout_depth",
        "evaluation",
        "network",
        "proof_depth",
        "minimax_weight",
        "prior_weight",
        "policy_weight",
        "mast_epsilon",
    }
    with pytest.raises(ValueError, match=r"bot mcts#2: .*bogus"):
        arena.Lineup.of(game, ["mcts", "mcts"], {"mcts#2": {"bogus": 1}})
    with pytest.raises(ValueError, match="no bot 'mcts#3'"):
        arena.Lineup.of(game, ["mcts", "mcts"], {"mcts#3": {"threads": 2}})


def test_clock_limits_are_told_apart_from_exact_budgets() -> None:
    game = rivals.make("sekigahara")
    lineup = arena.Lineup.of(game, [("mcts", {"time_s": 0.1}), ("solver", {"time_s": 5.0})])
    assert [entry.label for entry in lineup.clock_limited()] == ["mcts"]
    assert arena.Lineup.of(game, [("mcts", {"iterations": 5}), "random"]).clock_limited() == []


# --------------------------------------------------------------------------------------------
# Standings


def test_standings_count_wins_draws_losses_returns_and_ranks() -> None:
    lineup = arena.Lineup.of(rivals.make("rheinlaender"), ["random"])
    standings = arena.Standings(lineup)
    returns = np.array([[1.0, -0.5, -0.5], [0.5, 0.5, -1.0], [0.0, 0.0, 0.0]])
    seating = np.array([[0, 1, 2], [1, 2, 0], [2, 0, 1]], dtype=np.int32)
    standings.add(returns, seating, np.array([10, 20, 30], dtype=np.int32))
    # Entry 0 sat in seats 0, 2 and 1: returns 1.0, -1.0 and 0.0.
    first, second, third = standings.records
    assert (first.games, first.wins, first.draws, first.losses) == (3, 1, 1, 1)
    assert first.mean_return == 0.0 and first.rank_sum == 1 + 3 + 1
    assert (second.wins, second.draws, second.losses) == (1, 1, 1)  # -0.5, 0.5, 0.0
    assert second.rank_sum == 2 + 1 + 1
    assert (third.wins, third.losses) == (1, 1) and third.return_sum == pytest.approx(0.0)
    assert standings.games == 3 and standings.mean_length == 20.0 and standings.ranked


def test_standings_do_not_depend_on_how_games_are_chunked() -> None:
    game = rivals.make("verraeter", players=3)
    lineup = arena.Lineup.of(game, ["random"])
    whole = arena.run(game, lineup.seat_specs(), 30, seed=2)
    at_once = arena.Standings(lineup)
    at_once.add(whole.returns, whole.seating, whole.lengths)
    one_by_one = arena.Standings(lineup)
    for i in range(30):
        one_by_one.add(whole.returns[i : i + 1], whole.seating[i : i + 1], whole.lengths[i : i + 1])
    assert at_once == one_by_one


def test_team_entries_count_each_game_once() -> None:
    lineup = arena.Lineup.of(rivals.make("rosenkoenig", players=4), ["mcts", "random"])
    standings = arena.Standings(lineup)
    returns = np.array([[1.0, -1.0, 1.0, -1.0], [1.0, -1.0, 1.0, -1.0]])
    seating = np.array([[0, 1, 2, 3], [1, 2, 3, 0]], dtype=np.int32)
    standings.add(returns, seating, np.array([5, 5], dtype=np.int32))
    mcts, random_bot = standings.records
    assert (mcts.games, mcts.wins, mcts.losses) == (2, 1, 1)
    assert (random_bot.games, random_bot.wins, random_bot.losses) == (2, 1, 1)
    assert not standings.ranked


def test_a_team_game_is_not_ranked_even_with_a_bot_per_seat() -> None:
    # Four entries, one per seat: a seat's place is still its team's, so a rank says no more.
    lineup = arena.Lineup.of(rivals.make("rosenkoenig", players=4), ["mcts", "random"] * 2)
    assert not lineup.teams and lineup.players == 4
    assert not arena.Standings(lineup).ranked
    assert arena.Standings(arena.Lineup.of(rivals.make("verraeter", players=4), ["random"])).ranked


# --------------------------------------------------------------------------------------------
# Arenas: run to a file, resume, tally


def small_lineup(name: str) -> arena.Lineup:
    return arena.Lineup.of(rivals.make(name), [("mcts", {"iterations": 4}), "random"])


@pytest.mark.parametrize("name", rivals.games())
def test_iteration_budgets_give_the_same_file_whatever_the_threads(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    files = []
    for threads, chunk_seconds in ((1, 0.5), (2, 0.0), (2, 0.5)):
        monkeypatch.setattr(arena.backends, "CHUNK_SECONDS", chunk_seconds)
        path = tmp_path / f"{threads}-{chunk_seconds}.jsonl"
        with arena.Arena(
            small_lineup(name), 5, seed=9, out=path, backend=arena.LocalBackend(threads)
        ) as match:
            match.run()
        files.append(path.read_bytes())
    assert files[0] == files[1] == files[2]
    assert files[0].count(b"\n") == 5


@pytest.mark.parametrize("name", rivals.games())
def test_resume_ends_like_an_uninterrupted_arena(name: str, tmp_path: Path) -> None:
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    with arena.Arena(small_lineup(name), 4, seed=3, out=whole) as match:
        uninterrupted = match.run()
    with arena.Arena(small_lineup(name), 2, seed=3, out=part) as match:
        match.run()
    part.write_bytes(part.read_bytes() + b'{"format": "rivals-re')  # a write cut off
    with arena.Arena(small_lineup(name), 4, seed=3, out=part, resume=True) as match:
        assert match.resumed == 2 and match.standings.games == 2
        resumed = match.run()
    assert part.read_bytes() == whole.read_bytes()
    assert resumed == uninterrupted
    assert arena.tally(whole) == uninterrupted


def test_resume_cuts_back_only_what_an_interrupted_write_of_its_own_leaves(
    tmp_path: Path,
) -> None:
    game = rivals.make("sekigahara")
    lineup = arena.Lineup.of(game, ["random", "random"], labels=["zufällig", "random"])
    whole, part = tmp_path / "whole.jsonl", tmp_path / "part.jsonl"
    with arena.Arena(lineup, 3, seed=3, out=whole) as match:
        match.run()
    lines = whole.read_bytes().splitlines(keepends=True)

    def resumed(content: bytes) -> arena.Arena:
        part.write_bytes(content)
        with arena.Arena(lineup, 3, seed=3, out=part, resume=True) as match:
            match.run()
            return match

    # A write cut anywhere in a line, or followed by the zeros a crash can leave: played again.
    for cut in (1, 60, len(lines[1]) // 2, len(lines[1]) - 2):
        for tail in (b"", b"\0" * 300):
            assert resumed(lines[0] + lines[1][:cut] + tail).resumed == 1
            assert part.read_bytes() == whole.read_bytes()
    # A whole last game whose newline is missing is kept, and the newline put back; a tally
    # of the file counts it too.
    part.write_bytes(lines[0] + lines[1].rstrip(b"\n"))
    assert arena.tally(part).games == 2
    assert resumed(part.read_bytes()).resumed == 2
    assert part.read_bytes() == whole.read_bytes()
    # Games an earlier rivals wrote (replay version 1, read through its upgrade) resume as before.
    earlier = []
    for line in lines[:2]:
        record = json.loads(line)
        walker = game.new_initial_state()
        for entry in record["actions"]:
            action = entry["action"]
            if walker.is_chance_node():
                entry["action"] = action + rivals.replay._v1_chance_offset(walker)
            walker.apply_action(action)
        record["version"] = 1
        earlier.append(json.dumps(record, ensure_ascii=False).encode() + b"\n")
    assert resumed(b"".join(earlier)).resumed == 2
    assert part.read_bytes() == b"".join(earlier) + lines[2]
    # Anything else without a final newline is not this arena's cut-off write: refused, kept.
    saved = rivals.replay.dumps(rivals.replay.from_dict(json.loads(lines[0]))).encode()
    others = {
        b"a replay saved alone": saved,
        b"notes": b'{"notes": "keep me"}',
        b"a fragment": b"some text",
        b"another game's cut write": lines[0]
        + lines[1][:80].replace(b'"sekigahara"', b'"rosenkoenig"'),
        # Re-encoded lines: resumed, the file would mix two encodings.
        b"line ends of another system": lines[0].replace(b"\n", b"\r\n"),
        b"keys sorted": json.dumps(json.loads(lines[0]), sort_keys=True).encode() + b"\n",
        b"other spacing": lines[0].replace(b'", "', b'","', 1),
        b"escapes": json.dumps(json.loads(lines[0])).encode() + b"\n",
    }
    for what, content in others.items():
        part.write_bytes(content)
        with pytest.raises((arena.OtherArena, arena.CorruptLog)):
            arena.Arena(lineup, 3, seed=3, out=part, resume=True)
        assert part.read_bytes() == content, what
    for what in (b"notes", b"a fragment"):  # and no tally reads past them
        part.write_bytes(lines[0] + others[what])
        with pytest.raises((arena.OtherArena, arena.CorruptLog)):
            arena.tally(part)


def test_each_line_records_the_bots_and_the_arena(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    game = rivals.make("verraeter", players=3)
    lineup = arena.Lineup.of(game, [("mcts", {"iterations": 3}), "random"])
    with arena.Arena(lineup, 3, seed=5, out=path) as match:
        match.run()
    records = [line.decode() for line in arena.read_log(path)]
    mcts = {"name": "mcts", "params": rivals.bots.make("mcts", game, 0, iterations=3).params}
    random_bot = {"name": "random", "params": {}}
    for index, record in enumerate(records):
        seats = [[mcts, random_bot, mcts], [random_bot, mcts, mcts], [mcts, mcts, random_bot]]
        assert record["bots"] == seats[index]
        names = [["mcts", "random", "mcts#2"], ["random", "mcts#2", "mcts"]]
        names.append(["mcts#2", "mcts", "random"])
        # Three seats: a duplicate group is the three rotations, one deal.
        assert record["arena"] == {
            "index": index,
            "seed": 5,
            "labels": names[index],
            "duplicate": 3,
        }
        state = rivals.replay.from_dict(record)
        assert state.returns() == record["result"]["returns"]


@pytest.mark.parametrize("how", [*CORRUPTIONS, "returns too short", "out of order"])
def test_resume_and_tally_refuse_a_corrupt_game(how: str, tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    lineup = small_lineup("rosenkoenig")
    with arena.Arena(lineup, 3, seed=1, out=path) as match:
        match.run()
    lines = path.read_bytes().split(b"\n")
    record = json.loads(lines[1])
    corrupt(record, how)
    lines[1] = json.dumps(record, ensure_ascii=False).encode()
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    with pytest.raises(arena.CorruptLog, match=rf"^{re.escape(str(path))}:2: corrupt: "):
        arena.Arena(lineup, 4, seed=1, out=path, resume=True)
    with pytest.raises(arena.CorruptLog, match=":2: corrupt: "):
        arena.tally(path)
    assert path.read_bytes() == before


def test_tally_never_reads_a_file_a_log_names(tmp_path: Path) -> None:
    # A log from elsewhere naming a path (a password file, a FIFO) must not make tally open it.
    path = tmp_path / "log.jsonl"
    lineup = arena.Lineup.of(rivals.make("sekigahara"), ["random", "random"])
    with arena.Arena(lineup, 2, seed=1, out=path) as match:
        match.run()
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps(rivals.make("sekigahara").cards))
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record in records:
        record["params"]["cards"] = str(cards)
    named = tmp_path / "named.jsonl"
    named.write_text("".join(json.dumps(record) + "\n" for record in records))
    with pytest.raises(ValueError, match=r"params\.cards is .*not a shipped data name"):
        arena.tally(named)


def test_labels_are_text_a_terminal_can_show(tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    for label in (
        "\x1b]0;title\x07",
        "x" * 101,
        "",
        "a\u009bb",
        "\u202eevil",
        "a\uffffb",
        "a\ud800",
        "\udcff",
    ):
        with pytest.raises(ValueError, match=r"labels\[1\] must be 1 to 100 characters without a"):
            arena.Lineup.of(game, ["random", "random"], labels=["a", label])
        # Without labels the names label the bots; the engine would refuse most as bots.
        with pytest.raises(ValueError, match=r"the name of bots\[0\] must be 1 to 100 charac"):
            arena.Lineup.of(game, [label, "random"])
    # A copy's number may take a label past the limit.
    with pytest.raises(ValueError, match=r"entries\[1\]\.label must be 1 to 100 characters"):
        arena.Lineup.of(game, ["random"], labels=["x" * 99])
    path = tmp_path / "log.jsonl"
    with arena.Arena(arena.Lineup.of(game, ["random", "random"]), 1, seed=1, out=path) as match:
        match.run()
    record = json.loads(path.read_text())
    record["arena"]["labels"][0] = "\x1b[2J"
    with pytest.raises(ValueError, match=r"arena.labels\[0\] must be 1 to 100 characters"):
        rivals.replay.from_dict(record)


def test_a_lineup_that_no_replay_line_could_hold_is_refused_before_any_game() -> None:
    """A lone surrogate in a label (made without Lineup.of), a bot's name or its parameters
    cannot be written as UTF-8: refused when the lineup is made, naming the entry, so no game
    is played whose line could not be written."""
    game = rivals.make("rosenkoenig")
    second = arena.Entry("b", "random", {})
    for first, message in (
        (arena.Entry("a\ud800", "random", {}), r"entries\[0\]\.label must be 1 to 100"),
        (arena.Entry("a", "random\ud800", {}), r"entries\[0\] \(a\): .* a lone surrogate"),
        (arena.Entry("a", "random", {"x": "\udcff"}), r"entries\[0\] \(a\): .* a lone surr"),
        (arena.Entry("a", "random", {"x": float("nan")}), r"entries\[0\] \(a\): .* must be JSON"),
        (arena.Entry("a", "random", {"x": object()}), r"entries\[0\] \(a\): .* must be JSON"),
    ):
        with pytest.raises(ValueError, match=message):
            arena.Lineup(game, (first, second), (0, 1))


def test_resume_refuses_another_arena(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    game = rivals.make("rosenkoenig")
    lineup = arena.Lineup.of(game, [("mcts", {"iterations": 2}), "random"])
    with arena.Arena(lineup, 2, seed=1, out=path) as match:
        match.run()
    before = path.read_bytes()
    stronger = arena.Lineup.of(game, [("mcts", {"iterations": 400}), "random"])
    with pytest.raises(
        arena.OtherArena,
        match=":1: other bots: seat 0 holds mcts with iterations=2, this arena has iterations=400",
    ):
        arena.Arena(stronger, 4, seed=1, out=path, resume=True)
    with pytest.raises(arena.OtherArena, match="seed 1, not 2"):
        arena.Arena(lineup, 4, seed=2, out=path, resume=True)
    four = arena.Lineup.of(
        rivals.make("rosenkoenig", players=4), [("mcts", {"iterations": 2}), "random"]
    )
    with pytest.raises(arena.OtherArena, match="other parameters"):
        arena.Arena(four, 4, seed=1, out=path, resume=True)
    with pytest.raises(arena.OtherArena, match="more than the 1 games"):
        arena.Arena(lineup, 1, seed=1, out=path, resume=True)
    assert path.read_bytes() == before


def test_resume_takes_a_log_written_before_a_parameter_was_added(tmp_path: Path) -> None:
    """A log whose bots lack parameters added to them since (as one written by an older rivals)
    resumes when this arena leaves those at their defaults, which play as before, and ends as one
    never interrupted; set otherwise, or with a parameter the bot does not have, it is refused."""
    path = tmp_path / "log.jsonl"
    game = rivals.make("rosenkoenig")
    lineup = arena.Lineup.of(game, [("mcts", {"iterations": 3}), "random"])
    with arena.Arena(lineup, 2, seed=1, out=path) as match:
        match.run()
    added = ("prior_weight", "mast_epsilon")
    records = [json.loads(line) for line in path.read_text().splitlines()]
    for record in records:
        for bot in record["bots"]:
            for key in added:
                bot["params"].pop(key, None)
    older = "".join(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    path.write_text(older)
    with arena.Arena(lineup, 4, seed=1, out=path, resume=True) as match:
        resumed = match.run()
    assert match.resumed == 2
    whole = tmp_path / "whole.jsonl"
    with arena.Arena(lineup, 4, seed=1, out=whole) as match:
        uninterrupted = match.run()
    assert resumed.trinomial == uninterrupted.trinomial
    assert path.read_text().splitlines()[2:] == whole.read_text().splitlines()[2:]

    path.write_text(older)
    led = arena.Lineup.of(game, [("mcts", {"iterations": 3, "mast_epsilon": 0.3}), "random"])
    with pytest.raises(
        arena.OtherArena, match=r"seat 0 holds mcts with no mast_epsilon.* has mast_epsilon=0\.3"
    ):
        arena.Arena(led, 4, seed=1, out=path, resume=True)
    records[0]["bots"][0]["params"]["bogus"] = 1
    path.write_text(json.dumps(records[0], ensure_ascii=False) + "\n")
    with pytest.raises(arena.OtherArena, match="bogus=1"):
        arena.Arena(lineup, 4, seed=1, out=path, resume=True)
    assert path.read_text() == json.dumps(records[0], ensure_ascii=False) + "\n"


def test_a_write_error_keeps_the_finished_games_in_the_standings() -> None:
    lineup = arena.Lineup.of(rivals.make("rosenkoenig"), ["random"])
    with arena.Arena(lineup, 3, out="/dev/full", backend=arena.LocalBackend(1)) as match:
        with pytest.raises(OSError, match="No space left"):
            match.run()
        assert match.standings.games == 1 and match.recorded == 0


def test_arena_arguments_are_checked() -> None:
    lineup = small_lineup("rosenkoenig")
    with pytest.raises(ValueError, match="seed"):
        arena.Arena(lineup, 1, seed=2**64)
    with pytest.raises(ValueError, match="number of games"):
        arena.Arena(lineup, arena.MAX_GAMES + 1)
    with pytest.raises(ValueError, match="give out"):
        arena.Arena(lineup, 1, resume=True)


# --------------------------------------------------------------------------------------------
# The solver's shared table


def test_solver_bots_of_one_match_share_one_table() -> None:
    game = rivals.make("sekigahara")
    budget = {"max_contexts": 300}
    kept = rivals.bots.make("solver", game, **budget)
    other_rule = rivals.bots.make("solver", rivals.make("sekigahara", repetition_rule="off"))
    with pytest.raises(rivals.BudgetExceeded, match="more than 300 contexts"):
        game.play_match([("solver", budget), ("solver", budget)], 4, 0, 0, 2)
    # Two threads, two seats: four bots, one table, filled up to the budget once.
    assert kept.stats() == {"contexts": 300}
    assert other_rule.stats() == {"contexts": 0}
    assert rivals.bots.make("random", game).stats() == {}


def test_solver_progress_is_readable_while_it_solves() -> None:
    game = rivals.make("sekigahara", repetition_rule="symmetric")  # a table of its own
    watcher = rivals.bots.make("solver", game)
    outcome: list[BaseException] = []

    def play() -> None:
        try:
            game.play_match([("solver", {"max_contexts": 2000}), "random"], 1)
        except rivals.BudgetExceeded as error:
            outcome.append(error)

    worker = threading.Thread(target=play)
    worker.start()
    seen = []
    while worker.is_alive():
        seen.append(watcher.stats()["contexts"])
        time.sleep(0.005)
    worker.join()
    assert len(outcome) == 1 and "more than 2000 contexts" in str(outcome[0])
    assert seen == sorted(seen) and len(set(seen)) > 2 and seen[-1] <= 2000
    assert watcher.stats() == {"contexts": 2000}


def test_resume_refuses_a_data_file_that_has_changed(tmp_path: Path) -> None:
    shipped = json.loads((Path(rivals.__file__).parent / "data/sekigahara.json").read_text())
    cards = tmp_path / "cards.json"
    cards.write_text(json.dumps(shipped))
    path = tmp_path / "log.jsonl"
    lineup = arena.Lineup.of(rivals.make("sekigahara", cards=str(cards)), ["random"])
    with arena.Arena(lineup, 2, seed=1, out=path) as match:
        match.run()
    record = next(arena.read_log(path)).decode()
    assert record["params"]["cards"] == shipped  # the document, not its path
    same = arena.Lineup.of(rivals.make("sekigahara", cards=str(cards)), ["random"])
    with arena.Arena(same, 3, seed=1, out=path, resume=True) as match:
        assert match.resumed == 2
    before = path.read_bytes()
    changed = json.loads(json.dumps(shipped))
    changed["cards"][0]["strength"] += 1
    cards.write_text(json.dumps(changed))
    other = arena.Lineup.of(rivals.make("sekigahara", cards=str(cards)), ["random"])
    with pytest.raises(
        arena.OtherArena, match=":1: a game of sekigahara with other parameters or data"
    ):
        arena.Arena(other, 4, seed=1, out=path, resume=True)
    assert path.read_bytes() == before


def test_resume_names_the_form_of_equal_data_given_otherwise(tmp_path: Path) -> None:
    path = tmp_path / "log.jsonl"
    named = rivals.make("sekigahara", cards="sekigahara")
    with arena.Arena(arena.Lineup.of(named, ["random"]), 2, seed=1, out=path) as match:
        match.run()
    before = path.read_bytes()
    default = rivals.make("sekigahara")
    assert default == named
    with pytest.raises(
        arena.OtherArena,
        match=r":1: the same game of sekigahara with its data given in another form \(cards is "
        r"'sekigahara' there, None here\): give the game parameters as the file records them",
    ):
        arena.Arena(arena.Lineup.of(default, ["random"]), 4, seed=1, out=path, resume=True)
    assert path.read_bytes() == before


def test_the_local_backend_takes_1_to_256_threads() -> None:
    for bad in (0, -1, 257, 2.0, True):
        with pytest.raises(ValueError, match=r"threads must be an integer in 1\.\.256"):
            arena.LocalBackend(bad)  # type: ignore[arg-type]
    assert arena.LocalBackend(3).workers == 3
