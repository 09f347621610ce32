"""``rivals serve`` in a real browser: Playwright drives the system's Chromium (the one the
viewer's tests use; no browser is downloaded) against a server on 127.0.0.1. Every game is
played to its end by clicking, on the board where it offers the move and in the move menu
otherwise, and a game with hidden cards is played by two people from two browsers."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Dialog, Page, sync_playwright

import rivals
from rivals import replay as replays
from tests.random_play import random_arena
from tests.test_viewer import chromium
from tests.web_client import live_server

# (game, parameters typed in the lobby): small games, so that the whole file stays quick.
GAMES = [
    ("rosenkoenig", {}),
    ("sekigahara", {}),
    ("rheinlaender", {}),
    ("verraeter", {"players": 3, "rounds": 2}),
    ("battlecards", {"max_turns": 10}),
]
STEP_TIMEOUT_MS = 30_000


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with live_server() as address:
        yield address


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    found = chromium()
    assert found is not None, "the web pages are tested in Chromium (scripts/test.sh installs it)"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=found, args=["--no-sandbox"])
        yield launched
        launched.close()


def page_of(browser: Browser, width: int = 1280, height: int = 900) -> Page:
    # Playwright waits by evaluating strings, which the pages' policy forbids any script.
    context = browser.new_context(viewport={"width": width, "height": height}, bypass_csp=True)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    return page


def set_up(page: Page, server: str, game: str, params: dict[str, Any], seats: list[str]) -> None:
    """The lobby: the game, its parameters and who holds each seat ("person" or a bot)."""
    page.goto(f"{server}/")
    page.click(f'.game-choice[data-game="{game}"]')
    for key, value in params.items():
        field = page.locator(f'[data-param="{key}"]')
        if key == "players":
            field.select_option(str(value))
        else:
            field.fill(str(value))
    for seat, who in enumerate(seats):
        page.select_option(f'select[data-seat="{seat}"]', who)


def step_of(page: Page) -> int:
    return int(page.get_attribute("body", "data-step") or -1)


def wait_for_turn(page: Page) -> bool:
    """Waits until this page's seat is to move (True) or the game is over (False)."""
    page.wait_for_function(
        "document.body.classList.contains('my-turn') || document.body.dataset.over === 'true'",
        timeout=STEP_TIMEOUT_MS,
    )
    return page.get_attribute("body", "data-over") != "true"


def click_a_move(page: Page, rng: random.Random, counts: dict[str, int]) -> None:
    """One legal move, clicked: on the board when the board offers one (most of the time),
    else in the menu; a place that offers several moves asks which."""
    before = step_of(page)
    spots = page.locator("#board .hotspot:not(.quiet)")
    if spots.count() and rng.random() < 0.8:
        spots.nth(rng.randrange(spots.count())).click()
        counts["board"] += 1
        popup = page.locator("#popup:not([hidden]) button.move")
        if popup.count():
            popup.nth(rng.randrange(popup.count())).click()
            counts["popup"] += 1
    else:
        buttons = page.locator("#menu button.move:visible")
        if not buttons.count():
            page.locator("#menu details").first.click()  # a long group is folded
            buttons = page.locator("#menu button.move:visible")
        buttons.nth(rng.randrange(buttons.count())).click()
        counts["menu"] += 1
    page.wait_for_function(
        f"Number(document.body.dataset.step) > {before}", timeout=STEP_TIMEOUT_MS
    )


def play_to_the_end(page: Page, rng: random.Random, counts: dict[str, int]) -> None:
    for _ in range(2000):
        if not wait_for_turn(page):
            return
        click_a_move(page, rng, counts)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game", "params"), GAMES, ids=[game for game, _ in GAMES])
