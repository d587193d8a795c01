"""The game-agnostic API: registry, options, facts, chance, errors and module boundaries."""

import ast
import pathlib
from copy import deepcopy

import pytest

import azul
from azul.core.api import Presenter


def test_registry_and_unknown_game():
    assert set(azul.GAMES) == {"pavilion", "sintra"}
    with pytest.raises(azul.OptionError, match="unknown game 'chess'"):
        azul.load_game("chess")


@pytest.mark.parametrize(
    "options,message",
    [
        ({"players": 5}, "players: 5 is not 2, 3 or 4"),
        ({"players": True}, "players: True"),
        ({"board": "blue"}, "board: 'blue'"),
        ({"score_floor": "1"}, "score_floor"),
        ({"first_player": 2}, "first_player: 2 is not None or a seat 0..1"),
        ({"explicit_chance": 1}, "explicit_chance"),
        ({"colour": 1}, "unknown option"),
        ({"ties": "tiebreak"}, "ties: 'tiebreak' is not supported: use 'shared'"),
        ({"round6_leftovers": "never"}, "use 'after_bonuses' or 'at_pass'"),
    ],
)
def test_bad_options(options, message):
    with pytest.raises(azul.OptionError, match=message):
        azul.load_game("pavilion", **options)


def test_defaults_follow_the_project_decisions():
    game = azul.load_game("pavilion")
    # one option per row of the rules' "Project decisions" table, with the decided default
    assert game.options == {
        "players": 2,
        "board": "coloured",
        "score_floor": 1,
        "first_player": None,
        "explicit_chance": False,
        "no_token_start": "round_starter",
        "short_supply": "take_all",
        "round6_leftovers": "after_bonuses",
        "ties": "shared",
        "small_pass": "keep_all",
        "empty_hand": "auto_pass",
        "supply_refill": "every_turn",
        "draw_order": "supply_first",
    }


def test_game_info():
    info = azul.load_game("pavilion", players=3).info
    assert info.num_players == 3
    assert info.total_pieces == 132
    assert info.max_chance_outcomes == 6
    assert info.min_utility == -1 and info.max_utility == 1


def test_initial_deal():
    # setup (rules 2): 10 supply tiles, 4 on each of 5 factories, the rest in the bag
    state = azul.load_game("pavilion").new_initial_state(seed=11)
    doc = state.to_json()
    assert sum(doc["supply"].values()) == 10
    assert [sum(f.values()) for f in doc["factories"]] == [4] * 5
    assert sum(doc["bag"].values()) == 132 - 30
    assert doc["decision"] == "take" and doc["round"] == 1
    assert all(p["score"] == 5 for p in doc["players"])


def test_first_player_option_and_seed():
    game = azul.load_game("pavilion", players=4, first_player=2)
    assert game.new_initial_state(1).current_player() == 2
    starts = {
        azul.load_game("pavilion", players=4).new_initial_state(s).current_player()
        for s in range(40)
    }
    assert starts == {0, 1, 2, 3}


def test_explicit_chance_setup_draws_are_chance_nodes():
    game = azul.load_game("pavilion", explicit_chance=True)
    state = game.new_initial_state(0)
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    state.apply_action(1)
    outcomes = state.chance_outcomes()
    assert outcomes == [(c, 22 / 132) for c in range(6)]
    draws = 0
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
        draws += 1
    assert draws == 30
    assert state.current_player() == 1


def test_same_seed_same_game_other_seed_other_deal():
    game = azul.load_game("pavilion")
    a, b, c = (game.new_initial_state(s) for s in (3, 3, 4))
    assert a.to_json() == b.to_json()
    assert a.to_json()["factories"] != c.to_json()["factories"]


@pytest.mark.parametrize("copier", ["clone", "deepcopy"])
def test_clone_is_independent(copier):
    state = azul.load_game("pavilion").new_initial_state(0)
    copy = state.clone() if copier == "clone" else deepcopy(state)
    assert copy.to_json() == state.to_json() and copy.game is state.game
    copy.apply_action(copy.legal_actions()[0])
    assert state.history() == [] and copy.history() != []
    assert state.to_json() != copy.to_json()


def test_reseed_changes_only_the_future():
    state = azul.load_game("pavilion").new_initial_state(0)
    other = state.clone()
    other.reseed(99)
    assert other.legal_actions() == state.legal_actions()
    assert other.to_json()["rng"] != state.to_json()["rng"]


def test_game_over_refuses_actions():
    from tests.pavilion.helpers import load

    s = load(round=6, hands=["B"], passed=[False, True])
    s.apply_string("pass")
    assert s.is_terminal() and s.current_player() == azul.TERMINAL
    assert s.legal_actions() == []
    with pytest.raises(azul.IllegalMoveError, match="the game is over"):
        s.apply_action(0)


def test_chance_outcomes_refused_outside_chance_nodes():
    state = azul.load_game("pavilion").new_initial_state(0)
    with pytest.raises(azul.AzulError, match="not a chance node"):
        state.chance_outcomes()


RULES_PACKAGES = ["pavilion", "sintra"]
FORBIDDEN = ("azul.bots", "azul.cli", "azul.bench", "azul.server", "azul.interop", "azul.arena")


@pytest.mark.parametrize("package", RULES_PACKAGES)
def test_rules_import_nothing_from_tools(package):
    """Game packages import no bot, server, adapter or CLI code; rules modules no renderer."""
    root = pathlib.Path(azul.__file__).parent / package
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        names = [n.module or "" for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)]
        names += [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        for name in names:
            assert not name.startswith(FORBIDDEN), f"{path.name} imports {name}"
            if path.name in ("state.py", "actions.py", "data.py", "tables.py"):
                assert not name.endswith((".render", ".position")), f"{path.name} imports {name}"


PRESENTATION = ("render_svg", "action_targets", "action_marks", "action_details")
PRESENTATION += ("describe_action", "action_preview", "action_previews", "palette", "to_svg")


@pytest.mark.parametrize("name", sorted(azul.GAMES))
def test_the_rules_api_carries_no_presentation(name):
    # how a game is shown lives in its presenter (Game.presenter()), as what bots know lives
    # in its strategy; a game and its states keep the rules
    game = azul.load_game(name)
    state = game.new_initial_state(3)
    for method in PRESENTATION:
        assert not hasattr(game, method) and not hasattr(state, method), method
    shown = game.presenter()
    assert isinstance(shown, Presenter)
    while state.is_chance_node() or not state.legal_actions():
        state.apply_action(state.chance_outcomes()[0][0])
    action = state.legal_actions()[0]
    assert shown.describe_action(state, action).to_json()
    assert shown.action_previews(state, [action]) == [shown.action_preview(state, action)]
    assert state._repr_svg_() == shown.render_svg(state)
