"""Bots that play any game on the API. For now: the uniformly random bot."""

from __future__ import annotations

from typing import Any

from azul.bots.random_bot import RandomBot
from azul.core.errors import OptionError

BOTS: dict[str, type] = {RandomBot.name: RandomBot}


def make(name: str, **options: Any):
    """A bot by name with its options, e.g. ``make("random", seed=1)``."""
    cls = BOTS.get(name)
    if cls is None:
        raise OptionError(f"unknown bot {name!r}: known bots are {', '.join(sorted(BOTS))}")
    return cls(**options)


__all__ = ["BOTS", "RandomBot", "make"]
