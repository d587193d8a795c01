"""What bots know of Stained Glass of Sintra: the evaluation (no endgame solver yet), and the
trained value networks that ship in ``values/<players>p.npz``."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from azul.core.api import Strategy, shipped_weights
from azul.sintra import evaluation
from azul.sintra.state import SintraState


class SintraStrategy(Strategy[SintraState]):
    def value_weights(self, players: int) -> Traversable | None:
        return shipped_weights(resources.files("azul.sintra").joinpath("values"), players)

    def evaluate(self, state: SintraState, seat: int) -> float:
        return evaluation.evaluate(state, seat)
