"""The table's layout, measured in a real headless Chromium: the replay (its header, its
controls on one line, no live marks on a replayed position), the end of a game on a phone
(the turn panel gone, the final scores first) and the words of touch screens.

Screenshots are saved under test-artifacts/.
"""

import time

import httpx
import pytest

from tests.server import test_browser
from tests.server.test_browser import ARTIFACTS, FULL_HD, PHONE, WIDE, api_game, new_page

server = test_browser.server  # the fixtures: a server in its own process, a headless Chromium
browser = test_browser.browser

VIEWPORTS = pytest.mark.parametrize(
    "viewport", [WIDE, FULL_HD, PHONE], ids=["wide", "full-hd", "phone"]
)


@pytest.fixture(scope="module")
def finished(server):
    """A game of Summer Pavilion played to its end through the API (Ana always makes her
    first legal move); Ana's page address and the number of moves."""
    g, url = api_game(server, seed=5)
    view = play_until(server, g, lambda view: view["over"])
    return url, len(view["log"])


def play_until(server, g, done, budget=240):
    """Ana makes her first legal move through the API until ``done(view)``; that view."""
    params = {"token": g["seats"][0]["token"]}
    end = time.time() + budget
    while True:
        assert time.time() < end, "the game never reached the position sought"
        view = httpx.get(f"{server}/api/games/{g['id']}", params=params).json()
        if done(view):
            return view
        if view["to_move"] == 0 and view["legal"]:
            body = {**params, "action": view["legal"][0]["action"], "version": view["version"]}
            httpx.post(f"{server}/api/games/{g['id']}/moves", json=body)
        else:
            time.sleep(0.05)


def boxes(page, *selectors):
    """The boxes of several elements measured at one moment, once the page has settled (no
    animation running), so that a layout change between two measures cannot mix them."""
    page.wait_for_function("document.getAnimations().every(a => a.playState !== 'running')")
    found = page.evaluate(
        """selectors => selectors.map(s => {
            const r = document.querySelector(s).getBoundingClientRect();
            return {x: r.x, y: r.y, width: r.width, height: r.height};
        })""",
        list(selectors),
    )
    return found


def marks(page) -> int:
    return page.locator("#board g.last, #board g.newest").count()


@VIEWPORTS
def test_a_replay_shows_its_own_position_and_says_so(server, browser, finished, viewport):
    url, plies = finished
    name = f"replay-{viewport['width']}"
    page = new_page(browser, viewport)
    page.goto(url)
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_function("document.querySelectorAll('#board g.last').length > 0")
    assert page.text_content("#status").startswith("Game over")

    page.click("#first")
    page.wait_for_selector("#board svg title:text-matches('ound 1')", state="attached")
    assert page.text_content("#status") == f"Replay: move 0 of {plies}"
    assert marks(page) == 0  # the empty boards show none of the last passes' marks
    *controls, row = boxes(page, "#first", "#prev", "#replay-ply", "#next", "#last", "#replay")
    middles = [c["y"] + c["height"] / 2 for c in controls]
    assert max(middles) - min(middles) < 2, controls  # one line
    assert all(c["x"] + c["width"] <= row["x"] + row["width"] + 1 for c in controls), controls
    assert row["height"] < 60, row
    page.locator("#replay").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"{name}-first.png"))

    page.click("#next")
    page.click("#next")
    with page.expect_response(lambda r: "/svg?" in r.url and "ply=3" in r.url):
        page.click("#next")
    page.wait_for_timeout(200)  # the drawing of move 3 replaces the board's
    assert page.text_content("#status") == f"Replay: move 3 of {plies}"
    assert page.text_content("#replay-ply") == f"3 / {plies}"
    assert marks(page) == 0
    assert page.locator("#log li.current").count() == 1
    page.screenshot(path=str(ARTIFACTS / f"{name}-move-3.png"), full_page=True)

    page.click("#last")  # back to the live table: its status and marks again
    page.wait_for_function("document.querySelectorAll('#board g.last').length > 0")
    assert page.text_content("#status").startswith("Game over")
    assert page.text_content("#replay-ply") == "live"
    assert not page.errors
    page.close()


@VIEWPORTS
def test_the_end_of_a_game_shows_the_final_scores_first(server, browser, finished, viewport):
    url, _ = finished
    page = new_page(browser, viewport)
    page.goto(url)
    page.wait_for_selector("#end:not([hidden])")
    page.wait_for_selector("#board svg")
    page.screenshot(path=str(ARTIFACTS / f"end-{viewport['width']}.png"))
    page.screenshot(path=str(ARTIFACTS / f"end-{viewport['width']}-page.png"), full_page=True)
    assert page.locator("#turn").is_hidden()
    assert page.evaluate("getComputedStyle(document.getElementById('turn')).display") == "none"
    end, board = boxes(page, "#end", "#board")
    if viewport is PHONE:  # one column: the scores above the board, on the first screen
        assert end["y"] + end["height"] <= board["y"], (end, board)
        assert end["y"] < 200, end
        assert "total" in page.text_content("#breakdown")
    else:  # beside the board, at the top of the side panel
        assert end["x"] >= board["x"] + board["width"], (end, board)
        assert end["y"] < 200, end
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
    page.close()


