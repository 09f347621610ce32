"""The evaluation "net": a position's value from a network file (docs/formats.md,
"rivals-network"), read and run in plain numpy from the state's compact observation and its
own evaluations. The engine runs the same networks in C++; this is the oracle it is checked
against."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from rivals.reference._data import read_data, shipped_names

# The engine scales every evaluation into (-0.9, 0.9), so that a proven result stays above it.
SCALE = 0.9


def value(state: Any, player: int, network: Any) -> float:
    """The value of ``state`` for ``player`` by the network ``network`` names (None: the game's
    shipped one), scaled as the engine scales it."""
    game = state.game.name
    if network is None and f"{game}-net" not in shipped_names():
        raise ValueError(
            f"{game}: no network ships for {game}; give network= a network file (docs/learning.md)"
        )
    document, source = read_data(game, "network", network, f"{game}-net")
    observation = state.observation_tensor(player, kind="compact")
    board = np.asarray(observation["board"], dtype=np.float32).reshape(-1)
    features = np.asarray(observation["features"], dtype=np.float32)
    shape = document["input"]
    if (
        document.get("format") != "rivals-network"
        or document.get("game") != game
        or shape["board"] != list(np.shape(observation["board"]))
        or shape["features"] != len(features)
    ):
        raise ValueError(f"{source}: is not a network for this {game}")
    own = [state.evaluate(player, name) for name in shape.get("evaluations", [])]
    hidden = np.concatenate([board, features, np.asarray(own, dtype=np.float32)])
    for layer in document["layers"]:
        weights = np.asarray(layer["weights"], dtype=np.float32)
        hidden = np.maximum(hidden @ weights + np.asarray(layer["bias"], dtype=np.float32), 0)
    output = document["value"]
    total = hidden @ np.asarray(output["weights"], dtype=np.float32)[:, 0] + np.float32(
        output["bias"][0]
    )
    return SCALE * math.tanh(float(total))
