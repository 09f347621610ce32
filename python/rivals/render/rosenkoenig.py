"""Importable here as before: the module is ``rivals.boxes.rosenkoenig.terminal``."""

from rivals.boxes.rosenkoenig.terminal import *  # noqa: F403
