"""The evaluation in the tree searches (docs/bots.md): ``rollout_depth`` cuts the rollouts of
``mcts`` and ``ismcts`` off with the game's evaluation; the evaluation's value is backed up from
the mover's side (the move it prefers is the move a tiny tree plays); games name their
evaluations (Rosenkönig's ``thesis``). The presets built on it: test_presets.py."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import pytest

import rivals
from tests.isolated import run_engine_check
from tests.random_play import random_action
from tests.test_bots import decisions, moves_of

TREE_BOTS = ["mcts", "ismcts"]
EVALUATED = [name for name in rivals.games() if rivals.make(name).info.evaluation]


EVALUATION_CHOICES = 'evaluation must be "default", "thesis", "calibrated" or "net"'


def test_every_game_names_its_evaluations_default_first() -> None:
    assert rivals.games() == EVALUATED
    assert rivals.make("rosenkoenig").info.evaluations == (
        "default",
        "thesis",
        "calibrated",
        "net",
    )
    for name in EVALUATED:
        assert rivals.make(name).info.evaluations[0] == "default"
        assert rivals.make(name).info.evaluations[-1] == "net"


def test_the_bots_page_lists_every_games_evaluations() -> None:
    """docs/bots.md, "The games' evaluations": a row per game, linking its rules page and naming
    each of its evaluations, so a game added or an evaluation renamed shows in the docs."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    section = page.split("### The games' evaluations", 1)[1].split("\n\n", 2)[1]
    rows = {
        match.group(1): line
        for line in section.splitlines()
        if (match := re.search(r"\(rules/(\w+)\.md\)", line))
    }
    assert sorted(rows) == sorted(EVALUATED)
    for name, row in rows.items():
        for evaluation in rivals.make(name).info.evaluations:
            assert f"`{evaluation}`" in row, (name, evaluation)


# --- parameters -------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", EVALUATED)
def test_cut_off_parameters_are_declared_with_their_defaults(name: str, bot: str) -> None:
    params = rivals.bots.make(bot, rivals.make(name)).params
    assert params["rollout_depth"] is None
    assert params["evaluation"] == "default"


@pytest.mark.parametrize("bot", TREE_BOTS)
def test_bad_cut_off_parameters_are_refused(bot: str) -> None:
    game = rivals.make("rosenkoenig")
    with pytest.raises(ValueError, match=r"rollout_depth must be null .* or an int 0-"):
        rivals.bots.make(bot, game, rollout_depth=-1)
    with pytest.raises(ValueError, match=EVALUATION_CHOICES):
        rivals.bots.make(bot, game, rollout_depth=2, evaluation="material")
    # An evaluation that would value nothing is said so rather than ignored.
    with pytest.raises(ValueError, match="evaluation 'thesis' values cut-off rollouts"):
        rivals.bots.make(bot, game, evaluation="thesis")
    assert rivals.bots.make(bot, game, rollout_depth=0, evaluation="thesis").params[
        "evaluation"
    ] == ("thesis")


def test_alphabeta_takes_an_evaluation_by_name() -> None:
    game = rivals.make("rosenkoenig")
    assert rivals.bots.make("alphabeta", game).params["evaluation"] == "default"
    assert rivals.bots.make("alphabeta", game, evaluation="thesis").params["evaluation"] == "thesis"
    with pytest.raises(ValueError, match=EVALUATION_CHOICES):
        rivals.bots.make("alphabeta", game, evaluation="none")
    with pytest.raises(ValueError, match=r'evaluation must be "default" .*, got "thesis"'):
        rivals.bots.make("alphabeta", rivals.make("sekigahara"), evaluation="thesis")


# --- the search -------------------------------------------------------------------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", EVALUATED)
def test_cut_off_search_repeats_per_seed_and_differs_from_full_rollouts(
    name: str, bot: str
) -> None:
    game = rivals.make(name)
    positions = decisions(name, 12, seed=7)

    def moves(seed: int, **params: Any) -> list[int]:
        player = rivals.bots.make(bot, game, seed=seed, iterations=300, **params)
        return [player.step(state) for state in positions]

    cut = moves(5, rollout_depth=2)
    assert cut == moves(5, rollout_depth=2)
    # The default is the full rollout, move for move as before the parameter existed.
    assert moves(5) == moves(5, rollout_depth=None)
    assert cut != moves(5)
    assert moves(5, rollout_depth=0) != moves(5)


