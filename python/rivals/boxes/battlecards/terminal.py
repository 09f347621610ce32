"""Battlecards in the terminal: for Germany and Britain the ground, air and sea stacks, the
reserve hand and the kept cards by name and values, victory points and battles won; the battle
in progress (who attacks, the round and firing phase, the unit firing and its target, bonuses);
the battle list with what is won, cancelled and open; the decks.

A seat sees its own cards; of the enemy only the face-up stack cards and how many cards are face
down, in reserve and kept. With ``player=None`` everything is shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from rivals._core import CHANCE, State
from rivals.render import MenuGroup, menu_by_verb, with_player_name
from rivals.render._data import card_index, documents
from rivals.render._data import snapshot as _snapshot

__all__ = ["HELP", "menu", "move_texts", "render", "result_text", "seat_label"]

HELP = """\
At the start of your turn you may deploy one reserve card face down onto the stack of its type
(deploy G07) or pass; then a conflict card is drawn: a build-up or an action is carried out, a
kept card goes to your hand for a later battle, a battle is fought if its aggressor chooses
(fight or decline). In a battle every unit of the battle's types takes part; first the aggressor,
then the defender may play kept cards (play C21) or pass; then each unit fires in its phase at a
target you choose (fire B12): a conflict card is turned and its action number must be above the
target's defence and at most the attack. After each round each side may withdraw units
(withdraw G03) or pass. Values read attack against ground/air/sea, d defence, p firing phase.
Win a homeland battle as its aggressor, or have more victory points when every battle is over."""

SIDES = ("Germany", "Britain")
SIDE_WORDS = ("germany", "britain")
STYLES = ("bold dark_olive_green3", "bold steel_blue1")
TYPES = ("ground", "air", "sea")
PHASE_WORDS = {
    "deal": "dealing",
    "setup_deploy": "deploy a starting unit face down",
    "turn_deploy": "deploy a reserve card or pass",
    "conflict_draw": "drawing a conflict card",
    "effect_draw": "drawing arsenal cards",
    "effect_deploy": "deploy a reserve card (a card's effect) or pass",
    "effect_discard": "discarding reserve cards",
    "effect_destroy": "a stack loses a card",
    "choice": "fight or decline the battle",
    "window": "play a kept card or pass",
    "reinforce": "deploy a reinforcement face up or pass",
    "fire": "choose the target",
    "flip": "turning a conflict card for the shot",
    "withdraw": "withdraw units or pass",
}
END_REASONS = {
    "homeland": "a homeland battle was won by its aggressor",
    "battles": "every battle is over",
    "max_turns": "the turn limit was reached",
}


def seat_label(num_players: int, seat: int) -> str:
    del num_players
    return SIDES[seat]


def _cards(state: State) -> dict[str, dict[str, Any]]:
    return card_index(state.game, ("conflict", "german", "british"))


def _battle_list(state: State) -> list[str]:
    docs = documents(state.game)
    battles = list(docs["cards"]["battle_list"]["battles"])
    for pack in docs.get("expansions", []):
        battles += [card["id"] for card in pack.get("conflict", []) if card["kind"] == "battle"]
    return [str(card) for card in battles]


def values(card: dict[str, Any]) -> str:
    """``9/0/0 d5 p3``: attack against ground/air/sea, defence, firing phase."""
    attack = "/".join(str(card["attack"][kind]) for kind in TYPES)
    return f"{attack} d{card['defence']} p{card['phase']}"


def effect_words(card: dict[str, Any]) -> str:
    """A kept card's effect in a few words: ``+2 attack air``, ``reinforce with up to 2``."""
    effect = card.get("effect", {})
    if effect.get("type") == "combat_bonus":
        bonus = []
        if effect.get("attack"):
            bonus.append(f"+{effect['attack']} attack")
        if effect.get("defence"):
            bonus.append(f"+{effect['defence']} defence")
        return f"{' '.join(bonus)} {'/'.join(effect.get('types', []))}"
    if effect.get("type") == "reinforce":
        return f"reinforce with up to {effect.get('count')}"
    return str(card.get("kind", ""))


def result_text(state: State) -> str:
    """``"Germany wins 7 to 4 (every battle is over)"``, or the draw and its reason."""
    snapshot = _snapshot(state)
    vp = [int(points) for points in snapshot["vp"]]
    if not state.is_terminal():
        return f"Germany {vp[0]} VP, Britain {vp[1]} VP (game in progress)"
    why = END_REASONS.get(str(snapshot["end_reason"]), str(snapshot["end_reason"]))
    winner = snapshot["winner"]
    if winner is None:
        return f"a draw, {vp[0]} to {vp[1]} VP ({why})"
    return f"{SIDES[winner]} wins {vp[winner]} to {vp[1 - winner]} VP ({why})"


