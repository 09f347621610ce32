"""The forms of an arena's log: replay lines or a compact record, plain, gzip or zstd. Each
round-trips to the same replay lines, resumes to what an uninterrupted run writes, drops a
member its writer left cut off and names the file and byte of a corrupt one."""

from __future__ import annotations

import gzip
import sys
import zlib
from pathlib import Path

import pytest

import rivals
from rivals import arena, tournament
from rivals.arena import forms, records
from tests.optional import require

zstandard = require("zstandard")

FORMS = ["jsonl", "jsonl.gz", "jsonl.zst", "rec", "rec.gz", "rec.zst"]


def decompressed(path: Path) -> bytes:
    data = path.read_bytes()
    if path.name.endswith(".gz"):
        return gzip.decompress(data)
    if path.name.endswith(".zst"):
        reader = zstandard.ZstdDecompressor().stream_reader(data, read_across_frames=True)
        return bytes(reader.read())
    return data


def replay_text(path: Path) -> bytes:
    """Every game of the log as its replay line: what a .jsonl of the same arena holds."""
    return b"".join(game.text(str(path)) + b"\n" for game in arena.replay_records(path))


def lineup(name: str = "rosenkoenig") -> arena.Lineup:
    return arena.Lineup.of(rivals.make(name), [("mcts", {"iterations": 3}), "random"])


def play(path: Path, games: int, resume: bool = False, who: arena.Lineup | None = None) -> None:
    with arena.Arena(who or lineup(), games, seed=5, out=path, resume=resume) as match:
        match.run()


@pytest.mark.parametrize("name", ["rosenkoenig", "sekigahara", "battlecards"])
def test_every_form_reads_back_as_the_replay_lines(name: str, tmp_path: Path) -> None:
    who = arena.Lineup.of(rivals.make(name), ["random", "random"])
    plain = tmp_path / "games.jsonl"
    play(plain, 6, who=who)
    expected = plain.read_bytes()
    standings = arena.tally(plain)
    for form in FORMS[1:]:
        path = tmp_path / f"games.{form}"
        play(path, 6, who=who)
        assert replay_text(path) == expected, form
        assert arena.tally(path) == standings, form
        if form.startswith("jsonl"):
            assert decompressed(path) == expected, form


def test_records_spend_two_bytes_on_an_action_only_where_ids_need_them() -> None:
    widths = {name: records.action_bytes(rivals.make(name)) for name in rivals.games()}
    for name, width in widths.items():
        game = rivals.make(name)
        largest = max(game.num_distinct_actions, game.max_chance_outcomes) - 1
        assert width == (1 if largest < 256 else 2), name
    assert 2 in widths.values() and 1 in widths.values()


@pytest.mark.parametrize("form", FORMS)
def test_resume_ends_like_an_uninterrupted_arena_in_every_form(form: str, tmp_path: Path) -> None:
    whole, part = tmp_path / f"whole.{form}", tmp_path / f"part.{form}"
    play(whole, 7)
    play(part, 3)
    play(part, 7, resume=True)
    assert decompressed(part) == decompressed(whole)
    assert arena.tally(part) == arena.tally(whole)


