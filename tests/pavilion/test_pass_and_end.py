"""Passing, preparing the next round and final scoring (rules 5.8-7), worked out by hand."""

import pytest

import azul
from azul.pavilion import data
from tests.pavilion.helpers import board, counts, load, moves


def player(state, seat):
    return state.to_json()["players"][seat]


def test_pass_with_more_than_four_keeps_up_to_four_and_pays_for_the_rest():
    # hand R R R B B P G (7 tiles): keep R R B P, discard R B G -> -3 (rules 5.8)
    s = load(hands=["RRRBBPG", "Y"], scores=[10, 5])
    with pytest.raises(azul.IllegalMoveError, match="say which to keep, up to 4"):
        s.apply_string("pass")
    ms = moves(s)
    assert "pass" not in ms
    # multisets of 0 to 4 tiles from R3 B2 P1 G1: the coefficients of x^0..x^4 in
    # (1+x+x^2+x^3)(1+x+x^2)(1+x)(1+x) are 1, 4, 8, 11, 11: 35 passes
    passes = [m for m in ms if m.startswith("pass:")]
    assert len(passes) == 35
    assert len([m for m in passes if len(m) == len("pass:RRBB")]) == 11
    assert "pass:-" in passes
    s.apply_string("pass:PBRR")  # letters in any order
    assert player(s, 0)["kept"] == counts("RRBP")
    assert player(s, 0)["hand"] == {}
    assert s.scores()[0] == 7
    assert s.to_json()["tower"] == counts("RBG")
    assert player(s, 0)["passed"]


@pytest.mark.parametrize("keep", ["-", "none", "PG"])
def test_pass_can_keep_fewer_than_four(keep):
    # rules 5.8.1 "up to 4": keeping nothing discards all 7 (-7); keeping P G discards 5 (-5)
    s = load(hands=["RRRBBPG", "Y"], scores=[10, 5])
    s.apply_string(f"pass:{keep}")
    kept = "" if keep in ("-", "none") else keep
    assert player(s, 0)["kept"] == counts(kept)
    assert s.scores()[0] == 10 - (7 - len(kept))
    assert sum(s.to_json()["tower"].values()) == 7 - len(kept)


def test_pass_names_at_most_four_tiles():
    s = load(hands=["RRRBBPG", "Y"])
    with pytest.raises(azul.IllegalMoveError, match="at most 4 tiles to keep, not 5"):
        s.apply_string("pass:RRRBB")


def test_keeping_nothing_at_the_last_pass_beats_keeping_four_at_the_floor():
    # round 6, score 3, hand GGGG OOOO, a completed purple star, seat 1 has passed.
    # Keep none: 3 - 8 -> 1 (floor), star +20 -> 21. Keep four: 3 - 4 -> 1, +20, then -4 for the
    # kept tiles after the bonuses (rules 5.9, 7.3) -> 17.
    cells = [f"P{i}" for i in range(1, 7)]
    final = {}
    for keep in ("-", "GGGG", "GGOO"):
        s = load(
            round=6,
            hands=["GGGGOOOO"],
            passed=[False, True],
            boards=[board(*cells), {}],
            scores=[3, 5],
        )
        s.apply_string(f"pass:{keep}")
        assert s.is_terminal()
        final[keep] = s.scores()[0]
    assert final == {"-": 21, "GGGG": 17, "GGOO": 17}


def test_pass_penalty_stops_at_one():
    s = load(hands=["RRRBBPG", "Y"], scores=[2, 5])
    s.apply_string("pass:RRBP")
    assert s.scores()[0] == 1


def test_pass_with_four_or_fewer_keeps_all():
    s = load(hands=["RRBG", "Y"], scores=[10, 5])
    assert [m for m in moves(s) if m.startswith("pass")] == ["pass"]
    with pytest.raises(azul.IllegalMoveError, match="kept whole"):
        s.apply_string("pass:RRBG")
    s.apply_string("pass")
    assert player(s, 0)["kept"] == counts("RRBG")
    assert s.scores()[0] == 10


def test_keeping_tiles_not_in_hand_is_refused():
    s = load(hands=["RRRBBPG", "Y"])
    with pytest.raises(azul.IllegalMoveError, match="cannot keep 2 yellow: hand has 0"):
        s.apply_string("pass:YYRR")


