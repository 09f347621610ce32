"""The benchmark command's table: every row is there with finite positive figures.

Runs the quick mode shrunk to tiny sizes (a second or two) without the pyspiel comparison.
Speeds are never asserted: they depend on the machine.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import math
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rivals
from rivals import bench
from rivals.bench._common import FULL, QUICK, TINY, alternate, choose_sizes

ROSENKOENIG_LABELS = [
    "2p random playouts: games/s, C++ / reference",
    "2p random playouts: plies/s, C++ / reference",
    "2p plies per game (chance included)",
    "2p decisions per game (no chance)",
    "4p random playouts: games/s, C++ / reference",
    "4p random playouts: plies/s, C++ / reference",
    "4p plies per game (chance included)",
    "4p decisions per game (no chance)",
    "Python loop via bindings: plies/s, rivals / pyspiel connect_four",
    "2p random playouts: games/s, 2 threads / 1 thread",
    "state size: bytes (C++ state)",
    "state copy: ns, C++ copy / Python state.clone()",
    "undo after 10 actions: ns, undo / replay from start",
    "undo after 100 actions: ns, undo / replay from start",
    "arena random vs random: games/s, play_match / playouts",
    "2p random playouts: games/s, engine / hand-tuned single-file playout",
]


def number(cell: str) -> float:
    return float(cell.removesuffix("x").replace(",", ""))


def table_rows(out: str) -> dict[str, list[str]]:
    """Measurement label -> the other cells (rivals, baseline, ratio, clock, target)."""
    rows = {}
    for line in out.splitlines():
        cells = [cell.strip() for cell in line.split("│")]
        # A data line: "", "#", label, rivals, baseline, ratio, clock, target, "".
        if len(cells) == 9 and cells[1].isdigit():
            rows[cells[2]] = cells[3:8]
    return rows


@pytest.fixture(scope="module")
def tiny_output() -> str:
    mp = pytest.MonkeyPatch()
    # Wide enough that rich neither wraps nor truncates a label.
    mp.setenv("COLUMNS", "250")
    # capsys is function-scoped and the run is shared by the tests below, so capture by hand.
    buffer = io.StringIO()
    try:
        with contextlib.redirect_stdout(buffer):
            status = bench.main(["rosenkoenig"], quick=True, tiny=True)
    finally:
        mp.undo()
    assert status == 0
    return buffer.getvalue()


def test_every_row_is_printed(tiny_output: str) -> None:
    rows = table_rows(tiny_output)
    for label in ROSENKOENIG_LABELS:
        assert label in rows, f"missing row {label!r} in:\n{tiny_output}"
    assert set(rows) == set(ROSENKOENIG_LABELS)


def test_figures_are_finite_and_positive(tiny_output: str) -> None:
    for label, (ours, baseline, ratio, _clock, _target) in table_rows(tiny_output).items():
        figures = [number(ours)]
        if baseline not in ("-", "skipped"):
            figures.append(number(baseline))
        if ratio != "-":
            assert ratio.endswith("x"), (label, ratio)
            figures.append(number(ratio))
        for value in figures:
            assert math.isfinite(value) and value > 0, (label, value)


def test_compared_rows_have_a_baseline_and_ratio(tiny_output: str) -> None:
    rows = table_rows(tiny_output)
    for label in ROSENKOENIG_LABELS:
        _ours, baseline, ratio, _clock, _target = rows[label]
        if "per game" in label or "size" in label:
            continue
        if "pyspiel" in label:
            # Tiny mode leaves the OpenSpiel comparison out and says so.
            assert baseline == "skipped" and ratio == "-"
            assert "pyspiel row skipped" in tiny_output
            continue
        assert baseline != "-" and ratio != "-", label


def test_alternate_swaps_the_order_every_round_and_tells_each_round() -> None:
    calls: list[str] = []
    said: list[str] = []

    def a() -> float:
        calls.append("a")
        return 2.0

    def b() -> float:
        calls.append("b")
        return 1.0

    pair = alternate(a, b, 3, said.append, "a vs b")
    assert calls == ["a", "b", "b", "a", "a", "b"]
    assert said == ["a vs b (round 1/3)", "a vs b (round 2/3)", "a vs b (round 3/3)"]
    assert pair.ratio() == 2.0


def test_unknown_game_is_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench.main(["no-such-game"], quick=True, tiny=True) == 2
    assert "rosenkoenig" in capsys.readouterr().err


def test_a_game_without_benchmarks_is_noted(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # The command line passes every engine game when none is named, benchmarked or not.
    monkeypatch.setattr(bench, "game_names", lambda: ["rosenkoenig", "later-game"])
    assert bench.main(["later-game"], quick=True, tiny=True) == 1
    assert "no benchmarks yet for later-game" in capsys.readouterr().err


def test_sizes_follow_arguments_then_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RIVALS_BENCH_TINY", raising=False)
    monkeypatch.delenv("RIVALS_BENCH_PYSPIEL", raising=False)
    assert choose_sizes(False, None, None) == FULL
    assert choose_sizes(True, None, None) == QUICK
    assert choose_sizes(True, True, None) == TINY
    assert not TINY.pyspiel and FULL.pyspiel
    monkeypatch.setenv("RIVALS_BENCH_TINY", "1")
    monkeypatch.setenv("RIVALS_BENCH_PYSPIEL", "0")
    sizes = choose_sizes(False, None, None)
    assert sizes.mode == "tiny" and not sizes.pyspiel
    assert choose_sizes(False, False, True) == FULL


def says_whether_met(target: str, baseline: str) -> bool:
    """Whether every clause of a target cell ends in its verdict (a row not measured says so)."""
    if baseline == "skipped":
        return target.endswith(": not measured")
    return all(clause.split()[-1] in ("ok", "missed") for clause in target.split(";"))


def test_every_target_says_whether_it_was_met(tiny_output: str) -> None:
    targets = {
        label: (target, baseline)
        for label, (_ours, baseline, _ratio, _clock, target) in table_rows(tiny_output).items()
        if target
    }
    assert len(targets) >= 5
    for label, (target, baseline) in targets.items():
        assert says_whether_met(target, baseline), (label, target)
    # The notes say how long the table took and how busy the machine was meanwhile.
    assert re.search(
        r"took \d+ s, load average [\d.]+ at the start and [\d.]+ at the end", tiny_output
    )


def test_scale_rows_cover_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert bench.main(["scale"], quick=True, tiny=True) == 0
    text = buffer.getvalue()
    rows = table_rows(text)
    for name in rivals.games():
        _ours, baseline, _ratio, clock, target = rows[
            f"{name}: env steps/s, VectorEnv(256) / Python loop"
        ]
        # Both sides by the process's CPU time, and the target says whether it was met.
        assert clock == "cpu" and says_whether_met(target, baseline), (name, target)
        assert f"{name}: search iterations/s (one move)" in rows


def test_the_state_copy_row_reads_the_thread_s_cpu_clock_on_both_sides(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A clock that advances one second a reading: each side is one second of the calls it made.
    (The C++ side was game.copy_ns()'s own wall-clock figure: on a loaded machine the ratio came
    out 2.8x and 6.2x for what is about 15x by CPU time.)"""
    from rivals.bench import _loops, _rows

    game = rivals.make("rosenkoenig")
    history = game.play_match(["random", "random"], 1, seed=0, keep_histories=True)["histories"][0]
    ticks = iter(range(1000))
    monkeypatch.setattr(_loops.time, "thread_time", lambda: float(next(ticks)))
    _size, copy = _rows.state_rows(game, list(history), TINY, lambda _: None, "4")
    assert copy.rivals == pytest.approx(1e9 / TINY.copies)
    assert copy.baseline == pytest.approx(1e9 / TINY.clones)
    assert copy.ratio == pytest.approx(TINY.copies / TINY.clones)


