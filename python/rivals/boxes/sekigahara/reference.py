"""Pure-Python reference implementation of Sekigahara.

One module on purpose, long as the rules are: it is read beside its rules page, step for step,
and split into parts it would be harder to check against the page.

This module is the oracle that the fast engine is checked against, so it is written for clarity:
lists and dicts, explicit loops, a phase string. It implements exactly
``docs/rules/sekigahara.md``; the comments cite that page.

Conventions (from the rules page):

* Cards have ids 1-9; a central card is named by its id, so ``place 7`` means "a token on
  central card 7". Camps are lists of ids left to right; ``blank`` is the set of blank ids.
* Actions: 0 ``end``, 1-9 ``place c``, 10-81 ``move a->b``, 82-90 ``order c``, 91-99 ``blank c``,
  100-108 ``swap c``. Chance outcomes are numbered apart: 0-8 ``reveal c`` (``c - 1``).
* Seat 0 (blue) moves first; seat 1 (red) holds the Tokugawa token.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import numpy.typing as npt

from rivals.reference import _base
from rivals.reference._base import (
    CHANCE,
    EVALUATION_SCALE,
    TERMINAL,
    choice_param,
    int_param,
    is_int,
    with_defaults,
)
from rivals.reference._data import read_data

# ---------------------------------------------------------------------------------------------
# Constants
# ---------------------------------------------------------------------------------------------

NAME = "sekigahara"


CARD_IDS = tuple(range(1, 10))
TOKENS = 5  # influence tokens per player
CENTRAL_CARDS = 3  # central cards at the start (and while the game runs)

END = 0
MOVE_OFFSET = 10
ORDER_OFFSET = 81  # order c = 81 + c
BLANK_OFFSET = 90
SWAP_OFFSET = 99
NUM_DISTINCT_ACTIONS = 109
REVEAL_OFFSET = -1  # chance outcome c - 1 reveals card c
MAX_CHANCE_OUTCOMES = 9

# The card ids that have a rule of their own.
SANADA, ANKOKUJI, OTANI, II, HOSOKAWA, KIKKAWA, KOBAYAKAWA, FUKUSHIMA, UKITA = CARD_IDS

REPETITION_RULES = ("turn_start", "symmetric", "off")
MAX_TURNS_LIMIT = 100000
DEFAULT_PARAMS: dict[str, Any] = {"repetition_rule": "turn_start", "max_turns": 500, "cards": None}
PARAM_HELP = (
    "repetition_rule ('turn_start' (default), 'symmetric' or 'off'), "
    f"max_turns (int 1..{MAX_TURNS_LIMIT}, default 500), "
    "cards (null for the shipped card file, or a path)"
)

CARDS_FORMAT = "rivals-sekigahara-cards"
CARD_KEYS = {"id", "name", "name_zh", "strength", "requirement", "ability"}

PHASES = ("action", "order", "blank", "swap", "reveal", "terminal")  # observation order
SEAT_NAMES = ("Ishida (blue)", "Tokugawa (red)")

OBSERVATION_SIZE = 251


# ---------------------------------------------------------------------------------------------
# Actions
# ---------------------------------------------------------------------------------------------


def move_id(a: int, b: int) -> int:
    """Action id of ``move a->b`` (``a != b``, both 1..9)."""
    return MOVE_OFFSET + 8 * (a - 1) + (b - 1 if b < a else b - 2)


def move_cards(action: int) -> tuple[int, int]:
    """Inverse of :func:`move_id`: the (from, to) cards of a move id 10..81."""
    a, k = divmod(action - MOVE_OFFSET, 8)
    a += 1
    b = k + 1 if k + 1 < a else k + 2
    return a, b


def outcome_name(outcome: int) -> str:
    """String of a chance outcome 0..8: ``reveal 7`` for outcome 6."""
    if 0 <= outcome < MAX_CHANCE_OUTCOMES:
        return f"reveal {outcome - REVEAL_OFFSET}"
    raise ValueError(f"chance outcome {outcome} is out of range 0..{MAX_CHANCE_OUTCOMES - 1}")


def action_name(action: int) -> str:
    """String of a decision id 0..108, e.g. ``move 3->5``."""
    if action == END:
        return "end"
    if 1 <= action <= 9:
        return f"place {action}"
    if MOVE_OFFSET <= action < ORDER_OFFSET + 1:
        a, b = move_cards(action)
        return f"move {a}->{b}"
    for word, offset in (
        ("order", ORDER_OFFSET),
        ("blank", BLANK_OFFSET),
        ("swap", SWAP_OFFSET),
    ):
        if offset < action <= offset + 9:
            return f"{word} {action - offset}"
    raise ValueError(f"action {action} is out of range 0..{NUM_DISTINCT_ACTIONS - 1}")


# Every string, so that parsing is the exact inverse of action_name and outcome_name.
_ACTION_BY_NAME = {action_name(a): a for a in range(NUM_DISTINCT_ACTIONS)}
_OUTCOME_BY_NAME = {outcome_name(o): o for o in range(MAX_CHANCE_OUTCOMES)}


def parse_action(text: str) -> int:
    """Inverse of :func:`action_name`; accepts exactly the strings it produces."""
    if not isinstance(text, str):
        raise ValueError(f"action string expected, got {text!r}")
    action = _ACTION_BY_NAME.get(text)
    if action is None:
        raise ValueError(
            f"unknown Sekigahara action {text!r}; accepted: 'end', 'place 7', 'move 3->5', "
            "'order 5', 'blank 2', 'swap 4' (cards 1-9)"
        )
    return action


def parse_outcome(text: str) -> int:
    """Inverse of :func:`outcome_name`; accepts exactly the strings it produces."""
    if not isinstance(text, str):
        raise ValueError(f"action string expected, got {text!r}")
    outcome = _OUTCOME_BY_NAME.get(text)
    if outcome is None:
        raise ValueError(f"unknown Sekigahara chance outcome {text!r}; accepted: 'reveal 7'")
    return outcome


# ---------------------------------------------------------------------------------------------
# Cards
# ---------------------------------------------------------------------------------------------


def _card_error(source: str, problem: str) -> ValueError:
    return ValueError(f"{source}: {problem}")


def parse_cards(data: Any, source: str) -> dict[int, dict[str, Any]]:
    """Validate a ``rivals-sekigahara-cards`` document; return ``{id: card}`` for ids 1-9."""
    if not isinstance(data, dict):
        raise _card_error(source, "a JSON object is expected")
    if set(data) != {"format", "version", "cards"}:
        raise _card_error(source, "the keys must be exactly format, version, cards")
    if data["format"] != CARDS_FORMAT:
        raise _card_error(source, f"format must be {CARDS_FORMAT!r}, not {data['format']!r}")
    if not is_int(data["version"]) or data["version"] != 1:
        raise _card_error(source, f"version must be 1, not {data['version']!r}")
    cards = data["cards"]
    if not isinstance(cards, list) or len(cards) != len(CARD_IDS):
        raise _card_error(source, "cards must be a list of nine cards")
    by_id: dict[int, dict[str, Any]] = {}
    for card in cards:
        if not isinstance(card, dict) or set(card) != CARD_KEYS:
            raise _card_error(source, f"each card needs exactly the keys {sorted(CARD_KEYS)}")
        cid = card["id"]
        if not is_int(cid) or cid not in CARD_IDS or cid in by_id:
            raise _card_error(source, f"card ids must be 1-9, each once; got {cid!r}")
        for key in ("name", "name_zh", "ability"):
            if not isinstance(card[key], str):
                raise _card_error(source, f"card {cid}: {key} must be a string")
        if not is_int(card["strength"]) or not 0 <= card["strength"] <= 99:
            raise _card_error(source, f"card {cid}: strength must be an int 0-99")
        if not is_int(card["requirement"]) or not 0 <= card["requirement"] <= TOKENS:
            raise _card_error(source, f"card {cid}: requirement must be an int 0-{TOKENS}")
        by_id[cid] = dict(card)
    return by_id


def load_cards(value: Any) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The card document of the ``cards`` parameter and its cards by id."""
    document, source = read_data(NAME, "cards", value, NAME)
    return document, parse_cards(document, source)