@pytest.mark.parametrize(
    "touch,locale,words",
    [
        (False, "en-GB", "Click a highlighted piece"),
        (True, "en-GB", "Tap a highlighted piece"),
        (True, "fr-FR", "Touchez une pièce"),
        (True, "pt-BR", "Toque numa peça"),
    ],
    ids=["mouse", "touch", "touch-fr", "touch-pt"],
)
def test_touch_screens_are_told_to_tap(server, browser, touch, locale, words):
    page = browser.new_page(viewport=PHONE, locale=locale, has_touch=touch, is_mobile=touch)
    _, url = api_game(server)
    page.goto(url)
    page.wait_for_selector("#board g.clickable", timeout=60_000)
    assert page.evaluate("matchMedia('(pointer: coarse)').matches") is touch
    page.wait_for_selector(f"#pick-help:has-text('{words}')")
    page.screenshot(path=str(ARTIFACTS / f"help-{locale}-{'touch' if touch else 'mouse'}.png"))
    # the turn panel is fixed at the bottom: the page scrolls far enough to show what it covers
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.wait_for_timeout(100)
    panel, log = boxes(page, "#turn", "#log")
    assert log["y"] + log["height"] <= panel["y"] + 1, (log, panel)
    page.close()


@VIEWPORTS
def test_a_hint_lists_its_moves_with_what_each_gives_up_earns_and_sets_up(
    server, browser, viewport
):
    page = new_page(browser, viewport)
    _, url = api_game(server, seed=8)
    page.goto(url)
    page.wait_for_selector("#board g.clickable", timeout=60_000)
    page.click("#hint")
    page.wait_for_selector("ol.hints li", timeout=60_000)
    lines = page.locator("ol.hints li").all_text_contents()
    assert 1 <= len(lines) <= 3
    assert "best" in lines[0] and "now" in lines[0] and "in prospects" in lines[0]
    assert all("points behind the best" in line for line in lines[1:] if "best ·" not in line)
    assert page.locator("#board g.hinted").count() >= 1  # the hinted pieces are marked
    (hint,) = boxes(page, "#hint-text")
    assert hint["x"] + hint["width"] <= viewport["width"] + 1, hint  # nothing runs off
    page.screenshot(path=str(ARTIFACTS / f"hint-{viewport['width']}.png"))
    page.click("#hint")  # a second press folds it away
    assert page.locator("ol.hints").count() == 0
    assert page.locator("#board g.hinted").count() == 0
    assert not page.errors
    page.close()


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_the_desktop_board_fills_the_window_with_tiles_and_boards_one_can_read(
    server, browser, game
):
    """At 1280x800 with 3 players: a factory's tile is 32 px or more (its clickable group, a
    tenth of a tile of margin on each side, 38 px or more), each opponent's board is 260 px
    wide or more, and the drawing reaches the bottom of the first screen."""
    page = new_page(browser, WIDE)
    _, url = api_game(server, game, seed=4, players=3)
    page.goto(url)
    page.wait_for_selector("#board g.clickable[data-source^=F]")
    page.screenshot(path=str(ARTIFACTS / f"layout-{game}-3p-1280.png"))
    found = page.evaluate(
        """() => {
        const box = e => e.getBoundingClientRect();
        const tiles = [...document.querySelectorAll('#board g.clickable[data-source^=F]')]
          .map(e => Math.min(box(e).width, box(e).height));
        const boards = [...document.querySelectorAll('#board g.board')]
          .filter(e => (e.dataset.seat ?? e.dataset.board) !== '0').map(e => box(e).width);
        return {tiles, boards, bottom: box(document.querySelector('#board svg')).bottom};
    }"""
    )
    assert found["tiles"] and min(found["tiles"]) >= 38, found["tiles"]
    assert len(found["boards"]) == 2 and min(found["boards"]) >= 260, found["boards"]
    assert found["bottom"] >= WIDE["height"]


def targets_and_panel(page):
    """Once the page has stopped scrolling: the boxes of the places one can pick now (and the
    hint's), and of the turn's panel, in the window's coordinates."""
    page.evaluate(
        """() => new Promise(done => {  // still for a fifth of a second
            let y = scrollY, since = performance.now();
            const look = now => {
                if (scrollY !== y) { y = scrollY; since = now; }
                if (now - since > 200) done(); else requestAnimationFrame(look);
            };
            requestAnimationFrame(look);
        })"""
    )
    return page.evaluate(
        """() => {
        const box = e => { const r = e.getBoundingClientRect();
                           return {top: r.top, bottom: r.bottom, left: r.left, right: r.right}; };
        const all = marks => [...document.querySelectorAll(marks)].map(box);
        return {targets: all('#board g.clickable, #board g.hinted'),
                picked: all('#board g.picked'), panel: box(document.querySelector('#turn'))};
    }"""
    )


