"""Value networks as data: the files that ``evaluation="net"`` reads (docs/formats.md,
"Networks"), read, written and evaluated in plain numpy.

The engine evaluates a network inside its searches in C++; this module is the same forward pass in
numpy, for checking the engine's and for people who want a position's value outside a search::

    >>> import rivals, rivals.network
    >>> game = rivals.make("rosenkoenig")
    >>> net = rivals.network.load("rosenkoenig-net")        # a shipped network, a path or a dict
    >>> board, floats = net.inputs(game.new_initial_state(), player=0)
    >>> float(net.value(board, floats)[0])                   # in (-1, 1), seat 0's view
    0...

A network reads a game's compact observation from one seat's view (its board as 0/1 cells and
its other entries as floats) and the game's own evaluations it names, from the same seat's side;
it passes them through dense layers with ReLU and returns that seat's value through tanh.
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals import files

__all__ = ["FORMAT", "VERSION", "Network", "dumps", "load", "shipped_names", "write"]

FORMAT = "rivals-network"
VERSION = 1
# The engine's bounds (cpp/rivals/core/network.h), so that a network written here loads
# there.
MAX_WIDTH = 1024
MAX_LAYERS = 4
MAX_INPUTS = 16384
MAX_BYTES = 4 << 20

FloatArray = npt.NDArray[np.float32]


@dataclass(frozen=True)
class Network:
    """A value network: ``layers`` are the hidden layers as (weights [inputs, outputs], bias
    [outputs]) with ReLU, ``value`` the output layer (weights [inputs, 1], bias [1]) with tanh;
    the first layer's inputs are the board's cells, then the features, then the values of the
    game's own ``evaluations`` it names. ``policy_layer``, when there is one, scores each of the
    game's decisions from the last hidden layer (weights [inputs, decisions], bias
    [decisions])."""

    game: str
    board_shape: tuple[int, ...]
    features: int
    layers: tuple[tuple[FloatArray, FloatArray], ...]
    value_layer: tuple[FloatArray, FloatArray]
    about: Mapping[str, Any] = field(default_factory=dict)
    evaluations: tuple[str, ...] = ()
    policy_layer: tuple[FloatArray, FloatArray] | None = None

    @property
    def board_size(self) -> int:
        return math.prod(self.board_shape)

    def inputs(self, state: Any, player: int) -> tuple[npt.NDArray[np.uint8], FloatArray]:
        """What the network reads of ``state`` from ``player``'s view: the board's cells (0/1,
        flat) and the floats (the compact observation's features, then the evaluations)."""
        board, features = _compact(state, player)
        evaluations = [state.evaluate(player, name) for name in self.evaluations]
        return board, np.concatenate([features, np.asarray(evaluations, dtype=np.float32)])

    def value(self, boards: npt.ArrayLike, floats: npt.ArrayLike) -> npt.NDArray[np.float32]:
        """The values in (-1, 1) of inputs as ``inputs`` gives them: ``boards`` [n, board cells]
        (or one board, of any shape with that many cells) and ``floats`` [n, features and
        evaluations]."""
        board = np.asarray(boards, dtype=np.float32).reshape(-1, self.board_size)
        extra = np.asarray(floats, dtype=np.float32).reshape(
            -1, self.features + len(self.evaluations)
        )
        weights, bias = self.value_layer
        values: npt.NDArray[np.float32] = np.tanh(self._trunk(board, extra) @ weights + bias)[:, 0]
        return values

    def policy(self, boards: npt.ArrayLike, floats: npt.ArrayLike) -> FloatArray:
        """The policy head's scores [n, decisions] of the same inputs as ``value``'s; a softmax
        over a position's legal decisions gives their probabilities."""
        if self.policy_layer is None:
            raise ValueError("this network has no policy head")
        board = np.asarray(boards, dtype=np.float32).reshape(-1, self.board_size)
        extra = np.asarray(floats, dtype=np.float32).reshape(
            -1, self.features + len(self.evaluations)
        )
        weights, bias = self.policy_layer
        scores: FloatArray = self._trunk(board, extra) @ weights + bias
        return scores

    def _trunk(self, board: FloatArray, extra: FloatArray) -> FloatArray:
        if board.shape[0] != extra.shape[0]:
            raise ValueError(
                f"{board.shape[0]} boards and {extra.shape[0]} rows of floats: one of each per "
                "observation"
            )
        hidden = np.concatenate([board, extra], axis=1)
        for weights, bias in self.layers:
            hidden = np.maximum(hidden @ weights + bias, np.float32(0))
        return hidden

    @classmethod
    def from_document(cls, document: Mapping[str, Any], source: str = "network") -> Network:
        """Reads and checks a network's document; ``ValueError`` names what is wrong and where."""
        return _parse(document, source)


def _compact(state: Any, player: int) -> tuple[npt.NDArray[np.uint8], FloatArray]:
    """The compact observation a network reads: the state's board cells (as 0/1 bytes, flat) and
    its features, from ``player``'s view."""
    observation = state.observation_tensor(player, kind="compact")
    return (
        np.asarray(observation["board"], dtype=np.uint8).reshape(-1),
        np.asarray(observation["features"], dtype=np.float32),
    )


def shipped_names() -> list[str]:
    """The networks that ship with the package, by name (``rosenkoenig-net``, ...)."""
    folder = resources.files("rivals.data").joinpath("networks")
    if not folder.is_dir():
        return []
    return sorted(
        entry.name[: -len(".json")] for entry in folder.iterdir() if entry.name.endswith(".json")
    )


def load(source: str | os.PathLike[str] | Mapping[str, Any]) -> Network:
    """A network from a shipped name, a path to a file, or its document. ``ValueError`` says
    what is wrong with it."""
    if isinstance(source, Mapping):
        return _parse(source, "network object")
    name = os.fspath(source)
    if name in shipped_names():
        text = (
            resources.files("rivals.data")
            .joinpath("networks", f"{name}.json")
            .read_text(encoding="utf-8")
        )
        where = f"shipped network {name!r}"
    else:
        where = f"network file {name!r}"
        try:
            with open(name, "rb") as handle:
                data = handle.read(MAX_BYTES + 1)
        except OSError as error:
            raise ValueError(f"{where}: {error.strerror or error}") from None
        if len(data) > MAX_BYTES:
            raise ValueError(f"{where}: is larger than the 4 MiB a data file may have")
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            raise ValueError(f"{where}: is not UTF-8") from None
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(
            f"{where}: is not valid JSON ({error.msg} at line {error.lineno} column {error.colno})"
        ) from None
    return _parse(document, where)


def dumps(network: Network) -> str:
    """The network's file as text. Each weight is written with nine significant digits, which
    read back as the same float32 in numpy and in the engine."""

    def numbers(values: FloatArray) -> str:
        return "[" + ",".join(format(float(x), ".9g") for x in values) + "]"

    def layer(weights: FloatArray, bias: FloatArray) -> str:
        rows = ",".join(numbers(row) for row in weights)
        return f'{{"weights":[{rows}],"bias":{numbers(bias)}}}'

    shape: dict[str, Any] = {"board": list(network.board_shape), "features": network.features}
    if network.evaluations:
        shape["evaluations"] = list(network.evaluations)
    head = {"format": FORMAT, "version": VERSION, "game": network.game, "input": shape}
    parts = [json.dumps(head, ensure_ascii=False)[:-1]]
    parts.append(',"layers":[' + ",".join(layer(*pair) for pair in network.layers) + "]")
    parts.append(',"value":' + layer(*network.value_layer))
    if network.policy_layer is not None:
        parts.append(',"policy":' + layer(*network.policy_layer))
    if network.about:
        parts.append(',"about":' + json.dumps(dict(network.about), ensure_ascii=False))
    text = "".join(parts) + "}\n"
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        raise ValueError(
            f"the network's file would have {size} bytes, more than the 4 MiB a data file may "
            "have: use fewer or narrower layers"
        )
    return text


def write(network: Network, path: str | os.PathLike[str], force: bool = False) -> None:
    """Writes the network's file, refusing an existing file unless ``force``."""
    files.write_new(path, dumps(network), force=force)


def _parse(document: Any, source: str) -> Network:
    def fail(where: str, problem: str) -> ValueError:
        return ValueError(f"{source}: {where} {problem}")

    if not isinstance(document, Mapping):
        raise fail("the document", "must be an object")
    required = {"format", "version", "game", "input", "layers", "value"}
    missing = sorted(required - set(document))
    if missing:
        raise fail(missing[0], "is missing")
    unknown = sorted(set(document) - required - {"about", "policy"})
    if unknown:
        raise fail(unknown[0], "is not a key of a network (docs/formats.md)")
    if document["format"] != FORMAT:
        raise fail("format", f"must be {FORMAT!r}, got {document['format']!r}")
    if document["version"] != VERSION or isinstance(document["version"], bool):
        raise fail("version", f"must be {VERSION}, got {document['version']!r}")
    game = document["game"]
    if not isinstance(game, str) or not game:
        raise fail("game", "must be a game's name")
    shape = document["input"]
    if not isinstance(shape, Mapping) or not {"board", "features"} <= set(shape) <= {
        "board",
        "features",
        "evaluations",
    }:
        raise fail("input", 'must be {"board": [...], "features": n, "evaluations": [...]}')
    board = shape["board"]
    if not isinstance(board, list) or not all(
        isinstance(d, int) and not isinstance(d, bool) and d >= 1 for d in board
    ):
        raise fail("input.board", "must be a list of positive ints")
    features = shape["features"]
    if not isinstance(features, int) or isinstance(features, bool) or features < 0:
        raise fail("input.features", "must be an int >= 0")
    evaluations = shape.get("evaluations", [])
    if not isinstance(evaluations, list) or not all(isinstance(e, str) for e in evaluations):
        raise fail("input.evaluations", "must be a list of the game's evaluations")
    if len(set(evaluations)) != len(evaluations):
        raise fail("input.evaluations", "names an evaluation twice")
    inputs = math.prod(board) + features + len(evaluations)
    if inputs > MAX_INPUTS:
        raise fail("input", f"has more than {MAX_INPUTS} entries")
    layers = document["layers"]
    if not isinstance(layers, list) or not 1 <= len(layers) <= MAX_LAYERS:
        raise fail("layers", f"must be a list of 1 to {MAX_LAYERS} layers")
    hidden = []
    for k, entry in enumerate(layers):
        pair = _layer(entry, f"layers[{k}]", inputs, MAX_WIDTH, fail)
        hidden.append(pair)
        inputs = pair[1].shape[0]
    value_layer = _layer(document["value"], "value", inputs, 1, fail)
    policy_layer = None
    if "policy" in document:
        policy_layer = _layer(document["policy"], "policy", inputs, 1 << 20, fail)
    about = document.get("about", {})
    if not isinstance(about, Mapping):
        raise fail("about", "must be an object")
    return Network(
        game,
        tuple(board),
        features,
        tuple(hidden),
        value_layer,
        dict(about),
        tuple(evaluations),
        policy_layer,
    )


def _layer(
    entry: Any, where: str, inputs: int, widest: int, fail: Any
) -> tuple[FloatArray, FloatArray]:
    if not isinstance(entry, Mapping) or set(entry) != {"weights", "bias"}:
        raise fail(where, 'must be {"weights": [...], "bias": [...]}')
    bias = _floats(entry["bias"], f"{where}.bias", fail)
    if bias.ndim != 1 or not 1 <= bias.shape[0] <= widest:
        raise fail(f"{where}.bias", f"must be a list of 1 to {widest} numbers")
    weights = _floats(entry["weights"], f"{where}.weights", fail)
    if weights.shape != (inputs, bias.shape[0]):
        raise fail(
            f"{where}.weights",
            f"must be {inputs} rows of {bias.shape[0]} numbers, got the shape {weights.shape}",
        )
    return weights, bias


def _floats(value: Any, where: str, fail: Any) -> FloatArray:
    if not isinstance(value, Sequence) or isinstance(value, str):
        raise fail(where, "must be a list")
    try:
        array = np.asarray(value, dtype=np.float64)
    except (TypeError, ValueError):
        raise fail(where, "must hold numbers only, in rows of one length") from None
    if not np.all(np.isfinite(array)) or np.any(np.abs(array) > np.finfo(np.float32).max):
        raise fail(where, "must hold finite numbers within float range")
    return array.astype(np.float32)
