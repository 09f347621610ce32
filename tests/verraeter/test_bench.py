"""The Verräter benchmark table: every row is printed with finite positive figures (tiny mode)."""

from __future__ import annotations

import contextlib
import io
import math

import pytest

from rivals import bench

LABELS = [
    "4p random playouts: games/s, C++ / reference",
    "4p random playouts: plies/s, C++ / reference",
    "4p plies per game (chance included)",
    "4p decisions per game (no chance)",
    "3p random playouts: games/s, C++ / reference",
    "3p random playouts: plies/s, C++ / reference",
    "3p plies per game (chance included)",
    "3p decisions per game (no chance)",
    "4p resample_from_infostate: calls/s, C++ / reference",
    "state size: bytes (C++ state)",
    "state copy: ns, C++ copy / Python state.clone()",
    "undo after 10 actions: ns, undo / replay from start",
    "undo after 100 actions: ns, undo / replay from start",
    "4p ismcts: iterations/s (50 per move)",
    "arena random x4: games/s, play_match / playouts",
]


def test_every_row_is_printed_with_finite_figures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # wide enough that rich never wraps a label
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert bench.main(["verraeter"], quick=True, tiny=True) == 0
    rows = {}
    for line in buffer.getvalue().splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        if len(cells) == 9 and cells[1].isdigit():
            rows[cells[2]] = cells[3:6]
    assert list(rows) == LABELS
    for label, cells in rows.items():
        for cell in cells:
            if cell != "-":
                figure = float(cell.removesuffix("x").replace(",", ""))
                assert math.isfinite(figure) and figure > 0, (label, cell)