def test_a_whole_game_is_played_by_clicking(
    browser: Browser, server: str, game: str, params: dict[str, Any]
) -> None:
    page = page_of(browser)
    players = int(params.get("players", 3 if game == "rheinlaender" else 2))
    set_up(page, server, game, params, ["person"] + ["random"] * (players - 1))
    page.click("#start")
    page.wait_for_url("**/play#seat=*")
    rng = random.Random(game)
    counts = {"board": 0, "menu": 0, "popup": 0}
    # The first move typed, by its number in the menu.
    assert wait_for_turn(page)
    before = step_of(page)
    page.fill("#typed-move", "1")
    page.press("#typed-move", "Enter")
    page.wait_for_function(f"Number(document.body.dataset.step) > {before}")
    play_to_the_end(page, rng, counts)
    result = page.locator("#result")
    assert result.is_visible()
    assert result.locator(".result-text").inner_text().strip()
    rows = result.locator("table.scores tr")
    assert rows.count() == players
    assert "you" in rows.nth(0).inner_text()
    assert counts["board"] > 0, counts  # the board offered moves to click
    assert page.errors == []  # type: ignore[attr-defined]
    # Every move of the game is in the move list, and each seat's last move beside its name.
    log = page.locator("#log li")
    assert log.count() > 0
    assert page.locator("#seats li").count() == players
    # Each seat's last move beside its name.
    assert page.locator("#seats li .last-move").nth(0).inner_text().startswith("last: ")
    page.context.close()


def test_two_people_play_a_hidden_card_game_from_two_browsers(
    browser: Browser, server: str
) -> None:
    host = page_of(browser)
    set_up(host, server, "verraeter", {"players": 3, "rounds": 2}, ["person", "person", "random"])
    host.click("#start")
    links = host.locator("#link-list a.play-link")
    links.first.wait_for()
    assert links.count() == 2
    first_link, second_link = (links.nth(k).get_attribute("href") for k in range(2))
    assert first_link and second_link and first_link != second_link
    guest = page_of(browser)
    guest.goto(second_link)
    host.goto(first_link)
    pages = {0: host, 1: guest}
    for seat, page in pages.items():
        page.wait_for_selector("body[data-step]")
        assert f"seat {seat}" in page.locator("#you").inner_text()
    rng = random.Random(7)
    counts = {"board": 0, "menu": 0, "popup": 0}
    for _ in range(500):
        if all(page.get_attribute("body", "data-over") == "true" for page in pages.values()):
            break
        for seat, page in pages.items():
            other = 1 - seat
            # A seat's page shows its own hand and never the other person's.
            page.wait_for_selector("#board svg")
            assert page.locator(f'#board g.seat[data-seat="{other}"] g.hand-card').count() == 0
            if "my-turn" in (page.get_attribute("body", "class") or ""):
                click_a_move(page, rng, counts)
        host.wait_for_timeout(50)
    for page in pages.values():
        page.wait_for_selector("#result:not([hidden])", timeout=STEP_TIMEOUT_MS)
        assert page.locator("table.scores tr").count() == 3
        assert page.errors == []  # type: ignore[attr-defined]
    assert counts["board"] + counts["menu"] > 0


