"""Rheinländer in the terminal: the Rhine as a compact map, sections left to right in blocks,
each block the left bank's landmarks, the left bank, the river (islands between their numbers),
the right bank and its landmarks; knights as their seat's number in its colour. Below: the
domains with their owners and values, and every seat's knights, bastions, points, bishops and
hand (only the seat's own hand is shown to it).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.table import Table
from rich.text import Text

from rivals._core import CHANCE, State
from rivals.render import MenuGroup, ranked_result, ranking, with_player_name
from rivals.render._data import snapshot as _snapshot

__all__ = [
    "HELP",
    "SEAT_NAMES",
    "menu",
    "move_texts",
    "parse",
    "render",
    "result_text",
    "seat_label",
]

HELP = """\
Play a card and place a knight: 12L puts it on the left bank of section 12 (12R the right bank,
12W the river once every land space of 12 is taken; 10-11 with 10 an island). reinforce 13L
with 40 spends any card to place next to your own knights where no other knight touches. Once a
turn, before the card, bastion 12L blocks a free land space (3 per game). Knights side by side
form domains; the most knights (at least 2) place a duke and own it; cities, castles and
churches beside a domain add to its value. Losing a domain banks its value; at the end each duke
is worth 5 plus its landmarks, the archbishop (most bishops: domains with a church) 5. Holding
the archbishop you may displace another knight from a space of the card's number."""

SEAT_NAMES = ("red", "yellow", "green", "purple", "navy")
SEAT_STYLES = (
    "bold white on red3",
    "bold black on gold1",
    "bold white on green4",
    "bold white on purple4",
    "bold white on navy_blue",
)
SEAT_INK = ("bold red3", "bold gold1", "bold green4", "bold medium_purple3", "bold blue")
CELL = 3
# The width of a row's label ("Rhine ") before the map's cells.
LABEL = 6
CHIP = {"city": "◼", "castle": "♜", "church": "✚"}


def seat_label(num_players: int, seat: int) -> str:
    del num_players
    return SEAT_NAMES[seat % len(SEAT_NAMES)]


def result_text(state: State) -> str:
    """``"yellow wins with 44 points (red 42, green 36; green placed its last knight)"``: the
    leaders, every other seat's points beside its colour, and why the game ended."""
    snapshot = _snapshot(state)
    scores = [int(score) for score in snapshot["scores"]]
    labels = [seat_label(len(scores), seat) for seat in range(len(scores))]
    if not state.is_terminal():
        return f"points: {ranking(labels, scores)} (game in progress)"
    if snapshot["end_reason"] == "max_turns":
        return f"a draw: the turn limit was reached ({ranking(labels, scores)})"
    # The game ends the moment a seat takes the last knight of its supply.
    emptied = [labels[seat] for seat, left in enumerate(snapshot["knights_left"]) if left == 0]
    why = f"{' and '.join(emptied)} placed {'its' if len(emptied) == 1 else 'their'} last knight"
    return ranked_result(labels, scores, "points", why)


def _seat_text(seat: int, names: Sequence[str] | None) -> Text:
    label = with_player_name(f"{SEAT_NAMES[seat % len(SEAT_NAMES)]} (seat {seat})", seat, names)
    return Text(label, style=SEAT_INK[seat % len(SEAT_INK)])


