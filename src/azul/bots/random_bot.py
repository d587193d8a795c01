"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

from azul.bots.base import Bot, Candidate, Limit
from azul.core.api import State


class RandomBot(Bot):
    name = "random"

    def choose(self, state: State, limit: Limit | None = None) -> int:
        self._check(state)
        return self.rng.choice(state.legal_actions())

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        """Every legal action with value 0, in a random order."""
        self._check(state)
        legal = state.legal_actions()
        self.rng.shuffle(legal)
        return [Candidate(a, state.action_to_string(a), 0.0) for a in legal]
