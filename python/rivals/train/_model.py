"""The network's training with JAX and optax (the ``train`` extra): a multilayer perceptron over
the compact observation with a value head (tanh), fitted by mean squared error, and optionally a
policy head over the game's decisions, fitted by cross-entropy to the searches' visits. Imported
only when training, so that nothing else needs JAX."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

try:
    import jax
    import jax.numpy as jnp
    import optax
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError("training needs JAX and optax: pip install 'rivals[train]'") from error

Layer = tuple[Any, Any]
# {"hidden": [layer, ...], "value": layer, "policy": layer or absent}
Params = dict[str, Any]
NumpyLayer = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]
# inputs [n, inputs], value targets [n], policy targets [n, actions] (rows of zeros where the
# position has none) or None
Batch = tuple[npt.NDArray[np.float32], npt.NDArray[np.float32], Any]


def init(seed: int, inputs: int, hidden: Sequence[int], actions: int | None) -> Params:
    """He-initialised layers: ``hidden`` widths, a value output and, with ``actions``, a policy
    output of that many scores."""
    key = jax.random.PRNGKey(seed)

    def layer(fan_in: int, fan_out: int, gain: float) -> Layer:
        nonlocal key
        key, sub = jax.random.split(key)
        weights = jax.random.normal(sub, (fan_in, fan_out), dtype=jnp.float32)
        return weights * np.sqrt(gain / fan_in), jnp.zeros((fan_out,), dtype=jnp.float32)

    layers = []
    width = inputs
    for out in hidden:
        layers.append(layer(width, out, 2.0))
        width = out
    params: Params = {"hidden": layers, "value": layer(width, 1, 1.0)}
    if actions is not None:
        params["policy"] = layer(width, actions, 1.0)
    return params


def _trunk(params: Params, inputs: Any) -> Any:
    hidden = inputs
    for weights, bias in params["hidden"]:
        hidden = jax.nn.relu(hidden @ weights + bias)
    return hidden


def forward(params: Params, inputs: Any) -> Any:
    """The values of a batch of inputs [n, inputs]."""
    weights, bias = params["value"]
    return jnp.tanh(_trunk(params, inputs) @ weights + bias)[:, 0]


def _loss(params: Params, inputs: Any, targets: Any, policy: Any) -> Any:
    hidden = _trunk(params, inputs)
    weights, bias = params["value"]
    value = jnp.tanh(hidden @ weights + bias)[:, 0]
    loss = jnp.mean((value - targets) ** 2)
    if policy is not None:
        weights, bias = params["policy"]
        log_probabilities = jax.nn.log_softmax(hidden @ weights + bias)
        rows = jnp.sum(policy, axis=1)  # 1 where the position has a target, else 0
        cross_entropy = -jnp.sum(policy * log_probabilities, axis=1)
        loss = loss + jnp.sum(cross_entropy) / jnp.maximum(jnp.sum(rows), 1.0)
    return loss


class Trainer:
    """Adam with weight decay over mini-batches; the optimiser starts afresh for each call of
    ``fit`` (a generation), so a generation's result depends only on the parameters it starts
    from, its data and its seed."""

    def __init__(self, learning_rate: float, weight_decay: float) -> None:
        self.optimiser = optax.adamw(learning_rate, weight_decay=weight_decay)
        optimiser = self.optimiser

        @jax.jit
        def step(params: Params, state: Any, inputs: Any, targets: Any, policy: Any) -> Any:
            loss, grads = jax.value_and_grad(_loss)(params, inputs, targets, policy)
            updates, state = optimiser.update(grads, state, params)
            return optax.apply_updates(params, updates), state, loss

        self._step = step
        self._loss = jax.jit(_loss)

    def fit(
        self,
        params: Params,
        batches: Callable[[], Iterator[Batch]],
        epochs: int,
        on_batch: Callable[[int, float], None],
        on_epoch: Callable[[int, Params], None],
    ) -> Params:
        """``epochs`` passes over ``batches()``; ``on_batch(rows, loss)`` after each step and
        ``on_epoch(epoch, params)`` after each pass."""
        state = self.optimiser.init(params)
        for epoch in range(epochs):
            for inputs, targets, policy in batches():
                params, state, loss = self._step(params, state, inputs, targets, policy)
                on_batch(len(targets), float(loss))
            on_epoch(epoch, params)
        return params

    def loss(self, params: Params, batches: Iterator[Batch]) -> float:
        """The loss over ``batches``, weighted by their sizes."""
        total, rows = 0.0, 0
        for inputs, targets, policy in batches:
            total += float(self._loss(params, inputs, targets, policy)) * len(targets)
            rows += len(targets)
        return total / max(rows, 1)


def to_numpy(params: Params) -> dict[str, Any]:
    def layer(pair: Layer) -> NumpyLayer:
        return np.asarray(pair[0], dtype=np.float32), np.asarray(pair[1], dtype=np.float32)

    out: dict[str, Any] = {
        "hidden": [layer(pair) for pair in params["hidden"]],
        "value": layer(params["value"]),
    }
    if "policy" in params:
        out["policy"] = layer(params["policy"])
    return out


def from_numpy(layers: dict[str, Any]) -> Params:
    def layer(pair: NumpyLayer) -> Layer:
        return jnp.asarray(pair[0]), jnp.asarray(pair[1])

    params: Params = {
        "hidden": [layer(pair) for pair in layers["hidden"]],
        "value": layer(layers["value"]),
    }
    if layers.get("policy") is not None:
        params["policy"] = layer(layers["policy"])
    return params
