"""Importable here as before: the module is ``rivals.boxes.rheinlaender.bench``."""

from rivals.boxes.rheinlaender.bench import *  # noqa: F403
