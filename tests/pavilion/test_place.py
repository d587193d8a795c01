"""Phase 2: paying, placing, scoring and bonus tiles (rules 5), numbers worked out by hand."""

import pytest

import azul
from azul.pavilion import data
from tests.pavilion.helpers import board, counts, load, moves


def hand_of(state, seat=0):
    return state.to_json()["players"][seat]["hand"]


def test_example_a_first_tile_scores_one():
    s = load(hands=["RRR"])
    s.apply_string("R@R3")  # costs 3 red: one placed, two to the tower
    assert s.scores()[0] == 6
    assert hand_of(s) == {}
    assert s.to_json()["tower"] == counts("RR")


def test_example_b_lone_tile_scores_one():
    s = load(hands=["RRRR"], boards=[board("R1", "R5"), {}])
    s.apply_string("R@R3")
    assert s.scores()[0] == 6


def test_example_c_blue_six_with_two_connected_scores_three():
    # blue 5 and blue 1 both touch blue 6 (the ring wraps); cost 6 = 4 blue + 2 wild purple
    s = load(hands=["BBBBPP"], boards=[board("B5", "B1"), {}])
    s.apply_string("B@B6+2")
    assert s.scores()[0] == 8
    assert hand_of(s) == {}
    assert s.to_json()["tower"] == counts("BBBPP")


def test_example_d_centre_run_of_three():
    s = load(hands=["GGG"], boards=[board("C2=Y", "C4=R"), {}])
    s.apply_string("G@C3")
    assert s.scores()[0] == 8


def test_example_e_two_purple_on_purple_two_in_round_one():
    s = load(hands=["PP"], boards=[board("P1", "P3"), {}])
    assert "P@P2" in moves(s)
    s.apply_string("P@P2")
    assert s.scores()[0] == 8
    assert hand_of(s) == {}


def test_wild_colour_pays_only_for_itself():
    # rules 5.4: in round 1 purple tiles go on the purple star or the centre star, paid in purple
    s = load(hands=["PPP"])
    assert moves(s) == ["P@C1", "P@C2", "P@C3", "P@P1", "P@P2", "P@P3", "pass"]
    with pytest.raises(azul.IllegalMoveError, match="no '\\+wilds'"):
        s.apply_string("P@P2+1")


def test_example_f_kept_green_becomes_wild_in_round_two():
    s = load(hands=["GGR", ""], passed=[False, True], supply="PPGGOOYBBR")
    s.apply_string("pass")  # 3 tiles: all kept
    assert s.to_json()["round"] == 2
    assert hand_of(s) == counts("GGR")
    s2 = load(round=2, hands=["GGR", "B"])
    assert "R@R3+2" in moves(s2)  # 1 red + 2 green (wild in round 2)
    s2.apply_string("R@R3+2")
    assert hand_of(s2) == {}


def test_wild_count_is_a_choice():
    # round 1, hand 3 red + 2 purple: red 3 can be paid 3R, 2R+1P or 1R+2P
    s = load(hands=["RRRPP"])
    assert [m for m in moves(s) if m.startswith("R@R3")] == ["R@R3", "R@R3+1", "R@R3+2"]
    s.apply_string("R@R3+1")
    assert hand_of(s) == counts("RP")


def test_needs_enough_tiles():
    s = load(hands=["RR"])
    before = s.to_json()
    with pytest.raises(azul.IllegalMoveError, match="costs 3: hand has 2 red and 0 wild"):
        s.apply_string("R@R3")
    with pytest.raises(azul.IllegalMoveError, match="wilds pay at most 1 of it"):
        s.apply_string("R@R2+2")
    assert s.to_json() == before


def test_filled_space_and_wrong_colour_are_refused():
    s = load(hands=["RRRGGG"], boards=[board("R3", "C1=G"), {}])
    with pytest.raises(azul.IllegalMoveError, match="space red 3 is already filled"):
        s.apply_string("R@R3")
    with pytest.raises(azul.IllegalMoveError, match="takes only red tiles, not green"):
        s.apply_string("G@R2")
    with pytest.raises(azul.IllegalMoveError, match="centre star already has a green tile"):
        s.apply_string("G@C2")


def test_place_counts_perft():
    # round 1, hand 2 red + 1 purple (wild), empty board. Red on the red star and on the
    # centre star: cost 1 -> 0 wild; cost 2 -> 0 or 1 wild; cost 3 -> 1 wild; 4+ impossible:
    # 4 each. Purple alone: only cost-1 spaces of the purple and the centre star: 2. Pass: 1.
    s = load(hands=["RRP"])
    ms = moves(s)
    assert len(ms) == 11
    assert [m for m in ms if m.startswith("R@C")] == ["R@C1", "R@C2", "R@C2+1", "R@C3+1"]
    assert [m for m in ms if m.startswith("P@")] == ["P@C1", "P@P1"]


