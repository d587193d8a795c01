"""What bots know of Stained Glass of Sintra: the evaluation (no endgame solver yet)."""

from __future__ import annotations

from azul.core.api import Strategy
from azul.sintra import evaluation
from azul.sintra.state import SintraState


class SintraStrategy(Strategy[SintraState]):
    def evaluate(self, state: SintraState, seat: int) -> float:
        return evaluation.evaluate(state, seat)
