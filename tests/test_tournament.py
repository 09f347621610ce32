"""rivals.tournament and ``rivals tournament`` / ``rivals arena --sprt`` as a user runs them."""

from __future__ import annotations

import errno
import json
import os
import pickle
import re
import stat
import threading
from copy import deepcopy
from html import escape as html_escape
from pathlib import Path
from typing import Any

import pytest

import rivals
from rivals import arena, files, stats, tournament
from tests.test_arena_cli import killed_after_writing, one_line_error, rivals_cli

BOTS = [("mcts", {"iterations": 20}), ("mcts", {"iterations": 4}), "random"]


def test_a_pairing_writes_exactly_its_arena_s_lines(tmp_path: Path) -> None:
    game = rivals.make("sekigahara")
    out = tmp_path / "t.jsonl"
    with tournament.Tournament(game, BOTS, 4, seed=5, out=out) as event:
        event.run()
        assert [(p.first, p.second) for p in event.pairings] == [(0, 1), (0, 2), (1, 2)]
        assert event.labels == ["mcts", "mcts#2", "random"]
    lines = out.read_bytes().splitlines(keepends=True)
    assert len(lines) == 12
    # The second pairing (mcts against random) is the arena of those two with the same seed.
    alone = tmp_path / "arena.jsonl"
    lineup = arena.Lineup.of(game, [BOTS[0], BOTS[2]])
    with arena.Arena(lineup, 4, seed=5, out=alone) as match:
        match.run()
    assert b"".join(lines[4:8]) == alone.read_bytes()
    # Every pairing meets the same deals: game i of each has the same chance outcomes.
    records = [json.loads(line) for line in lines]
    first_chance = [r["actions"][0]["action"] for r in records]
    assert first_chance[0:4] == first_chance[4:8] == first_chance[8:12]


def test_a_tournament_log_tallies_to_the_tournament_that_wrote_it(tmp_path: Path) -> None:
    game = rivals.make("sekigahara")
    out = tmp_path / "t.jsonl"
    with tournament.Tournament(game, BOTS, 4, seed=3, out=out) as event:
        event.run()
        ratings = event.ratings()
        played = [(p.first, p.second, p.standings.pentanomial) for p in event.pairings]
    read = tournament.tally(out)
    assert read.labels == event.labels
    assert [(p.first, p.second, p.standings.pentanomial) for p in read.pairings] == played
    assert read.ratings() == ratings
    # Read as one arena, the file is refused as what it is, not as a corrupt arena.
    with pytest.raises(arena.OtherArena, match="3 arenas one after another"):
        arena.tally(out)
    # A pairing cut short is still a tournament's log; a game out of order is corrupt.
    lines = out.read_bytes().splitlines(keepends=True)
    (tmp_path / "short.jsonl").write_bytes(b"".join(lines[:6]))
    assert [p.standings.games for p in tournament.tally(tmp_path / "short.jsonl").pairings] == [
        4,
        2,
    ]
    (tmp_path / "swapped.jsonl").write_bytes(b"".join(lines[:5] + lines[6:7] + lines[5:6]))
    with pytest.raises(arena.CorruptLog, match=r"swapped.jsonl:6: corrupt: game 2 where game 1"):
        tournament.tally(tmp_path / "swapped.jsonl")


def test_gauntlet_and_labels_and_refusals() -> None:
    game = rivals.make("sekigahara")
    event = tournament.Tournament(game, BOTS, 2, mode="gauntlet")
    assert [(p.first, p.second) for p in event.pairings] == [(0, 1), (0, 2)]
    with pytest.raises(ValueError, match="even number"):
        tournament.Tournament(game, BOTS, 3)
    tournament.Tournament(game, BOTS, 3, duplicate=False)
    with pytest.raises(ValueError, match="at least two bots"):
        tournament.Tournament(game, BOTS[:1], 2)
    with pytest.raises(ValueError, match="free-for-all"):
        tournament.Tournament(rivals.make("verraeter"), ["mcts", "random"], 2)
    with pytest.raises(ValueError, match="unknown tournament mode"):
        tournament.Tournament(game, BOTS, 2, mode="swiss")
    # Team games have two sides: fine.
    teams = tournament.Tournament(rivals.make("rosenkoenig", players=4), ["mcts", "random"], 2)
    assert teams.pairings[0].lineup.seat_entry == (0, 1, 0, 1)