def rosenkoenig_leads(state: rivals.State, hero_worth: int) -> dict[int, int]:
    """For each legal action of the player to move, the score lead of their colour after it plus
    ``hero_worth`` points for every hero their colour holds more, computed from the scores and
    hero counts the state shows."""
    mover = state.current_player()
    players = state.game.num_players
    leads = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        scores, heroes = child.scores(), child.to_dict()["heroes"]
        own = [seat for seat in range(players) if seat % 2 == mover % 2]
        other = [seat for seat in range(players) if seat % 2 != mover % 2]
        score_lead = scores[own[0]] - scores[other[0]]
        hero_lead = sum(heroes[s] for s in own) - sum(heroes[s] for s in other)
        leads[action] = int(score_lead + hero_worth * hero_lead)
    return leads


def rosenkoenig_positions(players: int, count: int, seed: int) -> list[rivals.State]:
    """Random decision positions where moves differ in what they score."""
    game = rivals.make("rosenkoenig", players=players)
    rng = random.Random(seed)
    found: list[rivals.State] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(random_action(state, rng))
                continue
            if len(set(rosenkoenig_leads(state, 6).values())) > 2 and rng.random() < 0.1:
                found.append(state.clone())
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def one_visit_each(
    kind: str, game: rivals.Game, seed: int, moves: int, evaluation: str, **params: Any
) -> rivals.bots.Bot:
    """A ``kind`` search bot that spends one iteration on the root and one on each of its
    ``moves`` moves, without exploration: it plays the move its backed-up values rate best."""
    return rivals.bots.make(
        kind,
        game,
        seed=seed,
        iterations=moves + 1,
        exploration=0,
        evaluation=evaluation,
        **params,
    )


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize(("evaluation", "hero_worth"), [("default", 6), ("thesis", 30)])
def test_a_tiny_cut_off_tree_plays_the_move_the_evaluation_prefers(
    players: int, evaluation: str, hero_worth: int
) -> None:
    """ismcts adds one node per simulation, so with rollout_depth 0 its first visit to each root
    move values it by the evaluation of the position it leads to; with exploration 0 the one
    more visit goes to the best valued, which is then the most visited. The best is the mover's
    colour's largest lead (both evaluations grow with it), so this fails if a value is backed up
    from the wrong side, for the wrong seat or team, or weighs heroes otherwise. (mcts expands a
    node's moves all at once and values one of them a ply deeper: see the test below.)"""
    game = rivals.make("rosenkoenig", players=players)
    checked = 0
    for number, state in enumerate(rosenkoenig_positions(players, 40, seed=players)):
        leads = rosenkoenig_leads(state, hero_worth)
        best = max(leads.values())
        preferred = [action for action, lead in leads.items() if lead == best]
        if len(preferred) > 1:
            continue
        bot = one_visit_each("ismcts", game, number, len(leads), evaluation, rollout_depth=0)
        assert bot.step(state) == preferred[0], state.to_dict()
        checked += 1
    assert checked >= 10


# --- implicit minimax backups (mcts minimax_weight) -----------------------------------------


def test_minimax_weight_is_off_by_default_and_checked() -> None:
    game = rivals.make("rosenkoenig")
    assert rivals.bots.make("mcts", game).params["minimax_weight"] == 0
    with pytest.raises(ValueError, match="minimax_weight must be a number 0-1"):
        rivals.bots.make("mcts", game, minimax_weight=1.5)
    # The evaluation it backs up may be named without a cut-off.
    assert rivals.bots.make("mcts", game, minimax_weight=0.5, evaluation="thesis").params[
        "evaluation"
    ] == ("thesis")
    with pytest.raises(ValueError, match="evaluation 'thesis' values cut-off rollouts"):
        rivals.bots.make("mcts", game, minimax_weight=0, evaluation="thesis")
    with pytest.raises(ValueError, match="minimax_weight needs two opposed sides"):
        rivals.bots.make("mcts", rivals.make("rheinlaender"), minimax_weight=0.5)


