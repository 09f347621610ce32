"""The command line, run in-process: arena, bench, games and what docs/cli.md shows of them
(``rivals play`` and ``rules``: test_cli_play.py; ``replay`` and ``render``: test_cli_replay.py)."""

from __future__ import annotations

import contextlib
import io
import json
import re
import shlex
from pathlib import Path

import pytest

import rivals
from rivals import cli, replay, stats
from rivals import tournament as tournaments

Capture = pytest.CaptureFixture[str]


@pytest.fixture(autouse=True)
def plain_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    """Wide, colourless output, whatever the environment running the tests asks for."""
    monkeypatch.setenv("COLUMNS", "120")
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.setenv("NO_COLOR", "1")


def run(capsys: Capture, *argv: str) -> tuple[int, str, str]:
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def table_rows(out: str, labels: list[str]) -> dict[str, tuple[int, int, int, int]]:
    """games, wins, draws, losses of each bot, read back from the results table."""
    rows = {}
    for label in labels:
        pattern = rf"^\s*{re.escape(label)}\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s"
        match = re.search(pattern, out, flags=re.MULTILINE)
        assert match, f"no row for {label} in:\n{out}"
        games, wins, draws, losses = (int(x) for x in match.groups())
        rows[label] = (games, wins, draws, losses)
    return rows


# --------------------------------------------------------------------------------------------
# arena


def test_arena_random_bots(capsys: Capture) -> None:
    status, out, _ = run(
        capsys, "arena", "rosenkoenig", "--bots", "random,random", "--games", "12", "--threads", "1"
    )
    assert status == 0
    rows = table_rows(out, ["random", "random#2"])
    (games_a, wins_a, draws_a, losses_a), (games_b, wins_b, draws_b, losses_b) = rows.values()
    assert games_a == games_b == 12
    assert wins_a + draws_a + losses_a == 12
    assert (wins_a, draws_a, losses_a) == (losses_b, draws_b, wins_b)
    assert "games/s" in out and "mean length" in out


def test_arena_mcts_writes_replays_that_match_the_table(capsys: Capture, tmp_path: Path) -> None:
    path = tmp_path / "games.jsonl"
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--bots",
        "mcts,random",
        "--games",
        "8",
        "--param",
        "mcts.iterations=50",
        "--threads",
        "2",
        "--out",
        str(path),
    )
    assert status == 0
    rows = table_rows(out, ["mcts", "random"])
    assert rows["mcts"][0] == rows["random"][0] == 8
    assert rows["mcts"][1] + rows["random"][1] + rows["mcts"][2] == 8
    assert "iterations=50" in out

    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 8
    wins = {"mcts": 0, "random": 0}
    for index, line in enumerate(lines):
        data = json.loads(line)
        state = replay.loads(line)  # checks every move and the recorded result
        assert state.is_terminal()
        assert state.returns() == data["result"]["returns"]
        assert data["arena"]["index"] == index
        assert data["arena"]["seed"] == 0
        full = rivals.bots.make("mcts", state.game, 0, iterations=50).params
        mcts = {"name": "mcts", "params": full}
        random_bot = {"name": "random", "params": {}}
        seats = [mcts, random_bot] if index % 2 == 0 else [random_bot, mcts]
        assert data["bots"] == seats
        assert data["arena"]["labels"] == [bot["name"] for bot in seats]
        for seat, bot in enumerate(data["arena"]["labels"]):
            if state.returns()[seat] > 0:
                wins[bot] += 1
    assert wins == {"mcts": rows["mcts"][1], "random": rows["random"][1]}


