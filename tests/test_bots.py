"""What the bots' parameters promise (docs/bots.md), on the engine: ``threads`` reproduces the
move for a seed and thread count, ``time_s`` replaces ``iterations``, ``max_nodes`` bounds the
tree yet leaves the moves legal, ``exploration`` is UCB's constant; ``ismcts`` plays Battlecards;
``alphabeta`` searched deep enough plays the exact solver's moves in Sekigahara end-games."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path
from typing import Any

import pytest

import rivals
from tests.isolated import run_engine_check
from tests.random_play import random_action
from tests.sekigahara.helpers import value as solved_value

TREE_BOTS = ["mcts", "ismcts"]


def decisions(name: str, count: int, seed: int, **params: Any) -> list[rivals.State]:
    """``count`` decision states with a choice (two legal actions or more), one per random game,
    at a random one of its decisions."""
    game = rivals.make(name, **params)
    rng = random.Random(f"{name}-{seed}")
    out = []
    for _ in range(count):
        state = game.new_initial_state()
        choices = []
        while not state.is_terminal():
            if not state.is_chance_node() and len(state.legal_actions()) > 1:
                choices.append(state.clone())
            state.apply_action(random_action(state, rng))
        assert choices, f"a game of {name} without a decision between two actions"
        out.append(rng.choice(choices))
    assert len(out) == count
    return out


def moves_of(
    bot: str, positions: list[rivals.State], seed: int, iterations: int, **params: Any
) -> list[int]:
    """The moves one bot (one seed, searching on from position to position) plays in
    ``positions``."""
    player = rivals.bots.make(bot, positions[0].game, seed=seed, iterations=iterations, **params)
    return [player.step(state) for state in positions]


# --- threads ----------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", rivals.games())
def test_threads_reproduce_the_moves_for_a_seed(name: str, bot: str) -> None:
    game = rivals.make(name)
    positions = decisions(name, 5, seed=1)

    def moves(threads: int, seed: int) -> list[int]:
        player = rivals.bots.make(bot, game, seed=seed, iterations=40, threads=threads)
        return [player.step(state) for state in positions]

    two = moves(2, seed=3)
    for state, action in zip(positions, two):
        assert action in state.legal_actions()
    assert moves(2, seed=3) == two, "same seed and thread count, other moves"
    assert moves(3, seed=3) == moves(3, seed=3)
    # Each thread grows its own tree: the thread count changes the search, the seed too.
    others = {tuple(moves(1, seed=3)), tuple(moves(2, seed=4)), tuple(moves(3, seed=3))}
    assert others != {tuple(two)}


# --- time_s -----------------------------------------------------------------------------------

TIMED = [("mcts", "rosenkoenig"), ("ismcts", "verraeter"), ("alphabeta", "rosenkoenig")]


@pytest.mark.parametrize(("bot", "name"), TIMED)
def test_time_budget_replaces_the_iterations(bot: str, name: str) -> None:
    """With ``time_s`` the bot thinks for that long even when its iteration or depth budget is a
    single step: it returns no sooner than the deadline (the clock is monotonic, so this cannot be
    flaky) and, loosely, not much later."""
    budget = 0.05
    params = {"depth": 1} if bot == "alphabeta" else {"iterations": 1}
    game = rivals.make(name)
    for state in decisions(name, 3, seed=2):
        player = rivals.bots.make(bot, game, seed=1, time_s=budget, **params)
        start = time.perf_counter()
        action = player.step(state)
        elapsed = time.perf_counter() - start
        assert action in state.legal_actions()
        assert elapsed >= budget, f"returned after {elapsed:.3f}s: the iterations were the limit"
        assert elapsed < budget + 5.0, f"{elapsed:.2f}s for a {budget}s budget"
    quick = rivals.bots.make(bot, game, seed=1, **params)
    start = time.perf_counter()
    quick.step(decisions(name, 1, seed=2)[0])
    # Without a time budget the single step is all it does (generous, as above).
    assert time.perf_counter() - start < budget + 5.0


@pytest.mark.parametrize(("bot", "name"), TIMED)
def test_a_cpu_clock_budget_is_the_searching_threads_cpu_time(bot: str, name: str) -> None:
    """With ``clock="cpu"`` the budget counts the CPU time of the thread that searches (here the
    calling one): the step spends at least that much of it, however busy the machine, where a
    wall-clock budget on a loaded core spends less."""
    budget = 0.05
    params = {"depth": 1} if bot == "alphabeta" else {"iterations": 1}
    game = rivals.make(name)
    for state in decisions(name, 2, seed=2):
        player = rivals.bots.make(bot, game, seed=1, time_s=budget, clock="cpu", **params)
        assert player.params["clock"] == "cpu"
        start = time.thread_time()
        action = player.step(state)
        spent = time.thread_time() - start
        assert action in state.legal_actions()
        assert spent >= budget, f"{spent:.3f}s of CPU for a {budget}s CPU budget"
    with pytest.raises(ValueError, match=r"clock.*'wall'.*'cpu'"):
        rivals.bots.make(bot, game, time_s=budget, clock="gpu")


def test_the_budget_clocks_count_what_they_say(tmp_path: Path) -> None:
    """The C++ deadline itself (tests/cpp/deadline.cpp): sleeping passes a wall-clock deadline and
    not a CPU one, and another thread's work does not count against a thread's CPU deadline."""
    assert run_engine_check(tmp_path, "deadline", timeout=60) == []


# --- max_nodes --------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", rivals.games())
def test_a_tiny_tree_still_plays_legal_moves_and_changes_the_search(name: str, bot: str) -> None:
    game = rivals.make(name)
    positions = decisions(name, 6, seed=3)
    chosen: dict[int, list[int]] = {}
    for max_nodes in (1, 2, 10, 4000000):
        player = rivals.bots.make(bot, game, seed=5, iterations=60, max_nodes=max_nodes)
        chosen[max_nodes] = [player.step(state) for state in positions]
        for state, action in zip(positions, chosen[max_nodes]):
            assert action in state.legal_actions(), (max_nodes, state.history())
    # A root that cannot even hold its children searches nothing: that must show in some move.
    assert chosen[1] != chosen[4000000]


# --- exploration -------------------------------------------------------------------------------


@pytest.mark.parametrize(("bot", "name"), [("mcts", "sekigahara"), ("ismcts", "verraeter")])
def test_exploration_zero_commits_to_early_luck(bot: str, name: str) -> None:
    """UCB's constant at its extremes. At 0 the search is greedy: once each move has one
    rollout it follows the best-looking one, and a move whose first rollout lost is never tried
    again, so which move it plays depends on the luck of those first rollouts and varies from
    seed to seed. With a huge constant every move gets the same share of the budget and the most
    visited one is the best on average over many rollouts each, which varies far less."""
    game = rivals.make(name)
    distinct = {0.0: 0, 1000.0: 0}
    for state in decisions(name, 8, seed=4):
        for exploration in distinct:
            picks = {
                rivals.bots.make(
                    bot, game, seed=seed, iterations=400, exploration=exploration
                ).step(state)
                for seed in range(8)
            }
            assert picks <= set(state.legal_actions())
            distinct[exploration] += len(picks)
    assert distinct[0.0] > distinct[1000.0] + 4, distinct


def test_ismcts_plays_battlecards_to_the_end_reproducibly() -> None:
    game = rivals.make("battlecards", max_turns=30)

    def play() -> list[int]:
        bots = [rivals.bots.make("ismcts", game, seed=seat, iterations=20) for seat in (0, 1)]
        rng = random.Random(9)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
                continue
            action = bots[state.current_player()].step(state)
            assert action in state.legal_actions()
            state.apply_action(action)
        assert sum(state.returns()) == 0
        return state.history()

    history = play()
    assert len(history) > 100
    assert play() == history


def test_alphabeta_by_the_clock_stops_at_the_depth_that_solves() -> None:
    """With a time budget it deepens until the time runs out, unless a depth solves the position
    first: then it stops there, long before its ten seconds (and far short of its 64 plies)."""
    state = endgame("turn_start", 2, 1)
    bot = rivals.bots.make("alphabeta", state.game, seed=1, time_s=10.0)
    bot.step(state)
    stats = bot.stats()
    assert stats["solved"] and 1 < stats["depth"] < 20, stats
    sign = 1.0 if state.current_player() == 0 else -1.0
    assert stats["value"] == pytest.approx(sign * solved_value(state), abs=1e-6)


# --- reuse_tree (mcts) --------------------------------------------------------------------------


def counts(stats: dict[str, Any]) -> dict[str, Any]:
    """An mcts search's counts, its root moves aside."""
    return {key: value for key, value in stats.items() if key != "moves"}


