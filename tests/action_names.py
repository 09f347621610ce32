"""The round trip between an action and its text, as the rules tests check it."""

from __future__ import annotations

from typing import Any


def assert_round_trip(state: Any, names: dict[int, str]) -> None:
    """In ``state``, each action of ``names`` reads as its text and its text as the action."""
    for action, text in names.items():
        assert state.action_to_string(action) == text
        assert state.string_to_action(text) == action
