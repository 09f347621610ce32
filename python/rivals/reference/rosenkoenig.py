"""Importable here as before: the module is ``rivals.boxes.rosenkoenig.reference``."""

from rivals.boxes.rosenkoenig.reference import *  # noqa: F403
