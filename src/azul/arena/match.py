"""Playing one game between bots, and the plan of games of a match (rotated seats, mirrored
deals)."""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from itertools import permutations
from typing import Any

from azul import load_game
from azul.bots import Limit
from azul.bots.spec import BotSpec
from azul.core.api import CHANCE
from azul.core.records import Record


@dataclass
class GameResult:
    """One finished game: who sat where, the scores, and the record of its actions."""

    game: str
    options: dict[str, Any]
    seed: int
    seats: list[str]
    scores: list[int]
    returns: list[float]
    winners: list[int]
    actions: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    movers: list[int] = field(default_factory=list)  # seat, or CHANCE, of each action
    think: list[float] = field(default_factory=list)  # seconds per seat
    decisions: list[int] = field(default_factory=list)  # decisions per seat
    # per seat, the final score's points by item of the game's breakdown (State.score_breakdown)
    items: list[dict[str, int]] = field(default_factory=list)
    stars: list[int] = field(default_factory=list)  # per seat, breakdown items named "star"

    def record(self) -> Record:
        """The game record, to save and replay."""
        return Record(
            self.game,
            self.options,
            self.seed,
            list(self.actions),
            list(self.moves),
            list(self.movers),
            list(self.scores),
        )


def play_game(
    game_name: str,
    options: dict[str, Any],
    seats: list[BotSpec],
    seed: int,
    limit: Limit | None = None,
) -> GameResult:
    """Play one game from ``seed`` with one bot per seat (each seeded from the game seed)."""
    game = load_game(game_name, **options)
    state = game.new_initial_state(seed)
    bots = [spec.make(seed * 7919 + i) for i, spec in enumerate(seats)]
    chance = random.Random(seed)
    think = [0.0] * len(seats)
    decisions = [0] * len(seats)
    moves, movers = [], []
    try:
        while not state.is_terminal():
            p = state.current_player()
            if p == CHANCE:
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                action = chance.choices(outcomes, probs)[0]
            else:
                start = time.perf_counter()
                action = bots[p].choose(state, limit)
                think[p] += time.perf_counter() - start
                decisions[p] += 1
            moves.append(state.action_to_string(action))
            movers.append(p)
            state.apply_action(action)
    finally:
        for bot in bots:
            bot.close()
    breakdown = state.score_breakdown() or []
    items = [_points_by_item(seat) for seat in breakdown]
    stars = [sum(1 for line in seat if line["item"] == "star") for seat in breakdown]
    return GameResult(
        game_name,
        dict(game.options),
        seed,
        [s.label for s in seats],
        state.scores(),
        state.returns(),
        state.winners(),
        state.history(),
        moves,
        movers,
        think,
        decisions,
        items,
        stars,
    )


def _points_by_item(lines: list[dict[str, Any]]) -> dict[str, int]:
    """A seat's breakdown as points by item (``star``: every completed star together)."""
    out: dict[str, int] = {}
    for line in lines:
        out[line["item"]] = out.get(line["item"], 0) + line["points"]
    return out


def schedule(
    lineup: list[BotSpec], players: int, deals: int, seed: int
) -> list[tuple[int, list[BotSpec]]]:
    """The games of a match: every deal (seed) is played with every seat assignment of the
    lineup, so no bot gains from a lucky deal or seat. With more seats than bots, the bots
    repeat in order (A, B, A, B) before the seats are permuted."""
    seats = [lineup[i % len(lineup)] for i in range(players)]
    orders = list(dict.fromkeys(permutations(range(players))))
    assignments = []
    seen = set()
    for order in orders:
        labels = tuple(seats[i].label for i in order)
        if labels not in seen:
            seen.add(labels)
            assignments.append([seats[i] for i in order])
    return [(seed + d, a) for d in range(deals) for a in assignments]