def test_arena_is_independent_of_threads_and_chunks(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = ["arena", "rosenkoenig", "--bots", "mcts,random", "--games", "6", "--seed", "11"]
    common += ["--param", "mcts.iterations=30"]
    outputs = []
    for threads in ("1", "2"):
        path = tmp_path / f"t{threads}.jsonl"
        status, out, _ = run(capsys, *common, "--threads", threads, "--out", str(path))
        assert status == 0
        outputs.append((table_rows(out, ["mcts", "random"]), path.read_bytes()))
    # Chunks of one game each (the chunk size follows the time per chunk) change nothing either.
    monkeypatch.setattr(rivals.arena.backends, "CHUNK_SECONDS", 0.0)
    path = tmp_path / "chunked.jsonl"
    status, out, _ = run(capsys, *common, "--threads", "1", "--out", str(path))
    outputs.append((table_rows(out, ["mcts", "random"]), path.read_bytes()))
    assert outputs[0] == outputs[1] == outputs[2]

    # The arena's games are play_match's, in duplicate pairs (chance_group 2) by default.
    game = rivals.make("rosenkoenig")
    direct = game.play_match(
        [("mcts", {"iterations": 30}), "random"], 6, seed=11, keep_histories=True, chance_group=2
    )
    recorded = [json.loads(line) for line in outputs[0][1].decode().splitlines()]
    assert [[e["action"] for e in r["actions"]] for r in recorded] == direct["histories"]
    path = tmp_path / "unpaired.jsonl"
    status, _, _ = run(capsys, *common, "--unpaired", "--out", str(path))
    assert status == 0
    unpaired = game.play_match(
        [("mcts", {"iterations": 30}), "random"], 6, seed=11, keep_histories=True
    )
    recorded = [json.loads(line) for line in path.read_text().splitlines()]
    assert [[e["action"] for e in r["actions"]] for r in recorded] == unpaired["histories"]


def test_arena_four_players_in_teams(capsys: Capture) -> None:
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--game-param",
        "players=4",
        "--bots",
        "mcts,random",
        "--param",
        "mcts.iterations=20",
        "--games",
        "6",
    )
    assert status == 0
    assert "players=4" in out
    rows = table_rows(out, ["mcts", "random"])
    for games, wins, draws, losses in rows.values():
        assert games == 6 and wins + draws + losses == 6
    assert rows["mcts"][1] == rows["random"][3]
    assert "both sides" not in out


