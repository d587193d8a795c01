"""The Summer Pavilion drawing and what it tells a client about each action: every target of
every legal action is a clickable group of the drawing, marks name elements of the drawing after
the action, words translate, previews follow the rules, the tall layout's taps are big enough."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET
from collections import defaultdict

import pytest

import azul
from azul import i18n
from azul.pavilion import data
from azul.pavilion.draw.parts import FILL, INK
from tests.pavilion.helpers import board, load

NS = "{http://www.w3.org/2000/svg}"
TAP = 44 / 360  # of the viewBox width: 44 CSS px on a phone down to 360 px wide


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element) -> list[tuple[dict[str, str], ET.Element]]:
    """Every <g> with data- attributes, with those attributes (without the prefix)."""
    out = []
    for g in root.iter(f"{NS}g"):
        attrs = {k[5:]: v for k, v in g.attrib.items() if k.startswith("data-")}
        if attrs:
            out.append((attrs, g))
    return out


def matching(found, target: dict[str, str]) -> list[ET.Element]:
    return [g for attrs, g in found if all(attrs.get(k) == v for k, v in target.items())]


def positions(players: int, side: str, seed: int, explicit: bool = False, every: int = 7):
    """Positions of a seeded random game where a player decides, every few steps."""
    game = azul.load_game("pavilion", players=players, board=side, explicit_chance=explicit)
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
            continue
        if step % every == 0:
            yield state
        legal = state.legal_actions()
        # placements over passes, so that boards fill up as in real games
        places = [a for a in legal if state.action_to_string(a)[1:2] == "@"]
        state.apply_action(rng.choice(places if places and rng.random() < 0.9 else legal))
        step += 1
    yield state


GAMES = [(2, "coloured", 1, False), (3, "grey", 2, True), (4, "coloured", 3, False)]
GAMES += [(4, "grey", 4, False), (2, "grey", 5, True)]


@pytest.mark.parametrize("players,side,seed,explicit", GAMES)
def test_every_target_is_a_clickable_group_and_choices_differ(players, side, seed, explicit):
    rng = random.Random(seed)
    for state in positions(players, side, seed, explicit):
        if state.is_terminal():
            break
        seat = state.current_player()
        layout = rng.choice(["wide", "tall"])
        viewer = rng.choice([seat, None])
        found = groups(
            parse(
                state.game.presenter().render_svg(state, rng.random() < 0.5, None, viewer, layout)
            )
        )
        by_targets = defaultdict(list)
        for a in state.legal_actions():
            targets = state.game.presenter().action_targets(state, a)
            assert targets, state.action_to_string(a)
            for target in targets:
                hits = matching(found, target)
                assert hits, (state.action_to_string(a), target)
                for g in hits:
                    assert g.tag == f"{NS}g" and g[0].get("class") == "hit", target
                    assert g.find(f"{NS}title") is not None and g.find(f"{NS}title").text
            key = repr(targets)
            by_targets[key].append(state.game.presenter().action_details(state, a))
        for key, details in by_targets.items():
            assert len({repr(d) for d in details}) == len(details), key


@pytest.mark.parametrize("players,side,seed,explicit", GAMES)
def test_marks_name_elements_of_the_drawing_after_the_action(players, side, seed, explicit):
    rng = random.Random(seed)
    for state in positions(players, side, seed, explicit, every=11):
        if state.is_terminal():
            break
        legal = state.legal_actions()
        for a in rng.sample(legal, min(4, len(legal))):
            marks = state.game.presenter().action_marks(state, a)
            assert marks
            after = state.clone()
            after.apply_action(a)
            found = groups(
                parse(after.game.presenter().render_svg(after, layout=rng.choice(["wide", "tall"])))
            )
            for mark in marks:
                assert matching(found, mark), (state.action_to_string(a), mark)


@pytest.mark.parametrize("players,side,seed,explicit", GAMES[:3])
def test_every_action_is_described_in_every_language(players, side, seed, explicit):
    for state in positions(players, side, seed, explicit, every=5):
        if state.is_terminal():
            break
        for a in state.legal_actions():
            message = state.game.presenter().describe_action(state, a)
            for lang in i18n.LANGUAGES:
                words = message.translate(i18n.in_language(lang))
                assert words and "{" not in words


def test_descriptions_of_takes_placements_passes_and_bonus_picks():
    s = load(
        decision="take",
        round=2,
        factories=["RRGB"],
        centre="YYYG",
        scores=[3, 5],
    )

    def words(state, move):
        return str(state.game.presenter().describe_action(state, state.string_to_action(move)))

    assert words(s, "F1:R") == "takes red ×2 and one wild green from factory 1"
    assert words(s, "F1:B") == "takes blue ×1 and one wild green from factory 1"
    assert words(s, "C:Y") == (
        "takes yellow ×3 and one wild green from the centre with the start player token "
        "(score 3 → 1)"  # 4 tiles, but the score stops at 1
    )
    fr = (
        s.game.presenter()
        .describe_action(s, s.string_to_action("F1:R"))
        .translate(i18n.in_language("fr"))
    )
    assert "rouge" in fr and "vert" in fr
    s = load(hands=["RRRPP"], boards=[board("R1")])
    assert words(s, "R@R2+1") == "places red on the red star (2), paying red ×1 and purple ×1 (+2)"
    assert words(s, "R@C4") == "places red on the centre star (4), paying red ×4 (+1)"
    fr = (
        s.game.presenter()
        .describe_action(s, s.string_to_action("R@R2+1"))
        .translate(i18n.in_language("fr"))
    )
    assert "l'étoile rouge" in fr  # the star's words agree as a whole phrase
    grey = load(hands=["RRRRRR"], board_side="grey")
    # the grey side's stars have no colour: named by where they are; the number is the cost
    assert words(grey, "R@R1") == "places red on the upper right star (3), paying red ×3 (+1)"
    assert words(s, "pass:RR") == "passes, keeping 2 and discarding 3 (score 5 → 2)"
    assert words(s, "pass:-") == "passes and discards 5 tiles (score 5 → 1)"
    s = load(hands=["RG"])
    assert words(s, "pass") == "passes, keeping 2 tiles"
    s = load(decision="bonus", bonus_owed=1, hands=["B"])
    assert words(s, "S:G") == "takes green from the supply as a bonus tile"


def test_preview_of_a_window_a_statue_and_a_pillar():
    # red 5 covered: red 6 completes the red window, 3 bonus tiles (rules 5.6)
    s = load(hands=["RRRRRR"], boards=[board("R5")])
    assert s.game.presenter().action_preview(s, s.string_to_action("R@R6")) == {
        "points": 2,
        "bonus": 3,
    }
    # red 1, blue 3, blue 4 and centre 1 and 2 covered: red 2 completes the statue between red
    # and blue (2) and not yet the red pillar (red 3 is empty)
    s = load(hands=["RR"], boards=[board("R1", "B3", "B4", "C1=G", "C2=Y")])
    assert s.game.presenter().action_preview(s, s.string_to_action("R@R2")) == {
        "points": 2,
        "bonus": 2,
    }
    # with red 3 covered too, the pillar pays 1 more
    s = load(hands=["RR"], boards=[board("R1", "R3", "B3", "B4", "C1=G", "C2=Y")])
    assert s.game.presenter().action_preview(s, s.string_to_action("R@R2")) == {
        "points": 3,
        "bonus": 3,
    }
    # a supply of 2 tiles pays no more than 2 (rules 5.7)
    rest = "P" * 21 + "G" * 21 + "O" * 22 + "Y" * 22 + "B" * 22 + "R" * 15
    s = load(hands=["RRRRRR", rest], boards=[board("R5")], supply="PG", bag="", tower="")
    assert s.game.presenter().action_preview(s, s.string_to_action("R@R6"))["bonus"] == 2
    # no structure completed
    s = load(hands=["RRR"])
    assert s.game.presenter().action_preview(s, s.string_to_action("R@R3")) == {
        "points": 1,
        "bonus": 0,
    }


def test_preview_of_passes_and_takes():
    s = load(hands=["RRRGGB"], scores=[10, 5])
    assert s.game.presenter().action_preview(s, s.string_to_action("pass:RG")) == {
        "points": -4,
        "discarded": 4,
    }
    assert s.game.presenter().action_preview(s, s.string_to_action("pass:-")) == {
        "points": -6,
        "discarded": 6,
    }
    s = load(hands=["RG"])
    assert s.game.presenter().action_preview(s, s.string_to_action("pass")) == {
        "points": 0,
        "discarded": 0,
    }
    s = load(decision="take", centre="YYY", factories=["RRGB"], scores=[9, 5])
    assert s.game.presenter().action_preview(s, s.string_to_action("C:Y")) == {"points": -3}


def test_details_say_what_is_paid_and_kept():
    s = load(hands=["RRRPPGGB"])
    assert s.game.presenter().action_details(s, s.string_to_action("R@R3+1")) == {
        "pay": {"R": 2, "P": 1}
    }
    assert s.game.presenter().action_details(s, s.string_to_action("R@R3")) == {"pay": {"R": 3}}
    assert s.game.presenter().action_details(s, s.string_to_action("P@P2")) == {"pay": {"P": 2}}
    assert s.game.presenter().action_details(s, s.string_to_action("pass:RGB")) == {
        "keep": {"G": 1, "B": 1, "R": 1}
    }
    assert s.game.presenter().action_details(s, s.string_to_action("pass:-")) == {"keep": {}}
    s = load(hands=["RGG"])
    assert s.game.presenter().action_details(s, s.string_to_action("pass")) == {
        "keep": {"G": 2, "R": 1}
    }
    assert s.game.presenter().action_targets(s, s.string_to_action("pass")) == [
        {"seat": "0", "pass": "1"}
    ]
    assert s.game.presenter().action_marks(s, s.string_to_action("pass")) == [
        {"seat": "0", "kept": "1"}
    ]


def test_marks_of_a_take_name_the_wild_and_the_token_that_came_along():
    s = load(decision="take", factories=["RRPB"], to_move=1)
    assert s.game.presenter().action_marks(s, s.string_to_action("F1:R")) == [
        {"seat": "1", "hand": "R"},
        {"seat": "1", "hand": "P"},
    ]
    assert s.game.presenter().action_marks(s, s.string_to_action("F1:B")) == [
        {"seat": "1", "hand": "B"},
        {"seat": "1", "hand": "P"},
    ]
    s = load(decision="take", centre="YYP", to_move=1)  # the first from the centre: the token
    assert s.game.presenter().action_marks(s, s.string_to_action("C:Y")) == [
        {"seat": "1", "hand": "Y"},
        {"seat": "1", "hand": "P"},
        {"seat": "1", "token": "1"},
    ]


def test_structures_are_drawn_and_completed_ones_marked():
    # the red window (red 5, 6) and the statue between red and blue (red 1, 2, blue 3, 4)
    cells = board("R5", "R6", "R1", "R2", "B3", "B4")
    s = load(players=3, boards=[cells], hands=["R"])
    root = parse(s.game.presenter().render_svg(s))
    for p in range(3):
        mine = [g for attrs, g in groups(root) if "structure" in attrs and attrs["seat"] == str(p)]
        assert len(mine) == len(data.STRUCTURES)
        kinds = sorted(g.get("data-structure").split("-")[0] for g in mine)
        expected = sorted(kind for kind, *_ in data.STRUCTURES)
        assert kinds == expected
        done = {g.get("data-structure") for g in mine if "done" in g.get("class").split()}
        assert done == ({"window-3", "statue-3"} if p == 0 else set())


def test_round_track_shows_each_wild_colour_and_the_current_round():
    s = load(round=4, hands=["R"])
    root = parse(s.game.presenter().render_svg(s, lang="fr"))
    rounds = {g.get("data-round"): g for g in root.iter(f"{NS}g") if g.get("data-round")}
    assert sorted(rounds) == ["1", "2", "3", "4", "5", "6"]
    for r, g in rounds.items():
        letters = [t.text for t in g.iter(f"{NS}text")]
        assert data.COLOR_LETTERS[data.WILD_BY_ROUND[int(r)]] in letters
        assert ("current" in g.get("class")) == (r == "4")
    assert "manche 4 : joker jaune (en cours)" in [
        g.find(f"{NS}title").text for g in rounds.values()
    ]


def _cells(root):
    return {
        int(r.get("data-track")): r
        for r in root.iter(f"{NS}rect")
        if r.get("data-track") is not None
    }


@pytest.mark.parametrize("layout", ["wide", "tall"])
def test_score_markers_sit_on_the_scores(layout):
    scores = [1, 37, 80, 93]
    s = load(players=4, scores=scores, hands=["R"])
    root = parse(s.game.presenter().render_svg(s, layout=layout))
    cells = _cells(root)
    assert sorted(cells) == list(range(1, 81))
    markers = [g for g in root.iter(f"{NS}g") if g.get("class") == "marker"]
    assert [int(g.get("data-score")) for g in markers] == scores
    for g, score in zip(markers, scores, strict=True):
        circle = g.find(f"{NS}circle")
        x, y = float(circle.get("cx")), float(circle.get("cy"))
        cell = cells[(score - 1) % 80 + 1]
        cx, cy = float(cell.get("x")), float(cell.get("y"))
        assert cx <= x <= cx + float(cell.get("width")) and cy <= y <= cy + float(
            cell.get("height")
        )
    assert "+80" in [t.text for t in markers[3].iter(f"{NS}text")]


def _box(shape: ET.Element) -> list[tuple[float, float, float, float]]:
    """Bounding boxes (x0, y0, x1, y1) of a hit shape's parts (each subpath of a path)."""
    if shape.tag == f"{NS}polygon":
        xy = [float(v) for v in re.split(r"[ ,]+", shape.get("points").strip())]
        parts = [list(zip(xy[::2], xy[1::2], strict=True))]
    else:
        parts = []
        for sub in re.findall(r"M[^M]*", shape.get("d")):
            pts, x, y = [], 0.0, 0.0
            for cmd, args in re.findall(r"([MHVAZ])([^MHVAZ]*)", sub):
                nums = [float(v) for v in re.findall(r"-?[\d.]+", args)]
                if cmd in "MA":
                    x, y = nums[-2], nums[-1]
                elif cmd == "H":
                    x = nums[0]
                elif cmd == "V":
                    y = nums[0]
                pts.append((x, y))
            parts.append(pts)
    return [
        (
            min(p[0] for p in pts),
            min(p[1] for p in pts),
            max(p[0] for p in pts),
            max(p[1] for p in pts),
        )
        for pts in parts
    ]


