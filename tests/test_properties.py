"""Property tests over random play: both games, 2, 3 and 4 players, both board sides."""

import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import azul
from azul.core.errors import IllegalMoveError
from azul.testing import check_state

SETTINGS = settings(
    max_examples=20,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def dump(state):
    return json.dumps(state.to_json(), sort_keys=True)


def play_out(game, seed, data, place_bias):
    """Random play drawn by hypothesis; with place_bias, placements are preferred to passing,
    so games reach full stars and the end-game bonuses."""
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        legal = state.legal_actions()
        yield state, legal
        choices = legal
        if place_bias and not state.is_chance_node():
            choices = [a for a in legal if not state.action_to_string(a).startswith("pass")]
            choices = choices or legal
        state.apply_action(data.draw(st.sampled_from(choices)))
    yield state, []


games = st.builds(
    lambda p, b, e: azul.load_game("pavilion", players=p, board=b, explicit_chance=e),
    st.sampled_from([2, 3, 4]),
    st.sampled_from(["coloured", "grey"]),
    st.booleans(),
)


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), data=st.data(), bias=st.booleans())
def test_random_play_keeps_every_promise(game, seed, data, bias):
    import random

    probe = random.Random(seed)
    for step, (state, _) in enumerate(play_out(game, seed, data, bias)):
        check_state(game, state, step, probe)


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), data=st.data())
def test_apply_accepts_exactly_the_legal_actions(game, seed, data):
    """Every action id of the space: applying it succeeds if and only if it is legal."""
    for step, (state, legal) in enumerate(play_out(game, seed, data, True)):
        if step % 40 or state.is_terminal() or state.is_chance_node():
            continue
        legal_set = set(legal)
        for a in range(game.info.num_distinct_actions):
            copy = state.clone()
            try:
                copy.apply_action(a)
                accepted = True
            except IllegalMoveError:
                accepted = False
            assert accepted == (a in legal_set), f"action {state.action_to_string(a)}"


@SETTINGS
@given(game=games, seed=st.integers(0, 2**32), data=st.data())
def test_determinism(game, seed, data):
    states = list(play_out(game, seed, data, True))
    final = states[-1][0]
    replay = game.new_initial_state(seed)
    for a in final.history():
        replay.apply_action(a)
    assert dump(replay) == dump(final)
    assert final.is_terminal()
    floor = game.info.min_score
    assert floor is None or all(s >= floor for s in final.scores())
