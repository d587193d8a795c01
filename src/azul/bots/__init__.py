"""Bots that play any game on the API: random, greedy, heuristic, builder (a game's star-building
style), bigpile (a simple player's style: the biggest pile, then points and structures), MCTS
and, with numpy, ``policy`` (a small trained network, ``azul.interop.learn``).

>>> bot = azul.bots.make("mcts", iterations=2000, seed=1)
>>> action = bot.choose(state, Limit(time=0.5))
"""

from __future__ import annotations

import importlib
from typing import Any

from azul.bots.advice import Hint, hints
from azul.bots.base import Bot, Candidate, Limit
from azul.bots.bigpile import BigPileBot
from azul.bots.builder import BuilderBot
from azul.bots.greedy import GreedyBot
from azul.bots.heuristic import HeuristicBot
from azul.bots.mcts import MCTSBot
from azul.bots.random_bot import RandomBot
from azul.core.errors import OptionError

BOTS: dict[str, type[Bot]] = {
    cls.name: cls for cls in (RandomBot, GreedyBot, HeuristicBot, BuilderBot, BigPileBot, MCTSBot)
}
LATER: dict[str, str] = {"policy": "azul.interop.learn:PolicyBot"}
"""Bots imported when first made (they need an extra: ``policy`` needs numpy)."""


def make(name: str, **options: Any) -> Bot:
    """A bot by name with its options, e.g. ``make("greedy", seed=1)``."""
    cls = BOTS.get(name)
    if cls is None and name in LATER:
        module, _, attribute = LATER[name].partition(":")
        cls = getattr(importlib.import_module(module), attribute)
    if cls is None:
        known = ", ".join(sorted({*BOTS, *LATER}))
        raise OptionError(f"unknown bot {name!r}: known bots are {known}")
    try:
        return cls(**options)
    except TypeError as e:
        raise OptionError(f"bot {name!r}: {e}") from None


__all__ = ["BOTS", "Bot", "Candidate", "Hint", "Limit", "hints", "make"]