def interrupt_after_first_chunk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C arrives while the second chunk is being written."""
    append = rivals.arena.ReplayLog.append
    calls = []

    def append_then_interrupt(log: rivals.arena.ReplayLog, text: str) -> None:
        calls.append(1)
        if len(calls) > 1:
            raise KeyboardInterrupt
        append(log, text)

    monkeypatch.setattr(rivals.arena.ReplayLog, "append", append_then_interrupt)


def test_arena_resume_finishes_exactly_like_an_uninterrupted_run(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    common = ["arena", "rosenkoenig", "--bots", "mcts,random", "--games", "9", "--seed", "4"]
    common += ["--param", "mcts.iterations=20", "--threads", "2"]
    whole = tmp_path / "whole.jsonl"
    status, whole_out, _ = run(capsys, *common, "--out", str(whole))
    assert status == 0

    cut = tmp_path / "cut.jsonl"
    with monkeypatch.context() as patch:
        interrupt_after_first_chunk(patch)
        status, _, _ = run(capsys, *common, "--out", str(cut))
    assert status == 130
    written = cut.read_bytes()
    assert 0 < written.count(b"\n") < 9
    # A write cut off mid-line leaves a partial last line: resume drops it.
    cut.write_bytes(written + b'{"format": "rivals-re')
    status, resumed_out, _ = run(capsys, *common, "--out", str(cut), "--resume")
    assert status == 0
    assert cut.read_bytes() == whole.read_bytes()
    rows = ["mcts", "random"]
    assert table_rows(resumed_out, rows) == table_rows(whole_out, rows)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (["--seed", "5"], "seed 4, not 5"),
        (["--bots", "random,mcts"], "other bots"),
        (["--game-param", "players=4"], "other parameters"),
    ],
)
def test_arena_resume_refuses_another_arena(
    capsys: Capture, tmp_path: Path, change: list[str], message: str
) -> None:
    path = tmp_path / "a.jsonl"
    base = ["arena", "rosenkoenig", "--games", "2", "--param", "mcts.iterations=5"]
    status, _, _ = run(capsys, *base, "--seed", "4", "--bots", "mcts,random", "--out", str(path))
    assert status == 0
    argv = {"--seed": "4", "--bots": "mcts,random"}
    argv.update(dict(zip(change[::2], change[1::2])))
    flat = [item for pair in argv.items() for item in pair if pair[0] != "--game-param"]
    if "--game-param" in argv:
        flat += ["--game-param", argv["--game-param"]]
    status, _, err = run(capsys, *base, *flat, "--out", str(path), "--resume")
    assert status == 2
    assert message in err


def test_arena_resume_needs_out(capsys: Capture) -> None:
    status, _, err = run(capsys, "arena", "rosenkoenig", "--games", "1", "--resume")
    assert status == 2
    assert "--out" in err


def test_arena_interrupted_leaves_whole_lines(
    capsys: Capture, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    interrupt_after_first_chunk(monkeypatch)
    path = tmp_path / "cut.jsonl"
    status, out, _ = run(
        capsys,
        "arena",
        "rosenkoenig",
        "--bots",
        "random,random",
        "--games",
        "50",
        "--threads",
        "2",
        "--out",
        str(path),
    )
    assert status == 130
    assert "interrupted after 2 of 50 games" in out
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 2
    for line in lines:
        replay.loads(line)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--bots", "nosuchbot"], "nosuchbot"),
        (["--bots", "mcts,,random"], "--bots"),
        (["--bots", "random", "--param", "mcts.iterations=5"], "no bot 'mcts'"),
        (["--bots", "mcts", "--param", "iterations=5"], "BOT.KEY=VALUE"),
        (["--bots", "mcts", "--param", "mcts.bogus=1"], "bogus"),
        (["--bots", "random,random,random"], "3 bots for 2 seats"),
        (["--bots", "random", "random", "random"], "3 bots for 2 seats"),
        (["--bots", "random,", "random"], "expected names separated by spaces or commas"),
        # A byte that is not UTF-8 in an argument comes as a lone surrogate.
        (["--bots", "random", "r\udcff"], "--bots: the name of bots[1] must be 1 to 100 char"),
        (["--game-param", "players=3"], "players"),
        (["--game-param", "players"], "KEY=VALUE"),
    ],
)
def test_arena_errors(capsys: Capture, argv: list[str], message: str) -> None:
    status, _, err = run(capsys, "arena", "rosenkoenig", "--games", "1", *argv)
    assert status == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("command", ["arena", "tournament"])
def test_arena_and_tournament_take_bots_apart_or_joined_by_commas(
    capsys: Capture, tmp_path: Path, command: str
) -> None:
    """``--bots mcts random``, ``--bots mcts,random`` and a mix are one lineup, for both."""
    outputs, records = [], []
    for index, bots in enumerate(
        (["mcts", "random", "mcts"], ["mcts,random,mcts"], ["mcts,random", "mcts"])
    ):
        out = tmp_path / f"{index}.jsonl"
        game = "verraeter" if command == "arena" else "rosenkoenig"  # two sides for a tournament
        argv = [command, game, "--bots", *bots, "--games", "2", "--threads", "1", "--out", str(out)]
        status, printed, err = run(capsys, *argv, "--param", "mcts.iterations=5")
        assert status == 0, err
        outputs.append(printed_lines(printed.replace(str(out), "OUT")))
        records.append(out.read_bytes())
    assert outputs[0] == outputs[1] == outputs[2]
    assert records[0] == records[1] == records[2]
    assert "mcts#2: mcts with iterations=5" in outputs[0]


def test_unknown_game(capsys: Capture) -> None:
    status, _, err = run(capsys, "arena", "chess", "--games", "1")
    assert status == 2 and "chess" in err


# --------------------------------------------------------------------------------------------
# games, version, bench


def test_games(capsys: Capture) -> None:
    status, out, _ = run(capsys, "games")
    assert status == 0
    assert re.search(r"rosenkoenig\s+2, 4\s+\S", out)
    for name in rivals.games():
        assert name in out


def test_version(capsys: Capture) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"rivals {rivals.__version__}"


def test_no_command_prints_help(capsys: Capture) -> None:
    assert cli.main([]) == 2
    assert "arena" in capsys.readouterr().out


def test_bench_calls_rivals_bench(capsys: Capture, monkeypatch: pytest.MonkeyPatch) -> None:
    from rivals import bench

    calls: list[tuple[list[str], bool, bool]] = []

    def fake(games: list[str], quick: bool, markdown_page: bool = False) -> int:
        calls.append((games, quick, markdown_page))
        return 0

    monkeypatch.setattr(bench, "main", fake)
    assert cli.main(["bench", "rosenkoenig", "--quick"]) == 0
    assert cli.main(["bench"]) == 0
    assert cli.main(["bench", "scale"]) == 0
    assert cli.main(["bench", "sekigahara", "--markdown"]) == 0
    assert calls == [
        (["rosenkoenig"], True, False),
        (rivals.games(), False, False),
        (["scale"], False, False),
        (["sekigahara"], False, True),
    ]
    status, _, err = run(capsys, "bench", "chess")
    assert status == 2 and "chess" in err


# A command of docs/cli.md and, right below it, what it prints.
PRINTED = re.compile(
    r"```sh\n(rivals (?:arena|tournament) (?:[^\n]*\\\n)*[^\n]*)\n```\n\n```\n(.*?)```\n", re.DOTALL
)


def printed_lines(text: str) -> list[str]:
    """The lines of a command's output as the page can show them: blank lines and the machine's
    speed (games per second, seconds, threads) aside."""
    lines = []
    for line in text.splitlines():
        line = re.sub(r"[\d.,]+ games/s", "N games/s", line.rstrip())
        line = re.sub(r"[\d.,]+ s( on \d+ threads?)?(?=[;,]|$)", "T", line)
        if line:
            lines.append(line)
    return lines


def test_the_command_line_page_shows_what_arena_and_tournament_print(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """docs/cli.md: the output shown below each `rivals arena` or `rivals tournament` command is
    what the command prints (bots by iterations: the same on any machine), and so is the game of
    the first arena's file that `rivals replay` shows."""
    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    samples = PRINTED.findall(page)
    assert len(samples) >= 3, "the arena, free-for-all and tournament examples"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    for command, shown in samples:
        argv = shlex.split(command.replace("\\\n", " "))
        assert cli.main(argv[1:]) == 0, command
        printed = capsys.readouterr().out
        assert printed_lines(printed) == printed_lines(shown), command
    # A game of the first arena's file, move by move; "..." stands for lines left out.
    replayed = re.search(
        r"```sh\n(rivals replay games\.jsonl [^\n]*)\n```\n\n```\n(.*?)```", page, re.S
    )
    assert replayed, "the page shows a game of that file replayed"
    assert cli.main(shlex.split(replayed.group(1))[1:]) == 0
    printed = printed_lines(capsys.readouterr().out)
    at, skipping = 0, False
    for line in printed_lines(replayed.group(2)):
        if line.strip() == "...":
            skipping = True
            continue
        found = printed.index(line, at) if skipping else at
        assert printed[found] == line, (line, printed[found])
        at, skipping = found + 1, False


