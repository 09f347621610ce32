"""Importable here as before: the module is ``rivals.boxes.sekigahara.reference``."""

from rivals.boxes.sekigahara.reference import *  # noqa: F403
