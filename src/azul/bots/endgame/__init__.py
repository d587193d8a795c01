"""Exact solvers for the last decisions of a game, one module per game; a search bot plays
their answer instead of searching when the game has one for the position."""

from __future__ import annotations

from collections.abc import Callable

from azul.bots.endgame import pavilion
from azul.core.api import State

# (state, deadline as time.time() or None) -> the value of each legal action, or None when the
# position is outside the solver's reach or the deadline passed.
SOLVERS: dict[str, Callable[[State, float | None], dict[int, float] | None]] = {
    "pavilion": pavilion.action_values,
}


def endgame_values(state: State, deadline: float | None = None) -> dict[int, float] | None:
    """The solver's value of each legal action in ``state``, if its game has one that applies."""
    solver = SOLVERS.get(state.game.name)
    return solver(state, deadline) if solver else None