def test_passed_player_is_skipped_and_empty_hand_passes_itself():
    # 3 players: seat 1 has no tiles, so after seat 0 places, seat 2 moves (project decision)
    s = load(players=3, hands=["RRRR", "", "BB"])
    s.apply_string("R@R1")
    assert s.current_player() == 2
    assert player(s, 1)["passed"]
    s.apply_string("pass")
    assert s.current_player() == 0


def test_phase_three_prepares_the_next_round():
    # round 2 ends: seat 1 held the token, so seat 1 starts round 3; kept tiles return to hand
    s = load(round=2, hands=["RR", ""], kept=["", "BBG"], passed=[False, True], token=1)
    s.apply_string("pass")
    doc = s.to_json()
    assert doc["round"] == 3
    assert doc["decision"] == "take"
    assert doc["to_move"] == 1
    assert doc["token"] is None
    assert [p["hand"] for p in doc["players"]] == [counts("RR"), counts("BBG")]
    assert [p["kept"] for p in doc["players"]] == [{}, {}]
    assert [sum(f.values()) for f in doc["factories"]] == [4] * 5
    assert s.wild() == data.ORANGE


def test_short_factories_when_bag_and_tower_are_empty():
    # 4 players; 6 tiles in the bag and none in the tower: factory 1 gets 4, factory 2 gets 2
    boards = [{} for _ in range(4)]
    per_color = {c: 22 for c in "PGOYBR"}
    bag, supply, hand = "PGOYBR", "PPGGOOYYBR", "R"
    for ch in bag + supply + hand:
        per_color[ch] -= 1
    for ch, n in per_color.items():
        star = data.STAR_LETTERS[data.STAR_COLOR.index(data.COLOR_LETTERS.index(ch))]
        cells = [f"{star}{i % 6 + 1}" for i in range(n)]
        for seat in range(4):
            mine = cells[seat * 6 : (seat + 1) * 6]
            boards[seat].update(board(*mine))
    s = load(
        players=4,
        hands=["", "", "", hand],
        passed=[True, True, True, False],
        to_move=3,
        boards=boards,
        bag=bag,
        supply=supply,
    )
    s.apply_string("pass")
    doc = s.to_json()
    assert doc["round"] == 2
    assert [sum(f.values()) for f in doc["factories"]] == [4, 2, 0, 0, 0, 0, 0, 0, 0]
    assert doc["bag"] == {}


# rules 7.1: centre 12, red 14, blue 15, yellow 16, orange 17, green 18, purple 20
STAR_BONUS = {"C": 12, "R": 14, "B": 15, "Y": 16, "O": 17, "G": 18, "P": 20}


@pytest.mark.parametrize("letter", list(STAR_BONUS))
def test_star_bonus(letter):
    # round 6: the last pass ends the game; seat 0 keeps 1 tile (-1 at the end)
    if letter == "C":
        cells = [f"C{i + 1}={c}" for i, c in enumerate("PGOYBR")]
    else:
        cells = [f"{letter}{i}" for i in range(1, 7)]
    s = load(round=6, hands=["B"], passed=[False, True], boards=[board(*cells), {}], scores=[10, 5])
    s.apply_string("pass")
    assert s.is_terminal()
    assert s.scores() == [10 + STAR_BONUS[letter] - 1, 5]


@pytest.mark.parametrize("number,bonus", [(1, 4), (2, 8), (3, 12), (4, 16), (5, 0), (6, 0)])
def test_number_bonus(number, bonus):
    cells = [f"C{number}=Y"] + [f"{data.STAR_LETTERS[s]}{number}" for s in range(1, 7)]
    s = load(round=6, hands=["B"], passed=[False, True], boards=[board(*cells), {}], scores=[10, 5])
    s.apply_string("pass")
    assert s.scores()[0] == 10 + bonus - 1


def test_round_six_sequence_bonuses_before_leftovers():
    # score 2, 6 tiles: the pass keeps 4 and costs 2 -> floor 1; end: all 1s +4, then -4 for the
    # kept tiles -> 1. (Penalty before bonus would give 5.)
    cells = ["C1=Y"] + [f"{data.STAR_LETTERS[s]}1" for s in range(1, 7)]
    s = load(
        round=6, hands=["RRBBGG"], passed=[False, True], boards=[board(*cells), {}], scores=[2, 5]
    )
    s.apply_string("pass:RRBB")
    assert s.is_terminal()
    assert s.scores()[0] == 1


