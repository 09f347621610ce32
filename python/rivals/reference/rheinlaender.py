"""Importable here as before: the module is ``rivals.boxes.rheinlaender.reference``."""

from rivals.boxes.rheinlaender.reference import *  # noqa: F403
