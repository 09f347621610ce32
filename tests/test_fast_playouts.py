"""The fast random-playout paths play the engine's games.

Rosenkönig runs its random playouts in a loop of its own (``State::random_playout``, without the
move-by-move hash); a C++ program checks it against the generic loop written out by hand, game by
game. Rosenkönig and Rheinländer pick a random decision without listing the moves
(``random_decision``); another program checks that pick against the list's, decision by decision.
The hand-tuned single-file playout that ``rivals bench rosenkoenig`` measures the engine against
must play the same game too: its lengths and results agree with the engine's within sampling
error, and the check that guards the benchmark does catch a different game.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

import rivals
from rivals.bench import _tuned
from tests.isolated import ROOT, build_cpp_program, run_engine_check


def test_rosenkoenig_own_loop_plays_the_generic_loops_games(tmp_path: Path) -> None:
    program = build_cpp_program(
        tmp_path,
        [ROOT / "tests/cpp/rosenkoenig_playout.cpp", ROOT / "cpp/rivals/rosenkoenig/state.cpp"],
        "rosenkoenig_playout",
        f"-I{ROOT / 'cpp'}",
    )
    done = subprocess.run([str(program), "20000"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.split() == ["ok", "20000"]


def test_random_decision_picks_the_action_the_list_would(tmp_path: Path) -> None:
    # tests/cpp/random_decisions.cpp: at every decision of random games, the same action and the
    # same random numbers as legal_actions() and a uniform pick.
    lines = run_engine_check(tmp_path, "random_decisions", timeout=300)
    games = [line.split(":")[0] for line in lines]
    assert games == ["rosenkoenig 2", "rosenkoenig 4", "rheinlaender 3", "rheinlaender 5"]


def engine_tally(games: int, seed: int, players: int = 2) -> _tuned.Tally:
    results = rivals.make("rosenkoenig", players=players).random_playouts(games, seed=seed)
    tally = _tuned.Tally()
    tally.add_playouts(results)
    return tally


def test_the_hand_tuned_playout_plays_the_engines_game(tmp_path: Path) -> None:
    program = build_cpp_program(tmp_path, [_tuned.SOURCE], "tuned_playout")
    games = 200_000
    out = json.loads(
        subprocess.run(
            [str(program), str(games), "7"], capture_output=True, text=True, check=True
        ).stdout
    )
    assert out["games"] == games and out["red"] + out["white"] + out["draws"] == games
    tuned = _tuned.Tally()
    tuned.add(games, out["plies"], out["plies_squared"], out["red"], out["draws"])
    apart = _tuned.disagreement(engine_tally(games, seed=7), tuned)
    assert max(apart.values()) < _tuned.MAX_Z, apart


def test_the_check_tells_a_different_game_apart() -> None:
    # The four-player game is longer and its results differ: the check must say so.
    apart = _tuned.disagreement(engine_tally(50_000, seed=1), engine_tally(50_000, 2, players=4))
    assert max(apart.values()) > _tuned.MAX_Z, apart
    same = _tuned.disagreement(engine_tally(50_000, seed=1), engine_tally(50_000, seed=2))
    assert max(same.values()) < _tuned.MAX_Z, same


def test_a_failed_build_skips_the_row_and_says_why(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CXX", "false")
    from rivals.bench._common import TINY

    row, note = _tuned.tuned_row(TINY, 1, lambda _: None)
    assert row.note == "skipped" and row.rivals is None
    assert note.startswith("hand-tuned playout row skipped:") and "false" in note
