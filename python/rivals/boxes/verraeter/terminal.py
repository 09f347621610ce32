"""Verräter in the terminal: the ring of twelve landscapes round a legend (type and conflict
value, the house it shows, Gutshof or Kontor and its owner, the conflict site), then every seat's
house, victory points, hand, played cards and action card, the draft pool and the piles.

A seat sees its own hand and pick and the pool passed to it; the other hands only as their sizes,
the other picks only after the reveal (as ``observation_string`` tells them).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, cast

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rivals._core import CHANCE, State
from rivals.render import MenuGroup, menu_by_verb, ranked_result, ranking, with_player_name
from rivals.render._data import documents
from rivals.render._data import snapshot as _snapshot

__all__ = ["HELP", "end_reason", "menu", "move_texts", "render", "result_text", "seat_label"]

HELP = """\
Each round: the strategist picks the conflict site between two neighbouring landscapes of
different houses (conflict 3: between ring positions 3 and 4). Then everybody drafts an action
card in secret (pick Diplomat5) and plays supply cards face up for their house (play 5, then
done). The action cards are revealed: the traitor (Verraeter) changes house, each house adds its
landscape at the site, its players' supply cards and the diplomats; the winner's players score
the losing landscape, which turns over. The builder may then build or upgrade an estate (build 7,
upgrade 7, pass); a Gutshof (G) draws a card each round while its landscape shows your house, a
Kontor (K) counts at the end. Over 5 cards in hand you discard (discard 2)."""

RING_SIZE = 12
HOUSE_STYLE = {"eagle": "bold black on gold1", "rose": "bold white on red3"}
HOUSE_MARK = {"eagle": "eagle", "rose": "rose"}
SEAT_STYLES = ("bold dodger_blue2", "bold green4", "bold medium_purple3", "bold dark_orange3")
TILE_W = 16
# Clockwise round a 4 x 4 square: the top row left to right, down the right side, the bottom row
# right to left, up the left side (row, column) per ring position.
PERIMETER = (
    (0, 0), (0, 1), (0, 2), (0, 3), (1, 3), (2, 3),
    (3, 3), (3, 2), (3, 1), (3, 0), (2, 0), (1, 0),
)  # fmt: skip
PHASE_WORDS = {
    "ring": "laying out the ring",
    "estates": "place a first Gutshof",
    "conflict": "choose the conflict site",
    "draft": "draft an action card",
    "supply": "play supply cards, then done",
    "builder": "the builder builds, upgrades or passes",
    "draw": "drawing supply cards",
    "discard": "discard down to 5 cards",
    "end": "game over",
}


def seat_label(num_players: int, seat: int) -> str:
    del num_players
    return f"seat {seat}"


def _cards(state: State) -> dict[str, Any]:
    return cast("dict[str, Any]", documents(state.game)["cards"])


def _landscape_values(state: State) -> dict[str, int]:
    return {str(land["type"]): int(land["conflict"]) for land in _cards(state)["landscapes"]}


def _action_cards(state: State) -> dict[str, dict[str, Any]]:
    return {str(card["name"]): card for card in _cards(state)["action_cards"]}


def result_text(state: State) -> str:
    """``"seat 2 wins with 23 VP (seat 0 19, seat 1 15, seat 3 12; all 8 rounds were
    played)"``: the leaders, every other seat's points beside its name, and why the game
    ended."""
    snapshot = _snapshot(state)
    vp = [int(points) for points in snapshot["vp"]]
    labels = [f"seat {seat}" for seat in range(len(vp))]
    if not state.is_terminal():
        return f"victory points: {ranking(labels, vp)} (game in progress)"
    return ranked_result(labels, vp, "VP", end_reason(state))


def end_reason(state: State) -> str:
    """Why a finished game ended: ``"all 8 rounds were played"``, or ``"after 6 of 8 rounds
    every landscape shows the rose"``."""
    snapshot = _snapshot(state)
    rounds = int(snapshot["round"])
    planned = int(state.game.params["rounds"])
    houses = {str(land["house"]) for land in snapshot["ring"]}
    if rounds < planned and len(houses) == 1:
        return f"after {rounds} of {planned} rounds every landscape shows the {houses.pop()}"
    return f"all {rounds} rounds were played"