def _who(seat: int, names: Sequence[str] | None) -> Text:
    return Text(with_player_name(f"{SIDES[seat]} (seat {seat})", seat, names), style=STYLES[seat])


def _status(snapshot: dict[str, Any], names: Sequence[str] | None) -> Text:
    phase = str(snapshot["phase"])
    if phase == "terminal":
        return Text("final position", style="bold")
    to_move = int(snapshot["current_player"])
    words = PHASE_WORDS.get(phase, phase.replace("_", " "))
    if to_move == CHANCE:
        return Text(words, style="italic")
    return Text.assemble(_who(to_move, names), f" to move: {words}")


def _unit(card: dict[str, Any], mark: str = "", style: str = "", bare: bool = False) -> Text:
    """A unit by name and values (``bare``: by name alone), with its mark in the battle."""
    text = Text(f"{card['name']}", style=style or "bold")
    if not bare:
        text.append(f" {values(card)}", style="dim")
    if mark:
        text.append(f" {mark}", style="bold orange3")
    return text


def _side(
    snapshot: dict[str, Any],
    cards: dict[str, dict[str, Any]],
    seat: int,
    player: int | None,
    names: Sequence[str] | None,
    compact: bool = False,
) -> Group:
    sees = player is None or player == seat
    battle = snapshot["battle"] or {}
    taking_part = set(battle.get("taking_part", [[], []])[seat])
    withdrawn = set(battle.get("withdrawn", [[], []])[seat])
    shooter, target = battle.get("unit"), battle.get("target")
    won = ", ".join(str(cards[card]["name"]) for card in snapshot["won"][seat]) or "-"
    to_move = int(snapshot["current_player"]) == seat
    header = Text.assemble(
        ("▶ " if to_move else "  ", "bold yellow"),
        _who(seat, names),
        "   VP ",
        (str(snapshot["vp"][seat]), "bold"),
        f"   arsenal deck {len(snapshot['arsenal_deck'][seat])}, "
        f"discard {len(snapshot['arsenal_discard'][seat])}",
    )
    table = Table.grid(padding=(0, 1))
    table.add_column(no_wrap=True)
    table.add_column()
    if compact:
        # The battles won are marked in the battle list; the header counts them.
        header.append(f"   won {len(snapshot['won'][seat])}")
    else:
        table.add_row(Text("    won", style="dim"), Text(won))
    for kind in TYPES:
        shown: list[Text] = []
        down = 0
        for entry in snapshot["stacks"][seat][kind]:
            card_id = str(entry["id"])
            if not (entry["face_up"] or sees):
                down += 1
                continue
            mark = ""
            if card_id == shooter:
                mark = "◀ firing"
            elif card_id == target:
                mark = "◎ target"
            elif card_id in withdrawn:
                mark = "(withdrawn)"
            elif card_id in taking_part:
                mark = "⚔"
            unit = _unit(cards[card_id], mark, "" if entry["face_up"] else "bold italic", compact)
            if not entry["face_up"]:
                unit.append(" ▾", style="dim")
            shown.append(unit)
        if down:
            shown.append(Text(f"{down} face down", style="dim"))
        if compact and not shown:
            continue
        row = Text(" · ").join(shown) if shown else Text("-", style="dim")
        table.add_row(Text(f"    {kind}", style="bold"), row)
    reserve = snapshot["reserve"][seat]
    kept = snapshot["kept"][seat]
    if compact and not sees:
        hidden = f"{_cards_count(len(reserve))} in reserve, {len(kept)} kept (hidden)"
        table.add_row(Text("    hand", style="dim"), Text(hidden, style="dim"))
        return Group(header, table)
    if sees:
        reserve_text = Text(" · ").join(
            Text.assemble(_unit(cards[card], bare=compact), (f" {cards[card]['type']}", "dim"))
            for card in reserve
        ) or Text("-", style="dim")
        kept_text = Text(" · ").join(
            Text.assemble((f"{cards[card]['name']} ", "bold"), (effect_words(cards[card]), "dim"))
            for card in kept
        ) or Text("-", style="dim")
    else:
        reserve_text = Text(_cards_count(len(reserve)) + " (hidden)", style="dim")
        kept_text = Text(_cards_count(len(kept)) + " (hidden)", style="dim")
    table.add_row(Text(f"    reserve {len(reserve)}", style="dim"), reserve_text)
    table.add_row(Text(f"    kept {len(kept)}", style="dim"), kept_text)
    return Group(header, table)


def _cards_count(count: int) -> str:
    return f"{count} card{'' if count == 1 else 's'}"


def _short(name: str) -> str:
    """A battle's name without the operation in brackets."""
    return name.split(" (", 1)[0]