@pytest.mark.parametrize("name", EVALUATED)
def test_minimax_weight_zero_plays_as_before(name: str) -> None:
    """Seed for seed the same moves as a bot that never heard of the parameter; a positive weight
    plays otherwise."""
    game = rivals.make(name)
    positions = decisions(name, 12, seed=3)

    def moves(**params: Any) -> list[int]:
        return moves_of("mcts", positions, 9, 300, **params)

    assert moves() == moves(minimax_weight=0)
    if game.num_players == 2:
        assert moves() != moves(minimax_weight=1)
    else:
        with pytest.raises(ValueError, match=f"{name} with {game.num_players} players has other"):
            moves(minimax_weight=1)


# --- the evaluation as a prior (mcts and ismcts prior_weight) ----------------------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
def test_prior_weight_is_off_by_default_and_checked(bot: str) -> None:
    for name in EVALUATED:
        assert rivals.bots.make(bot, rivals.make(name)).params["prior_weight"] == 0
    game = rivals.make("rosenkoenig")
    for bad in (-1, float("nan"), "high"):
        with pytest.raises(ValueError, match="prior_weight must be a number"):
            rivals.bots.make(bot, game, prior_weight=bad)
    # The evaluation it ranks moves by may be named without a cut-off, as with the backups.
    assert rivals.bots.make(bot, game, prior_weight=2, evaluation="thesis").params[
        "evaluation"
    ] == ("thesis")


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", EVALUATED)
def test_prior_weight_zero_plays_as_before(name: str, bot: str) -> None:
    """Seed for seed the same moves as a bot that never heard of the parameter; a weight that
    outweighs the returns plays otherwise."""
    positions = decisions(name, 12, seed=5)

    def moves(**params: Any) -> list[int]:
        return moves_of(bot, positions, 9, 200, **params)

    assert moves() == moves(prior_weight=0)
    assert moves() != moves(prior_weight=50)


def mover_values(state: rivals.State, evaluation: str) -> dict[int, float]:
    """For each legal action, the mover's value of the position it reaches: the evaluation, or
    the return once the game is over."""
    mover = state.current_player()
    values = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values[action] = (
            child.returns()[mover] if child.is_terminal() else child.evaluate(mover, evaluation)
        )
    return values


@pytest.mark.parametrize(
    ("bot", "name", "evaluation"),
    [
        ("mcts", "rosenkoenig", "default"),
        ("mcts", "rosenkoenig", "thesis"),
        ("mcts", "sekigahara", "default"),
        ("mcts", "rheinlaender", "default"),
        ("mcts", "verraeter", "default"),
        ("mcts", "battlecards", "default"),
        # ismcts deals the hidden cards anew, and so ranks by the evaluation of its own deal: only
        # where nothing is hidden is that the true state's.
        ("ismcts", "rosenkoenig", "calibrated"),
        ("ismcts", "sekigahara", "default"),
    ],
)
def test_the_prior_tries_the_move_the_evaluation_prefers_first(
    bot: str, name: str, evaluation: str
) -> None:
    """With one simulation the only move tried is the most visited: with a prior, the move whose
    position the evaluation values highest for the mover. This fails if the prior is taken for
    the wrong seat, from the position before the move, or does not order the untried moves."""
    checked = 0
    for number, state in enumerate(decisions(name, 150, seed=7)):
        values = mover_values(state, evaluation)
        ranked = sorted(values.values(), reverse=True)
        if ranked[0] - ranked[1] < 1e-3:
            continue
        player = rivals.bots.make(
            bot, state.game, seed=number, iterations=1, prior_weight=1, evaluation=evaluation
        )
        assert player.step(state) == max(values, key=values.__getitem__), state.to_dict()
        checked += 1
    assert checked >= 10


# --- move-average sampling in the rollouts (mcts and ismcts mast_epsilon) ----------------------


@pytest.mark.parametrize("bot", TREE_BOTS)
def test_mast_epsilon_is_off_by_default_and_checked(bot: str) -> None:
    for name in rivals.games():
        assert rivals.bots.make(bot, rivals.make(name)).params["mast_epsilon"] is None
    game = rivals.make("verraeter")
    for bad in (-0.1, 1.5, float("nan"), "some"):
        with pytest.raises(ValueError, match=r"mast_epsilon must be null .* or a number 0-1"):
            rivals.bots.make(bot, game, mast_epsilon=bad)
    assert rivals.bots.make(bot, game, mast_epsilon=0.25).params["mast_epsilon"] == 0.25


