"""The grey side (rules 9): free star colours, other printed numbers, 12-space all 3s."""

import pytest

import azul
from tests.pavilion.helpers import board, load, moves


def grey(**kw):
    return load(board_side="grey", **kw)


def colours_allowed_on(state, star_letter):
    return sorted({m[0] for m in moves(state) if m[2] == star_letter})


def test_first_and_second_tile_any_colour():
    s = grey(round=2, hands=["RRRRBBBBYYYY"], boards=[board("Y1=R"), {}])  # green wild
    assert colours_allowed_on(s, "O") == ["B", "R", "Y"]  # empty star
    assert colours_allowed_on(s, "Y") == ["B", "R", "Y"]  # one tile: the 2nd decides


def test_two_matching_tiles_make_a_single_coloured_star():
    s = grey(round=2, hands=["RRRRBBBB"], boards=[board("B1=R", "B2=R"), {}])
    assert colours_allowed_on(s, "B") == ["R"]
    with pytest.raises(azul.IllegalMoveError, match="single-coloured red"):
        s.apply_string("B@B4")


def test_two_different_tiles_make_a_multicoloured_star():
    s = grey(round=2, hands=["RRRRBBBBYYYY"], boards=[board("P1=R", "P2=B"), {}])
    assert colours_allowed_on(s, "P") == ["Y"]
    with pytest.raises(azul.IllegalMoveError, match="multicoloured and already has a red"):
        s.apply_string("R@P3")


def test_grey_costs():
    # outer pos 3 costs 1, pos 1 costs 3, centre spaces all cost 3 (rules 9.1)
    s = grey(round=2, hands=["R"])
    assert sorted(m for m in moves(s) if m.startswith("R@")) == sorted(
        f"R@{star}3" for star in "PORBYG"
    )
    s = grey(round=2, hands=["RRR"])
    ms = moves(s)
    assert "R@C1" in ms and "R@P1" in ms and "R@P4" not in ms


def test_wild_colour_on_grey_star_only_paid_in_wild():
    s = grey(round=1, hands=["PRR"])
    assert "P@O3" in moves(s)  # cost 1, paid with the one purple
    assert [m for m in moves(s) if m.startswith("P@")] == [f"P@{x}3" for x in "PORBYG"]


@pytest.mark.parametrize(
    "cells,bonus",
    [
        (["Y1=Y", "Y2=Y", "Y3=Y", "Y4=Y", "Y5=Y", "Y6=Y"], 16),  # single-coloured yellow
        (["R1=P", "R2=P", "R3=P", "R4=P", "R5=P", "R6=P"], 20),  # single-coloured purple
        (["G1=P", "G2=G", "G3=O", "G4=Y", "G5=B", "G6=R"], 12),  # multicoloured
    ],
)
def test_grey_star_bonus_by_kind(cells, bonus):
    s = grey(round=6, hands=["B"], passed=[False, True], boards=[board(*cells), {}], scores=[10, 5])
    s.apply_string("pass")
    assert s.scores()[0] == 10 + bonus - 1


def test_grey_all_threes_needs_twelve_spaces():
    # all 3s = pos 1 of each outer star + the 6 centre spaces: 12 points (rules 9.1)
    threes = [f"{s}1=R" for s in "PORBYG"] + [f"C{i}={c}" for i, c in enumerate("PGOYBR", 1)]
    s = grey(
        round=6, hands=["B"], passed=[False, True], boards=[board(*threes), {}], scores=[10, 5]
    )
    s.apply_string("pass")
    # the centre star is also complete and multicoloured: +12 more
    assert s.scores()[0] == 10 + 12 + 12 - 1
    s = grey(
        round=6, hands=["B"], passed=[False, True], boards=[board(*threes[:11]), {}], scores=[10, 5]
    )
    s.apply_string("pass")
    assert s.scores()[0] == 10 - 1


def test_grey_all_ones_is_pos_three():
    ones = [f"{s}3=R" for s in "PORBYG"]
    s = grey(round=6, hands=["B"], passed=[False, True], boards=[board(*ones), {}], scores=[10, 5])
    s.apply_string("pass")
    assert s.scores()[0] == 10 + 4 - 1


def test_grey_mixed_star_is_an_invalid_position():
    with pytest.raises(azul.PositionError, match=r"players\[0\].board: the purple star"):
        grey(boards=[board("P1=R", "P2=R", "P3=B"), {}])


def test_the_grey_boards_titles_name_stars_by_place_as_the_log_does():
    """The grey side's stars have no colour (rules, Board geometry: star 1 at 9 o'clock, then
    clockwise): every title of a space names its star by place, never by a colour."""
    import re

    state = azul.load_game("pavilion", board="grey").new_initial_state(1)
    svg = state.game.presenter().render_svg(state)
    titles = [t for t in re.findall(r"<title>([^<]*)</title>", svg) if ", space " in t]
    assert len(titles) == 2 * 42  # every space of both boards
    colours = ("purple", "orange", "red", "blue", "yellow", "green")
    assert not [t for t in titles if any(f"{c} star" in t for c in colours)]
    places = ("centre", "left", "upper left", "upper right", "right", "lower right", "lower left")
    for place in places:
        assert f"the {place} star, space 2, costs" in " ".join(titles), place


def test_final_scores_name_a_grey_star_by_its_place():
    # star 1 is at 9 o'clock (rules "Board geometry"); six colours make it multicoloured: +12
    cells = ["P1=R", "P2=B", "P3=Y", "P4=G", "P5=O", "P6=P"]
    s = grey(round=6, hands=["R"], passed=[False, True], boards=[board(*cells), {}], scores=[20, 5])
    s.apply_string(next(m for m in moves(s) if m.startswith("pass")))
    mine = s.score_breakdown()[0]
    assert {"item": "star", "detail": "left", "points": 12} in mine
    assert "orange" not in str(mine) and "purple" not in str(mine)
