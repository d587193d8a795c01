"""The big-pile bot on positions whose right move follows from the rules by hand: in Summer
Pavilion (rules 4.2, 4.4, 5.2, 5.5, 5.6, 5.8) the biggest pile, points and structures, and a
pass only when no placement is affordable; in Sintra the most pieces placed, a completed strip
first. A game without the style is refused (tests/test_third_game.py)."""

import pytest

import azul
from azul.bots import make
from azul.pavilion import bigpile
from tests.pavilion.helpers import board, load, moves
from tests.sintra import helpers as sintra


def choice(state: azul.State, seed: int = 1) -> str:
    return state.action_to_string(make("bigpile", seed=seed).choose(state))


@pytest.mark.parametrize("seed", range(5))
def test_it_takes_the_biggest_pile_counting_the_wild_that_comes_along(seed):
    # Round 1, purple wild: red from factory 1 is 3 red + 1 purple = 4 tiles (rules 4.2); blue
    # from factory 2 is 3, yellow or orange from factory 3 is 2. Without the wild it would tie.
    s = load(decision="take", factories=["RRRP", "BBBG", "YYOO"], hands=["", ""])
    assert choice(s, seed) == "F1:R"


@pytest.mark.parametrize("seed", range(5))
def test_the_biggest_pile_is_taken_even_at_the_start_players_price(seed):
    # 5 green in the centre, the token still there: taking them costs 5 points (rules 4.4), but
    # no factory offers more than 3.
    s = load(decision="take", factories=["RRBB", "OOOY"], centre="GGGGG", scores=[20, 20])
    assert choice(s, seed) == "C:G"


def test_of_equal_piles_the_one_without_the_start_players_price():
    s = load(decision="take", factories=["RRRB"], centre="GGG", scores=[20, 20])
    assert choice(s) == "F1:R"


def test_a_placement_completing_a_window_beats_one_scoring_more():
    # Red 2, 3 and 5 covered, 6 red in hand. Red 4 joins 2-3-4-5: 4 points. Red 6 joins only
    # red 5 (red 1 is empty): 2 points, but it completes red's window: 3 bonus tiles (5.6).
    s = load(hands=["RRRRRR"], boards=[board("R2", "R3", "R5"), {}])
    assert {"R@R4", "R@R6"} <= set(moves(s))
    assert choice(s) == "R@R6"


def test_with_no_structure_in_reach_the_most_connected_points():
    # Red 1 and 2 covered, 4 red in hand: red 3 scores 3 (run 1-2-3), red 4 scores 1, and the
    # centre star's spaces 1 to 4 score 1 each; none completes a structure.
    s = load(hands=["RRRR"], boards=[board("R1", "R2"), {}])
    assert choice(s) == "R@R3"


def test_the_bonus_tiles_go_to_the_wild_colour_first():
    # Round 2 (green wild): red 5 and 6 covered the window, 3 tiles are owed; the supply holds
    # green, so each pick takes a green while there is one.
    s = load(
        round=2,
        decision="bonus",
        bonus_owed=3,
        supply="PPGGOOYBBR",
        hands=["RR"],
        boards=[board("R5", "R6"), {}],
    )
    assert choice(s) == "S:G"


def test_it_places_rather_than_pass_even_when_passing_would_keep_every_tile():
    # 4 tiles may all be kept at no cost (rules 5.8), yet a placement is affordable.
    s = load(hands=["YYYY"], boards=[board("Y1", "Y2", "Y3", "Y5", "Y6", "C1=Y", "C2=R"), {}])
    assert "pass" in moves(s)
    assert choice(s) == "Y@Y4"


def test_with_no_affordable_placement_it_passes_keeping_four():
    # Round 1: purple is wild and goes only on the purple star or the centre star (rules 5.4);
    # both are closed to it, so a pass keeping 4 of the 6 purple (2 points lost) is best.
    s = load(hands=["PPPPPP"], boards=[board("P1", "P2", "P3", "P4", "P5", "P6", "C1=P"), {}])
    assert all(m.startswith("pass") for m in moves(s))
    assert choice(s) == "pass:PPPP"


def test_the_tiles_taken_count_the_hand_the_corners_and_the_paid_spaces():
    # Seat 0: 2 in hand, red 3 (cost 3) and centre 6 (cost 6) covered: 11 tiles. Seat 1 has
    # passed keeping 1 green, with red 3 covered: 4.
    s = load(
        hands=["RB", ""],
        kept=["", "G"],
        passed=[False, True],
        boards=[board("R3", "C6=Y"), board("R3")],
    )
    assert bigpile.tiles_taken(s, 0) == 11
    assert bigpile.tiles_taken(s, 1) == 4


@pytest.mark.parametrize("seed", range(5))
def test_in_sintra_it_takes_the_most_pieces_it_can_place(seed):
    # Glazier above strip 1, every strip empty (side a, tests/sintra/helpers.py): 2 yellow fit
    # strip 2, 7 or 8 (two yellow spaces each, rules 3.2); blue, white, orange and pink 1 each.
    s = sintra.load(factories=["YYBW", "OP"])
    move = choice(s, seed)
    assert move in {"F1:Y>2", "F1:Y>7", "F1:Y>8"}


@pytest.mark.parametrize("seed", range(5))
def test_in_sintra_of_equal_takes_the_one_completing_a_strip(seed):
    # Strip 2 (YYBBP) lacks only its pink: the pink piece completes it there (rules 3.3); on
    # strip 1, 3, 5 or 6 it would be one piece more and nothing else, as would the white.
    s = sintra.load(
        players=[sintra.player({2: sintra.strip(2, "a", "YYBB.")}), sintra.player()],
        factories=["PW"],
    )
    assert choice(s, seed) == "F1:P>2"


def test_it_plays_a_whole_summer_pavilion_game_of_three():
    bot = make("bigpile", seed=2)
    state = azul.load_game("pavilion", players=3).new_initial_state(5)
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    assert state.score_breakdown() is not None
