"""Sekigahara in the terminal: both camps left to right with each daimyō's name and the strength
it counts now, the central cards with their requirement and each side's influence tokens (who is
ahead, what is locked), supplies, the deck and the strength totals.

Everything in Sekigahara is public, so every seat's view is the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rivals._core import CHANCE, State
from rivals.render import MenuGroup, menu_by_verb, with_player_name
from rivals.render._data import documents
from rivals.render._data import snapshot as _snapshot

__all__ = ["HELP", "card_names", "menu", "move_texts", "render", "result_text", "seat_label"]

HELP = """\
place 7: put a token from your supply on central card 7. move 3->5: move one of your tokens
from card 3 to card 5 (never off card 8, never from or to a locked card). end: stop before your
actions run out (3 a turn, 2 on the very first). At the start of your turn you lock every central
card where you have more influence than the opponent and more than its requirement, and take it
into your camp (order 5 picks which first). blank 2 and swap 4 answer Hosokawa (5) and
Kobayakawa (7). When the deck is empty the higher total strength wins; Tokugawa adds 1."""

SIDES = ("Ishida", "Tokugawa")
FULL_NAMES = ("Ishida Mitsunari", "Tokugawa Ieyasu")
STYLES = ("bold dodger_blue2", "bold red3")
TOKENS = 5
END_REASONS = {"deck": "the deck ran out", "dead": "nothing could change any more"}


def seat_label(num_players: int, seat: int) -> str:
    del num_players
    return SIDES[seat]


def _cards(state: State) -> dict[int, dict[str, Any]]:
    return {int(card["id"]): card for card in documents(state.game)["cards"]["cards"]}


def card_names(state: State) -> dict[int, str]:
    return {card_id: str(card["name"]) for card_id, card in _cards(state).items()}


def result_text(state: State) -> str:
    """``"Tokugawa wins 14 to 12 (the deck ran out)"``, or the draw and its reason."""
    snapshot = _snapshot(state)
    ishida, tokugawa = (int(score) for score in snapshot["scores"])
    if not state.is_terminal():
        return f"Ishida {ishida}, Tokugawa {tokugawa} (game in progress)"
    reason = snapshot["end_reason"]
    if reason == "max_turns":
        return f"a draw: the turn limit was reached ({ishida} to {tokugawa})"
    why = END_REASONS.get(str(reason), str(reason))
    returns = state.returns()
    if returns[0] == 0:
        return f"a draw, {ishida} to {tokugawa} ({why})"
    winner = 0 if returns[0] > 0 else 1
    high, low = max(ishida, tokugawa), min(ishida, tokugawa)
    return f"{SIDES[winner]} wins {high} to {low} ({why})"


def _who(seat: int, names: Sequence[str] | None) -> Text:
    label = with_player_name(f"{FULL_NAMES[seat]} (seat {seat})", seat, names)
    return Text(label, style=STYLES[seat])


def _status(snapshot: dict[str, Any], names: Sequence[str] | None) -> Text:
    to_move = int(snapshot["current_player"])
    phase = snapshot["phase"]
    if phase == "terminal":
        return Text("final position", style="bold")
    if to_move == CHANCE:
        return Text(f"revealing a card ({snapshot['reveals_pending']} to come)", style="italic")
    return Text.assemble(_who(to_move, names), f" to move: {asked(snapshot)}")


def asked(snapshot: dict[str, Any]) -> str:
    """What the seat to move is to do, in words: its actions left, or the choice a card gives it
    (the board's status line in the terminal and in the picture)."""
    left = int(snapshot["actions_left"])
    phase = str(snapshot["phase"])
    return {
        "action": f"{left} action{'' if left == 1 else 's'} left",
        "order": "choose which locked card to take first",
        "blank": "choose a card to blank (Hosokawa)",
        "swap": "choose the card to swap with Kobayakawa",
    }.get(phase, phase)


def _tokens(count: int, seat: int, empty: int = 0) -> Text:
    text = Text("●" * count, style=STYLES[seat])
    text.append("○" * empty, style="dim")
    return text


def _camp(
    snapshot: dict[str, Any],
    cards: dict[int, dict[str, Any]],
    seat: int,
    names: Sequence[str] | None,
    abilities: bool = True,
) -> Group:
    """A camp's header and its cards in order, each with the strength it counts now and, with
    ``abilities``, its ability beneath it (wrapped, never cut: cut short, it would lose the very
    words that say what it does)."""
    supply = int(snapshot["supply"][seat])
    header = Text.assemble(
        _who(seat, names),
        "   supply ",
        _tokens(supply, seat, TOKENS - supply),
        f" {supply}   strength ",
        (str(snapshot["scores"][seat]), "bold"),
        " (+1 token)" if seat == 1 else "",
    )
    if snapshot["phase"] != "terminal" and int(snapshot["turn_player"]) == seat:
        header = Text.assemble(("▶ ", "bold yellow"), header)
    camp = snapshot["camps"][seat]
    strengths = snapshot["strengths"][seat]
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    if not camp:
        table.add_row("  ", Text("no daimyō yet", style="dim"))
    width = max((len(str(cards[int(entry["id"])]["name"])) for entry in camp), default=0)
    for index, (entry, counted) in enumerate(zip(camp, strengths)):
        card = cards[int(entry["id"])]
        printed = int(card["strength"])
        line = Text.assemble(
            (f"#{card['id']}", "bold"),
            f" {card['name']!s:<{width}} str ",
            (str(counted), "bold"),
        )
        if counted != printed:
            line.stylize("bold cyan", len(line) - len(str(counted)))
            line.append(f" (printed {printed})", style="dim")
        cell: RenderableType = line
        if entry["blank"]:
            line.append("  blank: no ability", style="bold magenta")
        elif abilities:
            cell = Group(line, Text(str(card.get("ability", "")), style="dim"))
        table.add_row(Text(f"  {index + 1}.", style="dim"), cell)
    return Group(header, table)


def _centre(snapshot: dict[str, Any], cards: dict[int, dict[str, Any]]) -> Group:
    table = Table.grid(padding=(0, 2))
    deck = len(snapshot["deck"])
    table.title = Text(
        f"central daimyō (deck: {deck} card{'' if deck == 1 else 's'})", style="bold"
    )
    table.title_justify = "left"
    headings = ("card", "name", "str", "req", SIDES[0], SIDES[1], "")
    for heading in headings:
        table.add_column(heading, no_wrap=True)
    table.add_row(*(Text(heading, style="dim") for heading in headings))
    locked = {int(card) for card in snapshot["locked"]}
    turn_player = int(snapshot["turn_player"])
    for entry in snapshot["neutral"]:
        card = cards[int(entry["id"])]
        blue, red = (int(value) for value in entry["influence"])
        if int(entry["id"]) in locked:
            status = Text(f"locked: {SIDES[turn_player]} takes it", style="bold gold1")
        elif blue != red:
            ahead = 0 if blue > red else 1
            status = Text(f"{SIDES[ahead]} ahead", style=STYLES[ahead])
        elif blue:
            status = Text("even", style="dim")
        else:
            status = Text("")
        table.add_row(
            Text(f"#{card['id']}", style="bold"),
            Text(str(card["name"])),
            Text(str(card["strength"])),
            Text(f"{card['requirement']}", style="dim"),
            _tokens(blue, 0) if blue else Text("-", style="dim"),
            _tokens(red, 1) if red else Text("-", style="dim"),
            status,
        )
    # Beneath the table, where a line has room for them: the abilities of the cards in play.
    abilities = Table.grid(padding=(0, 1))
    abilities.add_column(no_wrap=True)
    abilities.add_column(ratio=1)
    for entry in snapshot["neutral"]:
        card = cards[int(entry["id"])]
        abilities.add_row(
            Text(f"  #{card['id']}", style="dim"), Text(str(card.get("ability", "")), style="dim")
        )
    return Group(table, abilities)


def render(
    state: State, names: Sequence[str] | None, player: int | None, compact: bool = False
) -> RenderableType:
    """Ishida's camp, the central cards, Tokugawa's camp; every card by name and strength, with
    its ability. ``compact`` leaves out the key to the columns and the camps' abilities."""
    del player  # everything is public
    snapshot = _snapshot(state)
    cards = _cards(state)
    # A short terminal leaves the camps' abilities to `board`: the strengths beside the cards
    # count them in, and the central cards' are the ones a move decides on.
    status = _status(snapshot, names)
    if compact and any(snapshot["camps"]):
        status.append(" · the camps' abilities: board", style="dim")
    parts: list[RenderableType] = [
        status,
        _camp(snapshot, cards, 0, names, not compact),
        _centre(snapshot, cards),
        _camp(snapshot, cards, 1, names, not compact),
    ]
    if not compact:
        parts.append(
            Text(
                f"turn {snapshot['turn']} · str: the strength a card counts now · req: a "
                "central card locks for more influence than this (and more than the "
                "opponent's)",
                style="dim",
            )
        )
    return Group(*parts)


def _card_words(text: str, names: dict[int, str]) -> str:
    """``place 7`` -> ``place 7 (Kobayakawa Hideaki)``; ``move 3->5`` names both cards."""
    verb, _, rest = text.partition(" ")
    if not rest:
        return "end the action phase" if verb == "end" else text
    named = " → ".join(names.get(int(part), part) for part in rest.split("->"))
    return f"{text} ({named})"


def move_texts(state: State, viewer: int | None, start: int) -> list[str]:
    """Every move is public; the cards it names are named."""
    del viewer
    names = card_names(state)
    history = state.history()
    walker = state.game.state_from_history(history[:start])
    out = []
    for action in history[start:]:
        out.append(_card_words(walker.action_to_string(action), names))
        walker.apply_action(action)
    return out


def menu(state: State) -> list[MenuGroup]:
    names = card_names(state)
    titles = {
        "place": "place a token",
        "move": "move a token",
        "end": "end your actions",
        "order": "take this locked card first",
        "blank": "blank this card (Hosokawa)",
        "swap": "swap Kobayakawa with",
    }

    def detail(verb: str, rest: str) -> str | None:
        if not rest:
            return None
        return " → ".join(names.get(int(part), part).split(" ")[0] for part in rest.split("->"))

    # Ending the turn comes last: it is the move a person takes after the others.
    return menu_by_verb(state, titles, detail, last=("end",))
