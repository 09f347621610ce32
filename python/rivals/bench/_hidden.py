"""The benchmarks of a game with hidden information: the engine against the pure-Python
reference (random playouts and the resampling that ISMCTS runs once per iteration), state
copies, the ISMCTS search rate and the engine's own arena. Every compared pair is measured in
the same run, alternating, and reported as a median ratio (see bench/README.md)."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import rivals
from rivals import reference

from ._common import Row, Sizes, alternate, positive, timed
from ._rows import Log, arena_row, players_prefix, state_rows, undo_rows, vs_reference


def _positions(histories: Sequence[Sequence[int]]) -> list[list[int]]:
    """Prefixes of the recorded games at a quarter, a half and three quarters of their length:
    the positions a search meets, with the hidden information so far to resample."""
    return [list(h[: len(h) * k // 4]) for h in histories for k in (1, 2, 3)]


@dataclass(frozen=True)
class HiddenInformationBench:
    """One game's table. ``player_counts`` are the configurations of row 1 (None: the game's
    defaults); rows 2-5 use the first. ``ismcts_positions`` caps the positions searched in
    row 4 per mode (long games make each search slow)."""

    name: str
    title: str
    seed: int
    player_counts: tuple[int | None, ...]
    ismcts_iterations: dict[str, int]
    ismcts_positions: dict[str, int] | None = None

    def _make(self, players: int | None) -> tuple[rivals.Game, Any]:
        params = {} if players is None else {"players": players}
        return rivals.make(self.name, **params), reference.make(self.name, **params)

    def _resample_row(self, histories: Sequence[Sequence[int]], sizes: Sizes, log: Log) -> Row:
        game, ref_game = self._make(self.player_counts[0])
        prefixes = _positions(histories)
        cxx_states = [game.state_from_history(p) for p in prefixes]
        ref_states = [ref_game.state_from_history(p) for p in prefixes]
        rng = random.Random(self.seed)
        calls = [
            (k, rng.randrange(game.num_players), rng.randrange(2**32)) for k in range(len(prefixes))
        ]

        def rate(states: Sequence[Any]) -> Callable[[], float]:
            def run() -> float:
                seconds = timed(
                    lambda: [states[k].resample_from_infostate(p, seed) for k, p, seed in calls]
                ).cpu_s
                return len(calls) / positive(seconds)

            return run

        pair = alternate(
            rate(cxx_states),
            rate(ref_states),
            sizes.rounds,
            log,
            "resample_from_infostate, C++ vs reference",
        )
        return Row.of_pair(
            "2",
            players_prefix(self.player_counts[0])
            + "resample_from_infostate: calls/s, C++ / reference",
            pair,
            "cpu",
        )

    def _ismcts_row(self, histories: Sequence[Sequence[int]], sizes: Sizes, log: Log) -> Row:
        """Iterations/s of one ISMCTS search per decision at the recorded mid-game positions."""
        game, _ = self._make(self.player_counts[0])
        iterations = self.ismcts_iterations[sizes.mode]
        states = [
            state
            for state in (game.state_from_history(p) for p in _positions(histories))
            if not state.is_terminal()
            and not state.is_chance_node()
            and len(state.legal_actions()) > 1
        ]
        if self.ismcts_positions is not None:
            states = states[: self.ismcts_positions[sizes.mode]]
        bot = rivals.bots.make("ismcts", game, seed=self.seed, iterations=iterations)
        log(f"ismcts, {iterations} iterations at {len(states)} positions")
        seconds = timed(lambda: [bot.step(state) for state in states]).cpu_s
        return Row(
            "4",
            f"{players_prefix(self.player_counts[0])}ismcts: iterations/s ({iterations} per move)",
            iterations * len(states) / positive(seconds),
            clock="cpu",
        )

    def run(self, sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
        """The rows of the table and the notes printed under it."""
        first, *others = [
            vs_reference(self.name, players, self.seed, sizes, log)
            for players in self.player_counts
        ]
        rows, games, histories = first
        game, _ = self._make(self.player_counts[0])
        batches = [f"{games:,} {players_prefix(self.player_counts[0])}games"] + [
            f"{other[1]:,} {players_prefix(players)}games"
            for players, other in zip(self.player_counts[1:], others)
        ]
        table = [
            *rows,
            *[row for other in others for row in other[0]],
            self._resample_row(histories, sizes, log),
            *state_rows(game, histories[0], sizes, log, "3"),
            *undo_rows(game, max(histories, key=len), sizes, log, "3"),
            self._ismcts_row(histories, sizes, log),
            arena_row(game, games, self.seed, sizes, log, "5"),
        ]
        notes = [
            f"C++ batches: {' and '.join(batches)} (about {sizes.work_s:g} s each, one thread); "
            f"the reference replays {sizes.reference_games} games that play_match(random bots) "
            "recorded in the engine.",
            "Row 2 resamples the hidden cards at a quarter, a half and three quarters of those "
            "games for a random seat, through the Python API in both (a resampled state is rebuilt "
            "from its history); row 4 times one search per decision at the same positions.",
            "rivals and baseline: medians over the rounds; ratio: median of the per-round ratios, "
            "above 1 favours rivals (row 5: play_match over random_playouts).",
        ]
        return table, notes
