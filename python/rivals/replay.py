"""Replays: a finished or unfinished game as JSON, re-checked move by move on load.

Format (version 2; docs/formats.md)::

    {"format": "rivals-replay", "version": 2, "game": "rosenkoenig", "params": {...},
     "actions": [{"player": 0, "action": 12, "text": "NE1"}, ...],
     "result": {"returns": [...], "scores": [...], "terminal": true}}

Version-1 replays load too: their chance outcomes had other ids (see ``_upgrade_v1``).
"""

from __future__ import annotations

import json
from typing import Any, cast

from rivals._core import State, make_game

FORMAT = "rivals-replay"
VERSION = 2

__all__ = ["FORMAT", "VERSION", "dumps", "from_dict", "loads", "to_dict"]


def to_dict(state: State) -> dict[str, Any]:
    """The replay of ``state`` as a JSON-serialisable dict."""
    game = state.game
    walker = game.new_initial_state()
    actions = []
    for action in state.history():
        actions.append(
            {
                "player": walker.current_player(),
                "action": action,
                "text": walker.action_to_string(action),
            }
        )
        walker.apply_action(action)
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "params": game.params,
        "actions": actions,
        "result": {
            "terminal": state.is_terminal(),
            "returns": state.returns(),
            "scores": state.scores(),
        },
    }


def dumps(state: State, indent: int | None = None) -> str:
    """The replay of ``state`` as JSON text."""
    return json.dumps(to_dict(state), indent=indent, ensure_ascii=False)


def _fail(message: str) -> ValueError:
    return ValueError(f"bad replay: {message}")


def from_dict(data: Any) -> State:
    """Rebuilds the state of a replay dict, checking every entry against the rules."""
    if not isinstance(data, dict):
        raise _fail(f"expected a JSON object, got {type(data).__name__}")
    if data.get("format") != FORMAT:
        raise _fail(f"'format' must be {FORMAT!r}, got {data.get('format')!r}")
    if data.get("version") == 1:
        data = _upgrade_v1(data)
    version = data.get("version")
    if version != VERSION:
        raise _fail(f"unsupported version {version!r}; this build reads version {VERSION}")
    name = data.get("game")
    if not isinstance(name, str):
        raise _fail(f"'game' must be a game name, got {name!r}")
    params = data.get("params", {})
    if not isinstance(params, dict):
        raise _fail(f"'params' must be an object, got {type(params).__name__}")
    try:
        game = make_game(name, params)
    except ValueError as error:
        raise _fail(str(error)) from None
    entries = data.get("actions")
    if not isinstance(entries, list):
        raise _fail("'actions' must be a list")
    state = game.new_initial_state()
    for index, entry in enumerate(entries):
        _apply_entry(state, index, entry)
    _check_result(state, data.get("result"))
    return state


def _apply_entry(state: State, index: int, entry: Any) -> None:
    where = f"actions[{index}]"
    if not isinstance(entry, dict):
        raise _fail(f"{where} must be an object, got {type(entry).__name__}")
    action = entry.get("action")
    if not isinstance(action, int) or isinstance(action, bool):
        raise _fail(f"{where}.action must be an int, got {action!r}")
    if state.is_terminal():
        raise _fail(f"{where}: the game is already over")
    player = entry.get("player")
    # bool and float are rejected explicitly: True == 1 and -1.0 == -1 would otherwise pass.
    if player is not None and (
        not isinstance(player, int) or isinstance(player, bool) or player != state.current_player()
    ):
        raise _fail(
            f"{where}: recorded player {player!r}, but player {state.current_player()} is to move"
        )
    text = entry.get("text")
    if text is not None:
        try:
            expected = state.action_to_string(action)
        except ValueError as error:
            raise _fail(f"{where}: {error}") from None
        if text != expected:
            raise _fail(f"{where}: action {action} is {expected!r}, but the replay says {text!r}")
    try:
        state.apply_action(action)
    except ValueError as error:
        raise _fail(f"{where}: {error}") from None


def _check_result(state: State, result: Any) -> None:
    if result is None:
        return
    if not isinstance(result, dict):
        raise _fail("'result' must be an object")
    for key, actual in (
        ("terminal", state.is_terminal()),
        ("returns", state.returns()),
        ("scores", state.scores()),
    ):
        if key in result and result[key] != actual:
            raise _fail(f"result.{key} is {result[key]!r}, but replaying gives {actual!r}")


def _v1_chance_offset(state: State) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``.

    Version 1 put chance outcomes after the decision ids: Rosenkönig's were already 0-23;
    Sekigahara's reveal of card c was 108 + c; Rheinländer's card c was N*S + S + N + c and chip
    kind k N*S + S + 2N + 1 + k (N*S + S + N is today's decision count, N + 1 the card count);
    Verräter's landscapes, set-aside cards and draws started at 56, 68 and 74; Battlecards'
    arsenal card of global index a was 899 + a and conflict card k 1155 + k.
    """
    game = state.game
    if game.name == "sekigahara":
        return 109
    if game.name in ("rheinlaender", "verraeter", "battlecards"):
        snapshot = cast("dict[str, Any]", state.to_dict())
        phase = snapshot["phase"]
        if game.name == "rheinlaender":
            chips = game.max_chance_outcomes if phase == "landmarks" else 0
            return game.num_distinct_actions + chips
        if game.name == "verraeter":
            return {"ring": 56, "draft": 68}.get(phase, 74)
        if phase in ("conflict_draw", "flip"):
            return 1155
        return 899 + 128 * int(snapshot["subject"])
    return 0


def _upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 replay as version 2: the ids of its chance outcomes renumbered.

    Entries are walked as far as they apply; whatever is wrong from there on is left for the
    version-2 checks to name.
    """
    upgraded = dict(data, version=VERSION)
    entries = data.get("actions")
    name, params = data.get("game"), data.get("params", {})
    if not isinstance(name, str) or not isinstance(params, dict) or not isinstance(entries, list):
        return upgraded
    try:
        state = make_game(name, params).new_initial_state()
    except ValueError:
        return upgraded
    actions = list(entries)
    for index, entry in enumerate(actions):
        action = entry.get("action") if isinstance(entry, dict) else None
        if type(action) is not int or state.is_terminal():
            break
        if state.is_chance_node():
            action -= _v1_chance_offset(state)
            actions[index] = dict(entry, action=action)
        try:
            state.apply_action(action)
        except ValueError:
            break
    upgraded["actions"] = actions
    return upgraded


def loads(text: str | bytes) -> State:
    """The state of a replay in JSON text; raises ``ValueError`` naming the bad entry."""
    try:
        data = json.loads(text)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise _fail(f"not JSON ({error})") from None
    except RecursionError:
        # json gives up on deep nesting with RecursionError; to a caller it is just bad input.
        raise _fail("not JSON (nested too deeply)") from None
    return from_dict(data)