def _open_battles(
    snapshot: dict[str, Any], cards: dict[str, dict[str, Any]], order: list[str]
) -> Text:
    """The battle list for a short terminal: the battles over counted, the open ones named."""
    won = [len(snapshot["won"][seat]) for seat in (0, 1)]
    over = set(snapshot["won"][0]) | set(snapshot["won"][1]) | set(snapshot["cancelled"])
    fought = snapshot["card"] if snapshot["battle"] is not None else None
    text = Text("battles: ", style="bold")
    text.append(
        f"{won[0]} won by Germany, {won[1]} by Britain, {len(snapshot['cancelled'])} "
        "cancelled; open: "
    )
    open_ = [
        Text(
            _short(str(cards[card_id]["name"])) + (" ⚔" if card_id == fought else ""),
            style="bold underline" if card_id == fought else "",
        )
        for card_id in order
        if card_id not in over
    ]
    text.append_text(Text(" · ").join(open_) if open_ else Text("none"))
    return text


def _battles(snapshot: dict[str, Any], cards: dict[str, dict[str, Any]], order: list[str]) -> Text:
    won = {card: seat for seat in (0, 1) for card in snapshot["won"][seat]}
    cancelled = set(snapshot["cancelled"])
    current = snapshot["card"]
    # Marks in words as well as styles: a terminal without them still tells the three apart.
    text = Text("battle list ", style="bold")
    text.append("(✔G won by Germany, ✔B by Britain, ✗ cancelled, ⚔ being fought)", style="dim")
    text.append(": ", style="bold")
    fought = snapshot["battle"] is not None
    entries = []
    for card_id in order:
        card = cards[card_id]
        name = _short(str(card["name"]))
        if card_id in won:
            entry = Text(f"{name} ✔{SIDES[won[card_id]][0]}", style=STYLES[won[card_id]])
        elif card_id in cancelled:
            entry = Text(f"{name} ✗", style="dim strike")
        elif fought and card_id == current:
            entry = Text(f"{name} ⚔", style="bold underline")
        else:
            entry = Text(name)
        entries.append(entry)
    text.append_text(Text(" · ").join(entries))
    return text


def _battle(snapshot: dict[str, Any], cards: dict[str, dict[str, Any]]) -> Text | None:
    battle = snapshot["battle"]
    if battle is None:
        return None
    card = cards[str(snapshot["card"])]
    aggressor = int(battle["aggressor"])
    text = Text("battle: ", style="bold")
    text.append(f"{card['name']}", style="bold underline")
    text.append(
        f" · {SIDES[aggressor]} attacks · {'/'.join(card['types'])}"
        f" (decisive {'/'.join(card.get('decisive', card['types']))}) · {card['vp']} VP"
        f"{' · homeland' if card.get('homeland') else ''}"
    )
    if battle["round"]:
        text.append(f" · round {battle['round']} of 4")
    if battle["firing_phase"]:
        side = battle["firing_side"]
        text.append(f" · firing phase {battle['firing_phase']}")
        if side is not None:
            text.append(f", {SIDES[side]} fires")
    for seat in (0, 1):
        given = bonus_words(battle["bonus"][seat])
        if given:
            text.append(f" · {SIDES[seat]} bonus {given}")
    return text


def bonus_words(bonus: dict[str, Any]) -> str:
    """A side's battle bonus as ``"ground +1/+0, air +0/+2"`` (attack/defence per unit type that
    has one); empty when it has none."""
    return ", ".join(
        f"{kind} +{bonus['attack'][kind]}/+{bonus['defence'][kind]}"
        for kind in TYPES
        if bonus["attack"][kind] or bonus["defence"][kind]
    )


def render(
    state: State, names: Sequence[str] | None, player: int | None, compact: bool = False
) -> RenderableType:
    """Both sides' forces by name and values, the battle in progress and the battle list, as
    ``player`` sees them (``None``: everything). ``compact`` leaves out the key, the names of
    the battles won (the list counts them), empty stacks, the battles that are over and the
    units' values (the moves that pick a unit give them)."""
    snapshot = _snapshot(state)
    cards = _cards(state)
    parts: list[RenderableType] = [_status(snapshot, names)]
    for seat in (0, 1):
        parts.append(_side(snapshot, cards, seat, player, names, compact))
    battle = _battle(snapshot, cards)
    if battle is not None:
        parts.append(battle)
    if compact:
        parts.append(_open_battles(snapshot, cards, _battle_list(state)))
        return Group(*parts)
    parts.append(_battles(snapshot, cards, _battle_list(state)))
    parts.append(
        Text(
            f"turn {snapshot['turn']} · conflict deck {len(snapshot['conflict_deck'])}, discard "
            f"{len(snapshot['conflict_discard'])} · values: attack ground/air/sea, d defence, "
            "p firing phase · ▾ face down (only its owner sees it) · ⚔ in the battle",
            style="dim",
        )
    )
    return Group(*parts)