def _visible(state: State, player: int | None, num_players: int) -> dict[str, Any]:
    """What ``player`` sees of the hidden parts, from its observation: per seat the action card
    (a name, ``"?"`` or ``"-"``) and the hand (values, or a count); the pool passed to it."""
    snapshot = _snapshot(state)
    if player is None:
        return {
            "actions": [card or "-" for card in snapshot["actions"]],
            "hands": [" ".join(map(str, hand)) or "-" for hand in snapshot["hands"]],
            "pool": snapshot["pool"],
        }
    actions = ["-"] * num_players
    hands = ["-"] * num_players
    pool: list[str] = []
    for line in state.observation_string(player).splitlines():
        if line.startswith("seat ") and "; action " in line:
            seat = int(line.split(" ", 2)[1])
            actions[seat] = line.rsplit("; action ", 1)[1]
            hand = line.split(": hand ", 1)[1].split("; played ", 1)[0]
            hands[seat] = hand
        elif line.startswith("pool: ") and line != "pool: -":
            pool = line[len("pool: ") :].split(" ")
    return {"actions": actions, "hands": hands, "pool": pool}


def _seat_text(seat: int, names: Sequence[str] | None) -> Text:
    label = with_player_name(f"seat {seat}", seat, names)
    return Text(label, style=SEAT_STYLES[seat % len(SEAT_STYLES)])


def _status(snapshot: dict[str, Any], names: Sequence[str] | None) -> Text:
    phase = str(snapshot["phase"])
    if phase == "end":
        return Text("final position", style="bold")
    to_move = int(snapshot["current_player"])
    words = PHASE_WORDS.get(phase, phase)
    if to_move == CHANCE:
        return Text(words, style="italic")
    return Text.assemble(_seat_text(to_move, names), f" to move: {words}")


def _tile(index: int, land: dict[str, Any] | None, values: dict[str, int], site: set[int]) -> Text:
    """Two lines of ``TILE_W`` cells: position, type and conflict value; house and estate."""
    if land is None:
        return Text(f"{index:>2} ·".ljust(TILE_W) + "\n" + " " * TILE_W, style="dim")
    fight = index in site
    head = Text(f"{index:>2} ", style="bold" if fight else "dim")
    head.append(f"{land['type']} {values.get(str(land['type']), '')}", style="bold")
    if fight:
        head.append(" ⚔", style="bold bright_red")
    head.pad_right(TILE_W - head.cell_len)
    body = Text("   ")
    house = str(land["house"])
    body.append(f" {HOUSE_MARK[house]} ", style=HOUSE_STYLE[house])
    estate = land["estate"]
    if estate is not None:
        owner = int(estate["owner"])
        mark = f" {'K' if estate['kontor'] else 'G'}{owner}"
        body.append(mark, style=SEAT_STYLES[owner % len(SEAT_STYLES)])
    body.pad_right(TILE_W - body.cell_len)
    return Text.assemble(head, "\n", body)


def _legend(snapshot: dict[str, Any], state: State, values: dict[str, int]) -> list[Text]:
    """The lines in the middle of the ring: the conflict and the key to the markers."""
    lines = []
    conflict = snapshot["conflict"]
    ring = snapshot["ring"]
    if conflict is not None and len(ring) == RING_SIZE:
        a, b = ring[conflict], ring[(conflict + 1) % RING_SIZE]
        lines.append(Text(f"⚔ conflict {conflict}: {a['type']} | {b['type']}", style="bold"))
        totals = snapshot.get("conflict_totals")
        if totals is not None:
            eagle, rose = int(totals["eagle"]), int(totals["rose"])
            verdict = "a tie" if eagle == rose else f"{'eagle' if eagle > rose else 'rose'} won"
            lines.append(Text(f"eagle {eagle} : rose {rose}, {verdict}", style="bold"))
        else:
            base = {
                house: sum(
                    values.get(str(land["type"]), 0) for land in (a, b) if land["house"] == house
                )
                for house in ("eagle", "rose")
            }
            lines.append(Text(f"landscapes eagle {base['eagle']} : rose {base['rose']}"))
    else:
        lines.append(Text("no conflict site yet", style="dim"))
    lines.append(Text("G2, K2: Gutshof, Kontor of 2", style="dim"))
    lines.append(
        Text.assemble((" eagle ", HOUSE_STYLE["eagle"]), " ", (" rose ", HOUSE_STYLE["rose"]))
    )
    return lines


