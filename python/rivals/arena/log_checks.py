"""Whether a stored game is one of the arena resuming its log (``check_identity``: its game,
parameters, seed, pairing and bots), and a line's game replayed and re-checked (``_check_line``),
each refusal saying how the two differ."""

from __future__ import annotations

import json
from typing import Any

from rivals import replay as replays
from rivals._core import Game
from rivals.arena.lineups import Lineup
from rivals.arena.log_lines import CorruptLog, LogLine


class OtherArena(ValueError):
    """A log holds games of another arena (other game, parameters, data, bots or seed)."""


def _recorded_params(game: Game) -> dict[str, Any]:
    """The game parameters as a replay of ``game`` records them."""
    return replays.portable_params(game)


def _pairing_text(group: int) -> str:
    return f"duplicate groups of {group} games" if group > 1 else "unpaired games"


def _check_line(
    line: LogLine, lineup: Lineup, seed: int, index: int, where: str, group: int = 1
) -> Any:
    """The record of ``line`` if it is game ``index`` of this arena (whose games come in
    duplicate groups of ``group``), replayed and re-checked; raises ``OtherArena`` or
    ``CorruptLog`` naming ``where`` (``FILE:LINE``)."""
    try:
        record = line.decode()
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    check_identity(record, lineup, seed, index, where, group)
    try:
        state = replays.from_dict(record)
    except ValueError as error:
        raise CorruptLog(f"{where}: corrupt: {error}") from None
    result = record.get("result")
    if not isinstance(result, dict) or not isinstance(result.get("returns"), list):
        raise CorruptLog(f"{where}: corrupt: no 'result.returns' list")
    if not state.is_terminal():
        raise CorruptLog(
            f"{where}: corrupt: the game is not over after its {len(state.history())} actions"
        )
    if result["returns"] != state.returns():
        raise CorruptLog(
            f"{where}: corrupt: result.returns is {replays.shown(result['returns'])}, "
            f"but replaying gives {state.returns()!r}"
        )
    return state


def check_identity(
    record: Any, lineup: Lineup, seed: int, index: int, where: str, group: int = 1
) -> None:
    """Raises ``OtherArena`` or ``CorruptLog`` naming ``where`` unless ``record`` (a replay
    line's dict, or a record's header as game 0's) is of game ``index`` of this arena: its
    game, parameters, seed, pairing, bots and labels."""
    if not isinstance(record, dict) or not isinstance(record.get("arena"), dict):
        raise OtherArena(f"{where}: not an arena replay (no 'arena' entry)")
    info = record["arena"]
    game = lineup.game
    if record.get("game") != game.name or record.get("params") != _recorded_params(game):
        raise OtherArena(f"{where}: {_other_game(record, game)}")
    if info.get("seed") != seed:
        raise OtherArena(
            f"{where}: written with seed {replays.shown(info.get('seed'))}, not {seed}"
        )
    recorded_group = info.get("duplicate", 1)
    if recorded_group != group:
        shown = _pairing_text(recorded_group) if isinstance(recorded_group, int) else "?"
        raise OtherArena(f"{where}: written as {shown}, this arena plays {_pairing_text(group)}")
    if info.get("index") != index:
        raise CorruptLog(
            f"{where}: corrupt: game {replays.shown(info.get('index'))} where game {index} was due"
        )
    bots = record.get("bots")
    if not isinstance(bots, list):
        raise OtherArena(f"{where}: no 'bots' entry (written by an older rivals?)")
    expected = lineup.seat_bots(index)
    for seat, (found, wanted) in enumerate(zip(bots, expected)):
        if found != wanted and not _added_at_default(game, found, wanted):
            raise OtherArena(f"{where}: other bots: seat {seat} {_difference(found, wanted)}")
    if len(bots) != len(expected):
        raise OtherArena(f"{where}: other bots: {len(bots)} seats recorded, not {len(expected)}")
    if info.get("labels") != lineup.seat_labels(index):
        raise OtherArena(f"{where}: other bots ({replays.shown(info.get('labels'))})")


