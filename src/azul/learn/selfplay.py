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


def observe_all(state: State, out: np.ndarray, hand: np.ndarray | None = None) -> None:
    """Write the observation of every seat (rows of ``out``) as the compiled core sees it,
    and into ``hand`` each seat's hand evaluation (``Core.evaluate``, the search's leaves')."""
    core = native.core(state.game.name)
    if core is None:
        raise AzulError(f"self-play needs the compiled core of {state.game.name!r}")
    c = core.from_state(state)
    row = np.zeros(out.shape[1], np.float32)
    for seat in range(out.shape[0]):
        c.observe(seat, row)
        out[seat] = row
        if hand is not None:
            hand[seat] = c.evaluate(seat)


def play(job: Job) -> dict[str, np.ndarray]:
    """Play one self-play game: ``obs`` (positions, seats, observation size; float16),
    ``hand`` (positions, seats: each seat's hand evaluation there, float64), ``mover`` (the
    seat to move in each position), ``action`` (the move played there) and ``scores`` (each
    seat's final score)."""
    game = load_game(job.game, **dict(job.options))
    state = game.new_initial_state(job.seed)
    n = game.num_players()
    bots = [searcher(job.seed * 7919 + i, job.iterations, job.weights) for i in range(n)]
    rng = random.Random(job.seed)
    chance = random.Random(~job.seed)
    rows: list[np.ndarray] = []
    hands: list[np.ndarray] = []
    movers: list[int] = []
    actions: list[int] = []
    buffer = np.zeros((n, game.info.observation_shape[0]), np.float32)
    try:
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                draw(state, chance)
                continue
            hands.append(np.zeros(n))
            observe_all(state, buffer, hands[-1])
            rows.append(buffer.astype(np.float16))
            movers.append(p)
            actions.append(pick(bots[p].analyse(state), rng, len(movers) <= job.explore))
            state.apply_action(actions[-1])
    finally:
        for bot in bots:
            bot.close()
    return {
        "obs": np.stack(rows),
        "hand": np.stack(hands),
        "mover": np.array(movers, np.int8),
        "action": np.array(actions, np.int32),
        "scores": np.array(state.scores(), np.int16),
    }


def draw(state: State, chance: random.Random) -> None:
    """Apply one chance outcome drawn by ``chance`` (games with explicit chance)."""
    outcomes, probs = zip(*state.chance_outcomes(), strict=True)
    state.apply_action(chance.choices(outcomes, probs)[0])


def replay_hand(job: Job, recorded: dict[str, np.ndarray]) -> np.ndarray:
    """The ``hand`` values of a game recorded without them: its moves (``moves``) replayed
    from the job's deal (the chance drawn as ``play`` draws it), each position checked against
    the recorded observations, so that a game of another deal is refused."""
    game = load_game(job.game, **dict(job.options))
    state = game.new_initial_state(job.seed)
    chance = random.Random(~job.seed)
    obs, actions = recorded["obs"], moves(job, recorded)
    hand = np.zeros(obs.shape[:2])
    buffer = np.zeros(obs.shape[1:], np.float32)
    for i, action in enumerate(actions):
        while state.current_player() == CHANCE:
            draw(state, chance)
        observe_all(state, buffer, hand[i])
        if state.current_player() != recorded["mover"][i] or not np.array_equal(
            buffer.astype(np.float16), obs[i]
        ):
            raise AzulError(f"the recorded game does not replay from deal {job.seed}: move {i}")
        state.apply_action(int(action))
    while not state.is_terminal() and state.current_player() == CHANCE:
        draw(state, chance)
    if len(actions) != len(obs) or not state.is_terminal():
        raise AzulError(f"the recorded game of deal {job.seed} does not end where it should")
    return hand


def moves(job: Job, recorded: dict[str, np.ndarray]) -> np.ndarray:
    """The moves of a recorded game: its ``action`` array, or for games recorded before the
    moves were kept, the moves found again from the deal (games without explicit chance): at
    each position, the legal move after which every seat observes what was recorded next
    (and, after the last, the game ends with the recorded scores)."""
    if "action" in recorded:
        return recorded["action"]
    game = load_game(job.game, **dict(job.options))
    core = native.core(game.name)
    if core is None or getattr(game, "explicit_chance", False):
        raise AzulError(f"the moves of a game of {game.name!r} cannot be found again")
    obs, mover = recorded["obs"], recorded["mover"]
    row = np.zeros(obs.shape[2], np.float32)

    def seen(c: Any, i: int) -> bool:
        if c.is_terminal() or c.current_player() != mover[i]:
            return False
        for seat in range(obs.shape[1]):
            c.observe(seat, row)
            if not np.array_equal(row.astype(np.float16), obs[i, seat]):
                return False
        return True

    def ended(c: Any, _: int) -> bool:
        return bool(c.is_terminal()) and list(c.scores()) == recorded["scores"].tolist()

    state = core.new(game, job.seed)
    found = []
    for i in range(len(obs)):
        fits = seen if i + 1 < len(obs) else ended
        for a in state.legal_actions():
            child = state.clone()
            child.apply_action(a)
            if fits(child, i + 1):
                found.append(a)
                state = child
                break
        else:
            raise AzulError(f"the recorded game does not replay from deal {job.seed}: move {i}")
    return np.array(found, np.int32)
