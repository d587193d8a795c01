"""Phase 1: taking tiles (rules 4), with expected numbers worked out from the rules."""

import pytest

import azul
from tests.pavilion.helpers import counts, load, moves


def take_state(**kw):
    kw.setdefault("decision", "take")
    return load(**kw)


def test_take_colour_with_one_wild_rest_to_centre():
    # round 1: purple is wild. F1 = G P P Y: take green -> 1 green + exactly 1 purple,
    # the other purple and the yellow go to the centre (rules 4.2).
    s = take_state(factories=["GPPY"])
    s.apply_string("F1:G")
    doc = s.to_json()
    assert doc["players"][0]["hand"] == counts("GP")
    assert doc["factories"][0] == {}
    assert doc["centre"] == counts("PY")
    assert doc["to_move"] == 1


def test_wild_cannot_be_taken_beside_other_colours():
    s = take_state(factories=["GGPY"])
    assert moves(s) == ["F1:G", "F1:Y"]
    with pytest.raises(azul.IllegalMoveError, match="purple is wild this round"):
        s.apply_string("F1:P")


def test_wild_only_factory_gives_exactly_one_wild():
    # round 3: orange is wild; F2 holds 3 orange only -> take one, two go to the centre
    s = take_state(round=3, factories=["GY", "OOO"])
    assert moves(s) == ["F1:G", "F1:Y", "F2:O"]
    s.apply_string("F2:O")
    doc = s.to_json()
    assert doc["players"][0]["hand"] == counts("O")
    assert doc["centre"] == counts("OO")


def test_wild_only_centre_takes_one_and_the_token():
    s = take_state(round=2, centre="GGG", scores=[9, 5])
    assert moves(s) == ["C:G"]
    s.apply_string("C:G")
    doc = s.to_json()
    assert doc["players"][0]["hand"] == counts("G")
    assert doc["centre"] == counts("GG")
    assert doc["token"] == 0
    assert doc["players"][0]["score"] == 8  # one tile taken: back 1


def test_token_example_three_yellow_and_a_wild_costs_four():
    # rulebook: taking 3 yellow + 1 wild first from the centre moves the marker back 4
    s = take_state(centre="YYYPPB", factories=["GR"], scores=[12, 5])
    s.apply_string("C:Y")
    doc = s.to_json()
    assert doc["players"][0]["score"] == 8
    assert doc["players"][0]["hand"] == counts("YYYP")
    assert doc["centre"] == counts("PB")
    assert doc["token"] == 0


def test_token_penalty_stops_at_one():
    s = take_state(centre="YYYP", factories=["GR"], scores=[3, 5])
    s.apply_string("C:Y")
    assert s.scores()[0] == 1
    s2 = take_state(centre="YYYP", factories=["GR"], scores=[1, 5])
    s2.apply_string("C:Y")
    assert s2.scores()[0] == 1


def test_no_floor_when_the_option_is_off():
    s = take_state(centre="YYYP", factories=["GR"], scores=[3, 5], score_floor=None)
    s.apply_string("C:Y")
    assert s.scores()[0] == -1


def test_only_the_first_centre_take_pays():
    s = take_state(centre="YYB", factories=["GR"], token=1, scores=[7, 5])
    s.apply_string("C:Y")
    assert s.scores()[0] == 7
    assert s.to_json()["token"] == 1


def test_phase_two_starts_with_the_token_holder():
    # the last tile is taken: Phase 2 begins with the token holder (rules 4.7)
    s = take_state(factories=["R"], token=1, to_move=0, hands=["", "BB"])
    s.apply_string("F1:R")
    assert s.decision() == "place"
    assert s.current_player() == 1


def test_nobody_took_the_token_start_player_begins_phase_two():
    # project decision (rules 4.8): the round's start player begins Phase 2
    s = take_state(
        players=3, factories=["R"], token=None, to_move=2, start_player=1, hands=["B", "B", ""]
    )
    s.apply_string("F1:R")
    assert s.current_player() == 1


def test_take_counts_perft():
    # round 1 (purple wild): F1 GGPY -> G, Y; F2 PPPP -> one P; F3 RBBO -> R, B, O;
    # centre OOP -> O. 2 + 1 + 3 + 1 = 7 actions.
    s = take_state(factories=["GGPY", "PPPP", "RBBO"], centre="OOP")
    assert moves(s) == ["C:O", "F1:G", "F1:Y", "F2:P", "F3:O", "F3:B", "F3:R"]


def test_empty_source_and_missing_colour_are_refused():
    s = take_state(factories=["GG"])
    before = s.to_json()
    with pytest.raises(azul.IllegalMoveError, match="factory 2 has no red tile"):
        s.apply_string("F2:R")
    with pytest.raises(azul.IllegalMoveError, match="the centre has no green tile"):
        s.apply_string("C:G")
    assert s.to_json() == before
