"""A person at the terminal against bots: the play screen of ``rivals play``.

The person sees only what their seat may see: the board is their seat's view and the move log
tells every move as their seat saw it (another seat's hidden card or choice stays hidden until
the rules reveal it). The bots are given the true state; which of them peek is up to the caller
(``cmd_play`` picks ones that do not in games with hidden information).
"""

from __future__ import annotations

import difflib
import json
import random
import shlex
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.text import Text

from rivals import replay as replays
from rivals._core import CHANCE, Bot, Game, State
from rivals.render import (
    menu,
    move_texts,
    moves_help,
    parse_move,
    player_label,
    render,
    result_text,
    rules_hint,
)

__all__ = ["PLAY_HELP", "PlaySession"]

PLAY_HELP = (
    "type a move (its text or its number), or: undo (back to your previous move), "
    "hint (ask a bot), save FILE (write a replay), board, help, quit"
)
COMMANDS = ("undo", "hint", "save", "board", "help", "quit")
# How alike (difflib's ratio) a typo must be to a move or a command to be offered in its place.
CLOSE = 0.6
MENU_WIDTH = 100
# The longest line read as a command, its line end aside; a move or a file name is far shorter.
# A longer line is refused, and one without an end within MAX_SKIPPED characters (a stream with
# no line ends) ends the session.
MAX_LINE = 4096
MAX_SKIPPED = 1 << 20


# Positions resampled from what the person's seat knew to tell whether their own moves revealed
# anything: a reveal passes unnoticed only if every sample guessed the hidden cards right.
REVEAL_SAMPLES = 16


def reveals(game: Game, seat: int, before: list[int], own: list[int]) -> bool:
    """Whether ``seat``'s own moves ``own``, played after the history ``before``, showed it
    hidden facts (a Battlecards battle turning cards face up, Verräter's reveal after the last
    ``done``): played from positions the seat cannot tell from the true one (resampled from
    what it knew), the same moves must leave it knowing and seeing the same."""
    start = game.state_from_history(before)
    truth = game.state_from_history(before + own)
    expected = (truth.information_state_string(seat), truth.observation_string(seat))
    for sample in range(REVEAL_SAMPLES):
        other = start.resample_from_infostate(seat, sample)
        for action in own:
            if action not in other.legal_actions():
                return True
            other.apply_action(action)
        if (other.information_state_string(seat), other.observation_string(seat)) != expected:
            return True
    return False


def is_number(text: str) -> bool:
    """Whether ``text`` names a menu number: ASCII digits (``str.isdigit`` takes ``²`` too, which
    ``int`` refuses), few enough to be one."""
    return text.isascii() and text.isdigit() and len(text) <= 9


def printable(text: str) -> str:
    """``text`` as a terminal may show it: as its repr when it holds control characters, which a
    terminal would act on."""
    return text if text.isprintable() else repr(text)


