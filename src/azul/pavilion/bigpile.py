"""The big-pile style of Summer Pavilion: how a simple one-ply player values a position.

That player takes the biggest pile it can (the wild tile that comes along counts, rules 4.2),
places tiles where they complete pillars, statues and windows, then where they connect for
the most points (rules 5.5, 5.6), and passes only when it must (rules 5.8). It knows nothing of
star or number bonuses beyond the score, and plans nothing.

The value is lexicographic in three scales:

- every tile the player has taken this game (``tiles_taken``) is worth ``TAKE``, so one ply
  takes the biggest pile, keeps the most tiles at a pass and values the bonus tiles a
  structure pays;
- each completed structure is worth ``STRUCTURE``, more than any one placement scores;
- then the score, and ``SPARE`` for each tile still held, so that of two placements scoring the
  same the cheaper is played.
"""

from __future__ import annotations

from azul.pavilion import data
from azul.pavilion.state import PavilionState

TAKE = 1000.0  # more than every end bonus together (7 stars and 4 number sets: 152 points)
STRUCTURE = 10.0  # more than the most one placement scores (6, rules 5.5)
SPARE = 0.01
NC = data.NUM_COLORS
_STRUCTURE_MASKS = [sum(1 << sp for sp in spaces) for _, _, spaces, _ in data.STRUCTURES]


def tiles_taken(state: PavilionState, seat: int) -> int:
    """The tiles ``seat`` has taken this game, from the factories, the centre and as bonuses,
    less those discarded: those held (hand and corners) and those paid for its covered spaces
    (a space costs its printed number, rules 5.2)."""
    held = sum(state.hands[seat * NC : (seat + 1) * NC]) + sum(
        state.kept[seat * NC : (seat + 1) * NC]
    )
    filled = state.filled[seat]
    cost = state.game.board.cost
    return held + sum(cost[sp] for sp in range(data.NUM_SPACES) if filled >> sp & 1)


def structures_completed(state: PavilionState, seat: int) -> int:
    """How many of the 18 pillars, statues and windows have all their spaces covered."""
    filled = state.filled[seat]
    return sum(1 for mask in _STRUCTURE_MASKS if filled & mask == mask)


def evaluate(state: PavilionState, seat: int) -> float:
    """The big-pile player's value of the position for ``seat``."""
    held = sum(state.hands[seat * NC : (seat + 1) * NC]) + sum(
        state.kept[seat * NC : (seat + 1) * NC]
    )
    return (
        TAKE * tiles_taken(state, seat)
        + STRUCTURE * structures_completed(state, seat)
        + state.points[seat]
        + SPARE * held
    )
