"""A real headless Chromium plays through the web client the way people do: by clicking the
board (never the list of moves), on a wide screen and on a phone.

Needs Playwright and Debian's chromium (.ci/run installs both); skipped without them.
Screenshots of every phase are saved under test-artifacts/.
"""

import os
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import httpx
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
WIDE = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
FULL_HD = {"width": 1920, "height": 1080}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    port = free_port()
    ARTIFACTS.mkdir(exist_ok=True)
    proc = start(
        port,
        f"sqlite:///{tmp_path_factory.mktemp('db') / 'games.db'}",
        log=str(ARTIFACTS / "server.log"),
        extra=["--limit", "creates_per_minute=200"],  # a module's tests make many games
    )
    yield f"http://127.0.0.1:{port}"
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture
def server_with_mini(tmp_path):
    """A server in this process (bots in threads), where the tiny third game is registered
    after the app is built: the lobby must offer it all the same."""
    from concurrent.futures import ThreadPoolExecutor

    import azul
    from azul.server.app import create_app

    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", ThreadPoolExecutor(2))
    azul.GAMES.register("mini", "tests.minigame:MiniGame")
    try:
        with served(app) as url:
            yield url
    finally:
        azul.GAMES.unregister("mini")


@contextmanager
def served(app):
    """``app`` served by uvicorn in a thread of this process, at the URL given."""
    import threading

    import uvicorn

    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    try:
        end = time.time() + 30
        while not server.started:
            assert time.time() < end and thread.is_alive(), "the server did not start"
            time.sleep(0.05)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=15)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        yield browser
        browser.close()


def new_page(browser, viewport=WIDE, locale="en-GB", **options):
    page = browser.new_page(viewport=viewport, locale=locale, **options)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def create(page, server, game, bot="random", name="Ana"):
    """A new game from the lobby: you against a bot; the table opens at once."""
    page.goto(server + "/")
    page.fill("input[name=name]", name)
    page.select_option("select[name=game]", game)
    page.select_option("select[name=seat1]", bot)
    page.click("button[type=submit]")
    page.wait_for_selector("#board svg", timeout=30_000)


def log_length(page) -> int:
    return page.locator("#log li").count()


def take_a_turn(page, keep=None) -> bool:
    """One move made on the board alone: click highlighted elements, then a choice drawn
    beside the board if several moves remain (a payment, the tiles to keep), then confirm.
    ``keep`` (a number of tiles) decides a pass's keep picker; by default none is kept. A new
    view can arrive between two clicks (a bot's move): each click is tried again then."""
    for _ in range(12):
        try:
            if page.locator("#confirm:enabled").count():
                page.locator("#confirm").click(timeout=2000)
                return True
            if page.locator("#choices .keep").count():
                chips = page.locator("#choices .keep button")
                for i in range(min(keep or 0, chips.count())):
                    chips.nth(i).click(timeout=2000)
                if not keep:
                    page.locator("#choices >> text=Keep none").click(timeout=2000)
                continue
            if page.locator("#choices button").count():
                page.locator("#choices button").first.click(timeout=2000)
                continue
            clickable = page.locator("#board g.clickable")
            if not clickable.count():
                return False
            clickable.first.click(timeout=2000)
        except sync_api.TimeoutError:
            continue
    raise AssertionError("no move could be made in 12 clicks")


