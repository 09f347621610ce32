"""Importable here as before: the module is ``rivals.boxes.verraeter.reference``."""

from rivals.boxes.verraeter.reference import *  # noqa: F403
