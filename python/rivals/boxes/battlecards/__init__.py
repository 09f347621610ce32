"""Battlecards's box: every part of the game on the Python side (see ``rivals.boxes``)."""