def play_to_the_end(page, name, budget=300):
    """Take turns whenever it is our turn, screenshotting the start, the middle and the end."""
    end = time.time() + budget
    moves = 0
    while time.time() < end:
        if page.locator("#end:not([hidden])").count():
            break
        before = log_length(page)
        if not take_a_turn(page):
            page.wait_for_timeout(50)
            continue
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
        moves += 1
        if moves == 1:
            page.screenshot(path=str(ARTIFACTS / f"{name}-1-first-move.png"))
        if moves == 20:
            page.screenshot(path=str(ARTIFACTS / f"{name}-2-middle.png"), full_page=True)
    page.wait_for_selector("#end:not([hidden])", timeout=60_000)
    page.screenshot(path=str(ARTIFACTS / f"{name}-3-end.png"), full_page=True)
    return moves


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["wide", "phone"])
@pytest.mark.parametrize("game", ["sintra", "pavilion"])
def test_a_complete_game_by_the_board_alone(server, browser, game, viewport):
    page = new_page(browser, viewport)
    name = f"{game}-{viewport['width']}"
    create(page, server, game)
    assert page.locator("#invite").is_hidden()  # nobody to invite: a bot plays the other seat
    if not page.is_visible("#patterns"):  # on a phone the settings open from their button
        page.click("#settings summary")
    page.check("#patterns")  # colour-blind mode: patterns over the colours, remembered
    if viewport is PHONE:
        page.click("#settings summary")
    page.wait_for_selector("#board pattern", state="attached")
    page.screenshot(path=str(ARTIFACTS / f"{name}-0-start.png"), full_page=True)
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= viewport["width"]  # no horizontal scroll
    if viewport is PHONE:  # tap targets of at least 44 px on a phone
        page.wait_for_selector("#board g.clickable", timeout=60_000)
        sizes = page.evaluate(
            "[...document.querySelectorAll('#board g.clickable')].map(g => {"
            "const r = g.getBoundingClientRect(); return Math.min(r.width, r.height)})"
        )
        assert min(sizes) >= 44, sizes
    moves = play_to_the_end(page, name)
    assert moves > 10
    assert page.locator("#board pattern").count() > 0  # the choice survived every redraw
    rows = page.locator("#breakdown tr")
    assert rows.count() >= 3 and "total" in rows.last.text_content()
    first = page.locator("#log li").last.text_content()
    assert "Ana" in first or "random" in first  # the log speaks in words, with names
    page.click("#first")
    page.wait_for_selector("#board svg title:text-matches('ound 1')", state="attached")
    page.screenshot(path=str(ARTIFACTS / f"{name}-4-replay.png"))
    page.click("#last")
    assert not page.errors
    if viewport is WIDE:  # a rematch: same seats, a new deal
        old = page.url
        page.click("#rematch")
        page.wait_for_url(lambda url: url != old, timeout=30_000)
        page.wait_for_selector("#board svg")
        assert page.locator("#log li").count() <= 1 and page.locator("#end").is_hidden()
    page.close()


def api_game(server, game="pavilion", seed=3, **options):
    """A game of Ana against greedy bots (one unless the options name more players), made
    through the API; the person's page address."""
    bots = [{"kind": "bot", "bot": "greedy"}] * (options.get("players", 2) - 1)
    body = {
        "game": game,
        "options": {"first_player": 0, **options},
        "seed": seed,
        "seats": [{"kind": "human", "name": "Ana"}, *bots],
    }
    reply = httpx.post(f"{server}/api/games", json=body)
    assert reply.status_code == 201, reply.text
    g = reply.json()
    return g, f"{server}/?game={g['id']}&token={g['seats'][0]['token']}"


def test_undo_takes_back_the_bots_reply_too(server, browser):
    page = new_page(browser)
    _, url = api_game(server)
    page.goto(url)
    page.wait_for_selector("#board g.clickable")
    start = page.locator("#board").inner_html()
    assert take_a_turn(page)
    page.wait_for_function("document.querySelectorAll('#log li').length >= 2")  # the reply
    page.wait_for_selector("#undo:enabled")
    page.screenshot(path=str(ARTIFACTS / "undo-before.png"))
    page.click("#undo")
    page.wait_for_function("document.querySelectorAll('#log li').length === 0")
    page.wait_for_selector("#board g.clickable")
    assert page.locator("#board svg title").first.text_content() in start
    page.close()


def test_a_move_on_an_old_view_is_refused_and_the_page_shows_the_game_now(server, browser):
    page = new_page(browser)
    g, url = api_game(server, game="sintra")
    token = g["seats"][0]["token"]
    page.route_web_socket("**/ws*", lambda ws: None)  # no live views: the page's view ages
    sent = []
    page.on("request", lambda r: sent.append(r.post_data_json) if "/moves" in r.url else None)
    page.goto(url)
    page.wait_for_selector("#board g.clickable")
    seen = httpx.get(f"{server}/api/games/{g['id']}", params={"token": token}).json()
    # meanwhile the same seat moves from another tab, and the bot replies
    httpx.post(
        f"{server}/api/games/{g['id']}/moves",
        json={"token": token, "action": seen["legal"][0]["action"]},
    )
    wait = {"token": g["watch_token"]}
    end = time.time() + 60
    while len(httpx.get(f"{server}/api/games/{g['id']}", params=wait).json()["log"]) < 2:
        assert time.time() < end, "the bot did not reply"
        time.sleep(0.05)
    assert take_a_turn(page)
    page.wait_for_function("document.querySelectorAll('#log li').length === 2")
    assert "not played" in page.text_content("#error")
    assert sent and sent[0]["version"] == seen["version"]  # the move named its view
    view = httpx.get(f"{server}/api/games/{g['id']}", params=wait).json()
    assert len(view["log"]) == 2  # the move on the old view was never played
    page.close()


