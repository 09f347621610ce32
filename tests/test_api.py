"""The package surface: names, errors, parameters."""

from __future__ import annotations

import pickle
import re
from importlib import metadata

import pytest

import rivals
from rivals import boxes, reference
from tests.games import CONFIGS, SMOKE
from tests.isolated import ROOT, run_isolated


def test_games_lists_every_registered_game_sorted() -> None:
    names = rivals.games()
    assert names == sorted(names)
    assert "rosenkoenig" in names


def test_the_version_is_the_installed_distributions() -> None:
    """Written once (rivals/__init__.py), read by the build: a wheel's metadata agrees with it."""
    assert re.fullmatch(r"\d+\.\d+\.\d+", rivals.__version__)
    assert metadata.version("rivals") == rivals.__version__


def missing_parts(name: str) -> list[str]:
    """What game ``name`` lacks of the parts every game has: its box's modules, its rules page,
    its tests (rules, and the parameter sets of the generic suites) and its place in the smoke
    selection. A game of the engine without them would be checked less, silently."""
    missing = [
        f"rivals/boxes/{name}/{part}.py" for part in boxes.REQUIRED if not boxes.part(name, part)
    ]
    if not (ROOT / "docs" / "rules" / f"{name}.md").is_file():
        missing.append(f"docs/rules/{name}.md")
    if not (ROOT / "tests" / name / "test_rules.py").is_file():
        missing.append(f"tests/{name}/test_rules.py")
    if f"{name}/test_rules.py" not in SMOKE:
        missing.append(f"{name}/test_rules.py in the smoke selection (tests/conftest.py)")
    if not CONFIGS.get(name):
        missing.append(f"CONFIGS in tests/{name}/__init__.py")
    return missing


@pytest.mark.parametrize("name", rivals.games())
def test_every_game_has_every_part(name: str) -> None:
    assert missing_parts(name) == []


def test_a_game_without_its_parts_is_told_what_it_lacks() -> None:
    assert missing_parts("tictactoe") == [
        "rivals/boxes/tictactoe/reference.py",
        "rivals/boxes/tictactoe/terminal.py",
        "rivals/boxes/tictactoe/svg.py",
        "rivals/boxes/tictactoe/bench.py",
        "docs/rules/tictactoe.md",
        "tests/tictactoe/test_rules.py",
        "tictactoe/test_rules.py in the smoke selection (tests/conftest.py)",
        "CONFIGS in tests/tictactoe/__init__.py",
    ]


def test_the_boxes_the_reference_and_the_generic_suites_know_the_engine_s_games() -> None:
    """A game missing from the generic suites would get no differential, invariant, VectorEnv,
    thread or error test, and one missing from the reference no rules test on it."""
    assert set(CONFIGS) == set(rivals.games()) == set(reference.games()) == set(boxes.names())


def test_unknown_game_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown game 'chess'.*rosenkoenig"):
        rivals.make("chess")


def test_unknown_parameter_lists_the_accepted_ones() -> None:
    with pytest.raises(ValueError, match=r"unknown parameter 'colour'.*players"):
        rivals.make("rosenkoenig", colour="red")


@pytest.mark.parametrize("value", [3, "2", 2.5, [2], None])
def test_bad_parameter_values_are_rejected(value: object) -> None:
    if value is None:
        assert rivals.make("rosenkoenig", players=value).params == {"players": 2}
        return
    with pytest.raises(ValueError, match="players must be 2 or 4"):
        rivals.make("rosenkoenig", players=value)


def test_parameters_are_filled_in_and_games_compare_by_parameters() -> None:
    game = rivals.make("rosenkoenig")
    assert game.params == {"players": 2}
    assert game == rivals.make("rosenkoenig", players=2)
    assert game != rivals.make("rosenkoenig", players=4)
    assert hash(game) == hash(rivals.make("rosenkoenig", players=2))
    assert pickle.loads(pickle.dumps(game)) == game


def test_bots_are_listed_and_validated() -> None:
    assert {"random", "mcts"} <= set(rivals.bots.names())
    game = rivals.make("rosenkoenig")
    with pytest.raises(ValueError, match=r"unknown bot 'genius'.*mcts"):
        rivals.bots.make("genius", game)
    with pytest.raises(ValueError, match=r"unknown parameter 'depth'.*iterations"):
        rivals.bots.make("mcts", game, depth=3)
    with pytest.raises(ValueError, match="iterations must be"):
        rivals.bots.make("mcts", game, iterations=0)


def test_a_bot_refuses_a_state_without_a_player_to_move() -> None:
    game = rivals.make("rosenkoenig")
    bot = rivals.bots.make("random", game)
    state = game.new_initial_state()
    assert state.is_chance_node()
    with pytest.raises(ValueError, match="no player is to move"):
        bot.step(state)


def test_match_needs_one_bot_per_seat() -> None:
    game = rivals.make("rosenkoenig", players=4)
    with pytest.raises(ValueError, match="one bot per seat"):
        game.play_match(["random", "random"], 1)


def test_state_from_history_names_the_bad_action() -> None:
    game = rivals.make("rosenkoenig")
    with pytest.raises(ValueError, match=r"action #1: .*not legal"):
        game.state_from_history([0, 0])


def test_mcts_beats_random() -> None:
    game = rivals.make("rosenkoenig")
    results = game.play_match([("mcts", {"iterations": 200}), "random"], 20, seed=1, threads=2)
    mcts_returns = results["returns"][results["seating"] == 0]
    assert mcts_returns.mean() > 0.5


@pytest.mark.parametrize("name", ["rosenkoenig", "sekigahara"])
def test_alphabeta_beats_random(name: str) -> None:
    game = rivals.make(name)
    results = game.play_match([("alphabeta", {"depth": 2}), "random"], 20, seed=4, threads=2)
    assert (results["returns"][results["seating"] == 0] > 0).mean() >= 0.8


def test_every_game_has_an_evaluation_so_alphabeta_plays_it() -> None:
    for name in rivals.games():
        game = rivals.make(name)
        assert game.info.evaluation, name
        assert "alphabeta" in game.info.bots, name
        assert rivals.bots.make("alphabeta", game, depth=1).params["depth"] == 1


def test_the_submodules_load_when_first_named() -> None:
    # In a fresh interpreter, where nothing has imported them yet: the docs write
    # rivals.arena.Lineup, rivals.stats.Sprt and so on after a plain `import rivals`.
    out = run_isolated(
        """
        import sys
        import rivals
        print("rivals.arena" in sys.modules, "rich" in sys.modules)
        print(rivals.arena.Lineup.__name__, rivals.stats.Sprt.__name__, rivals.rulebook.__name__)
        print(callable(rivals.render.render), callable(rivals.tournament.Tournament))
        print(hasattr(rivals, "no_such_module"))
        """
    )
    assert out.split() == [
        "False",
        "False",
        "Lineup",
        "Sprt",
        "rivals.rulebook",
        "True",
        "True",
        "False",
    ]
