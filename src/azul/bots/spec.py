"""A bot named with its options, as text (``mcts:iterations=500,c=0.5``): how matches, the
server and the environments choose their bots."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from azul.bots import make
from azul.bots.base import Bot
from azul.core.errors import OptionError


@dataclass(frozen=True)
class BotSpec:
    """A bot as a name and options, e.g. ``mcts:iterations=500``; made afresh for each game."""

    name: str
    options: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def parse(cls, text: str) -> BotSpec:
        name, _, rest = text.partition(":")
        options = []
        for part in filter(None, rest.split(",")):
            key, sep, value = part.partition("=")
            if not sep:
                raise OptionError(f"bot option {part!r} is not KEY=VALUE (in {text!r})")
            try:
                options.append((key, json.loads(value)))
            except json.JSONDecodeError:
                options.append((key, value))
        return cls(name, tuple(options))

    @property
    def label(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.options)
        return f"{self.name}:{opts}" if opts else self.name

    def make(self, seed: int) -> Bot:
        return make(self.name, **{**dict(self.options), "seed": seed})
