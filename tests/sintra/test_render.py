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


def test_the_palace_line_shows_what_the_windows_pay_now():
    # side A (rules 5.2): the first ornament, between windows 1 and 2, has 3 of its 4 frames
    # filled (P and O in window 1, B at the top of window 2): 6 points; the others none
    a = load(
        side="A", players=[player({1: None}, windows={1: "PO", 2: "B"}), player()], factories=["OY"]
    )
    lines = [line.strip() for line in a.render().splitlines() if line.strip().startswith("orn")]
    ornaments = ["1+2: 3/4 \u2192 6", "3+4: 0/4 \u2192 0", "5+6: 0/4 \u2192 0", "7+8: 0/4 \u2192 0"]
    assert lines[0] == "ornaments  " + "   ".join(ornaments)
    assert lines[1].count("0/4") == 4  # seat 1's windows are empty
    # side B (rules 5.3): windows 1 and 2 complete, three pink pieces among them: 2 x 3 = 6
    done = {1: None, 2: None}  # complete windows' strips have left the game
    b = load(
        side="B", players=[player(done, windows={1: "PO", 2: "PP"}), player()], factories=["OY"]
    )
    assert "complete windows 2 \u00d7 most of one colour 3 = 6" in b.render()
    assert "ornaments" not in b.render()
