"""``rivals arena``, ``replay`` and ``render`` as a user runs them: in a subprocess, checking the
exit status, the one line on stderr, and that a record on disk is never changed by a refusal."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import rivals
from tests.corrupt_records import CORRUPTIONS, corrupt

ENV = {**os.environ, "COLUMNS": "120", "NO_COLOR": "1"}
ENV.pop("FORCE_COLOR", None)


def rivals_cli(
    *argv: str, stdin: str = "", timeout: float = 120, env: dict[str, str] | None = ENV
) -> subprocess.CompletedProcess[str]:
    """``rivals *argv`` run to its end (``env`` None: this process's environment)."""
    return subprocess.run(
        [sys.executable, "-m", "rivals.cli", *argv],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=timeout,
        check=False,
    )


def started_writing(argv: list[str], path: Path) -> subprocess.Popen[str]:
    """``rivals *argv`` running, once it has written to ``path`` (killed if it never does)."""
    run = subprocess.Popen(
        [sys.executable, "-m", "rivals.cli", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    try:
        deadline = time.monotonic() + 60
        while not path.exists() or path.stat().st_size == 0:
            assert time.monotonic() < deadline and run.poll() is None
            time.sleep(0.05)
    except BaseException:
        run.kill()
        run.communicate()
        raise
    return run


def killed_after_writing(argv: list[str], path: Path, delay: float) -> bool:
    """Runs ``rivals *argv``, which writes to ``path``, and kills it (SIGKILL) ``delay`` seconds
    after it first writes; whether it was killed (False: it ended first)."""
    size = path.stat().st_size if path.exists() else 0
    run = subprocess.Popen(
        [sys.executable, "-m", "rivals.cli", *argv],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env=ENV,
    )
    while run.poll() is None and (not path.exists() or path.stat().st_size == size):
        time.sleep(0.01)
    time.sleep(delay)
    if run.poll() is not None:
        return False
    run.send_signal(signal.SIGKILL)
    run.wait()
    return True


def one_line_error(result: subprocess.CompletedProcess[str], command: str, *parts: str) -> str:
    """Asserts exit status 2 and a single error line naming ``parts``; returns the line."""
    assert result.returncode == 2, (result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith(f"rivals {command}: error: "), lines[0]
    for part in parts:
        assert part in lines[0], lines[0]
    assert "Traceback" not in result.stderr
    return lines[0]


def rows(out: str) -> dict[str, list[str]]:
    """The results table: label -> its cells."""
    table = {}
    for line in out.splitlines():
        cells = line.split()
        if len(cells) >= 7 and cells[1].isdigit() and cells[2].isdigit():
            table[cells[0]] = cells[1:]
    return table


# A small arena per game: cheap bots, a few games.
SMALL = {
    "battlecards": ["--game-param", "max_turns=40"],
    "rheinlaender": ["--game-param", "max_turns=30"],
    "rosenkoenig": [],
    "sekigahara": [],
    "verraeter": ["--game-param", "rounds=2"],
}


def small_arena(name: str, games: int, out: Path, *extra: str) -> list[str]:
    return [
        "arena",
        name,
        "--bots",
        "mcts,random",
        "--param",
        "mcts.iterations=3",
        "--games",
        str(games),
        "--seed",
        "7",
        "--out",
        str(out),
        *SMALL[name],
        *extra,
    ]


def test_small_arenas_cover_every_game() -> None:
    assert sorted(SMALL) == rivals.games()


@pytest.mark.parametrize("name", sorted(SMALL))
def test_every_game_plays_replays_renders_and_resumes(name: str, tmp_path: Path) -> None:
    whole = tmp_path / "whole.jsonl"
    result = rivals_cli(*small_arena(name, 3, whole))
    assert result.returncode == 0, result.stderr
    table = rows(result.stdout)
    params = {k: json.loads(v) for k, _, v in (a.partition("=") for a in SMALL[name][1::2])}
    players = rivals.make(name, **params).num_players
    assert len(table) == players and all(cells[0] == "3" for cells in table.values())
    assert whole.read_bytes().count(b"\n") == 3

    replayed = rivals_cli("replay", str(whole), "--index", "2")
    assert replayed.returncode == 0, replayed.stderr
    assert "result:" in replayed.stdout
    picture = rivals_cli("render", str(whole), "--index", "1", "--step", "5")
    assert picture.returncode == 0 and picture.stdout.startswith("<svg"), picture.stderr

    part = tmp_path / "part.jsonl"
    assert rivals_cli(*small_arena(name, 1, part)).returncode == 0
    resumed = rivals_cli(*small_arena(name, 3, part, "--resume"))
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_bytes() == whole.read_bytes()
    assert rows(resumed.stdout) == table
    assert "(1 resumed)" in resumed.stdout


# --------------------------------------------------------------------------------------------
# A record is never overwritten, mixed or trusted blindly


def test_an_existing_record_is_refused_unless_resumed_or_forced(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert rivals_cli(*small_arena("rosenkoenig", 4, path)).returncode == 0
    before = path.read_bytes()
    refused = rivals_cli(*small_arena("rosenkoenig", 2, path))
    one_line_error(refused, "arena", str(path), "already holds 4 lines", "--resume", "--force")
    assert path.read_bytes() == before
    forced = rivals_cli(*small_arena("rosenkoenig", 2, path, "--force"))
    assert forced.returncode == 0, forced.stderr
    assert path.read_bytes().count(b"\n") == 2
    both = rivals_cli(*small_arena("rosenkoenig", 2, path, "--force", "--resume"))
    one_line_error(both, "arena", "--resume", "--force")


def test_two_arenas_cannot_write_one_file(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    argv = small_arena("rosenkoenig", 400, path, "--param", "mcts.iterations=100")
    first = started_writing(argv, path)
    try:
        second = rivals_cli(*small_arena("rosenkoenig", 10, path, "--resume"))
        one_line_error(second, "arena", f"{path} is being written by another arena")
        assert f"(pid {first.pid})" in second.stderr
    finally:
        first.send_signal(signal.SIGINT)
        first.communicate(timeout=60)
    assert first.returncode == 130
    for line in path.read_bytes().splitlines():
        rivals.replay.loads(line)


def test_resume_refuses_other_bot_parameters(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    argv = ["arena", "rosenkoenig", "--games", "4", "--out", str(path)]
    assert rivals_cli(*argv, "--param", "mcts.iterations=2", "--games", "2").returncode == 0
    before = path.read_bytes()
    stronger = rivals_cli(*argv, "--param", "mcts.iterations=400", "--resume")
    one_line_error(stronger, "arena", f"{path}:1: other bots", "iterations=2", "iterations=400")
    assert path.read_bytes() == before


@pytest.mark.parametrize("how", [*CORRUPTIONS, "returns too long", "not JSON"])
def test_resume_reports_a_corrupt_game_instead_of_counting_it(how: str, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert rivals_cli(*small_arena("rosenkoenig", 3, path)).returncode == 0
    lines = path.read_bytes().split(b"\n")
    record = json.loads(lines[1])
    corrupt(record, how)
    lines[1] = json.dumps(record).encode() if record else b'{"format": "rivals-replay", "ver'
    path.write_bytes(b"\n".join(lines))
    before = path.read_bytes()
    result = rivals_cli(*small_arena("rosenkoenig", 5, path, "--resume"))
    message = one_line_error(result, "arena", f"{path}:2: corrupt: ")
    assert "numpy" not in message and "Error" not in message
    assert path.read_bytes() == before
    assert result.stdout == ""


# --------------------------------------------------------------------------------------------
# Interrupted, killed, out of space


def test_ctrl_c_keeps_every_finished_game_and_prints_the_table(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    argv = small_arena("rosenkoenig", 300, path, "--param", "mcts.iterations=60")
    run = started_writing(argv, path)
    run.send_signal(signal.SIGINT)
    out, err = run.communicate(timeout=60)
    assert run.returncode == 130, err
    kept = path.read_bytes()
    games = kept.count(b"\n")
    assert kept.endswith(b"\n") and 0 < games < 300
    assert re.search(rf"interrupted after {games} of 300 games", out)
    assert rows(out)["mcts"][0] == str(games)
    assert "Traceback" not in err


def decompressed(path: Path) -> bytes:
    """A log's text, as the arena's reader reads it (a record's lines as they are)."""
    return b"".join(line.data + b"\n" for line in rivals.arena.read_log(path) if line.complete)


@pytest.mark.parametrize("form", ["jsonl", "jsonl.gz", "rec.zst"])
def test_an_arena_killed_at_random_moments_resumes_to_the_same_file(
    form: str, tmp_path: Path
) -> None:
    whole, killed = tmp_path / f"whole.{form}", tmp_path / f"killed.{form}"
    argv = ["--param", "mcts.iterations=200", "--threads", "2"]
    assert rivals_cli(*small_arena("rosenkoenig", 48, whole, *argv)).returncode == 0
    rng = random.Random(13)
    kills = 0
    while kills < 12:
        extra = [*argv, "--resume"] if killed.exists() else argv
        # Once this run has written something, kill it a random moment later: between chunks,
        # while one is being written, or while the resumed file is being checked.
        delay = rng.uniform(0.0, 0.3)
        if not killed_after_writing(small_arena("rosenkoenig", 48, killed, *extra), killed, delay):
            break
        kills += 1
    assert kills >= 3
    final = rivals_cli(*small_arena("rosenkoenig", 48, killed, *argv, "--resume"))
    assert final.returncode == 0, final.stderr
    if form == "jsonl":
        assert killed.read_bytes() == whole.read_bytes()
    else:  # the members differ as the chunks did; what they hold does not
        assert decompressed(killed) == decompressed(whole)
        assert decompressed(whole).count(b"\n") == 48 + form.startswith("rec")


def test_a_full_disk_is_one_line_and_the_table_is_still_printed() -> None:
    result = rivals_cli(
        "arena", "rosenkoenig", "--bots", "random", "--games", "4", "--out", "/dev/full"
    )
    one_line_error(result, "arena", "/dev/full", "No space left on device", "not in the file")
    assert rows(result.stdout)["random"][0] != "0"


# --------------------------------------------------------------------------------------------
# One line on stderr, exit status 2, for every mistake


@pytest.mark.parametrize(
    ("argv", "parts"),
    [
        (["arena", "rosenkoenig", "--seed", str(2**64)], ["--seed", str(2**64)]),
        (["arena", "rosenkoenig", "--seed", "-1"], ["--seed", "from 0 to"]),
        (["arena", "rosenkoenig", "--games", "abc"], ["--games", "'abc'"]),
        (["arena", "rosenkoenig", "--games", "0"], ["--games", "from 1 to"]),
        (["arena", "rosenkoenig", "--games", str(10**10)], ["--games", "1000000000"]),
        (["arena", "rosenkoenig", "--threads", "x"], ["--threads"]),
        (["arena", "rosenkoenig", "--bogus"], ["--bogus"]),
        (["arena", "rosenkoenig", "--bots", "random,random,random"], ["3 bots for 2 seats"]),
        (["arena", "verraeter", "--bots", "random", "--param", "random#5.x=1"], ["random#5"]),
        (
            ["arena", "rosenkoenig", "--game-param", "players=4", "--bots", "a,b,c"],
            ["2 teams of 2 seats"],
        ),
        (["arena", "rosenkoenig", "--resume"], ["--out"]),
        (["replay", "missing.json"], ["missing.json", "no such file"]),
    ],
)
def test_command_line_mistakes(argv: list[str], parts: list[str]) -> None:
    result = rivals_cli(*argv)
    line = one_line_error(result, argv[0], *parts)
    assert "invalid" not in line and "_positive" not in line and "integer(" not in line
    assert "usage:" not in result.stderr


def test_resume_of_a_directory_is_one_line(tmp_path: Path) -> None:
    result = rivals_cli("arena", "rosenkoenig", "--out", str(tmp_path), "--resume")
    one_line_error(result, "arena", str(tmp_path), "directory")


def test_replay_html_player_out_of_range(tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    assert rivals_cli(*small_arena("rosenkoenig", 1, path)).returncode == 0
    page = tmp_path / "page.html"
    result = rivals_cli("replay", str(path), "--html", str(page), "--player", "99")
    one_line_error(result, "replay", "--player 99", "seats 0 to 1")
    assert not page.exists()
    result = rivals_cli("render", str(path), "--player", "2")
    one_line_error(result, "render", "--player 2")


def test_play_with_the_largest_seed() -> None:
    result = rivals_cli(
        "play", "rosenkoenig", "--bot", "random", "--seed", str(2**64 - 1), stdin="quit\n"
    )
    assert result.returncode == 0, result.stderr
    assert f"seed {2**64 - 1}" in result.stdout


def test_time_limited_bots_are_warned_about(tmp_path: Path) -> None:
    result = rivals_cli(
        "arena", "rosenkoenig", "--games", "2", "--param", "mcts.time_s=0.01", "--threads", "2"
    )
    assert result.returncode == 0
    assert "warning: mcts.time_s=0.01 thinks by the clock" in result.stderr
    assert "--resume" in result.stderr
    exact = rivals_cli("arena", "rosenkoenig", "--games", "2", "--param", "mcts.iterations=5")
    assert exact.returncode == 0 and exact.stderr == ""


def test_a_solver_out_of_budget_is_one_line() -> None:
    result = rivals_cli(
        "arena", "sekigahara", "--bots", "solver,random", "--games", "2",
        "--param", "solver.max_contexts=50",
    )  # fmt: skip
    one_line_error(result, "arena", "more than 50 contexts", "no game was finished")


def test_the_command_line_page_quotes_the_refused_pipe(tmp_path: Path) -> None:
    """docs/cli.md, "The replay file": the line an arena writing to a pipe nothing reads ends
    with, as it is printed."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    quoted = re.search(r"`(rivals arena: error: pipe: [^`]*)`", " ".join(page.split()))
    assert quoted, "docs/cli.md quotes the line"
    os.mkfifo(tmp_path / "pipe")
    argv = ["arena", "rosenkoenig", "--games", "2", "--out", "pipe"]
    result = subprocess.run(
        [sys.executable, "-m", "rivals.cli", *argv],
        cwd=tmp_path, capture_output=True, text=True, env=ENV, timeout=120, check=False,
    )  # fmt: skip
    assert one_line_error(result, "arena") == quoted.group(1)


def test_the_bots_page_quotes_the_solver_out_of_time_line() -> None:
    """docs/bots.md, "The `solver`": the line a solver out of time ends the arena with, as it is
    printed (the count of contexts aside)."""
    page = (Path(__file__).resolve().parents[1] / "docs" / "bots.md").read_text(encoding="utf-8")
    text = " ".join(page.split())  # a quote may break across lines of the page
    quoted = re.search(r"`(rivals arena: error: sekigahara solver: out of time [^`]*)`", text)
    assert quoted, "docs/bots.md quotes the line"
    expected = re.escape(quoted.group(1)).replace("6336", r"\d+")
    result = rivals_cli(
        "arena", "sekigahara", "--bots", "solver,random", "--games", "2",
        "--param", "solver.time_s=0.01",
    )  # fmt: skip
    line = one_line_error(result, "arena", "out of time after")
    assert re.fullmatch(expected, line), (expected, line)


# --------------------------------------------------------------------------------------------
# What the table says


def test_one_bot_on_a_two_player_game_is_two_entries() -> None:
    result = rivals_cli("arena", "rosenkoenig", "--bots", "random", "--games", "10")
    table = rows(result.stdout)
    assert set(table) == {"random", "random#2"}
    wins = int(table["random"][1]) + int(table["random#2"][1])
    draws = int(table["random"][2])
    assert wins + draws == 10 and table["random"][1] == table["random#2"][3]


@pytest.mark.parametrize("name", ["verraeter", "rheinlaender"])
def test_free_for_all_games_report_every_seat(name: str) -> None:
    result = rivals_cli("arena", name, "--games", "4", "--param", "mcts.iterations=3", *SMALL[name])
    assert result.returncode == 0, result.stderr
    table = rows(result.stdout)
    players = 4 if name == "verraeter" else 3
    expected = ["mcts", "random", "mcts#2", "random#2"][:players]
    assert list(table) == expected
    assert all(cells[0] == "4" for cells in table.values())
    assert "rank" in result.stdout and "team" not in result.stdout
    ranks = [float(cells[-1]) for cells in table.values()]
    assert all(1 <= rank <= players for rank in ranks)


def test_team_games_report_teams() -> None:
    result = rivals_cli(
        "arena", "rosenkoenig", "--game-param", "players=4", "--games", "4",
        "--param", "mcts.iterations=3",
    )  # fmt: skip
    table = rows(result.stdout)
    assert list(table) == ["mcts", "random"]
    assert "each bot plays a team of 2 seats" in result.stdout
    assert table["mcts"][1] == table["random"][3]


# --------------------------------------------------------------------------------------------
# One reader for replay logs


def test_replay_render_and_resume_read_lines_holding_u2028(tmp_path: Path) -> None:
    cards = tmp_path / "cards\u2028set.json"
    cards.write_bytes((Path(rivals.__file__).parent / "data/sekigahara.json").read_bytes())
    path = tmp_path / "games.jsonl"
    argv = ["arena", "sekigahara", "--bots", "random", "--out", str(path), "--seed", "2"]
    argv += ["--game-param", f"cards={cards}"]
    assert rivals_cli(*argv, "--games", "2").returncode == 0
    # A label with U+2028 as well, which no recording of the game checks.
    lines = path.read_bytes().split(b"\n")
    record = json.loads(lines[0])
    record["arena"]["labels"][0] = "random\u2028one"
    tagged = tmp_path / "tagged.jsonl"
    tagged.write_bytes(json.dumps(record, ensure_ascii=False).encode() + b"\n" + lines[1] + b"\n")
    assert "\u2028".encode() in tagged.read_bytes()
    for command in (
        ["replay", str(tagged), "--index", "1"],
        ["render", str(tagged), "--index", "1"],
    ):
        result = rivals_cli(*command)
        assert result.returncode == 0, result.stderr
    assert "random\u2028one" in rivals_cli("replay", str(tagged)).stdout
    resumed = rivals_cli(*argv, "--games", "3", "--resume")
    assert resumed.returncode == 0, resumed.stderr
    assert path.read_bytes().count(b"\n") == 3


def test_standard_output_that_goes_away_fills_up_or_cannot_encode() -> None:
    command = [sys.executable, "-m", "rivals.cli", "rules", "rosenkoenig", "--plain"]
    # A reader that leaves at once: no traceback, as `| head` expects of a Unix tool.
    reader = subprocess.Popen(["true"], stdin=subprocess.PIPE)
    reader.wait()  # gone before the first write, so that write finds no reader
    gone = subprocess.run(
        command, stdout=reader.stdin, stderr=subprocess.PIPE, env=ENV, check=False
    )
    assert gone.stderr == b"" and gone.returncode == 1
    with open("/dev/full", "w") as full:
        filled = subprocess.run(
            command,
            stdout=full,
            capture_output=False,
            stderr=subprocess.PIPE,
            text=True,
            env=ENV,
            check=False,
        )
    assert filled.returncode == 2
    assert filled.stderr == "rivals rules: error: No space left on device\n"
    # A console that cannot show every character: the rules page as UTF-8, the tables escaped.
    ascii_env = {**ENV, "PYTHONIOENCODING": "ascii"}
    pages = []
    for argv in (["rules", "sekigahara", "--plain"], ["games"]):
        shown = subprocess.run(
            [sys.executable, "-m", "rivals.cli", *argv],
            capture_output=True,
            env=ascii_env,
            check=False,
        )
        assert shown.returncode == 0, shown.stderr
        pages.append(shown.stdout)
    assert "daimyō".encode() in pages[0]
    assert b"Rosenk\\xf6nig" in pages[1]


def test_the_log_is_never_the_file_or_pipe_the_table_goes_to(tmp_path: Path) -> None:
    argv = [sys.executable, "-m", "rivals.cli", "arena", "rosenkoenig", "--bots", "random"]
    argv += ["--games", "2", "--threads", "1", "--out", "/dev/stdout"]
    target = tmp_path / "out.txt"
    with open(target, "w") as stdout:
        done = subprocess.run(argv, stdout=stdout, stderr=subprocess.PIPE, text=True, env=ENV)
    one_line_error(done, "arena", "/dev/stdout is this program's standard output")
    assert target.read_text() == ""
    piped = subprocess.run(argv, capture_output=True, text=True, env=ENV, check=False)
    one_line_error(piped, "arena", "standard output")


def test_a_record_that_standard_error_goes_to_gets_no_error_line(tmp_path: Path) -> None:
    record = tmp_path / "games.jsonl"
    arena = ["arena", "rosenkoenig", "--bots", "random", "--threads", "1"]
    assert rivals_cli(*arena, "--games", "2", "--out", str(record)).returncode == 0
    before = record.read_bytes()
    resume = [sys.executable, "-m", "rivals.cli", *arena, "--games", "4", "--resume"]
    resume += ["--out", str(record)]
    # `2>> games.jsonl`: refused, and the error said on standard output, not into the record.
    with open(record, "ab") as stderr:
        done = subprocess.run(resume, stdout=subprocess.PIPE, stderr=stderr, text=True, env=ENV)
    assert done.returncode == 2
    assert "is this program's standard error" in done.stdout
    assert record.read_bytes() == before
    # Both streams into it: nothing is said, the exit status tells.
    with open(record, "ab") as both:
        done = subprocess.run(resume, stdout=both, stderr=both, env=ENV)
    assert done.returncode == 2 and record.read_bytes() == before
    misspelt = rivals_cli(*resume[3:-1], str(tmp_path / "misspelt.jsonl"))
    assert misspelt.returncode == 0
    assert "(--resume found no games: a new record)" in " ".join(misspelt.stdout.split())
    resumed = rivals_cli(*resume[3:])
    assert resumed.returncode == 0 and "(2 resumed)" in resumed.stdout


def test_threads_and_negative_sprt_bounds_on_the_command_line(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    refused = rivals_cli(
        "arena", "rosenkoenig", "--bots", "random", "--threads", "1000", "--out", str(out)
    )
    one_line_error(refused, "arena", "argument --threads", "from 1 to 256")
    assert not out.exists()
    for name in ("-", ""):
        refused = rivals_cli("arena", "rosenkoenig", "--bots", "random", "--out", name)
        one_line_error(refused, "arena", "argument --out: expected a file name for the replays")
    done = rivals_cli(
        "arena",
        "rosenkoenig",
        "--bots",
        "random",
        "--games",
        "4",
        "--threads",
        "1",
        "--sprt",
        "-1.75,0.25",
    )
    assert done.returncode == 0, done.stderr
    assert "against -1.75 (H0)" in done.stdout


def test_a_narrow_terminal_never_cuts_the_numbers_of_a_table() -> None:
    argv = ["arena", "verraeter", "--bots", "random", "--games", "4", "--threads", "1"]
    wide = rivals_cli(*argv)
    narrow = subprocess.run(
        [sys.executable, "-m", "rivals.cli", *argv],
        capture_output=True,
        text=True,
        env={**ENV, "COLUMNS": "40"},
        check=False,
    )
    assert narrow.returncode == 0, narrow.stderr
    assert rows(narrow.stdout) == rows(wide.stdout)
    for cells in rows(narrow.stdout).values():  # the return and the mean rank, whole
        assert re.fullmatch(r"[+-]\d\.\d{3}", cells[-2]) and re.fullmatch(r"\d\.\d\d", cells[-1])
    games = subprocess.run(
        [sys.executable, "-m", "rivals.cli", "games"],
        capture_output=True,
        text=True,
        env={**ENV, "COLUMNS": "10"},
        check=False,
    )
    assert "rosenkoenig" in games.stdout and "sekigahara" in games.stdout
