"""Replays: a finished or unfinished game as JSON, re-checked move by move on load.

A replay is self-contained: its ``params`` hold every data parameter as null, a shipped name or
the document itself, never a path, so it loads anywhere, after its files are gone, and loading it
opens no file. Every key is checked and an unknown one is an error. The format, with its limits,
is in ``docs/formats.md`` ("rivals-replay")::

    {"format": "rivals-replay", "version": 2, "game": "rosenkoenig", "params": {...},
     "actions": [{"player": 0, "action": 12, "text": "NE1"}, ...],
     "result": {"terminal": true, "returns": [...], "scores": [...]}}

Version-1 replays load too: their chance outcomes had other ids (see ``_upgrade_v1``).
"""

from __future__ import annotations

import json
import math
import os
import re
import stat
from functools import cache
from typing import IO, Any

from rivals import boxes
from rivals._core import Game, State, json_error, make_game, shipped_data_names
from rivals._core import portable_params as _portable_params

FORMAT = "rivals-replay"
VERSION = 2
# Limits on what is read: the text of one replay, and the nesting of arrays and objects in it
# (a data document may nest 32 deep, and sits two levels down in a replay).
MAX_BYTES = 64 * 1024 * 1024
MAX_DEPTH = 40
# The longest bot label or name a replay holds, in characters (the engine's reach about 20).
MAX_LABEL = 100

__all__ = [
    "FORMAT",
    "MAX_BYTES",
    "MAX_DEPTH",
    "MAX_LABEL",
    "VERSION",
    "decode",
    "dumps",
    "from_dict",
    "game_of_record",
    "is_label",
    "load",
    "loads",
    "open_file",
    "portable_params",
    "to_dict",
]

_TOP_KEYS = ("format", "version", "game", "params", "actions")
_TOP_OPTIONAL = ("result", "bots", "arena")
_ENTRY_OPTIONAL = ("player", "text")
_ENTRY_KEYS = {"action", *_ENTRY_OPTIONAL}  # what dumps writes
_RESULT_OPTIONAL = ("terminal", "returns", "scores")
_BOT_KEYS = ("name", "params")
_ARENA_KEYS = ("index", "seed", "labels")
_ARENA_OPTIONAL = ("duplicate",)
# The most games of a duplicate group (the engine's kMaxChanceGroup).
MAX_DUPLICATE_GROUP = 64


def portable_params(game: Game) -> dict[str, Any]:
    """``game.params`` with every data file replaced by its document: what a replay records.

    Null, shipped names and documents stay as they are, so a game with shipped data records
    exactly ``game.params``.
    """
    return _portable_params(game)


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
        "params": portable_params(game),
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


def _object_without_repeats(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    # Readers differ on a repeated key (the engine refuses it, json keeps the last value), so a
    # replay with one would mean different things to different programs.
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise ValueError(f"the key {key[:40]!r} appears twice in one object")
            seen.add(key)
    return out


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    # 1e999 is valid JSON but no double: Python would read it as inf, which dumps as the
    # non-JSON Infinity, where the engine's reader refuses it.
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"the number {text[:40]} is out of range")
    return value


def _depth(value: Any) -> int:
    """Nesting of arrays and objects in what json.loads gave, a level at a time (no recursion)."""
    depth = 0
    level = [value] if type(value) in (dict, list) else []
    while level and depth <= MAX_DEPTH:
        depth += 1
        children: list[Any] = []
        for container in level:
            for item in container.values() if type(container) is dict else container:
                kind = type(item)
                if kind is dict or kind is list:
                    children.append(item)
        level = children
    return depth


# A \uD800-\uDFFF escape: only where one appears can json.loads give a lone surrogate.
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# A lone surrogate of a str, as its surrogatepass encoding writes it (never in UTF-8).
_ENCODED_SURROGATE = re.compile(rb"\xed[\xa0-\xbf]")


def _is_unicode(value: Any) -> bool:
    """Whether every string (and key) in what json.loads gave is valid Unicode: no lone
    surrogate."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return False
        return True
    if isinstance(value, dict):
        return all(_is_unicode(key) and _is_unicode(item) for key, item in value.items())
    if isinstance(value, list):
        return all(_is_unicode(item) for item in value)
    return True


def _not_json(data: bytes, problem: str) -> ValueError:
    """The error of a replay text that is not strict JSON: the engine's reader says where
    (line, column and the entry); ``problem`` is what Python's reader found, said should the
    engine's find nothing."""
    located = json_error(data, MAX_DEPTH)
    return _fail(f"not JSON ({located or problem})")


