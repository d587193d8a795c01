"""Sintra rules (rules/sintra.md), expected numbers worked out by hand from the rules and the
shipped provisional values (window values 1 1 2 2 3 3 4 4; track 0 -1 -2 -3 -5 -8 -11 -14 -18)."""

import pytest

import azul
from tests.sintra.helpers import load, me, moves, player, position, strip

PINK, ORANGE, YELLOW, BLUE, WHITE = range(5)


def test_centre_pick_takes_the_tile_and_one_track_step():
    # rules 3.1b: first from the centre -> starting-player tile and one space down
    s = load(centre="PPO", factories=["YYYY"])
    s.apply_string("C:P>1")  # strip 1 side a: P P O O B
    doc = s.to_json()
    assert doc["tile"] == 0
    assert me(s)["track"] == 1
    assert me(s)["strips"][0]["pieces"][:2] == ["pink", "pink"]
    assert doc["centre"] == {"orange": 1}
    assert s.scores()[0] == 0  # the track costs points only at the end or at -18
    s.apply_string("C:O>1")  # seat 1: the tile is taken already, no step
    assert me(s, 1)["track"] == 0


def test_place_one_of_three_and_break_two():
    # strip 1 has one pink space left; 3 pink from F1: 1 placed, 2 broken (2 steps, tower)
    s = load(players=[player({1: strip(1, "a", "P....")}), player()], factories=["PPPO"])
    s.apply_string("F1:P>1")
    assert me(s)["strips"][0]["pieces"][:2] == ["pink", "pink"]
    assert me(s)["track"] == 2
    assert s.to_json()["tower"] == {"pink": 2}
    assert s.to_json()["centre"] == {"orange": 1}


def test_compulsory_placement():
    # glazier above strip 3 (WWPPY): orange fits strips 4 (OOBBY) and 8 (WWYYO) only
    s = load(players=[player(glazier=3), player()], factories=["OOYY"])
    assert [m for m in moves(s) if m.startswith("F1:O")] == ["F1:O>4", "F1:O>8"]
    with pytest.raises(azul.IllegalMoveError, match="strip 3 has no empty space for orange"):
        s.apply_string("F1:O>3")
    with pytest.raises(azul.IllegalMoveError, match="break only when no reachable strip"):
        s.apply_string("F1:O>break")
    with pytest.raises(azul.IllegalMoveError, match="strip 2 is left of the glazier"):
        s.apply_string("F1:Y>2")
    s.apply_string("F1:O>8")
    assert me(s)["glazier"] == 8
    assert me(s)["strips"][7]["pieces"] == [None, None, None, None, "orange"]
    assert me(s)["track"] == 1  # two orange, one space: one breaks


def test_everything_breaks_only_when_nothing_reachable_takes_a_piece():
    # glazier above strip 8 whose orange space is filled: orange has no target
    s = load(players=[player({8: strip(8, "a", "....O")}, glazier=8), player()], factories=["OOYW"])
    assert [m for m in moves(s) if m.startswith("F1:O")] == ["F1:O>break"]
    s.apply_string("F1:O>break")
    assert me(s)["track"] == 2
    assert me(s)["glazier"] == 8
    assert s.to_json()["tower"] == {"orange": 2}


def test_completion_in_round_three_with_two_pieces_of_the_round_colour():
    # round 3, indicator top is pink; strip 1 PPOOB gets its blue: +2 for the two pinks,
    # then keep a piece: window 1 (value 1), nothing occupied to its right: +1
    s = load(
        round=3,
        indicator="YOPYBW",
        players=[player({1: strip(1, "a", "PPOO.")}), player()],
        factories=["BYYY"],
    )
    assert s.round_color() == PINK
    s.apply_string("F1:B>1")
    assert s.scores()[0] == 2
    assert s.decision() == "keep" and s.current_player() == 0
    assert moves(s) == ["keep:P", "keep:O", "keep:B"]
    with pytest.raises(azul.IllegalMoveError, match="no yellow piece"):
        s.apply_string("keep:Y")
    s.apply_string("keep:B")
    assert s.scores()[0] == 3
    doc = me(s)
    assert doc["windows"][0] == ["blue", None]
    assert doc["strips"][0] == {"strip": 1, "side": "b", "pieces": [None] * 5}  # flipped
    assert s.to_json()["tower"] == {"pink": 2, "orange": 2}
    assert s.current_player() == 1


def test_window_scoring_two_plus_three():
    # window 3 (value 2) with window 5 (value 3) occupied to its right: 2 + 3 = 5
    s = load(
        indicator="OPOYBW",
        players=[player({3: strip(3, "a", "WWPP."), 5: strip(5, "b")}, windows={5: "B"}), player()],
        factories=["YOOO"],
    )
    s.apply_string("F1:Y>3")
    s.apply_string("keep:W")
    assert s.scores()[0] == 5


