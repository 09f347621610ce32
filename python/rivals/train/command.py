"""``rivals train GAME --out DIR``: a training run from the command line (docs/learning.md)."""

from __future__ import annotations

import argparse
import importlib
import os
import time
from typing import Any

from rich.console import Console
from rich.progress import TextColumn, TimeElapsedColumn, TimeRemainingColumn

import rivals
from rivals import _ray, train
from rivals.cli._common import progress_bars

# The options that set a number of the run's Settings (the setting named as the option, with
# underscores): an integer's bounds (None: a float, which Settings checks) and the help.
_NUMBERS: tuple[tuple[str, tuple[int, int] | None, str | None], ...] = (
    ("--generations", (1, 1000), None),
    ("--games", (2, 1_000_000), "self-play games per generation (default %(default)s)"),
    (
        "--iterations",
        (1, 10_000_000),
        "the self-play bot's iterations per move (default %(default)s)",
    ),
    ("--random-decisions", (0, 10_000), "decisions played at random at the start of each game"),
    ("--epochs", (1, 1000), None),
    ("--batch-size", (1, 1 << 20), None),
    ("--learning-rate", None, None),
    ("--weight-decay", None, None),
    ("--window", (1, 1000), "generations of positions each network learns from"),
    ("--value-mix", None, "share of the search's value in the target (0: the game's result)"),
)


def _setting(option: str) -> str:
    return option.removeprefix("--").replace("-", "_")


def add_parser(commands: Any, handler: Any, seed: Any, integer: Any, game_params: Any) -> None:
    """``rivals train``'s options, run by ``handler`` (rivals.cli's, which reads the KEY=VALUE
    options and words the errors)."""
    defaults = train.Settings("")
    sub = commands.add_parser(
        "train",
        help="train a value network by self-play (needs the train extra)",
        description="Self-play in C++, then a network fitted with JAX; every generation's "
        "positions and network are kept in --out, and --resume continues a killed run.",
    )
    sub.add_argument("game", help="a game name (see rivals games)")
    sub.add_argument("--out", required=True, help="the run's folder (new or empty, or --resume)")
    sub.add_argument("--resume", action="store_true", help="continue the run in --out")
    game_params(sub)
    sub.add_argument("--seed", type=seed, default=defaults.seed)
    for option, bounds, text in _NUMBERS:
        kind = float if bounds is None else integer(*bounds)
        sub.add_argument(option, type=kind, default=getattr(defaults, _setting(option)), help=text)
    sub.add_argument(
        "--bot", default=defaults.bot, help=f"the self-play bot or preset (default {defaults.bot})"
    )
    sub.add_argument(
        "--bot-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the self-play bot (repeatable)",
    )
    sub.add_argument(
        "--net-param",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="a parameter of the bot once it has a network (repeatable; default rollout_depth=0)",
    )
    sub.add_argument(
        "--hidden",
        default=",".join(map(str, defaults.hidden)),
        help="hidden layer widths (default %(default)s)",
    )
    sub.add_argument(
        "--policy",
        action="store_true",
        help="also learn a policy head from the searches' visits (mcts's policy_weight uses it)",
    )
    sub.add_argument(
        "--threads",
        type=integer(1, 256),
        default=os.cpu_count() or 1,
        help="self-play threads (default: every core); with --backend ray, each task's",
    )
    _ray.add_options(sub, "self-play")
    sub.set_defaults(handler=handler)


def run(
    args: argparse.Namespace,
    console: Console,
    game_params: dict[str, Any],
    bot_params: dict[str, Any],
    net_params: dict[str, Any],
) -> int:
    """The run ``args`` ask for, with the KEY=VALUE options already read. A bad setting raises
    ``ValueError``, a missing JAX ``ImportError``, both before any game is played."""
    try:
        hidden = tuple(int(width) for width in args.hidden.split(","))
    except ValueError:
        raise ValueError(f"--hidden {args.hidden!r}: expected widths like 64,32") from None
    game = rivals.make(args.game, **game_params)
    numbers = {_setting(option): getattr(args, _setting(option)) for option, _, _ in _NUMBERS}
    settings = train.Settings(
        game.name,
        game_params=game_params,
        seed=args.seed,
        bot=args.bot,
        bot_params=bot_params,
        net_params=net_params if net_params else train.Settings("").net_params,
        hidden=hidden,
        policy=args.policy,
        **numbers,
    )
    game.make_bot(*settings.self_play_bot(None))
    # Without JAX the run stops here, before anything is written.
    importlib.import_module("rivals.train._model")

    with _Bars(console, settings.generations) as bars:
        result = train.train(
            settings,
            args.out,
            threads=args.threads,
            resume=args.resume,
            progress=bars,
            backend=args.backend,
            ray_address=args.ray_address,
        )
    console.print(f"network: {result}", soft_wrap=True, markup=False)
    return 0


class _Bars(train.Progress):
    """The run's progress as a bar per phase, with the loss and the rate."""

    def __init__(self, console: Console, generations: int) -> None:
        self.console = console
        self.generations = generations
        self.bars = progress_bars(
            TextColumn("{task.fields[unit]}"),
            TextColumn("{task.fields[rate]}"),
            TextColumn("{task.fields[loss]}"),
            TimeElapsedColumn(),
            TimeRemainingColumn(),
        )
        self.task: Any = None
        self.started = 0.0
        self.done = 0

    def __enter__(self) -> _Bars:
        self.bars.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bars.stop()

    def phase(self, generation: int, name: str, total: int) -> None:
        if self.task is not None:
            self.bars.remove_task(self.task)
        unit = "games" if name == "self-play" else "positions"
        description = f"generation {generation + 1}/{self.generations} {name}"
        self.task = self.bars.add_task(description, total=total, unit=unit, rate="", loss="")
        self.started = time.perf_counter()
        self.done = 0

    def advance(self, done: int, loss: float | None = None) -> None:
        self.done += done
        elapsed = max(time.perf_counter() - self.started, 1e-9)
        shown = f"loss {loss:.4f}" if loss is not None else ""
        self.bars.update(self.task, advance=done, rate=f"{self.done / elapsed:,.0f}/s", loss=shown)

    def log(self, line: str) -> None:
        # Standard output, which the bars' display (on standard error) keeps above itself.
        self.console.print(line, soft_wrap=True, markup=False)
