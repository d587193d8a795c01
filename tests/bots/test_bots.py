"""Bots: the protocol, determinism, limits, legality everywhere, and small sanity matches."""

import multiprocessing
import random
import subprocess
import sys
import time

import pytest

import azul
from azul.arena.match import play_game, schedule
from azul.bots import Limit, make
from azul.bots.mcts import MCTSBot
from azul.bots.spec import BotSpec
from azul.testing import play_random

CHEAP = {"random": {}, "greedy": {}, "heuristic": {}, "mcts": {"iterations": 30}}


def positions(name, count, seed=0, **options):
    """Player-to-move positions from random games (chance settled)."""
    game = azul.load_game(name, **options)
    rng = random.Random(seed)
    out = []
    g = 0
    while len(out) < count:
        state = game.new_initial_state(seed + g)
        g += 1
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(outcomes, probs)[0])
                continue
            if rng.random() < 0.08:
                out.append(state.clone())
            state.apply_action(rng.choice(state.legal_actions()))
    return out[:count]


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
@pytest.mark.parametrize("bot", sorted(CHEAP))
def test_bots_only_choose_legal_actions(game, bot):
    b = make(bot, seed=3, **CHEAP[bot])
    for state in positions(game, 25, players=3) + positions(game, 10, explicit_chance=True):
        action = b.choose(state)
        assert action in state.legal_actions()


@pytest.mark.parametrize("bot", sorted(CHEAP))
def test_analyse_ranks_every_legal_action(bot):
    b = make(bot, seed=1, **CHEAP[bot])
    for state in positions("pavilion", 6, seed=4):
        cands = b.analyse(state)
        assert sorted(c.action for c in cands) == state.legal_actions()
        assert all(c.move == state.action_to_string(c.action) for c in cands)
        key = (lambda c: c.visits) if bot == "mcts" else (lambda c: c.value)
        assert [key(c) for c in cands] == sorted((key(c) for c in cands), reverse=True)
        assert b.choose(state) in state.legal_actions()


@pytest.mark.parametrize("bot", sorted(CHEAP))
def test_deterministic_under_a_seed(bot):
    states = positions("sintra", 5, seed=2) + positions("pavilion", 5, seed=2)
    a = [make(bot, seed=9, **CHEAP[bot]).choose(s) for s in states]
    b = [make(bot, seed=9, **CHEAP[bot]).choose(s) for s in states]
    assert a == b


@pytest.mark.parametrize("bot", ["greedy", "heuristic", "mcts"])
def test_bots_never_read_the_generator(bot):
    """Two states that differ only in the hidden generator state get the same answer."""
    for state in positions("pavilion", 5, seed=5):
        other = state.clone()
        other.reseed(123456)
        assert make(bot, seed=4, **CHEAP[bot]).choose(state) == make(
            bot, seed=4, **CHEAP[bot]
        ).choose(other)


def test_mcts_honours_its_time_limit():
    state = positions("pavilion", 1, seed=6)[0]
    bot = make("mcts", seed=1, iterations=None, time=0.05)
    start = time.perf_counter()
    bot.choose(state)
    assert time.perf_counter() - start < 0.5  # one iteration past the deadline at most
    start = time.perf_counter()
    bot.choose(state, Limit(time=0.1))
    assert time.perf_counter() - start < 0.6


def test_mcts_iterations_and_tree_reuse():
    game = azul.load_game("pavilion", first_player=0)
    state = game.new_initial_state(3)
    bot = MCTSBot(seed=2, iterations=200, native=False)  # the Python tree (tests/native: C's)
    cands = bot.analyse(state)
    assert sum(c.visits for c in cands) == 200
    action = cands[0].action
    state.apply_action(action)
    replies = bot._tree[1].children[action].children  # the opponent's replies it searched
    reply = max(replies, key=lambda a: replies[a].visits)
    state.apply_action(reply)
    kept = bot._reused_root(state)
    assert kept is replies[reply] and kept.visits > 0  # the subtree of the moves played was kept


def test_root_parallel_search_shares_the_iterations_and_is_deterministic():
    """Two processes split an iteration limit, add up their roots, and give the same answer
    again under the same seed; the helper keeps its tree between moves; close stops it."""
    game = azul.load_game("pavilion", first_player=0)
    state = game.new_initial_state(3)
    bot = MCTSBot(seed=5, iterations=301, workers=2)
    try:
        first = bot.analyse(state)
        assert sum(c.visits for c in first) == 301
        again = MCTSBot(seed=5, iterations=301, workers=2)
        try:
            assert again.analyse(state) == first
        finally:
            again.close()
        # the same position again: both trees are reused, so the visits add up
        assert sum(c.visits for c in bot.analyse(state)) == 602
        helpers = len(multiprocessing.active_children())
        bot.close()
        assert len(multiprocessing.active_children()) == helpers - 1
    finally:
        bot.close()


