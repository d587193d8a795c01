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
def page():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser.new_page(viewport={"width": 1200, "height": 900})
        browser.close()


@pytest.mark.parametrize("game", ["sintra", "pavilion"])
def test_a_complete_game_in_the_browser(server, page, game):
    ARTIFACTS.mkdir(exist_ok=True)
    page.goto(server + "/")
    page.select_option("select[name=game]", game)
    page.select_option("select[name=seat1]", "random")
    page.click("button[type=submit]")
    page.click("#links a >> text=play")
    page.wait_for_selector("#status")
    page.screenshot(path=str(ARTIFACTS / f"{game}-start.png"))
    end = time.time() + 240
    moves = 0
    while time.time() < end:
        status = page.text_content("#status") or ""
        if "game over" in status:
            break
        buttons = page.locator("#moves button")
        if not buttons.count():
            page.wait_for_timeout(50)
            continue
        log_before = page.locator("#log li").count()
        buttons.first.click()  # a locator finds the button again if an update redrew it
        page.click("#confirm:enabled")
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {log_before}")
        moves += 1
    page.screenshot(path=str(ARTIFACTS / f"{game}-end.png"), full_page=True)
    assert "game over" in (page.text_content("#status") or "")
    assert moves > 10
    assert page.locator("#board svg").count() == 1
