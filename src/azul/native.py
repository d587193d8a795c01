"""The compiled cores, and their check against the Python engines.

Each game has a compiled core (``azul/<game>/_core.pyx``, translated by Cython and built by the
machine's C compiler when the package is installed): a ``Core`` class with the state's hot
methods (``legal_actions``, ``apply_action``, ``clone``, ``chance_outcomes``, ``scores``) on C
arrays, ``Core.new(game, seed)`` dealing as ``game.new_initial_state(seed)`` does,
``Core.from_state`` and ``to_state`` to cross to and from the Python state, ``playout(seed)``
(a whole random game in C), ``advance``, ``observe`` and ``mask`` for the batched environment,
``evaluate`` (the bots' search evaluation), and ``Tree`` and ``search`` for the MCTS bot
(``azul/core/_search.pxi``). The Python engines stay the reference: ``differential`` compares a
core with its engine step by step. Without a compiler, or with ``AZUL_PURE_PYTHON=1``,
``module`` and ``core`` return None and everything runs in Python.
"""

from __future__ import annotations

import importlib
import json
import os
import random
from typing import Any

from azul.core.api import Game
from azul.core.errors import IllegalMoveError
from azul.i18n import N_

PURE = "AZUL_PURE_PYTHON"  # set to 1: never use a compiled core
CORES = ("pavilion", "sintra")  # the games with a compiled core


def pure() -> bool:
    """Whether ``AZUL_PURE_PYTHON`` asks for the Python engines only."""
    return os.environ.get(PURE, "") not in ("", "0")


def missing(game: str) -> str:
    """Why ``core(game)`` is None, an English message to translate."""
    if game not in CORES:
        return N_("this game has no compiled core yet")
    if pure():
        return N_("AZUL_PURE_PYTHON is set: the Python engine only")
    return N_("the compiled core is not built (it needs Cython and a C compiler at install)")


def module(game: str) -> Any:
    """The compiled core's module of ``game`` (a registered name): its ``Core`` class, and
    ``Tree`` and ``search`` for the MCTS bot; or None: not built, or ``AZUL_PURE_PYTHON`` is
    set."""
    if pure() or game not in CORES:
        return None
    try:
        return importlib.import_module(f"azul.{game}._core")
    except ImportError:
        return None


def core(game: str) -> Any:
    """The compiled ``Core`` class of ``game``, or None (see ``module``)."""
    found = module(game)
    return None if found is None else found.Core


class Divergence(AssertionError):
    """A compiled core and its Python engine disagreed."""


def _same(step: int, what: str, python: Any, native: Any) -> None:
    if python != native:
        raise Divergence(f"step {step}: {what}: Python {python!r}, compiled {native!r}")


def _position(state: Any) -> str:
    return json.dumps(state.to_json(), sort_keys=True)


def differential(
    game: Game[Any], steps: int, seed: int = 0, reload: int = 50, native_class: Any = None
) -> tuple[int, int]:
    """Play random games in the Python engine and the compiled core side by side, until at
    least ``steps`` steps were compared; returns (steps, games). At every step: the legal
    actions, the chance outcomes, the scores, the whole position (its JSON document), and an
    illegal action refused by both with the same message and no change; every ``reload`` steps
    the core goes on from the position read back from JSON. Each game ends with a core
    playout from a mid-game position, replayed in Python. Raises ``Divergence`` at the first
    difference. ``native_class`` replaces the game's core (to test this check)."""
    Core = native_class or core(game.name)
    if Core is None:
        raise Divergence(f"{game.name}: {missing(game.name)}")
    rng = random.Random(seed)
    done = games = 0
    while done < steps:
        python = game.new_initial_state(seed + games)
        native = Core.new(game, seed + games)
        games += 1
        _same(done, "initial position", _position(python), _position(native.to_state()))
        middle = None
        while not python.is_terminal():
            legal = python.legal_actions()
            _same(done, "legal actions", legal, native.legal_actions())
            _same(done, "scores", python.scores(), native.scores())
            if python.is_chance_node():
                _same(done, "chance", python.chance_outcomes(), native.chance_outcomes())
            _check_refusal(done, python, native, legal, rng)
            action = rng.choice(legal)
            python.apply_action(action)
            native.apply_action(action)
            done += 1
            _same(done, "position", _position(python), _position(native.to_state()))
            # (a position read at the end would have no breakdown to compare)
            if done % reload == 0 and not python.is_terminal():
                native = Core.from_state(game.state_from_json(python.to_json()))
            if middle is None and rng.random() < 0.02:
                middle = python.clone()
        _same(done, "terminal", True, native.is_terminal())
        _same(done, "breakdown", python.score_breakdown(), native.to_state().score_breakdown())
        if middle is not None:
            _check_playout(done, middle, Core, rng.getrandbits(64))
    return done, games


def _check_refusal(
    step: int, python: Any, native: Any, legal: list[int], rng: random.Random
) -> None:
    """An action that is not legal is refused by both, with the same message, changing
    nothing."""
    size = python.game.info.num_distinct_actions
    illegal = [a for a in rng.sample(range(-2, size + 2), 6) if a not in legal]
    if not illegal:
        return
    action = illegal[0]
    before = _position(native.to_state())
    errors = []
    for state in (python, native):
        try:
            state.apply_action(action)
        except IllegalMoveError as e:
            errors.append(str(e))
        else:
            raise Divergence(f"step {step}: illegal action {action} was accepted")
    _same(step, f"refusal of {action}", errors[0], errors[1])
    _same(step, f"position after refusing {action}", before, _position(native.to_state()))


def _check_playout(step: int, start: Any, Core: Any, seed: int) -> None:
    """A whole playout in C from ``start``, replayed move by move in Python."""
    native = Core.from_state(start)
    native.playout(seed)
    python = start
    for action in native.history()[len(start.history()) :]:
        python.apply_action(action)
    _same(step, "playout", _position(python), _position(native.to_state()))


def main(argv: list[str] | None = None) -> None:
    """``python -m azul.native``: a longer differential run than the test suite's."""
    import argparse
    import time

    import azul

    parser = argparse.ArgumentParser(
        prog="python -m azul.native", description="compare the compiled cores with the engines"
    )
    parser.add_argument("--game", choices=CORES, action="append", help="default: every game")
    parser.add_argument("--steps", type=int, default=1_000_000, help="steps per rule set")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rule_sets: list[dict[str, Any]] = [{}, {"players": 3}, {"players": 4}]
    rule_sets.append({"explicit_chance": True})
    for name in args.game or CORES:
        for options in rule_sets:
            start = time.perf_counter()
            steps, games = differential(azul.load_game(name, **options), args.steps, args.seed)
            seconds = time.perf_counter() - start
            print(f"{name} {options}: {steps} steps, {games} games, the same ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
