"""Position documents: round trip, and every malformed or impossible one refused by name."""

import copy
import json

import pytest

import azul
from tests.pavilion.helpers import board, position


def doc():
    return position(hands=["RRB", "G"], boards=[board("R1", "C2=Y"), {}])


def test_round_trip_of_a_built_position():
    d = doc()
    s = azul.load_state(d)
    assert azul.load_state(s.to_json()).to_json() == s.to_json()
    assert s.to_json()["players"][0]["board"] == {"R1": "red", "C2": "yellow"}


def test_round_trip_through_json_text():
    s = azul.load_game("pavilion", players=3).new_initial_state(seed=4)
    text = json.dumps(s.to_json())
    assert s.game.state_from_json(text).to_json() == s.to_json()


def broken(change):
    d = doc()
    change(d)
    return d


CASES = [
    (
        lambda d: d["players"][1]["hand"].update(green=-1),
        r"players\[1\].hand.green: -1 is negative",
    ),
    (lambda d: d["bag"].update(red=d["bag"]["red"] + 1), "tiles: red adds up to 23, expected 22"),
    (
        lambda d: d["players"][0]["board"].update(R2="blue"),
        r"players\[0\].board.R2: blue cannot be on the red star",
    ),
    (lambda d: d["players"][0]["board"].update(C3="yellow"), "centre star already has a yellow"),
    (lambda d: d.update(colour="x"), "colour: unknown field"),
    (lambda d: d["players"][0].update(extra=1), r"players\[0\].extra: unknown field"),
    (lambda d: d.update(round="2"), "round: '2' is not an integer"),
    (lambda d: d.update(round=7), "round: 7 is more than 6"),
    (lambda d: d.update(to_move=5), "to_move: 5 is not a seat 0..1"),
    (lambda d: d.update(decision="dance"), "decision: 'dance' is not one of"),
    (lambda d: d["factories"].pop(), "factories: expected a list of 5 factories"),
    (lambda d: d["factories"][0].update(red=5), r"factories\[0\]: 5 in all, more than the 4"),
    (lambda d: d["supply"].update(red=9), "supply: 18 in all, more than the 10"),
    (lambda d: d["players"][0]["board"].update(X9="red"), r"players\[0\].board.X9: not a space"),
    (
        lambda d: d["players"][0]["board"].update(R2="pink"),
        r"players\[0\].board.R2: 'pink' is not a colour",
    ),
    (lambda d: d.update(version=99), "version: 99 is not supported"),
    (lambda d: d.update(game="chess"), "game: 'chess'"),
    (lambda d: d["players"][0].update(score=0), r"players\[0\].score: 0 is below 1"),
    (
        lambda d: d["players"][0].update(passed="no"),
        r"players\[0\].passed: 'no' is not true or false",
    ),
    (
        lambda d: d.update(pending_draws=["factory 1"]),
        "pending_draws: must be empty unless explicit_chance",
    ),
    (lambda d: d.update(bonus_owed=2), "bonus_owed: only a 'bonus' decision"),
    (
        lambda d: (
            d["players"][0].update(kept={"red": 1}),
            d["bag"].update(red=d["bag"]["red"] - 1),
        ),
        r"players\[0\].kept: only a player who passed",
    ),
    (
        lambda d: d["players"][0].update(passed=True),
        r"players\[0\].hand: a player who passed holds no tiles",
    ),
    (lambda d: d.pop("rng"), "rng: missing"),
    (lambda d: d.pop("players"), "players: missing"),
    (lambda d: d.update(history=[1, "x"]), r"history\[1\]: 'x' is not an integer"),
]


@pytest.mark.parametrize("change,message", CASES)
def test_bad_positions_name_the_field(change, message):
    with pytest.raises(azul.PositionError, match=message):
        azul.load_state(broken(change))


def test_options_must_match_the_game():
    d = doc()
    d["options"]["board"] = "grey"
    with pytest.raises(azul.PositionError, match="options.board: the position says 'grey'"):
        azul.load_game("pavilion").state_from_json(d)


def test_load_does_not_modify_the_document():
    d = doc()
    before = copy.deepcopy(d)
    azul.load_state(d)
    assert d == before


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", "null", "42"])
def test_not_a_position(text):
    with pytest.raises(azul.PositionError):
        azul.load_state(text)


def test_seed_replaces_a_missing_generator_state():
    d = doc()
    d.pop("rng")
    s = azul.load_state(d, seed=5)
    assert s.to_json()["rng"] == 5


def test_explicit_chance_positions_with_pending_draws():
    d = position(
        explicit_chance=True,
        decision="take",
        factories=["RRRR"],
        pending_draws=["factory 2", "factory 2"],
    )
    s = azul.load_state(d)
    assert s.current_player() == azul.CHANCE
    total = sum(n for _, n in d["bag"].items())
    outcomes = dict(s.chance_outcomes())
    assert abs(sum(outcomes.values()) - 1) < 1e-12
    # red: 4 on factory 1 and 1 in the supply, so 17 of the bag's tiles
    assert outcomes[5] == pytest.approx(17 / total)
    s.apply_string("draw:B")
    s.apply_string("draw:B")
    assert s.to_json()["factories"][1] == {"blue": 2}
    assert s.current_player() == 0