@pytest.mark.parametrize(
    "players,side,seed", [(2, "coloured", 7), (4, "grey", 8), (3, "coloured", 9)]
)
def test_tall_layout_taps_are_44_px_on_a_360_px_phone(players, side, seed):
    seen = set()
    for state in positions(players, side, seed, every=3):
        if state.is_terminal():
            break
        seat = state.current_player()
        root = parse(state.game.presenter().render_svg(state, seat=seat, layout="tall"))
        width = float(root.get("viewBox").split()[2])
        found = groups(root)
        for a in state.legal_actions():
            for target in state.game.presenter().action_targets(state, a):
                seen.add(tuple(sorted(target)))
                for g in matching(found, target):
                    for x0, y0, x1, y1 in _box(g[0]):
                        assert min(x1 - x0, y1 - y0) >= TAP * width - 1e-6, (
                            target,
                            x1 - x0,
                            y1 - y0,
                        )
    assert {("color", "source"), ("hand", "seat"), ("seat", "space"), ("pass", "seat")} <= seen


def test_sizes_come_from_the_page_and_the_layouts_fit_their_screens():
    s = azul.load_game("pavilion", players=4).new_initial_state(1)
    for layout in ("wide", "tall"):
        root = parse(s.game.presenter().render_svg(s, seat=2, layout=layout))
        assert root.get("width") == "100%" and root.get("height") is None
        _, _, w, h = (float(v) for v in root.get("viewBox").split())
        if layout == "wide":  # the first screen (about 1.3 times as wide as high) holds the
            # viewer's board and every tile one takes; the others' boards are 0.28 w or wider
            first = w / 1.3
            sources = [g for attrs, g in groups(root) if "source" in attrs]
            assert sources and all(_box(g[0])[0][3] <= first for g in sources)
            viewer = next(g for g in root.iter(f"{NS}g") if g.get("data-seat") == "2")
            rect = viewer.find(f"{NS}rect")
            assert float(rect.get("y")) + float(rect.get("height")) <= first
        else:
            assert w == 390 and h > w
        boards = {
            g.get("data-seat"): float(g.find(f"{NS}rect").get("width"))
            for g in root.iter(f"{NS}g")
            if g.get("class") == "board"
        }
        assert boards["2"] > max(w for seat, w in boards.items() if seat != "2")
        if layout == "wide":
            assert min(boards.values()) >= 0.28 * w
    with pytest.raises(azul.OptionError):
        s.game.presenter().render_svg(s, layout="phone")
    with pytest.raises(azul.OptionError):
        s.game.presenter().render_svg(s, seat=4)
    spectator = parse(s.game.presenter().render_svg(s))
    widths = {
        float(g.find(f"{NS}rect").get("width"))
        for g in spectator.iter(f"{NS}g")
        if g.get("class") == "board"
    }
    assert len(widths) == 1  # a spectator sees every board at one size


