"""What bots know of Summer Pavilion: the evaluations, the "builder" style and round 6's
endgame solver."""

from __future__ import annotations

from azul.core.api import Strategy
from azul.pavilion import builder, endgame, evaluation
from azul.pavilion.state import PavilionState


class PavilionStrategy(Strategy[PavilionState]):
    def evaluate(self, state: PavilionState, seat: int) -> float:
        return evaluation.evaluate(state, seat)

    def evaluate_leaf(self, state: PavilionState, seat: int) -> float:
        return evaluation.evaluate_with_plan(state, seat)

    def endgame_values(
        self, state: PavilionState, deadline: float | None = None
    ) -> dict[int, float] | None:
        return endgame.action_values(state, deadline)

    def styles(self) -> tuple[str, ...]:
        return ("builder",)

    def evaluate_style(self, style: str, state: PavilionState, seat: int) -> float:
        if style == "builder":
            return builder.evaluate_builder(state, seat)
        return super().evaluate_style(style, state, seat)
