"""The replay viewer: one self-contained page with a picture per step and a move list, checked as
text here and driven in a real headless Chromium (buttons and keys) below."""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from rivals import replay, viewer
from rivals.render import svg
from tests.ecosystem_cases import CASE_IDS, CASES, random_game

ITEMS = re.compile(r'<li data-step="(\d+)"[^>]*>(.*?)</li>', re.S)


def frames_of(page: str) -> list[str]:
    return viewer.frames_of(page)


def plain(fragment: str) -> str:
    return html.unescape(re.sub(r"<[^>]+>", "", fragment)).strip()


@pytest.mark.parametrize(("name", "params"), CASES, ids=CASE_IDS)
def test_page_has_every_step_and_needs_no_network(name: str, params: dict[str, Any]) -> None:
    state = random_game(name, params, seed=2, limit=60)
    page = viewer.to_html(replay.to_dict(state))
    assert page == viewer.to_html(state)
    frames = frames_of(page)
    history = state.history()
    assert len(frames) == len(history) + 1
    game = state.game
    for step in (0, len(history) // 2, len(history)):
        expected = svg.to_svg(game.state_from_history(history[:step]))
        assert frames[step] == expected
        ET.fromstring(frames[step])
    items = ITEMS.findall(page)
    assert [int(step) for step, _ in items] == list(range(len(history) + 1))
    for (_, item), text in zip(items[1:], svg.move_texts(state, None)):
        assert plain(item).endswith(text)
    # Self-contained: nothing is fetched (the SVG namespace is a name, not a download).
    without_namespace = page.replace("http://www.w3.org/2000/svg", "")
    assert not re.search(r"https?://|<link|@import|\bsrc=", without_namespace)


def test_write_html_and_state_at(tmp_path: Path) -> None:
    state = random_game("rosenkoenig", {"players": 4}, seed=6, limit=50)
    path = tmp_path / "game.html"
    data = replay.to_dict(state)
    data["arena"] = {"index": 0, "seed": 0, "labels": ["mcts", "random", "alphabeta", "random"]}
    viewer.write_html(data, path, player=2)
    page = path.read_text(encoding="utf-8")
    with pytest.raises(ValueError, match="already exists"):
        viewer.write_html(state, path)
    assert path.read_text(encoding="utf-8") == page
    viewer.write_html(data, path, player=2, force=True)
    assert path.read_text(encoding="utf-8") == page
    assert "view of Red (2)" in page
    assert "Red (0): mcts, White (1): random, Red (2): alphabeta" in page
    assert "(you)" in frames_of(page)[0]
    history = state.history()
    assert viewer.state_at(state, 0).history() == []
    assert viewer.state_at(replay.to_dict(state), 7).history() == history[:7]
    assert viewer.state_at(state, -1).history() == history
    assert viewer.state_at(state, -2).history() == history[:-1]
    for bad in (len(history) + 1, -len(history) - 2):
        with pytest.raises(ValueError, match="out of range"):
            viewer.state_at(state, bad)


def test_bad_replays_are_rejected() -> None:
    data = replay.to_dict(random_game("rosenkoenig", {}, seed=1, limit=20))
    data["actions"][12]["action"] = 10_000
    with pytest.raises(ValueError, match=r"actions\[12\]"):
        viewer.to_html(data)
    with pytest.raises(ValueError, match="State or a replay dict"):
        viewer.to_html("not a replay")  # type: ignore[arg-type]


# --- a real browser -------------------------------------------------------------------------

# Appended to the page under test: it acts as a person would (a click on "next", key presses)
# and writes what the page showed after each into <pre id="probe">, which --dump-dom returns.
PROBE = """
<script>
window.addEventListener("load", function () {
  var log = [];
  function look(label) {
    var current = document.querySelectorAll("#moves li.current");
    log.push({
      label: label,
      step: document.body.getAttribute("data-step"),
      counter: document.getElementById("counter").textContent,
      current: Array.prototype.map.call(current, function (li) {
        return li.getAttribute("data-step");
      }),
      currentText: current.length ? current[0].textContent : "",
      stones: document.querySelectorAll("#picture svg .stone").length,
      picture: document.getElementById("picture").innerHTML
    });
  }
  function key(name) {
    document.dispatchEvent(new KeyboardEvent("keydown", {key: name, bubbles: true}));
  }
  look("opened");
  key("Home"); look("home");
  document.getElementById("next").click(); look("next");
  key("ArrowRight"); look("right");
  key("End"); look("end");
  key("ArrowLeft"); look("left");
  document.getElementById("prev").click(); look("prev");
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify(log);
  document.body.appendChild(probe);
});
</script>
"""


def chromium() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.fixture
def browser() -> str:
    found = chromium()
    assert found is not None, "the viewer is tested in Chromium (scripts/test.sh installs it)"
    return found


def run_page(browser: str, page: Path, tmp_path: Path, fragment: str) -> list[dict[str, Any]]:
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",  # root in CI and containers
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri() + fragment,
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    match = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert match is not None, f"no probe in Chromium's page (stderr: {done.stderr[-2000:]})"
    log = json.loads(html.unescape(match.group(1)))
    assert isinstance(log, list)
    return log


def test_viewer_steps_in_chromium(browser: str, tmp_path: Path) -> None:
    state = random_game("rosenkoenig", {}, seed=4, limit=40)
    history = state.history()
    last = len(history)
    page = tmp_path / "replay.html"
    viewer.write_html(state, page)
    page.write_text(
        page.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8"
    )
    log = {entry["label"]: entry for entry in run_page(browser, page, tmp_path, "#step=12")}

    expected_steps = {"opened": 12, "home": 0, "next": 1, "right": 2, "end": last}
    expected_steps.update({"left": last - 1, "prev": last - 2})
    game = state.game
    for label, step in expected_steps.items():
        entry = log[label]
        assert entry["step"] == str(step), label
        assert entry["current"] == [str(step)], f"{label}: the move list follows the step"
        assert entry["counter"] == f"{step} / {last}"
        shown = game.state_from_history(history[:step])
        board = shown.to_dict()["board"]
        assert entry["stones"] == sum(row.count("R") + row.count("W") for row in board), label
        if step:
            assert entry["currentText"].strip().endswith(svg.moves(shown)[-1].text)
    pictures = [log[label]["picture"] for label in ("home", "next", "right", "end")]
    assert len(set(pictures)) == len(pictures), "every step shows a different picture"
    assert "<svg" in log["next"]["picture"]


# Opens the page at its address's step, then changes the address as a person editing it would.
ADDRESS_PROBE = """
<script>
window.addEventListener("load", function () {
  var log = [];
  function look(label) {
    log.push({label: label, step: document.body.getAttribute("data-step")});
  }
  look("opened");
  window.addEventListener("hashchange", function () {
    setTimeout(function () {
      look("moved");
      var probe = document.createElement("pre");
      probe.id = "probe";
      probe.textContent = JSON.stringify(log);
      document.body.appendChild(probe);
    }, 0);
  });
  location.hash = "#step=5";
});
</script>
"""


def test_the_viewer_follows_its_address(browser: str, tmp_path: Path) -> None:
    state = random_game("rosenkoenig", {}, seed=4, limit=40)
    page = tmp_path / "replay.html"
    viewer.write_html(state, page)
    text = page.read_text(encoding="utf-8").replace("</body>", ADDRESS_PROBE + "</body>")
    page.write_text(text, encoding="utf-8")
    log = {entry["label"]: entry["step"] for entry in run_page(browser, page, tmp_path, "#step=-2")}
    # -2 counts from the end as state_at's steps do: the step before the last.
    assert log == {"opened": str(len(state.history()) - 1), "moved": "5"}


def test_ecosystem_doc_examples_run(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    doc = Path(__file__).parents[1] / "docs" / "ecosystem.md"
    blocks = re.findall(r"```python\n(.*?)```", doc.read_text(encoding="utf-8"), flags=re.S)
    assert len(blocks) == 4
    monkeypatch.chdir(tmp_path)
    for index, block in enumerate(blocks):
        exec(compile(block, f"docs/ecosystem.md block {index}", "exec"), {})
    printed = capsys.readouterr().out.splitlines()
    assert len(printed) == 2  # the returns of the OpenSpiel and of the PettingZoo game
    ET.parse(tmp_path / "position.svg")
    assert frames_of((tmp_path / "game.html").read_text(encoding="utf-8"))


# --- every game in a real browser: the board is drawn, nothing fails, the page stays small ----

# What the board of each game must show at a step, counted in the page and in the snapshot.
BOARD_COUNTS = {
    "battlecards": (".battle", lambda snap: 16),
    "rheinlaender": (".knight", lambda snap: len(snap["knights"])),
    "rosenkoenig": (
        ".stone",
        lambda snap: sum(row.count("R") + row.count("W") for row in snap["board"]),
    ),
    "sekigahara": (
        ".camp .card, .influence",
        lambda snap: sum(map(len, snap["camps"])) + len(snap["neutral"]),
    ),
    "verraeter": (".landscape", lambda snap: len(snap["ring"])),
}
# Caught from the very start of the page, before its own script runs.
CATCH_ERRORS = """<script>
window.__errors = [];
window.addEventListener("error", function (event) { window.__errors.push(String(event.message)); });
</script>"""
BOARD_PROBE = """
<script>
window.addEventListener("load", function () {
  var found = {};
  function look(label) {
    found[label] = {
      step: document.body.getAttribute("data-step"),
      board: document.querySelectorAll(%s).length,
      elements: document.querySelectorAll("#picture svg *").length
    };
  }
  look("opened");
  document.dispatchEvent(new KeyboardEvent("keydown", {key: "End", bubbles: true}));
  look("end");
  found.errors = window.__errors;
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify([found]);
  document.body.appendChild(probe);
});
</script>
"""


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the RGB(A) rows of an 8-bit PNG, unfiltered (enough for a
    screenshot)."""
    import struct
    import zlib

    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    offset, chunks, header = 8, [], b""
    while offset < len(data):
        (length,) = struct.unpack(">I", data[offset : offset + 4])
        kind = data[offset + 4 : offset + 8]
        body = data[offset + 8 : offset + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks.append(body)
        offset += 12 + length
    width, height, depth, colour = struct.unpack(">IIBB", header[:10])
    assert depth == 8 and colour in (2, 6)
    channels = 3 if colour == 2 else 4
    raw = zlib.decompress(b"".join(chunks))
    stride = width * channels
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind, line = (
            raw[y * (stride + 1)],
            bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)]),
        )
        for i in range(stride):
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + left) & 255
            elif kind == 2:
                line[i] = (line[i] + up) & 255
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif kind == 4:
                guess = left + up - corner
                pa, pb, pc = abs(guess - left), abs(guess - up), abs(guess - corner)
                line[i] = (
                    line[i] + (left if pa <= pb and pa <= pc else up if pb <= pc else corner)
                ) & 255
        rows.append(
            bytes(line) if channels == 3 else bytes(b for k, b in enumerate(line) if k % 4 != 3)
        )
        previous = line
    return width, height, rows


@pytest.mark.parametrize("name", sorted(BOARD_COUNTS))
def test_every_game_in_chromium(name: str, browser: str, tmp_path: Path) -> None:
    state = random_game(name, {}, seed=3)
    if len(state.history()) > 300:  # a page of a long Battlecards game takes long to draw
        state = state.game.state_from_history(state.history()[:300])
    history = state.history()
    middle = len(history) // 2
    page = tmp_path / f"{name}.html"
    viewer.write_html(state, page, player=0)
    selector, expected = BOARD_COUNTS[name]
    text = page.read_text(encoding="utf-8")
    text = text.replace("<head>", "<head>" + CATCH_ERRORS, 1)
    page.write_text(
        text.replace("</body>", BOARD_PROBE % json.dumps(selector) + "</body>"), "utf-8"
    )
    (found,) = run_page(browser, page, tmp_path, f"#step={middle}")
    assert found["errors"] == []
    for label, step in (("opened", middle), ("end", len(history))):
        entry = found[label]
        assert entry["step"] == str(step)
        snap = state.game.state_from_history(history[:step]).to_dict()
        assert entry["board"] == expected(snap) > 0, label
        assert entry["elements"] > 50, label
    # A screenshot of the page: most of the picture is drawn, not empty paper.
    shot = tmp_path / f"{name}.png"
    subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1400,1000",
            f"--screenshot={shot}",
            page.as_uri() + f"#step={middle}",
        ],
        capture_output=True,
        timeout=120,
        check=True,
    )
    width, height, rows = png_pixels(shot)
    assert (width, height) == (1400, 1000)
    # The picture's area: left of the move list, below the header.
    area = [row[3 * 30 : 3 * 1000] for row in rows[100:900:4]]
    colours = {row[k : k + 3] for row in area for k in range(0, len(row), 12)}
    paper = bytes((0xFB, 0xF7, 0xEE))
    inked = sum(row[k : k + 3] != paper for row in area for k in range(0, len(row), 12))
    total = sum(len(row) // 12 for row in area)
    assert len(colours) > 20, "the picture has colours"
    assert inked / total > 0.15, f"only {inked / total:.0%} of the picture is drawn"


@pytest.mark.parametrize("name", sorted(BOARD_COUNTS))
def test_a_whole_game_page_stays_small(name: str) -> None:
    """The longest of a few random games of every game, viewed from a seat: under 2 MB."""
    longest = max(
        (random_game(name, {}, seed=seed) for seed in range(4)), key=lambda s: len(s.history())
    )
    page = viewer.to_html(longest, player=1)
    assert len(page.encode("utf-8")) < 2_000_000, f"{len(longest.history())} moves"
    frames = frames_of(page)
    assert len(frames) == len(longest.history()) + 1
    assert frames[-1] == svg.to_svg(longest, 1)


# --- what the page says of the game, every seat's view, 1024 x 768 -------------------------


@pytest.mark.parametrize(
    ("name", "params", "title", "variant"),
    [
        ("battlecards", {}, "Battlecards: Western European Theater replay", "standard rules"),
        ("rosenkoenig", {"players": 4}, "Rosenkönig (The Rose King) replay", "4 players"),
        # Three players play six rounds by default: the rounds follow the player count.
        ("verraeter", {"players": 3}, "Verräter (Traitor) replay", "3 players · standard rules"),
        ("sekigahara", {"max_turns": 200}, "Sekigahara replay", "rules changed: max_turns=200"),
    ],
)
def test_the_page_names_the_game_in_words(
    name: str, params: dict[str, Any], title: str, variant: str
) -> None:
    state = random_game(name, params, seed=1, limit=30)
    page = viewer.to_html(state)
    assert f"<title>{html.escape(title)}</title>" in page
    assert f"<h1>{html.escape(title)}</h1>" in page
    meta = plain(re.search(r'<p class="meta">(.*?)</p>', page, re.S).group(1))  # type: ignore[union-attr]
    assert meta.startswith(variant)
    assert "null" not in meta and "expansions=[]" not in meta


def stored(page: str) -> dict[str, Any]:
    found = re.search(r'<script id="frames" type="application/json">(.*?)</script>', page, re.S)
    assert found is not None
    data: dict[str, Any] = json.loads(found.group(1))
    return data


@pytest.mark.parametrize("name", ["verraeter", "battlecards", "rheinlaender"])
def test_the_whole_records_page_switches_between_every_seats_view(name: str) -> None:
    state = random_game(name, {}, seed=2, limit=120)
    game = state.game
    page = viewer.to_html(replay.to_dict(state), seats=True)
    views = stored(page)["views"]
    assert [view["label"] for view in views] == ["spectator"] + [
        viewer.player_label(state, seat) for seat in range(game.num_players)
    ]
    assert page.count('<select id="view"') == 1
    spectator = viewer.to_html(state)
    assert frames_of(page) == frames_of(spectator)
    assert [plain(item) for _, item in ITEMS.findall(page)] == [
        plain(item) for _, item in ITEMS.findall(spectator)
    ]
    for index, seat in enumerate(range(game.num_players), start=1):
        own = viewer.to_html(state, seat)
        # Each view is exactly the page its seat gets: its pictures and its move list.
        assert viewer.frames_of(page, index) == frames_of(own)
        assert views[index]["moves"] == svg.move_texts(state, seat)
        # A seat's own page has no other view and no switch.
        assert len(stored(own)["views"]) == 1 and "<select" not in own
    with pytest.raises(ValueError, match="give no player"):
        viewer.to_html(state, 1, seats=True)
    # Where nothing is hidden every seat sees the spectator's picture: no switch.
    perfect = viewer.to_html(random_game("rosenkoenig", {}, seed=2, limit=30), seats=True)
    assert "<select" not in perfect and len(stored(perfect)["views"]) == 1


# In a 1024 x 768 window: how large the picture is drawn, whether the controls are in sight, and
# what a switch to another seat's view shows.
LAYOUT_PROBE = """
<script>
window.addEventListener("load", function () {
  var found = {};
  function look(label) {
    var svg = document.querySelector("#picture svg");
    var box = svg.getBoundingClientRect();
    var controls = document.getElementById("next").getBoundingClientRect();
    found[label] = {
      scale: box.width / svg.viewBox.baseVal.width,
      controlsInSight: controls.top >= 0 && controls.bottom <= window.innerHeight,
      handCards: document.querySelectorAll("#picture .hand-card").length,
      view: document.body.getAttribute("data-view"),
      step: document.body.getAttribute("data-step"),
      now: document.getElementById("now").textContent,
      viewName: document.getElementById("view-name").textContent
    };
  }
  look("opened");
  var choice = document.getElementById("view");
  choice.value = "1";
  choice.dispatchEvent(new Event("change"));
  look("seat 0");
  choice.value = "0";
  choice.dispatchEvent(new Event("change"));
  look("spectator");
  var probe = document.createElement("pre");
  probe.id = "probe";
  probe.textContent = JSON.stringify([found]);
  document.body.appendChild(probe);
});
</script>
"""


def test_the_viewer_fits_1024_by_768_and_switches_views_in_chromium(
    browser: str, tmp_path: Path
) -> None:
    state = random_game("verraeter", {}, seed=2, limit=150)
    page = tmp_path / "replay.html"
    viewer.write_html(state, page, seats=True)
    page.write_text(
        page.read_text(encoding="utf-8").replace("</body>", LAYOUT_PROBE + "</body>"), "utf-8"
    )
    done = subprocess.run(
        [
            browser,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            f"--user-data-dir={tmp_path / 'profile'}",
            "--window-size=1024,768",
            "--virtual-time-budget=5000",
            "--dump-dom",
            page.as_uri() + "#step=100",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    match = re.search(r'<pre id="probe">(.*?)</pre>', done.stdout, re.S)
    assert match is not None, done.stderr[-2000:]
    (found,) = json.loads(html.unescape(match.group(1)))
    opened, seat, back = found["opened"], found["seat 0"], found["spectator"]
    # The picture takes the window's width (it took half of it beside the move list: text of
    # 11 units was drawn 5 pixels high), and the controls stay in sight.
    assert opened["scale"] > 0.8, opened
    assert opened["controlsInSight"]
    step = state.game.state_from_history(state.history()[:100])
    hand = len(step.to_dict()["hands"][0])
    assert hand > 0
    # The spectator sees no hand; seat 0's view shows its hand, at the same step.
    assert (opened["handCards"], seat["handCards"], back["handCards"]) == (0, hand, 0)
    assert [entry["step"] for entry in (opened, seat, back)] == ["100"] * 3
    assert (opened["view"], seat["view"], back["view"]) == ("0", "1", "0")
    assert seat["viewName"] == "view of seat 0" and back["viewName"] == "spectator"
    # The move that led here, as the view saw it.
    assert seat["now"].endswith(svg.move_texts(step, 0)[99])
    assert back["now"].endswith(svg.move_texts(step, None)[99])
