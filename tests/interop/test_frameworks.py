"""OpenSpiel, PettingZoo and Gymnasium adapters, checked with each framework's own tests."""

import base64
import functools
import json
import pickle

import numpy as np
import pytest

pytest.importorskip("pyspiel")
pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

import pyspiel
from gymnasium.utils.env_checker import check_env
from open_spiel.python.algorithms import mcts
from pettingzoo.test import api_test, render_test, seed_test

import azul
from azul.interop import openspiel
from azul.interop.gym import env_id as env_id_of
from azul.interop.gym import make
from azul.interop.observation import observation
from azul.interop.pettingzoo import env

openspiel.register()
NAMES = ["azul_pavilion", "azul_sintra"]


def dealt(game):
    """A pyspiel state at its first decision, each draw its first outcome."""
    state = game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(state.chance_outcomes()[0][0])
    return state


def random_walk(game, steps, seed):
    """A pyspiel state after ``steps`` random actions, chance drawn by its probabilities."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


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
    state = dealt(game)
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
    scores = e.game_state.scores()
    assert totals["player_0"] == scores[0] - scores[1]
    assert "Stained Glass" in e.render()


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_gymnasium_env_checker(game):
    check_env(make(game, opponents=["greedy"]), skip_render_check=True)
    check_env(make(game, opponents=["greedy"], normalize=True), skip_render_check=True)


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_normalised_observations_are_the_same_everywhere(game):
    import gymnasium

    from azul.interop.observation import normalizer

    single = make(game, normalize=True)
    obs, _ = single.reset(seed=4)
    scale = normalizer(single.game)
    assert np.array_equal(obs["observation"], observation(single.state, 0) * scale)
    assert single.observation_space["observation"].contains(obs["observation"])
    batch = gymnasium.make_vec(env_id_of(game), num_envs=3, normalize=True)
    rows, _ = batch.reset(seed=4)
    for i, state in enumerate(batch.states):  # the compiled core's states where it is built
        python = state.to_state() if batch.core else state
        assert np.array_equal(rows["observation"][i], observation(python, 0) * scale)
    assert batch.observation_space.contains(rows)
    aec = env(game, normalize=True)
    aec.reset(seed=4)
    for seat, agent in enumerate(aec.possible_agents):
        seen = aec.observe(agent)["observation"]
        assert np.array_equal(seen, observation(aec.game_state, seat) * scale)
    for bad in ("yes", 1):
        with pytest.raises(azul.OptionError, match="normalize"):
            make(game, normalize=bad)


def test_rendering_as_rgb_arrays():
    try:
        import cairosvg  # noqa: F401
    except OSError:  # the Cairo library is missing (.ci/run installs libcairo2)
        pytest.skip("the Cairo library is not installed")
    render_test(lambda render_mode=None: env("sintra", render_mode=render_mode))
    e = make("pavilion", opponents=["greedy"], render_mode="rgb_array")
    check_env(e)
    e.reset(seed=1)
    frame = e.render()
    assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
    assert frame.shape[1] > 1000 and frame.std() > 10  # a drawing, not a blank page
    with pytest.raises(azul.OptionError, match="render_mode: 'rgb'"):
        make("pavilion", render_mode="rgb")


def test_gymnasium_registered_ids_take_options():
    import gymnasium

    e = gymnasium.make("azul/Pavilion-v0", opponents=["greedy"], players=3, board="grey")
    assert e.unwrapped.game.info.num_players == 3
    assert e.unwrapped.game.options["board"] == "grey"
    obs, _ = e.reset(seed=0)
    assert obs["observation"].shape == e.unwrapped.game.info.observation_shape
    assert gymnasium.make("azul/Sintra-v0", side="B").unwrapped.game.options["side"] == "B"
    with pytest.raises(azul.OptionError, match="side"):
        gymnasium.make("azul/Sintra-v0", side="Z")


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


@pytest.mark.parametrize("reward", ["win", "score", "score_change"])
def test_an_ended_episode_shows_no_legal_action_and_takes_no_step(reward):
    from gymnasium.error import ResetNeeded

    e = make("sintra", reward=reward)
    obs, _ = e.reset(seed=2)
    assert np.array_equal(e.action_masks(), obs["action_mask"].astype(bool))
    assert e.action_masks().dtype == np.bool_ and e.action_masks().any()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    obs, _, done, _, info = e.step(illegal)  # ended by an illegal action
    assert done and info["illegal"]
    assert not obs["action_mask"].any() and not e.action_masks().any()
    with pytest.raises(ResetNeeded, match="episode is over"):
        e.step(int(np.flatnonzero(e.observation_space["action_mask"].sample())[0]))
    e.reset(seed=2)
    rng = np.random.default_rng(0)
    done = False
    while not done:  # now to the game's own end
        obs, _, done, _, _ = e.step(int(rng.choice(np.flatnonzero(e.action_masks()))))
    assert e.state.is_terminal() and not obs["action_mask"].any()
    with pytest.raises(ResetNeeded, match="episode is over"):
        e.step(0)


@pytest.mark.parametrize("action", [3.7, 3.0, True, "3", np.float32(2.0), np.array([1.5])])
def test_a_non_integer_action_is_refused_and_changes_nothing(action):
    e = make("pavilion")
    obs, _ = e.reset(seed=1)
    before = e.state.to_json()
    with pytest.raises(TypeError, match="an action is an integer id"):
        e.step(action)
    assert e.state.to_json() == before
    legal = np.flatnonzero(obs["action_mask"])
    assert not e.step(np.array([legal[0]]))[2]  # a one-element integer array is an action


def test_the_batched_environment_refuses_float_actions():
    from azul.interop.vector import AzulVectorEnv

    envs = AzulVectorEnv(2, "pavilion")
    envs.reset(seed=0)
    with pytest.raises(TypeError, match="integer ids"):
        envs.step(np.array([3.7, 1.2]))


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_an_illegal_action_never_pays_under_score_rewards(game):
    # the worst legal end: the agent at the lowest score the game allows, an opponent at the
    # highest (GameInfo); an illegal action must end worse than that
    e = make(game, reward="score", opponents=["greedy"])
    info = e.game.info
    low = -info.max_score if info.min_score is None else info.min_score
    obs, _ = e.reset(seed=2)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, out = e.step(illegal)
    assert done and out["illegal"] and reward <= low - info.max_score
    e = make(game, reward="score", illegal_reward=-5.0)
    obs, _ = e.reset(seed=2)
    assert e.step(illegal)[1] == -5.0


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_clones_are_independent_copies(name):
    game = pyspiel.load_game(name)
    state = dealt(game)
    copy = state.clone()
    assert copy.history() == state.history() and copy.azul is not state.azul
    assert copy.azul.to_json() == state.azul.to_json()
    copy.apply_action(copy.legal_actions()[0])
    assert len(copy.history()) == len(state.history()) + 1
    assert copy.azul.to_json() != state.azul.to_json()


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_information_state_is_the_view_and_the_history(name):
    game = pyspiel.load_game(name)
    kind = game.get_type()
    assert kind.provides_information_state_string and kind.provides_information_state_tensor
    state = random_walk(game, 20, seed=3)
    for seat in range(game.num_players()):
        text = state.information_state_string(seat)
        view, history = text.rsplit("\n", 1)
        assert view == state.observation_string(seat)
        assert history.split()[1:] == [str(a) for a in state.history()]
    for seat in range(game.num_players()):
        tensor = state.information_state_tensor(seat)
        assert tensor == state.observation_tensor(seat)
        assert len(tensor) == game.information_state_tensor_size() > 0


def test_openspiel_rl_environment_reads_information_states():
    # rl_environment, which OpenSpiel's DQN and policy-gradient agents read, asks for the
    # information state tensor by default
    from open_spiel.python import rl_environment

    kind = rl_environment.ObservationType.INFORMATION_STATE
    game = pyspiel.load_game("azul_sintra")
    environment = rl_environment.Environment(game, observation_type=kind, seed=1)
    size = environment.observation_spec()["info_state"][0]
    assert size == environment.game.observation_tensor_size()
    step, rng, decisions = environment.reset(), np.random.default_rng(1), 0
    while not step.last():
        seat = step.observations["current_player"]
        assert len(step.observations["info_state"][seat]) == size
        step = environment.step([int(rng.choice(step.observations["legal_actions"][seat]))])
        decisions += 1
    assert decisions > 20 and sorted(step.rewards) in ([-1.0, 1.0], [0.0, 0.0])


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_saves_states_as_json_positions(name):
    # pyspiel pickles a Python state's attributes: ours hold the JSON position document, not
    # the engine's classes, and a document that breaks the rules is refused on loading
    game = pyspiel.load_game(name)
    state = dealt(game)
    state.apply_action(state.legal_actions()[0])
    text = pyspiel.serialize_game_and_state(game, state)
    payload = base64.b64decode(text.split("__dict__=")[1].strip())
    document = json.dumps(state.azul.to_json()).encode()
    assert document in payload and b"State" not in payload
    _, again = pyspiel.deserialize_game_and_state(text)
    assert again.azul.to_json() == state.azul.to_json() and again.history() == state.history()

    class Broken:  # the same document with a version this package does not read
        def __reduce__(self):
            doc = {**state.azul.to_json(), "version": 99}
            return openspiel._position_from_json, (json.dumps(doc),)

    broken = base64.b64encode(pickle.dumps({"_position": Broken()})).decode()
    head = text.split("__dict__=")[0]
    with pytest.raises(azul.PositionError, match="version"):
        pyspiel.deserialize_game_and_state(head + "__dict__=" + broken)


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_score_change_rewards_add_up_to_the_final_margin(game):
    e = make(game, reward="score_change", opponents=["greedy"])
    obs, _ = e.reset(seed=6)
    rng = np.random.default_rng(6)
    rewards, done = [], False
    while not done:
        obs, reward, done, _, info = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        rewards.append(reward)
    scores = info["scores"]
    assert sum(rewards) == pytest.approx(scores[0] - max(scores[1:]))
    assert sum(1 for r in rewards if r) > 1  # paid along the way, not only at the end
    # an illegal action: the episode's rewards add up to the illegal reward
    e = make(game, reward="score_change", opponents=["greedy"], illegal_reward=-500.0)
    obs, _ = e.reset(seed=6)
    total = 0.0
    for _ in range(10):
        obs, reward, done, _, _ = e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        total += reward
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, done, _, info = e.step(illegal)
    assert done and info["illegal"] and total + reward == pytest.approx(-500.0)


def test_a_random_seat_is_drawn_at_each_reset():
    e = make("pavilion", players=3, seat="random", opponents=["greedy"])
    seats = set()
    for seed in range(12):
        _, info = e.reset(seed=seed)
        seats.add(info["seat"])
        assert e.state.current_player() == info["seat"] == e.seat
    assert seats == {0, 1, 2}
    with pytest.raises(azul.OptionError, match="seat: 'any'"):
        make("pavilion", seat="any")


def test_openspiel_max_game_length_counts_decisions():
    # 2 players: each take moves at least one of the 6 x 5 x 4 tiles off the factories (rules
    # 1.3, 4); each seat at most 42 placements, 36 bonus picks and one pass a round
    game = pyspiel.load_game("azul_pavilion")
    assert game.max_game_length() == 6 * 5 * 4 + 2 * (42 + 36 + 6)


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_pettingzoo_draws_are_unpredictable_from_the_history(game):
    """With explicit chance every draw comes from the environment's seeded generator: a seed
    repeats them, and nothing an agent sees predicts them (a generator seeded by the history's
    length once predicted every one)."""

    def play(seed):
        e = env(game, explicit_chance=True)
        e.reset(seed=seed)
        draws = guessed = 0
        for _ in range(40):
            state = e.game_state
            guess = state.clone()
            guess.apply_action(state.legal_actions()[0])
            e.step(state.legal_actions()[0])
            rng = np.random.default_rng(len(guess.history()))
            for actual in state.history()[len(guess.history()) :]:
                outcomes, probs = zip(*guess.chance_outcomes(), strict=True)
                draws += 1
                guessed += int(rng.choice(outcomes, p=probs)) == actual
                guess.apply_action(actual)
        return state.history(), draws, guessed

    history, draws, guessed = play(7)
    assert play(7)[0] == history and play(8)[0] != history
    assert draws >= 10 and guessed < draws


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_a_reset_without_a_seed_deals_afresh(game):
    deals = set()
    for _ in range(3):
        e = env(game)
        e.reset()
        deals.add(json.dumps(e.game_state.to_json(), sort_keys=True))
    assert len(deals) == 3


@pytest.mark.parametrize("name", sorted(azul.GAMES))
def test_openspiel_parameters_are_the_games_options(name):
    game = pyspiel.load_game(f"azul_{name}")
    options = dict(azul.load_game(name).options)
    del options["explicit_chance"]  # the adapter's: every draw is a chance node
    if options["first_player"] is None:
        options["first_player"] = -1
    options = {k: v for k, v in options.items() if v is not None}  # pyspiel has no None
    assert game.get_parameters() == options
    assert game.azul.options["explicit_chance"] is True


def test_openspiel_sets_any_rule_option():
    game = pyspiel.load_game("azul_pavilion", {"round6_leftovers": "at_pass", "players": 3})
    assert game.azul.options["round6_leftovers"] == "at_pass"
    assert game.new_initial_state().azul.game.options["round6_leftovers"] == "at_pass"
    assert "round6_leftovers=at_pass" in str(game)
    with pytest.raises(azul.OptionError, match="round6_leftovers"):
        pyspiel.load_game("azul_pavilion", {"round6_leftovers": "never"})
    again = pyspiel.load_game(str(game))
    assert again.azul.options == game.azul.options


def test_openspiel_takes_a_game_registered_later():
    azul.GAMES.register("mini", "tests.minigame:MiniGame")
    try:
        openspiel.register()
        game = pyspiel.load_game("azul_mini")
        assert game.get_parameters() == {"players": 2, "first_player": 0}
        assert game.get_type().min_num_players == game.get_type().max_num_players == 2
        pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
    finally:
        azul.GAMES.unregister("mini")


@pytest.mark.parametrize("name", NAMES)
def test_openspiel_observation_string_is_the_public_view(name):
    game = pyspiel.load_game(name, {"first_player": 1})
    state = random_walk(game, 30, seed=2)
    for seat in range(game.num_players()):
        head, text = state.observation_string(seat).split("\n", 1)
        assert head == f"seat {seat}"
        assert json.loads(text) == state.azul.public_view(seat)
        assert "rng" not in json.loads(text)


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_what_agents_see_does_not_depend_on_the_generator(game):
    """Observations and renderings show no trace of the generator's state (which predicts
    every draw): another generator, the same observations."""
    e = env(game, render_mode="ansi")
    e.reset(seed=5)
    g = make(game, render_mode="ansi")
    g.reset(seed=5)
    before = (e.render(), e.observe("player_1"), g.render(), observation(g.state, 0))
    e.game_state.reseed(123456789)
    g.state.reseed(987654321)
    after = (e.render(), e.observe("player_1"), g.render(), observation(g.state, 0))
    assert before[0] == after[0] and before[2] == after[2]
    assert all(np.array_equal(before[1][k], after[1][k]) for k in before[1])
    assert np.array_equal(before[3], after[3])


def test_the_environments_ask_for_a_reset_first():
    from gymnasium.error import ResetNeeded

    e = env("pavilion")
    with pytest.raises(ResetNeeded):
        e.game_state  # noqa: B018
    assert env("pavilion", render_mode="ansi").render() is None
    with pytest.raises(ResetNeeded):
        make("pavilion").step(0)


def test_the_batched_environment_steps_games_together():
    import gymnasium

    from azul.interop.vector import AzulVectorEnv

    envs = gymnasium.make_vec("azul/Sintra-v0", num_envs=4, reward="score", opponents=["greedy"])
    assert isinstance(envs, AzulVectorEnv)
    obs, info = envs.reset(seed=3)
    size = envs.game.info.num_distinct_actions
    assert obs["observation"].shape == (4, *envs.game.info.observation_shape)
    assert obs["action_mask"].shape == (4, size) and list(info["seat"]) == [0, 0, 0, 0]
    rng = np.random.default_rng(3)
    totals, finals = np.zeros(4), []
    for _ in range(400):
        # each row is its game's observation from the agent's seat, with a legal action
        for i, state in enumerate(envs.states):
            assert np.array_equal(obs["observation"][i], observation(state, 0))
            assert obs["action_mask"][i].any()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        before = list(envs.states)
        obs, rewards, terminated, truncated, info = envs.step(actions)
        assert not truncated.any()
        totals += rewards
        if not terminated.any():
            assert info == {}
            continue
        # Gymnasium's same-step autoreset: the ended games' last observations and infos
        for key in ("final_obs", "final_info", "seat"):
            assert list(info["_" + key]) == list(terminated)
        final = info["final_info"]
        assert list(final["_scores"]) == list(terminated) and "illegal" not in final
        for i in np.flatnonzero(terminated):
            last = info["final_obs"][i]
            assert before[i].is_terminal() and envs.states[i] is not before[i]
            assert np.array_equal(last["observation"], observation(before[i], 0))
            assert not last["action_mask"].any()
            scores = final["scores"][i]
            assert list(scores) == list(before[i].scores())
            # reward="score": the margin, paid when the game ends
            finals.append((rewards[i], scores[0] - scores[1]))
        assert all(o is None for o in info["final_obs"][~terminated])
    assert len(finals) >= 4 and all(r == margin for r, margin in finals)
    again = gymnasium.make_vec("azul/Sintra-v0", num_envs=4, reward="score")
    first = again.reset(seed=3)[0]["observation"]
    assert np.array_equal(first, again.reset(seed=3)[0]["observation"])


def test_the_batched_environment_refuses_an_illegal_batch_whole():
    import gymnasium

    envs = gymnasium.make_vec("azul/Pavilion-v0", num_envs=3, illegal="raise")
    obs, _ = envs.reset(seed=1)

    def positions():  # the games' states are the compiled core's when there is one
        return [(s.to_state() if envs.core else s).to_json() for s in envs.states]

    before = positions()
    legal = [int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]
    illegal = int(np.flatnonzero(obs["action_mask"][2] == 0)[0])
    with pytest.raises(azul.IllegalMoveError, match="game 2"):
        envs.step(np.array([legal[0], legal[1], illegal]))
    assert positions() == before
    with pytest.raises(azul.OptionError, match="shape"):
        envs.step(np.array(legal[:2]))
    with pytest.raises(azul.OptionError, match="num_envs"):
        gymnasium.make_vec("azul/Pavilion-v0", num_envs=0)
    # by default an illegal action ends that game alone, with the illegal reward
    envs = gymnasium.make_vec("azul/Pavilion-v0", num_envs=3, illegal_reward=-7.0)
    obs, _ = envs.reset(seed=1)
    _, rewards, terminated, _, info = envs.step(np.array([legal[0], legal[1], illegal]))
    assert list(terminated) == [False, False, True] and rewards[2] == -7.0
    final = info["final_info"]
    assert list(final["_illegal"]) == [False, False, True] and not final["_scores"].any()
    assert isinstance(final["illegal"][2], str) and final["illegal"][2]
    assert not info["final_obs"][2]["action_mask"].any()
