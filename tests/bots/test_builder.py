"""The builder bot plays a game's "builder" evaluation style, and refuses a game without it."""

import pytest

import azul
from azul.bots import make
from azul.bots.evaluation import style_evaluator


def test_it_plays_a_whole_summer_pavilion_game():
    bot = make("builder", seed=1)
    state = azul.load_game("pavilion").new_initial_state(3)
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    assert state.score_breakdown() is not None


def test_it_refuses_a_game_without_the_style_naming_the_styles_it_has():
    state = azul.load_game("sintra").new_initial_state(3)
    with pytest.raises(azul.OptionError) as e:
        make("builder", seed=1).choose(state)
    assert str(e.value) == "sintra has no 'builder' style of play: its styles are bigpile"


def test_an_unknown_style_names_the_styles_of_the_game():
    state = azul.load_game("pavilion").new_initial_state(3)
    with pytest.raises(azul.OptionError, match="its styles are builder, bigpile"):
        style_evaluator(state, "hoarder")
    with pytest.raises(azul.OptionError, match="its styles are builder, bigpile"):
        state.game.strategy().evaluate_style("hoarder", state, 0)
