"""Terminal pictures of game states, built with rich, and the words around them.

``render(state, names, player)`` gives a rich renderable for any game: the seat ``player``'s view
(what that seat may see), or with ``player=None`` the whole table, hidden cards included (for
replays and analysis). ``result_text`` says how a game ended in words, ``move_texts`` how each
move of the history reads to a seat (hiding what it may not see), ``menu`` groups the legal moves
for a person to choose from and ``moves_help`` explains a game's moves briefly.

A game gets its own versions in the ``terminal`` module of its box (``rivals.boxes.<game>``),
which defines any of ``render(state, names, player)`` (with a ``compact`` flag too if it has a
shorter picture for a short terminal), ``seat_label(num_players, seat)``, ``result_text(state)``,
``move_texts(state, viewer, start)``, ``menu(state)``, ``parse(state, text)`` and ``HELP``;
whatever a module leaves out, or a game without a module, falls back to the plain versions here.
"""

from __future__ import annotations

import inspect
import json
import numbers
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.text import Text

from rivals import boxes
from rivals._core import CHANCE, State

__all__ = [
    "MenuGroup",
    "menu",
    "move_texts",
    "moves_help",
    "params_text",
    "parse_move",
    "player_label",
    "ranked_result",
    "ranking",
    "render",
    "result_text",
    "rules_hint",
    "seat_label",
    "seat_name",
]


@dataclass(frozen=True)
class MenuGroup:
    """Legal moves of one kind, as a person chooses among them: ``entries`` are (action, label)
    pairs; an unnumbered group is typed by its action strings (``note`` says how)."""

    title: str
    entries: tuple[tuple[int, str], ...]
    numbered: bool = True
    note: str = ""


def menu_by_verb(
    state: State,
    titles: Mapping[str, str],
    detail: Callable[[str, str], str | None],
    last: Collection[str] = (),
) -> list[MenuGroup]:
    """The legal moves grouped under ``titles[verb]`` (the verb itself where it has none), the
    verb being the first word of the action string: the groups in the order their first moves
    come, those of the verbs in ``last`` after the others (the moves a person takes after the
    rest). ``detail(verb, rest)`` gives the words a move's label adds to its action string
    (``None``: none), ``rest`` being what follows the verb."""
    groups: dict[str, list[tuple[int, str]]] = {}
    for action in state.legal_actions():
        text = state.action_to_string(action)
        verb, _, rest = text.partition(" ")
        words = detail(verb, rest)
        label = text if words is None else f"{text} {words}"
        groups.setdefault(titles.get(verb, verb), []).append((action, label))
    last_titles = {titles.get(verb, verb) for verb in last}
    order = sorted(groups, key=lambda title: title in last_titles)
    return [MenuGroup(title, tuple(groups[title])) for title in order]


def _hook(game_name: str, hook: str) -> Callable[..., Any] | None:
    return boxes.hook(game_name, "terminal", hook)


def _check_seat(state: State, player: int | None) -> None:
    """A seat out of range is a mistake, not a spectator: refused in the engine's words."""
    game = state.game
    if player is None:
        return
    if isinstance(player, bool) or not isinstance(player, numbers.Integral):
        raise ValueError(
            f"{game.name}: player must be an int, got {type(player).__name__} {player!r}"
        )
    if not 0 <= player < game.num_players:
        raise ValueError(f"{game.name}: player {player} is not a seat (0..{game.num_players - 1})")


def render(
    state: State,
    names: Sequence[str] | None = None,
    player: int | None = None,
    compact: bool = False,
) -> RenderableType:
    """A rich renderable of ``state`` as seat ``player`` sees it (``None``: the whole table);
    ``names`` optionally labels the seats (``"you"``, a bot's name). ``compact`` asks for a
    shorter picture for a short terminal (what a game's renderer leaves out of it, the full
    picture has), where the game has one."""
    _check_seat(state, player)
    hook = _hook(state.game.name, "render")
    if hook is not None:
        if compact and "compact" in inspect.signature(hook).parameters:
            return cast(RenderableType, hook(state, names, player, compact=True))
        return cast(RenderableType, hook(state, names, player))
    text = str(state) if player is None else state.observation_string(player)
    parts: list[RenderableType] = [Text(text.rstrip("\n"))]
    if names:
        labels = ", ".join(
            f"{player_label(state, seat)}: {name}" for seat, name in enumerate(names)
        )
        parts.append(Text(labels, style="dim"))
    return Group(*parts)


def params_text(params: dict[str, Any]) -> str:
    """``players=4 cards=null``: as typed on the command line (strings bare, the rest as JSON, a
    data document by its format and name rather than in full)."""

    def shown(value: Any) -> str:
        if isinstance(value, str):
            return value
        if isinstance(value, dict) and "format" in value:
            name = value.get("name")
            return f"<{value['format']}{f' {name!r}' if isinstance(name, str) else ''}>"
        if isinstance(value, list) and any(isinstance(item, dict) for item in value):
            return "[" + ", ".join(shown(item) for item in value) + "]"
        return json.dumps(value)

    return " ".join(f"{key}={shown(value)}" for key, value in params.items())


def seat_label(game_name: str, num_players: int, seat: int) -> str:
    """A short name for ``seat``: ``"Red"`` in Rosenkönig, ``"seat 1"`` by default."""
    hook = _hook(game_name, "seat_label")
    if hook is not None:
        return str(hook(num_players, seat))
    return f"seat {seat}"


