"""The compiled cores against the Python engines, the reference (azul.native)."""

import pytest

import azul
from azul import native
from azul.core.errors import IllegalMoveError

if native.pure():
    pytest.skip("AZUL_PURE_PYTHON is set: the Python engines only", allow_module_level=True)

CORES = {name: native.core(name) for name in native.cores()}
if None in CORES.values():
    pytest.fail("a compiled core was not built (pip install -e . builds them)", False)
Core = CORES["sintra"]

# 50,000 random steps a game in the suite, over every rule option that changes the play; the long
# run is a command: python -m azul.native --steps 1000000
OPTIONS = [
    ("sintra", {}, 12_500),
    ("sintra", {"players": 3}, 6_250),
    ("sintra", {"players": 4}, 6_250),
    ("sintra", {"explicit_chance": True}, 10_000),
    ("sintra", {"players": 4, "explicit_chance": True, "side": "B"}, 7_500),
    ("sintra", {"side": "B", "first_player": 1}, 3_750),
    ("sintra", {"score_floor": 0, "players": 3}, 3_750),
    ("pavilion", {}, 12_500),
    ("pavilion", {"players": 3}, 6_250),
    ("pavilion", {"players": 4, "board": "grey"}, 6_250),
    ("pavilion", {"explicit_chance": True}, 10_000),
    ("pavilion", {"players": 4, "explicit_chance": True, "round6_leftovers": "at_pass"}, 7_500),
    ("pavilion", {"board": "grey", "first_player": 1}, 3_750),
    ("pavilion", {"score_floor": 0, "players": 3}, 3_750),
]


@pytest.mark.parametrize(
    ("name", "options", "steps"), OPTIONS, ids=[f"{n} {o}" for n, o, _ in OPTIONS]
)
def test_the_core_plays_exactly_as_the_python_engine(name, options, steps):
    done, games = native.differential(azul.load_game(name, **options), steps, seed=11)
    assert done >= steps and games >= steps // 1_000


@pytest.mark.parametrize("name", native.cores())
def test_the_steps_add_up_to_fifty_thousand_a_game(name):
    assert sum(steps for n, _, steps in OPTIONS if n == name) >= 50_000


@pytest.mark.parametrize("name", native.cores())
def test_a_clone_is_independent_and_refusals_change_nothing(name):
    game = azul.load_game(name)
    state = CORES[name].new(game, 4)
    copy = state.clone()
    copy.apply_action(copy.legal_actions()[-1])
    assert state.to_state().to_json() == game.new_initial_state(4).to_json()
    assert copy.history() != state.history()
    with pytest.raises(IllegalMoveError, match="outside"):
        state.apply_action(10_000)
    assert state.to_state().to_json() == game.new_initial_state(4).to_json()


@pytest.mark.parametrize("name", native.cores())
def test_a_playout_ends_the_game(name):
    state = CORES[name].new(azul.load_game(name, players=4), 9)
    steps = state.playout(1)
    assert state.is_terminal() and steps == len(state.history()) > 0
    assert len(state.to_state().score_breakdown()) == 4


def test_the_check_catches_a_core_that_differs():
    class Liar:
        """The real core, but it reports one point too many."""

        def __init__(self, inner):
            self.inner = inner

        @classmethod
        def new(cls, game, seed):
            return cls(Core.new(game, seed))

        def scores(self):
            return [s + 1 for s in self.inner.scores()]

        def __getattr__(self, name):
            return getattr(self.inner, name)

    with pytest.raises(native.Divergence, match="step 0: scores"):
        native.differential(azul.load_game("sintra"), 10, native_class=Liar)


def test_pure_python_is_forced_by_the_environment(monkeypatch):
    monkeypatch.setenv(native.PURE, "1")
    assert native.core("sintra") is None
    with pytest.raises(native.Divergence, match="sintra: AZUL_PURE_PYTHON is set"):
        native.differential(azul.load_game("sintra"), 10)
    monkeypatch.setenv(native.PURE, "0")
    assert native.core("sintra") is Core


def test_bench_compares_the_cores_with_the_python_engines(capsys, monkeypatch):
    from azul import cli

    assert cli.main(["--lang", "en", "bench", "sintra", "--games", "3", "--compare"]) == 0
    out = capsys.readouterr().out
    assert "compiled core" in out and "times the Python engine" in out and "playouts in C" in out
    assert "MCTS compiled" in out and "iterations/s (" in out
    assert native.missing("minigame") == "this game has no compiled core yet"
    monkeypatch.setenv(native.PURE, "1")
    assert cli.main(["--lang", "en", "bench", "sintra", "--games", "1", "--compare"]) == 0
    assert "AZUL_PURE_PYTHON is set: the Python engine only" in capsys.readouterr().out