def _lines(state: State, seat: int, start: int) -> list[str]:
    """The information state's line of every action from ``start`` on (one line each), without
    the cards it turned face up: ``move_texts`` names those from the positions."""
    count = len(state.history()) - start
    if count == 0:
        return []
    lines = state.information_state_string(seat).rsplit("\n", count)[-count:]
    return [line.partition("; turned face up:")[0] for line in lines]


def _named(card_id: str, cards: dict[str, dict[str, Any]]) -> str:
    card = cards.get(card_id)
    return card_id if card is None else f"{card_id} {card['name']}"


def move_texts(state: State, viewer: int | None, start: int) -> list[str]:
    """Each move as ``viewer`` saw it (read from its information state): the enemy's draws,
    its kept cards and what it deploys face down are hidden; every card shown is named."""
    if viewer is None:
        views = [_lines(state, seat, start) for seat in (0, 1)]
        # A spectator sees what both seats see: where the views differ, the one that hides.
        lines = [a if "?" in a else b for a, b in zip(*views)]
    else:
        lines = _lines(state, viewer, start)
    cards = _cards(state)
    history = state.history()
    walker = state.game.state_from_history(history[:start])
    # The enemy cards whose turning face up the viewer is told about (a spectator: both sides').
    watched = (0, 1) if viewer is None else (1 - viewer,)
    out = []
    after = _snapshot(walker)
    for line, action in zip(lines, history[start:]):
        who, _, text = line.partition(" ")
        before = after
        walker.apply_action(action)
        after = _snapshot(walker)
        verb, _, rest = text.partition(" ")
        if who == "chance":
            words = _chance_words(text, before, after, cards)
        elif verb == "deploy" and rest.startswith("?"):
            words = f"deploys a card face down {rest[2:]}"
        elif rest:
            words = f"{verb} {_named(rest, cards)}"
        else:
            words = text
        turned = [
            str(cards[card]["name"])
            for seat in watched
            for card in sorted(_face_up(after, seat) - _face_up(before, seat))
            if card != rest and card in _on_stacks(before, seat)
        ]
        out.append(f"{words}; turned face up: {', '.join(turned)}" if turned else words)
    return out


def _on_stacks(snapshot: dict[str, Any], seat: int) -> set[str]:
    return {str(entry["id"]) for kind in TYPES for entry in snapshot["stacks"][seat][kind]}


def _face_up(snapshot: dict[str, Any], seat: int) -> set[str]:
    return {
        str(entry["id"])
        for kind in TYPES
        for entry in snapshot["stacks"][seat][kind]
        if entry["face_up"]
    }


def _chance_words(
    text: str, before: dict[str, Any], after: dict[str, Any], cards: dict[str, dict[str, Any]]
) -> str:
    phase = before["phase"]
    subject = before["subject"]
    side = SIDES[subject] if subject is not None else ""
    if phase in ("deal", "effect_draw"):
        return f"a card (hidden) to {side}" if text == "?" else f"{_named(text, cards)} to {side}"
    if phase == "conflict_draw":
        if text == "?":
            return f"a kept card (hidden) to {SIDES[before['drawing_player']]}"
        card = cards[text]
        return f"conflict card {_named(text, cards)} ({card['kind'].replace('_', ' ')})"
    if phase == "flip":
        target = (before["battle"] or {}).get("target")
        action = cards[text].get("action", "?")
        on_board = {
            str(entry["id"])
            for seat in (0, 1)
            for kind in TYPES
            for entry in after["stacks"][seat][kind]
        }
        outcome = "" if target is None else (" hit" if target not in on_board else " miss")
        return f"turns {text}: action {action}{outcome}"
    if phase == "effect_discard":
        return f"{side} discards {_named(text, cards)} from the reserve"
    if phase == "effect_destroy":
        return f"{side} loses {_named(text, cards)}"
    return text


def menu(state: State) -> list[MenuGroup]:
    cards = _cards(state)
    titles = {
        "deploy": "deploy",
        "fire": "fire at",
        "withdraw": "withdraw",
        "play": "play a kept card",
        "fight": "the battle",
        "decline": "the battle",
        "pass": "pass",
    }

    def detail(verb: str, rest: str) -> str | None:
        card = cards.get(rest)
        if card is not None and verb in ("deploy", "fire", "withdraw"):
            return f"{card['name']} ({card['type']} {values(card)})"
        if card is not None and verb == "play":
            return f"{card['name']} ({effect_words(card)})"
        return None

    return menu_by_verb(state, titles, detail, last=("pass",))
