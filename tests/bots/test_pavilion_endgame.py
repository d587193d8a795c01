"""The round-6 solver of Summer Pavilion: values worked out from the rules sections cited, and
checked to be reachable in play."""

import random
import time

import pytest

import azul
from azul.bots.endgame import endgame_values
from azul.bots.endgame import pavilion as solver
from azul.pavilion import data
from azul.pavilion.state import ACQUIRE
from tests.pavilion.helpers import board, load

# every star covered on 1-4 except yellow (1-3); the centre holds purple, green, orange, blue
ALL_BUT_YELLOW_4 = board(
    *(f"{s}{i}" for s in "PORBG" for i in (1, 2, 3, 4)),
    "Y1",
    "Y2",
    "Y3",
    "C1=P",
    "C2=G",
    "C3=O",
    "C4=B",
)
SETS_1_TO_3 = 4 + 8 + 12  # rules 7.2: already complete on that board


def values(hand: str, cells: dict, **kwargs) -> dict[str, float]:
    state = load(round=6, hands=[hand, "P"], boards=[cells], **kwargs)
    found = endgame_values(state)
    return {state.action_to_string(a): v for a, v in found.items()}


def test_the_last_4_completes_the_set_rather_than_a_bigger_placement():
    # five yellow, no supply (so no bonus tiles, rules 5.6). Y4 costs 4 and scores a run of 4
    # (rules 5.5), completes the 4s (+16, 7.2) and leaves one yellow (-1, 7.3); C5 takes all five
    # for a run of 5; passing leaves five (-5).
    found = values("YYYYY", ALL_BUT_YELLOW_4, supply="")
    assert found["Y@Y4"] == 4 + SETS_1_TO_3 + 16 - 1
    assert found["Y@C5"] == 5 + SETS_1_TO_3
    assert found["pass:YYYY"] == SETS_1_TO_3 - 5
    assert max(found, key=found.get) == "Y@Y4"


def test_bonus_tiles_are_taken_and_spent():
    # O6 fills the orange star: a run of 6 (rules 5.5), 17 at the end (7.1), and the window over
    # O5-O6 pays 3 tiles from the supply (5.6): three reds, wild in round 6, that pay only for
    # red (5.4): R1 (run 1) then R2 (run 2), nothing left over.
    cells = board("O1", "O2", "O3", "O4", "O5")
    found = values("OOOOOO", cells, supply="RRR")
    assert found["O@O6"] == 6 + 17 + 1 + 2
    assert max(found, key=found.get) == "O@O6"


def test_only_round_6_play_is_solved():
    assert endgame_values(load(round=5, hands=["YYYY", "P"])) is None
    drafting = load(round=6, decision="take", factories=["YYBB"], hands=["", ""])
    assert drafting.kind == ACQUIRE
    assert endgame_values(drafting) is None


def test_a_passed_deadline_gives_no_answer():
    solver._MEMO.clear()
    state = load(round=6, hands=["YYYYYBBBBRRR", "P"], boards=[ALL_BUT_YELLOW_4])
    assert endgame_values(state, time.time() - 1) is None


def random_round_6(seed: int) -> azul.State:
    """A random round-6 placement for seat 0 with the other seat passed: some spaces covered, a
    hand of 6-9 tiles and a random supply."""
    rng = random.Random(seed)
    letters = data.COLOR_LETTERS
    cells = []
    for star in "PORBYG":
        cells += [f"{star}{i}" for i in range(1, 7) if rng.random() < 0.55]
    centre = rng.sample(letters, 6)
    cells += [f"C{i}={centre[i - 1]}" for i in range(1, 7) if rng.random() < 0.55]
    hand = "".join(rng.choice(letters) for _ in range(rng.randint(6, 9)))
    supply = "".join(rng.choice(letters) for _ in range(10))
    return load(
        round=6, hands=[hand, ""], boards=[board(*cells)], supply=supply, passed=[False, True]
    )


@pytest.mark.parametrize("seed", range(8))
def test_the_solver_reaches_at_least_its_value(seed):
    # with the other seat passed, the solver's own line is all that happens; refills only add
    # supply tiles, so the points it promises are reached or beaten
    state = random_round_6(seed)
    start = state.scores()[0]
    promised = max(endgame_values(state).values())
    while not state.is_terminal():
        found = endgame_values(state)
        state.apply_action(max(found, key=found.get))
    assert state.scores()[0] - start >= promised


def test_mcts_plays_the_solvers_best_move():
    state = load(round=6, hands=["YYYYY", "P"], boards=[ALL_BUT_YELLOW_4], supply="")
    bot = azul.bots.make("mcts", iterations=50, seed=3)
    assert state.action_to_string(bot.choose(state)) == "Y@Y4"
    searched = azul.bots.make("mcts", iterations=50, seed=3, endgame=False)
    assert searched.choose(state) in state.legal_actions()