def play_one_seat(bot: rivals.bots.Bot, name: str, seed: int) -> list[tuple[int, dict[str, int]]]:
    """``bot`` plays seat 0 of a game against random moves; each of its moves where it had a
    choice, with its stats after it."""
    state = rivals.make(name).new_initial_state()
    rng = random.Random(seed)
    seen = []
    while not state.is_terminal():
        if state.current_player() == 0 and len(state.legal_actions()) > 1:
            seen.append((bot.step(state), bot.stats()))
            state.apply_action(seen[-1][0])
        else:
            state.apply_action(random_action(state, rng))
    return seen


@pytest.mark.parametrize("name", ["rosenkoenig", "sekigahara"])
def test_reuse_tree_grows_the_tree_kept_below_the_moves_played(name: str) -> None:
    """Each search adds its iterations to what the last one left below the moves played since;
    without reuse (the default) every search starts from nothing."""
    game = rivals.make(name)

    def stats_of(**params: Any) -> list[dict[str, int]]:
        bot = rivals.bots.make("mcts", game, seed=2, iterations=500, **params)
        return [stats for _, stats in play_one_seat(bot, name, 3)]

    fresh = stats_of()
    assert fresh and all(
        counts(stats) == {"visits": 500, "kept": 0, "repeated": 0} for stats in fresh
    )
    kept = stats_of(reuse_tree=True)
    assert all(stats["visits"] == stats["kept"] + 500 for stats in kept)
    assert sum(stats["kept"] > 0 for stats in kept) > len(kept) // 2, kept
    assert all(later["kept"] < earlier["visits"] for earlier, later in zip(kept, kept[1:]))


