"""A person at the terminal against bots: the play screen of ``rivals play``."""

from __future__ import annotations

import random
import sys
from collections.abc import Callable
from pathlib import Path
from typing import IO

from rich.console import Console
from rich.text import Text

from rivals import replay as replays
from rivals._core import Bot, Game
from rivals.render import player_label, render, result_text

__all__ = ["PLAY_HELP", "PlaySession"]

PLAY_HELP = (
    "type a move (its text or its number), or: undo (back to your previous move), "
    "hint (ask mcts), save FILE (write a replay), board, help, quit"
)


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
        stdin: IO[str],
    ) -> None:
        self.console = console
        self.game = game
        self.human = human
        self.opponents = opponents
        self.names = names
        self.hint_bot = hint_bot
        self.rng = random.Random(seed)
        self.stdin = stdin
        self.state = game.new_initial_state()
        # History lengths at the human's earlier decisions: what `undo` returns to.
        self.decisions: list[int] = []
        self.pending_chance: list[str] = []

    def run(self) -> int:
        while True:
            self._advance()
            self._show()
            if not self._command_loop():
                return 0

    def _advance(self) -> None:
        """Plays chance and the bots until the human is to move or the game is over."""
        state = self.state
        while not state.is_terminal() and state.current_player() != self.human:
            player = state.current_player()
            if state.is_chance_node():
                actions, weights = zip(*state.chance_outcomes())
                action = self.rng.choices(actions, weights=weights)[0]
                self.pending_chance.append(state.action_to_string(action))
            else:
                self._flush_chance()
                bot = self.opponents[player]
                with self.console.status(f"{player_label(state, player)} is thinking..."):
                    action = bot.step(state)
                line = Text("  ")
                line.append(f"{player_label(state, player)} {self.names[player]}", "bold")
                line.append(f": {state.action_to_string(action)}")
                self.console.print(line)
            state.apply_action(action)
        self._flush_chance()

    def _flush_chance(self) -> None:
        if self.pending_chance:
            self.console.print(Text(f"  chance: {', '.join(self.pending_chance)}", style="dim"))
            self.pending_chance = []

    def _show(self) -> None:
        self.console.print()
        self.console.print(render(self.state, self.names))
        if self.state.is_terminal():
            self.console.print(Text(f"game over: {result_text(self.state)}", style="bold"))
            self.console.print(Text("undo, save FILE or quit", style="dim"))
            return
        moves = Text("moves: ")
        for number, action in enumerate(self.state.legal_actions(), start=1):
            moves.append(f"{number}", "bold cyan")
            moves.append(f" {self.state.action_to_string(action)}   ")
        self.console.print(moves)

    def _read(self) -> str | None:
        prompt = "game over> " if self.state.is_terminal() else "your move> "
        self.console.print(Text(prompt, style="bold"), end="")
        if self.stdin is sys.stdin and self.stdin.isatty():
            # input() brings line editing and history at a real terminal.
            try:
                line = input() + "\n"
            except EOFError:
                line = ""
        else:
            line = self.stdin.readline()
        if not line:
            self.console.print()
            return None
        if not self.stdin.isatty():
            # Piped input is not echoed by the terminal; echo it so a transcript reads naturally.
            self.console.print(Text(line.rstrip("\n")))
        return " ".join(line.split())

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
                line = Text("  ")
                line.append(f"{player_label(self.state, self.human)} you", "bold")
                line.append(f": {self.state.action_to_string(action)}")
                self.console.print(line)
                self.decisions.append(len(self.state.history()))
                self.state.apply_action(action)
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
                self._show()
            elif word in ("help", "?"):
                self.console.print(Text(PLAY_HELP))
            else:
                self._reject(text)

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
        if text.isdigit() and 1 <= int(text) <= len(legal):
            return legal[int(text) - 1]
        return None

    def _reject(self, text: str) -> None:
        if self.state.is_terminal():
            message = f"the game is over; {text!r} is not a command (undo, save FILE or quit)"
        else:
            try:
                known = self.state.string_to_action(text)
            except (ValueError, TypeError):
                known = None
            if known is not None:
                message = f"{text!r} is not legal here; choose one of the moves listed"
            else:
                message = f"{text!r} is not a move or a command; type help"
        self.console.print(Text(message, style="bold red"))

    def _undo(self) -> bool:
        if not self.decisions:
            self.console.print(Text("nothing to undo: you have not moved yet", style="yellow"))
            return False
        keep = self.decisions.pop()
        self.state = self.game.state_from_history(self.state.history()[:keep])
        self.console.print(Text("taken back to your previous move", style="yellow"))
        return True

    def _hint(self) -> None:
        if self.state.is_terminal():
            self.console.print(Text("the game is over", style="yellow"))
            return
        with self.console.status("mcts is thinking..."):
            action = self.hint_bot().step(self.state)
        number = self.state.legal_actions().index(action) + 1
        text = self.state.action_to_string(action)
        self.console.print(Text(f"hint: mcts would play {text} ({number})", style="cyan"))

    def _save(self, path: str) -> None:
        if not path:
            self.console.print(Text("usage: save FILE", style="yellow"))
            return
        try:
            Path(path).write_text(replays.dumps(self.state, indent=1) + "\n", encoding="utf-8")
        except OSError as error:
            self.console.print(Text(f"cannot save {path}: {error.strerror}", style="bold red"))
            return
        self.console.print(Text(f"saved {path}", style="green"))
