"""Importable here as before: the module is ``rivals.boxes.rosenkoenig.bench``."""

from rivals.boxes.rosenkoenig.bench import *  # noqa: F403