def test_reuse_tree_is_reproducible_and_forgets_other_games() -> None:
    """The same seed plays the same game with reuse, another one than without; a position that
    does not follow the last one searched starts from nothing."""
    game = rivals.make("sekigahara")

    def game_moves(reuse: bool) -> tuple[list[int], rivals.bots.Bot]:
        bot = rivals.bots.make("mcts", game, seed=5, iterations=300, reuse_tree=reuse)
        return [move for move, _ in play_one_seat(bot, "sekigahara", 8)], bot

    moves, bot = game_moves(True)
    assert game_moves(True)[0] == moves
    assert game_moves(False)[0] != moves
    bot.step(decisions("sekigahara", 1, seed=9)[0])
    assert counts(bot.stats()) == {"visits": 300, "kept": 0, "repeated": 0}


@pytest.mark.parametrize("bot_name", ["mcts", "ismcts"])
@pytest.mark.parametrize("name", ["rosenkoenig", "verraeter"])
def test_stats_give_each_root_move_its_visits_and_mean_return(bot_name: str, name: str) -> None:
    """After a search, ``stats()["moves"]`` lists every legal move in order with the simulations
    through it, over every thread's tree (summing to the root's), and their mean return for the
    mover; the move played is the most visited."""
    game = rivals.make(name)
    for state in decisions(name, 12, seed=4):
        legal = state.legal_actions()
        bot = rivals.bots.make(bot_name, game, seed=3, iterations=400, threads=2)
        played = bot.step(state)
        stats = bot.stats()
        moves = stats["moves"]
        assert [move["action"] for move in moves] == legal
        assert sum(move["visits"] for move in moves) == stats["visits"] == 2 * 400
        most = max(move["visits"] for move in moves)
        assert played == next(move["action"] for move in moves if move["visits"] == most)
        for move in moves:
            assert -1.0 <= move["value"] <= 1.0
            if move["visits"] == 0:
                assert move["value"] == 0.0


