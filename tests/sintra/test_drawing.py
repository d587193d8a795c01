"""The Sintra drawing as a client uses it: every target of every legal action is a clickable
group of the drawing, every mark is found after the action, actions are put in words in every
language, the track's marker and the ornaments are drawn, phone tap targets are large enough,
previews agree with the rules, and letters stay readable on every glass colour."""

import random
import re
import xml.etree.ElementTree as ET

import pytest

import azul
from azul import i18n
from azul.sintra.draw.board import SIZES
from azul.sintra.draw.parts import FILL, INK
from tests.sintra.helpers import load, me, player, strip

NS = "{http://www.w3.org/2000/svg}"
CASES = [(n, side, chance) for n in (2, 3, 4) for side in "AB" for chance in (False, True)]


def positions(players, side, chance, seed, every=7):
    """States met along a seeded random game, every ``every`` decisions, and at each keep."""
    game = azul.load_game("sintra", players=players, side=side, explicit_chance=chance)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    out, ply = [], 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(outcomes, weights)[0])
            continue
        if ply % every == 0 or state.decision() == "keep":
            out.append(state.clone())
        state.apply_action(rng.choice(state.legal_actions()))
        ply += 1
    out.append(state)
    return out


def groups(svg):
    """Every <g> with data- attributes: (its own data- attributes, the element)."""
    root = ET.fromstring(svg)
    found = []
    for g in root.iter(f"{NS}g"):
        data = {k[5:]: v for k, v in g.attrib.items() if k.startswith("data-")}
        if data:
            found.append((data, g))
    return found


def matching(found, target):
    return [g for data, g in found if all(data.get(k) == v for k, v in target.items())]


def clickable(g):
    """The contract: first child the hit shape, and a title child."""
    children = list(g)
    return (
        bool(children)
        and children[0].get("class") == "hit"
        and g.find(f"{NS}title") is not None
        and (g.find(f"{NS}title").text or "").strip() != ""
    )


@pytest.mark.parametrize("players,side,chance", CASES)
def test_every_target_is_a_clickable_group_and_same_targets_differ_in_details(
    players, side, chance
):
    for state in positions(players, side, chance, seed=players * 10 + (side == "B")):
        if state.is_terminal():
            assert state.legal_actions() == []
            continue
        seat = state.current_player()
        for layout in ("wide", "tall"):
            found = groups(state.game.presenter().render_svg(state, seat=seat, layout=layout))
            seen = {}
            for a in state.legal_actions():
                targets = state.game.presenter().action_targets(state, a)
                assert targets, state.action_to_string(a)
                for target in targets:
                    hits = matching(found, target)
                    assert hits, (state.action_to_string(a), target, layout)
                    assert all(clickable(g) for g in hits), target
                key = repr(targets)
                details = repr(state.game.presenter().action_details(state, a))
                assert seen.setdefault(key, {}).setdefault(details, a) == a, (
                    "two legal actions share targets and details",
                    state.action_to_string(a),
                )


@pytest.mark.parametrize("players,side,chance", CASES)
def test_every_mark_is_an_element_of_the_drawing_after_the_action(players, side, chance):
    rng = random.Random(players)
    for state in positions(players, side, chance, seed=players * 100 + (side == "B"), every=11):
        if state.is_terminal():
            continue
        actions = state.legal_actions()
        for a in rng.sample(actions, min(6, len(actions))):
            marks = state.game.presenter().action_marks(state, a)
            assert marks, state.action_to_string(a)
            after = state.clone()
            after.apply_action(a)
            found = groups(after.game.presenter().render_svg(after, seat=state.current_player()))
            for mark in marks:
                hits = matching(found, mark)
                assert hits and all(clickable(g) for g in hits), (state.action_to_string(a), mark)


def test_marks_name_the_strip_the_track_and_the_window():
    s = load(players=[player({1: strip(1, "a", "PPOO.")}), player()], factories=["BBYY"])
    move = s.string_to_action("F1:B>1")  # one blue completes strip 1, one breaks
    assert s.game.presenter().action_marks(s, move) == [
        {"seat": "0", "strip": "1"},
        {"seat": "0", "strip": "break"},
    ]
    s.apply_action(move)
    assert s.game.presenter().action_targets(s, s.string_to_action("keep:O")) == [
        {"seat": "0", "keep": "O"}
    ]
    assert s.game.presenter().action_marks(s, s.string_to_action("keep:O")) == [
        {"seat": "0", "window": "1"}
    ]
    assert s.game.presenter().action_details(s, s.string_to_action("keep:O")) == {"keep": {"O": 1}}
    keep = [data for data, _ in groups(s.game.presenter().render_svg(s, seat=0)) if "keep" in data]
    assert sorted(d["keep"] for d in keep) == ["B", "O", "O", "P", "P"]  # one per piece


