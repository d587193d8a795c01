"""The compiled cores, found through the games that declare them (``Game.compiled()``).

Each game with a compiled core (``azul/<game>/_core.pyx``, translated by Cython and built by
the machine's C compiler when the package is installed) declares it on its Game class; its
states (``load_game(...).new_initial_state()``) run on it (``azul.core.compiled``). The core's
module holds a ``Core`` class with the state's hot methods on C arrays, ``Core.new(game,
seed)`` dealing as the Python engine does, ``Core.from_state`` and ``to_state`` to cross to and
from the Python state, ``playout(seed)`` (a whole random game in C), ``advance``, ``observe``
and ``mask`` for the batched environment, ``evaluate`` (the bots' search evaluation), and
``Tree`` and ``search`` for the MCTS bot (``azul/core/_search.pxi``). The Python engines stay
the reference: ``azul.testing.differential`` compares a core with its engine step by step.
Without a compiler, or with ``AZUL_PURE_PYTHON=1``, ``module`` and ``core`` return None and
everything runs in Python.
"""

from __future__ import annotations

from typing import Any

from azul.core.api import Game
from azul.core.compiled import PURE, has_core, pure
from azul.core.compiled import missing as _missing
from azul.core.registry import GAMES
from azul.testing import Divergence, differential

__all__ = ["PURE", "Divergence", "core", "cores", "differential", "missing", "module", "pure"]


def cores() -> tuple[str, ...]:
    """The registered games that declare a compiled core (built or not)."""
    return tuple(name for name in GAMES if has_core(GAMES[name]))


def missing(game: str) -> str:
    """Why ``core(game)`` is None, an English message to translate."""
    return _missing(GAMES[game]) if game in GAMES else _missing(Game)


def module(game: str) -> Any:
    """The compiled core's module of ``game`` (a registered name): its ``Core`` class, and
    ``Tree`` and ``search`` for the MCTS bot; or None: the game has none, it is not built, or
    ``AZUL_PURE_PYTHON`` is set."""
    return GAMES[game].compiled() if game in GAMES else None


def core(game: str) -> Any:
    """The compiled ``Core`` class of ``game``, or None (see ``module``)."""
    found = module(game)
    return None if found is None else found.Core


def main(argv: list[str] | None = None) -> None:
    """``python -m azul.native``: a longer differential run than the test suite's."""
    import argparse
    import time

    import azul

    names = cores()
    parser = argparse.ArgumentParser(
        prog="python -m azul.native", description="compare the compiled cores with the engines"
    )
    parser.add_argument("--game", choices=names, action="append", help="default: every game")
    parser.add_argument("--steps", type=int, default=1_000_000, help="steps per rule set")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    rule_sets: list[dict[str, Any]] = [{}, {"players": 3}, {"players": 4}]
    rule_sets.append({"explicit_chance": True})
    for name in args.game or names:
        for options in rule_sets:
            start = time.perf_counter()
            steps, games = differential(azul.load_game(name, **options), args.steps, args.seed)
            seconds = time.perf_counter() - start
            print(f"{name} {options}: {steps} steps, {games} games, the same ({seconds:.0f} s)")


if __name__ == "__main__":
    main()