def decode(text: str | bytes) -> Any:
    """The JSON value of a replay's text, read strictly; ``ValueError`` (``bad replay: not JSON
    (invalid JSON at line L, column C, in ENTRY: ...)``) for text that is not UTF-8 JSON, holds a
    lone surrogate, is nested deeper than ``MAX_DEPTH``, has a key twice in one object, or NaN or
    Infinity; ``bad replay: larger than ...`` past ``MAX_BYTES``; ``TypeError`` for what is
    neither text nor bytes (a dict is ``from_dict``'s). ``from_dict`` checks the replay."""
    if not isinstance(text, (str, bytes)):
        raise TypeError(f"a replay's text is str or bytes, got {type(text).__name__}")
    # A str's lone surrogates are kept as bytes no UTF-8 holds, so the engine's reader can say
    # where they are.
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if len(data) > MAX_BYTES:
        raise _fail(f"larger than {MAX_BYTES // (1024 * 1024)} MiB")
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as error:
            raise _not_json(data, f"not UTF-8 at byte {error.start}") from None
    elif _ENCODED_SURROGATE.search(data):
        raise _not_json(data, "a lone surrogate")
    try:
        value = json.loads(
            text,
            object_pairs_hook=_object_without_repeats,
            parse_constant=_refuse_constant,
            parse_float=_finite_float,
        )
    except RecursionError:
        raise _not_json(data, f"nested deeper than {MAX_DEPTH} arrays and objects") from None
    except ValueError as error:  # JSONDecodeError, a repeated key, NaN, an int of 5000 digits
        raise _not_json(data, str(error)) from None
    if _depth(value) > MAX_DEPTH:
        raise _not_json(data, f"nested deeper than {MAX_DEPTH} arrays and objects")
    if _SURROGATE_ESCAPE.search(text) and not _is_unicode(value):
        raise _not_json(data, "a lone surrogate")
    return value


def _kind(value: Any) -> str:
    return "null" if value is None else type(value).__name__


