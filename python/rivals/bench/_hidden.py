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

from ._common import Row, Sizes, alternate, games_for, playout_rate, positive, timed, verdict
from ._loops import decisions_per_game, python_clone_ns, replay_like_playouts

Log = Callable[[str], None]


def _positions(histories: Sequence[Sequence[int]]) -> list[list[int]]:
    """Prefixes of the recorded games at a quarter, a half and three quarters of their length:
    the positions a search meets, with the hidden information so far to resample."""
    return [list(h[: len(h) * k // 4]) for h in histories for k in (1, 2, 3)]


def _reference_state(ref_game: Any, history: Sequence[int]) -> Any:
    state = ref_game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


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

    @staticmethod
    def _prefix(players: int | None) -> str:
        return "" if players is None else f"{players}p "

    def _vs_reference(
        self, players: int | None, sizes: Sizes, log: Log
    ) -> tuple[list[Row], int, list[list[int]]]:
        game, ref_game = self._make(players)
        who = self._prefix(players)
        rate, _ = playout_rate(game, sizes.calibration_games, self.seed + 1)
        games = games_for(rate, sizes.work_s)
        match = game.play_match(
            ["random"] * game.num_players,
            sizes.reference_games,
            seed=self.seed,
            keep_histories=True,
        )
        histories: list[list[int]] = [list(h) for h in match["histories"]]
        ref_plies = sum(len(h) for h in histories) / len(histories)
        cxx_plies = 0.0

        def cxx() -> float:
            nonlocal cxx_plies
            rate, results = playout_rate(game, games, self.seed)
            cxx_plies = float(results["lengths"].mean())
            return rate

        def ref() -> float:
            return len(histories) / positive(
                timed(lambda: replay_like_playouts(ref_game, histories)).cpu_s
            )

        pair = alternate(
            cxx,
            ref,
            sizes.rounds,
            lambda r: log(f"{who}random playouts, C++ vs reference (round {r + 1}/{sizes.rounds})"),
        )
        ratio = pair.ratio()
        rows = [
            Row(
                "1",
                f"{who}random playouts: games/s, C++ / reference",
                pair.a_median,
                pair.b_median,
                ratio,
                "cpu",
                f"≥ 1000x {verdict(ratio >= 1000)}",
                ratio >= 1000,
            ),
            Row(
                "1",
                f"{who}random playouts: plies/s, C++ / reference",
                pair.a_median * cxx_plies,
                pair.b_median * ref_plies,
                ratio * cxx_plies / ref_plies,
                "cpu",
            ),
            Row("1", f"{who}plies per game (chance included)", cxx_plies, ref_plies),
            Row(
                "1",
                f"{who}decisions per game (no chance)",
                decisions_per_game(game, histories),
            ),
        ]
        return rows, games, histories

    def _resample_row(self, histories: Sequence[Sequence[int]], sizes: Sizes, log: Log) -> Row:
        game, ref_game = self._make(self.player_counts[0])
        prefixes = _positions(histories)
        cxx_states = [game.state_from_history(p) for p in prefixes]
        ref_states = [_reference_state(ref_game, p) for p in prefixes]
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
            lambda r: log(
                f"resample_from_infostate, C++ vs reference (round {r + 1}/{sizes.rounds})"
            ),
        )
        return Row(
            "2",
            self._prefix(self.player_counts[0])
            + "resample_from_infostate: calls/s, C++ / reference",
            pair.a_median,
            pair.b_median,
            pair.ratio(),
            "cpu",
        )

    def _state_rows(self, history: list[int], sizes: Sizes, log: Log) -> list[Row]:
        game, _ = self._make(self.player_counts[0])
        state = game.state_from_history(history[: len(history) // 2])
        pair = alternate(
            lambda: game.copy_ns(sizes.copies),
            lambda: python_clone_ns(state, sizes.clones),
            sizes.rounds,
            lambda r: log(f"state copies, C++ vs Python clone() (round {r + 1}/{sizes.rounds})"),
        )
        return [
            Row("3", "state size: bytes (C++ state)", float(game.state_size)),
            Row(
                "3",
                "state copy: ns, C++ copy / Python state.clone()",
                pair.a_median,
                pair.b_median,
                pair.ratio(higher_is_better=False),
                "cpu",
            ),
        ]

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
            f"{self._prefix(self.player_counts[0])}ismcts: iterations/s ({iterations} per move)",
            iterations * len(states) / positive(seconds),
            clock="cpu",
        )

    def _arena_row(self, games: int, sizes: Sizes, log: Log) -> Row:
        game, _ = self._make(self.player_counts[0])

        def arena() -> float:
            seconds = timed(
                lambda: game.play_match(["random"] * game.num_players, games, seed=self.seed)
            ).cpu_s
            return games / positive(seconds)

        def playouts() -> float:
            return playout_rate(game, games, self.seed)[0]

        pair = alternate(
            arena,
            playouts,
            sizes.rounds,
            lambda r: log(f"arena vs random_playouts (round {r + 1}/{sizes.rounds})"),
        )
        ratio = pair.ratio()
        return Row(
            "5",
            f"arena random x{game.num_players}: games/s, play_match / playouts",
            pair.a_median,
            pair.b_median,
            ratio,
            "cpu",
            f"≈ 1x: ≥ 0.8x {verdict(ratio >= 0.8)}",
            ratio >= 0.8,
        )

    def run(self, sizes: Sizes, log: Log) -> tuple[list[Row], list[str]]:
        """The rows of the table and the notes printed under it."""
        first, *others = [self._vs_reference(players, sizes, log) for players in self.player_counts]
        rows, games, histories = first
        batches = [f"{games:,} {self._prefix(self.player_counts[0])}games"] + [
            f"{other[1]:,} {self._prefix(players)}games"
            for players, other in zip(self.player_counts[1:], others)
        ]
        table = [
            *rows,
            *[row for other in others for row in other[0]],
            self._resample_row(histories, sizes, log),
            *self._state_rows(histories[0], sizes, log),
            self._ismcts_row(histories, sizes, log),
            self._arena_row(games, sizes, log),
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
