"""Importable here as before: the module is ``rivals.boxes.rheinlaender.terminal``."""

from rivals.boxes.rheinlaender.terminal import *  # noqa: F403