def test_a_pass_that_keeps_fewer_than_four_tiles(server, browser):
    page = new_page(browser)
    g, url = api_game(server, seed=11)
    page.goto(url)
    watch = {"token": g["watch_token"]}
    while True:  # draft until the play phase holds more than 4 tiles in hand
        page.wait_for_selector("#board g.clickable", timeout=60_000)
        view = httpx.get(f"{server}/api/games/{g['id']}", params=watch).json()
        hand = sum(view["position"]["players"][0]["hand"].values())
        if view["decision"] == "place" and view["to_move"] == 0 and hand > 4:
            break
        before = log_length(page)
        assert take_a_turn(page)
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.click("#board g.clickable[data-pass]")
    page.wait_for_selector("#choices .keep")
    page.screenshot(path=str(ARTIFACTS / "pavilion-keep-picker.png"))
    chips = page.locator("#choices .keep button")
    chips.nth(0).click()
    chips.nth(1).click()
    page.wait_for_selector("#confirm:enabled")
    assert "points" in page.text_content("#preview")
    page.click("#confirm")
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.title.startsWith('pass'))"
    )
    view = httpx.get(f"{server}/api/games/{g['id']}", params=watch).json()
    (passed,) = [e["move"] for e in view["log"] if e["seat"] == 0 and e["move"].startswith("pass")]
    assert len(passed.removeprefix("pass:")) == 2  # e.g. pass:GR: two tiles kept of the hand
    page.close()


def test_the_page_comes_back_after_a_server_restart(browser, tmp_path):
    port = free_port()
    database = f"sqlite:///{tmp_path / 'games.db'}"
    base = f"http://127.0.0.1:{port}"
    proc = start(port, database)
    page = new_page(browser)
    try:
        _, url = api_game(base, game="sintra")
        page.goto(url)
        page.wait_for_selector(".connection.connected")
        page.wait_for_selector("#board g.clickable")  # drawn by the drawing process
        assert take_a_turn(page)
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        page.wait_for_selector(".connection.reconnecting", timeout=10_000)
        page.screenshot(path=str(ARTIFACTS / "restart-reconnecting.png"))
        proc = start(port, database)
        page.wait_for_selector(".connection.connected", timeout=30_000)
        page.wait_for_selector("#board g.clickable", timeout=30_000)
        before = log_length(page)
        assert take_a_turn(page)  # the game goes on from where it was
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
        assert not page.errors
    finally:
        page.close()
        proc.terminate()
        proc.wait()


def test_a_bad_link_says_so(server, browser):
    page = new_page(browser)
    page.goto(f"{server}/?game=0123456789abcdef&token=nothing")
    page.wait_for_selector("#problem:not([hidden])")
    assert "does not open a game" in page.text_content("#problem")
    page.screenshot(path=str(ARTIFACTS / "bad-link.png"))
    page.close()


def test_a_move_with_the_keyboard_alone(server, browser):
    page = new_page(browser)
    _, url = api_game(server, game="sintra")
    page.goto(url)
    page.wait_for_selector("#board g.clickable")
    before = log_length(page)
    for _ in range(4):
        if page.locator("#confirm:enabled").count():
            break
        page.focus("#board g.clickable")
        page.keyboard.press("Enter")
    page.focus("#confirm")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.close()


def test_no_serious_accessibility_problem(server, browser):
    from axe_playwright_python.sync_playwright import Axe

    page = new_page(browser)
    found = {}
    page.goto(server + "/")
    page.wait_for_selector("#seats select")
    found["lobby"] = Axe().run(page).response["violations"]
    _, url = api_game(server, game="sintra")
    page.goto(url)
    page.wait_for_selector("#board g.clickable")
    found["table"] = Axe().run(page).response["violations"]
    serious = {
        where: [(v["id"], v["impact"], len(v["nodes"])) for v in violations]
        for where, violations in found.items()
    }
    assert all(v[1] not in ("serious", "critical") for vs in serious.values() for v in vs), serious
    page.close()


