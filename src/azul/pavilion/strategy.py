"""What bots know of Summer Pavilion: the evaluation, the "builder" and "bigpile" styles,
round 6's endgame solver, and the trained value networks that ship in ``values/<players>p.npz``.

- Search leaves and the builder style: ``evaluation.evaluate``, which commits to a star.
- The bigpile style: ``bigpile.evaluate``, a simple player's that shares nothing with the
  evaluation (it takes the biggest pile and places for structures and points first).
- The heuristic bot: that value of the position less the best opponent's, so that its one ply
  of look-ahead also sees what a take leaves the others (denial, rules 4.2).
"""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from azul.core.api import Strategy, shipped_weights
from azul.core.compiled import children, compiled_core
from azul.pavilion import bigpile, endgame, evaluation
from azul.pavilion.state import PavilionState


def value(state: PavilionState, seat: int) -> float:
    """``evaluation.evaluate``, worked out in C on a compiled state (the very same float)."""
    core = compiled_core(state)
    return evaluation.evaluate(state, seat) if core is None else float(core.evaluate(seat))


def against_rivals(state: PavilionState, seat: int) -> float:
    """The value of the position for ``seat`` less the best of its opponents'."""
    return lead([value(state, q) for q in range(state.num_players())], seat)


def lead(values: list[float], seat: int) -> float:
    """``seat``'s value less the best other one."""
    return values[seat] - max(v for q, v in enumerate(values) if q != seat)


class PavilionStrategy(Strategy[PavilionState]):
    def value_weights(self, players: int) -> Traversable | None:
        return shipped_weights(resources.files("azul.pavilion").joinpath("values"), players)

    def evaluate(self, state: PavilionState, seat: int) -> float:
        return against_rivals(state, seat)

    def evaluate_children(
        self, state: PavilionState, seat: int, seeds: list[int]
    ) -> list[float] | None:
        rows = children(state, seeds)
        if rows is None:
            return None
        return [lead(row, seat) for row in rows]

    def evaluate_leaf(self, state: PavilionState, seat: int) -> float:
        return value(state, seat)

    def endgame_values(
        self, state: PavilionState, deadline: float | None = None
    ) -> dict[int, float] | None:
        return endgame.action_values(state, deadline)

    def styles(self) -> tuple[str, ...]:
        return ("builder", "bigpile")

    def evaluate_style(self, style: str, state: PavilionState, seat: int) -> float:
        if style == "builder":
            return value(state, seat)
        if style == "bigpile":
            return bigpile.evaluate(state, seat)
        return super().evaluate_style(style, state, seat)
