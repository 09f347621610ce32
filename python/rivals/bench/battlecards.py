"""Importable here as before: the module is ``rivals.boxes.battlecards.bench``."""

from rivals.boxes.battlecards.bench import *  # noqa: F403
