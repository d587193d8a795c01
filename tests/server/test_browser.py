"""A real headless Chromium plays complete games against a bot through the web client.

Needs Playwright and Debian's chromium (.ci/run installs both); skipped without them.
Screenshots are saved under test-artifacts/.
"""

import shutil
import subprocess
import time
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    pytest.skip("Debian's chromium is not installed", allow_module_level=True)
sync_api = pytest.importorskip("playwright.sync_api")

from tests.server.test_restart import free_port, start  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    proc = start(
        port,
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}",
        log=str(ARTIFACTS / "server.log"),
    )
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


@pytest.fixture(scope="module")
def page(browser):
    return browser.new_page(viewport={"width": 1200, "height": 900}, locale="en-GB")


def take_a_turn(page):
    """One move the way a person makes it: click highlighted pieces and places on the board
    while there are any, else pick from the list of moves; then confirm."""
    for _ in range(6):
        if page.locator("#confirm:enabled").count():
            page.click("#confirm")
            return True
        clickable = page.locator("#board .clickable")
        if clickable.count():
            clickable.first.click()
        elif page.locator("#moves button").count():
            page.locator("#moves button").first.click()
        else:
            return False
    raise AssertionError("no move could be chosen in 6 clicks")


@pytest.mark.parametrize("game", ["sintra", "pavilion"])
def test_a_complete_game_in_the_browser(server, page, game):
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(server + "/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=seat1]", "random")
    page.click("button[type=submit]")
    page.click("#links a >> text=play")
    page.wait_for_selector("#status")
    page.wait_for_selector("#board svg")
    page.check("#patterns")  # colour-blind mode: patterns over the colours, remembered
    page.wait_for_selector("#board pattern", state="attached")
    page.click("#hint:enabled", timeout=120_000)  # the bot may move first, in a new pool
    page.wait_for_function(
        "document.querySelector('#hint-text').textContent.includes(':')", timeout=120_000
    )
    assert page.locator("#moves button.hinted").count() >= 1
    page.screenshot(path=str(ARTIFACTS / f"{game}-start.png"))
    end = time.time() + 240
    moves = board_clicks = 0
    while time.time() < end:
        status = page.text_content("#status") or ""
        if "game over" in status:
            break
        log_before = page.locator("#log li").count()
        board_clicks += page.locator("#board .clickable").count() > 0
        if not take_a_turn(page):
            page.wait_for_timeout(50)
            continue
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {log_before}")
        moves += 1
    page.screenshot(path=str(ARTIFACTS / f"{game}-end.png"), full_page=True)
    assert "game over" in (page.text_content("#status") or "")
    assert moves > 10 and board_clicks > 5
    assert page.locator("#board pattern").count() > 0  # the choice survived every redraw
    rows = page.locator("#breakdown tr")
    assert rows.count() >= 3 and "total" in rows.last.text_content()
    page.click("#first")
    page.wait_for_function("document.querySelector('#replay-ply').textContent.startsWith('move 0')")
    page.wait_for_selector("#board svg title:text-matches('round 1')", state="attached")
    page.screenshot(path=str(ARTIFACTS / f"{game}-replay-start.png"))
    page.click("#next")
    page.wait_for_function("document.querySelector('#replay-ply').textContent.startsWith('move 1')")


@pytest.mark.parametrize(
    "locale,words",
    [
        ("fr-FR", ["Nouvelle partie", "Créer", "à vous", "Manche 1 sur 6", "tour de défausse"]),
        ("pt-BR", ["Nova partida", "Criar", "sua vez", "Rodada 1 de 6", "torre de descarte"]),
    ],
)
def test_a_few_moves_in_french_and_portuguese(server, browser, locale, words):
    """The browser's language is followed, moves are made, and a switch is remembered."""
    new_game, create, your_turn, round_one, rules_term = words
    page = browser.new_page(viewport={"width": 1200, "height": 900}, locale=locale)
    page.goto(server + "/")
    page.wait_for_selector(f"h2:text('{new_game}')")
    assert page.locator("button[type=submit]").text_content() == create
    page.click("#rules summary")
    page.wait_for_selector(f"#rules-text:has-text('{rules_term}')")
    page.select_option("select[name=seat1]", "random")
    page.click("button[type=submit]")
    page.click("#links a >> nth=0")
    page.wait_for_selector(f"#status:has-text('{your_turn}')", timeout=60_000)
    assert round_one in page.locator("#board svg").text_content()
    for _ in range(3):
        log_before = page.locator("#log li").count()
        page.wait_for_selector("#moves button", timeout=60_000)
        assert take_a_turn(page)
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {log_before}")
    page.screenshot(path=str(ARTIFACTS / f"pavilion-{locale}.png"))
    page.select_option("#lang", "en")  # the choice is remembered over the browser's language
    page.wait_for_selector("#status:has-text('Summer Pavilion')")
    page.goto(server + "/")
    page.wait_for_selector("h2:text('New game')")
    page.close()
