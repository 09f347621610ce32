"""Imports of the optional packages a test module needs (OpenSpiel, PettingZoo, ...).

In the full suite every optional package is installed (scripts/setup.sh), so a missing one is an
error like any other. Only in the smoke selection (``pytest --smoke``, which a built wheel is
tested with where only pytest and hypothesis are installed) does a missing package skip the
module, saying which package and which extra provides it.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

# Set by tests/conftest.py from the command line before any test module is imported.
SMOKE = False

EXTRAS = {
    "gymnasium": "gymnasium",
    "jax": "train",
    "open_spiel": "openspiel",
    "optax": "train",
    "pettingzoo": "pettingzoo",
    "pyspiel": "openspiel",
    "zstandard": "zstd",
}


def require(module: str) -> ModuleType:
    """``import module``, or in the smoke selection a module-level skip when its package (or a
    package it imports) is not installed."""
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as missing:
        package = (missing.name or module).split(".")[0]
        if not SMOKE or package not in EXTRAS:
            raise
        pytest.skip(
            f"{package} is not installed (pip install 'rivals[{EXTRAS[package]}]')",
            allow_module_level=True,
        )
