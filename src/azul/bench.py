"""``azul bench``: random games to measure the engine's speed (figures, never asserts)."""

from __future__ import annotations

import random
import time
import timeit
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from azul.core.api import Game, State
from azul.i18n import _

HIDDEN = (64, 64)  # the hidden layers of the measured network where the game ships none


@dataclass
class BenchResult:
    games: int
    steps: int
    seconds: float
    mean_legal: float
    clone_us: float

    @property
    def steps_per_second(self) -> float:
        return self.steps / self.seconds

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds

    def lines(self) -> list[str]:
        """The figures, one per line, labelled in the current language."""
        rows = [
            (_("games"), f"{self.games}"),
            (
                _("steps"),
                _("{steps} ({per:.1f} per game)").format(
                    steps=self.steps, per=self.steps / self.games
                ),
            ),
            ("steps/s", f"{self.steps_per_second:,.0f}"),
            ("games/s", f"{self.games_per_second:,.1f}"),
            (_("mean legal"), _("{n:.1f} actions per decision").format(n=self.mean_legal)),
            ("clone()", f"{self.clone_us:.2f} us"),
        ]
        return [f"{label:<16} {value}" for label, value in rows]


def bench(
    game: Game[Any], games: int = 200, seed: int = 0, new_state: Callable[[int], Any] | None = None
) -> BenchResult:
    """Play ``games`` random games; a step is one legal_actions() + choice + apply_action().
    ``new_state(seed)`` makes the states (default: the game's; a compiled core's ``new``)."""
    new_state = new_state or game.new_initial_state
    rng = random.Random(seed)
    samples: list[State] = []
    steps = legal_total = 0
    start = time.perf_counter()
    for g in range(games):
        state = new_state(seed + g)
        while not state.is_terminal():
            legal = state.legal_actions()
            legal_total += len(legal)
            state.apply_action(rng.choice(legal))
            steps += 1
            if steps % 97 == 0:  # mid-game positions for timing clone()
                samples.append(state.clone())
    seconds = time.perf_counter() - start
    samples = samples or [new_state(seed)]
    rounds = max(1, 20_000 // len(samples))
    best = min(timeit.repeat(lambda: [s.clone() for s in samples], number=rounds, repeat=3))
    clone_us = best / (rounds * len(samples)) * 1e6
    return BenchResult(games, steps, seconds, legal_total / max(steps, 1), clone_us)


@dataclass
class Comparison:
    """The Python engine and the game's compiled core on the same random games."""

    python: BenchResult  # the public API on the Python engine (engine="python")
    api: BenchResult  # the public API on the compiled core (load_game's default)
    native: BenchResult  # the core's own objects driven from Python by the same loop
    playout_steps: int  # whole random games played in C (Core.playout)
    playout_seconds: float
    heuristic_python: float  # heuristic bot decisions per second on the Python engine
    heuristic_native: float  # the same decisions on compiled states
    mcts_python: float  # MCTS iterations per second, searching in Python
    mcts_native: float  # the same searches on the compiled core (the same decisions)
    mcts_learned: float | None = None  # the compiled searches with a value network at the leaves
    network: str = ""  # which network: the shipped one, or random weights of its shape

    def lines(self) -> list[str]:
        def times(x: float) -> str:
            return _("{x:.1f} times the Python engine").format(x=x)

        py = self.python.steps_per_second
        playouts = self.playout_steps / self.playout_seconds
        rows = [
            (_("Python"), f"{py:,.0f} steps/s, clone() {self.python.clone_us:.2f} us"),
            (
                _("public API"),
                f"{self.api.steps_per_second:,.0f} steps/s ("
                + times(self.api.steps_per_second / py)
                + f"), clone() {self.api.clone_us:.3f} us",
            ),
            (
                _("compiled core"),
                f"{self.native.steps_per_second:,.0f} steps/s ("
                + times(self.native.steps_per_second / py)
                + f"), clone() {self.native.clone_us:.3f} us",
            ),
            (_("playouts in C"), f"{playouts:,.0f} steps/s (" + times(playouts / py) + ")"),
            (
                _("heuristic bot"),
                _("{n:,.0f} decisions/s").format(n=self.heuristic_native)
                + f" ({times(self.heuristic_native / self.heuristic_python)})",
            ),
            (_("MCTS"), _("{n:,.0f} iterations/s in Python").format(n=self.mcts_python)),
            (
                _("MCTS compiled"),
                _("{n:,.0f} iterations/s").format(n=self.mcts_native)
                + f" ({times(self.mcts_native / self.mcts_python)})",
            ),
        ]
        if self.mcts_learned is not None:
            share = self.mcts_learned / self.mcts_native
            rows.append(
                (
                    _("MCTS learned"),
                    _("{n:,.0f} iterations/s").format(n=self.mcts_learned)
                    + f" ({share:.0%}), {self.network}",
                )
            )
        return [f"{label:<16} {value}" for label, value in rows]


def compare(game: Game[Any], compiled: Any, python: BenchResult, seed: int = 0) -> Comparison:
    """On the games of ``python`` (the Python engine's run: same deals, same choices):
    ``bench`` of ``game``'s states on its ``compiled`` core (``Game.compiled()``) through the
    public API, and of the core's own objects; whole playouts in C from the same deals; the
    heuristic bot's decisions on both engines; and the same MCTS searches in Python (on the
    Python engine) and in C."""
    core = compiled.Core
    games = python.games
    reference = game.on_python()
    api = bench(game, games, seed, lambda s: core_state(game, core.new(game, s)))
    native = bench(game, games, seed, lambda s: core.new(game, s))
    starts = [core.new(game, seed + g) for g in range(games)]
    start = time.perf_counter()
    steps = sum(state.playout(seed + g) for g, state in enumerate(starts))
    seconds = time.perf_counter() - start
    decisions = _positions(reference, seed, count=40)
    heuristic = (_heuristic(decisions), _heuristic([game.on_engine(s) for s in decisions]))
    positions = _positions(game, seed, count=8)
    hand = _mcts(positions, True)
    learned, network = _learned(game, positions)
    slow = _mcts([s.reference().clone() for s in positions], False)
    return Comparison(python, api, native, steps, seconds, *heuristic, slow, hand, learned, network)


def core_state(game: Game[Any], core: Any) -> State:
    """The public state of ``game`` on ``core``."""
    state: State = game.compiled_state(core)
    return state


def _heuristic(positions: list[State]) -> float:
    """The heuristic bot's decisions per second over ``positions`` (seeded)."""
    from azul.bots.heuristic import HeuristicBot

    bot = HeuristicBot(seed=1)
    start = time.perf_counter()
    for state in positions:
        bot.choose(state)
    return len(positions) / (time.perf_counter() - start)


def _learned(game: Game[Any], positions: list[State]) -> tuple[float | None, str]:
    """MCTS iterations per second in C with the game's shipped value network at the leaves,
    or one of random weights and the training's default shape where none ships (the speed is
    the same); None without numpy."""
    import importlib.util

    if importlib.util.find_spec("numpy") is None:
        return None, ""
    from azul.bots.evaluation import value_net
    from azul.learn import net

    shipped = value_net(game, "auto")
    if shipped is not None:
        found = _("generation {n}").format(n=shipped.meta["generation"])
    else:
        shipped, found = net.random_net(game, HIDDEN), _("random weights")
    hidden = "x".join(map(str, shipped.hidden)) or "0"
    label = _("network {hidden} hidden ({found})").format(hidden=hidden, found=found)
    return _mcts(positions, True, weights=shipped), label


def _positions(game: Game[Any], seed: int, count: int) -> list[State]:
    """Decisions from random games, one every 15 steps or so, for the searches."""
    rng = random.Random(seed)
    found: list[State] = []
    g = 0
    while len(found) < count:
        state = game.new_initial_state(seed + g)
        g += 1
        while not state.is_terminal() and len(found) < count:
            state.apply_action(rng.choice(state.legal_actions()))
            if not state.is_chance_node() and rng.random() < 1 / 15:
                found.append(state.clone())
    return found


def _mcts(
    positions: list[State], native: bool, iterations: int = 400, weights: Any = None
) -> float:
    """MCTS iterations per second over ``positions`` (fixed seed and iterations), with the
    hand evaluation or the value network ``weights`` (an ``azul.learn.net.Net``)."""
    from azul.bots.mcts import MCTSBot

    leaves = {"eval": "hand"} if weights is None else {"weights": weights}
    start = time.perf_counter()
    for state in positions:
        bot = MCTSBot(seed=1, iterations=iterations, native=native, endgame=False, **leaves)
        bot.search(state, None, iterations)
    return iterations * len(positions) / (time.perf_counter() - start)
