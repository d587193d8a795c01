"""Position evaluations in points for one seat, one module per game; bots find them by the
game's name, as games are found in azul.GAMES."""

from __future__ import annotations

from collections.abc import Callable

from azul.bots.evaluation import pavilion, sintra
from azul.core.api import State
from azul.core.errors import OptionError

EVALUATORS: dict[str, Callable[[State, int], float]] = {
    "pavilion": pavilion.evaluate,
    "sintra": sintra.evaluate,
}
# Where a game has a slower, better-informed evaluation for the leaves of a search.
SEARCH_EVALUATORS: dict[str, Callable[[State, int], float]] = {
    "pavilion": pavilion.evaluate_with_plan,
}


def evaluator(state: State, search: bool = False) -> Callable[[State, int], float]:
    """The evaluation function for ``state``'s game (``search``: the one for search leaves)."""
    fn = (search and SEARCH_EVALUATORS.get(state.game.name)) or EVALUATORS.get(state.game.name)
    if fn is None:
        raise OptionError(f"no evaluation for game {state.game.name!r}: add one to EVALUATORS")
    return fn


def relative(state: State, seat: int) -> float:
    """The seat's evaluation minus the best of the others' (what a player wants to maximise)."""
    fn = evaluator(state)
    values = [fn(state, p) for p in range(state.num_players())]
    return values[seat] - max(v for p, v in enumerate(values) if p != seat)