@pytest.mark.parametrize("bot", TREE_BOTS)
@pytest.mark.parametrize("name", rivals.games())
def test_mast_epsilon_null_plays_as_before(name: str, bot: str) -> None:
    """Seed for seed the same moves as a bot that never heard of the parameter (uniformly random
    rollouts); rollouts led by the move averages play otherwise, and the same again for a seed,
    legal moves all, with the cut-off too."""
    positions = decisions(name, 12, seed=11)

    def moves(**params: Any) -> list[int]:
        return moves_of(bot, positions, 5, 200, **params)

    assert moves() == moves(mast_epsilon=None)
    led = moves(mast_epsilon=0.2)
    assert led != moves()
    assert led == moves(mast_epsilon=0.2)
    cut = moves(mast_epsilon=0.2, rollout_depth=6)
    assert cut == moves(mast_epsilon=0.2, rollout_depth=6)
    for state, action in zip(positions, led + cut):
        assert action in state.legal_actions()


def test_move_averages_choose_each_seats_best_action(tmp_path: Path) -> None:
    """tests/cpp/move_averages.cpp, against the installed engine's headers: the tables MAST keeps
    credit each seat's actions with that seat's return, choose the best mean (an action not yet
    tried first), keep the seats apart and choose at random as often as epsilon says."""
    assert run_engine_check(tmp_path, "move_averages", timeout=60) == []


def side_value(state: rivals.State, evaluation: str) -> float:
    """What the implicit minimax holds for a new node: for player 0's side, the returns of a
    finished game, the evaluation before."""
    if state.is_terminal():
        return state.returns()[0]
    return state.evaluate(0, evaluation)


def minimax_bounds(state: rivals.State, evaluation: str) -> dict[int, tuple[float, float]]:
    """For each legal action of the player to move in Rosenkönig, the lower and upper of two
    values for the mover's side: of the position after it, and of that position after the reply
    best for the player then to move."""
    # Rosenkönig's colours: the even seats are player 0's side.
    sign = 1 if state.current_player() % 2 == 0 else -1
    bounds = {}
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        values = [sign * side_value(child, evaluation)]
        if not child.is_terminal():
            reply_sign = 1 if child.current_player() % 2 == 0 else -1
            replies = []
            for reply in child.legal_actions():
                grandchild = child.clone()
                grandchild.apply_action(reply)
                replies.append(reply_sign * side_value(grandchild, evaluation))
            values.append(sign * reply_sign * max(replies))
        bounds[action] = (min(values), max(values))
    return bounds


@pytest.mark.parametrize("players", [2, 4])
@pytest.mark.parametrize("evaluation", ["default", "thesis", "calibrated"])
def test_implicit_minimax_alone_plays_the_move_the_evaluation_prefers(
    players: int, evaluation: str
) -> None:
    """mcts expands all of a node's moves at once and descends into one of them, so after one
    visit to each root move, each holds the evaluation of the position it leads to, or (all but
    the first visited, which the root's expansion reached) the minimax over the replies of the
    player then to move. With minimax_weight 1 and exploration 0 the one more visit goes to the
    best of those, which is then the most visited. In positions where one move is better by
    both values than every other is by either, that move is played. Positions where the mover
    may draw are left out (a draw's value is that of the one card sampled). This fails if the
    values are taken for the wrong side or seat, a reply is maximised for the wrong player, or
    the weight does not reach selection."""
    game = rivals.make("rosenkoenig", players=players)
    checked = 0
    for number, state in enumerate(rosenkoenig_positions(players, 800, seed=20 + players)):
        if 48 in state.legal_actions():
            continue
        bounds = minimax_bounds(state, evaluation)
        best = max(bounds, key=lambda action: bounds[action][0])
        if any(high >= bounds[best][0] - 1e-5 for a, (_, high) in bounds.items() if a != best):
            continue
        bot = one_visit_each("mcts", game, number, len(bounds), evaluation, minimax_weight=1)
        assert bot.step(state) == best, (state.to_dict(), bounds)
        checked += 1
    assert checked >= 8


