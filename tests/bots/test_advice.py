"""Hints for people: each with the points it gives up against the best, what it earns now and
what it sets up."""

import azul
from azul.bots import hints
from tests.pavilion.helpers import board, load
from tests.pavilion.test_endgame import ALL_BUT_YELLOW_4, SETS_1_TO_3


def test_round_6_hints_give_up_the_solvers_exact_points():
    # five yellow, no supply: Y4 scores a run of 4 (rules 5.5), completes the 4s (+16, rules
    # 7.2) and leaves one yellow (-1, 7.3); C5 scores a run of 5 and leaves none: 14 fewer
    # points at the end; passing keeps four, discards one at once (-1, rules 5.8) and loses
    # the four kept at the end (-4, 7.3): 24 fewer
    state = load(round=6, hands=["YYYYY", "P"], boards=[ALL_BUT_YELLOW_4], supply="")
    found = {h.move: h for h in hints(state, count=len(state.legal_actions()))}
    best = hints(state)[0]
    assert best.move == "Y@Y4" and best.behind == 0 and best.exact
    assert best.earns == 4
    assert found["Y@C5"].behind == (4 + SETS_1_TO_3 + 16 - 1) - (5 + SETS_1_TO_3) == 14
    assert found["Y@C5"].earns == 5
    assert found["pass:YYYY"].behind == 24 and found["pass:YYYY"].earns == -1


def test_search_hints_say_what_each_move_earns_and_sets_up():
    # seat 0 holds three red and places them: R1 scores 1 (a lone tile, rules 5.5)
    state = load(hands=["RRR", "P"], boards=[board("R2")], supply="")
    shown = hints(state, seed=1)
    assert len(shown) == 3 and shown[0].behind == 0 and not shown[0].exact
    for h in shown:
        after = state.clone()
        after.apply_action(h.action)
        assert h.earns == after.scores()[0] - state.scores()[0]
        assert h.behind >= 0 and h.move == state.action_to_string(h.action)
    placed = {h.move: h for h in hints(state, seed=1, count=len(state.legal_actions()))}
    assert placed["R@R1"].earns == 2  # next to R2: a run of 2
    sintra = azul.load_game("sintra").new_initial_state(3)
    drafted = hints(sintra, seed=2)
    assert {h.earns for h in drafted} <= {0, 1, 2, 3, 4} and drafted[0].behind == 0