def _ring(snapshot: dict[str, Any], state: State) -> Text:
    values = _landscape_values(state)
    ring = snapshot["ring"]
    conflict = snapshot["conflict"]
    site = set() if conflict is None else {conflict, (conflict + 1) % RING_SIZE}
    grid: dict[tuple[int, int], Text] = {}
    for index, (row, col) in enumerate(PERIMETER):
        land = ring[index] if index < len(ring) else None
        grid[(row, col)] = _tile(index, land, values, site)
    legend = _legend(snapshot, state, values)
    out = Text()
    for row in range(4):
        for line in range(2):
            for col in range(4):
                tile = grid.get((row, col))
                if tile is not None:
                    out.append_text(tile.split("\n")[line])
                elif col == 1:
                    # The middle of the square: two tiles wide, four lines high.
                    k = (row - 1) * 2 + line
                    text = legend[k] if 0 <= k < len(legend) else Text("")
                    text = text.copy()
                    text.truncate(2 * TILE_W - 2)
                    text.pad_right(2 * TILE_W - 2 - text.cell_len)
                    out.append("  ")
                    out.append_text(text)
                    out.append("  ")
                if col < 3 and not (tile is None and col >= 1):
                    out.append(" ")
            out.append("\n")
    return out


def _seats(
    state: State,
    snapshot: dict[str, Any],
    seen: dict[str, Any],
    names: Sequence[str] | None,
    player: int | None,
) -> Table:
    table = Table.grid(padding=(0, 2))
    headings = ("", "seat", "house", "VP", "hand", "played", "action", "estates")
    for heading in headings:
        table.add_column(heading, no_wrap=True)
    table.add_row(*(Text(heading, style="dim") for heading in headings))
    to_move = int(snapshot["current_player"])
    num_players = len(snapshot["houses"])
    for seat in range(num_players):
        marks = Text("▶ " if seat == to_move else "  ", style="bold yellow")
        if seat == snapshot["start_player"]:
            marks.append("S", style="bold")
        if seat == snapshot["strategist"]:
            marks.append("♞", style="bold")
        house = str(snapshot["houses"][seat])
        estates = [land["estate"] for land in snapshot["ring"] if land["estate"] is not None]
        own = [estate for estate in estates if int(estate["owner"]) == seat]
        kontore = sum(1 for estate in own if estate["kontor"])
        hand = str(seen["hands"][seat])
        action = str(seen["actions"][seat])
        table.add_row(
            marks,
            _seat_text(seat, names),
            Text(f" {house} ", style=HOUSE_STYLE[house]),
            Text(str(snapshot["vp"][seat]), style="bold"),
            Text(hand, style="bold" if seat == player or player is None else "dim"),
            Text(" ".join(map(str, snapshot["played"][seat])) or "-"),
            Text(action, style="bold" if action not in ("?", "-") else "dim"),
            Text(f"{len(own) - kontore} G, {kontore} K" if own else "-"),
        )
    return table


def render(state: State, names: Sequence[str] | None, player: int | None) -> RenderableType:
    """The ring round its legend, the seats, the draft pool and the piles as ``player`` sees
    them (``None``: the whole table)."""
    snapshot = _snapshot(state)
    num_players = len(snapshot["houses"])
    seen = _visible(state, player, num_players)
    rounds = state.game.params.get("rounds")
    parts: list[RenderableType] = [
        _status(snapshot, names),
        Text(
            f"round {int(snapshot['round']) + (0 if snapshot['phase'] == 'end' else 1)} of "
            f"{rounds} · S start player · ♞ strategist (chooses the conflict site)",
            style="dim",
        ),
        _ring(snapshot, state),
        _seats(state, snapshot, seen, names, player),
    ]
    if seen["pool"]:
        who = "the draft pool" if player is None else "passed to you"
        parts.append(Text(f"{who}: {' '.join(seen['pool'])}"))
    queue = ", ".join(f"seat {seat}" for seat in snapshot["draw_queue"]) or "-"
    discard = " ".join(map(str, snapshot["discard"])) or "-"
    pile = len(snapshot["draw_pile"])
    if player is None:
        pile_text = " ".join(map(str, snapshot["draw_pile"])) or "-"
        aside = snapshot["aside"] or "-"
        parts.append(Text(f"draw pile: {pile_text} · set aside: {aside}", style="dim"))
    parts.append(
        Text(
            f"draw pile {pile} card{'' if pile == 1 else 's'} · discard {discard} · "
            f"draws due: {queue}",
            style="dim",
        )
    )
    return Group(*parts)


