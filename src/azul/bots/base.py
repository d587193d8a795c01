"""The bot protocol, in the spirit of python-chess's engine API.

``bot.choose(state, limit)`` returns an action; ``bot.analyse(state, limit)`` returns candidate
actions ranked best first with their values. Bots see a state only through its public methods:
before looking ahead they take a private clone and reseed it from their own generator, so they
never use the real generator's state (the future draws).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from azul.core.api import State
from azul.core.errors import AzulError


@dataclass(frozen=True)
class Limit:
    """How long a bot may think: wall-clock seconds and/or iterations (search bots)."""

    time: float | None = None
    iterations: int | None = None

    def __post_init__(self) -> None:
        if self.time is not None and not self.time > 0:
            raise AzulError(f"time limit {self.time!r} is not a positive number of seconds")
        if self.iterations is not None and (
            isinstance(self.iterations, bool)
            or not isinstance(self.iterations, int)
            or self.iterations < 1
        ):
            raise AzulError(f"iteration limit {self.iterations!r} is not a positive integer")


@dataclass(frozen=True)
class Candidate:
    """An action with the bot's value for it (higher is better) and, for search, its visits."""

    action: int
    move: str
    value: float
    visits: int = 0


class Bot:
    """Base class: a bot ranks the legal actions in ``analyse``; ``choose`` takes the first."""

    name = ""

    def __init__(self, seed: int = 0):
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, state: State, limit: Limit | None = None) -> int:
        """The action the bot plays in ``state`` (a player's decision, not a chance node)."""
        return self.analyse(state, limit)[0].action

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        raise NotImplementedError

    def close(self) -> None:
        """Release what the bot holds beyond its own memory (helper processes, for MCTS)."""

    def _check(self, state: State) -> None:
        if state.is_terminal() or state.is_chance_node():
            raise AzulError("a bot decides only for a player to move, not at chance or the end")

    def private_clone(self, state: State) -> State:
        """A copy of ``state`` whose future draws come from the bot's own generator."""
        copy = state.clone()
        copy.reseed(self.rng.getrandbits(63))
        return copy

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed})"


def settle_chance(state: State, rng: random.Random) -> None:
    """Resolve pending chance nodes (explicit-chance games) by sampling their probabilities."""
    while state.is_chance_node():
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(outcomes, probs)[0])


def ranked(
    state: State, values: dict[int, float], rng: random.Random, visits: dict[int, int] | None = None
) -> list[Candidate]:
    """Candidates best first; equal values are ordered by the bot's generator (seeded)."""
    visits = visits or {}
    return [
        Candidate(a, state.action_to_string(a), values[a], visits.get(a, 0))
        for a in order(values, rng)
    ]


def order(values: dict[int, float], rng: random.Random) -> list[int]:
    """The actions best first, as ``ranked`` gives them, without their notation (a bot that
    only chooses needs no more)."""
    actions = list(values)
    rng.shuffle(actions)
    actions.sort(key=values.__getitem__, reverse=True)
    return actions