def test_ratings_come_from_the_pairs_of_every_pairing() -> None:
    game = rivals.make("sekigahara")
    with tournament.Tournament(game, BOTS, 8, seed=1) as event:
        event.run()
        ratings = event.ratings()
    assert ratings.names == ("mcts", "mcts#2", "random") and ratings.elo[0] == 0
    for pairing in event.pairings:  # every pairing's winner is rated above its loser
        losses, _, wins = pairing.standings.trinomial
        difference = ratings.elo[pairing.first] - ratings.elo[pairing.second]
        assert wins != losses and (difference > 0) == (wins > losses)
    units = {
        (p.first, p.second): {(k / 2, 2): n for k, n in enumerate(p.standings.pentanomial) if n}
        for p in event.pairings
    }
    assert ratings == stats.fit_ratings(["mcts", "mcts#2", "random"], units)


def test_the_report_shows_every_bot_and_pairing(tmp_path: Path) -> None:
    game = rivals.make("sekigahara")
    with tournament.Tournament(game, BOTS, 4, seed=1) as event:
        event.run()
        page = tournament.report_html(event)
    assert page.startswith("<!DOCTYPE html>") and page.count("<svg") == 1
    for label in ("mcts", "mcts#2", "random"):
        assert f">{label}</text>" in page  # in the rating plot
    for first, second in (("mcts", "mcts#2"), ("mcts", "random"), ("mcts#2", "random")):
        assert f"<tr><td class='name'>{first}</td><td class='name'>{second}</td>" in page
    assert "iterations=4" in page
    # Every setting of every bot, what it was given in bold and its defaults plain.
    settings = page.split("<h2>Settings</h2>", 1)[1].split("</table>", 1)[0]
    rows = re.findall(
        r"<tr><td class='name'>([^<]+)</td><td class='name'>([^<]+)</td>(.*?)</tr>", settings
    )
    assert [label for label, _, _ in rows] == list(event.labels)
    for entry, (_, name, cells) in zip(event.entries, rows):
        assert name == entry.name
        defaults = game.make_bot(entry.name, {}, 0).params
        for key, value in entry.params.items():
            shown = html_escape(f"{key}={json.dumps(value)}")
            bold = f"<b>{shown}</b>"
            assert (bold in cells) == (defaults[key] != value), (key, cells)
            assert shown in cells
    path = tmp_path / "r.html"
    files.write_new(path, page)
    with pytest.raises(ValueError, match="already exists"):
        files.write_new(path, "other")
    assert path.read_text(encoding="utf-8") == page
    files.write_new(path, "other", force=True)
    assert path.read_text(encoding="utf-8") == "other"
    assert [p.name for p in tmp_path.iterdir()] == ["r.html"]  # no temporary left


def test_the_report_names_the_game_parameters() -> None:
    game = rivals.make("rosenkoenig", players=4)
    with tournament.Tournament(game, ["random", "random"], 2) as event:
        event.run()
        page = tournament.report_html(event)
    assert '<p class="meta">rosenkoenig players=4, round-robin, 2 games per pairing' in page


def test_the_report_says_which_games_its_log_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = rivals.make("sekigahara")
    written = arena.ReplayLog.append

    def disk_full_after_two_writes(log: arena.ReplayLog, text: str) -> None:
        if log.path.read_bytes().count(b"\n") >= 2:
            raise OSError(errno.ENOSPC, "No space left on device")
        written(log, text)

    out = tmp_path / "t.jsonl"
    with tournament.Tournament(game, BOTS, 4, seed=1, out=out) as event:
        monkeypatch.setattr(arena.ReplayLog, "append", disk_full_after_two_writes)
        with pytest.raises(OSError):
            event.run()
        missing = event.played - out.read_bytes().count(b"\n")
        page = tournament.report_html(event)
    assert missing > 0
    assert f"{missing} of these games are not in {out}" in page
    monkeypatch.undo()
    with tournament.Tournament(game, BOTS, 4, seed=1, out=tmp_path / "whole.jsonl") as event:
        event.run()
        assert "are not in" not in tournament.report_html(event)