# ---------------------------------------------------------------------------------------------
# Scoring (module level so that tests can score crafted camps)
# ---------------------------------------------------------------------------------------------


def camp_strengths(
    camps: list[list[int]], blank: set[int], strength: dict[int, int]
) -> list[list[int]]:
    """Final strength of every card, per seat and camp position (Scoring, steps 1-3)."""
    base = [[strength[c] for c in camp] for camp in camps]
    # Step 2: card 1 sets the opponent's highest base card (leftmost on a tie) to base 2.
    for seat in (0, 1):
        if SANADA in camps[seat] and SANADA not in blank:
            other = 1 - seat
            if camps[other]:
                top = max(strength[c] for c in camps[other])
                target = [strength[c] for c in camps[other]].index(top)
                base[other][target] = 2
    # Step 3: position abilities on top of the (possibly changed) base.
    result: list[list[int]] = []
    for seat in (0, 1):
        n = len(camps[seat])
        row = []
        for i, card in enumerate(camps[seat]):
            value = base[seat][i]
            if card not in blank:
                if card == II:
                    value += i
                elif card == KIKKAWA:
                    value = max(0, value - (n - 1 - i))
                elif card == UKITA and 0 < i < n - 1:
                    value = 4
            row.append(value)
        result.append(row)
    return result