class _Map:
    """Where every space and site of the map goes in the compact picture."""

    def __init__(self, game_map: dict[str, Any]) -> None:
        self.spaces = {str(space["id"]): space for space in game_map["spaces"]}
        self.top = max(n for space in game_map["spaces"] for n in space["numbers"])
        self.bank = {space_id: self._bank(space) for space_id, space in self.spaces.items()}
        self.sites = [(str(site["id"]), list(site["touches"])) for site in game_map["sites"]]
        joined: set[int] = set()
        for space in game_map["spaces"]:
            if len(space["numbers"]) > 1:
                joined.update(range(min(space["numbers"]), max(space["numbers"])))
        for _, touches in self.sites:
            numbers = [n for space_id in touches for n in self.spaces[space_id]["numbers"]]
            joined.update(range(min(numbers), max(numbers)))
        self.joined = joined

    def blocks(self, most: int) -> list[tuple[int, int]]:
        """The sections cut into the fewest blocks of about equal size with at most ``most``
        numbers each (where the map allows), never broken between two numbers that a site or an
        island joins."""
        count = -(-self.top // max(1, most))
        while True:
            blocks: list[tuple[int, int]] = []
            first = 1
            while first <= self.top:
                left = max(1, count - len(blocks))
                last = min(self.top, first + -(-(self.top - first + 1) // left) - 1)
                while last < self.top and last in self.joined:
                    last += 1
                blocks.append((first, last))
                first = last + 1
            if count >= self.top or all(last - first < most for first, last in blocks):
                return blocks
            count += 1

    def _bank(self, space: dict[str, Any]) -> str:
        if space["kind"] == "river":
            return "W"
        space_id = str(space["id"])
        if len(space["numbers"]) == 1:
            return "L" if space_id.endswith("L") else "R"
        for other in space["neighbours"]:
            found = self.spaces[other]
            if found["kind"] == "land" and len(found["numbers"]) == 1:
                return "L" if str(other).endswith("L") else "R"
        return "L"


def _cell(space_id: str, snapshot: dict[str, Any], wide: int = CELL) -> Text:
    owner = snapshot["knights"].get(space_id)
    if owner is not None:
        return Text(f"{owner}".center(wide), style=SEAT_STYLES[int(owner) % len(SEAT_STYLES)])
    if space_id in snapshot["bastions"]:
        return Text("#".center(wide), style="bold grey50")
    return Text("·".center(wide), style="grey50")


def _chip(site_id: str, snapshot: dict[str, Any]) -> Text:
    chip = snapshot["landmarks"].get(site_id)
    if chip is None:
        return Text("?", style="dim")
    kind = str(chip["kind"])
    text = CHIP.get(kind, kind[0])
    if kind == "city":
        text += str(chip["value"])
    manned = snapshot["castle_knights"].get(site_id)
    if manned is not None:
        return Text(f"{text}{manned}", style=SEAT_INK[int(manned) % len(SEAT_INK)])
    return Text(text, style="bold")


def _block(
    layout: _Map, snapshot: dict[str, Any], first: int, last: int, labelled: bool
) -> list[Text]:
    width = (last - first + 1) * CELL
    label_width = LABEL if labelled else 0

    def blank() -> list[Text]:
        return [Text(" " * CELL) for _ in range(first, last + 1)]

    rows: dict[str, list[Text]] = {key: blank() for key in ("sL", "L", "iL", "W", "iR", "R", "sR")}
    islands = {"iL": False, "iR": False}
    for space_id, space in layout.spaces.items():
        numbers = space["numbers"]
        if not first <= min(numbers) <= last:
            continue
        bank = layout.bank[space_id]
        if len(numbers) == 1:
            rows[bank][numbers[0] - first] = _cell(space_id, snapshot)
        else:
            key = f"i{bank}"
            islands[key] = True
            low = min(numbers) - first
            rows[key][low] = _cell(space_id, snapshot, CELL * 2)
            if low + 1 < len(rows[key]):
                rows[key][low + 1] = Text("")
    for site_id, touches in layout.sites:
        numbers = [n for space_id in touches for n in layout.spaces[space_id]["numbers"]]
        if not first <= min(numbers) <= last:
            continue
        bank = layout.bank[touches[0]]
        chip = _chip(site_id, snapshot)
        span = CELL * (max(numbers) - min(numbers) + 1)
        chip.pad_left((span - chip.cell_len) // 2)
        chip.pad_right(span - chip.cell_len)
        row = rows[f"s{bank}"]
        row[min(numbers) - first] = chip
        for k in range(min(numbers) + 1, max(numbers) + 1):
            row[k - first] = Text("")
    header = Text(" " * label_width)
    for n in range(first, last + 1):
        header.append(f"{n:>{CELL}}", style="dim")
    out = [header]
    labels = {
        "sL": "",
        "L": "left",
        "iL": "isle",
        "W": "Rhine",
        "iR": "isle",
        "R": "right",
        "sR": "",
    }
    for key in ("sL", "L", "iL", "W", "iR", "R", "sR"):
        if key in islands and not islands[key]:
            continue
        line = Text(f"{labels[key]:>5} " if labelled else "", style="dim")
        for cell in rows[key]:
            line.append_text(cell)
        line.truncate(label_width + width)
        out.append(line)
    return out


class _MapPicture:
    """The map in as few blocks as the width it is drawn in allows: with the rows labelled
    (left, Rhine, right) where that costs no block, else without labels, and then, when every
    row starts with a space (as numbers below 100 do), one column narrower still, which makes
    the shipped map's 54 sections two blocks at 80 columns rather than three."""

    def __init__(self, layout: _Map, snapshot: dict[str, Any], explained: bool) -> None:
        self.layout = layout
        self.snapshot = snapshot
        # Whether rows drawn without labels are followed by a line that names them.
        self.explained = explained

    def lines(self, width: int) -> tuple[list[Text], bool]:
        """The map's lines at ``width`` columns, and whether its rows are labelled."""
        layout = self.layout
        labelled = layout.blocks((width - LABEL) // CELL)
        bare = layout.blocks((width + 1) // CELL)
        if len(labelled) <= len(bare):
            return self._drawn(labelled, True), True
        lines = self._drawn(bare, False)
        if all(line.plain.startswith(" ") for line in lines):
            return [line[1:] for line in lines], False
        return self._drawn(layout.blocks(width // CELL), False), False

    def _drawn(self, blocks: list[tuple[int, int]], labelled: bool) -> list[Text]:
        return [
            line
            for first, last in blocks
            for line in _block(self.layout, self.snapshot, first, last, labelled)
        ]

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        lines, labelled = self.lines(options.max_width)
        yield from lines
        if self.explained and not labelled:
            yield Text(
                "each block: landmarks, left bank, (islands), Rhine, (islands), right bank, "
                "landmarks",
                style="dim",
            )


def _domains(snapshot: dict[str, Any]) -> Text:
    owned = [domain for domain in snapshot["domains"] if domain["owner"] is not None]
    text = Text("domains: ", style="bold")
    if not owned:
        text.append("none owned yet", style="dim")
    entries = []
    for domain in owned:
        owner = int(domain["owner"])
        spaces = domain["spaces"]
        where = f"{spaces[0]}..{spaces[-1]}" if len(spaces) > 2 else " ".join(spaces)
        church = ", bishop" if domain["bishop"] else ""
        entries.append(
            Text.assemble(
                (SEAT_NAMES[owner % len(SEAT_NAMES)], SEAT_INK[owner % len(SEAT_INK)]),
                f" {where} ({len(spaces)} knights, value {domain['value']}{church})",
            )
        )
    ownerless = len(snapshot["domains"]) - len(owned)
    if ownerless:
        entries.append(Text(f"{ownerless} without a duke", style="dim"))
    text.append_text(Text(" · ").join(entries))
    return text


def _seats(
    snapshot: dict[str, Any],
    names: Sequence[str] | None,
    player: int | None,
    compact: bool = False,
) -> Table:
    """A row per seat; ``compact``: the numbers named in their cells rather than in a row of
    headings."""
    table = Table.grid(padding=(0, 2 - compact))
    headings = ("", "seat", "knights", "bastions", "points", "bishops", "hand")
    for heading in headings[:-1]:
        table.add_column(heading, no_wrap=True)
    table.add_column("hand")
    if not compact:
        table.add_row(*(Text(heading, style="dim") for heading in headings))
    units = ("", "", " kn", " bast", " pts", " bish") if compact else ("",) * 6
    to_move = int(snapshot["current_player"])
    for seat, hand in enumerate(snapshot["hands"]):
        sees = player is None or player == seat
        marks = Text("▶" if seat == to_move else " ", style="bold yellow")
        marks.append("A" if snapshot["archbishop"] == seat else " ", style="bold")
        shown = " ".join(map(str, hand)) if sees else f"{len(hand)} cards"
        table.add_row(
            marks,
            _seat_text(seat, names),
            Text(f"{snapshot['knights_left'][seat]}{units[2]}"),
            Text(f"{snapshot['bastions_left'][seat]}{units[3]}"),
            Text(f"{snapshot['scores'][seat]}{units[4]}", style="bold"),
            Text(f"{snapshot['bishops'][seat]}{units[5]}"),
            Text(shown or "-", style="bold" if sees else "dim"),
        )
    return table


def _status(snapshot: dict[str, Any], names: Sequence[str] | None) -> Text:
    phase = snapshot["phase"]
    if phase == "terminal":
        return Text("final position", style="bold")
    to_move = int(snapshot["current_player"])
    if to_move == CHANCE:
        receiving = snapshot.get("receiving")
        if receiving is None:
            return Text("laying the landmarks", style="italic")
        return Text.assemble("dealing a card to ", _seat_text(int(receiving), names))
    doing = "play a card" + ("" if snapshot["bastion_placed"] else " (or first a bastion)")
    return Text.assemble(_seat_text(to_move, names), f" to move: {doing}")


def render(
    state: State, names: Sequence[str] | None, player: int | None, compact: bool = False
) -> RenderableType:
    """The compact map, the domains and the seats as ``player`` sees them (``None``: every
    hand). ``compact`` leaves out the legend and the headings and puts the map last, so that
    on a short terminal what scrolls away first is the least needed."""
    snapshot = _snapshot(state)
    layout = _Map(state.game.map)
    discard = " ".join(map(str, snapshot["discard"])) or "-"
    piles = f"turn {snapshot['turn']} · deck {snapshot['deck_size']} · discard {discard}"
    if compact:
        status = _status(snapshot, names)
        status.append(f" · {piles}", style="dim")
        # The map last, right above the moves: on a short terminal the lines above it are the
        # ones that scroll out of sight (the moves name every card of the hand).
        return Group(
            status,
            _domains(snapshot),
            _seats(snapshot, names, player, compact=True),
            _MapPicture(layout, snapshot, explained=False),
        )
    parts: list[RenderableType] = [
        _status(snapshot, names),
        _MapPicture(layout, snapshot, explained=True),
        Text(
            "0-4 a seat's knight · # bastion · ◼4 city 4 · ♜ castle (♜1 manned by seat 1) "
            "· ✚ church · A archbishop",
            style="dim",
        ),
        _domains(snapshot),
        _seats(snapshot, names, player),
        Text(piles, style="dim"),
    ]
    return Group(*parts)


def move_texts(state: State, viewer: int | None, start: int) -> list[str]:
    """Each move as ``viewer`` saw it (its information state): a card dealt or drawn to another
    seat is hidden; every decision, landmark and reshuffle is public."""
    history = state.history()
    if viewer is None:
        tokens = ["?"] * len(history)
        views = [
            state.information_state_string(seat).split() for seat in range(state.game.num_players)
        ]
        for index in range(len(history)):
            seen = [view[index] for view in views]
            tokens[index] = "?" if "?" in seen else seen[0]
    else:
        tokens = state.information_state_string(viewer).split()
    walker = state.game.state_from_history(history[:start])
    sites = [str(site["id"]) for site in state.game.map["sites"]]
    out = []
    for token, action in zip(tokens[start:], history[start:]):
        text = walker.action_to_string(action)
        if walker.current_player() == CHANCE:
            snapshot = _snapshot(walker)
            receiving = snapshot.get("receiving")
            if text == "reshuffle":
                text = "reshuffle: the discard pile goes back into the deck"
            elif receiving is None:
                laid = len(snapshot["landmarks"])
                where = sites[laid] if laid < len(sites) else "?"
                text = f"{text} at {where}"
            else:
                to = seat_label(state.game.num_players, int(receiving))
                text = f"a card (hidden) to {to}" if token == "?" else f"{text} to {to}"
        walker.apply_action(action)
        out.append(text)
    return out


def _numbers(state: State) -> dict[str, list[int]]:
    """The card numbers of every space of the game's map, by id: a space with one number is
    played by that card, and its id need not say which (a map's ids are its own)."""
    return {str(space["id"]): list(space["numbers"]) for space in state.game.map["spaces"]}


def menu(state: State) -> list[MenuGroup]:
    if state.is_chance_node():
        # A draw's outcomes are cards, castles and reshuffles, not placements: listed as named.
        outcomes = tuple(
            (action, state.action_to_string(action)) for action in state.legal_actions()
        )
        return [MenuGroup("chance outcomes", outcomes)]
    snapshot = _snapshot(state)
    player = state.current_player()
    numbers = _numbers(state)
    by_card: dict[int, list[tuple[int, str]]] = {}
    reinforce: dict[str, list[tuple[int, str]]] = {}
    bastions: list[tuple[int, str]] = []
    discards: list[tuple[int, str]] = []
    for action in state.legal_actions():
        text = state.action_to_string(action)
        words = text.split(" ")
        if words[0] == "bastion":
            bastions.append((action, text))
        elif words[0] == "discard":
            discards.append((action, text))
        elif words[0] == "reinforce":
            reinforce.setdefault(words[1], []).append((action, f"with {words[3]}"))
        else:
            space = words[0]
            card = int(words[2]) if len(words) == 3 else int(numbers[space][0])
            owner = snapshot["knights"].get(space)
            label = space if owner is None or owner == player else f"{space} (displace)"
            by_card.setdefault(card, []).append((action, label))
    groups = [MenuGroup(f"card {card}", tuple(by_card[card])) for card in sorted(by_card)]
    if reinforce:
        spaces = sorted(reinforce, key=lambda key: (min(numbers[key]), key))
        example = spaces[0], reinforce[spaces[0]][0][1].split(" ")[1]
        groups.append(
            MenuGroup(
                "reinforce with any card",
                tuple(entry for space in spaces for entry in reinforce[space]),
                numbered=False,
                note=f"{' '.join(spaces)} (reinforce {example[0]} with {example[1]}, or "
                f"{example[0]} {example[1]})",
            )
        )
    if discards:
        groups.append(MenuGroup("discard (no card places a knight)", tuple(discards)))
    if bastions:
        groups.append(
            MenuGroup(
                "bastion",
                tuple(bastions),
                numbered=False,
                note=f"{bastions[0][1]} or any of {len(bastions)} free land spaces "
                "(or b SPACE), then your card",
            )
        )
    return groups


def parse(state: State, text: str) -> int | None:
    """Short forms a person types: ``13R 47`` for ``reinforce 13R with 47`` (or for the card
    played on that space by its number), ``b 12L`` for ``bastion 12L``."""
    words = text.split(" ")
    legal = {state.action_to_string(action).casefold(): action for action in state.legal_actions()}
    if len(words) == 2 and words[0].casefold() in ("b", "bastion"):
        return legal.get(f"bastion {words[1]}".casefold())
    if len(words) == 2 and words[1].isascii() and words[1].isdigit():
        space, card = words
        for candidate in (f"reinforce {space} with {card}", f"{space} with {card}"):
            if candidate.casefold() in legal:
                return legal[candidate.casefold()]
        spaces = {key.casefold(): numbers for key, numbers in _numbers(state).items()}
        if spaces.get(space.casefold()) == [int(card)]:
            return legal.get(space.casefold())
    return None
