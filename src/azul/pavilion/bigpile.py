"""The big-pile style of Summer Pavilion: how a simple one-ply player values a position.

That player takes the biggest pile it can (the wild tile that comes along counts, rules 4.2),
places tiles where they complete pillars, statues and windows, then where they connect for
the most points (rules 5.5, 5.6), and passes only when it must (rules 5.8). It knows nothing of
star or number bonuses beyond the score, and plans nothing.

The value is lexicographic:

- every tile the player has taken this game (``tiles_taken``) is worth ``TAKE``, so one ply
  takes the biggest pile and keeps the most tiles at a pass;
- then the score, plus a point for each bonus tile a placement has just earned (``BONUS``: a
  placement is worth its connected points and the tiles its structures pay);
- then, worth less than a point together, the tiles held (``held_value``): each tile, each wild
  tile once more and the square of each colour's count, so that of two placements scoring the
  same the cheaper is played, wild tiles are spent last and taken as bonus first, and of two
  piles of one size the colour already held is taken.
"""

from __future__ import annotations

from azul.pavilion import data
from azul.pavilion.state import BONUS_PICK, PavilionState

TAKE = 1000.0  # more than every end bonus together (7 stars and 4 number sets: 152 points)
BONUS = 1.0  # a bonus tile still to be taken from the supply, worth a point (rules 5.6)
HELD = 0.001  # the scale of held_value: a hand of 30 tiles of one colour is worth 0.15
NC = data.NUM_COLORS


def held(state: PavilionState, seat: int) -> list[int]:
    """The tiles of each colour ``seat`` holds, in hand and in its corners."""
    hand = state.hands[seat * NC : (seat + 1) * NC]
    kept = state.kept[seat * NC : (seat + 1) * NC]
    return [h + k for h, k in zip(hand, kept, strict=True)]


def tiles_taken(state: PavilionState, seat: int) -> int:
    """The tiles ``seat`` has taken this game, from the factories, the centre and as bonuses,
    less those discarded: those held and those paid for its covered spaces (a space costs its
    printed number, rules 5.2)."""
    filled = state.filled[seat]
    cost = state.game.board.cost
    paid = sum(cost[sp] for sp in range(data.NUM_SPACES) if filled >> sp & 1)
    return sum(held(state, seat)) + paid


def held_value(state: PavilionState, seat: int) -> float:
    """The tie-break between equal takes and scores (see the module's description)."""
    tiles = held(state, seat)
    return sum(tiles) + tiles[state.wild()] + sum(n * n for n in tiles) / 10


def evaluate(state: PavilionState, seat: int) -> float:
    """The big-pile player's value of the position for ``seat``."""
    owed = state.owed if state.kind == BONUS_PICK and state.player == seat else 0
    return (
        TAKE * tiles_taken(state, seat)
        + state.points[seat]
        + BONUS * owed
        + HELD * held_value(state, seat)
    )
