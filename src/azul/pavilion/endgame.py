"""Round 6's play phase of Summer Pavilion, solved for the player to move.

Once the last round's tiles are drafted, what a player can still score depends on their own hand
and board, and on the supply only through bonus tiles (rules 5.6): the other players' turns
change nothing else. The solver searches every sequence of the player's own placements, bonus
picks and the pass, with the supply as it is now, and values each by the points it scores, the
star and number bonuses complete at the end (rules 7.1, 7.2) and -1 per tile left over (5.9,
7.3), every deduction stopping at the score floor. Positions are memoised, so the later moves of
the round are looked up.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from azul.core.scoring import deduct
from azul.pavilion import data
from azul.pavilion.actions import BONUS, PASS, PLACE
from azul.pavilion.state import BONUS_PICK, PLAY, PavilionState, allowed_colors, star_bonus
from azul.pavilion.tables import (
    BOARD_TABLES,
    EMPTY,
    KEEPS,
    POPCOUNT,
    RUN,
    STRUCTURES_AT,
    payments,
)

if TYPE_CHECKING:
    from azul.pavilion.game import PavilionGame

NC = data.NUM_COLORS
WILD = data.WILD_BY_ROUND[data.ROUNDS]

Counts = tuple[int, ...]
"""Tiles by colour: a hand, the supply."""
StarColors = tuple[int, ...]
"""By star, the bitmask of the colours on it."""
Variant = tuple[str, int | None, bool]
"""The options the solver's values depend on: board side, score floor, discard at last pass."""
MemoKey = tuple[Variant, Counts, int, StarColors, Counts, int, int]
"""(options, hand, filled, star colours, supply, owed bonus tiles, score as far as the score
floor can matter)."""

# best future points of each position searched
_MEMO: dict[MemoKey, float] = {}
_MEMO_LIMIT = 200_000  # about 60 MB


class _OutOfTime(Exception):
    pass


def action_values(state: PavilionState, deadline: float | None = None) -> dict[int, float] | None:
    """The points each legal action leads to, by the best play of the player's own tiles, in
    round 6's play phase (None elsewhere, or when ``deadline`` passes first). The actions are
    decoded, not played: playing one would refill the supply from the real generator."""
    if state.round != data.ROUNDS or state.kind not in (PLAY, BONUS_PICK) or state.deals:
        return None
    p = state.player
    b = p * NC
    hand = tuple(state.hands[b : b + NC])
    filled = state.filled[p]
    colors = tuple(state.colors[p * data.NUM_STARS : (p + 1) * data.NUM_STARS])
    supply = tuple(state.supply)
    score = state.points[p]
    solver = _Solver(state.game, deadline)
    decode = state.game.actions.decode
    values: dict[int, float] = {}
    try:
        for a in state.legal_actions():
            kind, x, c, k = decode[a]
            if kind == PLACE:
                values[a] = solver.place(hand, filled, colors, supply, score, x, c, k)
            elif kind == BONUS:
                values[a] = solver.take_bonus(hand, filled, colors, supply, score, state.owed, x)
            elif kind == PASS:
                kept = sum(hand) if x == 0 else sum(KEEPS[x - 1])
                values[a] = solver.stop(hand, filled, colors, score, kept)
    except _OutOfTime:
        return None
    return values


