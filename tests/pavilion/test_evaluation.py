"""The Summer Pavilion evaluation spends the hand by the rules: expected values worked out
from the rules sections cited, not read off the evaluation."""

import random

import pytest

import azul
from azul.pavilion import evaluation as ev
from azul.pavilion import strategy
from tests.pavilion.helpers import board, load

FULL_RED = board("R1", "R2", "R3", "R4", "R5", "R6", "C1=R")  # red fits nowhere more (rules 5.3)
ORANGE_FIVE = board("O1", "O2", "O3", "O4", "O5")


def value(hand: str, round: int, cells: dict, **kwargs) -> float:
    state = load(round=round, hands=[hand, "Y"], boards=[cells], to_move=1, **kwargs)
    return ev.evaluate(state, 0)


def test_round_6_leftovers_cost_a_point_each():
    # rules 5.9: after the last round every tile left costs 1; red cannot be placed here
    assert value("RRR", 6, FULL_RED) == pytest.approx(value("", 6, FULL_RED) - 3)


def test_wild_tiles_alone_are_kept_or_discarded():
    # round 1: purple is wild and pays only for purple (rules 5.4); the purple star is full and
    # the centre has purple, so 6 purple are kept (4, rules 5.8) or discarded at a point each
    cells = board("P1", "P2", "P3", "P4", "P5", "P6", "C1=P")
    keep = ev.WEIGHTS["keep"]
    assert value("PPPPPP", 1, cells) == pytest.approx(value("", 1, cells) + 4 * keep - 2)


def test_a_hand_that_completes_a_star_counts_the_placement_and_the_bonus():
    # O6 costs 6 (rules 5.2); with the star then full it scores 6 (5.5) and 17 at the end (7.1).
    # Without the hand the board counts at most the 17 in part.
    gain = value("OOOOOO", 2, ORANGE_FIVE) - value("", 2, ORANGE_FIVE)
    assert gain >= 6 + 17 - 17 * (5 / 6) ** 2
    # with one orange and five wild greens (round 2) the same, paid at most 5 wilds (5.2)
    assert value("OGGGGG", 2, ORANGE_FIVE) - value("", 2, ORANGE_FIVE) == pytest.approx(gain)


def test_six_wilds_without_the_colour_place_nothing():
    # at least one tile of the placed colour is needed (rules 5.2): six greens in round 2 cannot
    # pay for O6; greens fit only on the green star or the centre, both full of green here
    cells = {**ORANGE_FIVE, **board("G1", "G2", "G3", "G4", "G5", "G6", "C1=G")}
    keep = ev.WEIGHTS["keep"]
    assert value("GGGGGG", 2, cells) == pytest.approx(value("", 2, cells) + 4 * keep - 2)


@pytest.mark.parametrize("side", ["coloured", "grey"])
def test_the_memo_never_answers_for_another_position(side):
    # the memo's key must hold everything the value depends on: along random games, with the
    # memo filling up, every answer equals the one computed afresh
    game = azul.load_game("pavilion", board=side)
    states = []
    for seed in range(3):
        state, rng = game.new_initial_state(seed), random.Random(seed)
        while not state.is_terminal():
            if not state.is_chance_node():
                states.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    remembered = [ev.evaluate(s, p) for s in states for p in range(2)]
    fresh = []
    for s in states:
        for p in range(2):
            ev._SEEN.clear()
            fresh.append(ev.evaluate(s, p))
    assert remembered == fresh


def plan(cells: dict, hand: str = "PP", rival: str = "") -> float:
    # round 5, blue wild, play phase: round 6 (red wild) is still to come (rules 3.2)
    state = load(round=5, hands=[hand, rival or "Y"], boards=[cells], to_move=1)
    stock = [state.hands[c] + state.kept[c] for c in range(6)]
    return ev.star_plan(state, 0, state.filled[0], ev._colors(state, 0), stock)


ONE_FROM_PURPLE = board("P1", "P2", "P3", "P4", "P5")  # P6 missing: 20 points (rules 7.1)
SPREAD = board("P1", "P2", "P3", "P4", "G1")  # as many tiles, no star one from its bonus


def test_the_star_plan_rewards_a_star_one_tile_from_its_bonus():
    assert plan(ONE_FROM_PURPLE) > plan(SPREAD)
    # and so do the evaluation and the heuristic bot's
    for f in (ev.evaluate, strategy.against_rivals):
        one = load(round=5, hands=["PP", "Y"], boards=[ONE_FROM_PURPLE], to_move=1)
        spread = load(round=5, hands=["PP", "Y"], boards=[SPREAD], to_move=1)
        assert f(one, 0) > f(spread, 0)


def test_the_star_plan_counts_an_opponent_collecting_the_colour():
    # P6 costs 6 (rules 5.2): the 2 purple in hand need 4 more from round 6's drafting, where an
    # opponent holding purple tiles competes for them
    assert plan(ONE_FROM_PURPLE, rival="PPPPPPPP") < plan(ONE_FROM_PURPLE, rival="Y")
