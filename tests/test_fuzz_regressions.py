"""Every input a fuzz harness ever failed on (fuzz/regressions/<harness>/) and each harness's seed
inputs, run through the harness's one-input function, so the bugs found stay fixed. The libFuzzer
harnesses' inputs (fuzz/regressions/cpp_*) are replayed by scripts/fuzz.sh, which builds them."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from types import ModuleType

import pytest
from fuzz._common import read_pin, take_pick, write_pin

import rivals

ROOT = Path(__file__).resolve().parent.parent
FUZZ = ROOT / "fuzz"
REGRESSIONS = FUZZ / "regressions"
HARNESSES = sorted(path.stem[len("fuzz_") :] for path in FUZZ.glob("fuzz_*.py"))
CPP_HARNESSES = sorted(path.stem[len("fuzz_") :] for path in (FUZZ / "cpp").glob("fuzz_*.cpp"))


def harness(name: str) -> ModuleType:
    return importlib.import_module(f"fuzz.fuzz_{name}")


def stored_inputs() -> list[tuple[str, Path]]:
    return [
        (name, path)
        for name in HARNESSES
        if (REGRESSIONS / name).is_dir()
        for path in sorted((REGRESSIONS / name).iterdir())
    ]


def test_every_regression_folder_belongs_to_a_harness() -> None:
    known = set(HARNESSES) | {f"cpp_{name}" for name in CPP_HARNESSES}
    folders = {path.name for path in REGRESSIONS.iterdir() if path.is_dir()}
    assert folders <= known, f"no harness for {sorted(folders - known)}"
    assert HARNESSES, "no atheris harness found in fuzz/"


def test_the_fuzzing_page_lists_every_harness() -> None:
    """docs/fuzzing.md: a row of "What each harness checks" per harness, and the long run's length
    for that many harnesses at bench/fuzz_long.sh's default."""
    page = (ROOT / "docs" / "fuzzing.md").read_text(encoding="utf-8")
    table = page.split("## What each harness checks", 1)[1].split("\n\n", 2)[1]
    rows = re.findall(r"^\| `(\w+)` \(", table, flags=re.MULTILINE)
    every = set(HARNESSES) | {f"cpp_{name}" for name in CPP_HARNESSES}
    assert sorted(rows) == sorted(every)
    script = (ROOT / "bench" / "fuzz_long.sh").read_text(encoding="utf-8")
    default = re.search(r"^seconds=(\d+)$", script, flags=re.MULTILINE)
    assert default, "bench/fuzz_long.sh has a default time per harness"
    seconds = int(default.group(1))
    long_run = re.search(r"bench/fuzz_long\.sh .*# (.*)", page)
    assert long_run, "the page shows the long run"
    minutes = round(seconds * len(every) / 60)
    assert f"{seconds} s per harness" in long_run.group(1)
    assert f"({len(every)} harnesses: about {minutes} minutes)" in long_run.group(1)


@pytest.mark.parametrize(
    ("name", "path"), stored_inputs(), ids=[f"{n}/{p.name}" for n, p in stored_inputs()]
)
def test_stored_input_passes_on_the_game_it_names(name: str, path: Path) -> None:
    raw = path.read_bytes()
    take_pick()
    harness(name).one_input(raw)
    picked = take_pick()
    # Without its header an input would pick its game by an index into a list that grows.
    assert read_pin(raw)[0] == (picked or None), (
        f"{path.name} picks {picked} by index: store it with fuzz/store.py"
    )


def test_a_pin_outlives_new_games() -> None:
    """The header keeps an input on its game when the list the choice byte indexes changes."""
    raw = (REGRESSIONS / "strings" / "text-lone-surrogate").read_bytes()
    pin, body = read_pin(raw)
    assert pin is not None and pin["game"] == "verraeter"
    for first in range(256):
        take_pick()
        harness("strings").one_input(write_pin(pin, bytes([first]) + body[1:]))
        assert take_pick() == pin
    mangled = raw.replace(b'"verraeter"', b'"no-such-game"')
    take_pick()
    harness("strings").one_input(mangled)
    assert take_pick()["game"] != "no-such-game", "a pin naming no game falls back to the bytes"


@pytest.mark.parametrize("name", HARNESSES)
def test_seed_inputs_pass(name: str) -> None:
    module = harness(name)
    seeds = module.seeds()
    assert seeds, f"fuzz_{name} has no seed inputs"
    for seed in seeds:
        module.one_input(seed)


@pytest.mark.parametrize("name", HARNESSES)
def test_any_bytes_decode(name: str) -> None:
    """Short, empty and all-0xFF inputs reach the checks too: a harness never fails on its own."""
    module = harness(name)
    for raw in (b"", b"\x00", b"\xff" * 64, bytes(range(256))):
        module.one_input(raw)


@pytest.mark.parametrize("name", rivals.games())
def test_found_edge_values_raise_value_error(name: str) -> None:
    """The bindings bugs the harnesses found, spelled out: each of these once raised TypeError,
    RuntimeError or UnicodeDecodeError instead of a ValueError naming the value."""
    state = rivals.make(name).new_initial_state()
    for method in ("observation_string", "information_state_string", "observation_tensor"):
        with pytest.raises(ValueError, match=f"player {2**40} is not a seat"):
            getattr(state, method)(2**40)
    with pytest.raises(ValueError, match=f"player {-(2**70)} is not a seat"):
        state.resample_from_infostate(-(2**70), 0)
    for seed in (-1, 2**64):
        with pytest.raises(ValueError, match=f"seed must be .*got {seed}"):
            state.resample_from_infostate(0, seed)
    state.resample_from_infostate(0, 2**64 - 1)
    with pytest.raises(ValueError, match="action text: text is not valid Unicode"):
        state.string_to_action("NE\udc80")
    with pytest.raises(ValueError, match="game name: text is not valid Unicode"):
        rivals.make(name + "\udc80")
    with pytest.raises(ValueError, match="params: text is not valid Unicode"):
        rivals.make(name, **{"\udc80": 1})
    game = state.game
    with pytest.raises(ValueError, match="bot name: text is not valid Unicode"):
        rivals.bots.make("random\udc80", game)
    with pytest.raises(ValueError, match="a bot is a name or"):
        game.play_match([7] * game.num_players, 1)
    with pytest.raises(ValueError, match="game name: text is not valid Unicode"):
        rivals.VectorEnv(name + "\udc80", 1)


def test_data_file_bytes_that_are_not_utf8_are_refused_at_load(tmp_path: Path) -> None:
    """A data file with bytes that are not UTF-8 (here an encoded surrogate in a key) is refused
    when it is read, with the place named and the bytes not echoed (nor the code point)."""
    path = tmp_path / "cards.json"
    path.write_bytes(b'{"format": "rivals-sekigahara-cards", "version": 1, "\xed\xb3\x81": 1}')
    with pytest.raises(
        ValueError, match="line 1, column 54: a lone surrogate: text must be"
    ) as raised:
        rivals.make("sekigahara", cards=str(path))
    assert type(raised.value) is ValueError
    assert "\\xed" not in str(raised.value) and "DCC1" not in str(raised.value)