def test_round_six_sequence_without_the_floor():
    # score 20, 6 tiles: keep 4 (-2 -> 18); full red star +14, all 1s +4; kept -4 -> 32
    cells = ["C1=Y", "R2", "R3", "R4", "R5", "R6"] + [
        f"{data.STAR_LETTERS[s]}1" for s in range(1, 7)
    ]
    s = load(
        round=6, hands=["RRBBGG"], passed=[False, True], boards=[board(*cells), {}], scores=[20, 5]
    )
    s.apply_string("pass:RRBB")
    assert s.scores()[0] == 32
    assert sum(s.tower) == 2 + 4  # two discarded at the pass, four at the end


def test_final_breakdown_lists_each_bonus_and_adds_up():
    # the position above: 18 after the pass, red star +14, all 1s +4, 4 kept tiles -4
    cells = ["C1=Y", "R2", "R3", "R4", "R5", "R6"] + [
        f"{data.STAR_LETTERS[s]}1" for s in range(1, 7)
    ]
    s = load(
        round=6, hands=["RRBBGG"], passed=[False, True], boards=[board(*cells), {}], scores=[20, 5]
    )
    assert s.score_breakdown() is None
    s.apply_string("pass:RRBB")
    mine, theirs = s.score_breakdown()
    assert [(x["item"], x["detail"], x["points"]) for x in mine] == [
        ("play", "", 18),
        ("star", "red", 14),
        ("number", "1", 4),
        ("leftovers", "4", -4),
    ]
    assert theirs == [{"item": "play", "detail": "", "points": 5}]
    assert s.clone().score_breakdown() == s.score_breakdown()


def test_ties_are_shared():
    s = load(round=6, hands=["B"], passed=[False, True], scores=[9, 8])
    s.apply_string("pass")
    assert s.scores() == [8, 8]
    assert s.winners() == [0, 1]
    assert s.returns() == [0.0, 0.0]


def test_returns_for_three_players():
    s = load(players=3, round=6, hands=["B"], passed=[False, True, True], scores=[9, 8, 3])
    s.apply_string("pass")
    assert s.scores() == [8, 8, 3]
    assert s.returns() == [0.5, 0.5, -1.0]


def test_round_six_leftovers_at_the_pass_option():
    # round6_leftovers="at_pass" (BGA): the last pass discards all 6 tiles at once: 2 - 6 -> 1
    # (floor), then all 1s +4 -> 5 (the default order gives 1, see above)
    cells = ["C1=Y"] + [f"{data.STAR_LETTERS[s]}1" for s in range(1, 7)]
    s = load(
        round=6,
        hands=["RRBBGG"],
        passed=[False, True],
        boards=[board(*cells), {}],
        scores=[2, 5],
        round6_leftovers="at_pass",
    )
    assert [m for m in moves(s) if m.startswith("pass")] == ["pass"]
    with pytest.raises(azul.IllegalMoveError, match="every tile is discarded"):
        s.apply_string("pass:RRBB")
    s.apply_string("pass")
    assert s.scores()[0] == 5


def test_a_round_with_nothing_to_take_goes_to_phase_two():
    # 4 players, bag and tower empty when round 2 is prepared: no factory gets a tile, so
    # Phase 1 is skipped and the start player places first
    boards = [{} for _ in range(4)]
    per_color = {c: 22 for c in "PGOYBR"}
    supply, hands = "PPGGOOYYBR", ["RR", "B", "", ""]
    for ch in supply + "".join(hands):
        per_color[ch] -= 1
    for ch, n in per_color.items():
        star = data.STAR_LETTERS[data.STAR_COLOR.index(data.COLOR_LETTERS.index(ch))]
        cells = [f"{star}{i % 6 + 1}" for i in range(n)]
        for seat in range(4):
            boards[seat].update(board(*cells[seat * 6 : (seat + 1) * 6]))
    s = load(
        players=4,
        hands=["", "B", "", "RR"],
        passed=[True, False, True, False],
        to_move=3,
        boards=boards,
        bag="",
        supply=supply,
        kept=["", "", "", ""],
    )
    s.apply_string("pass")
    s.apply_string("pass")
    doc = s.to_json()
    assert doc["round"] == 2
    assert doc["decision"] == "place"
    assert all(f == {} for f in doc["factories"])
    # nobody took the token, so start player 0 begins; seat 0 holds nothing and passes at once,
    # seat 1 got its kept blue back
    assert s.current_player() == 1
    assert doc["players"][0]["passed"]


