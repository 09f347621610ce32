"""``rivals replay``: a saved game move by move, or as an HTML viewer."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.text import Text

from rivals import arena, files, viewer
from rivals import replay as replays
from rivals._core import Game
from rivals.cli._common import CliError, integer
from rivals.render import move_texts, params_text, player_label, render, result_text, seat_name


def _load_replay_data(path: Path, index: int | None) -> tuple[Any, str]:
    """The replay dict picked from a .json file or an arena's log (.jsonl, .rec, compressed as
    .gz or .zst), and a name for it in messages."""
    try:
        if path.suffix not in (".jsonl", ".rec", ".gz", ".zst"):
            with replays.open_file(path) as handle:
                data = handle.read(replays.MAX_BYTES + 1)  # more is refused as too large
            try:
                return _one_replay(replays.decode(data), path, index), str(path)
            except ValueError as error:
                # An arena file under another name: one JSON object per line.
                if data.count(b"\n") < 2 or not data.lstrip().startswith(b"{"):
                    raise CliError(f"{path}: {error}") from None
        return _replay_line(path, index)
    except FileNotFoundError:
        raise CliError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CliError(f"{path}: is a directory") from None
    except OSError as error:
        raise CliError(f"{path}: {error.strerror}") from None
    except ValueError as error:  # not a regular file
        raise CliError(str(error)) from None


def _one_replay(data: Any, path: Path, index: int | None) -> Any:
    if index not in (None, 0):
        raise CliError(f"{path} holds one replay; --index {index} is out of range")
    return data


def _replay_line(path: Path, index: int | None) -> tuple[Any, str]:
    """Game ``index`` (counting non-empty lines, a record's headers left out) of a replay log,
    read by the arena's reader; a record's game is converted to its replay line."""
    chosen = 0 if index is None else index
    count = 0
    # A ValueError names a line too long to be a replay, or a member that does not decompress.
    for stored in arena.replay_records(path):
        if count == chosen:
            where = f"{path} line {stored.line.number}"
            try:
                return stored.decode(where), where
            except ValueError as error:
                raise CliError(f"{where}: {error}") from None
        count += 1
    if count == 0:
        raise CliError(f"{path}: no replays in the file")
    raise CliError(f"{path} holds {count} replays; --index {chosen} is out of range")


def _check_player(player: int | None, game: Game) -> None:
    if player is not None and not 0 <= player < game.num_players:
        raise CliError(f"--player {player}: {game.name} has seats 0 to {game.num_players - 1}")


def cmd_replay(args: argparse.Namespace, console: Console) -> int:
    data, where = _load_replay_data(Path(args.file), args.index)
    try:
        final = replays.from_dict(data)
    except ValueError as error:
        raise CliError(f"{where}: {error}") from None
    game = final.game
    _check_player(args.player, game)
    if args.spectator and args.player is not None:
        raise CliError("--spectator and --player: choose one view")
    if args.html is not None:
        _refuse_overwriting_input(args.file, args.html, "--html")
        # The whole record's reader may switch to every seat's view; --player gives one seat's
        # page, --spectator the public one, to pass on without the hidden cards.
        every_seat = args.player is None and not args.spectator
        try:
            viewer.write_html(
                data, args.html, player=args.player, force=args.force, seats=every_seat
            )
        except ValueError as error:
            raise CliError(f"--html: {error}") from None
        hidden = every_seat and game.info.information == "imperfect"
        shown = ": every seat's view, hidden cards included" if hidden else ""
        console.print(Text(f"wrote {args.html}: {len(final.history())} moves{shown}"))
        return 0
    params = params_text(game.params)
    console.print(Text(f"{game.name} {params}".strip(), style="bold"))
    arena_info = data.get("arena") if isinstance(data, dict) else None
    bots = arena_info.get("labels") if isinstance(arena_info, dict) else None
    if isinstance(bots, list) and len(bots) == game.num_players:
        seats = ", ".join(f"{player_label(final, seat)}: {name}" for seat, name in enumerate(bots))
        console.print(Text(seats))
    seat = args.player
    if seat is not None:
        console.print(Text(f"as {seat_name(final, seat)} sees it", style="dim"))
    # A seat sees its own moves and what the rules reveal; without --player, the whole record.
    texts = move_texts(final, seat) if seat is not None else None
    walker = game.new_initial_state()
    for number, action in enumerate(final.history(), start=1):
        player = walker.current_player()
        line = Text(f"{number:>4}  ")
        line.append(f"{player_label(walker, player):<12}", "dim" if player < 0 else "bold")
        line.append(f" {walker.action_to_string(action) if texts is None else texts[number - 1]}")
        console.print(line)
        walker.apply_action(action)
        if args.boards:
            console.print(render(walker, player=seat))
    console.print()
    # The picture's own first line says what the position is: "final position" or who is to move.
    console.print(render(final, player=seat))
    console.print(Text(f"result: {result_text(final)}", style="bold"))
    return 0


def add_parser(commands: Any) -> None:
    replay = commands.add_parser("replay", help="print a saved game move by move")
    replay.add_argument("file", help="a replay .json or an arena's .jsonl or .rec (.gz, .zst)")
    replay.add_argument("--index", type=integer(0), default=None, help="game in an arena's file")
    replay.add_argument("--boards", action="store_true", help="show the board after each move")
    replay.add_argument(
        "--html", default=None, metavar="OUT.html", help="write a page that steps through the game"
    )
    replay.add_argument(
        "--player",
        type=integer(0),
        default=None,
        help="show only what this seat sees (moves, boards, --html); default: the whole record",
    )
    replay.add_argument(
        "--spectator",
        action="store_true",
        help="--html shows only what every seat sees (default: a switch between every seat's view)",
    )
    replay.add_argument("--force", action="store_true", help="replace an existing --html")
    replay.set_defaults(handler=cmd_replay)


def _refuse_overwriting_input(source: str, output: str, option: str) -> None:
    # --force replaces an old output, never the saved game being read.
    if files.same_file(source, output):
        raise CliError(f"{option} {output} is the replay file being read: give another name")
