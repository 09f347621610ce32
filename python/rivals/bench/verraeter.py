"""Importable here as before: the module is ``rivals.boxes.verraeter.bench``."""

from rivals.boxes.verraeter.bench import *  # noqa: F403
