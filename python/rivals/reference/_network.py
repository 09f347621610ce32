"""The evaluation "net": a position's value from a network file (docs/formats.md,
"rivals-network"), read and run in plain numpy from the state's compact observation and its
own evaluations. The engine runs the same networks in C++; this is the oracle it is checked
against."""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from rivals.reference._data import read_data, shipped_names

# The engine scales every evaluation into (-0.9, 0.9), so that a proven result stays above it.
SCALE = 0.9


class _Network:
    """A network document's layers as float32 arrays."""

    def __init__(self, document: Any, source: str) -> None:
        if document.get("format") != "rivals-network" or document.get("version") != 1:
            raise ValueError(f"{source}: is not a network (format rivals-network, version 1)")
        self.source = source
        self.game = document.get("game")
        self.shape = document["input"]
        self.layers = [
            (np.asarray(layer["weights"], np.float32), np.asarray(layer["bias"], np.float32))
            for layer in [*document["layers"], document["value"]]
        ]


@functools.cache
def _shipped(game: str, name: str) -> _Network:
    return _Network(*read_data(game, "network", name, name))


def value(state: Any, player: int, network: Any) -> float:
    """The value of ``state`` for ``player`` by the network ``network`` names (None: the game's
    shipped one), scaled as the engine scales it."""
    game = state.game.name
    if network is None:
        network = f"{game}-net"
        if network not in shipped_names():
            raise ValueError(
                f"{game}: no network ships for {game}; give network= a network file "
                "(docs/learning.md)"
            )
    net = (
        _shipped(game, network)
        if isinstance(network, str) and network in shipped_names()
        else _Network(*read_data(game, "network", network, f"{game}-net"))
    )
    observation = state.observation_tensor(player, kind="compact")
    board = np.asarray(observation["board"], dtype=np.float32)
    features = np.asarray(observation["features"], dtype=np.float32)
    shape = net.shape
    if (
        net.game != game
        or shape["board"] != list(board.shape)
        or shape["features"] != len(features)
    ):
        raise ValueError(f"{net.source}: is not a network for this {game}")
    own = [state.evaluate(player, name) for name in shape.get("evaluations", [])]
    hidden = np.concatenate([board.reshape(-1), features, np.asarray(own, dtype=np.float32)])
    *trunk, (weights, bias) = net.layers
    for layer_weights, layer_bias in trunk:
        hidden = np.maximum(hidden @ layer_weights + layer_bias, 0)
    return SCALE * math.tanh(float((hidden @ weights + bias)[0]))