def test_repetition_draw_scores_the_lines_that_come_back() -> None:
    """Two `end`s in a row bring a Sekigahara position back with only the turn counter changed
    (unless a lock falls due), so with repetition_draw most searches meet repetitions, and without
    it none does; a game that cannot go round has no such parameter."""
    game = rivals.make("sekigahara")

    def stats_of(**params: Any) -> list[dict[str, int]]:
        bot = rivals.bots.make("mcts", game, seed=4, iterations=2000, **params)
        return [stats for _, stats in play_one_seat(bot, "sekigahara", 6)]

    plain = stats_of()
    assert plain and all(stats["repeated"] == 0 for stats in plain)
    drawn = stats_of(repetition_draw=True)
    assert all(0 <= stats["repeated"] <= stats["visits"] for stats in drawn)
    assert sum(stats["repeated"] > 0 for stats in drawn) > len(drawn) // 2, drawn
    with pytest.raises(ValueError, match="unknown parameter 'repetition_draw'"):
        rivals.bots.make("mcts", rivals.make("rosenkoenig"), repetition_draw=True)


# From a game of the preset against `mcts` at 1000 iterations: seat 0 leads 4 to 1 with the
# supplies spent, and both sides have gone round, ending their turns or moving a token between
# cards 2 and 6; the exact solver values every move a win for seat 0 (it ignores max_turns), and
# the preset of before repetition_draw went on ending its turns until max_turns drew the game.
STANDOFF = [
    "reveal 8", "reveal 6", "reveal 4", "place 4", "place 4", "place 8", "place 6",
    "place 8", "place 8", "place 8", "place 8", "reveal 2", "place 8", "move 6->8",
    "place 2", "place 2", "place 6", "move 6->8", "move 2->6", "end", "end", "end",
    "end", "end", "end", "move 6->2", "end", "end", "move 2->6", "end", "end", "end",
    "move 2->6", "end", "move 6->2", "end", "end", "move 2->6", "end", "end", "end",
    "end", "end",
]  # fmt: skip


def test_repetition_draw_breaks_a_won_standoff() -> None:
    """Waiting is worth a draw once the line comes back, so the preset, which scores it so, makes
    a move instead; the search without repetition_draw goes on ending its turns."""
    game = rivals.make("sekigahara")
    state = game.new_initial_state()
    for text in STANDOFF:
        state.apply_action(state.string_to_action(text))
    assert (state.current_player(), state.to_dict()["scores"]) == (0, [4, 1])

    def moves(**params: Any) -> set[str]:
        bots = [
            rivals.bots.make("best", game, time_s=0, iterations=20000, seed=seed, **params)
            for seed in range(3)
        ]
        return {state.action_to_string(bot.step(state)) for bot in bots}

    assert moves(repetition_draw=False) == {"end"}
    assert "end" not in moves()  # the preset


# --- simulations_per_deal (ismcts) -------------------------------------------------------------

HIDDEN = [name for name in rivals.games() if rivals.make(name).info.information == "imperfect"]


@pytest.mark.parametrize("name", HIDDEN)
def test_simulations_share_deals_as_asked(name: str) -> None:
    """1 (the default) deals anew for every simulation, as before; a count of at least the
    simulations deals once per move, so any larger count plays the same moves; one in between
    plays otherwise."""
    positions = decisions(name, 8, seed=5)

    def moves(**params: Any) -> list[int]:
        return moves_of("ismcts", positions, 4, 200, **params)

    assert moves() == moves(simulations_per_deal=1)
    assert moves(simulations_per_deal=200) == moves(simulations_per_deal=10**6)
    assert moves(simulations_per_deal=200) != moves()
    assert moves(simulations_per_deal=4) not in (moves(), moves(simulations_per_deal=200))