@pytest.mark.parametrize(
    "locale,words",
    [
        ("fr-FR", ["Nouvelle partie", "Créer et jouer", "À vous", "tour de défausse"]),
        ("pt-BR", ["Nova partida", "Criar e jogar", "Sua vez", "torre de descarte"]),
    ],
)
def test_a_few_moves_in_french_and_portuguese(server, browser, locale, words):
    """The browser's language is followed, moves are made, and a switch is remembered."""
    new_game, create_word, your_turn, rules_term = words
    page = new_page(browser, locale=locale)
    page.goto(server + "/")
    page.wait_for_selector(f"h2:text('{new_game}')")
    assert page.locator("button[type=submit]").text_content() == create_word
    page.click("#rules summary")
    page.wait_for_selector(f"#rules-text:has-text('{rules_term}')")
    _, url = api_game(server)
    page.goto(url)
    page.wait_for_selector(f"#status:has-text('{your_turn}')", timeout=60_000)
    for _ in range(2):
        before = log_length(page)
        page.wait_for_selector("#board g.clickable", timeout=60_000)
        assert take_a_turn(page)
        page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    page.screenshot(path=str(ARTIFACTS / f"pavilion-{locale}.png"))
    page.select_option("#lang", "en")  # the choice is remembered over the browser's language
    page.wait_for_selector("#status:has-text('Your turn')")
    page.close()


def test_the_lobby_is_built_from_the_servers_games(server, browser):
    """The games, their options and the bots' levels come from /api/setup: each game shows its
    own options only, and its choices are sent as its options."""
    setup = httpx.get(f"{server}/api/setup").json()
    page = new_page(browser)
    page.goto(server + "/")
    page.wait_for_selector("#seats select")
    titles = page.locator("select[name=game] option").all_text_contents()
    assert titles == [g["title"] for g in setup["games"]]
    for game in setup["games"]:
        page.select_option("select[name=game]", game["name"])
        shown = page.locator("#new-game label[data-game]:visible span").all_text_contents()
        assert shown == [o["label"] for o in game["options"]]
        for option in game["options"]:
            select = page.locator(f"select[data-option={option['name']}]:visible")
            labels = [v["label"] for v in option["values"]]
            assert select.locator("option").all_text_contents() == labels
    # the levels, each with its rating where the first game for 2 players has one measured
    page.select_option("select[name=game]", setup["games"][0]["name"])
    rated = setup["games"][0]["ratings"]["2"]
    assert rated, "the shipped file rates levels of the first game for 2 players"
    levels = page.locator("select[name=seat1] option").all_text_contents()
    wanted = []
    for level in setup["levels"]:
        r = rated.get(level["name"])
        extra = f" · rating {r['rating']} ({r['low']}–{r['high']})" if r else ""
        wanted.append(level["label"] + extra)
    assert levels[2:] == wanted
    assert any(level["name"] not in rated for level in setup["levels"])  # some shown bare
    # the last game with its last value of each option, and three players: three seats
    last = setup["games"][-1]
    page.select_option("select[name=game]", last["name"])
    for option in last["options"]:
        page.select_option(
            f"select[data-option={option['name']}]:visible", str(option["values"][-1]["value"])
        )
    page.select_option("select[data-option=players]:visible", "3")
    assert page.locator("#seats select").count() == 2
    if not last["ratings"].get("3"):  # no level measured for 3 players: names alone
        shown = page.locator("select[name=seat1] option").all_text_contents()
        assert shown[2:] == [level["label"] for level in setup["levels"]]
    page.select_option("select[name=seat1]", "random")
    page.select_option("select[name=seat2]", "random")
    page.click("button[type=submit]")
    page.wait_for_selector("#board svg", timeout=30_000)
    address = parse_qs(urlsplit(page.url).query)
    view = httpx.get(
        f"{server}/api/games/{address['game'][0]}", params={"token": address["token"][0]}
    ).json()
    wanted = {o["name"]: o["values"][-1]["value"] for o in last["options"]} | {"players": 3}
    assert {k: view["options"][k] for k in wanted} == wanted  # typed: 3, not "3"
    assert last["title"] in page.title()
    assert not page.errors
    page.close()


