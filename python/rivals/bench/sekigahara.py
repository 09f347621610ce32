"""Importable here as before: the module is ``rivals.boxes.sekigahara.bench``."""

from rivals.boxes.sekigahara.bench import *  # noqa: F403
