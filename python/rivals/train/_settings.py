"""A training run's settings (``Settings``: what decides its result, checked, as its folder's
settings.json holds them) and the error of a run that cannot start or go on."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from rivals import network
from rivals._core import Game, make_game

SETTINGS_FILE = "settings.json"


class TrainingError(ValueError):
    """A run that cannot start or go on: a folder holding another run, a setting out of range."""


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run's result.

    ``bot`` (a bot or preset of the game) plays the self-play games with ``bot_params`` at
    ``iterations`` per move (never by the clock, so runs repeat); from the second generation on
    it reads the last network, valuing positions with it unless ``net_params`` names another
    ``evaluation`` (a bot whose prior is the network's policy may value them by the game's own
    evaluation), with ``net_params`` on top. The first
    ``random_decisions`` decisions of each game are uniformly random, so games differ. The network
    has the ``hidden`` layers and learns from the last ``window`` generations' positions for
    ``epochs`` passes; its target is the game's result for the seat, mixed with the mover's search
    value by ``value_mix`` (0: the result alone). Besides the compact observation it reads the
    game's own ``evaluations`` (None: all of them), which compute exactly what a small network
    could only approximate (Rosenkönig's score by flood fill). With ``policy`` it also learns a
    policy head, by cross-entropy, from the share of each move in the searches' visits, which a
    search can use as its prior (mcts's ``policy_weight``)."""

    game: str
    game_params: Mapping[str, Any] = field(default_factory=dict)
    seed: int = 0
    generations: int = 4
    games: int = 200
    iterations: int = 800
    bot: str = "best"
    bot_params: Mapping[str, Any] = field(default_factory=dict)
    net_params: Mapping[str, Any] = field(default_factory=lambda: {"rollout_depth": 0})
    random_decisions: int = 6
    hidden: tuple[int, ...] = (64, 32)
    epochs: int = 3
    batch_size: int = 256
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    window: int = 3
    value_mix: float = 0.0
    evaluations: tuple[str, ...] | None = None
    policy: bool = False

    def __post_init__(self) -> None:
        checks: list[tuple[str, bool, str]] = [
            ("generations", 1 <= self.generations <= 1000, "1-1000"),
            ("games", 2 <= self.games <= 1_000_000, "2-1000000"),
            ("iterations", 1 <= self.iterations <= 10_000_000, "1-10000000"),
            ("random_decisions", 0 <= self.random_decisions <= 10_000, "0-10000"),
            ("epochs", 1 <= self.epochs <= 1000, "1-1000"),
            ("batch_size", 1 <= self.batch_size <= 1 << 20, "1-1048576"),
            ("learning_rate", 0 < self.learning_rate <= 1, "above 0, at most 1"),
            ("weight_decay", 0 <= self.weight_decay <= 1, "0-1"),
            ("window", 1 <= self.window <= 1000, "1-1000"),
            ("value_mix", 0 <= self.value_mix <= 1, "0-1"),
            ("seed", 0 <= self.seed < 1 << 64, "0 to 2**64 - 1"),
        ]
        for name, ok, accepted in checks:
            if not ok:
                raise TrainingError(f"{name} must be {accepted}, got {getattr(self, name)!r}")
        widths = self.hidden
        if not 1 <= len(widths) <= network.MAX_LAYERS or not all(
            1 <= w <= network.MAX_WIDTH for w in widths
        ):
            raise TrainingError(
                f"hidden must be 1 to {network.MAX_LAYERS} layer widths of 1 to "
                f"{network.MAX_WIDTH}, got {list(widths)}"
            )
        for name, taken in (
            ("bot_params", {"evaluation", "network", "time_s", "iterations", "solve_s"}),
            ("net_params", {"network", "time_s", "iterations", "solve_s"}),
        ):
            reserved = taken & set(getattr(self, name))
            if reserved:
                raise TrainingError(
                    f"{name} may not set {sorted(reserved)[0]!r}: the training sets it"
                )

    def to_json(self) -> dict[str, Any]:
        values = asdict(self)
        values["hidden"] = list(self.hidden)
        if self.evaluations is not None:
            values["evaluations"] = list(self.evaluations)
        return values

    @classmethod
    def from_json(cls, values: Mapping[str, Any]) -> Settings:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise TrainingError(f"{SETTINGS_FILE}: unknown setting {unknown[0]!r}")
        given = dict(values)
        for key in ("hidden", "evaluations"):
            if given.get(key) is not None:
                given[key] = tuple(given[key])
        return cls(**given)

    def make_game(self) -> Game:
        return make_game(self.game, dict(self.game_params))

    def policy_actions(self) -> int | None:
        """The decisions a policy head scores, or None without one."""
        return self.make_game().num_distinct_actions if self.policy else None

    def evaluation_names(self, game: Game) -> tuple[str, ...]:
        """The game's own evaluations the network reads."""
        own = tuple(name for name in game.info.evaluations if name != "net")
        if self.evaluations is None:
            return own
        unknown = [name for name in self.evaluations if name not in own]
        if unknown:
            raise TrainingError(
                f"evaluations: {self.game} has no evaluation {unknown[0]!r} (its own: "
                f"{', '.join(own)})"
            )
        return self.evaluations

    def self_play_bot(self, previous: Path | None) -> tuple[str, dict[str, Any]]:
        """The bot spec of a generation: the configured bot, by iterations and never by the clock
        (an endgame solver's time limit, ``solve_s``, is off), valuing positions with the network
        at ``previous`` (None for the first generation)."""
        params: dict[str, Any] = {**self.bot_params, "time_s": 0, "iterations": self.iterations}
        accepted = make_game(self.game, dict(self.game_params)).make_bot(self.bot, params).params
        if "solve_s" in accepted:
            params["solve_s"] = None
        if previous is not None:
            params.update(evaluation="net")
            params.update(self.net_params)
            params.update(network=str(previous))
        return self.bot, params
