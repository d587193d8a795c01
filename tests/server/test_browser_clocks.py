"""Timed games in a real headless Chromium: a clock chosen in the lobby, a person who lets their
time run out and is played for until they take their seat back, a turn-based game resumed a
day later (the server's clock set ahead), a restart that keeps the time left, and clients
that try to move late or to change their clock.

Needs Playwright and Debian's chromium, as tests/server/test_browser.py; screenshots go to
test-artifacts/.
"""

import re
import threading
import time
from contextlib import contextmanager

import httpx
import pytest

from tests.server import test_browser
from tests.server.test_browser import ARTIFACTS, PHONE, WIDE, new_page, take_a_turn
from tests.server.test_restart import free_port, start

server = test_browser.server  # the fixtures: a server of this module's own, and Chromium
browser = test_browser.browser

TWO_PEOPLE = [{"kind": "human", "name": "Ana"}, {"kind": "human", "name": "Bea"}]


def timed_game(base, clock, seats=TWO_PEOPLE, game="sintra"):
    """A game made through the API with a time control; its id and its seats' tokens."""
    body = {"game": game, "options": {"first_player": 0}, "seats": seats, "clock": clock}
    reply = httpx.post(f"{base}/api/games", json=body)
    assert reply.status_code == 201, reply.text
    g = reply.json()
    return g["id"], [s["token"] for s in g["seats"]]


def url(base, gid, token):
    return f"{base}/?game={gid}&token={token}"


def view(base, gid, token):
    return httpx.get(f"{base}/api/games/{gid}", params={"token": token}).json()


@contextmanager
def moving_in_time(base, gid, token):
    """Another person who plays each of their moves at once, while the block runs."""
    done = threading.Event()

    def play():
        while not done.is_set():
            try:
                v = view(base, gid, token)
                if v["over"]:
                    return
                if v["legal"]:
                    move = {"token": token, "action": v["legal"][0]["action"]}
                    httpx.post(f"{base}/api/games/{gid}/moves", json=move)
            except httpx.TransportError:
                pass  # the server restarts: try again
            done.wait(0.2)

    thread = threading.Thread(target=play, daemon=True)
    thread.start()
    try:
        yield
    finally:
        done.set()
        thread.join(timeout=10)


def seconds_shown(page, seat):
    """A seat's clock as the page shows it (m:ss), in seconds."""
    text = page.inner_text(f"#clocks .clock[data-seat='{seat}'] time")
    minutes, seconds = re.fullmatch(r"(\d+):(\d\d)", text).groups()
    return 60 * int(minutes) + int(seconds)


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["wide", "phone"])
def test_a_clock_chosen_in_the_lobby_runs_for_the_person_to_move(server, browser, viewport):
    page = new_page(browser, viewport)
    page.goto(server + "/")
    page.fill("input[name=name]", "Ana")
    page.select_option("select[name=game]", "sintra")
    page.select_option("select[name=seat1]", "random")
    assert page.locator("#clock-bot").is_hidden()  # untimed: nobody plays for anyone
    page.select_option("select[name=clock]", label="5 minutes a game, 3 seconds a move")
    page.select_option("select[name=clock_bot]", "greedy")
    page.screenshot(path=str(ARTIFACTS / f"clock-lobby-{viewport['width']}.png"), full_page=True)
    created = time.time()  # the clock starts with the game
    page.click("button[type=submit]")
    page.wait_for_selector("#clocks:not([hidden])")
    gid, token = page.url.split("game=")[1].split("&token=")
    control = view(server, gid, token)["clock"]["control"]
    assert control == {"kind": "game", "minutes": 5, "increment": 3, "bot": "greedy"}
    assert page.inner_text("#clocks .control") == "5:00 a game + 3 s a move"
    # only people have clocks; Ana's runs, counted down from the server's time
    assert page.locator("#clocks .clock").count() == 1
    page.wait_for_selector("#clocks .clock.running[data-seat='0']")
    page.wait_for_function(
        "document.querySelector(\"#clocks .clock[data-seat='0'] time\").textContent < '4:59'"
    )
    assert page.locator("#undo").is_hidden()  # an undo would give the time back
    page.screenshot(path=str(ARTIFACTS / f"clock-table-{viewport['width']}.png"))
    assert take_a_turn(page)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")  # the reply
    spent = time.time() - created  # at most
    left = view(server, gid, token)["clock"]["left"][0]
    assert 300 - spent + 3 <= left < 300 + 3  # charged for the time taken, then the increment
    assert not page.errors
    page.close()