def test_one_colour_strip_keeps_automatically(tmp_path):
    # a components file whose strip 1 side a is all orange: completing it needs no choice
    from azul.sintra.data import SHIPPED

    text = SHIPPED.read_text().replace(
        '["pink", "pink", "orange", "orange", "blue"]',
        '["orange", "orange", "orange", "orange", "orange"]',
    )
    path = tmp_path / "mono.toml"
    path.write_text(text)
    doc = position(
        players=[player({1: strip(1, "a", "OOO..")}), player()],
        factories=["OOYY"],
        indicator="OPOYBW",
    )
    doc["options"]["components"] = str(path)
    s = azul.load_state(doc)
    s.apply_string("F1:O>1")
    assert s.decision() == "play" and s.current_player() == 1
    assert me(s)["windows"][0] == ["orange", None]
    assert s.scores()[0] == 5 + 1  # five orange of the round colour, window 1 worth 1


def test_joker_spaces_take_the_overflow():
    # strip 8 side b: joker joker pink yellow white. 3 pink: the pink space first, then jokers
    s = load(players=[player({8: strip(8, "b")}, glazier=8), player()], factories=["PPPO"])
    s.apply_string("F1:P>8")
    assert me(s)["strips"][7]["pieces"] == ["pink", "pink", "pink", None, None]
    assert me(s)["track"] == 0
    # 3 orange: no orange space, 2 jokers take 2, one breaks
    s = load(players=[player({8: strip(8, "b")}, glazier=8), player()], factories=["OOOY"])
    s.apply_string("F1:O>8")
    assert me(s)["strips"][7]["pieces"] == ["orange", "orange", None, None, None]
    assert me(s)["track"] == 1


def test_second_completion_removes_the_strip():
    # window 2 already has a top piece; strip 2 (side b: BBWWO) completes: bottom frame filled,
    # strip removed, glazier stays above the empty slot. Score: window 2 (1) + window 4
    # occupied (2) = 3; no piece of the round colour (orange? no: the round colour is yellow).
    s = load(
        indicator="YPOYBW",
        players=[
            player(
                {2: strip(2, "b", "BBWW."), 4: strip(4, "b")}, windows={2: "P", 4: "Y"}, glazier=2
            ),
            player(),
        ],
        factories=["OPPP"],
    )
    s.apply_string("F1:O>2")
    s.apply_string("keep:W")
    doc = me(s)
    assert doc["strips"][1] is None
    assert doc["windows"][1] == ["pink", "white"]
    assert doc["glazier"] == 2
    assert s.scores()[0] == 1 + 2


def test_glazier_over_an_empty_slot():
    # strips 1 and 2 gone; glazier above slot 2: 'back' moves him right onto strip 3; from
    # slot 4 (gone) only strips 5-8 are reachable
    gone = {1: None, 2: None, 4: None}
    wins = {1: "PO", 2: "YB", 4: "WW"}
    s = load(players=[player(gone, windows=wins, glazier=2), player()], factories=["OOYY"])
    assert "back" in moves(s)
    s.apply_string("back")
    assert me(s)["glazier"] == 3
    s = load(players=[player(gone, windows=wins, glazier=4), player()], factories=["OOYY"])
    targets = {m.split(">")[1] for m in moves(s) if m.startswith("F1:")}
    assert targets <= {"5", "6", "7", "8"}


def test_back_is_illegal_above_the_leftmost_strip():
    s = load(factories=["OOYY"])
    assert "back" not in moves(s)
    with pytest.raises(azul.IllegalMoveError, match="already stands above the leftmost strip"):
        s.apply_string("back")
    s = load(players=[player(glazier=5), player()], factories=["OOYY"])
    s.apply_string("back")
    assert me(s)["glazier"] == 1
    assert s.current_player() == 1


def test_minus_eighteen_event_with_several_steps_in_one_turn():
    # marker on -14 (index 7); 3 pieces break: step 1 reaches -18 (index 8): -18 at once and
    # back to the top; steps 2 and 3 go on to index 2
    s = load(
        players=[player({1: strip(1, "a", "PPOO.")}, track=7, score=10), player()],
        factories=["BBBB"],
    )
    s.apply_string("F1:B>1")  # one blue placed (completes, keep decision next), 3 break
    assert s.scores()[0] == 10 - 18 + 0  # the colour bonus: round colour yellow, none
    assert me(s)["track"] == 2
    assert me(s)["lost"] == 18