@pytest.mark.parametrize(
    ("name", "params", "evaluation"),
    [
        ("rosenkoenig", {}, "default"),
        ("rosenkoenig", {}, "thesis"),
        ("rosenkoenig", {"players": 4}, "default"),
        ("sekigahara", {}, "default"),
    ],
)
def test_mcts_valuing_leaves_by_the_evaluation_alone_beats_random(
    name: str, params: dict[str, Any], evaluation: str
) -> None:
    """A search steered by nothing but evaluations backed up for the wrong side or seat would
    lose to random play."""
    game = rivals.make(name, **params)
    bot = ("mcts", {"iterations": 200, "rollout_depth": 0, "evaluation": evaluation})
    specs = [bot, ("random", {})] * (game.num_players // 2)
    results = game.play_match(specs, 20, seed=1, threads=1)
    # Game i seats bot (seat + i) % players in each seat; the searching bots are the even ones.
    won = [
        next(r for s, r in enumerate(returns) if seating[s] % 2 == 0) > 0
        for returns, seating in zip(results["returns"], results["seating"])
    ]
    assert sum(won) >= 18


def test_the_thesis_evaluation_weighs_heroes_apart_from_the_default() -> None:
    """Positions where the two evaluations prefer different moves exist, and alphabeta at depth 1
    plays each evaluation's preferred move there."""
    game = rivals.make("rosenkoenig")
    disagreements = 0
    for number, state in enumerate(rosenkoenig_positions(2, 200, seed=11)):
        default, thesis = rosenkoenig_leads(state, 6), rosenkoenig_leads(state, 30)
        best_default = [a for a, v in default.items() if v == max(default.values())]
        best_thesis = [a for a, v in thesis.items() if v == max(thesis.values())]
        if set(best_default) & set(best_thesis):
            continue
        disagreements += 1
        for evaluation, best in (("default", best_default), ("thesis", best_thesis)):
            bot = rivals.bots.make("alphabeta", game, seed=number, depth=1, evaluation=evaluation)
            assert bot.step(state) in best, (evaluation, state.to_dict())
    assert disagreements >= 3


def sekigahara_wins_in_one(count: int, seed: int) -> list[tuple[rivals.State, set[int]]]:
    """Positions of random games where some moves of the player to move end the game won at once
    and others do not, with those winning moves."""
    game = rivals.make("sekigahara")
    rng = random.Random(seed)
    found: list[tuple[rivals.State, set[int]]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            mover, wins = state.current_player(), set()
            for action in state.legal_actions():
                child = state.clone()
                child.apply_action(action)
                if child.is_terminal() and child.returns()[mover] > 0:
                    wins.add(action)
            if wins and len(wins) < len(state.legal_actions()):
                found.append((state.clone(), wins))
                break
            state.apply_action(rng.choice(state.legal_actions()))
    return found


def test_mcts_plays_a_win_its_proof_look_ahead_finds() -> None:
    """With one simulation mcts plays nearly at random, so it misses many wins in one; with
    ``proof_depth`` the alpha-beta look-ahead proves them and mcts plays one every time, at the
    depth of the win and deeper (a deeper look-ahead must still take it)."""
    game = rivals.make("sekigahara")
    positions = sekigahara_wins_in_one(20, seed=3)

    def wins_taken(**params: Any) -> int:
        return sum(
            rivals.bots.make("mcts", game, seed=number, iterations=1, **params).step(state) in wins
            for number, (state, wins) in enumerate(positions)
        )

    assert wins_taken() <= 12
    assert wins_taken(proof_depth=1) == len(positions)
    assert wins_taken(proof_depth=3) == len(positions)


def test_the_proof_look_ahead_is_off_by_default_and_bounded() -> None:
    game = rivals.make("sekigahara")
    assert rivals.bots.make("mcts", game).params["proof_depth"] is None
    with pytest.raises(ValueError, match=r"proof_depth must be null .* or an int 1-64"):
        rivals.bots.make("mcts", game, proof_depth=0)
    # Without a forced win in its horizon the search decides as it would without the look-ahead.
    state = decisions("sekigahara", 1, seed=7)[0]
    assert [
        rivals.bots.make("mcts", game, seed=s, iterations=200, proof_depth=2).step(state)
        for s in range(8)
    ] == [rivals.bots.make("mcts", game, seed=s, iterations=200).step(state) for s in range(8)]