def _events(state: State, seat: int) -> list[tuple[str, list[str]]]:
    """Seat ``seat``'s information state as one (line, later lines) pair per action: what the
    seat saw of the action, then what it learnt right after it (a pool received, the reveal)."""
    events: list[tuple[str, list[str]]] = []
    for line in state.information_state_string(seat).split("\n")[1:]:
        if line.startswith(("reveal ", f"seat {seat} receives ")):
            events[-1][1].append(line)
        else:
            events.append((line, []))
    return events


def _words(line: str, position: int) -> str:
    """An information-state line in words, without its actor (the log names it)."""
    actor, _, rest = line.partition(" ")
    if actor == "seat":
        rest = rest.partition(" ")[2]
    if actor == "chance":
        if rest.startswith("aside"):
            return "an action card is set aside (hidden)"
        if rest.startswith("draw ? to seat "):
            return f"a card (hidden) to seat {rest.rsplit(' ', 1)[1]}"
        if rest.startswith("draw "):
            value, _, seat = rest[len("draw ") :].partition(" to seat ")
            return f"a {value} to seat {seat}"
        return f"{rest} at {position}"
    if rest == "pick ?":
        return "picks an action card (hidden)"
    if rest.startswith("conflict "):
        site = int(rest.split(" ")[1])
        return f"{rest} (between {site} and {(site + 1) % RING_SIZE})"
    return rest


def _extra(line: str) -> str:
    if line.startswith("reveal "):
        cards = line[len("reveal ") :].split(" ")
        return "reveal: " + ", ".join(f"seat {seat} {card}" for seat, card in enumerate(cards))
    return "you receive " + line.split(" receives ", 1)[1]


def move_texts(state: State, viewer: int | None, start: int) -> list[str]:
    """Each move as ``viewer`` saw it (read from its information state): other seats' picks,
    the set-aside card and other seats' draws are hidden until the reveal tells the picks; the
    reveal and the conflict's totals are told at the move that brought them."""
    seats = range(state.game.num_players)
    if viewer is None:
        per_seat = [_events(state, seat) for seat in seats]
        # A spectator sees what every seat sees: where views differ, the one that hides.
        events = []
        for index in range(len(per_seat[0])):
            lines = [view[index][0] for view in per_seat]
            line = next((text for text in lines if "?" in text), lines[0])
            common = [text for text in per_seat[0][index][1] if text.startswith("reveal ")]
            events.append((line, common))
    else:
        events = _events(state, viewer)
    history = state.history()
    walker = state.game.state_from_history(history[:start])
    laid = len(_snapshot(walker)["ring"])
    out = []
    for (line, extras), action in zip(events[start:], history[start:]):
        text = _words(line, laid)
        if line.startswith("chance ") and not line.startswith(("chance aside", "chance draw")):
            laid += 1
        walker.apply_action(action)
        notes = [_extra(extra) for extra in extras]
        totals = (
            _snapshot(walker).get("conflict_totals")
            if any(extra.startswith("reveal ") for extra in extras)
            else None
        )
        if totals is not None:
            notes.append(f"conflict: eagle {totals['eagle']}, rose {totals['rose']}")
        out.append("; ".join([text, *notes]))
    return out


def menu(state: State) -> list[MenuGroup]:
    snapshot = _snapshot(state)
    ring = snapshot["ring"]
    cards = _action_cards(state)
    titles = {
        "conflict": "choose the conflict site",
        "build": "build a Gutshof below",
        "upgrade": "upgrade your Gutshof to a Kontor",
        "pick": "draft",
        "play": "play a supply card",
        "done": "stop playing cards",
        "discard": "discard",
        "pass": "do nothing",
    }

    def detail(verb: str, rest: str) -> str | None:
        if verb == "conflict":
            site = int(rest)
            a, b = ring[site], ring[(site + 1) % RING_SIZE]
            return f"({a['type']} {a['house']} | {b['type']} {b['house']})"
        if verb in ("build", "upgrade") and int(rest) < len(ring):
            land = ring[int(rest)]
            return f"({land['type']} {land['house']})"
        if verb == "pick" and rest in cards:
            card = cards[rest]
            return f"({card.get('name_en', rest)}: {card.get('text', '')})"
        return None

    return menu_by_verb(state, titles, detail, last=("done", "pass"))