def test_simulations_per_deal_is_checked_and_only_where_the_game_deals() -> None:
    """Rosenkönig has nothing to deal anew (no resample_history), so no such parameter."""
    with pytest.raises(ValueError, match="simulations_per_deal must be an int 1-2147483647"):
        rivals.bots.make("ismcts", rivals.make("battlecards"), simulations_per_deal=0)
    with pytest.raises(ValueError, match="simulations_per_deal"):
        rivals.bots.make("ismcts", rivals.make("rosenkoenig"), simulations_per_deal=2)


# --- seat_trees (ismcts) -----------------------------------------------------------------------

# The games where a decision can be hidden from the other seats (a secret pick, a card deployed
# face down); in the others every decision is public and one tree serves every seat.
PARTLY_HIDDEN = ["battlecards", "verraeter"]


def test_the_games_see_hidden_decisions_as_their_information_states_do(tmp_path: Path) -> None:
    """tests/cpp/observed_actions.cpp, against the installed engine: the ids the seats' trees
    are keyed by tell two decisions apart exactly where the seat's information state does."""
    assert [line.split(":")[0] for line in run_engine_check(tmp_path, "observed_actions")] == [
        "verraeter 4",
        "verraeter 3",
        "battlecards",
    ]


def test_the_games_see_chance_outcomes_as_their_information_states_do(tmp_path: Path) -> None:
    """tests/cpp/seen_chance.cpp, against the installed engine: the chance outcomes a seat's tree
    branches on with ``chance="seen"`` are exactly those the seat's information state tells
    apart."""
    assert [line.split(":")[0] for line in run_engine_check(tmp_path, "seen_chance")] == [
        "verraeter 4",
        "verraeter 3",
        "battlecards",
        "rheinlaender 3",
        "rheinlaender 5",
    ]


def test_ismcts_stops_on_a_deal_of_another_position(tmp_path: Path) -> None:
    """tests/cpp/faulty_resampler.cpp: a resampler whose deal leaves the mover other moves stops
    the search with an error (the check every deal gets); one whose deal is an illegal history
    stops it where the engine is built with RIVALS_CHECK_DEALS; the game's own plays on."""
    assert run_engine_check(tmp_path, "faulty_resampler") == [
        "own: plays",
        "short: verraeter: ismcts: a resampled history leaves seat 2 another choice than the "
        "position searched (a fault of the game's resample_history)",
        "impossible: verraeter: ismcts: action #1 of a resampled history, 3, is not legal (a "
        "fault of the game's resample_history)",
    ]


@pytest.mark.parametrize("name", rivals.games())
def test_ismcts_branches_on_seen_chance_only_when_asked(name: str) -> None:
    """``chance="open"`` is the default, move for move; ``"seen"`` searches otherwise, the same
    again for a seed, legal moves all; other values are refused."""
    game = rivals.make(name)
    positions = decisions(name, 10, seed=13)

    def moves(**params: Any) -> list[int]:
        return moves_of("ismcts", positions, 3, 300, **params)

    assert rivals.bots.make("ismcts", game).params["chance"] == "open"
    assert moves() == moves(chance="open")
    seen = moves(chance="seen")
    assert seen != moves()
    assert seen == moves(chance="seen")
    for state, action in zip(positions, seen):
        assert action in state.legal_actions()
    with pytest.raises(ValueError, match='chance must be "open" or "seen"'):
        rivals.bots.make("ismcts", game, chance="closed")


