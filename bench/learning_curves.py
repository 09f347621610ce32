"""The learning curves of training runs as one SVG picture: each run's loss on held-out games
against the time the run had spent (self-play and training), one panel per run. Each generation
is a segment of its own: its held-out games are new (played by the last network), so a segment
starts from the last network's loss on them and falls as the generation trains.

    python bench/learning_curves.py runs/rosenkoenig runs/sekigahara --out docs/learning-curves.svg

A run is the folder of ``rivals train``; its ``train.log`` says when each generation's self-play
ended and, after each epoch, the network's loss on the generation's held-out games.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass, field
from html import escape
from pathlib import Path

from rivals import files

GENERATION = re.compile(
    r"generation (\d+): \d+ positions of \d+ games in ([\d.]+) s, trained in ([\d.]+) s; .*?"
    r"validation_loss ([\d.]+)(?:, validation_loss_before ([\d.]+))?"
)
EPOCH = re.compile(r"generation (\d+) epoch (\d+): validation_loss ([\d.]+) after ([\d.]+) s")
STARTED = re.compile(r"(started|resumed): (\w+)")


@dataclass
class Curve:
    game: str
    # A list of (minutes, loss) per generation.
    segments: list[list[tuple[float, float]]] = field(default_factory=list)
    generations: list[float] = field(default_factory=list)  # minutes at each generation's end

    @property
    def points(self) -> list[tuple[float, float]]:
        return [point for segment in self.segments for point in segment]


def read(folder: Path) -> Curve:
    """The curve of a run from its log: a point per epoch (or per generation, for a log that
    names no epochs)."""
    lines = (folder / "train.log").read_text(encoding="utf-8").splitlines()
    game = next((m.group(2) for line in lines if (m := STARTED.search(line))), folder.name)
    curve = Curve(game)
    elapsed = 0.0
    epochs: list[tuple[float, float]] = []
    for line in lines:
        if (m := EPOCH.search(line)) is not None:
            epochs.append((float(m.group(4)), float(m.group(3))))
        elif (m := GENERATION.search(line)) is not None:
            played, trained, loss = float(m.group(2)), float(m.group(3)), float(m.group(4))
            segment = [] if m.group(5) is None else [((elapsed + played) / 60, float(m.group(5)))]
            if epochs:
                segment += [((elapsed + played + t) / 60, value) for t, value in epochs]
            else:
                segment.append(((elapsed + played + trained) / 60, loss))
            curve.segments.append(segment)
            elapsed += played + trained
            curve.generations.append(elapsed / 60)
            epochs = []
    if not curve.points:
        raise SystemExit(f"{folder}: its train.log records no finished generation")
    return curve


def svg(curves: list[Curve]) -> str:
    width, height, pad = 300, 220, 56
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width * len(curves)}" '
        f'height="{height}" font-family="sans-serif" font-size="11">',
        f'<rect width="{width * len(curves)}" height="{height}" fill="white"/>',
    ]
    for k, curve in enumerate(curves):
        x0 = k * width + pad
        right, top, bottom = x0 + width - pad - 10, 28, height - 36
        span = max(m for m, _ in curve.points) * 1.05 or 1.0
        losses = [loss for _, loss in curve.points]
        low, high = min(losses) * 0.95, max(losses) * 1.05 + 1e-9

        def x(minutes: float) -> float:
            return x0 + (right - x0) * minutes / span  # noqa: B023

        def y(loss: float) -> float:
            return bottom - (bottom - top) * (loss - low) / (high - low)  # noqa: B023

        out.append(
            f'<text x="{x0 + (right - x0) / 2}" y="16" text-anchor="middle" '
            f'font-weight="bold">{escape(curve.game)}</text>'
        )
        out.append(
            f'<line x1="{x0}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#444"/>'
            f'<line x1="{x0}" y1="{top}" x2="{x0}" y2="{bottom}" stroke="#444"/>'
        )
        for minutes in curve.generations:
            out.append(
                f'<line x1="{x(minutes):.1f}" y1="{top}" x2="{x(minutes):.1f}" y2="{bottom}" '
                'stroke="#ccc" stroke-dasharray="3,3"/>'
            )
        for value in (low, (low + high) / 2, high):
            out.append(
                f'<text x="{x0 - 4}" y="{y(value) + 4:.1f}" text-anchor="end">{value:.3f}</text>'
            )
        out.append(
            f'<text x="{right}" y="{bottom + 14}" text-anchor="end">{span:.0f} min</text>'
            f'<text x="{x0}" y="{bottom + 14}">0</text>'
            f'<text x="{x0 + (right - x0) / 2}" y="{height - 6}" text-anchor="middle">'
            "minutes of self-play and training</text>"
            f'<text x="{x0 - 34}" y="{(top + bottom) / 2}" text-anchor="middle" '
            f'transform="rotate(-90 {x0 - 34} {(top + bottom) / 2})">loss on held-out games</text>'
        )
        for segment in curve.segments:
            path = " ".join(f"{x(m):.1f},{y(v):.1f}" for m, v in segment)
            out.append(f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>')
        out += [
            f'<circle cx="{x(m):.1f}" cy="{y(v):.1f}" r="2.5" fill="#1f5fa8"/>'
            for m, v in curve.points
        ]
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("runs", nargs="+", type=Path, help="folders of rivals train")
    parser.add_argument("--out", required=True, help="the SVG file to write")
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args()
    files.write_new(args.out, svg([read(folder) for folder in args.runs]), force=args.force)


if __name__ == "__main__":
    main()