def test_a_game_registered_after_the_server_started_is_offered_and_played(
    server_with_mini, browser
):
    page = new_page(browser)
    try:
        page.goto(server_with_mini + "/")
        page.wait_for_selector("#seats select")
        assert "Mini draft" in page.locator("select[name=game] option").all_text_contents()
        page.fill("input[name=name]", "Ana")
        page.select_option("select[name=game]", "mini")
        players = page.locator("select[data-option=players]:visible option")
        assert players.all_text_contents() == ["2"]  # its only choice; no other game's options
        assert page.locator("#new-game label[data-game]:visible").count() == 1
        page.click("#rules summary")  # a game without a rules summary says so
        page.wait_for_selector("#rules-text:has-text('no rules summary')")
        page.click("#rules summary")
        page.select_option("select[name=seat1]", "random")
        page.screenshot(path=str(ARTIFACTS / "mini-lobby.png"))
        page.click("button[type=submit]")
        page.wait_for_selector("#board svg", timeout=30_000)
        assert "Mini draft" in page.title()
        # its drawing has nothing to click: a move is chosen from the list of every move
        page.wait_for_selector("#all-moves:not([hidden])", timeout=30_000)
        page.click("#all-moves summary")
        page.locator("#moves button").first.click()
        page.wait_for_selector("#confirm:enabled")
        page.click("#confirm")
        page.wait_for_function("document.querySelectorAll('#log li').length >= 1")
        assert "Ana" in page.locator("#log li").last.text_content()
        page.screenshot(path=str(ARTIFACTS / "mini-table.png"))
        assert not page.errors
    except Exception:
        page.screenshot(path=str(ARTIFACTS / "mini-failure.png"), full_page=True)
        raise
    finally:
        page.close()


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["wide", "phone"])
def test_sintras_provisional_values_are_said_in_the_lobby_and_at_the_table(
    server, browser, viewport
):
    """The server's notice (the shipped printed values are provisional) shows while Sintra is
    chosen, in the browser's language, and again at the table."""
    page = new_page(browser, viewport, locale="fr-FR")
    page.goto(server + "/")
    page.wait_for_selector("#seats select")
    notice = page.locator("#game-notice")
    page.select_option("select[name=game]", "pavilion")
    assert notice.is_hidden()
    page.select_option("select[name=game]", "sintra")
    notice.wait_for(state="visible")
    words = notice.text_content()
    assert "sont provisoires" in words and "azul serve --components NOM=FICHIER" in words
    assert notice.bounding_box()["width"] <= viewport["width"]
    name = "wide" if viewport == WIDE else "phone"
    page.screenshot(path=str(ARTIFACTS / f"sintra-notice-lobby-{name}.png"), full_page=True)
    page.select_option("select[name=game]", "pavilion")
    assert notice.is_hidden()
    page.select_option("select[name=game]", "sintra")
    page.select_option("select[name=seat1]", "random")
    page.click("button[type=submit]")
    page.wait_for_selector("#board svg", timeout=30_000)
    at_table = page.locator("#notice")
    at_table.wait_for(state="visible")
    assert at_table.text_content() == words
    page.screenshot(path=str(ARTIFACTS / f"sintra-notice-table-{name}.png"), full_page=True)
    if page.locator("#settings summary").is_visible():  # a menu on a phone
        page.click("#settings summary")
    page.select_option("#lang", "en")  # the notice follows the language
    page.wait_for_selector("#notice:has-text('Some printed values of this game')")
    assert not page.errors
    page.close()


def test_a_pass_in_the_last_round_needs_no_keep_choice(server, browser):
    """In round 6 a kept tile costs its point at the end as a discarded one does at the pass
    (rules 5.9): the server says every keep ends as keeping nothing (``same_as``), so clicking
    pass makes one move, with no keep picker. Seat 0 gets there through the API, placing
    the tile that scores most and passing with 4 tiles kept."""
    g, url = api_game(server, seed=5)
    token = g["seats"][0]["token"]

    def my_turn():
        end = time.time() + 60
        while time.time() < end:
            v = httpx.get(f"{server}/api/games/{g['id']}", params={"token": token}).json()
            if v["to_move"] == 0 and v["legal"]:
                return v
            time.sleep(0.05)
        raise AssertionError("the bot did not answer")

    while True:
        v = my_turn()
        hand = sum(v["position"]["players"][0]["hand"].values())
        if v["position"]["round"] == 6 and v["decision"] == "place" and hand > 4:
            break
        best = max(v["legal"], key=lambda m: m["preview"].get("points", 0))
        body = {"token": token, "action": best["action"], "version": v["version"]}
        assert httpx.post(f"{server}/api/games/{g['id']}/moves", json=body).status_code == 200
    passes = [m for m in v["legal"] if m["move"].startswith("pass")]
    (canonical,) = [m for m in passes if "same_as" not in m["details"]]
    assert canonical["move"] == "pass:-" and len(passes) > 1
    assert {m["details"]["same_as"] for m in passes if m is not canonical} == {canonical["action"]}
    assert len({m["preview"]["final"] for m in passes}) == 1  # the same final score for all
    page = new_page(browser)
    page.goto(url)
    page.wait_for_selector("#board g.clickable[data-pass]", timeout=30_000)
    page.click("#board g.clickable[data-pass]")
    page.wait_for_selector("#confirm:enabled")
    assert not page.locator("#choices .keep").count()
    assert "final score" in page.text_content("#preview")
    page.screenshot(path=str(ARTIFACTS / "pavilion-last-pass.png"))
    page.click("#confirm")
    page.wait_for_function(
        "[...document.querySelectorAll('#log li')].some(li => li.title === 'pass:-')"
    )
    assert not page.errors
    page.close()


