"""Importable here as before: the module is ``rivals.boxes.sekigahara.svg``."""

from rivals.boxes.sekigahara.svg import *  # noqa: F403
