"""OpenSpiel, PettingZoo and Gymnasium adapters, checked with each framework's own tests."""

import functools

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import pyspiel
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test, seed_test

from azul.interop import openspiel
from azul.interop.gym import make
from azul.interop.pettingzoo import env

openspiel.register()
NAMES = ["azul_pavilion", "azul_sintra"]


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_random_simulation_with_serialization(name):
    game = pyspiel.load_game(name, {"players": 3})
    assert game.num_players() == 3
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_chance_outcomes_are_exact(name):
    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert outcomes == [(0, 0.5), (1, 0.5)]  # the first player


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_mcts_bot_plays_complete_games(name):
    game = pyspiel.load_game(name, {"first_player": 0})
    rng = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bot = mcts.MCTSBot(game, uct_c=2.0, max_simulations=3, evaluator=evaluator, random_state=rng)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() == 0:
            state.apply_action(bot.step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    assert sum(state.returns()) == pytest.approx(0.0)


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_observation_and_parameters(name):
    options = {"players": 4, "first_player": 2}
    options["board" if "pavilion" in name else "side"] = "grey" if "pavilion" in name else "B"
    game = pyspiel.load_game(name, options)
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    assert state.current_player() == 2
    tensor = state.observation_tensor(2)
    assert len(tensor) == game.observation_tensor_size()
    assert "seat 2" in state.observation_string(2)
    text = pyspiel.serialize_game_and_state(game, state)
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.history() == state.history()


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_pettingzoo_api_and_seed(game):
    api_test(env(game, players=3), num_cycles=200)
    seed_test(functools.partial(env, game), num_cycles=100)


def test_pettingzoo_rewards_at_the_end():
    e = env("sintra", reward="score", render_mode="ansi")
    e.reset(seed=3)
    rng = np.random.default_rng(0)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        totals[agent] += reward
        if term or trunc:
            e.step(None)
            continue
        e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    scores = e.state.scores()
    assert totals["player_0"] == scores[0] - scores[1]
    assert "Stained Glass" in e.render()


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_gymnasium_env_checker(game):
    check_env(make(game, opponents=["greedy"]), skip_render_check=True)


def test_gymnasium_episode_against_bots():
    e = make("pavilion", players=3, opponents=["greedy", "random"], seat=1)
    obs, _ = e.reset(seed=4)
    rng = np.random.default_rng(1)
    done = False
    reward = 0.0
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, _, info = e.step(action)
    assert reward in (-1.0, -0.5, 0.0, 0.5, 1.0) and "scores" in info
    obs, _ = e.reset(seed=4)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = e.step(illegal)
    assert done and reward == -1.0 and info["illegal"]
