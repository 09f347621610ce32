"""Action text: ``string_to_action`` on arbitrary text (lone surrogates and NULs included) and on
action strings of random positions of every game, edited a character at a time.

Each text gives ``ValueError`` or an action id in the game's range whose ``action_to_string``
reads back to the same id. In every position reached, the strings of the legal actions are
distinct and round-trip (the contract's promise).

    python fuzz/fuzz_strings.py -runs=10000 corpus/strings
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script: the repository root holds `fuzz` and `tests`
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rivals
from fuzz._common import Bytes, check, main, position

# What action strings are made of, plus the characters that trip up parsers.
EDIT_CHARS = (
    " \t\n\x00-+>:,0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ\u00e4\udc80"
)


def check_legal_strings(state: rivals.State) -> None:
    name = state.game.name
    legal = state.legal_actions()
    texts = [state.action_to_string(a) for a in legal]
    check(len(set(texts)) == len(texts), f"{name}: legal action strings repeat: {texts}")
    for action, text in zip(legal, texts):
        back = state.string_to_action(text)
        check(back == action, f"{name}: {action} reads as {text!r}, which reads back as {back}")


def edited(text: str, data: Bytes) -> str:
    for _ in range(data.byte() % 4):
        at = data.below(len(text) + 1)
        op = data.byte() % 5
        if op == 0:
            text = text[:at] + data.pick(EDIT_CHARS) + text[at:]
        elif op == 1:
            text = text[:at] + text[at + 1 :]
        elif op == 2:
            text = text[:at] + data.pick(EDIT_CHARS) + text[at + 1 :]
        elif op == 3:
            text = text.upper() if data.chance(50) else text.lower()
        else:
            text = text[:at] + text[at:] * 2
    return text


def one_input(raw: bytes) -> None:
    data = Bytes(raw)
    state = position(data)
    game = state.game
    # Chance outcomes and decisions are numbered apart, each from 0 (OpenSpiel's convention).
    ids = game.max_chance_outcomes if state.is_chance_node() else game.num_distinct_actions
    check_legal_strings(state)
    mode = data.byte() % 3
    if mode == 0:
        text = data.text(60)
    elif mode == 1 and state.legal_actions():
        text = edited(state.action_to_string(data.pick(state.legal_actions())), data)
    else:
        # An id in range may still name nothing in this game's data (a card the set lacks), and
        # then action_to_string refuses it; its number is the next best text to edit.
        any_id = data.below(ids)
        try:
            text = edited(state.action_to_string(any_id), data)
        except ValueError:
            text = edited(str(any_id), data)
    try:
        action = state.string_to_action(text)
    except ValueError:
        return
    check(
        type(action) is int and 0 <= action < ids,
        f"{game.name}: {text!r} reads as {action!r}, outside 0..{ids - 1}",
    )
    back = state.string_to_action(state.action_to_string(action))
    check(back == action, f"{game.name}: {text!r} reads as {action}, which does not round-trip")


def seeds() -> list[bytes]:
    rng = random.Random(0)
    return [rng.randbytes(8 + k % 24) for k in range(48)]


if __name__ == "__main__":
    main(one_input, seeds)
