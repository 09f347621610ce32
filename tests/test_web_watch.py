"""Following a running ``rivals arena`` or ``rivals tournament`` from its replay log in
``rivals serve --watch``: the standings as the log grows, the games as they finish, each one
opened in the review."""

from __future__ import annotations

from pathlib import Path

import pytest

from rivals import arena, cli
from rivals.web import watch
from tests.web_client import client

GAMES = 12


@pytest.fixture
def arena_log(tmp_path: Path) -> Path:
    out = tmp_path / "arena.jsonl"
    status = cli.main(
        ["arena", "rosenkoenig", "--bots", "mcts,random", "--games", str(GAMES), "--threads", "1",
         "--param", "mcts.iterations=30", "--out", str(out)]
    )  # fmt: skip
    assert status == 0
    return out


def test_an_arena_is_followed_as_its_log_grows(
    arena_log: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(watch, "EVERY_S", 0.0)
    lines = arena_log.read_bytes().splitlines(keepends=True)
    growing = tmp_path / "growing.jsonl"
    growing.write_bytes(b"".join(lines[:4]))
    with client(watch=[growing]) as test_client:
        assert test_client.get("/api/watch").json() == [{"number": 1, "name": "growing.jsonl"}]
        first = test_client.get("/api/watch/1").json()
        assert first["kind"] == "arena" and first["games"] == 4
        growing.write_bytes(b"".join(lines) + lines[0][:60])  # the arena still writing a line
        later = test_client.get("/api/watch/1").json()
    standings = arena.tally(arena_log)
    assert later["games"] == GAMES
    for row, entry, record in zip(later["rows"], standings.lineup.entries, standings.records):
        assert row["label"] == entry.label
        assert (row["wins"], row["draws"], row["losses"]) == (
            record.wins,
            record.draws,
            record.losses,
        )
        assert (row["low"], row["high"]) == pytest.approx(record.win_interval)
    assert later["versus"].startswith("mcts vs random: Elo ")
    assert [game["index"] for game in later["recent"]] == list(reversed(range(GAMES)))


def test_a_finished_game_of_the_log_opens_in_the_review(arena_log: Path) -> None:
    with client(watch=[arena_log]) as test_client:
        recent = test_client.get("/api/watch/1").json()["recent"]
        game = recent[-1]
        review = test_client.post("/api/watch/1/review", json={"line": game["line"]}).json()["id"]
        summary = test_client.post("/api/review/summary", json={"id": review}).json()
        assert summary["steps"] == game["moves"]
        assert summary["names"] == game["labels"]
        missing = test_client.post("/api/watch/1/review", json={"line": 999})
        assert missing.status_code == 400 and "no game on line 999" in missing.json()["error"]
        assert test_client.get("/api/watch/2").status_code == 404
        assert test_client.get("/api/watch/..%2F..%2Fetc").status_code == 404


def test_a_tournament_gives_ratings_and_pairings(tmp_path: Path) -> None:
    out = tmp_path / "tournament.jsonl"
    status = cli.main(
        ["tournament", "sekigahara", "--bots", "random", "mcts", "alphabeta", "--games", "4",
         "--threads", "1", "--param", "mcts.iterations=30", "--param", "alphabeta.depth=1",
         "--out", str(out)]
    )  # fmt: skip
    assert status == 0
    with client(watch=[out]) as test_client:
        data = test_client.get("/api/watch/1").json()
    assert data["kind"] == "tournament" and data["games"] == 12
    assert sorted(row["label"] for row in data["rows"]) == ["alphabeta", "mcts", "random"]
    assert next(row for row in data["rows"] if row["label"] == "random")["interval"] == "anchor"
    assert [(row["first"], row["second"]) for row in data["pairings"]] == [
        ("random", "mcts"),
        ("random", "alphabeta"),
        ("mcts", "alphabeta"),
    ]


def test_a_log_not_yet_written_or_not_a_log_is_said_so(tmp_path: Path) -> None:
    bad = tmp_path / "notes.jsonl"
    bad.write_text("hello\nworld\n")
    with client(watch=[tmp_path / "later.jsonl", bad]) as test_client:
        assert test_client.get("/api/watch/1").json() == {
            "state": "waiting for later.jsonl to be written"
        }
        assert "corrupt" in test_client.get("/api/watch/2").json()["error"]