def _luminance(color: str) -> float:
    color = color.lstrip("#")
    if len(color) == 3:
        color = "".join(ch * 2 for ch in color)
    channels = [int(color[i : i + 2], 16) / 255 for i in (0, 2, 4)]
    linear = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(a: str, b: str) -> float:
    hi, lo = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_letters_contrast_with_their_tiles_and_keep_a_halo_over_patterns():
    for c in range(data.NUM_COLORS):
        assert contrast(FILL[c], INK[c]) >= 4.5, data.COLORS[c]
    s = load(hands=["PGOYBR"], boards=[board("P1", "G1", "O1", "Y1", "B1", "R1")])
    root = parse(s.game.presenter().render_svg(s, patterns=True))
    letters = [t for t in root.iter(f"{NS}text") if t.text in tuple(data.COLOR_LETTERS)]
    assert letters
    for t in letters:
        c = data.COLOR_LETTERS.index(t.text)
        assert t.get("fill") == INK[c] and t.get("stroke") == FILL[c]
        assert t.get("paint-order") == "stroke"
    assert "url(#azul-pat-" in s.game.presenter().render_svg(
        s, patterns=True
    ) and "url(#azul-pat-" not in s.game.presenter().render_svg(s)


def test_words_of_the_drawing_are_translated():
    s = load(hands=["RRGGBB"], kept=["", "PY"], passed=[False, True])
    fr = s.game.presenter().render_svg(s, lang="fr")
    pt = s.game.presenter().render_svg(s, lang="pt")
    assert "Manche 1 sur 6" in fr and "Rodada 1 de 6" in pt
    assert "pilier" in fr and "pilar" in pt
    for svg in (fr, pt):
        assert ">pass<" not in svg and ">hand<" not in svg and ">supply<" not in svg


