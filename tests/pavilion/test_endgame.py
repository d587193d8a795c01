"""The round-6 solver of Summer Pavilion: values worked out from the rules sections cited, and
checked to be reachable in play."""

import random
import time

import pytest

import azul
import azul.bots  # the bots module is not imported by `import azul`
from azul.pavilion import data
from azul.pavilion import endgame as solver
from azul.pavilion.state import ACQUIRE
from tests.pavilion.helpers import board, load


def endgame_values(state, deadline=None):
    """The solver as bots reach it: through the game's strategy."""
    return state.game.strategy().endgame_values(state, deadline)


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


def test_keeping_nothing_pays_at_the_score_floor():
    # score 3, hand GGGG OOOO, the purple, green, orange and centre stars complete: no space can
    # take green or orange (rules 5.3), so only passes are left. Bonuses 20 + 18 + 17 + 12 = 67
    # (rules 7.1). Keeping none: 3 - 8 stops at 1 (score floor), + 67 = 68, a gain of 65. Keeping
    # four: 3 - 4 -> 1, + 67, - 4 for the kept tiles after the bonuses (7.3) = 64, a gain of 61.
    cells = board(
        *(f"{s}{i}" for s in "PGO" for i in range(1, 7)),
        *(f"C{i}={c}" for i, c in enumerate("PGOYBR", 1)),
    )
    found = values("GGGGOOOO", cells, supply="", scores=[3, 5])
    assert set(found) == {a for a in found if a.startswith("pass:")}
    assert found["pass:-"] == 65
    assert found["pass:GGGG"] == found["pass:GGOO"] == 61
    assert found["pass:G"] == 64  # 3 - 7 -> 1, + 67, - 1
    assert max(found, key=found.get) == "pass:-"
    # far from the floor every tile costs one point however it leaves
    high = values("GGGGOOOO", cells, supply="", scores=[30, 5])
    assert set(high.values()) == {67 - 8}


def test_only_round_6_play_is_solved():
    assert endgame_values(load(round=5, hands=["YYYY", "P"])) is None
    drafting = load(round=6, decision="take", factories=["YYBB"], hands=["", ""])
    assert drafting.kind == ACQUIRE
    assert endgame_values(drafting) is None


def test_a_passed_deadline_gives_no_answer():
    solver._MEMO.clear()
    state = load(round=6, hands=["YYYYYBBBBRRR", "P"], boards=[ALL_BUT_YELLOW_4])
    assert endgame_values(state, time.time() - 1) is None


def random_round_6(seed: int, side: str) -> azul.State:
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
        board_side=side,
        round=6,
        hands=[hand, ""],
        boards=[board(*cells)],
        supply=supply,
        passed=[False, True],
    )


@pytest.mark.parametrize("side", ["coloured", "grey"])
@pytest.mark.parametrize("seed", range(8))
def test_the_solver_reaches_at_least_its_value(seed, side):
    # with the other seat passed, the solver's own line is all that happens; refills only add
    # supply tiles, so the points it promises are reached or beaten
    state = random_round_6(seed, side)
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


def best_run_points(before: int, after: int) -> int:
    """The most placement points (rules 5.5) for covering ``after`` from ``before`` on one ring,
    over every order of placing."""
    if before == after:
        return 0
    best = -1
    for i in range(6):
        if after >> i & 1 and not before >> i & 1:
            ring = before | 1 << i
            run = 1
            for step in (1, -1):  # walk both ways round the ring from the new tile
                j = (i + step) % 6
                while ring >> j & 1 and run < 6 and j != i:
                    run += 1
                    j = (j + step) % 6
            best = max(best, min(run, 6) + best_run_points(ring, after))
    return best


def order_free_best(hand: list[int], filled: int, centre_colors: int) -> int:
    """The same question counted another way, for the coloured side without bonus tiles: choose
    the spaces to cover on each star (any order scores its best), pay each outer star from its
    colour and the wild pool (rules 5.2-5.4), and add the end bonuses (7.1-7.3)."""
    wild = data.WILD_BY_ROUND[6]
    total = sum(hand)
    best = -(10**9)

    def outer(hand: list[int], centre_ring: int, value: int) -> int:
        states = {(0, centre_ring & 15): value}  # (wilds used, numbers 1-4 covered so far)
        for star in range(1, 7):
            c = data.STAR_COLOR[star]
            ring = (filled >> star * 6) & 63
            options = []
            for extra in range(64):
                if extra & ring:
                    continue
                need = sum(i + 1 for i in range(6) if extra >> i & 1)
                if c == wild:
                    used = need
                elif bin(extra).count("1") > hand[c]:
                    continue
                else:
                    used = max(0, need - hand[c])
                done = ring | extra
                points = best_run_points(ring, done) + need  # each tile paid is not left over
                if done == 63:
                    points += data.STAR_BONUS_BY_COLOR[c]
                options.append((used, done & 15, points))
            reached: dict[tuple[int, int], int] = {}
            for (u, numbers), v in states.items():
                for used, covered, points in options:
                    key = (u + used, numbers & covered)
                    if key[0] <= hand[wild] and reached.get(key, -(10**9)) < v + points:
                        reached[key] = v + points
            states = reached
        return max(
            v + sum(data.NUMBER_BONUS[n + 1] for n in range(4) if numbers >> n & 1)
            for (_u, numbers), v in states.items()
        )

    def centre(hand: list[int], ring: int, present: int, value: int) -> None:
        nonlocal best
        bonus = data.MULTICOLORED_STAR_BONUS if ring == 63 else 0
        best = max(best, outer(hand, ring, value + bonus))
        for i in range(6):
            if ring >> i & 1:
                continue
            n = i + 1
            for c in range(6):
                if present >> c & 1 or not hand[c]:
                    continue
                splits = [(n, 0)] if c == wild else [(x, n - x) for x in range(1, n + 1)]
                for own, wilds in splits:
                    if own <= hand[c] and (c == wild or wilds <= hand[wild]):
                        rest = list(hand)
                        rest[c] -= own
                        rest[wild] -= wilds
                        after = ring | 1 << i
                        gain = best_run_points(ring, after) + n
                        centre(rest, after, present | 1 << c, value + gain)

    centre(list(hand), filled & 63, centre_colors, 0)
    return best - total


@pytest.mark.parametrize("seed", range(10))
def test_the_solver_finds_the_best_line(seed):
    # with no supply there are no bonus tiles, and the best is what the count above finds
    state = random_round_6(seed, "coloured")
    state.supply = [0] * data.NUM_COLORS
    hand = state.hands[: data.NUM_COLORS]
    expected = order_free_best(hand, state.filled[0], state.colors[0])
    assert max(endgame_values(state).values()) == expected