@pytest.mark.parametrize("name", ["battlecards", "rheinlaender", "sekigahara"])
def test_every_game_prints_its_table(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert bench.main([name], quick=True, tiny=True) == 0
    text = buffer.getvalue()
    assert "random playouts: games/s, C++ / reference" in text
    assert "state copy: ns, C++ copy / Python state.clone()" in text
    assert "undo after 10 actions: ns, undo / replay from start" in text
    assert "games/s, play_match / playouts" in text


def test_the_undo_rows_stop_where_the_recorded_game_ends() -> None:
    from rivals.bench import _rows

    game = rivals.make("rosenkoenig")
    history = game.play_match(["random", "random"], 1, seed=0, keep_histories=True)["histories"][0]
    assert 100 <= len(history) < 1000
    rows = _rows.undo_rows(game, list(history), TINY, lambda _: None, "4")
    assert [row.label for row in rows] == [
        "undo after 10 actions: ns, undo / replay from start",
        "undo after 100 actions: ns, undo / replay from start",
    ]
    for row in rows:
        assert row.rivals is not None and row.baseline is not None and row.ratio is not None
        assert row.rivals > 0 and row.baseline > 0 and row.ratio > 0 and row.clock == "cpu"
    with pytest.raises(ValueError, match=r"undos must be an int 1\.\.3"):
        game.undo_ns(list(history[:3]), undos=4)


def test_learning_rows_cover_every_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert bench.main(["learning"], quick=True, tiny=True) == 0
    rows = table_rows(buffer.getvalue())
    labels = [label for label in rows if label.endswith("/ Python loop")]
    assert sorted(label.split(":")[0] for label in labels) == rivals.games()
    for name in rivals.games():
        assert f"{name}: env steps/s, compact / planes" in rows
    for label, (ours, baseline, ratio, clock, _target) in rows.items():
        # The ratio is the median of the rounds' ratios, not the ratio of the medians.
        assert number(ours) > 0 and number(baseline) > 0 and number(ratio) > 0, label
        assert math.isfinite(number(ratio)) and clock == "cpu", label


def test_the_pyspiel_row_uses_this_environment_or_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The benchmark installs nothing: with pyspiel missing, the row is skipped with the reason,
    and nothing appears in the folder it runs from."""
    from rivals.bench import _pyspiel

    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_pyspiel.importlib.util, "find_spec", lambda name: None)
    reason = _pyspiel.find_pyspiel()
    assert isinstance(reason, str) and "open-spiel is not installed" in reason
    assert list(tmp_path.iterdir()) == []
    monkeypatch.undo()
    found = _pyspiel.find_pyspiel()
    if importlib.util.find_spec("pyspiel") is not None:
        assert isinstance(found, _pyspiel.Pyspiel) and found.python == Path(sys.executable)
        assert _pyspiel.loop_plies_per_s(found, "tic_tac_toe", 0.05, 1) > 0


def test_strength_refuses_an_out_that_is_not_a_folder(tmp_path: Path) -> None:
    # A file there is a record of something else: one line, no traceback, nothing written.
    taken = tmp_path / "taken"
    taken.write_text("earlier results\n", encoding="utf-8")
    script = Path(__file__).resolve().parents[1] / "bench" / "strength.py"
    result = subprocess.run(
        [sys.executable, str(script), "--out", str(taken), "--games", "2"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2
    assert f"--out {taken} is not a folder" in result.stderr
    assert "Traceback" not in result.stderr
    assert taken.read_text(encoding="utf-8") == "earlier results\n"


BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.mark.parametrize(
    ("script", "argv", "said"),
    [
        ("strength.py", ["--games", "-1"], "argument --games: expected an integer >= 2"),
        ("strength.py", ["--threads", "0"], "argument --threads: expected an integer from 1"),
        ("duplicate_interval.py", ["--seeds", "0"], "argument --seeds: expected an integer >= 1"),
        ("soak.py", ["--count", "-5", "rosenkoenig"], "argument --count"),
        ("soak.py", ["--count", "10", "chess"], "unknown game 'chess'"),
        ("sekigahara_solver.py", ["--games", "-1"], "argument --games"),
        ("arena_memory.py", ["--threads", "0"], "argument --threads"),
        ("records.py", ["--games", "5"], "argument --games: expected an integer >= 100"),
    ],
)
def test_bench_scripts_refuse_bad_arguments_in_one_line(
    script: str, argv: list[str], said: str
) -> None:
    result = subprocess.run(
        [sys.executable, str(BENCH / script), *argv], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 2, result.stderr
    assert said in result.stderr and "Traceback" not in result.stderr


def test_a_bench_script_stops_on_ctrl_c_without_a_traceback() -> None:
    child = subprocess.Popen(
        [sys.executable, str(BENCH / "soak.py"), "--count", "100000000", "rosenkoenig"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(3)
    child.send_signal(signal.SIGINT)
    _, stderr = child.communicate(timeout=60)
    assert child.returncode == 130, stderr
    assert "Traceback" not in stderr


def test_the_bots_page_accounts_for_every_pairing_of_the_interval_script() -> None:
    """docs/bots-results.md, "What duplicate pairs buy": a row for each pairing of
    bench/duplicate_interval.py, or a word that it is not in the table."""
    root = Path(__file__).resolve().parents[1]
    spec = importlib.util.spec_from_file_location(
        "duplicate_interval", root / "bench" / "duplicate_interval.py"
    )
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    page = (root / "docs" / "bots-results.md").read_text(encoding="utf-8")
    section = page.split("### What duplicate pairs buy", 1)[1].split("\n- ", 1)[0]
    titles = {
        rivals.make(name).info.long_name.split()[0].strip(":"): name for name in rivals.games()
    }
    told = {
        f"{titles[title]}/{bot}"
        for title, bot in re.findall(r"(\w+)(?:'s?)?,? `(\w+)`", " ".join(section.split()))
        if title in titles
    }
    assert told == set(script.PAIRINGS)


HEADER_LINES = ("- Command: `rivals bench ", "- Run: started ", "- Machine: ", "- Load average: ")


def test_the_markdown_page_is_one_run_with_its_date_machine_and_load() -> None:
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        status = bench.main(["sekigahara"], quick=True, tiny=True, markdown_page=True)
    assert status == 0
    page = buffer.getvalue()
    lines = page.splitlines()
    assert lines[0] == "# Benchmarks: measured figures"
    for start in HEADER_LINES:
        assert sum(line.startswith(start) for line in lines) == 1, (start, page)
    assert re.search(r"- Run: started \d{4}-\d\d-\d\d \d\d:\d\d UTC, ended \d{4}-\d\d-\d\d", page)
    assert "## Sekigahara benchmarks (tiny mode)" in lines
    rows = [line.split(" | ") for line in lines if re.match(r"\| \d+ \| ", line)]
    assert len(rows) >= 7 and all(len(row) == 7 for row in rows)
    assert rows[0][1] == "random playouts: games/s, C++ / reference"
    assert number(rows[0][2]) > 0


def test_the_benchmarks_page_is_what_the_command_wrote() -> None:
    """docs/benchmarks.md is written whole by ``rivals bench --markdown``: its tables are those of
    the one run its header dates, never figures of another time beside them."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "benchmarks.md").read_text("utf-8")
    lines = page.splitlines()
    assert lines[0] == "# Benchmarks: measured figures"
    for start in HEADER_LINES:
        assert sum(line.startswith(start) for line in lines) == 1, start
    titles = [line for line in lines if line.startswith("## ")]
    assert titles and all(title.endswith(" mode)") for title in titles), titles


def test_threads_rows_cover_every_game_and_every_threaded_place(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        assert bench.main(["threads"], quick=True, tiny=True) == 0
    rows = table_rows(buffer.getvalue())
    places = ["random playouts", "arena of small searches", "VectorEnv(256)"]
    places.append("root-parallel search")
    for name in rivals.games():
        for place in places:
            matching = [label for label in rows if label.startswith(f"{name}: {place}, ")]
            assert len(matching) == 1, (name, place, list(rows))
            _ours, baseline, _ratio, clock, target = rows[matching[0]]
            # Scaling is a wall-clock figure: by CPU time two threads never look faster.
            assert clock == "wall" and says_whether_met(target, baseline), (name, place, target)
            assert target.startswith("≥ "), target
    assert len(rows) == len(places) * len(rivals.games())