def test_draws_have_no_targets_and_are_named_by_their_notation():
    s = azul.load_game("pavilion", explicit_chance=True).new_initial_state(1)
    assert s.is_chance_node()
    a = s.legal_actions()[0]
    assert (
        s.game.presenter().action_targets(s, a) == []
        and s.game.presenter().action_marks(s, a) == []
        and s.game.presenter().action_details(s, a) == {}
    )
    assert str(s.game.presenter().describe_action(s, a)) == s.action_to_string(a)
    parse(s.game.presenter().render_svg(s, layout="tall"))  # a drawing while tiles are being drawn


def _inside(shape: ET.Element, x: float, y: float) -> bool:
    """Whether (x, y) lies in a hit shape: a convex polygon, or a path of rectangles."""
    if shape.tag == f"{NS}polygon":
        xy = [float(v) for v in re.split(r"[ ,]+", shape.get("points").strip())]
        corners = list(zip(xy[::2], xy[1::2], strict=True))
        sides = [
            (bx - ax) * (y - ay) - (by - ay) * (x - ax)
            for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True)
        ]
        return all(s >= 0 for s in sides) or all(s <= 0 for s in sides)
    return any(x0 <= x <= x1 and y0 <= y <= y1 for x0, y0, x1, y1 in _box(shape))


