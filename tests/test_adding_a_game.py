"""docs/architecture.md's "Adding a game", followed to the letter for tic-tac-toe outside the
library (tests/sixth_game/): its rules page, its engine folder cpp/rivals/tictactoe/ with the one
registration line, and its reference. A C++ program built from the folder and the installed
engine plays it by name with the engine's bots, move by move as the reference does; the library's
games stay the five."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

import pytest

import rivals
from tests.isolated import ROOT, build_cpp_program
from tests.sixth_game import reference

GAME = ROOT / "tests" / "sixth_game"
FOLDER = GAME / "cpp" / "rivals" / "tictactoe"
GAMES = 300


@pytest.fixture(scope="module")
def lines(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    from rivals.cmake_dir import cmake_dir

    package = Path(cmake_dir()).parent
    program = build_cpp_program(
        tmp_path_factory.mktemp("tictactoe"),
        [GAME / "main.cpp", *sorted(FOLDER.glob("*.cpp")), package / "lib" / "librivals.a"],
        "tictactoe",
        "-pthread",
        f"-I{GAME / 'cpp'}",
        f"-I{package / 'include'}",
    )
    done = subprocess.run([str(program), str(GAMES)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout.splitlines()


def test_the_folder_is_what_the_recipe_asks_for() -> None:
    assert sorted(p.name for p in FOLDER.iterdir()) == ["game.h", "register.cpp"]
    registration = [
        line
        for line in (FOLDER / "register.cpp").read_text(encoding="utf-8").splitlines()
        if line and not line.startswith(("//", "#include"))
    ]
    assert registration == ["RIVALS_REGISTER_GAME(tictactoe, rivals::tictactoe::TicTacToe);"]
    assert "## Engine encoding" in (GAME / "rules.md").read_text(encoding="utf-8")


def test_the_program_s_registry_has_the_sixth_game_and_the_library_s_the_five(
    lines: list[str],
) -> None:
    assert lines[0].split()[1:] == sorted([*rivals.games(), "tictactoe"])
    assert "tictactoe" not in rivals.games() and len(rivals.games()) == 5


def test_the_engine_plays_it_move_by_move_as_the_reference_does(lines: list[str]) -> None:
    games = [json.loads(line) for line in lines[1 : 1 + GAMES]]
    assert len(games) == GAMES
    outcomes = set()
    for number, played in enumerate(games):
        state = reference.Game().new_initial_state()
        for step in played["steps"]:
            assert state.legal_actions() == step["legal"], number
            assert state.action_to_string(step["action"]) == step["text"], number
            assert state.string_to_action(step["text"]) == step["action"], number
            state.apply_action(step["action"])
        assert state.is_terminal(), number
        assert state.returns() == played["returns"], number
        assert state.to_dict() == played["snapshot"], number
        outcomes.add(tuple(played["returns"]))
    assert outcomes == {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}


def test_the_engine_s_bots_play_it(lines: list[str]) -> None:
    match = re.fullmatch(
        r"mcts against random: 40 games, mean return of mcts ([-+.\d]+)", lines[-4]
    )
    assert match is not None, lines[-4:]
    assert float(match.group(1)) > 0.6


def test_the_registry_refuses_a_bad_name_and_a_taken_one(lines: list[str]) -> None:
    assert lines[-3:] == [
        "refused: a game name is lower-case letters, digits and underscores, not 'Tic Tac'",
        "refused: a game named 'rosenkoenig' is already registered",
        "ok",
    ]


def test_the_reference_refuses_an_illegal_move_as_every_reference_does() -> None:
    state = reference.Game().new_initial_state()
    state.apply_action(4)
    with pytest.raises(ValueError, match=r"tictactoe: action 4 \(r1c1\) is not legal for player 1"):
        state.apply_action(4)
    assert state.history() == [4]
