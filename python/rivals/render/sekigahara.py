"""Importable here as before: the module is ``rivals.boxes.sekigahara.terminal``."""

from rivals.boxes.sekigahara.terminal import *  # noqa: F403