@pytest.mark.parametrize("name", PARTLY_HIDDEN)
def test_seat_trees_change_the_search_where_decisions_are_hidden(name: str) -> None:
    """One shared tree is the default, move for move; a tree per seat (``seat_trees=True``)
    searches otherwise, and each is reproducible."""
    positions = decisions(name, 12, seed=8)
    shared = moves_of("ismcts", positions, 4, 300)
    assert shared == moves_of("ismcts", positions, 4, 300, seat_trees=False)
    per_seat = moves_of("ismcts", positions, 4, 300, seat_trees=True)
    assert per_seat == moves_of("ismcts", positions, 4, 300, seat_trees=True)
    assert per_seat != shared
    for state, action in zip(positions, per_seat):
        assert action in state.legal_actions()


@pytest.mark.parametrize("name", sorted(set(rivals.games()) - set(PARTLY_HIDDEN)))
def test_seat_trees_exist_only_where_decisions_are_hidden(name: str) -> None:
    with pytest.raises(ValueError, match="seat_trees"):
        rivals.bots.make("ismcts", rivals.make(name), seat_trees=True)


# --- alphabeta against the exact solver ----------------------------------------------------------


def endgame(rule: str, seed: int, deck: int) -> rivals.State:
    """The first decision state of a random Sekigahara game once the deck is down to ``deck``
    cards (with the three in the centre, ``deck + 3`` cards left to win)."""
    state = rivals.make("sekigahara", repetition_rule=rule).new_initial_state()
    rng = random.Random(f"{rule}-{seed}-{deck}")
    while len(state.to_dict()["deck"]) > deck or state.is_chance_node():
        assert not state.is_terminal(), f"game {seed} ended with {deck} cards or more in the deck"
        state.apply_action(rng.choice(state.legal_actions()))
    return state


def value_after(state: rivals.State, action: int) -> float:
    """The exact value, for the player to move in ``state``, of playing ``action``."""
    sign = 1.0 if state.current_player() == 0 else -1.0
    child = state.clone()
    child.apply_action(action)
    return round(sign * solved_value(child), 9)


# (seed, cards in the deck) of end-games from random games, three per repetition rule, chosen
# so that each rule's set holds positions where a depth-2 search loses value.
END_GAMES = {
    "turn_start": [(2, 1), (5, 2), (1, 2)],
    "symmetric": [(1, 2), (2, 1), (6, 1)],
    "off": [(1, 2), (2, 2), (4, 1)],
}


@pytest.mark.parametrize("rule", sorted(END_GAMES))
def test_deep_alphabeta_plays_the_solvers_moves_in_end_games(rule: str) -> None:
    """From end-games with one or two cards in the deck (four or five cards left to win),
    alphabeta at depth 16 (five turns and more) plays both seats to the end; each of its moves
    keeps the solver's value of the position for the player to move, so it realises the solver's
    value. A depth-2 search does lose value on the way, which shows the end-games test the
    depth. Where either search reports the position solved (``stats()``), the value it reports is
    the solver's, and the deep one solves the last moves before its full depth."""
    deep_moves = shallow_misses = solved_early = shallow_open = 0
    for seed, deck in END_GAMES[rule]:
        state = endgame(rule, seed, deck)
        deep = rivals.bots.make("alphabeta", state.game, seed=seed, depth=16)
        shallow = rivals.bots.make("alphabeta", state.game, seed=seed, depth=2)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            sign = 1.0 if state.current_player() == 0 else -1.0
            value = round(sign * solved_value(state), 9)
            action = deep.step(state)
            assert value_after(state, action) == value, (state.history(), action, value)
            shallow_misses += value_after(state, shallow.step(state)) != value
            for bot in (deep, shallow):
                stats = bot.stats()
                if stats["solved"]:
                    assert stats["value"] == pytest.approx(value, abs=1e-6), state.history()
            solved_early += deep.stats()["solved"] and deep.stats()["depth"] < 16
            shallow_open += not shallow.stats()["solved"] and shallow.stats()["depth"] == 2
            deep_moves += 1
            state.apply_action(action)
    assert deep_moves >= 10
    assert solved_early > 0 and shallow_open > 0, (solved_early, shallow_open)
    assert shallow_misses > 0, "depth 2 found every best move too: the end-games are too easy"