def test_back_is_a_click_on_the_glazier():
    s = load(players=[player(glazier=5), player()], factories=["BBYY"])
    back = s.string_to_action("back")
    assert s.game.presenter().action_targets(s, back) == [{"seat": "0", "glazier": "back"}]
    assert s.game.presenter().action_marks(s, back) == [{"seat": "0", "glazier": "back"}]
    assert str(s.game.presenter().describe_action(s, back)) == "moves the glazier back to strip 1"
    (g,) = matching(
        groups(s.game.presenter().render_svg(s, seat=0)), {"seat": "0", "glazier": "back"}
    )
    assert g.find(f"{NS}polygon").get("class") == "glazier"


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_every_action_is_described_in_every_language(lang):
    gettext = i18n.in_language(lang)
    templates = set()
    for players, side in ((2, "A"), (4, "B")):
        for state in positions(players, side, False, seed=5, every=3):
            if state.is_terminal():
                continue
            for a in state.legal_actions():
                message = state.game.presenter().describe_action(state, a)
                text = message.translate(gettext)
                assert text and "{" not in text, text
                templates.add(message.template)
                if lang != "en":
                    assert gettext(message.template) != message.template, message.template
    assert len(templates) >= 8


def test_words_of_a_move_and_its_plural_forms():
    s = load(players=[player({1: strip(1, "a", "PP...")}), player()], factories=["OOOY"])
    s3 = s.game.presenter().describe_action(s, s.string_to_action("F1:O>1"))
    assert str(s3) == "takes 3 orange pieces from factory 1 to strip 1; 1 breaks"
    assert s3.to_json()["words"] == ["color"]
    fr = s3.translate(i18n.in_language("fr"))
    assert "orange" in fr and "1" in fr and "{" not in fr
    one = s.game.presenter().describe_action(s, s.string_to_action("F1:Y>3"))
    assert str(one) == "takes 1 yellow piece from factory 1 to strip 3"


def marker_space(svg, seat):
    """The index of the broken-glass space under seat's marker."""
    (g,) = matching(groups(svg), {"seat": str(seat), "strip": "break"})
    marker = g.find(f".//{NS}circle[@class='glass-marker']")
    mx, my = float(marker.get("cx")), float(marker.get("cy"))
    spaces = g.findall(f".//{NS}rect[@class='glass-space']")
    inside = [
        k
        for k, r in enumerate(spaces)
        if float(r.get("x")) <= mx <= float(r.get("x")) + float(r.get("width"))
        and float(r.get("y")) <= my <= float(r.get("y")) + float(r.get("height"))
    ]
    assert len(spaces) == 9 and len(inside) == 1
    return inside[0]


@pytest.mark.parametrize("layout", ["wide", "tall"])
def test_the_broken_glass_marker_stands_on_the_state_space(layout):
    for k in range(9):
        if k == 8:
            continue  # the bottom space sends the marker back to the top (rules 3.5)
        s = load(players=[player(track=k), player(track=(k + 3) % 8)], factories=["OOYY"])
        svg = s.game.presenter().render_svg(s, seat=0, layout=layout)
        assert marker_space(svg, 0) == k
        assert marker_space(svg, 1) == (k + 3) % 8


def test_ornaments_on_side_a_and_the_window_count_on_side_b():
    done = {1: None}  # a complete window's strip has left the game
    a = load(
        side="A", players=[player(done, windows={1: "PO", 2: "B"}), player()], factories=["OY"]
    )
    root = ET.fromstring(a.game.presenter().render_svg(a))
    ornaments = root.findall(f".//{NS}g[@class='ornament']")
    assert len(ornaments) == 2 * 4
    assert "frames filled 3/4, worth 6" in ornaments[0].find(f"{NS}title").text
    done = {1: None, 2: None}
    b = load(
        side="B", players=[player(done, windows={1: "PO", 2: "PP"}), player()], factories=["OY"]
    )
    svg = b.game.presenter().render_svg(b)
    assert "ornament" not in svg
    assert "complete windows 2 \u00d7 most of one colour 3 = 6" in svg


def scale_of(element, parents):
    scale = 1.0
    while element is not None:
        m = re.search(r"scale\(([\d.]+)\)", element.get("transform", ""))
        if m:
            scale *= float(m.group(1))
        element = parents.get(element)
    return scale


@pytest.mark.parametrize("players", [2, 3, 4])
def test_phone_tap_targets_are_44_px_even_at_360_px(players):
    # 44 px when the drawing is 390 px wide, with room for a page's padding down to 360 px
    for state in positions(players, "A", False, seed=players, every=5):
        if state.is_terminal():
            continue
        svg = state.game.presenter().render_svg(state, seat=state.current_player(), layout="tall")
        root = ET.fromstring(svg)
        width = float(root.get("viewBox").split()[2])
        least = 44 / 360 * width
        parents = {child: parent for parent in root.iter() for child in parent}
        found = groups(svg)
        for a in state.legal_actions():
            for target in state.game.presenter().action_targets(state, a):
                for g in matching(found, target):
                    shape = g[0]
                    scale = scale_of(g, parents)
                    w, h = float(shape.get("width")) * scale, float(shape.get("height")) * scale
                    assert min(w, h) >= least - 1e-6, (target, w, h, least)


