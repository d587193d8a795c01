"""The greedy bot: the action with the best immediate change of its own score.

Ties (most of the drafting turns) are broken by the bot's seeded generator.
"""

from __future__ import annotations

from azul.bots.base import Bot, Candidate, Limit, ranked, settle_chance
from azul.core.api import State


class GreedyBot(Bot):
    name = "greedy"

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        self._check(state)
        me = state.current_player()
        before = state.scores()[me]
        values = {}
        for a in state.legal_actions():
            child = self.private_clone(state)
            child.apply_action(a)
            settle_chance(child, self.rng)
            values[a] = float(child.scores()[me] - before)
        return ranked(state, values, self.rng)