def overlaps(a, b) -> bool:
    return (
        a["left"] < b["right"] - 1
        and b["left"] < a["right"] - 1
        and a["top"] < b["bottom"] - 1
        and b["top"] < a["bottom"] - 1
    )


def placing(view) -> bool:
    """Ana to place a tile from her hand (Summer Pavilion's second phase)."""
    return view["to_move"] == 0 and any("hand" in m["targets"][0] for m in view["legal"])


@VIEWPORTS
@pytest.mark.parametrize(
    "game, phase", [("pavilion", "take"), ("pavilion", "place"), ("sintra", "take")]
)
def test_the_turn_panel_never_covers_what_one_can_pick(server, browser, game, phase, viewport):
    """With 4 players (the most factories and boards), at each step of a turn (its start,
    each pick, a hint) every place one can pick is in the window and clear of the turn's
    panel, which on a phone is fixed at the bottom of the screen: the factories, the strips,
    the hand and the star spaces; once the move is chosen, what it takes and where it goes
    when they fit above the panel together."""
    phone = viewport is PHONE
    page = new_page(browser, viewport, has_touch=phone, is_mobile=phone)
    g, url = api_game(server, game, seed=6, players=4)
    if phase == "place":
        play_until(server, g, placing)
    page.goto(url)
    page.wait_for_selector("#board g.clickable", timeout=60_000)
    name = f"panel-{game}-{phase}-{viewport['width']}"
    steps = 0
    while True:
        found = targets_and_panel(page)
        page.screenshot(path=str(ARTIFACTS / f"{name}-{steps}.png"))
        assert found["targets"], steps
        assert not page.errors
        for target in found["targets"]:
            assert not overlaps(target, found["panel"]), (steps, target, found["panel"])
            assert target["top"] >= 0 and target["bottom"] <= viewport["height"], (steps, target)
        if page.locator("#board g.clickable").count() == 0:
            break  # the hint's marks, checked above: the turn is over
        page.locator("#board g.clickable").first.click()
        steps += 1
        if page.locator("#board g.clickable").count() == 0:
            chosen = targets_and_panel(page)  # the move: what it takes and where it goes
            top = min(b["top"] for b in chosen["picked"])
            if max(b["bottom"] for b in chosen["picked"]) - top < chosen["panel"]["top"] - 16:
                for picked in chosen["picked"]:
                    assert not overlaps(picked, chosen["panel"]), (steps, picked)
            page.click("#hint")
            page.wait_for_selector("#board g.hinted", timeout=60_000)
    assert steps >= 1
    if phone:  # compact: the board keeps most of the screen
        assert found["panel"]["top"] >= viewport["height"] * 0.6, found["panel"]
    page.close()


COLOURS = ("purple", "orange", "red", "blue", "yellow", "green")
PLACES = ("centre", "left", "upper left", "upper right", "right", "lower right", "lower left")


@VIEWPORTS
def test_the_grey_boards_labels_name_stars_by_place(server, browser, viewport):
    """Summer Pavilion's grey side has no coloured stars (rules, Board geometry): the label of
    each space one can pick, the preview of the move and its line in the log all name the
    star by its place, the same place, and never by a colour."""
    phone = viewport is PHONE
    page = new_page(browser, viewport, has_touch=phone, is_mobile=phone)
    g, url = api_game(server, seed=7, board="grey")
    play_until(server, g, placing)
    page.goto(url)
    page.wait_for_selector("#board g.clickable[data-hand]", timeout=60_000)
    page.locator("#board g.clickable[data-hand]").first.click()
    page.wait_for_selector("#board g.clickable[data-space]")
    labels = page.eval_on_selector_all(
        "#board g.clickable[data-space]", "gs => gs.map(g => g.getAttribute('aria-label'))"
    )
    assert labels and all(label and " star" in label for label in labels), labels
    assert not [label for label in labels if any(f"{c} star" in label for c in COLOURS)]
    space = page.locator("#board g.clickable[data-space]").first
    star = next(p for p in sorted(PLACES, key=len, reverse=True) if f"the {p} star" in labels[0])
    space.click()
    for _ in range(3):  # a payment to choose, when the wild tile may pay or not
        if page.locator("#confirm:enabled").count():
            break
        page.locator("#choices button").first.click()
    preview = page.text_content("#preview")
    assert f"the {star} star" in preview, (star, preview)
    targets_and_panel(page)  # once the page has stopped scrolling
    page.screenshot(path=str(ARTIFACTS / f"grey-labels-{viewport['width']}.png"))
    before = page.locator("#log li").count()
    page.click("#confirm")
    page.wait_for_function(f"document.querySelectorAll('#log li').length > {before}")
    new = page.locator("#log li").all_text_contents()[: -before or None]  # newest first
    line = next(line for line in reversed(new) if line.startswith("Ana"))  # a bot may reply
    assert f"the {star} star" in line, (star, line)
    assert not [c for c in COLOURS if f"{c} star" in preview + line]
    assert not page.errors
    page.close()