class PlaySession:
    """A human at the terminal against bots; chance is resolved with a seeded RNG."""

    def __init__(
        self,
        console: Console,
        game: Game,
        human: int,
        opponents: dict[int, Bot],
        names: list[str],
        hint_bot: Callable[[], Bot],
        seed: int,
        stdin: IO[str] | None,
        hint_name: str = "mcts",
        resumed: State | None = None,
    ) -> None:
        """``resumed``: a game saved earlier (``save FILE``), continued from where it stands."""
        self.console = console
        self.game = game
        self.human = human
        self.opponents = opponents
        self.names = names
        self.hint_bot = hint_bot
        self.hint_name = hint_name
        self.rng = random.Random(seed)
        self.stdin = stdin
        self.state = game.new_initial_state() if resumed is None else resumed.clone()
        history = self.state.history()
        walker = game.new_initial_state()
        # History lengths at the human's earlier decisions: what `undo` returns to.
        self.decisions: list[int] = []
        for index, action in enumerate(history):
            if walker.current_player() == human:
                self.decisions.append(index)
            walker.apply_action(action)
        # Actions of the history already told in the move log: a resumed game tells what
        # happened since the person's last move, as their seat saw it.
        self.logged = self.decisions[-1] if self.decisions else 0
        # The history's length when a game with hidden cards was last saved (or, resumed, when
        # it was saved before): the file shows every card, so nothing before it is taken back.
        self.saved_at: int | None = None
        if resumed is not None and game.info.information == "imperfect":
            self.saved_at = len(history)
        self.numbered: list[int] = []

    def run(self) -> int:
        """Plays until the person quits; 0, or 130 after Ctrl-C."""
        try:
            while True:
                self._advance()
                self._show()
                if not self._command_loop():
                    return 0
        except KeyboardInterrupt:
            self.console.print()
            self.console.print(
                Text(
                    "interrupted: the game ends here, unsaved (save FILE keeps a game for "
                    "rivals play --resume FILE)",
                    style="yellow",
                )
            )
            return 130

    def _advance(self) -> None:
        """Plays chance and the bots until the human is to move or the game is over."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.human:
            player = state.current_player()
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                action = self.rng.choices(actions, weights=weights)[0]
            else:
                self._log()
                bot = self.opponents[player]
                with self.console.status(f"{player_label(state, player)} is thinking..."):
                    action = bot.step(state)
            state.apply_action(action)
        self._log()

    def _log(self) -> None:
        """Tells the moves not yet told, as the human's seat saw them; a run of chance outcomes
        goes on one line."""
        history = self.state.history()
        if self.logged >= len(history):
            return
        texts = move_texts(self.state, self.human, self.logged)
        walker = self.game.state_from_history(history[: self.logged])
        chance: list[str] = []
        for action, text in zip(history[self.logged :], texts):
            player = walker.current_player()
            if player == CHANCE:
                chance.append(text)
            else:
                self._print_chance(chance)
                chance = []
                line = Text("  ")
                line.append(f"{player_label(walker, player)} {self.names[player]}", "bold")
                line.append(f": {text}")
                self.console.print(line)
            walker.apply_action(action)
        self._print_chance(chance)
        self.logged = len(history)

    def _print_chance(self, texts: list[str]) -> None:
        if not texts:
            return
        # A run of the same outcome (three hidden cards to one seat) is told once, counted.
        runs: list[list[Any]] = []
        for text in texts:
            if runs and runs[-1][0] == text:
                runs[-1][1] += 1
            else:
                runs.append([text, 1])
        told = ", ".join(text if count == 1 else f"{text} ×{count}" for text, count in runs)
        self.console.print(Text(f"  chance: {told}", style="dim"))

    def _show(self, full: bool = False) -> None:
        """The board and the moves. At a terminal too short for both, the board is the game's
        compact one (``full``: never), so that the map and the moves stay in sight together
        rather than the map scrolling away above them."""
        self.console.print()
        terminal = self.state.is_terminal()
        lines = [] if terminal else self._menu_lines()
        board = render(self.state, self.names, self.human)
        if not full and self.console.is_terminal:
            drawn = self.console.render_lines(board, self.console.options, pad=False)
            # The blank line above the board and the prompt below the moves.
            if len(drawn) + len(lines) + 2 > self.console.height:
                board = render(self.state, self.names, self.human, compact=True)
        self.console.print(board)
        if terminal:
            self.numbered = []
            self.console.print(Text("undo, save FILE or quit", style="dim"))
            self.console.print(Text(f"game over: {result_text(self.state)}", style="bold"))
            return
        for line in lines:
            self.console.print(line)

    def _show_menu(self) -> None:
        for line in self._menu_lines():
            self.console.print(line)

    def _menu_lines(self) -> list[Text]:
        """The legal moves, numbered (``self.numbered`` learns the numbers): a group of long
        labels (a card's text) a line each; short entries share lines, and so do groups that
        fit on one line beside each other."""
        self.numbered = []
        width = min(self.console.width, MENU_WIDTH)
        out: list[Text] = []
        # The last line, while another one-line group may still join it.
        shared: Text | None = None
        for group in menu(self.state):
            lines = []
            line = Text(f"{group.title}: ", style="bold")
            if group.numbered:
                # Two a line at most where a label is longer than a third of the line.
                one_each = any(len(label) > width // 2 - 6 for _, label in group.entries)
                for action, label in group.entries:
                    self.numbered.append(action)
                    entry = Text.assemble((str(len(self.numbered)), "bold cyan"), f" {label}   ")
                    full = line.cell_len + entry.cell_len > width or (
                        any(len(label) > width // 3 for _, label in group.entries)
                        and line.plain.count("   ") >= 2
                    )
                    if (one_each or full) and line.plain.strip():
                        lines.append(line)
                        line = Text("    ")
                    line.append_text(entry)
            else:
                line.append(group.note or ", ".join(label for _, label in group.entries))
            lines.append(line)
            for made in lines:
                made.rstrip()
            if (
                len(lines) == 1
                and shared is not None
                and shared.cell_len + 3 + lines[0].cell_len <= width
            ):
                shared.append("   ")
                shared.append_text(lines[0])
                continue
            out.extend(lines)
            shared = lines[0] if len(lines) == 1 else None
        return out

    def _read(self) -> str | None:
        """The next command, spaces collapsed, or None at the end of the input (none at all when
        the process was started with standard input closed)."""
        prompt = "> " if self.state.is_terminal() else "your move> "
        self.console.print(Text(prompt, style="bold"), end="")
        if self.stdin is None:
            line = ""
        elif self.stdin is sys.stdin and self.stdin.isatty():
            # input() brings line editing and history at a real terminal.
            try:
                line = input() + "\n"
            except EOFError:
                line = ""
        else:
            line = self.stdin.readline(MAX_LINE + 1)
        if not line:
            self.console.print()
            return None
        if self.stdin is not None and not self.stdin.isatty():
            # Piped input is not echoed by the terminal; echo it so a transcript reads naturally.
            self.console.print(Text(printable(line.rstrip("\n")[:MAX_LINE])))
        if len(line) > MAX_LINE and not line.endswith("\n"):
            return self._skip_long_line(line)
        return " ".join(line.split())

    def _skip_long_line(self, line: str) -> str | None:
        """Skips the rest of a line too long to be a command: "" to read on, None at the end of
        the input or past MAX_SKIPPED characters without a line end."""
        assert self.stdin is not None
        skipped = len(line)
        while not line.endswith("\n") and skipped <= MAX_SKIPPED:
            line = self.stdin.readline(MAX_LINE)
            if not line:
                break
            skipped += len(line)
        if skipped > MAX_SKIPPED and not line.endswith("\n"):
            self.console.print(
                Text(f"input line longer than {MAX_SKIPPED} characters: stopping", style="red")
            )
            return None
        length = skipped - line.endswith("\n")
        self.console.print(
            Text(f"a line of {length} characters is not a move or a command", style="red")
        )
        return "" if line.endswith("\n") else None

    def _command_loop(self) -> bool:
        """Reads commands until the position changes (True) or the user quits (False)."""
        while True:
            text = self._read()
            if text is None:
                return False
            if not text:
                continue
            action = self._parse_move(text)
            if action is not None:
                self._log()
                self.decisions.append(len(self.state.history()))
                self.state.apply_action(action)
                self._log()
                return True
            word, _, rest = text.partition(" ")
            word = word.lower()
            if word in ("quit", "exit", "q"):
                return False
            if word == "undo":
                if self._undo():
                    return True
            elif word == "hint":
                self._hint()
            elif word == "save":
                self._save(rest)
            elif word == "board":
                self._show(full=True)
            elif word in ("help", "?"):
                self._help()
            else:
                self._reject(text)

    def _help(self) -> None:
        self.console.print(Text(moves_help(self.game.name)))
        self.console.print(Text(PLAY_HELP, style="dim"))

    def _parse_move(self, text: str) -> int | None:
        if self.state.is_terminal():
            return None
        legal = self.state.legal_actions()
        strings = {self.state.action_to_string(action): action for action in legal}
        if text in strings:
            return strings[text]
        folded = {key.casefold(): action for key, action in strings.items()}
        if text.casefold() in folded:
            return folded[text.casefold()]
        if is_number(text) and 1 <= int(text) <= len(self.numbered):
            return self.numbered[int(text) - 1]
        return parse_move(self.state, text)

    def _suggestion(self, text: str) -> str:
        """``did you mean ...?`` for the moves and commands closest to what was typed, or ""."""
        word, _, rest = text.partition(" ")
        close = difflib.get_close_matches(word.lower(), COMMANDS, n=1, cutoff=0.75)
        if close and close[0] != word.lower():
            return f"did you mean {' '.join([close[0], rest]).strip()}?"
        if self.state.is_terminal():
            return ""
        strings = {
            self.state.action_to_string(action).casefold(): self.state.action_to_string(action)
            for action in self.state.legal_actions()
        }
        spaced = text.replace(" ", "").casefold()  # "ne 2" for NE2: the one it means
        exact = [key for key in strings if key.replace(" ", "") == spaced]
        found = exact or difflib.get_close_matches(text.casefold(), strings, n=3, cutoff=CLOSE)
        if not found:
            return ""
        shown = [strings[key] for key in found]
        listed = ", ".join(shown[:-1]) + " or " + shown[-1] if len(shown) > 1 else shown[0]
        return f"did you mean {listed}?"

    def _reject(self, text: str) -> None:
        suggestion = self._suggestion(text)
        if self.state.is_terminal():
            message = (
                f"the game is over; {replays.shown(text)} is not a command "
                "(undo, save FILE or quit)"
            )
            self.console.print(Text(message, style="bold red"))
            if suggestion:
                self.console.print(Text(suggestion, style="yellow"))
            return
        try:
            known = self.state.string_to_action(text)
        except (ValueError, TypeError):
            known = None
        if known is not None:
            message = f"{replays.shown(text)} is not legal here; choose one of the moves listed"
        elif is_number(text):
            message = (
                f"'{text}' is not a move here: the moves are numbered 1 to {len(self.numbered)}"
            )
        else:
            message = f"{replays.shown(text)} is not a move or a command"
        self.console.print(Text(message, style="bold red"))
        if suggestion:
            self.console.print(Text(suggestion, style="yellow"))
        # The moves again, which the board above may have pushed out of sight, and where the
        # longer explanations are: the game's help is a paragraph, too long to repeat each time.
        self._show_menu()
        self.console.print(
            Text(
                "help explains how moves are written; commands: undo, hint, save FILE, board, "
                f"quit; {rules_hint(self.game.name)}",
                style="dim",
            )
        )

    def _undo(self) -> bool:
        if not self.decisions:
            self.console.print(Text("nothing to undo: you have not moved yet", style="yellow"))
            return False
        keep = self.decisions[-1]
        refusal = self._learned_since(keep)
        if refusal is not None:
            self.console.print(Text(f"cannot undo: {refusal} since your move", style="yellow"))
            return False
        self.decisions.pop()
        self.state = self.game.state_from_history(self.state.history()[:keep])
        self.logged = keep
        self.console.print(Text("taken back to your previous move", style="yellow"))
        return True

    def _learned_since(self, keep: int) -> str | None:
        """What the person has learned since history length ``keep`` that a move made again
        would profit from, or None. A chance outcome since (a card drawn or dealt) would be
        known, or drawn anew by undoing; with hidden information, another seat's move shows
        something of its hand, and a move of the person's own may turn cards over."""
        if self.saved_at is not None and keep < self.saved_at:
            return "the saved game shows every hidden card"
        history = self.state.history()
        walker = self.game.state_from_history(history[:keep])
        hidden = self.game.info.information == "imperfect"
        for action in history[keep:]:
            player = walker.current_player()
            if player == CHANCE:
                return "chance has been resolved (a card drawn or dealt)"
            if hidden and player != self.human:
                return "another seat has moved"
            walker.apply_action(action)
        if hidden and reveals(self.game, self.human, history[:keep], history[keep:]):
            return "cards have been revealed to you"
        return None

    def _hint(self) -> None:
        if self.state.is_terminal():
            self.console.print(Text("the game is over", style="yellow"))
            return
        with self.console.status(f"{self.hint_name} is thinking..."):
            action = self.hint_bot().step(self.state)
        text = self.state.action_to_string(action)
        where = f" ({self.numbered.index(action) + 1})" if action in self.numbered else ""
        self.console.print(Text(f"hint: {self.hint_name} would play {text}{where}", style="cyan"))

    def _save(self, path: str) -> None:
        if not path:
            self.console.print(Text("usage: save FILE", style="yellow"))
            return
        data = replays.to_dict(self.state)
        # Who played each seat, so that `rivals play --resume FILE` seats the same bots and the
        # person where they sat: a bot by its name and every parameter, the person as null.
        data["bots"] = [
            None
            if seat == self.human
            else {"name": self.opponents[seat].name, "params": self.opponents[seat].params}
            for seat in range(self.game.num_players)
        ]
        text = json.dumps(data, indent=1, ensure_ascii=False) + "\n"
        try:
            # "x": a saved game never overwrites a file that is already there.
            with open(Path(path), "x", encoding="utf-8") as out:
                out.write(text)
        except FileExistsError:
            self.console.print(
                Text(f"{printable(path)} exists; save to a new file name", style="bold red")
            )
            return
        except OSError as error:
            self.console.print(
                Text(f"cannot save {printable(path)}: {error.strerror}", style="bold red")
            )
            return
        except ValueError:  # a NUL in the name
            self.console.print(
                Text(f"cannot save {printable(path)}: not a file name", style="bold red")
            )
            return
        hidden = self.game.info.information == "imperfect"
        if hidden:
            self.saved_at = len(self.state.history())
        self.console.print(Text(f"saved {printable(path)}", style="green"))
        if self.state.is_terminal():
            return
        if hidden:
            # The file is the whole record: reading it before the end spoils the game.
            self.console.print(
                Text(
                    "it holds every hidden card (the other hands, the face-down cards): open it "
                    "only once the game is over",
                    style="yellow",
                )
            )
        command = f"rivals play --resume {shlex.quote(printable(path))}"
        self.console.print(Text(f"{command} continues this game", style="green"))