def test_root_parallel_search_honours_its_time_limit():
    state = positions("sintra", 1, seed=6)[0]
    bot = make("mcts", seed=1, iterations=None, time=0.1, workers=2)
    try:
        bot.choose(state)  # starts the helper
        start = time.perf_counter()
        cands = bot.analyse(state)
        assert time.perf_counter() - start < 0.6
        assert sum(c.visits for c in cands) > 1
    finally:
        bot.close()


def test_root_parallel_search_without_a_main_guard_names_the_fix(tmp_path):
    script = tmp_path / "unguarded.py"
    script.write_text(
        "import azul\n"
        "from azul.bots import make\n"
        "state = azul.load_game('pavilion').new_initial_state(1)\n"
        "try:\n"
        "    make('mcts', iterations=50, workers=2).analyse(state)\n"
        "except azul.AzulError as e:\n"
        "    print('AzulError:', e)\n"
    )
    run = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=120, cwd=tmp_path
    )
    assert "AzulError: an MCTS helper process stopped" in run.stdout
    assert "__main__" in run.stdout


def test_limits_and_options_are_checked():
    with pytest.raises(azul.AzulError, match="time limit"):
        Limit(time=0)
    with pytest.raises(azul.AzulError, match="iteration limit"):
        Limit(iterations=0)
    with pytest.raises(azul.OptionError, match="unknown bot 'deep'"):
        make("deep")
    with pytest.raises(azul.OptionError, match="bot 'greedy'"):
        make("greedy", depth=3)
    with pytest.raises(azul.AzulError, match="needs an iteration or a time limit"):
        make("mcts", iterations=None, time=None)
    for workers in (0, 1.5, True):
        with pytest.raises(azul.AzulError, match="workers"):
            make("mcts", workers=workers)
    terminal = play_random(azul.load_game("sintra"), seed=1)
    with pytest.raises(azul.AzulError, match="only for a player to move"):
        make("greedy").choose(terminal)


def wins_of(game, a, b, deals):
    total = {a: 0.0, b: 0.0}
    for seed, seats in schedule([BotSpec.parse(a), BotSpec.parse(b)], 2, deals, 500):
        r = play_game(game, {}, seats, seed)
        for i in r.winners:
            total[r.seats[i]] += 1 / len(r.winners)
    return total


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_greedy_beats_random(game):
    w = wins_of(game, "greedy", "random", 10)
    assert w["greedy"] >= 18  # of 20 games


@pytest.mark.parametrize("game", ["pavilion", "sintra"])
def test_heuristic_beats_greedy(game):
    w = wins_of(game, "heuristic", "greedy", 5)
    assert w["heuristic"] >= 7  # of 10 games


@pytest.mark.parametrize("engine", ["compiled", "python"])
@pytest.mark.parametrize("bot", ["heuristic", "builder"])
def test_a_one_ply_bots_choice_is_its_analysis_first_with_the_same_draws(bot, engine):
    # choose() skips the candidates' notation; what it plays and the draws it makes are
    # analyse()'s, so a game is the same whichever of the two a caller uses
    state = azul.load_game("pavilion", engine=engine).new_initial_state(4)
    rng = random.Random(2)
    for step in range(40):
        if state.is_terminal():
            break
        chooser, analyst = make(bot, seed=step), make(bot, seed=step)
        assert chooser.choose(state) == analyst.analyse(state)[0].action, step
        assert chooser.rng.random() == analyst.rng.random()
        state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", ["pavilion", "sintra"])
def test_the_heuristic_bot_values_its_moves_in_c_as_in_python(name):
    # on a compiled state the game evaluates every candidate in one call into its core; the
    # values, their order and the bot's draws are those of the Python engine move by move
    from azul.core.compiled import compiled_core

    compiled, python = (azul.load_game(name, players=3, engine=e) for e in ("compiled", "python"))
    if compiled.engine != "compiled":
        pytest.skip("the compiled cores are not built here")
    a, b = compiled.new_initial_state(5), python.new_initial_state(5)
    assert compiled_core(a) is not None and compiled_core(b) is None
    strategy = compiled.strategy()
    rng = random.Random(1)
    for step in range(60):
        if a.is_terminal():
            break
        if step % 6 == 0:
            seeds = [rng.getrandbits(63) for _ in a.legal_actions()]
            assert strategy.evaluate_children(a, a.current_player(), seeds) is not None
            assert strategy.evaluate_children(b, b.current_player(), seeds) is None
            mine, theirs = make("heuristic", seed=step), make("heuristic", seed=step)
            values = [(c.action, c.value) for c in mine.analyse(a)]
            assert values == [(c.action, c.value) for c in theirs.analyse(b)]
            assert mine.rng.random() == theirs.rng.random()  # the same draws were made
        action = rng.choice(a.legal_actions())
        a.apply_action(action)
        b.apply_action(action)
