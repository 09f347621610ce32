"""Importable here as before: the module is ``rivals.boxes.rosenkoenig.svg``."""

from rivals.boxes.rosenkoenig.svg import *  # noqa: F403
