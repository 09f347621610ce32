"""Ray, the optional package that spreads the arena's and self-play's games over a cluster."""

from __future__ import annotations

import argparse
import importlib
from typing import Any


def start(address: str | None, what: str) -> tuple[Any, int]:
    """Ray (as Any: it is only partly typed), connected to the cluster at ``address`` or to an
    instance started here unless one is running, and the cluster's CPUs. ``what`` names the
    feature in the error a missing Ray gets."""
    try:
        ray: Any = importlib.import_module("ray")
    except ImportError:
        raise ValueError(
            f"{what} needs Ray: pip install 'rivals[ray]' (or pip install ray)"
        ) from None
    if not ray.is_initialized():
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    return ray, int(ray.cluster_resources().get("CPU", 1))


def add_options(parser: argparse.ArgumentParser, what: str) -> None:
    """``--backend local|ray`` and ``--ray-address``, the same in every command whose ``what``
    (games, self-play) Ray can run."""
    parser.add_argument(
        "--backend",
        choices=["local", "ray"],
        default="local",
        help=f"{what} on local threads (default) or as Ray tasks (pip install 'rivals[ray]')",
    )
    parser.add_argument(
        "--ray-address", default=None, help="a Ray cluster's address (default: start Ray here)"
    )
