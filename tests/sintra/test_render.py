"""The terminal board: columns line up in every language, and its notes are translated."""

import pytest

import azul
from azul import i18n
from azul.sintra.data import load_components
from azul.sintra.render import SHIPPED_PROVENANCE
from tests.sintra.helpers import load, player, strip


@pytest.mark.parametrize("lang", sorted(i18n.LANGUAGES))
def test_the_board_columns_line_up_in_every_language(lang):
    # seat 0's glazier stands above strip 4; its strip 3 holds a piece, window 6 a piece
    seat = player(glazier=4, strips={3: strip(3, pieces="W....")}, windows={6: "P"})
    state = load(players=[seat, player()], factories=["PPOO"])
    i18n.use(lang)
    lines = state.render().splitlines()
    strips = lines.index(next(line for line in lines if line.rstrip().endswith("7   8")))
    numbers = lines[strips]
    glazier, pieces, windows = lines[strips - 1], lines[strips + 1], lines[strips + 6]
    assert glazier.rstrip().endswith("v") and len(glazier.rstrip()) - 1 == numbers.index("4")
    assert pieces[numbers.index("3")] == "W" and pieces[numbers.index("1")] == "p"
    assert windows[numbers.index("6")] == "P"
    column = numbers.index("1")
    for line in lines[strips + 1 : strips + 9]:  # strip spaces, windows, values
        assert line[column - 2 : column] == "  " and line[column] != " ", line


@pytest.mark.parametrize("lang,words", [("fr", "par défaut du projet"), ("pt", "padrão")])
def test_the_provisional_note_is_translated(lang, words):
    assert load_components().provenance == SHIPPED_PROVENANCE
    i18n.use(lang)
    text = azul.load_game("sintra").new_initial_state(1).render()
    assert words in text and "project defaults" not in text
