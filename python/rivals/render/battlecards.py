"""Importable here as before: the module is ``rivals.boxes.battlecards.terminal``."""

from rivals.boxes.battlecards.terminal import *  # noqa: F403