def player_label(state: State, player: int) -> str:
    """Who ``player`` (a seat or CHANCE) is, for move lists: ``"Red (0)"``, ``"chance"``."""
    if player == CHANCE:
        return "chance"
    if player < 0:
        return "-"
    game = state.game
    label = seat_label(game.name, game.num_players, player)
    return label if label == f"seat {player}" else f"{label} ({player})"


def seat_name(state: State, seat: int, names: Sequence[str] | None = None) -> str:
    """``"Red (seat 0) you"``: the seat's label, its number once, and its player's name."""
    game = state.game
    label = seat_label(game.name, game.num_players, seat)
    if label != f"seat {seat}":
        label += f" (seat {seat})"
    return with_player_name(label, seat, names)


def with_player_name(label: str, seat: int, names: Sequence[str] | None) -> str:
    """``label`` followed by the name ``names`` gives ``seat`` (``"you"``, a bot's), if any."""
    if names is not None and seat < len(names) and names[seat]:
        return f"{label} {names[seat]}"
    return label


def ranking(labels: Sequence[str], points: Sequence[float]) -> str:
    """Every seat's points beside its label, the highest first (seats in order among equals):
    ``"purple 42, red 38, yellow 38"``."""
    order = sorted(range(len(points)), key=lambda seat: -points[seat])
    return ", ".join(f"{labels[seat]} {points[seat]:g}" for seat in order)


def ranked_result(labels: Sequence[str], points: Sequence[float], unit: str, why: str) -> str:
    """The end of a game of several seats in words: ``"purple wins with 42 points (red 38,
    yellow 38, navy 9; purple placed its last knight)"``: the leaders, every other seat's points
    beside its label and ``why`` the game ended."""
    best = max(points)
    leaders = [seat for seat, value in enumerate(points) if value == best]
    if len(leaders) == len(points):
        return f"a draw: everybody has {best:g} {unit} ({why})"
    others = [seat for seat in range(len(points)) if seat not in leaders]
    rest = ranking([labels[seat] for seat in others], [points[seat] for seat in others])
    who = " and ".join(labels[seat] for seat in leaders)
    verb = "wins" if len(leaders) == 1 else "share the win"
    return f"{who} {verb} with {best:g} {unit} ({rest}; {why})"


def result_text(state: State) -> str:
    """One line on how the game stands or ended, in words: ``"Red wins 156 to 148"``."""
    hook = _hook(state.game.name, "result_text")
    if hook is not None:
        return str(hook(state))
    game = state.game
    scores = state.scores()
    points = "-".join(f"{score:g}" for score in scores)
    if not state.is_terminal():
        return f"scores {points} (game in progress)"
    returns = state.returns()
    best = max(returns)
    winners = [seat for seat, value in enumerate(returns) if value == best]
    if len(winners) == len(returns):
        return f"a draw, {points}"
    who = " and ".join(seat_label(game.name, game.num_players, seat) for seat in winners)
    return f"{who} {'win' if len(winners) > 1 else 'wins'} {points}"


def move_texts(state: State, viewer: int | None, start: int = 0) -> list[str]:
    """How each action of ``state``'s history from index ``start`` on reads to seat ``viewer``
    (``None``: a spectator, who sees what is public): hidden chance outcomes and hidden choices
    of other seats are masked, and what the rules reveal later is told where it is revealed."""
    _check_seat(state, viewer)
    history = state.history()
    if not 0 <= start <= len(history):
        raise ValueError(f"start {start} is out of range: the history has {len(history)} actions")
    hook = _hook(state.game.name, "move_texts")
    if hook is not None:
        return [str(text) for text in hook(state, viewer, start)]
    walker = state.game.state_from_history(history[:start])
    perfect = state.game.info.information == "perfect"
    out = []
    for action in history[start:]:
        player = walker.current_player()
        if perfect or (viewer is not None and player == viewer):
            out.append(walker.action_to_string(action))
        else:
            out.append("(hidden)")
        walker.apply_action(action)
    return out


def menu(state: State) -> list[MenuGroup]:
    """The legal moves of the player to move, grouped for a person choosing among them."""
    hook = _hook(state.game.name, "menu")
    if hook is not None:
        return cast("list[MenuGroup]", hook(state))
    entries = tuple((action, state.action_to_string(action)) for action in state.legal_actions())
    return [MenuGroup("moves", entries)]


def parse_move(state: State, text: str) -> int | None:
    """A legal action for a short form a person typed (a game's own abbreviations), else
    ``None``; exact action strings and menu numbers are the caller's."""
    hook = _hook(state.game.name, "parse")
    if hook is None:
        return None
    found = hook(state, text)
    return None if found is None else int(found)


def rules_hint(game_name: str) -> str:
    return f"the full rules: rivals rules {game_name}"


def moves_help(game_name: str) -> str:
    """A few lines on the moves of game ``game_name`` and where its rules are."""
    module = boxes.part(game_name, "terminal")
    text = str(getattr(module, "HELP", "")) if module is not None else ""
    # One paragraph, wrapped by the terminal rather than where the source breaks its lines.
    text = " ".join(text.split())
    if not text:
        text = "Type a move as it is listed, or its number."
    return f"{text}\n{rules_hint(game_name)}"