def test_score_floor_option():
    s = load(players=[player(track=7, score=5), player()], factories=["BBBB"], score_floor=0)
    s.apply_string("F1:B>1")  # strip 1 PPOOB: one blue placed, 3 break
    assert s.scores()[0] == 0
    assert me(s)["lost"] == 18


def test_round_end_indicator_piece_to_tower_and_refill():
    # the last piece is taken: round 1 ends, its indicator piece (yellow) goes to the tower,
    # seat 1 holds the tile and starts round 2; factories refilled with 4 pieces each
    s = load(factories=["O"], tile=1, start_player=0)
    s.apply_string("F1:O>1")
    doc = s.to_json()
    assert doc["round"] == 2
    assert doc["indicator"][0] is None
    assert doc["tower"].get("yellow", 0) == 1
    assert doc["to_move"] == 1 and doc["tile"] is None
    assert [sum(f.values()) for f in doc["factories"]] == [4] * 5


def test_nobody_took_the_tile_previous_starter_starts_again():
    s = load(factories=["O"], tile=None, start_player=1, to_move=0)
    s.apply_string("F1:O>1")
    assert s.current_player() == 1


def test_end_leftovers_and_track_penalty():
    # round 6, last piece: after the move 7 pieces are on strips (+2), the marker is on -8
    strips = {1: strip(1, "a", "PPOO."), 2: strip(2, "a", "YY...")}
    s = load(round=6, players=[player(strips, track=5, score=20), player()], factories=["W"])
    s.apply_string("F1:W>3")  # strip 3 WWPPY: one white -> 4 + 2 + 1 = 7 pieces
    assert s.is_terminal()
    assert s.scores()[0] == 20 + 2 - 8
    assert me(s)["lost"] == 8
    lines = {x["item"]: x["points"] for x in s.score_breakdown()[0]}
    assert lines["play"] == 20 and lines["leftovers"] == 2 and lines["broken"] == -8
    assert sum(lines.values()) == s.scores()[0]


def test_side_a_example_worth_23():
    # ornaments: windows 1+2 all 4 frames (10), 3+4 all 4 (10), 7+8 two frames (3): 23
    gone = {1: None, 2: None, 3: None, 4: None}
    wins = {1: "PO", 2: "YB", 3: "WP", 4: "OY", 7: "B", 8: "W"}
    s = load(
        round=6,
        players=[player(gone, windows=wins, glazier=5), player()],
        factories=["Y"],
        indicator="YPOYBW",
    )
    s.apply_string("F1:Y>6")  # strip 6 PPBBY: 1 piece left on strips (no leftover point)
    assert s.scores()[0] == 23
    assert {"item": "ornaments", "detail": "", "points": 23} in s.score_breakdown()[0]


def test_side_b_example_four_windows_times_five():
    # side B: 4 completed windows x 5 orange pieces in the windows = 20
    gone = {1: None, 2: None, 3: None, 4: None}
    wins = {1: "OO", 2: "OO", 3: "OB", 4: "WY"}
    s = load(
        side="B",
        round=6,
        players=[player(gone, windows=wins, glazier=5), player()],
        factories=["Y"],
        indicator="YPOYBW",
    )
    s.apply_string("F1:Y>6")
    assert s.scores()[0] == 20
    assert {"item": "windows", "detail": "4x5", "points": 20} in s.score_breakdown()[0]


def test_tie_break_and_shared_victory():
    # equal scores: fewer points lost to broken glass wins; equal again: shared
    s = load(round=6, players=[player(score=10, lost=18), player(score=10)], factories=["P"])
    s.apply_string("F1:P>1")
    assert s.scores() == [10, 10]
    assert s.winners() == [1]
    assert s.returns() == [-1.0, 1.0]
    s = load(round=6, players=[player(score=10), player(score=10)], factories=["P"])
    s.apply_string("F1:P>1")
    assert s.winners() == [0, 1]
    assert s.returns() == [0.0, 0.0]


def test_setup():
    # rules 2: rounds II-VI hold one piece of each colour; round I a piece from the bag;
    # 5 factories of 4: 100 - 6 - 20 = 74 in the bag; the joker side of strip 8 faces down
    for seed in range(20):
        s = azul.load_game("sintra").new_initial_state(seed)
        doc = s.to_json()
        assert sorted(doc["indicator"][1:]) == sorted(["pink", "orange", "yellow", "blue", "white"])
        assert sum(doc["bag"].values()) == 74
        for pl in doc["players"]:
            assert sorted(st["strip"] for st in pl["strips"]) == list(range(1, 9))
            assert all(st["side"] == "a" for st in pl["strips"] if st["strip"] == 8)
            assert pl["glazier"] == 1 and pl["track"] == 0 and pl["score"] == 0
