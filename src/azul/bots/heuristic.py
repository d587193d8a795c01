"""The heuristic bot: one ply of look-ahead scored by the game's evaluation (what strong players
value: adjacency and structures, star and number bonuses, not over-drafting; in Sintra window
chains, glazier tempo and avoiding broken glass)."""

from __future__ import annotations

from azul.bots.base import Bot, Candidate, Limit, ranked, settle_chance
from azul.bots.evaluation import Evaluation, evaluator
from azul.core.api import State


class HeuristicBot(Bot):
    name = "heuristic"

    def evaluation(self, state: State) -> Evaluation:
        """The evaluation that scores each action's outcome."""
        return evaluator(state)

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        self._check(state)
        me = state.current_player()
        evaluate = self.evaluation(state)
        values = {}
        for a in state.legal_actions():
            child = self.private_clone(state)
            child.apply_action(a)
            settle_chance(child, self.rng)
            values[a] = evaluate(child, me)
        return ranked(state, values, self.rng)