def test_a_log_name_that_is_not_utf8_is_shown_escaped_in_the_report(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A file name's bytes that are not UTF-8 come to Python as lone surrogates (from the command
    line, os.listdir): the report names the log with them escaped, and can be written."""
    game = rivals.make("rosenkoenig")
    written = arena.ReplayLog.append

    def disk_full_after_one_write(log: arena.ReplayLog, text: str) -> None:
        if log.path.stat().st_size:
            raise OSError(errno.ENOSPC, "No space left on device")
        written(log, text)

    out = tmp_path / os.fsdecode(b"t\xff.jsonl")
    with tournament.Tournament(game, ["random", "random", "random"], 2, seed=1, out=out) as event:
        monkeypatch.setattr(arena.ReplayLog, "append", disk_full_after_one_write)
        with pytest.raises(OSError):
            event.run()
        page = tournament.report_html(event)
    assert f"are not in {tmp_path}/t\\udcff.jsonl" in page
    files.write_new(tmp_path / "report.html", page)
    assert "t\\udcff.jsonl" in (tmp_path / "report.html").read_text(encoding="utf-8")


def test_labels_are_checked_before_any_game_naming_the_bot(tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    with pytest.raises(ValueError, match=r"labels\[2\] must be 1 to 100 characters .* 'c\\ud800'"):
        tournament.Tournament(game, BOTS, 2, out=tmp_path / "t.jsonl", labels=["a", "b", "c\ud800"])
    with pytest.raises(ValueError, match=r"the name of bots\[1\] must be 1 to 100 characters"):
        tournament.Tournament(game, ["random", "r\udcff"], 2, out=tmp_path / "t.jsonl")
    assert not (tmp_path / "t.jsonl").exists()


def test_write_new_is_safe_for_concurrent_writers_and_stale_temporaries(tmp_path: Path) -> None:
    path = tmp_path / "r.html"
    # A writer killed between writing and renaming leaves its temporary behind; a later process
    # may well have the same pid (a container's first process always has).
    (tmp_path / f".r.html.{os.getpid()}.tmp").write_text("stale", encoding="utf-8")
    files.write_new(path, "first")
    assert path.read_text(encoding="utf-8") == "first"
    texts = [f"writer {k} " * 2000 for k in range(8)]
    failures: list[BaseException] = []

    def write(text: str) -> None:
        try:
            for _ in range(20):
                files.write_new(path, text, force=True)
        except BaseException as error:  # reported by the assertion below
            failures.append(error)

    writers = [threading.Thread(target=write, args=(text,)) for text in texts]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join()
    assert failures == []
    assert path.read_text(encoding="utf-8") in texts  # one writer's text, whole
    assert sorted(p.name for p in tmp_path.iterdir()) == [f".r.html.{os.getpid()}.tmp", "r.html"]


def test_write_new_replaces_only_a_regular_file_no_arena_is_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    with pytest.raises(ValueError, match="is not a regular file, so it is not replaced"):
        files.write_new(pipe, "page", force=True)
    assert stat.S_ISFIFO(os.lstat(pipe).st_mode)
    # A symbolic link is followed: the file it names is written, the link stays.
    target, link = tmp_path / "target.html", tmp_path / "link.html"
    target.write_text("old", encoding="utf-8")
    link.symlink_to(target)
    files.write_new(link, "new", force=True)
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new"
    log = tmp_path / "games.jsonl"
    held = arena.ReplayLog(log)
    try:
        held.append('{"a": 1}\n')
        with pytest.raises(ValueError, match=rf"being written by .* \(pid {os.getpid()}\)"):
            files.write_new(log, "page", force=True)
    finally:
        held.close()
    assert log.read_text(encoding="utf-8") == '{"a": 1}\n'

    def read_only(*args: Any, **kwargs: Any) -> Any:
        raise OSError(errno.EROFS, "Read-only file system")

    # The temporary cannot even be made: the error says so, nothing else is tried on the way out.
    monkeypatch.setattr(files, "open", read_only, raising=False)
    monkeypatch.setattr(Path, "unlink", read_only)
    with pytest.raises(ValueError, match=r"new\.html: Read-only file system"):
        files.write_new(tmp_path / "new.html", "page")


# --------------------------------------------------------------------------------------------
# The command line


def tournament_argv(out: Path, *extra: str) -> list[str]:
    return [
        "tournament",
        "sekigahara",
        "--bots",
        "mcts",
        "mcts",
        "random",
        "--param",
        "mcts.iterations=30",
        "--param",
        "mcts#2.iterations=6",
        "--games",
        "6",
        "--seed",
        "3",
        "--out",
        str(out),
        *extra,
    ]


def test_tournament_table_report_refusal_and_resume(tmp_path: Path) -> None:
    whole, page = tmp_path / "whole.jsonl", tmp_path / "report.html"
    result = rivals_cli(*tournament_argv(whole, "--html", str(page)))
    assert result.returncode == 0, result.stderr
    assert "round-robin, 18 games (duplicate pairs)" in result.stdout
    assert "mcts vs mcts#2" in result.stdout and "anchor" in result.stdout
    assert whole.read_bytes().count(b"\n") == 18 and page.read_text().startswith("<!DOCTYPE")
    before, report = whole.read_bytes(), page.read_bytes()
    refused = rivals_cli(*tournament_argv(whole))
    one_line_error(refused, "tournament", "already holds 18 lines", "--resume", "--force")
    refused = rivals_cli(*tournament_argv(tmp_path / "new.jsonl", "--html", str(page)))
    one_line_error(refused, "tournament", "--html", "already exists")
    assert not (tmp_path / "new.jsonl").exists()
    # The report never lands on the replays, not even with --force, by any spelling of the path.
    for spelling in (whole, tmp_path / "." / "whole.jsonl"):
        refused = rivals_cli(*tournament_argv(whole, "--force", "--html", str(spelling)))
        one_line_error(refused, "tournament", "is --out, the replays")
    # A report that cannot be written is refused before a game is played.
    for html, problem in ((tmp_path / "no" / "r.html", "no folder"), (tmp_path, "not a regular")):
        refused = rivals_cli(*tournament_argv(tmp_path / "n.jsonl", "--force", "--html", str(html)))
        one_line_error(refused, "tournament", "--html", problem)
        assert not (tmp_path / "n.jsonl").exists()
    fresh = tmp_path / "fresh.jsonl"
    refused = rivals_cli(*tournament_argv(fresh, "--html", str(fresh)))
    one_line_error(refused, "tournament", "is --out, the replays")
    assert not fresh.exists()
    assert whole.read_bytes() == before and page.read_bytes() == report
    # Another tournament's file is refused on resume, untouched.
    other = rivals_cli(*tournament_argv(whole, "--resume", "--seed", "4"))
    one_line_error(other, "tournament", "written with seed 3, not 4")
    assert whole.read_bytes() == before
    # A file cut in the middle of a pairing and of a line resumes to the same file and table.
    part = tmp_path / "part.jsonl"
    part.write_bytes(before[: before.index(b"\n", len(before) // 2) + 40])
    part_page = tmp_path / "part.html"
    # Resuming replaces a report, and no other file by that name: a record above all.
    part_page.write_bytes(before)
    refused = rivals_cli(*tournament_argv(part, "--resume", "--html", str(part_page)))
    one_line_error(refused, "tournament", "--html", "is not a tournament's report")
    assert part_page.read_bytes() == before
    # A report of an earlier rivals, written before the mark, is a report too.
    earlier = report.replace(tournament.REPORT_MARK.encode(), b"")
    part_page.write_bytes(earlier.replace(b"<h1>", b"<h1>the first run: "))
    resumed = rivals_cli(*tournament_argv(part, "--resume", "--html", str(part_page)))
    assert resumed.returncode == 0, resumed.stderr
    assert part.read_bytes() == before
    assert part_page.read_bytes() == report  # the resumed run's report replaces the first's
    assert "resumed)" in resumed.stdout
    table = [line for line in result.stdout.splitlines() if "vs" in line or "anchor" in line]
    assert [line for line in resumed.stdout.splitlines() if "vs" in line or "anchor" in line] == (
        table
    )


def played_tournament(out: Path) -> rivals.Game:
    """Writes the 12 games of a Sekigahara round robin of ``BOTS`` (seed 2) to ``out``."""
    game = rivals.make("sekigahara")
    with tournament.Tournament(game, BOTS, 4, seed=2, out=out) as event:
        event.run()
    return game


def test_a_tournament_of_other_games_per_pairing_is_named_so_on_resume(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    game = played_tournament(out)
    before = out.read_bytes()
    for games, message in (
        (6, "written with 4 games per pairing, not 6"),
        (2, "written with more games per pairing than 2"),
    ):
        with pytest.raises(arena.OtherArena, match=message):
            tournament.Tournament(game, BOTS, games, seed=2, out=out, resume=True)
        assert out.read_bytes() == before


def test_a_killed_tournament_resumes_to_the_uninterrupted_file(tmp_path: Path) -> None:
    whole, killed = tmp_path / "whole.jsonl", tmp_path / "killed.jsonl"
    argv = ["--param", "mcts.iterations=200", "--threads", "2", "--games", "16"]
    assert rivals_cli(*tournament_argv(whole, *argv)).returncode == 0
    kills = 0
    # Short delays after each write, so that even a fast machine is killed several times.
    for delay in (0.1, 0.2, 0.05, 0.25, 0.15, 0.2):
        extra = [*argv, "--resume"] if killed.exists() else argv
        if not killed_after_writing(tournament_argv(killed, *extra), killed, delay):
            break
        kills += 1
    assert kills >= 2
    final = rivals_cli(*tournament_argv(killed, *argv, "--resume"))
    assert final.returncode == 0, final.stderr
    assert killed.read_bytes() == whole.read_bytes()


def test_arena_sprt_shows_the_test_and_resumes_decided(tmp_path: Path) -> None:
    out = tmp_path / "sprt.jsonl"
    argv = [
        "arena",
        "rosenkoenig",
        "--bots",
        "random,mcts",
        "--param",
        "mcts.iterations=20",
        "--games",
        "500",
        "--sprt",
        "0,150",
        "--out",
        str(out),
    ]
    result = rivals_cli(*argv)
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())
    assert "SPRT mcts at least 150 Elo stronger (H1) against 0 (H0), alpha 0.05, beta 0.05" in text
    assert "in (-2.944, +2.944): H1 accepted after" in text
    assert "duplicate pairs" in text
    games = out.read_bytes().count(b"\n")
    assert 0 < games < 500 and f"H1 accepted after {games} games" in text
    again = rivals_cli(*argv, "--resume")
    assert again.returncode == 0, again.stderr
    assert f"({games} resumed)" in again.stdout and out.read_bytes().count(b"\n") == games


@pytest.mark.parametrize(
    ("extra", "parts"),
    [
        (["--sprt", "10"], ["--sprt '10'", "elo0,elo1"]),
        (["--sprt", "10,0"], ["--sprt", "elo0 must be below elo1"]),
        (["--sprt", "0,10", "--alpha", "0.9"], ["alpha must be strictly between 0 and 0.5"]),
        (["--beta", "0.1"], ["--alpha and --beta", "give --sprt"]),
        (["--sprt", "0,10", "--bots", "mcts,random", "--game-param", "players=4"], []),
    ],
)
def test_sprt_mistakes_are_one_line(extra: list[str], parts: list[str]) -> None:
    result = rivals_cli("arena", "rosenkoenig", "--games", "2", *extra)
    if parts:
        one_line_error(result, "arena", *parts)
    else:  # two teams are two sides: accepted
        assert result.returncode == 0, result.stderr


def test_a_tournament_stopped_early_rates_only_the_bots_that_played(tmp_path: Path) -> None:
    out = tmp_path / "t.jsonl"
    game = played_tournament(out)
    lines = out.read_bytes().splitlines(keepends=True)
    out.write_bytes(b"".join(lines[:2]))  # one pair of the first pairing
    with tournament.Tournament(game, BOTS, 4, seed=2, out=out, resume=True) as event:
        assert event.resumed == 2 and event.played == 2
        ratings = event.ratings()
        page = tournament.report_html(event)
    assert ratings.rated(0) and ratings.rated(1) and not ratings.rated(2)
    assert ratings.order()[-1] == 2
    assert tournament.rating_interval_text(ratings, 2) == "no games yet"
    assert "no games yet" in page and ">random</text>" not in page  # not in the plot


def test_elo_text_names_unbounded_ends_in_words() -> None:
    def text(losses: int, draws: int, wins: int) -> str:
        return tournament.elo_text(stats.elo_estimate([losses, draws, wins]))

    assert text(0, 0, 12) == "sweep (>= +142)"
    assert text(12, 0, 0) == "swept (<= -142)"
    # 4 wins in 4 do not yet say which bot is stronger.
    assert text(0, 0, 4) == "sweep (>= -120)"
    # 3 wins in 4: the interval's upper end reaches a sweep, so only its lower end is a number.
    assert text(1, 0, 3) == "+191 (above -296)"
    assert text(3, 0, 1) == "-191 (below +296)"
    assert text(2, 1, 2) == "+0 (-408 to +408)"
    # One game, or a win and a loss: the interval reaches both ends.
    assert text(0, 1, 0) == "+0 (too few games)"
    assert text(1, 0, 1) == "+0 (too few games)"
    assert text(0, 0, 0) == "-"


def test_the_rating_plot_fits_long_labels_and_never_shows_minus_zero() -> None:
    long = "W" * 100
    ratings = stats.Ratings(("anchor", long, "even"), (0.0, 250.0, -3e-14), (0.0, 80.0, 40.0), 0.95)
    svg = tournament.rating_svg(ratings)
    width = float(re.search(r'viewBox="0 0 ([\d.]+) ', svg).group(1))  # type: ignore[union-attr]
    # The long label is cut, named whole in its tooltip, and leaves the plot its width.
    assert f"<title>{long}</title>{'W' * 23}\u2026</text>" in svg
    assert width == 20 + 14 * 24 + 560 + 70
    assert ">-0<" not in svg and ">+0<" in svg
    assert tournament.rating_text(ratings, 2) == "+0"
    # 1.96 errors of 40 Elo, taken on the score scale (+-0.113 around 0.5) and turned back.
    assert tournament.rating_interval_text(ratings, 2) == "-80 to +80"


def test_the_rating_plot_cuts_an_unbounded_interval_at_its_frame() -> None:
    ratings = stats.Ratings(
        ("anchor", "swept", "even"), (0.0, -1200.0, 30.0), (0.0, 4000.0, 50.0), 0.95
    )
    svg = tournament.rating_svg(ratings)
    ticks = [int(t) for t in re.findall(r'fill="#555">([+-]\d+)</text>', svg)]
    assert min(ticks) >= -3000 and max(ticks) <= 3000  # not the -9040 to +6640 of the interval
    assert ">-1200<" in svg


def test_an_arena_or_a_tournament_runs_on_one_thread_at_a_time(tmp_path: Path) -> None:
    game = rivals.make("sekigahara")
    path = tmp_path / "a.jsonl"
    with arena.Arena(arena.Lineup.of(game, ["random", "random"]), 4, out=path) as match:
        inside, release = threading.Event(), threading.Event()

        def hold(_: arena.Standings) -> None:
            inside.set()
            release.wait(30)

        worker = threading.Thread(target=match.run, args=(hold,))
        worker.start()
        assert inside.wait(30)
        for name, call in (("run", match.run), ("close", match.close)):
            with pytest.raises(RuntimeError, match=rf"this Arena is in use .*\(run.*for {name} "):
                call()
        release.set()
        worker.join()
    # One run's games, in order: the log reads back whole.
    assert arena.tally(path).games == 4

    refused: list[str] = []

    def run_again(event: tournament.Tournament) -> None:
        with pytest.raises(RuntimeError, match="this Tournament is in use") as error:
            event.run()
        refused.append(str(error.value))

    out = tmp_path / "t.jsonl"
    with tournament.Tournament(game, BOTS, 2, seed=1, out=out) as event:
        event.run(run_again)
    assert refused
    assert sum(p.standings.games for p in tournament.tally(out).pairings) == 6


def test_copies_of_an_arena_or_tournament_are_objects_of_their_own() -> None:
    game = rivals.make("sekigahara")
    match = arena.Arena(arena.Lineup.of(game, ["random", "random"]), 2)
    event = tournament.Tournament(game, BOTS, 2, seed=1)
    for original, copy in (
        (match, pickle.loads(pickle.dumps(match))),
        (event, pickle.loads(pickle.dumps(event))),
        (match, deepcopy(match)),
    ):
        copy.run()  # in use by nobody, and the original's guard stays free
        original.run()
    assert match.standings.games == 2 and event.played == 6


def test_an_open_interval_runs_to_the_frame_with_an_arrow_not_to_the_limit() -> None:
    # "weak" took a point or two of many games: its interval reaches a score of 0 ("below").
    ratings = stats.Ratings(
        ("anchor", "near", "weak"), (0.0, -150.0, -980.0), (0, 60.0, 420.0), 0.95
    )
    assert ratings.interval(2)[0] == -stats.ELO_LIMIT
    assert tournament.rating_interval_text(ratings, 2).startswith("below -")
    svg = tournament.rating_svg(ratings)
    ticks = [int(t) for t in re.findall(r'fill="#555">([+-]\d+)</text>', svg)]
    assert min(ticks) > -stats.ELO_LIMIT  # the scale is the bounded ends', not the limit's
    assert svg.count("<path d=") == 1  # one arrowhead: the open end
