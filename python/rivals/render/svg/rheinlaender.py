"""Importable here as before: the module is ``rivals.boxes.rheinlaender.svg``."""

from rivals.boxes.rheinlaender.svg import *  # noqa: F403
