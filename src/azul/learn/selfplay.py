"""Self-play games for the value network: the compiled MCTS plays every seat, and every decision
position is kept with the observation of every seat and, at the end, every seat's final score.

In the first ``explore`` decisions of a game the move is drawn in proportion to the search's
visit counts (so the games do not all open alike); afterwards the most visited move is played.
A game depends only on its job (deal seed, bot seeds, iterations, weights), never on the
process that plays it, so an interrupted generation replays exactly.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import numpy as np

from azul import load_game, native
from azul.bots.base import Candidate
from azul.bots.mcts import MCTSBot
from azul.core.api import CHANCE, State
from azul.core.errors import AzulError


@dataclass(frozen=True)
class Job:
    """One self-play game: the game, the deal's seed, the search and where its values come
    from (``weights``: a value network's file, or None for the hand evaluation)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    seed: int
    iterations: int
    explore: int
    weights: str | None = None


def searcher(seed: int, iterations: int, weights: str | None) -> MCTSBot:
    """The compiled MCTS at a fixed iteration count, on the hand evaluation or a network."""
    if weights is None:
        return MCTSBot(seed=seed, iterations=iterations, eval="hand")
    return MCTSBot(seed=seed, iterations=iterations, eval="learned", weights=weights)


def pick(candidates: list[Candidate], rng: random.Random, explore: bool) -> int:
    """The most visited move, or (``explore``) one drawn in proportion to the visits."""
    visits = [c.visits for c in candidates]
    if not explore or sum(visits) == 0:  # forced moves and the endgame solver have no visits
        return candidates[0].action
    return rng.choices([c.action for c in candidates], visits)[0]


def observe_all(state: State, out: np.ndarray) -> None:
    """Write the observation of every seat (rows of ``out``) as the compiled core sees it."""
    core = native.core(state.game.name)
    if core is None:
        raise AzulError(f"self-play needs the compiled core of {state.game.name!r}")
    c = core.from_state(state)
    row = np.zeros(out.shape[1], np.float32)
    for seat in range(out.shape[0]):
        c.observe(seat, row)
        out[seat] = row


def play(job: Job) -> dict[str, np.ndarray]:
    """Play one self-play game: ``obs`` (positions, seats, observation size; float16),
    ``mover`` (the seat to move in each position), ``action`` (the move played there) and
    ``scores`` (each seat's final score)."""
    game = load_game(job.game, **dict(job.options))
    state = game.new_initial_state(job.seed)
    n = game.num_players()
    bots = [searcher(job.seed * 7919 + i, job.iterations, job.weights) for i in range(n)]
    rng = random.Random(job.seed)
    chance = random.Random(~job.seed)
    rows: list[np.ndarray] = []
    movers: list[int] = []
    actions: list[int] = []
    buffer = np.zeros((n, game.info.observation_shape[0]), np.float32)
    try:
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(chance.choices(outcomes, probs)[0])
                continue
            observe_all(state, buffer)
            rows.append(buffer.astype(np.float16))
            movers.append(p)
            actions.append(pick(bots[p].analyse(state), rng, len(movers) <= job.explore))
            state.apply_action(actions[-1])
    finally:
        for bot in bots:
            bot.close()
    return {
        "obs": np.stack(rows),
        "mover": np.array(movers, np.int8),
        "action": np.array(actions, np.int32),
        "scores": np.array(state.scores(), np.int16),
    }