@pytest.fixture
def server_with_components(tmp_path):
    """A server in this process that offers a components file of a real copy as "mine"."""
    from concurrent.futures import ThreadPoolExecutor

    from azul.server.app import create_app
    from azul.server.settings import Settings
    from azul.sintra import data

    mine = tmp_path / "mine.toml"
    provenance = data.load_components().provenance
    text = data.SHIPPED.read_text(encoding="utf-8")
    mine.write_text(text.replace(provenance, "read off my copy"), encoding="utf-8")
    settings = Settings(files={"components": {"mine": str(mine)}})
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", ThreadPoolExecutor(2), settings)
    with served(app) as url:
        yield url


def test_the_lobby_offers_the_operators_components_file(server_with_components, browser):
    """A file the operator offers is a choice of the lobby; a game played with the values of a
    real copy shows no notice at its table."""
    page = new_page(browser, locale="fr-FR")
    page.goto(server_with_components + "/")
    page.wait_for_selector("#seats select")
    page.select_option("select[name=game]", "sintra")
    select = page.locator("select[data-option=components]:visible")
    assert select.locator("option").all_text_contents() == ["fournies avec le jeu", "mine"]
    assert page.locator("label:has(select[data-option=components]) span").text_content() == (
        "Valeurs imprimées"
    )
    notice = page.locator("#game-notice")
    assert "provisoires" in notice.text_content() and notice.is_visible()  # the shipped values
    select.select_option("mine")  # a real copy's values: nothing to say
    page.wait_for_selector("#game-notice", state="hidden")
    page.screenshot(path=str(ARTIFACTS / "sintra-components-choice.png"))
    page.select_option("select[name=seat1]", "random")
    page.click("button[type=submit]")
    page.wait_for_selector("#board svg", timeout=30_000)
    page.wait_for_selector("#status:has-text('À vous')", timeout=30_000)
    assert page.locator("#notice").is_hidden()
    assert not page.errors
    page.close()


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["wide", "phone"])
def test_an_invited_friend_is_asked_for_a_name_once(server, browser, viewport):
    host = new_page(browser, viewport)
    create(host, server, "pavilion", bot="friend", name="Ana")
    link = host.locator("#invite-links input").first.input_value()
    assert host.locator("#naming").is_hidden()  # the host named their seat in the lobby
    friend = new_page(browser, viewport)
    friend.goto(link)
    friend.wait_for_selector("#naming:not([hidden])")
    friend.screenshot(path=str(ARTIFACTS / f"naming-{viewport['width']}.png"))
    friend.fill("#naming input[name=name]", "Bo")
    friend.click("#naming button")
    friend.wait_for_selector("#naming", state="hidden")
    host.wait_for_function("document.body.innerText.includes('Bo')")  # heard live
    friend.reload()
    friend.wait_for_selector("#board svg")
    assert friend.locator("#naming").is_hidden()  # asked once
    assert not host.errors and not friend.errors
    host.close()
    friend.close()


def finished_bot_game(server, game="sintra", seed=4, players=2):
    """A game between bots (the first one heuristic, the others random), played to its end
    through the API: (game, watch page)."""
    body = {
        "game": game,
        "options": {"first_player": 0, "players": players},
        "seed": seed,
        "seats": [{"kind": "bot", "bot": "heuristic"}]
        + [{"kind": "bot", "bot": "random"}] * (players - 1),
    }
    reply = httpx.post(f"{server}/api/games", json=body)
    assert reply.status_code == 201, reply.text
    g = reply.json()
    end = time.time() + 120
    while not httpx.get(f"{server}/api/games/{g['id']}", params={"token": g["watch_token"]}).json()[
        "over"
    ]:
        assert time.time() < end, "the bots did not finish"
        time.sleep(0.2)
    return g, f"{server}/?game={g['id']}&token={g['watch_token']}"