@pytest.mark.parametrize("name", native.cores())
def test_the_batched_environment_steps_in_c_as_the_engine_would(name):
    import gymnasium
    import numpy as np

    from azul.interop.gym import env_id
    from azul.interop.observation import action_mask, observation

    kwargs = {"num_envs": 4, "reward": "score_change", "seat": "random", "render_mode": "ansi"}
    envs = gymnasium.make_vec(env_id(name), **kwargs)
    assert envs.core is CORES[name]
    obs, info = envs.reset(seed=5)
    seats = list(info["seat"])
    rng = np.random.default_rng(5)
    totals, finals = np.zeros(4), 0
    for _ in range(500):
        for i, state in enumerate(envs.states):
            python = state.to_state()
            assert python.current_player() == seats[i]
            assert np.array_equal(obs["observation"][i], observation(python, seats[i]))
            assert np.array_equal(obs["action_mask"][i], action_mask(python))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in obs["action_mask"]])
        obs, rewards, terminated, _, info = envs.step(actions)
        totals += rewards
        for i in np.flatnonzero(terminated):  # score_change adds up to the final margin
            scores = info["final_info"]["scores"][i]
            margin = scores[seats[i]] - max(np.delete(scores, seats[i]))
            assert totals[i] == pytest.approx(margin)
            totals[i], finals = 0, finals + 1
            seats[i] = info["seat"][i]
            assert seats[i] == envs.episodes[i].seat
    assert finals >= 2 and "round" in envs.render()[0].lower()
    first = envs.reset(seed=5)[0]["observation"]
    assert np.array_equal(first, envs.reset(seed=5)[0]["observation"])
    # an illegal action ends that game with the engine's explanation
    _, rewards, terminated, _, info = envs.step(np.array([10_000] * 4))
    assert terminated.all() and "outside" in info["final_info"]["illegal"][0]
    python = gymnasium.make_vec(env_id(name), num_envs=2, native=False)
    greedy = gymnasium.make_vec(env_id(name), num_envs=2, opponents=["greedy"])
    assert python.core is None and greedy.core is None


def test_the_vector_benchmark_measures_both_engines():
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "vector.py"
    run = subprocess.run(
        [sys.executable, str(script), "--game", "pavilion", "--envs", "4", "--steps", "200"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    assert "(compiled core)" in run.stdout and "(Python engine)" in run.stdout


@pytest.mark.parametrize(
    ("name", "options", "moves"),
    [
        ("sintra", {}, 1000),
        ("sintra", {"players": 3, "side": "B", "explicit_chance": True}, 40),
        ("pavilion", {}, 1000),
        ("pavilion", {"players": 3, "board": "grey", "explicit_chance": True}, 30),
    ],
    ids=["sintra", "sintra 3 players, side B, explicit", "pavilion", "pavilion 3, grey, explicit"],
)
def test_mcts_searches_in_c_with_the_same_decisions(name, options, moves):
    """Fixed seed and iterations: the compiled search ranks every move as the Python search
    does, with the same visits and values, the trees kept between moves (a whole game); on the
    hand evaluation, which both compute alike to the bit (with a network: tests/bots/
    test_learned.py, to float32 rounding)."""
    import random

    from azul.bots.mcts import MCTSBot

    game = azul.load_game(name, **options)
    state = game.new_initial_state(7)
    fast = MCTSBot(seed=3, iterations=150, eval="hand")
    slow = MCTSBot(seed=3, iterations=150, eval="hand", native=False)
    chance = random.Random(7)
    played = 0
    while not state.is_terminal() and played < moves:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, probs)[0])
            continue
        ranked = [(c.action, c.visits, c.value) for c in fast.analyse(state)]
        assert ranked == [(c.action, c.visits, c.value) for c in slow.analyse(state)]
        state.apply_action(ranked[0][0])
        played += 1
    assert played >= min(moves, 60)
    assert fast._tree is not None and type(fast._tree[1]).__name__ == "Tree"  # searched in C


@pytest.mark.parametrize("name", native.cores())
def test_cores_and_their_games_pickle(name):
    import pickle

    game = azul.load_game(name, players=3)
    state = CORES[name].new(game, 2)
    state.playout(5)
    again = pickle.loads(pickle.dumps(state))
    assert again.to_state().to_json() == state.to_state().to_json()
    copied = pickle.loads(pickle.dumps(game))  # its cached tables are made again
    assert CORES[name].new(copied, 2).legal_actions() == CORES[name].new(game, 2).legal_actions()


def test_the_longer_run_is_one_command(capsys):
    native.main(["--game", "pavilion", "--steps", "200"])
    out = capsys.readouterr().out
    assert out.count("the same") == 4 and "pavilion {'players': 4}" in out


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("sintra", {}),
        ("sintra", {"players": 3, "side": "B"}),
        ("pavilion", {}),
        ("pavilion", {"players": 3, "board": "grey", "round6_leftovers": "at_pass"}),
    ],
)
def test_the_compiled_evaluation_gives_the_same_floats(name, options):
    import random

    game = azul.load_game(name, **options)
    python = game.strategy().evaluate_leaf
    rng = random.Random(2)
    compared = 0
    for seed in range(8):
        state = CORES[name].new(game, seed)
        while True:
            position = state.to_state()
            for seat in range(game.num_players()):
                assert state.evaluate(seat) == python(position, seat)
                compared += 1
            if state.is_terminal():
                break
            state.apply_action(rng.choice(state.legal_actions()))
    assert compared > 1_000
