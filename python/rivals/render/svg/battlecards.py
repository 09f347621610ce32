"""Importable here as before: the module is ``rivals.boxes.battlecards.svg``."""

from rivals.boxes.battlecards.svg import *  # noqa: F403