@pytest.mark.parametrize("viewport", [WIDE, PHONE], ids=["wide", "phone"])
def test_a_finished_game_is_reviewed_move_by_move(server, browser, viewport):
    page = new_page(browser, viewport)
    _, live_url = api_game(server, game="sintra")
    page.goto(live_url)
    page.wait_for_selector("#board svg")
    assert not page.is_visible("#review")  # never while the game is being played

    g, url = finished_bot_game(server, seed=4 + viewport["width"])
    page.goto(url)
    page.click("#review")
    page.wait_for_selector("#review-box:not([hidden])", timeout=120_000)
    name = f"review-{viewport['width']}"
    page.screenshot(path=str(ARTIFACTS / f"{name}-graph.png"), full_page=True)
    review = httpx.get(
        f"{server}/api/games/{g['id']}/review", params={"token": g["watch_token"]}
    ).json()["review"]
    lost = [i for i, d in enumerate(review["decisions"]) if d["loss"] > 0]
    assert page.locator("#log .loss").count() == len(lost)
    assert page.locator("#review-graph circle[data-ply]").count() == sum(
        1 for d in review["decisions"] if d["label"] and d["lead"] is not None
    )
    worst = max(range(len(review["decisions"])), key=lambda i: review["decisions"][i]["loss"])
    d = review["decisions"][worst]
    page.click(f"#log li[value='{worst + 1}']")
    note = page.locator("#status")
    sync_api.expect(note).to_contain_text("best was ")
    sync_api.expect(note).to_contain_text(f"{d['loss']} points more")
    sync_api.expect(page.locator("#replay-ply")).to_have_text(
        f"{worst} / {len(review['decisions'])}"
    )
    page.wait_for_function("document.querySelectorAll('#board g.ghost').length > 0")
    page.locator("#board").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{name}-ghost.png"), full_page=True)
    # a second visit shows the kept review at once
    again = new_page(browser, viewport)
    again.goto(url)
    again.wait_for_selector("#review-box:not([hidden])", timeout=10_000)
    assert again.locator("#log .loss").count() == len(lost)


@pytest.mark.parametrize(
    "players, viewport", [(3, WIDE), (4, PHONE)], ids=["3-players-wide", "4-players-phone"]
)
def test_a_review_of_more_players_has_a_line_and_a_column_per_seat(
    server, browser, players, viewport
):
    page = new_page(browser, viewport, locale="fr-FR")
    g, url = finished_bot_game(server, seed=players, players=players)
    page.goto(url)
    page.click("#review")
    page.wait_for_selector("#review-box:not([hidden])", timeout=120_000)
    page.locator("#review-box").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"review-{players}p-{viewport['width']}.png"))
    lines = page.locator("#review-graph polyline")
    assert sorted(lines.evaluate_all("ps => ps.map(p => p.dataset.seat)")) == [
        str(seat) for seat in range(players)
    ]
    # the legend and the summary's columns name the seats alike, in the page's language
    legend = page.locator("#review-graph text.legend").all_text_contents()
    heads = page.locator("#review-summary th[scope=col]").all_text_contents()
    assert len(legend) == players and legend == heads
    strokes = lines.evaluate_all("ps => ps.map(p => p.getAttribute('stroke'))")
    swatches = page.locator("#review-summary .swatch").evaluate_all(
        "ss => ss.map(s => s.style.backgroundColor)"
    )
    assert len(set(swatches)) == players == len(set(strokes))  # each seat its line's colour
    sync_api.expect(page.locator("#review-summary")).to_contain_text("points perdus par coup")
    review = httpx.get(
        f"{server}/api/games/{g['id']}/review", params={"token": g["watch_token"]}
    ).json()["review"]
    assert [p["seat"] for p in review["summary"]] == list(range(players))
    last = len(review["decisions"]) - 1
    page.click(f"#log li[value='{last + 1}']")
    sync_api.expect(page.locator("#status")).to_contain_text(f"Coup {last + 1} :")
    assert not page.errors
