"""Move notation: every action id formats and parses back; bad text is refused clearly."""

import pytest

import azul
from azul.pavilion.actions import ActionSpace


@pytest.mark.parametrize("factories", [5, 7, 9])
def test_every_action_id_round_trips(factories):
    space = ActionSpace(factories)
    strings = [space.to_string(a) for a in range(space.size)]
    assert len(set(strings)) == space.size
    assert [space.from_string(t) for t in strings] == list(range(space.size))


def test_action_space_size():
    # (5 factories + centre) x 6 colours + 42 spaces x 6 colours x 6 wild counts + 6 bonus colours,
    # and the passes: keep all, or keep a multiset of 0..4 of 6 colours: C(5,0) + C(6,1) + C(7,2)
    # + C(8,3) + C(9,4) = 1 + 6 + 21 + 56 + 126 = 210
    assert ActionSpace(5).size == 36 + 1512 + 1 + 210 + 6
    assert azul.load_game("pavilion", players=4).info.num_distinct_actions == 60 + 1512 + 211 + 6


@pytest.mark.parametrize(
    "text,expected",
    [
        ("F3:R", "F3:R"),
        ("f3 : red", "F3:R"),
        ("C:Y", "C:Y"),
        ("centre:yellow", "C:Y"),
        ("R@R3+1", "R@R3+1"),
        ("r @ r3 + 1w", "R@R3+1"),
        ("red@centre4", "R@C4"),
        ("pass", "pass"),
        ("PASS:rbgp", "pass:PGBR"),
        ("pass:r", "pass:R"),
        ("pass: none", "pass:-"),
        ("pass:-", "pass:-"),
        ("S:B", "S:B"),
        ("s:blue", "S:B"),
    ],
)
def test_readable_variants(text, expected):
    space = ActionSpace(5)
    assert space.to_string(space.from_string(text)) == expected


@pytest.mark.parametrize(
    "text,message",
    [
        ("F6:R", "there is no factory 6"),
        ("F1:X", "unknown colour 'x'"),
        ("R@Z3", "unknown star 'z'"),
        ("R@R7", "space 7 does not exist"),
        ("R@R3+6", "5 wilds at most"),
        ("pass:RRRRR", "at most 4 tiles"),
        ("hello", "cannot read move 'hello'"),
    ],
)
def test_malformed_moves(text, message):
    with pytest.raises(azul.IllegalMoveError, match=message):
        ActionSpace(5).from_string(text)


def test_non_text_move():
    state = azul.load_game("pavilion").new_initial_state(0)
    with pytest.raises(azul.IllegalMoveError, match="a move is text"):
        state.string_to_action(3)
    with pytest.raises(azul.IllegalMoveError, match="an action is an int"):
        state.apply_action("F1:R")
    with pytest.raises(azul.IllegalMoveError, match="outside 0..1764"):
        state.apply_action(10_000)


def test_chance_notation():
    state = azul.load_game("pavilion", explicit_chance=True).new_initial_state(0)
    assert state.current_player() == azul.CHANCE
    assert state.action_to_string(1) == "first:1"
    assert state.string_to_action("first:1") == 1
    with pytest.raises(
        azul.IllegalMoveError, match="is not an outcome of this draw: first:0, first:1"
    ):
        state.string_to_action("draw:R")
    state.apply_action(1)
    assert state.action_to_string(5) == "draw:R"
    assert state.string_to_action("draw:r") == 5
