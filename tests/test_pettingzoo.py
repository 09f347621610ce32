"""PettingZoo: every game passes PettingZoo's own API and seed tests, and the environment is the
engine seen through AEC: same observations, masks of exactly the legal actions, returns as the
final rewards, chance resolved inside from reset's seed."""

from __future__ import annotations

import pickle
import re
import warnings
from copy import deepcopy
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from tests.ecosystem_cases import CASE_IDS, CASES
from tests.optional import require

spaces = require("gymnasium.spaces")
pettingzoo_test = require("pettingzoo.test")
rivals_pettingzoo = require("rivals.pettingzoo")
RivalsAECEnv = rivals_pettingzoo.RivalsAECEnv
env = rivals_pettingzoo.env
raw_env = rivals_pettingzoo.raw_env

# What api_test says about every environment with dict observations, PettingZoo's own board
# games included (it names those and stays quiet for them only).
EXPECTED_WARNINGS = (
    "Observation is not a NumPy array",
    "Observation space for each agent probably should be gymnasium.spaces.box",
)
# ... and about an observation space without bounds (games that do not scale into [0, 1]).
UNBOUNDED_WARNINGS = (
    "Agent's minimum observation space value is -infinity",
    "Agent's maximum observation space value is infinity",
)


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_api_test(name: str, params: dict[str, Any]) -> None:
    environment = env(name, **params)
    bounded = np.isfinite(environment.observation_space("player_0")["observation"].high).all()
    expected = EXPECTED_WARNINGS if bounded else EXPECTED_WARNINGS + UNBOUNDED_WARNINGS
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        pettingzoo_test.api_test(environment, num_cycles=1000)
    unexpected = {str(w.message) for w in caught if not str(w.message).startswith(expected)}
    assert not unexpected


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_seed_test(name: str, params: dict[str, Any]) -> None:
    pettingzoo_test.seed_test(lambda: env(name, **params), num_cycles=100)


def play(environment: Any, seed: int) -> list[int]:
    """Plays masked random moves to the end; returns the engine history."""
    environment.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        if terminated or truncated:
            environment.step(None)
            continue
        legal = np.flatnonzero(observation["action_mask"])
        environment.step(int(rng.choice(legal)))
    return list(environment.unwrapped.game_state.history())


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_seeded_resets_are_reproducible(name: str, params: dict[str, Any]) -> None:
    first, second = env(name, **params), env(name, **params)
    assert play(first, 3) == play(second, 3)
    assert play(first, 3) != play(first, 4)
    # Without a seed, reset goes on with the generator of the last seed: still reproducible.
    first.reset(seed=9)
    second.reset(seed=9)
    first.reset()
    second.reset()
    assert first.unwrapped.game_state.history() == second.unwrapped.game_state.history()


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_environment_is_the_engine(name: str, params: dict[str, Any]) -> None:
    environment = raw_env(name, **params)
    game = environment.game
    assert environment.possible_agents == [f"player_{s}" for s in range(game.num_players)]
    for agent in environment.possible_agents:
        space = environment.observation_space(agent)
        assert isinstance(space, spaces.Dict)
        assert space["observation"].shape == game.observation_shape
        assert space["action_mask"].shape == (game.num_distinct_actions,)
        action_space = environment.action_space(agent)
        assert isinstance(action_space, spaces.Discrete)
        assert action_space.n == game.num_distinct_actions

    environment.reset(seed=1)
    state = environment.game_state
    assert not state.is_chance_node(), "chance is resolved inside"
    assert state.history(), "the deal happened"
    rng = np.random.default_rng(1)
    done: set[str] = set()
    final_rewards: dict[str, float] = {}
    for agent in environment.agent_iter():
        observation, reward, terminated, truncated, _ = environment.last()
        seat = int(agent.split("_")[1])
        assert not truncated
        np.testing.assert_array_equal(observation["observation"], state.observation_tensor(seat))
        if terminated:
            assert state.is_terminal()
            assert not observation["action_mask"].any()
            final_rewards[agent] = reward
            done.add(agent)
            environment.step(None)
            continue
        assert reward == 0
        assert state.current_player() == seat
        assert np.flatnonzero(observation["action_mask"]).tolist() == state.legal_actions()
        for other in environment.agents:
            if other != agent:
                assert not environment.observe(other)["action_mask"].any()
        environment.step(int(rng.choice(state.legal_actions())))
        state = environment.game_state
    assert done == set(environment.possible_agents)
    assert environment.agents == []
    returns = state.returns()
    assert final_rewards == {f"player_{s}": returns[s] for s in range(game.num_players)}


def test_illegal_action_raises_and_changes_nothing() -> None:
    environment = raw_env("rosenkoenig")
    environment.reset(seed=2)
    state = environment.game_state
    before = (state.history(), environment.agent_selection, dict(environment.rewards))
    illegal = next(a for a in range(environment.game.num_distinct_actions) if not state.is_legal(a))
    with pytest.raises(ValueError, match=str(illegal)):
        environment.step(illegal)
    with pytest.raises(ValueError, match="must give an action"):
        environment.step(None)
    assert (state.history(), environment.agent_selection, dict(environment.rewards)) == before


def test_the_raw_environment_asks_for_reset_before_a_step() -> None:
    environment = raw_env("sekigahara")
    for call in (lambda: environment.step(0), environment.last):
        with pytest.raises(RuntimeError, match=r"before reset\(\): call reset\(\) first"):
            call()
    assert environment.game_state.history() == []
    environment.reset(seed=1)
    environment.step(environment.game_state.legal_actions()[0])
    assert len(environment.game_state.history()) >= 1


