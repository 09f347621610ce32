"""Importable here as before: the module is ``rivals.boxes.verraeter.terminal``."""

from rivals.boxes.verraeter.terminal import *  # noqa: F403