class _Solver:
    """One player's round-6 play on one board side, searched depth first through the memo."""

    def __init__(self, game: PavilionGame, deadline: float | None):
        tables = BOARD_TABLES[game.board.side]
        self.floor: int | None = game.options["score_floor"]
        self.discard_all = game.discard_at_last_pass
        self.variant: Variant = (tables.side, self.floor, self.discard_all)
        self.grey = tables.grey
        self.cost = tables.cost
        self.numbers = [(mask, bonus) for _n, mask, bonus in tables.number_masks]
        self.deadline = deadline
        self.steps = 0
        if len(_MEMO) > _MEMO_LIMIT:
            _MEMO.clear()

    def place(
        self,
        hand: Counts,
        filled: int,
        colors: StarColors,
        supply: Counts,
        score: int,
        sp: int,
        c: int,
        k: int,
    ) -> float:
        """The points of placing colour ``c`` on ``sp`` paying ``k`` wilds, and the best after."""
        star, i = divmod(sp, 6)
        n = self.cost[sp]
        h = list(hand)
        h[c] -= n - k
        h[WILD] -= k
        f = filled | 1 << sp
        cols = list(colors)
        cols[star] |= 1 << c
        owed = sum(reward for mask, reward in STRUCTURES_AT[sp] if f & mask == mask)
        gain = RUN[(f >> star * 6) & 63][i]
        more = min(owed, sum(supply))
        return gain + self.best(tuple(h), f, tuple(cols), supply, score + gain, more)

    def take_bonus(
        self,
        hand: Counts,
        filled: int,
        colors: StarColors,
        supply: Counts,
        score: int,
        owed: int,
        c: int,
    ) -> float:
        """The best after taking a bonus tile of colour ``c`` from the supply (rules 5.6)."""
        h = list(hand)
        h[c] += 1
        s = list(supply)
        s[c] -= 1
        more = owed - 1 if sum(s) else 0
        return self.best(tuple(h), filled, colors, tuple(s), score, more)

    def stop(
        self, hand: Counts, filled: int, colors: StarColors, score: int, kept: int | None = None
    ) -> float:
        """Passing now keeping ``kept`` tiles (None: the best choice), then the end: the tiles
        not kept cost a point each at the pass, the bonuses are added, then the kept tiles cost a
        point each (rules 5.8, 5.9, 7.1-7.3)."""
        total = sum(hand)
        if self.discard_all:  # option round6_leftovers="at_pass"
            choices: tuple[int, ...] | range = (0,)
        elif kept is not None:
            choices = (kept,)
        elif total <= data.CORNER_SPACES:
            choices = (total,)
        else:
            choices = range(data.CORNER_SPACES + 1)
        bonuses = self._bonuses(filled, colors)
        floor = self.floor
        best = max(deduct(deduct(score, total - k, floor) + bonuses, k, floor) for k in choices)
        return best - score

    def _bonuses(self, filled: int, colors: StarColors) -> int:
        """Star and number bonuses of a board (rules 7.1, 7.2)."""
        v = 0
        for star in range(data.NUM_STARS):
            if (filled >> star * 6) & 63 == 63:
                v += star_bonus(self.grey, star, colors[star])
        for mask, bonus in self.numbers:
            if filled & mask == mask:
                v += bonus
        return v

    def best(
        self, hand: Counts, filled: int, colors: StarColors, supply: Counts, score: int, owed: int
    ) -> float:
        """The most points still to come from this hand, board, supply, score and bonus tiles
        owed."""
        # the floor cannot stop a deduction of a score above it by every tile that could still
        # be left over: such scores share one entry
        floor = self.floor
        low = 0 if floor is None else min(score, floor + sum(hand) + sum(supply))
        key: MemoKey = (self.variant, hand, filled, colors, supply, owed, low)
        known = _MEMO.get(key)
        if known is not None:
            return known
        self.steps += 1
        if self.deadline is not None and self.steps & 255 == 1 and time.time() > self.deadline:
            raise _OutOfTime
        if owed:  # the supply is not refilled while bonus tiles are taken
            value = max(
                self.take_bonus(hand, filled, colors, supply, score, owed, c)
                for c in range(NC)
                if supply[c]
            )
        else:
            value = self.stop(hand, filled, colors, score)
            for sp, c, k in self._placements(hand, filled, colors):
                value = max(value, self.place(hand, filled, colors, supply, score, sp, c, k))
        _MEMO[key] = value
        return value

    def _placements(
        self, hand: Counts, filled: int, colors: StarColors
    ) -> Iterator[tuple[int, int, int]]:
        """Every placement the hand can pay (rules 5.2-5.4): (space, colour, wilds paid)."""
        hw = hand[WILD]
        for star in range(data.NUM_STARS):
            ring = (filled >> star * 6) & 63
            if ring == 63:
                continue
            allowed = allowed_colors(self.grey, star, colors[star], POPCOUNT[ring])
            for c in range(NC):
                hc = hand[c]
                if not hc or not allowed >> c & 1:
                    continue
                for i in EMPTY[ring]:
                    sp = star * 6 + i
                    for k in payments(self.cost[sp], hc, hw, c == WILD):
                        yield sp, c, k