def shown(value: Any) -> str:
    """A value from a file as a message shows it: its repr (control characters escaped), cut
    after 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_keys(
    value: Any, where: str, required: tuple[str, ...], optional: tuple[str, ...] = ()
) -> None:
    if not isinstance(value, dict):
        raise _fail(f"{where} must be an object, got {_kind(value)}")
    keys = value.keys()
    if keys == set(required):
        return  # the common case, checked at once
    for key in keys:
        if key not in required and key not in optional:
            accepted = ", ".join(sorted(required + optional))
            raise _fail(f"{where} has an unknown key {shown(key)} (accepted: {accepted})")
    for key in required:
        if key not in value:
            raise _fail(f"{where} has no {key!r}")


@cache
def _data_params(name: str) -> frozenset[str]:
    """The parameters of game ``name`` that take data documents."""
    return frozenset(make_game(name, {}).data)


def _check_no_files(name: str, params: dict[str, Any]) -> None:
    """A replay's data parameters are null, shipped names or documents: it never names a file,
    so loading one cannot make this program read a path chosen by whoever wrote it."""
    try:
        data_params = _data_params(name)
    except ValueError as error:
        raise _fail(str(error)) from None
    shipped = set(shipped_data_names())
    for key in sorted(data_params & params.keys()):
        value = params[key]
        items = enumerate(value) if isinstance(value, list) else [(None, value)]
        for index, item in items:
            if isinstance(item, str) and item not in shipped:
                where = f"params.{key}" if index is None else f"params.{key}[{index}]"
                raise _fail(
                    f"{where} is {item[:200]!r}, not a shipped data name: a replay carries its "
                    "data; it names no files"
                )


def game_of_record(name: str, params: dict[str, Any]) -> Game:
    """The game a replay or a replay log names, made without reading any file: its data
    parameters must be shipped names or documents. Raises ``ValueError`` ("bad replay: ...")."""
    _check_no_files(name, params)
    try:
        return make_game(name, params)
    except ValueError as error:
        raise _fail(str(error)) from None


# Direction controls (U+202A to U+202E, U+2066 to U+2069) reorder the text around a label where
# it is shown; XML, and so SVG, cannot hold U+FFFE and U+FFFF; a lone surrogate (U+D800 to
# U+DFFF) is no Unicode text at all: no file, page or terminal can hold it.
_NOT_IN_LABELS = frozenset(
    [*range(0x202A, 0x202F), *range(0x2066, 0x206A), *range(0xD800, 0xE000), 0xFFFE, 0xFFFF]
)

# What is_label asks, as messages say it.
LABEL_RULE = (
    f"1 to {MAX_LABEL} characters without a control character, a direction control, "
    "U+FFFE/U+FFFF or a lone surrogate"
)


def is_label(value: Any) -> bool:
    """Whether ``value`` can name a bot where people read it (a terminal, a page, a replay): 1 to
    ``MAX_LABEL`` characters, none of them a control character (U+0000 to U+001F, U+007F to
    U+009F), which a terminal would act on, a direction control, U+FFFE/U+FFFF or a lone
    surrogate, which no UTF-8 file can hold."""
    return (
        isinstance(value, str)
        and 0 < len(value) <= MAX_LABEL
        and not any(
            ord(char) < 0x20 or 0x7F <= ord(char) <= 0x9F or ord(char) in _NOT_IN_LABELS
            for char in value
        )
    )


def _check_bots(bots: Any, players: int) -> None:
    if not isinstance(bots, list) or len(bots) != players:
        # A list of the wrong length is most often a record of the game with another player
        # count, so its length is what the reader needs to see.
        got = f"a list of {len(bots)}" if isinstance(bots, list) else _kind(bots)
        raise _fail(f"'bots' must be a list of {players} entries, one per seat, got {got}")
    for seat, bot in enumerate(bots):
        if bot is None:
            continue  # a person
        where = f"bots[{seat}]"
        _check_keys(bot, where, _BOT_KEYS)
        if not isinstance(bot["name"], str):
            raise _fail(f"{where}.name must be a string, got {_kind(bot['name'])}")
        if not is_label(bot["name"]):
            raise _fail(f"{where}.name must be {LABEL_RULE}, got {shown(bot['name'])}")
        if not isinstance(bot["params"], dict):
            raise _fail(f"{where}.params must be an object, got {_kind(bot['params'])}")
        # Not read here, but kept (an arena makes its bot from them): JSON, as if they had come
        # from the text of a replay.
        try:
            json.dumps(bot["params"], ensure_ascii=False, allow_nan=False).encode("utf-8")
        except UnicodeEncodeError:
            raise _fail(
                f"{where}.params holds a lone surrogate: text must be valid Unicode"
            ) from None
        except (TypeError, ValueError, RecursionError) as error:
            raise _fail(f"{where}.params must be JSON: {error}") from None


def _check_arena(arena: Any, players: int) -> None:
    _check_keys(arena, "'arena'", _ARENA_KEYS, _ARENA_OPTIONAL)
    group = arena.get("duplicate", 1)
    if not _is_int(group) or not 1 <= group <= MAX_DUPLICATE_GROUP:
        raise _fail(
            f"arena.duplicate must be an int in 1..{MAX_DUPLICATE_GROUP}, got {shown(group)}"
        )
    if not _is_int(arena["index"]) or arena["index"] < 0:
        raise _fail(f"arena.index must be an int >= 0, got {shown(arena['index'])}")
    if not _is_int(arena["seed"]):
        raise _fail(f"arena.seed must be an int, got {_kind(arena['seed'])}")
    labels = arena["labels"]
    if (
        not isinstance(labels, list)
        or len(labels) != players
        or not all(isinstance(label, str) for label in labels)
    ):
        raise _fail(f"arena.labels must be a list of {players} strings, one per seat")
    for seat, label in enumerate(labels):
        if not is_label(label):
            raise _fail(f"arena.labels[{seat}] must be {LABEL_RULE}, got {shown(label)}")


def from_dict(data: Any) -> State:
    """Rebuilds the state of a replay dict, checking every entry against the rules."""
    if not isinstance(data, dict):
        raise _fail(f"the replay must be a JSON object, got {_kind(data)}")
    # The format first: a file that is not a replay at all is best told so.
    if data.get("format") != FORMAT:
        raise _fail(f"'format' must be {FORMAT!r}, got {shown(data.get('format'))}")
    _check_keys(data, "the replay", _TOP_KEYS, _TOP_OPTIONAL)
    if _is_int(data["version"]) and data["version"] == 1:
        data = _upgrade_v1(data)
    version = data["version"]
    if not _is_int(version) or version != VERSION:
        raise _fail(
            f"unsupported version {shown(version)}; this build reads versions 1 to {VERSION}"
        )
    name = data["game"]
    if not isinstance(name, str):
        raise _fail(f"'game' must be a game name, got {_kind(name)}")
    params = data["params"]
    if not isinstance(params, dict):
        raise _fail(f"'params' must be an object, got {_kind(params)}")
    entries = data["actions"]
    if not isinstance(entries, list):
        raise _fail(f"'actions' must be a list, got {_kind(entries)}")
    game = game_of_record(name, params)
    if "bots" in data:
        _check_bots(data["bots"], game.num_players)
    if "arena" in data:
        _check_arena(data["arena"], game.num_players)
    if len(entries) > game.max_game_length:
        raise _fail(
            f"{len(entries)} actions, but a game of {name} with these parameters ends within "
            f"{game.max_game_length}"
        )
    state = game.new_initial_state()
    for index, entry in enumerate(entries):
        _apply_entry(state, index, entry)
    if "result" in data:
        _check_result(state, data["result"])
    return state


def _apply_entry(state: State, index: int, entry: Any) -> None:
    where = f"actions[{index}]"
    if not (isinstance(entry, dict) and entry.keys() == _ENTRY_KEYS):
        _check_keys(entry, where, ("action",), _ENTRY_OPTIONAL)
    action = entry["action"]
    if not _is_int(action):
        raise _fail(f"{where}.action must be an int, got {shown(action)}")
    if state.is_terminal():
        raise _fail(f"{where}: the game is already over")
    if "player" in entry:
        player = entry["player"]
        # bool and float are refused explicitly: True == 1 and -1.0 == -1 would otherwise pass.
        if not _is_int(player) or player != state.current_player():
            raise _fail(
                f"{where}: recorded player {shown(player)}, but player "
                f"{state.current_player()} is to move"
            )
    if "text" in entry:
        text = entry["text"]
        if not isinstance(text, str):
            raise _fail(f"{where}.text must be a string, got {_kind(text)}")
        try:
            expected = state.action_to_string(action)
        except ValueError as error:
            raise _fail(f"{where}: {error}") from None
        if text != expected:
            if not _is_unicode(text):
                raise _fail(f"{where}.text holds a lone surrogate: text must be valid Unicode")
            raise _fail(
                f"{where}: action {action} is {expected!r}, but the replay says {shown(text)}"
            )
    try:
        state.apply_action(action)
    except ValueError as error:
        raise _fail(f"{where}: {error}") from None


def _check_result(state: State, result: Any) -> None:
    _check_keys(result, "'result'", (), _RESULT_OPTIONAL)
    players = state.game.num_players
    for key, actual in (
        ("terminal", state.is_terminal()),
        ("returns", state.returns()),
        ("scores", state.scores()),
    ):
        if key not in result:
            continue
        value = result[key]
        if key == "terminal":
            well_formed = isinstance(value, bool)
        else:
            well_formed = (
                isinstance(value, list)
                and len(value) == players
                and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)
            )
        if not well_formed:
            what = "true or false" if key == "terminal" else f"a list of {players} numbers"
            raise _fail(f"result.{key} must be {what}, got {shown(value)}")
        if value != actual:
            raise _fail(f"result.{key} is {shown(value)}, but replaying gives {actual!r}")


def _v1_chance_offset(state: State) -> int:
    """How much higher than today's id version 1 numbered the outcomes of chance node ``state``.

    Version 1 put chance outcomes after the decision ids; each game's box says by how much
    (``rivals.boxes.<game>.replay``), and a game without that part (Rosenkönig, whose outcomes
    were already 0-23, and every game added since version 1) numbers them as today.
    """
    migration = boxes.part(state.game.name, "replay")
    if migration is None:
        return 0
    offset: int = migration.v1_chance_offset(state)
    return offset


def _upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 replay as version 2: the ids of its chance outcomes renumbered.

    Entries are walked as far as they apply; whatever is wrong (from the header on) is left for
    the version-2 checks to name.
    """
    upgraded = dict(data, version=VERSION)
    name, params, entries = data["game"], data["params"], data["actions"]
    if not isinstance(name, str) or not isinstance(params, dict) or not isinstance(entries, list):
        return upgraded
    try:
        state = game_of_record(name, params).new_initial_state()
    except ValueError:
        return upgraded
    actions = list(entries)
    for index, entry in enumerate(actions[: state.game.max_game_length]):
        if not isinstance(entry, dict) or not _is_int(entry.get("action")) or state.is_terminal():
            break
        action: int = entry["action"]
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
    return from_dict(decode(text))


def open_file(path: str | os.PathLike[str]) -> IO[bytes]:
    """``path`` opened for reading a replay or a replay log, if it is a regular file: a FIFO
    would block the reader for ever and a device (``/dev/zero``) never ends, so both are refused
    with a ``ValueError`` naming the path (``OSError`` for a file that cannot be opened)."""
    # O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer before fstat runs.
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError(f"{os.fsdecode(path)}: not a regular file")
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def load(path: str | os.PathLike[str]) -> State:
    """The replay in the file ``path`` (see ``open_file`` and ``loads``); nothing past
    ``MAX_BYTES`` is read."""
    with open_file(path) as handle:
        return loads(handle.read(MAX_BYTES + 1))