def last_passes(**kwargs):
    """Each pass of seat 0 in a round-6 position of 2 players where seat 1 still holds a tile
    (by its notation): the details and preview a client gets, and seat 0's final score once it
    is played and seat 1 passes too."""
    s = load(round=6, hands=[kwargs.pop("hand"), "B"], boards=[board(*PURPLE_STAR), {}], **kwargs)
    shown = s.game.presenter()
    out = {}
    for a in s.legal_actions():
        move = s.action_to_string(a)
        if move.startswith("pass"):
            after = s.clone()
            after.apply_action(a)
            after.apply_string("pass")
            assert after.is_terminal()
            out[move] = (shown.action_details(s, a), shown.action_preview(s, a), after.scores()[0])
    return s, out


PURPLE_STAR = [f"P{i}" for i in range(1, 7)]  # completed: +20 at the end (rules 7.1)


def test_in_round_six_keeping_nothing_stands_for_every_keep_that_scores_the_same():
    # score 20, hand GGGGOOOO: a pass keeping k tiles costs 8 - k now (20 -> 12 + k), the
    # purple star +20, then k for the kept tiles (rules 5.9, 7.3): 32 whatever is kept
    s, passes = last_passes(hand="GGGGOOOO", scores=[20, 5])
    none = s.string_to_action("pass:-")
    assert len(passes) == 15  # 0 to 4 of G and O, 4 at most
    assert {final for _, _, final in passes.values()} == {32}
    assert {preview["final"] for _, preview, _ in passes.values()} == {32}
    for move, (details, _, _) in passes.items():
        assert details.get("same_as") == (None if move == "pass:-" else none), move
    assert passes["pass:GGGG"][0] == {"keep": {"G": 4}, "same_as": none}
    assert passes["pass:GGGG"][1]["points"] == -4 and passes["pass:-"][1]["points"] == -8


def test_in_round_six_at_the_floor_every_keep_is_its_own_pass():
    # score 3, same hand and star: keeping none 3 - 8 -> 1 (floor), +20 -> 21; keeping k >= 1
    # costs 8 - k -> 1 (floor), +20, then -k: 21 - k. No keep scores as keeping none.
    _, passes = last_passes(hand="GGGGOOOO", scores=[3, 5])
    assert not any("same_as" in details for details, _, _ in passes.values())
    assert passes["pass:-"][1:] == ({"points": -2, "discarded": 8, "final": 21}, 21)
    assert passes["pass:GGGG"][1]["points"] == -2  # 3 - 4 stops at 1 too
    assert passes["pass:GGGG"][2] == 17 and passes["pass:GGGG"][1]["final"] == 17
    assert passes["pass:G"][2] == 20 and passes["pass:GO"][2] == 19


def test_in_round_six_without_the_floor_every_keep_scores_the_same():
    # score 3, no floor: 3 - (8 - k) + 20 - k = 15 for every k
    s, passes = last_passes(hand="GGGGOOOO", scores=[3, 5], score_floor=None)
    none = s.string_to_action("pass:-")
    assert {final for _, _, final in passes.values()} == {15}
    assert sum(details.get("same_as") == none for details, _, _ in passes.values()) == 14


def test_a_pass_that_is_the_only_one_stands_for_itself():
    # round 6, 2 tiles: the one pass keeps both; 10 + 20 - 2 = 28 at the end
    _, passes = last_passes(hand="GG", scores=[10, 5])
    assert passes == {"pass": ({"keep": {"G": 2}}, {"points": 0, "discarded": 0, "final": 28}, 28)}
    # option round6_leftovers="at_pass": the one pass discards all 8 at once, 20 - 8 + 20 = 32
    _, passes = last_passes(hand="GGGGOOOO", scores=[20, 5], round6_leftovers="at_pass")
    assert passes == {"pass": ({"keep": {}}, {"points": -8, "discarded": 8, "final": 32}, 32)}


def test_before_round_six_a_kept_tile_is_not_a_discarded_one():
    s = load(round=5, hands=["GGGGOOOO"], scores=[20, 5])
    shown = s.game.presenter()
    for a in s.legal_actions():
        if s.action_to_string(a).startswith("pass"):
            assert "same_as" not in shown.action_details(s, a)
            assert "final" not in shown.action_preview(s, a)
