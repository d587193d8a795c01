"""The components file: shipped values load; a user's file loads; a bad one names its field."""

import pytest

import azul
from azul.sintra.data import SHIPPED, load_components


def test_shipped_values_are_the_project_decisions():
    c = load_components()
    assert c.provisional
    assert c.colors == ("pink", "orange", "yellow", "blue", "white")
    assert c.window_values["A"] == (1, 1, 2, 2, 3, 3, 4, 4)
    assert c.track == (0, -1, -2, -3, -5, -8, -11, -14, -18)
    assert c.bottom_penalty == 18
    assert (c.joker_strip, c.joker_side) == (7, 1)  # strip 8, side b
    # ornaments over windows (1,2), (3,4), (5,6), (7,8), top and bottom frames
    assert c.ornaments[0] == (0, 1, 2, 3) and c.ornaments[3] == (12, 13, 14, 15)


def write(tmp_path, old, new):
    text = SHIPPED.read_text()
    assert old in text
    path = tmp_path / "c.toml"
    path.write_text(text.replace(old, new))
    return str(path)


def test_a_users_file_changes_the_game(tmp_path):
    path = write(tmp_path, "A = [1, 1, 2, 2, 3, 3, 4, 4]", "A = [2, 2, 2, 2, 2, 2, 2, 2]")
    game = azul.load_game("sintra", components=path)
    assert game.window_values == (2,) * 8
    path = write(
        tmp_path,
        'provenance = "provisional: project defaults, not read off a physical copy"',
        'provenance = "read off my copy, 2026"',
    )
    state = azul.load_game("sintra", components=path).new_initial_state(1)
    assert "provisional" not in state.render()
    assert "provisional" in azul.load_game("sintra").new_initial_state(1).render()


@pytest.mark.parametrize(
    "old,new,message",
    [
        (
            'colors = ["pink", "orange", "yellow", "blue", "white"]',
            'colors = ["pink", "orange", "yellow", "blue"]',
            "colors: expected 5 different names",
        ),
        (
            'letters = ["P", "O", "Y", "B", "W"]',
            'letters = ["P", "O", "Y", "B", "P"]',
            "letters: expected 5 different single letters",
        ),
        ("A = [1, 1, 2, 2, 3, 3, 4, 4]", "A = [1, 1, 2]", r"window_values.A: expected 8 values"),
        (
            "B = [1, 1, 2, 2, 3, 3, 4, 4]",
            'B = [1, 1, 2, 2, 3, 3, 4, "x"]',
            "window_values.B: expected a list of integers",
        ),
        (
            "track = [0, -1, -2, -3, -5, -8, -11, -14, -18]",
            "track = [0, -1, -2, 0, -18]",
            "broken_glass.track: values must not rise",
        ),
        (
            "track = [0, -1, -2, -3, -5, -8, -11, -14, -18]",
            "track = [1, -18]",
            "broken_glass.track: must start at 0",
        ),
        (
            '[[1, "top"], [1, "bottom"], [2, "top"], [2, "bottom"]]',
            '[[1, "top"], [1, "top"], [2, "top"], [2, "bottom"]]',
            r"ornaments.frames\[0\]: the 4 frames must be different",
        ),
        (
            '[[3, "top"], [3, "bottom"], [4, "top"], [4, "bottom"]]',
            '[[3, "top"], [9, "bottom"], [4, "top"], [4, "bottom"]]',
            r"ornaments.frames\[1\]: \[9, 'bottom'\] is not",
        ),
        (
            '["white", "white", "yellow", "yellow", "orange"],\n]',
            '["white", "white", "yellow", "yellow", "green"],\n]',
            r"strips.a\[7\]: 'green' is not",
        ),
        (
            '["joker", "joker", "pink", "yellow", "white"]',
            '["pink", "pink", "pink", "yellow", "white"]',
            "strips: exactly one strip side must have joker spaces",
        ),
        (
            '["joker", "joker", "pink", "yellow", "white"]',
            '["joker", "pink", "pink", "yellow", "white"]',
            r"strips.b\[7\]: expected 2 joker spaces on the joker side, got 1",
        ),
        (
            '["joker", "joker", "pink", "yellow", "white"]',
            '["joker", "joker", "joker", "yellow", "white"]',
            r"strips.b\[7\]: expected 2 joker spaces on the joker side, got 3",
        ),
        ('provenance = "provisional', 'origin = "provisional', "origin: unknown field"),
    ],
)
def test_bad_components_name_the_field(tmp_path, old, new, message):
    path = write(tmp_path, old, new)
    with pytest.raises(azul.OptionError, match=message):
        azul.load_game("sintra", components=path)


def test_unreadable_components(tmp_path):
    with pytest.raises(azul.OptionError, match="cannot read"):
        azul.load_game("sintra", components=str(tmp_path / "none.toml"))
    bad = tmp_path / "bad.toml"
    bad.write_text("colors = [")
    with pytest.raises(azul.OptionError, match="not valid TOML"):
        azul.load_game("sintra", components=str(bad))
