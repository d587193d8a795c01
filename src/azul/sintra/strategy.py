"""What bots know of Stained Glass of Sintra: the evaluation, the "bigpile" style (no endgame
solver yet), and the trained value networks that ship in ``values/<players>p.npz``."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable

from azul.core.api import Strategy, shipped_weights
from azul.core.compiled import children, compiled_core
from azul.sintra import bigpile, evaluation
from azul.sintra.state import SintraState


class SintraStrategy(Strategy[SintraState]):
    def value_weights(self, players: int) -> Traversable | None:
        return shipped_weights(resources.files("azul.sintra").joinpath("values"), players)

    def evaluate(self, state: SintraState, seat: int) -> float:
        core = compiled_core(state)  # in C on a compiled state: the very same float
        return evaluation.evaluate(state, seat) if core is None else float(core.evaluate(seat))

    def evaluate_children(
        self, state: SintraState, seat: int, seeds: list[int]
    ) -> list[float] | None:
        rows = children(state, seeds)
        return None if rows is None else [row[seat] for row in rows]

    def styles(self) -> tuple[str, ...]:
        return ("bigpile",)

    def evaluate_style(self, style: str, state: SintraState, seat: int) -> float:
        if style == "bigpile":
            return bigpile.evaluate(state, seat)
        return super().evaluate_style(style, state, seat)