def totals(camps: list[list[int]], blank: set[int], strength: dict[int, int]) -> list[int]:
    """Total per seat: the camp's final strengths, plus 1 for seat 1 (the Tokugawa token)."""
    per_card = camp_strengths(camps, blank, strength)
    return [sum(per_card[0]), sum(per_card[1]) + 1]


# ---------------------------------------------------------------------------------------------
# Game
# ---------------------------------------------------------------------------------------------


def _check_params(params: dict[str, Any]) -> dict[str, Any]:
    full = with_defaults(NAME, DEFAULT_PARAMS, params, PARAM_HELP)
    choice_param(NAME, full, "repetition_rule", REPETITION_RULES)
    int_param(NAME, full, "max_turns", 1, MAX_TURNS_LIMIT)
    return full


class Game(_base.Game["State"]):
    """Sekigahara; parameters ``repetition_rule``, ``max_turns``, ``cards``."""

    def __init__(self, **params: Any) -> None:
        super().__init__(NAME, _check_params(params))
        self.repetition_rule: str = self.params["repetition_rule"]
        self.max_turns: int = self.params["max_turns"]
        document, self.cards = load_cards(self.params["cards"])
        # The documents of the data parameters, as the engine's ``game.data``.
        self.data: dict[str, Any] = {"cards": document}
        self.strength: dict[int, int] = {c: self.cards[c]["strength"] for c in CARD_IDS}
        self.requirement: dict[int, int] = {c: self.cards[c]["requirement"] for c in CARD_IDS}
        self.num_distinct_actions: int = NUM_DISTINCT_ACTIONS
        self.max_chance_outcomes: int = MAX_CHANCE_OUTCOMES
        # At most 3 action-phase decisions per turn, plus 9 reveals, 2 ability decisions and
        # 7 order decisions over the whole game.
        self.max_game_length: int = 3 * self.max_turns + 18
        self.observation_shape: tuple[int, ...] = (OBSERVATION_SIZE,)
        self.compact_observation_shape: dict[str, tuple[int, ...]] = {
            "board": (2, 9, 9),
            "features": (OBSERVATION_SIZE - 162,),
        }

    def new_initial_state(self) -> State:
        return State(self)


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


