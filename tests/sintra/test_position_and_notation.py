"""Sintra positions (validation by field, round trips) and notation."""

import pytest

import azul
from tests.sintra.helpers import player, position, strip


def doc():
    return position(
        players=[player({1: strip(1, "a", "PP...")}, glazier=2), player()], factories=["OOYW"]
    )


def test_round_trip():
    s = azul.load_state(doc())
    assert azul.load_state(s.to_json()).to_json() == s.to_json()
    s = azul.load_game("sintra", players=4, explicit_chance=True).new_initial_state(1)
    assert s.game.state_from_json(s.to_json()).to_json() == s.to_json()


CASES = [
    (lambda d: d["bag"].update(pink=d["bag"]["pink"] + 1), "pieces: pink adds up to 21"),
    (
        lambda d: d["players"][0]["strips"][0]["pieces"].__setitem__(2, "pink"),
        r"players\[0\].strips\[0\].pieces\[2\]: pink cannot be on a orange space",
    ),
    (lambda d: d["players"][0]["strips"][1].update(strip=1), "strip 1 is already on the board"),
    (
        lambda d: d["players"][0]["strips"].__setitem__(3, None),
        r"players\[0\].strips\[3\]: a strip leaves only when its window is complete",
    ),
    (
        lambda d: d["players"][0]["windows"].__setitem__(0, [None, "pink"]),
        "the bottom frame fills only after the top frame",
    ),
    (lambda d: d["players"][0].update(glazier=9), r"players\[0\].glazier: 9 is more than 8"),
    (lambda d: d["players"][0].update(track=8), r"players\[0\].track: 8 is more than 7"),
    (lambda d: d["players"][1].update(lost=-1), r"players\[1\].lost: -1 is negative"),
    (lambda d: d["players"][0]["strips"][0].update(side="c"), "side: 'c' is not 'a' or 'b'"),
    (lambda d: d.update(decision="keep"), "keep_strip: a 'keep' decision names"),
    (lambda d: d.update(keep_strip=1), "keep_strip: only a 'keep' decision"),
    (
        lambda d: (
            d["indicator"].__setitem__(0, None),
            d["bag"].update(yellow=d["bag"]["yellow"] + 1),
        ),
        r"indicator\[0\]: round 1 has no piece",
    ),
    (lambda d: d.update(tile=3), "tile: 3 is not a seat"),
    (lambda d: d["factories"][0].update(blue=1), r"factories\[0\]: 5 in all"),
    (lambda d: d.update(extra=1), "extra: unknown field"),
    (lambda d: d["players"][0].pop("track"), r"players\[0\].track: missing"),
]


@pytest.mark.parametrize("change,message", CASES)
def test_bad_positions_name_the_field(change, message):
    d = doc()
    change(d)
    with pytest.raises(azul.PositionError, match=message):
        azul.load_state(d)


def test_notation_round_trips_every_action():
    game = azul.load_game("sintra", players=3)
    space = game.actions
    texts = [space.to_string(a) for a in range(space.size)]
    assert len(set(texts)) == space.size
    assert [space.from_string(t) for t in texts] == list(range(space.size))
    assert space.size == 8 * 5 * 9 + 1 + 5


@pytest.mark.parametrize(
    "text,expected",
    [
        ("f3 : pink > 4", "F3:P>4"),
        ("centre:yellow>x", "C:Y>break"),
        ("BACK", "back"),
        ("keep:orange", "keep:O"),
    ],
)
def test_readable_variants(text, expected):
    space = azul.load_game("sintra").actions
    assert space.to_string(space.from_string(text)) == expected


@pytest.mark.parametrize(
    "text,message",
    [
        ("F6:P>1", "there is no factory 6"),
        ("F1:G>1", "unknown colour 'g'"),
        ("F1:P>9", "there is no strip 9"),
        ("jump", "cannot read move 'jump'"),
    ],
)
def test_malformed_moves(text, message):
    with pytest.raises(azul.IllegalMoveError, match=message):
        azul.load_game("sintra").actions.from_string(text)


def test_chance_nodes_in_setup():
    s = azul.load_game("sintra", explicit_chance=True).new_initial_state(0)
    assert s.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    s.apply_string("first:1")
    assert [a for a, _ in s.chance_outcomes()] == list(range(8))  # strip for seat 0 slot 1
    s.apply_string("strip:8")  # the joker strip: its side is not drawn, it shows side a
    assert s.to_json()["players"][0]["strips"][0]["side"] == "a"
    assert s.action_to_string(0) == "strip:1"  # slot 2's strip next
    with pytest.raises(azul.IllegalMoveError, match="not an outcome of this draw"):
        s.string_to_action("strip:8")
