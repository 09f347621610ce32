"""resample_from_infostate depends on the player's information state alone, for every game and
parameter set: a resample looks the same to the player, two states the player cannot tell apart
give the same resample for one seed, and so a fair bot (ismcts in each of its modes) with one
seed plays the same move in both. For the games with hidden information, resamples also follow
the uniform distribution over the histories consistent with what the player saw (checked where
that distribution is known)."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import numpy as np
import pytest

import rivals
from tests.games import CONFIGS, config_id

CASES = [(name, row[0]) for name, rows in CONFIGS.items() for row in rows]
IDS = [config_id(name, params) for name, params in CASES]
POSITIONS = 6
SEEDS = (0, 1, 2)
ISMCTS_ITERATIONS = 24


def decision_states(game: rivals.Game, count: int, rng: random.Random) -> list[rivals.State]:
    """`count` states where a player is to move, each at a uniformly random decision of a whole
    random game (so late positions, with long hidden histories, come up as often as early ones)."""
    states: list[rivals.State] = []
    while len(states) < count:
        state = game.new_initial_state()
        decisions = []
        while not state.is_terminal():
            if not state.is_chance_node():
                decisions.append(len(state.history()))
            state.apply_action(rng.choice(state.legal_actions()))
        if decisions:
            cut = decisions[rng.randrange(len(decisions))]
            states.append(game.state_from_history(state.history()[:cut]))
    assert len(states) == count, f"asked for {count} decision states, made {len(states)}"
    assert all(not s.is_chance_node() and not s.is_terminal() for s in states)
    return states


def views(state: rivals.State, player: int) -> tuple[str, str, bytes]:
    return (
        state.information_state_string(player),
        state.observation_string(player),
        state.observation_tensor(player).tobytes(),
    )


@pytest.mark.parametrize(("name", "params"), CASES, ids=IDS)
def test_resamples_depend_on_the_information_state_alone(name: str, params: dict[str, Any]) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(config_id(name, params))
    states = decision_states(game, POSITIONS, rng)
    compared = 0
    for s in states:
        for player in range(game.num_players):
            for k in SEEDS:
                t = s.resample_from_infostate(player, k)
                # (1) the resample looks the same to the player.
                assert views(t, player) == views(s, player)
                assert len(t.history()) == len(s.history())
                assert t.current_player() == s.current_player()
                if player == s.current_player():
                    assert t.legal_actions() == s.legal_actions()
                # (2) t is a state the player cannot tell from s: resamples from either agree.
                for j in (k + 10, k + 11):
                    assert (
                        s.resample_from_infostate(player, j).history()
                        == t.resample_from_infostate(player, j).history()
                    )
                    compared += 1
    assert compared == POSITIONS * game.num_players * len(SEEDS) * 2


# Every bot a hidden-information game calls fair, with a budget small enough for many positions.
FAIR_PARAMS: dict[str, dict[str, Any]] = {"ismcts": {"iterations": ISMCTS_ITERATIONS}}
# The settings of ismcts that change what its search reads beyond the deal: the chance outcomes
# its seat sees, a tree per seat keyed by what each seat sees, deals shared by simulations, the
# game's evaluation (cut-off rollouts, a prior on the moves) and move averages in the rollouts.
ISMCTS_MODES: list[dict[str, Any]] = [
    {"chance": "seen"},
    {"seat_trees": True},
    {"simulations_per_deal": 4},
    {"rollout_depth": 4, "prior_weight": 1.0},
    {"mast_epsilon": 0.2},
]


def fair_cases() -> list[tuple[str, dict[str, Any], str, dict[str, Any]]]:
    """Every fair bot of every hidden-information game, and ismcts in each mode the game takes."""
    cases = []
    for name, params in CASES:
        game = rivals.make(name, **params)
        if game.info.information != "imperfect":
            continue
        for bot in game.info.fair_bots:
            cases.append((name, params, bot, FAIR_PARAMS.get(bot, {})))
        accepted = rivals.bots.make("ismcts", game).params
        for mode in ISMCTS_MODES:
            if set(mode) <= set(accepted):
                cases.append((name, params, "ismcts", {**FAIR_PARAMS["ismcts"], **mode}))
    return cases


def fair_case_id(name: str, params: dict[str, Any], bot: str, bot_params: dict[str, Any]) -> str:
    mode = {key: value for key, value in bot_params.items() if key not in FAIR_PARAMS.get(bot, {})}
    return "-".join([config_id(name, params), bot, *(f"{k}={v}" for k, v in mode.items())])


FAIR_CASES = fair_cases()


@pytest.mark.parametrize(
    ("name", "params", "bot", "bot_params"),
    FAIR_CASES,
    ids=[fair_case_id(*case) for case in FAIR_CASES],
)
def test_fair_bots_move_by_the_information_state_alone(
    name: str, params: dict[str, Any], bot: str, bot_params: dict[str, Any]
) -> None:
    game = rivals.make(name, **params)
    rng = random.Random(fair_case_id(name, params, bot, bot_params))
    states = decision_states(game, POSITIONS, rng)
    differing = 0
    for number, s in enumerate(states):
        player = s.current_player()
        t = s.resample_from_infostate(player, number)
        differing += t.history() != s.history()
        first = rivals.bots.make(bot, game, seed=number, **bot_params)
        second = rivals.bots.make(bot, game, seed=number, **bot_params)
        # (3) one seed, one information state: one move.
        assert first.step(s) == second.step(t)
    # The twins must really differ in what the mover cannot see, or nothing was tested.
    assert differing > 0


def test_every_hidden_information_game_has_fair_bots_and_mcts_is_not_one() -> None:
    hidden = [n for n in rivals.games() if rivals.make(n).info.information == "imperfect"]
    assert hidden
    for name in hidden:
        info = rivals.make(name).info
        assert "ismcts" in info.fair_bots and "mcts" not in info.fair_bots
        assert set(info.fair_bots) <= set(info.bots)
    for name in set(rivals.games()) - set(hidden):
        assert rivals.make(name).info.fair_bots == rivals.make(name).info.bots


def test_hidden_games_resample_hidden_information() -> None:
    """The tests above would pass for a resampler that returns the state unchanged; in games with
    hidden information the hidden parts must actually vary with the seed."""
    for name in ("rheinlaender", "verraeter", "battlecards"):
        game = rivals.make(name)
        states = decision_states(game, 8, random.Random(name))
        state = max(states, key=lambda s: len(s.history()))
        player = state.current_player()
        histories = {tuple(state.resample_from_infostate(player, k).history()) for k in range(8)}
        assert len(histories) > 1, name


def chi_square(observed: Counter[Any], expected: dict[Any, float]) -> float:
    return sum((observed.get(key, 0) - e) ** 2 / e for key, e in expected.items())


# A chi-square statistic this far above its degrees of freedom has a probability below 1e-6 for
# the uniform distribution; the seeds are fixed, so the test is deterministic.
def chi_square_bound(dof: int) -> float:
    return dof + 7 * (2 * dof) ** 0.5


SAMPLES = 1500


def test_rheinlaender_hidden_hands_are_uniform_after_the_deal() -> None:
    # After the chips and the deal, seat 0 holds five cards; seat 1's hand is a uniform 5 of the
    # 49 others (as is seat 2's), whatever the canonical deal the sampler starts from.
    game = rivals.make("rheinlaender", players=3)
    state = game.new_initial_state()
    rng = random.Random(5)
    while state.to_dict()["phase"] != "play":
        state.apply_action(rng.choice(state.legal_actions()))
    own = set(state.to_dict()["hands"][0])
    counts: Counter[int] = Counter()
    for seed in range(SAMPLES):
        hands = state.resample_from_infostate(0, seed).to_dict()["hands"]
        assert set(hands[0]) == own
        counts.update(hands[1])
    others = [card for card in range(1, 55) if card not in own]
    expected = {card: SAMPLES * 5 / len(others) for card in others}
    assert set(counts) <= set(others)
    assert chi_square(counts, expected) < chi_square_bound(len(others) - 1)


def test_verraeter_hidden_draws_are_uniform() -> None:
    # Round 1 with seat 1 drafting Bauer: its three draws are hidden from seat 0 and nobody has
    # played them, so they are three cards without replacement from the 11-card pile.
    from tests.verraeter.helpers import act, draft, new_game, supply

    state = new_game(rivals.make)
    draft(state, 0, "Verraeter", {0: "Baumeister", 1: "Bauer", 2: "Stratege", 3: "Diplomat5"})
    supply(state)
    act(state, "pass")
    pile = Counter(state.to_dict()["draw_pile"])
    for value in (2, 2, 6):
        act(state, f"draw {value}")
    counts: Counter[int] = Counter()
    start = Counter([3, 4, 5])
    for seed in range(SAMPLES):
        hand = Counter(state.resample_from_infostate(0, seed).to_dict()["hands"][1])
        drawn = hand - start
        assert sum(drawn.values()) == 3
        counts.update(drawn)
    expected = {v: SAMPLES * 3 * c / sum(pile.values()) for v, c in pile.items()}
    assert chi_square(counts, expected) < chi_square_bound(len(expected) - 1)


def test_battlecards_hidden_reserve_is_uniform_after_the_deal() -> None:
    # Germany's six dealt cards are a uniform 6 of its 47 for Britain; the sampler starts from the
    # lowest ones, so only a well-mixed chain passes.
    game = rivals.make("battlecards")
    state = game.new_initial_state()
    rng = random.Random(3)
    for _ in range(6):
        state.apply_action(rng.choice(state.legal_actions()))
    counts: Counter[str] = Counter()
    for seed in range(SAMPLES):
        counts.update(state.resample_from_infostate(1, seed).to_dict()["reserve"][0])
    ids = list(state.to_dict()["arsenal_deck"][0]) + list(state.to_dict()["reserve"][0])
    assert len(ids) == 47
    expected = {card: SAMPLES * 6 / 47 for card in ids}
    assert set(counts) <= set(ids)
    assert chi_square(counts, expected) < chi_square_bound(46)


@pytest.mark.parametrize("name", ["rheinlaender", "verraeter", "battlecards"])
def test_resampled_histories_replay_legally(name: str) -> None:
    """Every action of a resample is legal: the checked API replays it without complaint."""
    game = rivals.make(name)
    rng = random.Random("legal " + name)
    for state in decision_states(game, 4, rng):
        for player in range(game.num_players):
            other = state.resample_from_infostate(player, rng.randrange(2**32))
            replayed = game.state_from_history(other.history())
            assert replayed.to_dict() == other.to_dict()
            assert np.array_equal(
                replayed.observation_tensor(player), state.observation_tensor(player)
            )


def twins_agree(a: rivals.State, b: rivals.State, player: int) -> None:
    """Two states `player` cannot tell apart resample alike; their hidden parts differ."""
    assert a.information_state_string(player) == b.information_state_string(player)
    assert a.history() != b.history()
    for seed in range(6):
        assert (
            a.resample_from_infostate(player, seed).history()
            == b.resample_from_infostate(player, seed).history()
        )
    assert rivals.bots.make("ismcts", a.game, seed=4, iterations=40).step(a) == rivals.bots.make(
        "ismcts", b.game, seed=4, iterations=40
    ).step(b)


def test_rheinlaender_twins_where_a_played_card_was_dealt_apart() -> None:
    # Seat 1 is dealt 6 and 7 in either order and later plays the 6: seat 0 cannot tell at which
    # of the hidden deals the 6 came.
    from tests.rheinlaender.helpers import deal, lay, step

    twins = []
    for seat_1 in ([6, 7, 8, 9, 10], [7, 6, 8, 9, 10]):
        state = lay(rivals.make("rheinlaender").new_initial_state())
        deal(state, [[1, 2, 3, 4, 5], seat_1, [11, 12, 13, 14, 15]])
        step(state, "1L", "card 20", "6L", "card 21", "11L", "card 22")
        twins.append(state)
    twins_agree(*twins, player=0)


def test_verraeter_twins_where_a_played_card_was_drawn_apart() -> None:
    # Seat 1 draws 2 and 8 in either order and plays the 8 in the next round.
    from tests.verraeter.helpers import act, draft, finish, seat_one_to_draw, supply

    twins = []
    for draws in ([2, 8, 3], [8, 2, 3]):
        state = seat_one_to_draw(rivals.make)
        for value in draws:
            act(state, f"draw {value}")
        finish(state, draws=[2, 4], discards={1: [4]})
        draft(state, None, "Stratege", {1: "Bauer", 2: "Verraeter", 3: "Diplomat2", 0: "Diplomat5"})
        supply(state, {1: [8]})
        finish(state)  # to the next round's conflict choice, the same draws in both
        twins.append(state)
    twins_agree(*twins, player=0)


def test_battlecards_twins_where_seen_cards_were_dealt_apart() -> None:
    # Germany is dealt G1 and G2 in either order, deploys both face down on the ground and fights
    # a land battle, which turns them face up: Britain has seen both but not which deal was which.
    from tests.battlecards.helpers import act, new_state, setup

    twins = []
    for first in (["G1", "G2"], ["G2", "G1"]):
        state = setup(
            new_state(rivals.make),
            [*first, "G3", "G4", "G7", "G9"],
            ["B1", "B2", "B4", "B5", "B7", "B8"],
            ["G1", "G2", "G4"],
            ["B1", "B4", "B7"],
        )
        act(state, "pass", "K1", "fight")
        twins.append(state)
    assert {"G1", "G2"} <= {c["id"] for c in twins[0].to_dict()["stacks"][0]["ground"]}
    twins_agree(*twins, player=1)


# (game, batch seed) of the random-game batches whose positions every resample must replay
# legally from; Battlecards' seed is the benchmark's, whose positions include a conflict card
# turned over and brought back by a refill of the deck within one action.
BATCHES = [("rheinlaender", 11), ("verraeter", 12), ("battlecards", 20240605)]


@pytest.mark.parametrize(("name", "seed"), BATCHES, ids=[name for name, _ in BATCHES])
def test_resamples_at_many_positions_replay_legally(name: str, seed: int) -> None:
    game = rivals.make(name)
    histories = game.play_match(["random"] * game.num_players, 50, seed=seed, keep_histories=True)[
        "histories"
    ]
    rng = random.Random(seed)
    positions = [list(h[: len(h) * k // 4]) for h in histories for k in (1, 2, 3)]
    assert len(positions) == 150
    for history in positions:
        state = game.state_from_history(history)
        player = rng.randrange(game.num_players)
        # resample_from_infostate rebuilds the state through the checked API: an illegal action
        # of the resampled history is a ValueError.
        other = state.resample_from_infostate(player, rng.randrange(2**32))
        assert other.information_state_string(player) == state.information_state_string(player)
