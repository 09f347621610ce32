"""The reference stands alone: with the compiled engine made unimportable, it imports and plays
every game. A broken engine build then leaves the oracle that checks it intact."""

from __future__ import annotations

import json

from tests.isolated import run_isolated

# Run before anything of the package: every import of rivals._core fails as a missing or broken
# build would make it fail.
BLOCK_THE_ENGINE = """
import importlib.abc
import sys

class NoEngine(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "rivals._core":
            raise ModuleNotFoundError("rivals._core is blocked", name=name)
        return None

sys.meta_path.insert(0, NoEngine())
"""


def test_the_reference_plays_every_game_without_the_engine() -> None:
    out = run_isolated(
        BLOCK_THE_ENGINE
        + """
import json
import random

import rivals
from rivals import boxes, reference

try:
    rivals.make("rosenkoenig")
    blocked = False
except ModuleNotFoundError as error:
    blocked = error.name == "rivals._core"

played = {}
for name in reference.games():
    rng = random.Random(name)
    state = reference.make(name).new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes())
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    played[name] = [len(state.history()), state.returns()]
print(json.dumps({
    "blocked": blocked,
    "engine loaded": "rivals._core" in sys.modules,
    "games": reference.games(),
    "boxes": boxes.names(),
    "played": played,
}))
""",
        timeout=600,
    )
    result = json.loads(out)
    assert result["blocked"] and not result["engine loaded"]
    assert result["games"] == result["boxes"] == sorted(result["played"])
    assert len(result["games"]) == 5
    for name, (length, returns) in result["played"].items():
        assert length > 10 and len(returns) >= 2, name


def test_the_package_s_names_are_there_when_first_used() -> None:
    """``import rivals`` loads the engine lazily, and every name it had is still an attribute."""
    out = run_isolated(
        """
        import sys
        import rivals
        print("rivals._core" in sys.modules)
        names = ["CHANCE", "TERMINAL", "BudgetExceeded", "Game", "GameInfo", "State",
                 "VectorEnv", "game_names", "make_game", "bots", "replay"]
        print(all(hasattr(rivals, name) for name in names), "rivals._core" in sys.modules)
        print(rivals.CHANCE, rivals.TERMINAL, rivals.make_game("sekigahara", {}).name)
        """
    )
    assert out.split() == ["False", "True", "True", "-1", "-4", "sekigahara"]