def test_time_that_runs_out_is_played_for_then_the_seat_is_taken_back(server, browser):
    gid, tokens = timed_game(server, {"kind": "move", "seconds": 5})
    page = new_page(browser, PHONE)
    page.goto(url(server, gid, tokens[0]))
    page.wait_for_selector("#clocks .clock.running[data-seat='0']")
    chosen = view(server, gid, tokens[0])
    with moving_in_time(server, gid, tokens[1]):
        # Ana lets her time run out: the bot plays her move, and the log says so
        timed_out = "#log li:has-text('played by the bot: time ran out')"
        page.wait_for_selector(timed_out, timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "clock-timeout-390.png"))
        # a move she chose before her time ran out is refused; the clock is the server's
        move = {"token": tokens[0], "action": chosen["legal"][0]["action"],
                "version": chosen["version"], "clock": {"left": [9999, 0]}}  # fmt: skip
        late = httpx.post(f"{server}/api/games/{gid}/moves", json=move)
        assert late.status_code == 409, late.text
        # a second timeout in a row: the bot keeps her seat until she takes it back
        page.wait_for_selector("#away:not([hidden])", timeout=30_000)
        assert "a bot plays for now" in page.inner_text("#clocks .clock[data-seat='0']")
        page.wait_for_selector("#log li:has-text('played by the bot: player away')", timeout=30_000)
        page.screenshot(path=str(ARTIFACTS / "clock-away-390.png"))
        page.click("#back")
        page.wait_for_selector("#away", state="hidden")
        assert not view(server, gid, tokens[0])["seats"][0]["away"]
        # her own clock runs again on her next turn, and her moves are hers again
        page.wait_for_selector("#clocks .clock.running[data-seat='0']", timeout=30_000)
        page.wait_for_selector("#board g.clickable")
    shown = view(server, gid, tokens[0])
    assert shown["clock"]["left"] == [0, 0]  # no reserve was asked for, none was given
    assert not page.errors
    page.close()


def test_a_turn_based_game_after_a_restart_and_a_day(browser, tmp_path, monkeypatch):
    port = free_port()
    database = f"sqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    log = str(tmp_path / "server.log")
    monkeypatch.delenv("AZUL_CLOCK_SKEW", raising=False)
    proc = start(port, database, log)
    ana = bea = blitz = None
    try:
        turn, turn_tokens = timed_game(base, {"kind": "turn", "hours": 24})
        game, game_tokens = timed_game(base, {"kind": "game", "minutes": 10})
        # Bea allows notifications; the page's Notification is watched
        context = browser.new_context(viewport=WIDE, permissions=["notifications"])
        context.add_init_script(
            "window.told = []; window.Notification = class { static permission = 'granted';"
            " static requestPermission() { return Promise.resolve('granted'); }"
            " constructor(title, options) { window.told.push([title, options.body]); } };"
        )
        bea = context.new_page()
        bea.goto(url(base, turn, turn_tokens[1]))
        ana = new_page(browser, WIDE)
        ana.goto(url(base, turn, turn_tokens[0]))
        ana.wait_for_selector("#clocks .clock.running[data-seat='0']")
        assert ana.inner_text("#clocks .control") == "turn-based: 24 h a move"
        assert ana.inner_text("#clocks .clock[data-seat='0'] time") == "23 h 59 min"
        assert ana.locator("#notify").is_visible()  # its permission is not given yet
        assert bea.locator("#notify").is_hidden()  # already allowed
        while view(base, turn, turn_tokens[0])["to_move"] == 0:  # Ana's turn, to its end
            before = ana.locator("#log li").count()
            ana.wait_for_selector("#board g.clickable")
            assert take_a_turn(ana)
            ana.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
        bea.wait_for_function("window.told.length === 1")  # her turn: she is told
        assert bea.evaluate("window.told") == [["Your turn", "Stained Glass of Sintra"]]
        bea.wait_for_selector("#clocks .clock.running[data-seat='1']")
        # a real-time game, mid-clock, through two restarts
        blitz = new_page(browser, PHONE)
        blitz.goto(url(base, game, game_tokens[0]))
        blitz.wait_for_selector("#clocks .clock.running[data-seat='0']")
        deadline = view(base, game, game_tokens[0])["clock"]["deadline"]
        proc.terminate()
        proc.wait()
        proc = start(port, database, log)
        blitz.wait_for_selector(".connection.connected", timeout=30_000)
        after = view(base, game, game_tokens[0])["clock"]
        assert after["deadline"] == deadline and after["seat"] == 0  # the time left kept
        assert abs(seconds_shown(blitz, 0) - (deadline - time.time())) <= 2
        blitz.screenshot(path=str(ARTIFACTS / "clock-restart-390.png"))
        # a day and an hour later (the server's clock only): Bea's move is played for her
        proc.terminate()
        proc.wait()
        monkeypatch.setenv("AZUL_CLOCK_SKEW", str(25 * 3600))
        proc = start(port, database, log)
        bea.wait_for_selector("#log li:has-text('played by the bot: time ran out')", timeout=30_000)
        assert view(base, turn, turn_tokens[0])["log"][-1]["seat"] == 1
        ana.wait_for_selector("#log li:has-text('played by the bot: time ran out')", timeout=30_000)
        bea.screenshot(path=str(ARTIFACTS / "clock-turn-based-1280.png"))
        assert not (ana.errors or blitz.errors)
    finally:
        for page in (ana, bea, blitz):
            if page is not None:
                page.close()
        proc.terminate()
        proc.wait()
