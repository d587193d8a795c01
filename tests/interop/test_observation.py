"""Observations: fixed shapes, the documented layout, the seat's perspective, public only."""

import numpy as np
import pytest

import azul
from azul.interop.observation import (
    Observer,
    action_mask,
    bounds,
    entry_bounds,
    normalizer,
    observation,
    observation_dict,
)
from tests.pavilion.helpers import board
from tests.pavilion.helpers import load as load_pavilion
from tests.sintra.helpers import load as load_sintra
from tests.sintra.helpers import player, strip


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_shape_is_fixed_and_published(name, players):
    game = azul.load_game(name, players=players)
    state = game.new_initial_state(3)
    obs = observation(state, 0)
    assert obs.shape == game.info.observation_shape and obs.dtype == np.float32
    sizes = sum(int(np.prod(shape)) for _, shape in game.observation_layout())
    assert sizes == obs.shape[0]
    low, high = bounds(game)
    assert np.isfinite(low) and np.isfinite(high)
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        legal = state.legal_actions()
        state.apply_action(int(rng.choice(legal)))
        obs = observation(state, 1)
        assert obs.shape == game.info.observation_shape
        assert low <= obs.min() and obs.max() <= high


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
@pytest.mark.parametrize("players", [2, 4])
def test_each_entry_keeps_within_its_bounds_and_normalises_into_one(name, players):
    game = azul.load_game(name, players=players)
    low, high = entry_bounds(game)
    scale = normalizer(game)
    named = observation_dict(game.new_initial_state(0), 0)
    # flags are 0/1; counts of one colour at most that colour's pieces
    assert high[0] == 1  # the round, one-hot
    assert (low.min() < 0) == (name == "sintra")  # Sintra's scores can fall below 0
    per_colour = game.info.total_pieces // len(named["bag"])
    assert per_colour in high and high.max() == game.info.max_score
    floorless = entry_bounds(azul.load_game(name, players=players, score_floor=None))[0]
    assert floorless.min() == -game.info.max_score  # without a floor, scores can fall below 0
    normalised = Observer(game, normalize=True)
    for seed in range(3):
        state, rng = game.new_initial_state(seed), np.random.default_rng(seed)
        while not state.is_terminal():
            state.apply_action(int(rng.choice(state.legal_actions())))
            for seat in range(players):
                obs = observation(state, seat)
                assert (low <= obs).all() and (obs <= high).all()
                scaled = normalised.set_from(state, seat)
                assert np.array_equal(scaled, obs * scale)
                assert np.abs(scaled).max() <= 1


def test_pavilion_pieces_from_each_seat():
    # seat 0 has 2 red + 1 purple in hand and red on R1; seat 1 has scored 9
    s = load_pavilion(hands=["RRP", "BB"], boards=[board("R1"), {}], scores=[5, 9], token=1)
    mine = observation_dict(s, 0)
    theirs = observation_dict(s, 1)
    assert list(mine["hands"][0]) == [1, 0, 0, 0, 0, 2]  # purple, ..., red
    assert list(theirs["hands"][1]) == [1, 0, 0, 0, 0, 2]  # seat 0 seen from seat 1
    assert mine["scores"].tolist() == [5, 9] and theirs["scores"].tolist() == [9, 5]
    assert mine["boards"][0, 3 * 6 + 0, 5] == 1  # red star (3), position 1, red (5)
    assert mine["token"].tolist() == [0, 0, 1] and theirs["token"].tolist() == [0, 1, 0]
    assert mine["to_move"].tolist() == [1, 0] and theirs["to_move"].tolist() == [0, 1]
    assert mine["wild"].tolist() == [1, 0, 0, 0, 0, 0]  # round 1: purple
    assert mine["decision"].tolist() == [0, 1, 0]


def test_sintra_pieces():
    s = load_sintra(
        players=[player({1: strip(1, "a", "PP...")}, glazier=3, track=2), player()],
        factories=["OOYW"],
    )
    d = observation_dict(s, 0)
    assert d["glazier"][0].tolist() == [0, 0, 1, 0, 0, 0, 0, 0]
    assert d["track"][0, 2] == 1
    assert d["strip_pieces"][0, 0, 0, 0] == 1 and d["strip_pieces"][0, 0, 2].sum() == 0
    assert d["strip_pattern"][0, 0, 4, 3] == 1  # strip 1 side a, space 5 is blue (3)
    assert d["sources"][1].tolist() == [0, 2, 1, 0, 1]


def test_observation_ignores_the_generator():
    s = azul.load_game("pavilion").new_initial_state(5)
    other = s.clone()
    other.reseed(99)
    assert np.array_equal(observation(s, 0), observation(other, 0))


def test_observer_reuses_its_buffer_and_mask_matches():
    game = azul.load_game("sintra")
    state = game.new_initial_state(1)
    obs = Observer(game)
    first = obs.set_from(state, 0)
    assert first is obs.tensor
    assert obs.dict["round"].base is obs.tensor or obs.dict["round"].base is obs.tensor.base
    mask = action_mask(state)
    assert np.flatnonzero(mask).tolist() == state.legal_actions()


def test_published_shapes():
    from azul.pavilion.observation import SHAPES as PAVILION
    from azul.sintra.observation import SHAPES as SINTRA

    assert PAVILION == {2: (607,), 3: (887,), 4: (1167,)}
    assert SINTRA == {2: (1206,), 3: (1773,), 4: (2340,)}
    for n in (2, 3, 4):
        assert azul.load_game("pavilion", players=n).info.observation_shape == PAVILION[n]
        assert azul.load_game("sintra", players=n).info.observation_shape == SINTRA[n]