def play_to_the_end(environment: Any) -> None:
    environment.reset(seed=3)
    for _ in environment.agent_iter():
        observation, _, terminated, truncated, _ = environment.last()
        mask = observation["action_mask"]
        environment.step(None if terminated or truncated else int(np.flatnonzero(mask)[0]))


def test_after_the_end_step_and_last_say_the_game_is_over() -> None:
    """Once every agent is done (agents empty) there is no agent to step or to ask about: a
    clear error until reset(), as before the first reset(), never a KeyError."""
    environment = raw_env("rosenkoenig")
    play_to_the_end(environment)
    assert environment.agents == []
    history = environment.game_state.history()
    for call in (lambda: environment.step(0), lambda: environment.step(None), environment.last):
        with pytest.raises(RuntimeError, match=r"after the game ended .* call reset\(\) for a new"):
            call()
    assert environment.game_state.history() == history
    environment.reset(seed=4)
    assert environment.agents == environment.possible_agents
    assert environment.last()[2] is False
    # The wrapped environment: PettingZoo's wrapper warns on a step after the end and does
    # nothing, and its last() says what the raw one says.
    wrapped = env("rosenkoenig")
    play_to_the_end(wrapped)
    with pytest.raises(RuntimeError, match=r"after the game ended"):
        wrapped.last()
    assert str(wrapped) == "rivals_rosenkoenig_v0"


def test_an_agent_that_is_not_one_is_named() -> None:
    environment = raw_env("sekigahara")
    environment.reset(seed=1)
    for agent in ("player_2", "player_\ud800", "", 0, None):
        for call in (
            environment.observe,
            environment.action_space,
            environment.observation_space,
        ):
            with pytest.raises(ValueError, match=r"is not an agent of this environment: the age"):
                call(agent)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match=r"'player_\\ud800' is not an agent"):
        environment.observe("player_\ud800")
    assert environment.action_space("player_1") is environment.action_spaces["player_1"]


def test_accepts_a_game_and_renders_text() -> None:
    game = rivals.make("rosenkoenig", players=4)
    environment = RivalsAECEnv(game, render_mode="ansi")
    environment.reset(seed=0)
    assert environment.num_agents == 4
    assert environment.render() == str(environment.game_state)
    assert raw_env("rosenkoenig").render() is None
    with pytest.raises(ValueError, match="render_mode"):
        raw_env("rosenkoenig", render_mode="human")
    with pytest.raises(ValueError, match="pass a name"):
        RivalsAECEnv(game, players=4)
    with pytest.raises(ValueError, match="players"):
        raw_env("rosenkoenig", players=3)


def test_only_integers_are_actions_and_seeds() -> None:
    # int(12.7) would play 12: a float, a string or a truth value is refused, the game unchanged.
    environment = raw_env("verraeter")
    environment.reset(seed=3)
    action = int(np.flatnonzero(environment.observe(environment.agent_selection)["action_mask"])[0])
    before = environment.game_state.history()
    for bad in (action + 0.7, float(action), str(action), True, [action], np.float32(action)):
        with pytest.raises(ValueError, match="player_0's action must be an integer"):
            environment.step(bad)
        assert environment.game_state.history() == before
    environment.step(np.int64(action))
    assert environment.game_state.history() == [*before, action]
    for seed in (True, 1.5, "1", -1, 2**64):
        with pytest.raises(ValueError, match="seed"):
            environment.reset(seed=seed)
    environment.reset(seed=np.int64(3))
    assert environment.game_state.history()[: len(before)] == before


class ReEntering:
    """An action whose conversion to an int steps the environment again: a second call while the
    first is in progress, on one thread, as a callback or signal handler would make it."""

    def __init__(self, environment: Any, action: int) -> None:
        self.environment, self.action = environment, action

    def __index__(self) -> int:
        self.environment.step(self.action)
        return self.action


def test_a_second_call_while_one_is_in_progress_raises_and_changes_nothing() -> None:
    environment = raw_env("battlecards")
    environment.reset(seed=4)
    state = environment.game_state
    before = (state.history(), environment.agent_selection)
    action = state.legal_actions()[0]
    with pytest.raises(RuntimeError, match=r"in use by another call \(step.*for step meanwhile"):
        environment.step(ReEntering(environment, action))
    assert (state.history(), environment.agent_selection) == before
    environment.step(action)  # free again once the call has returned
    assert state.history()[: len(before[0]) + 1] == [*before[0], action]


def test_a_copy_is_an_environment_of_its_own() -> None:
    environment = env("rosenkoenig")
    environment.reset(seed=3)
    for copy in (deepcopy(environment), pickle.loads(pickle.dumps(environment))):
        action = int(np.flatnonzero(copy.observe(copy.agent_selection)["action_mask"])[0])
        copy.step(action)
        assert copy.unwrapped.game_state.history() != environment.unwrapped.game_state.history()


def test_the_pages_seeded_example_plays_the_same_game_every_time() -> None:
    # docs/ecosystem.md: reset(seed=...) seeds the chance, the example seeds the players' spaces.
    page = (Path(__file__).parents[1] / "docs" / "ecosystem.md").read_text(encoding="utf-8")
    section = page.split("## PettingZoo", 1)[1]
    block = re.search(r"```python\n(.*?)```", section, flags=re.S)
    assert block is not None
    code = (
        block.group(1).replace("print(", "histories.append(").replace(".returns())", ".history())")
    )
    histories: list[list[int]] = []
    for _ in range(2):
        exec(compile(code, "docs/ecosystem.md, PettingZoo", "exec"), {"histories": histories})
    assert len(histories) == 2 and histories[0] == histories[1] and len(histories[0]) > 50