@pytest.mark.parametrize("form", ["jsonl.gz", "jsonl.zst", "rec.gz", "rec.zst"])
def test_a_member_cut_off_is_written_again(form: str, tmp_path: Path) -> None:
    whole, part = tmp_path / f"whole.{form}", tmp_path / f"part.{form}"
    play(whole, 6)
    play(part, 3)
    kept = part.read_bytes()
    # The member of games 3 to 5 as the next append writes it, cut anywhere: in its header,
    # mid-stream, and just before its trailer (its lines all whole but unchecked).
    text = decompressed(whole)[len(decompressed(part)) :]
    member = forms.compress(forms.compression_of(part), text, forms.is_record(part))
    for cut in (1, 5, len(member) // 2, len(member) - 2):
        part.write_bytes(kept + member[:cut])
        with arena.Arena(lineup(), 6, seed=5, out=part, resume=True) as match:
            assert match.resumed == 3 and match.standings.games == 3, cut
            match.run()
        assert decompressed(part) == decompressed(whole), cut
        assert part.read_bytes().startswith(kept)


@pytest.mark.parametrize("form", ["jsonl.gz", "rec.zst"])
def test_a_tally_leaves_out_a_member_cut_off(form: str, tmp_path: Path) -> None:
    path = tmp_path / f"games.{form}"
    play(path, 3)
    standings = arena.tally(path)
    extra = forms.compress(forms.compression_of(path), b'{"format": "rivals-re', False)
    path.write_bytes(path.read_bytes() + extra[: len(extra) - 3])
    assert arena.tally(path) == standings


@pytest.mark.parametrize("form", ["jsonl.gz", "jsonl.zst", "rec.gz", "rec.zst"])
def test_a_corrupt_member_is_named_by_file_and_byte(form: str, tmp_path: Path) -> None:
    path = tmp_path / f"games.{form}"
    play(path, 3)
    first = path.read_bytes()
    play(path, 6, resume=True)
    whole = path.read_bytes()
    magic = b"\x1f\x8b\x08" if form.endswith("gz") else b"\x28\xb5\x2f\xfd"
    broken = {
        # A byte of the first member's data flipped: its checksum (or its stream) fails.
        "flipped": (whole[:40] + bytes([whole[40] ^ 0xFF]) + whole[41:], 0),
        # A member cut short with another after it: no write of ours leaves that.
        "truncated": (first[:-6] + whole[len(first) :], first.rfind(magic)),
        # Something else after the members.
        "appended": (whole + b"not compressed at all\n", len(whole)),
    }
    member = "gzip member" if form.endswith("gz") else "zstd frame"
    for what, (content, byte) in broken.items():
        path.write_bytes(content)
        with pytest.raises(arena.CorruptLog) as error:
            arena.Arena(lineup(), 9, seed=5, out=path, resume=True)
        message = str(error.value)
        assert message.startswith(f"{path}: corrupt: the {member} at byte {byte} "), (what, message)
        assert path.read_bytes() == content, what
        with pytest.raises(arena.CorruptLog, match=f"at byte {byte} "):
            arena.tally(path)


def test_a_plain_log_under_a_compressed_name_is_named_as_such(tmp_path: Path) -> None:
    plain, named = tmp_path / "games.jsonl", tmp_path / "games.jsonl.gz"
    play(plain, 2)
    named.write_bytes(plain.read_bytes())
    with pytest.raises(
        arena.CorruptLog, match=r"games\.jsonl\.gz: corrupt: the gzip member at byte 0"
    ):
        arena.tally(named)


def test_a_record_checks_its_header_and_games(tmp_path: Path) -> None:
    path = tmp_path / "games.rec"
    play(path, 3)
    header, *games = path.read_bytes().splitlines(keepends=True)
    spoilt = {
        # Another seed: another arena.
        header.replace(b'"seed": 5', b'"seed": 6') + b"".join(games): arena.OtherArena,
        # An action the rules refuse, by its position in the game.
        header + games[0] + games[1][:-4] + b'ff"}\n' + games[2]: arena.CorruptLog,
        # Games out of order.
        header + games[1] + games[0] + games[2]: arena.CorruptLog,
        # A game line spelt otherwise than a run writes it.
        header + games[0].replace(b'": ', b'":') + b"".join(games[1:]): arena.CorruptLog,
        # No header.
        b"".join(games): arena.CorruptLog,
    }
    for content, error in spoilt.items():
        path.write_bytes(content)
        with pytest.raises(error) as raised:
            arena.Arena(lineup(), 4, seed=5, out=path, resume=True)
        assert str(raised.value).startswith(f"{path}:"), raised.value
        assert path.read_bytes() == content
    path.write_bytes(header + games[0] + games[1][:-4] + b'ff"}\n')
    with pytest.raises(arena.CorruptLog, match=r"games\.rec:3: corrupt: .*action"):
        arena.tally(path)


@pytest.mark.parametrize("form", ["jsonl.gz", "rec", "rec.zst"])
def test_a_tournament_resumes_in_every_form(form: str, tmp_path: Path) -> None:
    game = rivals.make("rosenkoenig")
    bots = ["random", ("mcts", {"iterations": 2}), ("mcts", {"iterations": 4})]
    whole, part = tmp_path / f"whole.{form}", tmp_path / f"part.{form}"
    with tournament.Tournament(game, bots, 4, seed=2, out=whole) as event:
        event.run()
    with tournament.Tournament(game, bots, 4, seed=2, out=part) as event:
        event.run()
    # Cut back to the middle of the second pairing, at a member's end for a compressed log.
    if form == "rec":
        lines = part.read_bytes().splitlines(keepends=True)
        part.write_bytes(b"".join(lines[:7]))  # header, 4 games, header, 1 game
    else:
        text = decompressed(part)
        lines = text.splitlines(keepends=True)
        part.write_bytes(
            forms.compress(forms.compression_of(part), b"".join(lines[:6]), forms.is_record(part))
        )
    with tournament.Tournament(game, bots, 4, seed=2, out=part, resume=True) as event:
        assert 0 < event.resumed < 12
        event.run()
    assert decompressed(part) == decompressed(whole)
    assert tournament.tally(part).ratings() == tournament.tally(whole).ratings()


def test_a_zst_log_without_zstandard_says_what_to_install(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "zstandard", None)
    with pytest.raises(ValueError, match=r"pip install 'rivals\[zstd\]'"):
        arena.ReplayLog(tmp_path / "games.jsonl.zst")
    assert not (tmp_path / "games.jsonl.zst").exists()


def test_a_member_that_expands_without_bound_is_refused_a_line_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "bomb.jsonl.gz"
    compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"x" * (1 << 20)
    data = b"".join(compressor.compress(block) for _ in range(80)) + compressor.flush()
    path.write_bytes(data)
    with pytest.raises(arena.CorruptLog, match="a line longer than"):
        arena.tally(path)