def _other_game(record: dict[str, Any], game: Game) -> str:
    """Why the game of ``record`` is not taken for ``game``, whose records differ from it."""
    recorded = record.get("params")
    if record.get("game") == game.name and isinstance(recorded, dict):
        try:
            same = replays.game_of_record(game.name, recorded) == game
        except ValueError:
            same = False
        if same:
            # The same data named in another form (the shipped default as null, by its name or
            # as the document): a log keeps the form its first game recorded, and saying only
            # "other data" would send the user looking for a difference that is not there.
            ours = _recorded_params(game)
            differing = "; ".join(
                f"{key} is {replays.shown(recorded.get(key))} there, "
                f"{replays.shown(ours.get(key))} here"
                for key in dict.fromkeys([*recorded, *ours])
                if recorded.get(key) != ours.get(key)
            )
            return (
                f"the same game of {game.name} with its data given in another form ({differing}):"
                " give the game parameters as the file records them"
            )
    return (
        f"a game of {_as_text(record.get('game'))} with other parameters or data "
        f"({replays.shown(recorded)})"
    )


def _added_at_default(game: Game, found: Any, wanted: dict[str, Any]) -> bool:
    """Whether a recorded bot differs from this arena's only by parameters the record lacks, each
    at its default here: parameters added to a bot since the record was written, whose defaults
    play as the bot did before them (a new parameter's default keeps the old play, seed for
    seed), so an arena written by an older rivals can be resumed."""
    if not isinstance(found, dict) or found.get("name") != wanted["name"]:
        return False
    recorded, params = found.get("params"), wanted["params"]
    if not isinstance(recorded, dict) or not set(recorded) < set(params):
        return False
    if any(recorded[key] != params[key] for key in recorded):
        return False
    defaults = _bot_defaults(game, wanted["name"])
    return all(
        key in defaults and params[key] == defaults[key] for key in set(params) - set(recorded)
    )


_DEFAULTS: dict[tuple[str, str, str], dict[str, Any]] = {}


def _bot_defaults(game: Game, bot: str) -> dict[str, Any]:
    """Every parameter of ``bot`` at its default in ``game`` (made once: some bots allocate)."""
    key = (game.name, json.dumps(game.params, sort_keys=True), bot)
    if key not in _DEFAULTS:
        _DEFAULTS[key] = dict(game.make_bot(bot, {}, 0).params)
    return _DEFAULTS[key]


def _difference(found: Any, wanted: dict[str, Any]) -> str:
    """How a recorded bot spec differs from this arena's: ``holds mcts with iterations=2, this
    arena has iterations=400``."""
    if not isinstance(found, dict) or not isinstance(found.get("params"), dict):
        return f"holds {replays.shown(found)}, this arena has {wanted['name']}"
    if found.get("name") != wanted["name"]:
        return f"holds {replays.shown(found.get('name'))}, this arena has {wanted['name']!r}"
    params: dict[str, Any] = found["params"]
    keys = [
        k
        for k in dict.fromkeys([*params, *wanted["params"]])
        if params.get(k, _MISSING) != wanted["params"].get(k, _MISSING)
    ]

    def show(values: dict[str, Any]) -> str:
        # A recorded key or value comes from a file: escaped (json.dumps's ASCII) and cut.
        def name(key: str) -> str:
            return key if key in wanted["params"] else _as_text(key)

        def value(item: Any) -> str:
            text = json.dumps(item)
            return text if len(text) <= 80 else text[:77] + "..."

        shown = [f"{name(k)}={value(values[k])}" if k in values else f"no {name(k)}" for k in keys]
        return ", ".join(shown[:8] + (["..."] if len(shown) > 8 else []))

    return f"holds {wanted['name']} with {show(params)}, this arena has {show(wanted['params'])}"


_MISSING = object()


def _as_text(value: Any) -> str:
    """A name from a file as a message shows it: as it is when it is a short one, otherwise
    quoted, escaped and cut (``replay.shown``)."""
    if isinstance(value, str) and len(value) <= 40 and value.isprintable():
        return value
    return replays.shown(value)
