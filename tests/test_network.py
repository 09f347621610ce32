"""Networks as data: the engine's forward pass against numpy's and JAX's, the file format's round
trip, and the refusal of every malformed network with a message that says what is wrong."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import rivals
from rivals import network, reference
from tests.optional import require

# The engine scales every evaluation into (-0.9, 0.9), so that a proven result beats it.
SCALE = 0.9


def random_network(
    game: rivals.Game,
    hidden: tuple[int, ...],
    seed: int,
    evaluations: tuple[str, ...] = (),
    policy: bool = False,
) -> network.Network:
    """A network of random weights for ``game``'s compact observation (and ``evaluations``),
    large enough that the values are spread over (-1, 1) rather than stuck at one end."""
    rng = np.random.default_rng(seed)
    shape = game.compact_observation_shape
    board = tuple(shape["board"])
    features = int(shape["features"][0])
    sizes = [int(np.prod(board)) + features + len(evaluations), *hidden, 1]
    layers = []
    for inputs, outputs in zip(sizes[:-1], sizes[1:]):
        weights = rng.normal(0, 1 / np.sqrt(inputs), (inputs, outputs)).astype(np.float32)
        layers.append((weights, rng.normal(0, 0.1, outputs).astype(np.float32)))
    scores = None
    if policy:
        width = sizes[-2]
        scores = (
            rng.normal(0, 1 / np.sqrt(width), (width, game.num_distinct_actions)).astype(
                np.float32
            ),
            rng.normal(0, 0.1, game.num_distinct_actions).astype(np.float32),
        )
    return network.Network(
        game.name,
        board,
        features,
        tuple(layers[:-1]),
        layers[-1],
        {"seed": seed},
        evaluations,
        scores,
    )


def random_states(game: rivals.Game, count: int, seed: int) -> list[rivals.State]:
    """Decision nodes of random games."""
    rng = random.Random(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        for _ in range(rng.randrange(0, 60)):
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
        while state.is_chance_node():
            state.apply_action(rng.choice(state.legal_actions()))
        if not state.is_terminal():
            states.append(state)
    return states


def document(net: network.Network) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(network.dumps(net))
    return loaded


@pytest.mark.parametrize("name", rivals.games())
def test_engine_numpy_and_jax_forward_passes_agree(name: str) -> None:
    jnp = require("jax.numpy")
    game = rivals.make(name)
    own = tuple(e for e in game.info.evaluations if e != "net")
    net = random_network(game, (32, 16), seed=len(name), evaluations=own)
    doc = document(net)
    written = network.load(doc)  # the weights as the file holds them
    values = []
    for state in random_states(game, 12, seed=3):
        for player in range(game.num_players):
            board, floats = written.inputs(state, player)
            by_numpy = float(written.value(board, floats)[0])
            engine = state.evaluate(player, "net", network=doc)
            assert engine == pytest.approx(SCALE * by_numpy, abs=1e-5)
            hidden = jnp.concatenate([board.astype(np.float32), floats])[None, :]
            for weights, bias in written.layers:
                hidden = jnp.maximum(hidden @ weights + bias, 0)
            by_jax = float(jnp.tanh(hidden @ written.value_layer[0] + written.value_layer[1])[0, 0])
            assert by_jax == pytest.approx(by_numpy, abs=1e-5)
            values.append(by_numpy)
    # The inputs reach the output: values differ from position to position and seat to seat.
    assert len(set(values)) > len(values) // 2


@pytest.mark.parametrize("name", rivals.games())
def test_the_engine_and_numpy_agree_on_a_policy(name: str) -> None:
    game = rivals.make(name)
    net = random_network(game, (16,), seed=7, policy=True)
    doc = document(net)
    written = network.load(doc)
    for state in random_states(game, 6, seed=4):
        engine = dict(state.policy(network=doc))
        legal = state.legal_actions()
        assert sorted(engine) == legal
        scores = written.policy(*written.inputs(state, state.current_player()))[0][legal]
        shares = np.exp(scores - scores.max())
        shares /= shares.sum()
        assert [engine[a] for a in legal] == pytest.approx(list(shares), abs=1e-5)
    with pytest.raises(ValueError, match="no policy head"):
        random_states(game, 1, seed=5)[0].policy(network=document(random_network(game, (4,), 1)))


def test_mcts_searches_with_a_policy_prior() -> None:
    game = rivals.make("sekigahara")
    doc = document(random_network(game, (8,), seed=8, policy=True))
    state = random_states(game, 1, seed=6)[0]
    bot = rivals.bots.make("mcts", game, iterations=300, policy_weight=2.0, network=doc)
    assert bot.step(state) in state.legal_actions()
    moves = bot.stats()["moves"]
    assert sum(move["visits"] for move in moves) == 300
    with pytest.raises(ValueError, match="needs a network with a policy head"):
        rivals.bots.make(
            "mcts", game, policy_weight=1.0, network=document(random_network(game, (4,), 1))
        )
    with pytest.raises(ValueError, match="two priors"):
        rivals.bots.make(
            "mcts", game, policy_weight=1.0, prior_weight=1.0, rollout_depth=0, network=doc
        )


def test_the_engine_reads_a_file_as_it_reads_the_document(tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    net = random_network(game, (16,), seed=1)
    path = tmp_path / "net.json"
    network.write(net, path)
    state = random_states(game, 1, seed=1)[0]
    by_file = state.evaluate(0, "net", network=str(path))
    assert by_file == state.evaluate(0, "net", network=document(net))
    assert by_file == pytest.approx(
        SCALE * float(network.load(path).value(*net.inputs(state, 0))[0]), abs=1e-6
    )
    bot = rivals.bots.make(
        "mcts", game, iterations=50, rollout_depth=0, evaluation="net", network=str(path)
    )
    assert bot.step(state) in state.legal_actions()


def test_a_written_network_reads_back_as_the_same_floats(tmp_path: Path) -> None:
    game = rivals.make("sekigahara")
    net = random_network(game, (8, 4), seed=2)
    path = tmp_path / "net.json"
    network.write(net, path)
    again = network.load(path)
    for (w1, b1), (w2, b2) in zip(
        (*net.layers, net.value_layer), (*again.layers, again.value_layer)
    ):
        assert np.array_equal(w1, w2) and np.array_equal(b1, b2)
    assert again.about == {"seed": 2}
    with pytest.raises(ValueError, match="already exists"):
        network.write(net, path)


def mutations() -> list[tuple[str, Any, str, bool]]:
    """(what, change to the document, the words the refusal must contain, whether the document
    alone shows it: numpy's reader knows no game, so only the engine refuses another game's
    network)."""

    def set_key(key: str, value: Any) -> Any:
        def change(doc: dict[str, Any]) -> None:
            doc[key] = value

        return change

    def drop(key: str) -> Any:
        return lambda doc: doc.pop(key)

    def layer(change: Any) -> Any:
        return lambda doc: change(doc["layers"][0])

    return [
        ("format", set_key("format", "rivals-map"), "format must be", True),
        ("version", set_key("version", 2), "version", True),
        ("game", set_key("game", "sekigahara"), "game is", False),
        ("missing layers", drop("layers"), "layers is missing", True),
        ("unknown key", set_key("colour", 1), "colour", True),
        ("no layers", set_key("layers", []), "layers", True),
        ("input shape", lambda doc: doc["input"].update(features=3), "input", False),
        ("short bias", layer(lambda x: x["bias"].pop()), "layers[0]", True),
        ("short row", layer(lambda x: x["weights"][5].pop()), "layers[0].weights", True),
        ("a string weight", layer(lambda x: x["weights"][0].__setitem__(0, "x")), "weights", True),
        ("a value of two outputs", lambda doc: doc["value"]["bias"].append(0.0), "value", True),
        (
            "an evaluation the game lacks",
            lambda doc: doc["input"].update(evaluations=["material"]),
            "input.evaluations[0] must be one of",
            False,
        ),
    ]


@pytest.mark.parametrize(
    ("what", "change", "words", "seen_alone"), mutations(), ids=[m[0] for m in mutations()]
)
def test_a_malformed_network_is_refused_by_both_readers(
    what: str, change: Any, words: str, seen_alone: bool
) -> None:
    game = rivals.make("rosenkoenig")
    doc = document(random_network(game, (4,), seed=3))
    broken = copy.deepcopy(doc)
    change(broken)
    state = game.new_initial_state()
    with pytest.raises(ValueError, match="network object") as engine:
        state.evaluate(0, "net", network=broken)
    assert words in str(engine.value)
    if seen_alone:
        with pytest.raises(ValueError, match="network object") as numpy_reader:
            network.load(broken)
        assert words in str(numpy_reader.value)
    with pytest.raises(ValueError, match="network"):
        rivals.bots.make("mcts", game, rollout_depth=0, evaluation="net", network=broken)


def test_numbers_beyond_a_float_are_refused(tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    text = network.dumps(random_network(game, (4,), seed=4))
    doc = json.loads(text)
    doc["layers"][0]["bias"][0] = 1e300
    with pytest.raises(ValueError, match="float range"):
        game.new_initial_state().evaluate(0, "net", network=doc)
    with pytest.raises(ValueError, match="float range"):
        network.load(doc)
    # JSON has no infinity, but a number too large for a double reads as one.
    path = tmp_path / "inf.json"
    path.write_text(text.replace('"bias":[', '"bias":[1e999,', 1), encoding="utf-8")
    with pytest.raises(ValueError, match="network file"):
        game.new_initial_state().evaluate(0, "net", network=str(path))


def test_a_network_of_another_player_count_is_refused_by_name() -> None:
    two = rivals.make("rosenkoenig")
    doc = document(random_network(two, (4,), seed=5))
    four = rivals.make("rosenkoenig", players=4)
    with pytest.raises(ValueError, match="another player count or card set"):
        four.new_initial_state().evaluate(0, "net", network=doc)


def test_a_path_that_is_not_a_network_file_is_refused_without_quoting_it(tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    secret = tmp_path / "secret.txt"
    secret.write_text("password=hunter2\n", encoding="utf-8")
    for path, words in [
        (secret, "not a readable data file"),
        (tmp_path, "directory"),
        (tmp_path / "missing.json", "no such file"),
    ]:
        with pytest.raises(ValueError, match=words) as error:
            rivals.bots.make("mcts", game, rollout_depth=0, evaluation="net", network=str(path))
        assert "hunter2" not in str(error.value)


def test_a_network_is_named_only_with_the_net_evaluation() -> None:
    game = rivals.make("rosenkoenig")
    doc = document(random_network(game, (4,), seed=6))
    with pytest.raises(ValueError, match="give evaluation=net"):
        rivals.bots.make("mcts", game, rollout_depth=0, network=doc)
    with pytest.raises(ValueError, match="give evaluation=net"):
        game.new_initial_state().evaluate(0, "default", network=doc)


def test_every_game_offers_the_net_evaluation() -> None:
    for name in rivals.games():
        assert rivals.make(name).info.evaluations[-1] == "net"


@pytest.mark.parametrize("name", rivals.games())
def test_the_shipped_network_values_as_the_reference_does(name: str) -> None:
    """Every game ships a network, and the engine's forward pass agrees with the reference's
    (plain numpy from the reference's own compact observation and evaluations)."""
    game = rivals.make(name)
    oracle = reference.make(name)
    about = network.load(f"{name}-net").about
    assert {"command", "seed", "seconds"} <= set(about) or {"command", "settings"} <= set(about)
    for state in random_states(game, 8, seed=9):
        twin = oracle.new_initial_state()
        for action in state.history():
            twin.apply_action(action)
        for player in range(game.num_players):
            assert state.evaluate(player, "net") == pytest.approx(
                twin.evaluate(player, "net"), abs=1e-5
            )