@pytest.mark.parametrize("layout", ["wide", "tall"])
def test_the_middle_of_every_target_is_its_own(layout):
    """A click in the middle of a target's box (as a test robot clicks) reaches that target,
    so a colour's tiles always lie in a rectangle."""
    for players, side, seed in ((2, "coloured", 21), (4, "grey", 22)):
        for state in positions(players, side, seed, every=4):
            if state.is_terminal():
                break
            root = parse(
                state.game.presenter().render_svg(state, seat=state.current_player(), layout=layout)
            )
            found = groups(root)
            targets = [
                t
                for a in state.legal_actions()
                for t in state.game.presenter().action_targets(state, a)
            ]
            mine = {id(g): g for t in targets for g in matching(found, t)}
            for g in mine.values():
                boxes = _box(g[0])
                x = (min(b[0] for b in boxes) + max(b[2] for b in boxes)) / 2
                y = (min(b[1] for b in boxes) + max(b[3] for b in boxes)) / 2
                assert _inside(g[0], x, y), g.attrib
                others = [o for o in mine.values() if o is not g and _inside(o[0], x, y)]
                assert not others, (g.attrib, [o.attrib for o in others])


def test_previews_of_every_legal_move_at_once_equal_each_preview():
    # the batched previews (on the compiled core where it is built) earn what each says alone,
    # through a whole game with explicit chance, on both sides of the board
    rng = random.Random(5)
    for board_side in ("coloured", "grey"):
        state = azul.load_game(
            "pavilion", players=3, board=board_side, explicit_chance=True
        ).new_initial_state(2)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(rng.choice(outcomes)[0])
                continue
            actions = state.legal_actions()
            assert state.game.presenter().action_previews(state, actions) == [
                state.game.presenter().action_preview(state, a) for a in actions
            ]
            state.apply_action(rng.choice(actions))