class State(_base.State):
    def __init__(self, game: Game) -> None:
        super().__init__(game)
        self.game: Game = game
        self.camps: list[list[int]] = [[], []]
        self.blank: set[int] = set()
        # Central card id -> [blue tokens, red tokens].
        self.neutral: dict[int, list[int]] = {}
        self.supply: list[int] = [TOKENS, TOKENS]
        self.deck: list[int] = list(CARD_IDS)
        self.phase: str = "reveal"
        self.turn: int = 0
        self.turn_player: int = 0
        # The seat to decide, CHANCE or TERMINAL.
        self.player: int = CHANCE
        self.actions_left: int = 0
        self.locked: list[int] = []
        self.reveals_pending: int = CENTRAL_CARDS
        self.start_influence: dict[int, list[int]] | None = None
        self.end_reason: str | None = None

    def has_unblanked(self, seat: int, card: int) -> bool:
        return card in self.camps[seat] and card not in self.blank

    def meets_lock(self, seat: int, card: int) -> bool:
        """The lock condition of the advantage check for ``seat`` on central card ``card``."""
        own = self.neutral[card][seat]
        other = self.neutral[card][1 - seat]
        # Card 2 turns a tie into an advantage but never relaxes the requirement (Q&A 2).
        ahead = own >= other if self.has_unblanked(seat, ANKOKUJI) else own > other
        return ahead and own > self.game.requirement[card]

    # -- legal actions --------------------------------------------------------------------------

    def _allowed_by_rule_2_4(self, source: int | None, target: int) -> bool:
        """Whether rule 2.4 allows the place (``source is None``) or move onto ``target``."""
        rule = self.game.repetition_rule
        if rule == "off":
            return True
        after = {c: list(v) for c, v in self.neutral.items()}
        seat = self.player
        if source is not None:
            after[source][seat] -= 1
        after[target][seat] += 1
        if rule == "turn_start":
            return after != self.start_influence
        return not all(v[0] == v[1] for v in after.values())  # symmetric

    def _place_move_actions(self) -> list[int]:
        seat = self.player
        free = [c for c in sorted(self.neutral) if c not in self.locked]
        actions = []
        if self.supply[seat] > 0:
            actions += [c for c in free if self._allowed_by_rule_2_4(None, c)]
        for a in free:
            # Tokens on card 8 never move.
            if a == FUKUSHIMA or self.neutral[a][seat] == 0:
                continue
            for b in free:
                if b != a and self._allowed_by_rule_2_4(a, b):
                    actions.append(move_id(a, b))
        return actions

    def legal_actions(self) -> list[int]:
        if self.phase == "terminal":
            return []
        if self.phase == "reveal":
            return [REVEAL_OFFSET + c for c in sorted(self.deck)]
        if self.phase == "action":
            return sorted([END, *self._place_move_actions()])
        if self.phase == "order":
            return [ORDER_OFFSET + c for c in self.locked]
        if self.phase == "blank":
            return sorted(BLANK_OFFSET + c for c in self.camps[0] + self.camps[1])
        # swap: the cards of the opponent of the turn player.
        return sorted(SWAP_OFFSET + c for c in self.camps[1 - self.turn_player])

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.phase != "reveal":
            return []
        p = 1.0 / len(self.deck)
        return [(REVEAL_OFFSET + c, p) for c in sorted(self.deck)]

    # -- applying actions -----------------------------------------------------------------------

    def _apply_chance(self, outcome: int) -> None:
        self._reveal(outcome - REVEAL_OFFSET)

    def _apply_decision(self, action: int) -> None:
        if self.phase == "action":
            self._act(action)
        elif self.phase == "order":
            if not self._acquire(action - ORDER_OFFSET):
                self._continue_acquisition()
        elif self.phase == "blank":
            self.blank.add(action - BLANK_OFFSET)
            self._continue_acquisition()
        else:
            self._swap(action - SWAP_OFFSET)
            self._continue_acquisition()

    def _reveal(self, card: int) -> None:
        self.deck.remove(card)
        self.neutral[card] = [0, 0]
        self.reveals_pending -= 1
        if self.reveals_pending > 0:
            return
        if self.turn == 0:
            # The first turn never acquires, so these were the setup reveals: the first turn
            # begins, without an advantage check and with 2 actions.
            self._begin_action_phase(2)
            return
        self._end_turn()

    def _act(self, action: int) -> None:
        seat = self.player
        if action == END:
            self._end_action_phase()
            return
        if action <= 9:
            self.supply[seat] -= 1
            self.neutral[action][seat] += 1
        else:
            a, b = move_cards(action)
            self.neutral[a][seat] -= 1
            self.neutral[b][seat] += 1
        self.actions_left -= 1
        if self.actions_left == 0:
            self._end_action_phase()

    def _begin_turn(self) -> None:
        """Advantage check, then the action phase (never on the first turn of the game)."""
        self.locked = [c for c in sorted(self.neutral) if self.meets_lock(self.turn_player, c)]
        self._begin_action_phase(3)

    def _begin_action_phase(self, actions: int) -> None:
        self.phase = "action"
        self.player = self.turn_player
        self.actions_left = actions
        if self.game.repetition_rule == "turn_start":
            self.start_influence = {c: list(v) for c, v in self.neutral.items()}

    def _end_action_phase(self) -> None:
        self.actions_left = 0
        self.start_influence = None
        self._continue_acquisition()

    def _continue_acquisition(self) -> None:
        """Acquire the locked cards (a decision while two or more remain), then reveal."""
        self.player = self.turn_player
        while self.locked:
            if len(self.locked) >= 2:
                self.phase = "order"
                return
            if self._acquire(self.locked[0]):
                return
        # All acquired: one reveal per card acquired, as long as the deck lasts.
        self.reveals_pending = min(self.reveals_pending, len(self.deck))
        if self.reveals_pending > 0:
            self.phase = "reveal"
            self.player = CHANCE
            return
        self._end_turn()

    def _acquire(self, card: int) -> bool:
        """Acquire ``card``; True if its ability now waits for a ``blank``/``swap`` decision."""
        seat = self.turn_player
        other = 1 - seat
        self.locked.remove(card)
        # The tokens go back to their owners (returning is not moving, so card 8 too).
        for s in (0, 1):
            self.supply[s] += self.neutral[card][s]
        del self.neutral[card]
        self.camps[seat].append(card)
        self.reveals_pending += 1
        if card == HOSOKAWA:
            self.phase = "blank"
            self.player = seat
            return True
        if card == KOBAYAKAWA and self.camps[other]:
            # Mandatory swap; the opponent chooses if they hold an unblanked card 3.
            self.phase = "swap"
            self.player = other if self.has_unblanked(other, OTANI) else seat
            return True
        return False

    def _swap(self, target: int) -> None:
        seat = self.turn_player
        mine = self.camps[seat]
        theirs = self.camps[1 - seat]
        i = mine.index(KOBAYAKAWA)
        j = theirs.index(target)
        mine[i], theirs[j] = target, KOBAYAKAWA

    def _end_turn(self) -> None:
        """End-of-turn steps: count the turn, then the three ways to end, else the next turn."""
        self.locked = []
        self.reveals_pending = 0
        self.turn += 1
        if not self.deck:
            self._end("deck")
        elif self._dead():
            self._end("dead")
        elif self.turn >= self.game.max_turns:
            self._end("max_turns")
        else:
            self.turn_player = self.turn % 2
            self._begin_turn()

    def _dead(self) -> bool:
        """Neither seat can place, move or lock: nothing can ever change again."""
        for seat in (0, 1):
            if self.supply[seat] > 0:
                return False
            for card, influence in self.neutral.items():
                if card != FUKUSHIMA and influence[seat] > 0:
                    return False
                if self.meets_lock(seat, card):
                    return False
        return True

    def _end(self, reason: str) -> None:
        self.phase = "terminal"
        self.player = TERMINAL
        self.end_reason = reason
        self.actions_left = 0
        self.start_influence = None

    # -- strings --------------------------------------------------------------------------------

    def _action_text(self, action: int) -> str:
        if self.phase == "reveal":
            return outcome_name(action)
        return action_name(action)

    def _text_action(self, text: str) -> int:
        if self.phase == "reveal":
            return parse_outcome(text)
        return parse_action(text)

    # -- results --------------------------------------------------------------------------------

    def totals(self) -> list[int]:
        return totals(self.camps, self.blank, self.game.strength)

    def scores(self) -> list[float]:
        return [float(t) for t in self.totals()]

    def winner(self) -> int | None:
        """The winning seat, or ``None`` for a draw or an unfinished game."""
        if self.phase != "terminal" or self.end_reason == "max_turns":
            return None
        blue, red = self.totals()
        if blue == red:
            return None
        return 0 if blue > red else 1

    def returns(self) -> list[float]:
        win = self.winner()
        if win is None:
            return [0.0, 0.0]
        return [1.0 if s == win else -1.0 for s in (0, 1)]

    def _evaluate(self, player: int) -> float:
        """docs/rules/sekigahara.md, "Evaluation (for search bots)"."""
        total = self.totals()
        other = 1 - player
        lead = float(total[player] - total[other])
        for card, influence in self.neutral.items():
            margin = influence[player] - influence[other]
            lead += 0.5 * self.game.strength[card] * min(max(margin / 3, -1.0), 1.0)
        return EVALUATION_SCALE * math.tanh(lead / 6)

    # -- snapshots ------------------------------------------------------------------------------

    @staticmethod
    def _influence_list(influence: dict[int, list[int]]) -> list[dict[str, Any]]:
        return [{"id": c, "influence": list(influence[c])} for c in sorted(influence)]

    def to_dict(self) -> dict[str, Any]:
        return {
            "camps": [[{"id": c, "blank": c in self.blank} for c in camp] for camp in self.camps],
            "neutral": self._influence_list(self.neutral),
            "supply": list(self.supply),
            "deck": sorted(self.deck),
            "current_player": self.player,
            "phase": self.phase,
            "turn": self.turn,
            "turn_player": self.turn_player,
            "actions_left": self.actions_left,
            "locked": list(self.locked),
            "reveals_pending": self.reveals_pending,
            "start_influence": (
                None if self.start_influence is None else self._influence_list(self.start_influence)
            ),
            "end_reason": self.end_reason,
            "scores": self.totals(),
            "strengths": camp_strengths(self.camps, self.blank, self.game.strength),
        }

    def _compact(self, planes: npt.NDArray[np.float32]) -> dict[str, Any]:
        """The compact observation: the planes' entries rearranged (docs/rules/sekigahara.md,
        "Compact observation")."""
        return {
            "board": planes[:162].reshape(2, 9, 9).astype(np.uint8),
            "features": planes[162:].copy(),
        }

    def _planes(self, player: int) -> npt.NDArray[np.float32]:
        p = self._check_seat(player)
        obs = np.zeros(OBSERVATION_SIZE, dtype=np.float32)
        for seat in (0, 1):
            r = (seat - p) % 2
            for i, card in enumerate(self.camps[seat]):
                obs[81 * r + 9 * i + card - 1] = 1.0
            for card, influence in self.neutral.items():
                obs[180 + 9 * r + card - 1] = influence[seat] / TOKENS
            obs[216 + r] = self.supply[seat] / TOKENS
            if self.start_influence is not None:
                for card, influence in self.start_influence.items():
                    obs[218 + 9 * r + card - 1] = influence[seat] / TOKENS
        for card in self.blank:
            obs[162 + card - 1] = 1.0
        for card in self.neutral:
            obs[171 + card - 1] = 1.0
        for card in self.locked:
            obs[198 + card - 1] = 1.0
        for card in self.deck:
            obs[207 + card - 1] = 1.0
        obs[236 + PHASES.index(self.phase)] = 1.0
        if self.player >= 0:
            obs[242 + (self.player - p) % 2] = 1.0
        if self.phase != "terminal":
            obs[244 + (self.turn_player - p) % 2] = 1.0
            obs[247] = 1.0 if self.turn == 0 else 0.0
        obs[246] = self.actions_left / 3
        obs[248] = self.reveals_pending / 3
        obs[249] = self.turn / self.game.max_turns
        obs[250] = float(p == 1)
        return obs

    def observation_string(self, player: int) -> str:
        p = self._check_seat(player)
        # Everything is public, so the observation is the whole table.
        return f"view of seat {p} ({SEAT_NAMES[p]})\n{self}"

    def information_state_string(self, player: int) -> str:
        self._check_seat(player)
        # Perfect information (open table, uniform reveals): the history identifies the state.
        return " ".join(str(a) for a in self._history)

    def __str__(self) -> str:
        per_card = camp_strengths(self.camps, self.blank, self.game.strength)
        lines = []
        for seat in (0, 1):
            cards = " ".join(
                f"{c}{'(blank)' if c in self.blank else ''}={v}"
                for c, v in zip(self.camps[seat], per_card[seat])
            )
            lines.append(
                f"seat {seat} {SEAT_NAMES[seat]}: supply {self.supply[seat]}, camp [{cards}]"
            )
        centre = ", ".join(
            f"{c}{'*' if c in self.locked else ''} {v[0]}:{v[1]}"
            for c, v in sorted(self.neutral.items())
        )
        lines.append(f"centre (blue:red, * locked): {centre or '-'}")
        lines.append(f"deck {len(self.deck)}, turn {self.turn}, totals {self.totals()}")
        if self.phase == "terminal":
            win = self.winner()
            result = "draw" if win is None else f"seat {win} wins"
            lines.append(f"game over ({self.end_reason}): {result}")
        elif self.phase == "reveal":
            lines.append(f"chance: reveal ({self.reveals_pending} to come)")
        else:
            extra = f", {self.actions_left} actions left" if self.phase == "action" else ""
            lines.append(f"{self.phase}: seat {self.player} to decide{extra}")
        return "\n".join(lines)
