"""The conformance kit on every registered game and a spread of options."""

import pytest

import azul
from azul.testing import check_game

CONFIGS = [
    ("pavilion", {"players": 2}),
    ("pavilion", {"players": 3, "board": "grey"}),
    ("pavilion", {"players": 4, "explicit_chance": True}),
    ("pavilion", {"players": 2, "score_floor": None, "round6_leftovers": "at_pass"}),
    ("sintra", {"players": 2}),
    ("sintra", {"players": 3, "side": "B"}),
    ("sintra", {"players": 4, "explicit_chance": True}),
    ("sintra", {"players": 2, "score_floor": 0, "first_player": 1}),
]

pytestmark = pytest.mark.usefixtures("engine")  # both engines, the same results


@pytest.mark.parametrize("name,options", CONFIGS, ids=[f"{n}-{o}" for n, o in CONFIGS])
def test_check_game(name, options):
    check_game(azul.load_game(name, **options), games=2, seed=7)


def test_every_registered_game_is_covered():
    assert {name for name, _ in CONFIGS} == set(azul.GAMES)
