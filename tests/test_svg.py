"""SVG drawings: well-formed, every space drawn with its data attributes, what the state says."""

import xml.etree.ElementTree as ET

import pytest

import azul
from azul.testing import play_random
from tests.pavilion.helpers import board
from tests.pavilion.helpers import load as load_pavilion
from tests.sintra.helpers import load as load_sintra
from tests.sintra.helpers import player, strip

NS = "{http://www.w3.org/2000/svg}"


def parse(svg):
    return ET.fromstring(svg)


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
@pytest.mark.parametrize("players", [2, 4])
def test_well_formed_at_every_stage(name, players):
    game = azul.load_game(name, players=players)
    state = game.new_initial_state(2)
    assert parse(state.game.presenter().render_svg(state)).tag == f"{NS}svg"
    assert state._repr_svg_() == state.game.presenter().render_svg(state)
    final = play_random(game, seed=2)
    parse(final.game.presenter().render_svg(final))


def test_pavilion_spaces_and_tiles():
    s = load_pavilion(hands=["RRR"], boards=[board("R1", "C2=Y"), {}])
    root = parse(s.game.presenter().render_svg(s))
    spaces = [g for g in root.iter(f"{NS}g") if g.get("data-space")]
    assert len(spaces) == 2 * 42
    covered = {
        g.get("data-space"): g.find(f"{NS}text").text for g in spaces if "covered" in g.get("class")
    }
    assert covered == {"R1": "R", "C2": "Y"}
    empty = {g.get("data-space"): g.find(f"{NS}text").text for g in spaces[:42]}
    assert empty["B6"] == "6" and empty["C5"] == "5"  # the cost on the coloured side


def test_sintra_strips_windows_and_provisional_note():
    s = load_sintra(
        players=[player({1: strip(1, "a", "PP...")}, windows={2: "O"}), player()],
        factories=["OOYW"],
    )
    svg = s.game.presenter().render_svg(s)
    root = parse(svg)
    assert "provisional" in svg
    spaces = [g for g in root.iter(f"{NS}g") if g.get("data-strip") and g.get("data-space")]
    assert len(spaces) == 2 * 8 * 5
    breaks = [g for g in root.iter(f"{NS}g") if g.get("data-strip") == "break"]
    assert len(breaks) == 2  # each board's broken-glass box, the target of '>break' moves
    first = [g.find(f"{NS}text").text for g in spaces[:5]]
    assert first == ["P", "P", "o", "o", "b"]  # pieces, then the empty pattern in lower case
    assert len(root.findall(f".//{NS}polygon[@class='glazier']")) == 2
