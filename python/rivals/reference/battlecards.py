"""Importable here as before: the module is ``rivals.boxes.battlecards.reference``."""

from rivals.boxes.battlecards.reference import *  # noqa: F403
