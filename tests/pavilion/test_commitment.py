"""The evaluation commits to a star: preferences worked out from the rules, not read off the
evaluation."""

from azul.pavilion import commitment, data
from tests.pavilion.helpers import board, load

# purple star half built (rules "Board geometry": P1-P3), the red star empty
HALF_PURPLE = board("P1", "P2", "P3")


def draft(**kwargs):
    # round 2, green wild (rules 3.2): factory 1 holds 2 purple, factory 2 holds 2 red, each
    # with 2 yellow that go to the centre (rules 4.2); no wild, so either take brings 2 tiles
    kwargs.setdefault("boards", [HALF_PURPLE])
    kwargs.setdefault("hands", ["", ""])
    return load(round=2, decision="take", factories=["PPYY", "RRYY"], **kwargs)


def test_the_targets_start_from_the_stars_with_most_progress():
    assert commitment.targets(draft(), 0)[0] == 1  # the purple star


def test_tiles_that_fit_the_target_count_toward_it():
    # only purple tiles can go on the purple star (rules 5.3), which the player is building
    state = draft()
    colors = state.colors[: data.NUM_STARS]
    purple, red = data.COLOR_LETTERS.index("P"), data.COLOR_LETTERS.index("R")
    stocks = {c: [2 if i == c else 0 for i in range(data.NUM_COLORS)] for c in (purple, red)}
    values = {c: commitment.commitment(state, state.filled[0], colors, stocks[c]) for c in stocks}
    assert values[purple] > values[red]


def test_the_heuristic_bot_weighs_what_a_take_leaves_the_opponent():
    # the same two takes as above; the opponent holds 4 tiles toward a star of purple or of red
    # (their star half built, rules 5.2, 7.1). Taking purple leaves a purple builder 2 purple
    # tiles fewer to draft (rules 4.2), so the heuristic bot likes it better against them
    evaluate = draft().game.strategy().evaluate

    def preference(star: str, colour: str) -> float:
        state = draft(
            boards=[HALF_PURPLE, board(f"{star}1", f"{star}2", f"{star}3")], hands=["", colour * 4]
        )
        values = {}
        for move in ("F1:P", "F2:R"):
            child = state.clone()
            child.apply_string(move)
            values[move] = evaluate(child, 0)
        return values["F1:P"] - values["F2:R"]

    assert preference("P", "P") > preference("R", "R")
