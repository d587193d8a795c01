"""The builder bot: a sparring partner that plays like a human who builds stars. It looks one
ply ahead, as the heuristic bot does, but scores positions by the game's "builder" evaluation
style (``Strategy.styles``): in Summer Pavilion it commits to one or two target stars and values
filling them heavily. A game without that style is refused, naming the styles it has."""

from __future__ import annotations

from azul.bots.evaluation import Evaluation, style_evaluator
from azul.bots.heuristic import HeuristicBot
from azul.core.api import State


class BuilderBot(HeuristicBot):
    name = "builder"
    style = "builder"

    def evaluation(self, state: State) -> Evaluation:
        return style_evaluator(state, self.style)
