"""The random bot: a uniformly random legal action, from its own seeded generator."""

from __future__ import annotations

import random

from azul.core.api import State


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, state: State, limit: object = None) -> int:
        """A legal action of ``state`` chosen uniformly at random (``limit`` is ignored)."""
        return self.rng.choice(state.legal_actions())