def test_hint_undo_save_resign_rematch_and_resume(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    page = page_of(browser)
    dialogs: list[str] = []

    def answer(dialog: Dialog) -> None:
        dialogs.append(dialog.message)
        dialog.accept()

    page.on("dialog", answer)
    set_up(page, server, "verraeter", {"players": 3, "rounds": 2}, ["person", "random", "random"])
    page.click("#start")
    page.wait_for_url("**/play#seat=*")
    assert wait_for_turn(page)
    page.click("#hint")
    page.wait_for_selector("#menu button.move.hinted")
    assert "hint: best would play" in page.locator("#toasts").inner_text()
    click_a_move(page, random.Random(1), {"board": 0, "menu": 0, "popup": 0})
    assert wait_for_turn(page)
    page.click("#undo")
    page.wait_for_selector(".toast.error")
    # Verräter's first moves are public, but the other seats have moved since: nothing is undone.
    assert (
        "cannot undo: another seat has moved since your move"
        in page.locator(".toast.error").inner_text()
    )
    page.locator(".toast.error").click()
    step = step_of(page)
    with page.expect_download() as download:
        page.click("#save")
    saved = tmp_path / "saved.json"
    download.value.save_as(saved)
    assert dialogs and "holds every hidden card" in dialogs[-1]
    assert len(replays.load(saved).history()) == step
    page.click("#resign")
    page.wait_for_selector("#result:not([hidden])")
    assert "resigned" in page.locator("#result .result-text").inner_text()
    page.click("#rematch")
    page.wait_for_selector("#toasts a")
    page.click("#toasts a")
    page.wait_for_function(
        "document.body.dataset.step !== undefined && document.body.dataset.over === 'false'"
    )
    assert page.locator("#result").is_hidden()
    # The saved game resumes from the lobby where it stood.
    page.goto(f"{server}/")
    page.wait_for_selector(".game-choice.chosen")  # the lobby has read the catalog
    page.set_input_files("#resume-file", str(saved))
    page.wait_for_selector("#resume-box:not([hidden]), #resume-error:not(:empty)")
    assert page.locator("#resume-error").inner_text() == ""
    assert "holds every hidden card" in page.locator("#resume-summary").inner_text()
    page.select_option('select[data-seat="1"]', "random")
    page.select_option('select[data-seat="2"]', "random")
    page.click("#start")
    page.wait_for_url("**/play#seat=*")
    page.wait_for_selector("body[data-step]")
    assert step_of(page) >= step
    assert page.locator("#log li").count() > 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_replay_opens_in_the_review_and_its_positions_are_analysed(
    browser: Browser, server: str, tmp_path: Path
) -> None:
    rng = random.Random(3)
    state = rivals.make("rosenkoenig").new_initial_state()
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    saved = tmp_path / "game.json"
    saved.write_text(replays.dumps(state), encoding="utf-8")
    page = page_of(browser, 1024, 768)
    page.goto(f"{server}/")
    page.wait_for_selector(".game-choice.chosen")
    page.set_input_files("#review-file", str(saved))
    page.wait_for_url("**/review#id=*")
    page.wait_for_selector("#board svg")
    last = len(state.history())
    assert page.locator("#counter").inner_text() == f"{last} / {last}"
    page.click("#first")
    page.wait_for_function("document.body.dataset.step === '0'")
    # On to the first decision (the deal comes first), by the keyboard.
    decision = next(
        k
        for k in range(last)
        if not state.game.state_from_history(state.history()[:k]).is_chance_node()
    )
    for _ in range(decision):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(f"document.body.dataset.step === '{decision}'")
    page.fill("#bot-settings", "iterations=300")
    page.click("#analyse")
    rows = page.locator(".analysis-table tbody tr")
    rows.first.wait_for()
    at = state.game.state_from_history(state.history()[:decision])
    assert rows.count() == len(at.legal_actions())
    assert page.locator(".analysis-table tr.played").count() == 1
    # A click in the move list goes to that step.
    page.click('#log li[data-step="5"]')
    page.wait_for_function("document.body.dataset.step === '5'")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_running_arena_is_watched_from_the_lobby(browser: Browser, tmp_path: Path) -> None:
    out = random_arena(tmp_path / "arena.jsonl", "sekigahara", 6)
    with live_server(watch=[out]) as address:
        page = page_of(browser, 1024, 768)
        page.goto(f"{address}/")
        page.click("#watch-list a")
        page.wait_for_function("document.body.dataset.games === '6'")
        assert page.locator("#standings tbody tr").count() == 2
        assert page.locator("#recent li").count() == 6
        with page.context.expect_page() as opened:
            page.click("#recent li >> nth=0")
        review = opened.value
        review.wait_for_selector("#board svg")
        assert "review" in review.url
        assert page.errors == []  # type: ignore[attr-defined]