# --- the bots page -----------------------------------------------------------------------------


def default_text(value: Any) -> str:
    """A parameter's default as docs/bots.md writes it: JSON's words, numbers as Python's (the page
    separates thousands, which the comparison drops)."""
    if value is None or isinstance(value, bool):
        return {None: "null", True: "true", False: "false"}[value]
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value)


def test_the_bots_page_lists_every_bot_with_its_parameters_and_defaults() -> None:
    """docs/bots.md, the table of bots: a row per bot, naming every parameter the bot takes in any
    game with its default (`evaluation`: the game's first)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    table = page.split("| name | games | what it does | parameters (default) |\n", 1)[1]
    rows = {}
    for line in table.split("\n\n", 1)[0].splitlines()[1:]:
        cells = [cell.strip() for cell in line.strip("|").split(" | ")]
        rows[cells[0].strip("`")] = cells[-1]
    assert sorted(rows) == rivals.bots.names()
    for name in rivals.games():
        game = rivals.make(name)
        for bot in game.info.bots:
            for key, value in rivals.bots.make(bot, game).params.items():
                cell = rows[bot]
                assert f"`{key}` (" in cell, (name, bot, key)
                said = re.sub(r"(?<=\d),(?=\d{3})", "", cell.split(f"`{key}` (", 1)[1])
                expected = "the game's first" if key == "evaluation" else default_text(value)
                assert said.startswith(expected), (name, bot, key, value, said[:40])


def test_the_bots_page_says_which_bots_see_hidden_cards() -> None:
    """docs/bots.md, "Which bots see hidden cards": a row per bot, "does not look" exactly for the
    bots a game with hidden information lists as fair (`game.info.fair_bots`)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    section = page.split("## Which bots see hidden cards", 1)[1]
    table = section.split("| bot | given a full state", 1)[1].split("\n\n", 1)[0]
    looks = {}
    for line in table.splitlines()[2:]:
        bot, said = (cell.strip() for cell in line.strip("|").split(" | ", 1))
        looks[bot.strip("`")] = said.startswith("peeks")
        assert said.startswith(("peeks", "does not look")), line
    assert sorted(looks) == rivals.bots.names()
    for name in rivals.games():
        info = rivals.make(name).info
        if info.information == "imperfect":
            assert sorted(bot for bot in info.bots if not looks[bot]) == sorted(info.fair_bots)


def bound_texts(bound: int) -> set[str]:
    """How docs/bots.md may write a limit: digits, or a power of 2 or 10 (less one)."""
    texts = {str(bound), f"{bound:,}"}
    for base in (2, 10):
        for power in range(1, 64):
            if base**power == bound:
                texts.add(f"{base}**{power}")
            if base**power - 1 == bound:
                texts.add(f"{base}**{power}-1")
    return texts


def test_the_bots_page_states_the_limit_of_every_numeric_parameter() -> None:
    """docs/bots.md, "Notes", the limits checked when a bot is made: every parameter that takes
    a number, with its upper limit as the bots check it (the message of an unknown parameter
    lists them)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    limits = " ".join(
        page.split("- Limits, checked when the bot is made:", 1)[1].split("\n- ")[0].split()
    )
    checked = set()
    for name in rivals.games():
        game = rivals.make(name)
        for bot in game.info.bots:
            with pytest.raises(ValueError) as refused:
                rivals.bots.make(bot, game, no_such_parameter=1)
            accepted = str(refused.value).split("accepted: ", 1)[1]
            found = re.findall(
                r"(\w+) \((?:null \([^)]*\) or )?an? (?:int|number) [\d.]+-(\d+)", accepted
            )
            for key, high in found:
                assert f"`{key}`" in limits, (bot, key)
                assert any(text in limits for text in bound_texts(int(high))), (bot, key, high)
                checked.add(key)
    assert {"time_s", "depth", "max_contexts", "proof_depth"} <= checked