def test_full_star_counts_all_six():
    s = load(hands=["Y" * 4], boards=[board("Y1", "Y2", "Y3", "Y5", "Y6"), {}])
    s.apply_string("Y@Y4")
    assert s.scores()[0] == 11


# -- bonus tiles (rules 5.6) ------------------------------------------------------------------
STRUCTURES = [(k, s, sps, r) for k, s, sps, r in data.STRUCTURES]


def _code(sp):
    return f"{data.STAR_LETTERS[sp // 6]}{sp % 6 + 1}"


@pytest.mark.parametrize(
    "kind,star,spaces,reward", STRUCTURES, ids=[f"{k}-{data.STARS[s]}" for k, s, _, _ in STRUCTURES]
)
def test_each_structure_pays_its_bonus(kind, star, spaces, reward):
    # fill every space of the structure but its first outer-star one, then place that one
    last = spaces[0]
    filled = []
    centre_colors = iter("PGOYBR")
    for sp in spaces[1:]:
        if sp < 6:
            filled.append(f"{_code(sp)}={next(centre_colors)}")
        else:
            filled.append(_code(sp))
    color = data.COLOR_LETTERS[data.STAR_COLOR[last // 6]]
    cost = last % 6 + 1
    wild = "P" if color != "P" else ""
    s = load(round=1, hands=[color * cost + wild, "B"], boards=[board(*filled), {}])
    s.apply_string(f"{color}@{_code(last)}")
    assert s.decision() == "bonus"
    assert s.owed == reward
    assert s.current_player() == 0
    for _ in range(reward):
        s.apply_string("S:B" if s.supply[data.BLUE] else s.action_to_string(s.legal_actions()[0]))
    assert s.decision() == "place"
    assert s.current_player() == 1
    assert sum(s.supply) == 10  # refilled from the bag after the turn (rules 5.7)


def test_statue_and_pillar_at_once_pay_three():
    # red 2 belongs to the red-blue statue (R1 R2 B3 B4) and the red pillar (R2 R3 C1 C2)
    s = load(hands=["RR", "B"], boards=[board("R1", "B3", "B4", "R3", "C1=Y", "C2=G"), {}])
    s.apply_string("R@R2")
    assert s.scores()[0] == 5 + 3  # R1 R2 R3 in a row
    assert s.owed == 3


def test_centre_space_completes_two_pillars():
    # C1 is in the orange pillar (O2 O3 C6 C1) and the red pillar (R2 R3 C1 C2)
    s = load(hands=["B", "B"], boards=[board("O2", "O3", "C6=Y", "R2", "R3", "C2=G"), {}])
    s.apply_string("B@C1")
    assert s.scores()[0] == 5 + 3  # C6 C1 C2
    assert s.owed == 2


def test_bonus_tiles_are_chosen_from_the_supply():
    s = load(hands=["OOOOOO", "B"], boards=[board("O5"), {}], supply="PPGGOOYBBR")
    s.apply_string("O@O6+0")
    assert s.owed == 3
    assert moves(s) == ["S:P", "S:G", "S:O", "S:Y", "S:B", "S:R"]
    with pytest.raises(azul.IllegalMoveError, match=r"bonus tiles from the supply \(3 to take\)"):
        s.apply_string("pass")
    s.apply_string("S:R")
    with pytest.raises(azul.IllegalMoveError, match="the supply has no red tile"):
        s.apply_string("S:R")
    s.apply_string("S:P")
    s.apply_string("S:P")
    assert hand_of(s) == counts("PPR")


def test_short_supply_gives_what_is_there():
    # bag and tower empty; a statue owes 2 but the supply holds 1 (project decision 5.7)
    filled = ["P2", "O3", "O4"]
    doc_kwargs = dict(hands=["P", "B"], boards=[board(*filled), {}], supply="G", tower="")
    from tests.pavilion.helpers import position

    doc = position(**doc_kwargs)
    # every other tile sits on player 1's board and in player 0's hand: bag empty
    left = doc["bag"]
    doc["bag"] = {}
    doc["players"][0]["hand"] = {k: v for k, v in left.items() if v}
    doc["players"][0]["hand"]["purple"] += 1
    doc["players"][1]["hand"]["blue"] = 1
    s = azul.load_state(doc)
    s.apply_string("P@P1")
    assert s.owed == 1
    s.apply_string("S:G")
    assert s.decision() == "place"
    assert sum(s.supply) == 0  # nothing to refill from


def test_supply_refill_tips_the_tower_when_the_bag_is_empty():
    from tests.pavilion.helpers import position

    doc = position(hands=["OOOOOO", "B"], boards=[board("O5"), {}])
    rest = doc["bag"]
    doc["bag"] = {}
    doc["tower"] = rest
    s = azul.load_state(doc)
    tower = sum(rest.values())
    s.apply_string("O@O6")  # pays 6 orange: 5 to the tower
    for move in ("S:P", "S:G", "S:O"):
        s.apply_string(move)
    assert sum(s.supply) == 10
    assert sum(s.tower) == 0
    assert sum(s.bag) == tower + 5 - 3
