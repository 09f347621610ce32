"""Importable here as before: the module is ``rivals.boxes.verraeter.svg``."""

from rivals.boxes.verraeter.svg import *  # noqa: F403