@pytest.mark.parametrize("layout", ["wide", "tall"])
def test_the_drawing_is_sized_by_its_view_box(layout):
    state = azul.load_game("sintra", players=4).new_initial_state(3)
    for seat in (None, 0, 2):
        root = ET.fromstring(state.game.presenter().render_svg(state, seat=seat, layout=layout))
        assert root.get("width") == "100%" and root.get("height") is None
        _, _, w, h = map(float, root.get("viewBox").split())
        if layout == "wide":  # the first screen (about 1.3 times as wide as high) holds the
            # table and the viewer's board; the others' boards are 0.28 w wide or more
            boards = {
                g.get("data-board"): [float(v) for v in re.findall(r"[\d.]+", g.get("transform"))]
                for g in root.iter(f"{NS}g")
                if g.get("class") == "board"
            }
            width, height = SIZES["side"]
            for p, (_, y, scale) in boards.items():
                if seat is not None and p == str(seat):
                    assert y + height * scale <= w / 1.3
                elif seat is not None:
                    assert width * scale >= 0.28 * w
            factories = [
                float(c.get("cy")) + float(c.get("r"))
                for c in root.iter(f"{NS}circle")
                if c.get("stroke") == "#9c7a4a"
            ]
            assert len(factories) == 9 and max(factories) <= w / 1.3
        else:
            assert w <= 440 and h > w


def test_preview_of_a_move_that_breaks_pieces_agrees_with_the_rules():
    # strip 1 PPOOB holds PP: 3 orange from the centre fill its 2 orange spaces and 1 breaks;
    # first from the centre: the starting-player tile and one more step down (rules 3.1b)
    s = load(players=[player({1: strip(1, "a", "PP...")}, track=1), player()], centre="OOOY")
    move = s.string_to_action("C:O>1")
    preview = s.game.presenter().action_preview(s, move)
    assert preview == {"points": 0, "broken": 1, "tile": 1}
    before = me(s)["track"]
    s.apply_action(move)
    assert me(s)["track"] - before == preview["broken"] + preview["tile"]


def test_preview_of_the_bottom_of_the_track_a_completion_and_a_keep():
    # marker on -14: one blue completes strip 1 PPOO., 3 break: -18 at once (rules 3.5)
    s = load(
        players=[player({1: strip(1, "a", "PPOO.")}, track=7, score=10), player()],
        factories=["BBBB"],
    )
    move = s.string_to_action("F1:B>1")
    assert s.game.presenter().action_preview(s, move) == {
        "points": -18,
        "broken": 3,
        "completes": 1,
    }
    s.apply_action(move)
    keep = s.string_to_action("keep:B")
    assert s.game.presenter().action_preview(s, keep) == {"points": 1, "broken": 0, "window": 1}
    all_break = load(
        players=[player({8: None}, windows={8: "PW"}, glazier=8), player()], factories=["OOYY"]
    )
    move = all_break.string_to_action("F1:O>break")
    assert all_break.game.presenter().action_preview(all_break, move)["broken"] == 2
    assert all_break.game.presenter().action_marks(all_break, move) == [
        {"seat": "0", "strip": "break"}
    ]


def test_preview_never_draws():
    game = azul.load_game("sintra", players=2)
    state = game.new_initial_state(4)
    while sum(state.sources) > 1:  # play up to the last piece of the round
        state.apply_action(state.legal_actions()[0])
    before = state.to_json()  # the generator's state included
    for a in state.legal_actions():
        state.game.presenter().action_preview(state, a)
    assert state.to_json() == before


def contrast(a, b):
    def lum(color):
        color = color.lstrip("#")
        if len(color) == 3:
            color = "".join(ch * 2 for ch in color)
        rgb = [int(color[i : i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4 for v in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_letters_are_readable_on_every_colour_with_and_without_patterns():
    for fill, ink in zip(FILL, INK, strict=True):
        assert contrast(fill, ink) >= 4.5, fill
    pieces = {1: strip(1, "a", "PPOO."), 2: strip(2, "a", "YYBB."), 3: strip(3, "a", "W....")}
    s = load(players=[player(pieces), player()], factories=["OYBW"])
    root = ET.fromstring(s.game.presenter().render_svg(s, patterns=True))
    assert root.find(f".//{NS}pattern") is not None
    pieces = [g for g in root.iter(f"{NS}g") if g.get("data-space")]
    letters = 0
    for g in pieces:
        rects = g.findall(f"{NS}rect")
        label = g.find(f"{NS}text")
        if label.text.isupper():  # a piece: pattern over the glass, letter with a halo
            letters += 1
            assert rects[1].get("fill").startswith("url(#azul-pat-")
            assert label.get("stroke") == rects[0].get("fill")
            assert label.get("paint-order") == "stroke"
            assert rects[0].get("stroke") not in (None, "none", rects[0].get("fill"))
    assert letters == 9
