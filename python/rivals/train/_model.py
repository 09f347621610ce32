"""The value network's training with JAX and optax (the ``train`` extra): a multilayer perceptron
over the compact observation, fitted to the values of self-played positions by mean squared
error. Imported only when training, so that nothing else needs JAX."""

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

Params = list[tuple[Any, Any]]


def init(seed: int, sizes: Sequence[int]) -> Params:
    """He-initialised layers for ``sizes`` = [inputs, hidden..., 1]."""
    key = jax.random.PRNGKey(seed)
    params: Params = []
    for inputs, outputs in zip(sizes[:-1], sizes[1:]):
        key, sub = jax.random.split(key)
        scale = np.sqrt(2.0 / inputs) if outputs > 1 else np.sqrt(1.0 / inputs)
        weights = jax.random.normal(sub, (inputs, outputs), dtype=jnp.float32) * scale
        params.append((weights, jnp.zeros((outputs,), dtype=jnp.float32)))
    return params


def forward(params: Params, inputs: Any) -> Any:
    """The values of a batch of inputs [n, inputs]: ReLU layers, then tanh."""
    hidden = inputs
    for weights, bias in params[:-1]:
        hidden = jax.nn.relu(hidden @ weights + bias)
    weights, bias = params[-1]
    return jnp.tanh(hidden @ weights + bias)[:, 0]


def _loss(params: Params, inputs: Any, targets: Any) -> Any:
    return jnp.mean((forward(params, inputs) - targets) ** 2)


class Trainer:
    """Adam with weight decay over mini-batches; the optimiser starts afresh for each call of
    ``fit`` (a generation), so a generation's result depends only on the parameters it starts
    from, its data and its seed."""

    def __init__(self, learning_rate: float, weight_decay: float, batch_size: int) -> None:
        self.batch_size = batch_size
        self.optimiser = optax.adamw(learning_rate, weight_decay=weight_decay)
        optimiser = self.optimiser

        @jax.jit
        def step(params: Params, state: Any, inputs: Any, targets: Any) -> Any:
            loss, grads = jax.value_and_grad(_loss)(params, inputs, targets)
            updates, state = optimiser.update(grads, state, params)
            return optax.apply_updates(params, updates), state, loss

        self._step = step
        self._loss = jax.jit(_loss)

    def fit(
        self,
        params: Params,
        batches: Callable[[], Iterator[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]],
        epochs: int,
        on_batch: Callable[[int, float], None],
    ) -> Params:
        """``epochs`` passes over ``batches()``; ``on_batch(rows, loss)`` after each step."""
        state = self.optimiser.init(params)
        for _ in range(epochs):
            for inputs, targets in batches():
                params, state, loss = self._step(params, state, inputs, targets)
                on_batch(len(targets), float(loss))
        return params

    def loss(
        self,
        params: Params,
        batches: Iterator[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]],
    ) -> float:
        """The mean squared error over ``batches``, weighted by their sizes."""
        total, rows = 0.0, 0
        for inputs, targets in batches:
            total += float(self._loss(params, inputs, targets)) * len(targets)
            rows += len(targets)
        return total / max(rows, 1)


def to_numpy(params: Params) -> list[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]:
    return [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in params]


def from_numpy(layers: Sequence[tuple[npt.NDArray[np.float32], npt.NDArray[np.float32]]]) -> Params:
    return [(jnp.asarray(w), jnp.asarray(b)) for w, b in layers]
