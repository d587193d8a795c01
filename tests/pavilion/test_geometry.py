"""Board geometry and printed numbers, checked against the literal tables of the rules file."""

import pytest

import azul
from azul.pavilion import data
from azul.pavilion.tables import BOARD_TABLES, RUN, STRUCTURES_AT

# The tables as the rules file ("Board geometry") prints them, in (star name, pos) form.
PILLARS = {
    "purple": [("purple", 2), ("purple", 3), ("centre", 5), ("centre", 6)],
    "orange": [("orange", 2), ("orange", 3), ("centre", 6), ("centre", 1)],
    "red": [("red", 2), ("red", 3), ("centre", 1), ("centre", 2)],
    "blue": [("blue", 2), ("blue", 3), ("centre", 2), ("centre", 3)],
    "yellow": [("yellow", 2), ("yellow", 3), ("centre", 3), ("centre", 4)],
    "green": [("green", 2), ("green", 3), ("centre", 4), ("centre", 5)],
}
STATUES = {
    ("purple", "orange"): [("purple", 1), ("purple", 2), ("orange", 3), ("orange", 4)],
    ("orange", "red"): [("orange", 1), ("orange", 2), ("red", 3), ("red", 4)],
    ("red", "blue"): [("red", 1), ("red", 2), ("blue", 3), ("blue", 4)],
    ("blue", "yellow"): [("blue", 1), ("blue", 2), ("yellow", 3), ("yellow", 4)],
    ("yellow", "green"): [("yellow", 1), ("yellow", 2), ("green", 3), ("green", 4)],
    ("green", "purple"): [("green", 1), ("green", 2), ("purple", 3), ("purple", 4)],
}
OUTER = ["purple", "orange", "red", "blue", "yellow", "green"]
WINDOWS = {s: [(s, 5), (s, 6)] for s in OUTER}


def sp(star: str, pos: int) -> int:
    return data.space(data.STARS.index(star), pos)


def literal(kind: str) -> list[frozenset[int]]:
    table = {"pillar": PILLARS, "statue": STATUES, "window": WINDOWS}[kind]
    return sorted((frozenset(sp(*x) for x in v) for v in table.values()), key=sorted)


@pytest.mark.parametrize("kind,reward", [("pillar", 1), ("statue", 2), ("window", 3)])
def test_structures_match_rules_tables(kind, reward):
    engine = [frozenset(s) for k, _, s, r in data.STRUCTURES if k == kind]
    assert sorted(engine, key=sorted) == literal(kind)
    assert {r for k, _, _, r in data.STRUCTURES if k == kind} == {reward}


def test_memberships_per_space():
    # rules: outer pos1 1 statue, pos2/pos3 statue + pillar, pos4 1 statue, pos5/6 window,
    # centre 2 pillars; 60 memberships in all.
    expected = {1: 1, 2: 2, 3: 2, 4: 1, 5: 1, 6: 1}
    for star in range(1, 7):
        for pos in range(1, 7):
            assert len(STRUCTURES_AT[data.space(star, pos)]) == expected[pos]
    for pos in range(1, 7):
        assert len(STRUCTURES_AT[data.space(0, pos)]) == 2
    assert sum(len(x) for x in STRUCTURES_AT) == 60


def test_coloured_costs_are_positions():
    cost = BOARD_TABLES["coloured"].cost
    assert [cost[data.space(s, p)] for s in range(7) for p in range(1, 7)] == list(range(1, 7)) * 7


def test_grey_costs():
    cost = BOARD_TABLES["grey"].cost
    assert [cost[data.space(0, p)] for p in range(1, 7)] == [3] * 6
    for s in range(1, 7):
        assert [cost[data.space(s, p)] for p in range(1, 7)] == [3, 2, 1, 4, 5, 6]


@pytest.mark.parametrize(
    "side,sizes", [("coloured", {1: 7, 2: 7, 3: 7, 4: 7}), ("grey", {1: 6, 2: 6, 3: 12, 4: 6})]
)
def test_number_bonus_groups(side, sizes):
    groups = {n: bin(mask).count("1") for n, mask, _ in BOARD_TABLES[side].number_masks}
    assert groups == sizes
    assert {n: b for n, _, b in BOARD_TABLES[side].number_masks} == {1: 4, 2: 8, 3: 12, 4: 16}


def test_ring_runs():
    # positions as bits 0..5; a run wraps from 6 to 1 (rules 5.5)
    assert RUN[0b000001][0] == 1
    assert RUN[0b110001][5] == 3  # 5, 6 and 1 connected around the ring
    assert RUN[0b010101][2] == 1
    assert RUN[0b011111][0] == 5
    assert RUN[0b111111][3] == 6


def test_star_bonus_values():
    by_name = {data.COLORS[c]: v for c, v in data.STAR_BONUS_BY_COLOR.items()}
    assert by_name == {"red": 14, "blue": 15, "yellow": 16, "orange": 17, "green": 18, "purple": 20}
    assert data.MULTICOLORED_STAR_BONUS == 12


def test_the_terminal_lists_each_structure_with_its_covered_spaces():
    """The rules' table of structures (Board geometry): the purple pillar is purple 2, purple 3,
    centre 5 and centre 6; centre 6 is also in the orange pillar, centre 5 in the green one;
    the purple-orange statue is purple 1, purple 2, orange 3, orange 4; the green-purple
    statue green 1, green 2, purple 3, purple 4; the purple window purple 5 and purple 6."""
    from azul.pavilion.render import render_text

    state = azul.load_game("pavilion", engine="python").new_initial_state(1)
    for star, pos in (("purple", 1), ("purple", 2), ("purple", 3), ("purple", 5)):
        state.cells[space_of(star, pos)] = 0
    for pos in (5, 6):
        state.cells[space_of("centre", pos)] = 0
    lines = render_text(state).splitlines()
    first = lines.index(next(x for x in lines if x.strip().startswith("pillars")))
    pillars, statues, windows = (lines[first + i].split() for i in range(3))
    assert pillars[2:] == ["P", "done", "O", "1/4", "R", "0/4", "B", "0/4", "Y", "0/4", "G", "1/4"]
    assert statues[2:] == ["P", "2/4", "O", "0/4", "R", "0/4", "B", "0/4", "Y", "0/4", "G", "1/4"]
    assert windows[2:] == ["P", "1/2", "O", "0/2", "R", "0/2", "B", "0/2", "Y", "0/2", "G", "0/2"]


def space_of(star: str, pos: int) -> int:
    """A space's index: the stars in the rules' order (centre, purple, orange, red, blue,
    yellow, green), six spaces each."""
    order = ("centre", "purple", "orange", "red", "blue", "yellow", "green")
    return order.index(star) * 6 + pos - 1
