"""What bots know of Stained Glass of Sintra: the evaluation and the "bigpile" style (no endgame
solver yet)."""

from __future__ import annotations

from azul.core.api import Strategy
from azul.sintra import bigpile, evaluation
from azul.sintra.state import SintraState


class SintraStrategy(Strategy[SintraState]):
    def evaluate(self, state: SintraState, seat: int) -> float:
        return evaluation.evaluate(state, seat)

    def styles(self) -> tuple[str, ...]:
        return ("bigpile",)

    def evaluate_style(self, style: str, state: SintraState, seat: int) -> float:
        if style == "bigpile":
            return bigpile.evaluate(state, seat)
        return super().evaluate_style(style, state, seat)