def test_the_command_line_page_names_every_benchmark_that_is_not_a_game() -> None:
    """docs/cli.md, "rivals bench": besides the games, every name `rivals bench` takes."""
    from rivals import bench

    page = (Path(__file__).parents[1] / "docs" / "cli.md").read_text(encoding="utf-8")
    section = page.split("## `rivals bench`", 1)[1].split("\n## ", 1)[0]
    others = sorted(set(bench.games()) - set(rivals.games()))
    assert others, "scale and learning are benchmarks of their own"
    for name in others:
        assert f"`{name}`" in section, name


def test_bench_help_names_every_benchmark_that_is_not_a_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from rivals import bench

    with pytest.raises(SystemExit):
        cli.main(["bench", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    for name in sorted(set(bench.games()) - set(rivals.games())):
        assert f"{name} (" in shown, name


def test_rules_and_pictures_go_to_a_redirected_standard_output() -> None:
    # A caller may put a text stream in stdout's place, which has no bytes underneath.
    caught = io.StringIO()
    with contextlib.redirect_stdout(caught):
        assert cli.main(["rules", "rosenkoenig", "--plain"]) == 0
    assert caught.getvalue().startswith("# Rosenk")


def test_a_few_games_get_no_interval_and_an_sprt_a_wider_one(
    capsys: Capture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two pairs of random play, each split 1-1, said "Elo +0 (-17 to +17)"; a Sekigahara pair
    lost twice, "swept (<= -408)"."""
    monkeypatch.setenv("COLUMNS", "200")
    status, out, _ = run(capsys, "arena", "rosenkoenig", "--bots", "random,random", "--games", "4")
    assert status == 0
    assert (
        "random vs random#2: Elo +0 (too few games for a 95% interval), 2 duplicate pairs "
        "0-0-2-0-0" in out
    )
    status, out, _ = run(capsys, "arena", "sekigahara", "--bots", "random,random", "--games", "2")
    assert status == 0 and "Elo swept (too few games for a 95% interval), 1 duplicate" in out
    argv = ["arena", "rosenkoenig", "--bots", "random,mcts", "--param", "mcts.iterations=20"]
    status, out, _ = run(capsys, *argv, "--games", "400", "--sprt", "0,150")
    assert status == 0
    line = next(line for line in out.splitlines() if line.startswith("random vs mcts: Elo "))
    assert "at 95% after the SPRT" in line
    pairs = [int(n) for n in line.split(" duplicate pairs ")[1].split()[0].split("-")]
    after = stats.elo_estimate(pairs, sequential=True)
    assert tournaments.elo_text(after) in line
    assert tournaments.elo_text(stats.elo_estimate(pairs)) not in line
