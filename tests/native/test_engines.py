"""The public states on the compiled cores (azul.core.compiled) and the choice of engine."""

import copy
import pickle

import pytest

import azul
from azul import native
from azul.core.compiled import CompiledState
from azul.pavilion.state import PavilionState
from azul.sintra.state import SintraState

if native.pure():
    pytest.skip("AZUL_PURE_PYTHON is set: the Python engines only", allow_module_level=True)

PYTHON = {"pavilion": PavilionState, "sintra": SintraState}


@pytest.mark.parametrize("name", native.cores())
def test_load_game_plays_on_the_core_unless_told_otherwise(name, monkeypatch):
    game = azul.load_game(name)
    state = game.new_initial_state(3)
    assert game.engine == "compiled" and isinstance(state, CompiledState)
    assert isinstance(state, PYTHON[name])  # every reader of the Python state still works
    assert isinstance(game.state_from_json(state.to_json()), CompiledState)
    python = azul.load_game(name, engine="python")
    assert python.engine == "python" and type(python.new_initial_state(3)) is PYTHON[name]
    assert type(python.state_from_json(state.to_json())) is PYTHON[name]
    assert python.new_initial_state(3).to_json() == state.to_json()
    assert azul.load_game(name, engine="compiled").engine == "compiled"
    monkeypatch.setenv(native.PURE, "1")
    assert type(game.new_initial_state(3)) is PYTHON[name] and game.engine == "python"
    with pytest.raises(azul.OptionError, match="engine: 'compiled': .*AZUL_PURE_PYTHON is set"):
        azul.load_game(name, engine="compiled")


def test_an_unknown_engine_is_refused_by_name():
    with pytest.raises(azul.OptionError, match="engine: 'c' is not one of 'compiled', 'python'"):
        azul.load_game("pavilion", engine="c")


def test_a_game_without_a_core_plays_in_python():
    from tests.minigame import MiniGame

    game = MiniGame()
    assert game.engine == "python" and game.compiled() is None
    assert type(game.new_initial_state(1)).__name__ == "MiniState"
    with pytest.raises(azul.OptionError, match="mini.*has no compiled core yet"):
        game.use_engine("compiled")


@pytest.mark.parametrize("name", native.cores())
def test_the_python_fields_follow_every_ply(name):
    """A cold path reads the Python state's fields: they describe the current ply, never the
    one before, also on clones."""
    game, python = azul.load_game(name), azul.load_game(name, engine="python")
    state, twin = game.new_initial_state(5), python.new_initial_state(5)
    for step in range(60):
        assert state.points == twin.points and state.deals == twin.deals, step
        assert state.reference().to_json() == twin.to_json()
        assert state.decision() == twin.decision() and state.render() == twin.render()
        action = twin.legal_actions()[step * 7 % len(twin.legal_actions())]
        other = state.clone()
        other.apply_action(other.legal_actions()[0])
        assert state.to_json() == twin.to_json()  # a clone's move leaves the original alone
        state.apply_action(action)
        twin.apply_action(action)
    assert state.history() == twin.history()


@pytest.mark.parametrize("name", native.cores())
def test_errors_keep_the_reference_engines_messages(name):
    for options in ({}, {"explicit_chance": True}):  # a move, and a draw
        state = azul.load_game(name, **options).new_initial_state(1)
        twin = azul.load_game(name, engine="python", **options).new_initial_state(1)
        for action in ("F1:R", True, 2**70, -(2**70), 10_000, -1):
            errors = []
            for s in (state, twin):
                with pytest.raises(azul.IllegalMoveError) as raised:
                    s.apply_action(action)
                errors.append(str(raised.value))
            assert errors[0] == errors[1], action
        assert state.to_json() == twin.to_json()
    python = azul.load_game(name, engine="python")
    live = azul.load_game(name).new_initial_state(1)
    with pytest.raises(azul.AzulError) as compiled_error:
        live.chance_outcomes()
    with pytest.raises(azul.AzulError) as python_error:
        python.new_initial_state(1).chance_outcomes()
    assert str(compiled_error.value) == str(python_error.value)


@pytest.mark.parametrize("name", native.cores())
def test_compiled_states_copy_and_pickle(name):
    state = azul.load_game(name, players=3).new_initial_state(2)
    for _ in range(25):
        state.apply_action(state.legal_actions()[-1])
    for again in (copy.deepcopy(state), pickle.loads(pickle.dumps(state)), state.clone()):
        assert isinstance(again, CompiledState) and again.to_json() == state.to_json()
        again.apply_action(again.legal_actions()[0])
        assert again.history() != state.history()


@pytest.mark.parametrize("name", native.cores())
def test_reseeding_changes_the_draws_as_in_python(name):
    game, python = azul.load_game(name), azul.load_game(name, engine="python")
    state, twin = game.new_initial_state(8), python.new_initial_state(8)
    state.reseed(99)
    twin.reseed(99)
    while not twin.is_terminal():
        action = twin.legal_actions()[0]
        state.apply_action(action)
        twin.apply_action(action)
    assert state.to_json() == twin.to_json() and state.returns() == twin.returns()
    errors = []
    for s in (state, twin):  # the end of the game refuses every action alike
        with pytest.raises(azul.IllegalMoveError) as raised:
            s.apply_action(0)
        errors.append(str(raised.value))
    assert errors[0] == errors[1] and state.score_breakdown() == twin.score_breakdown()
