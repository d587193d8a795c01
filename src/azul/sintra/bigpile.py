"""The big-pile style of Stained Glass of Sintra: how a simple one-ply player values a position.

That player takes the most pieces it can place (rules 3.1, 3.2), puts them where they complete
a strip and then a window (rules 3.3), and otherwise takes its points. It plans nothing: not the
glazier's place, nor the palace or ornament bonuses beyond the score.

The value is lexicographic: each piece on the player's strips or sent on to its windows is
worth ``TAKE``; each completed strip ``STRIP`` and each completed window ``WINDOW`` (more than
one turn scores); then the score with the broken glass already owed (rules 5.1).
"""

from __future__ import annotations

from azul.sintra.data import FRAMES, SLOTS, SPACES
from azul.sintra.state import SintraState

TAKE = 1000.0
STRIP = 100.0
WINDOW = 100.0
FULL = (1 << SPACES) - 1


def strips_completed(state: SintraState, seat: int) -> list[int]:
    """For each slot, its strips completed: the window's filled frames, plus one for a full
    strip whose piece for the window is still to be chosen."""
    out = []
    for slot in range(SLOTS):
        frames = state.windows[(seat * SLOTS + slot) * FRAMES : (seat * SLOTS + slot + 1) * FRAMES]
        out.append(sum(1 for f in frames if f >= 0) + (state.fills[seat * SLOTS + slot] == FULL))
    return out


def pieces_placed(state: SintraState, seat: int) -> int:
    """The pieces ``seat`` has placed this game: those on its strips, and the whole strip of
    each it completed (rules 3.3b)."""
    on_strips = sum(bin(state.fills[seat * SLOTS + s]).count("1") for s in range(SLOTS))
    frames = sum(
        1 for f in state.windows[seat * SLOTS * FRAMES : (seat + 1) * SLOTS * FRAMES] if f >= 0
    )
    return on_strips + SPACES * frames


def evaluate(state: SintraState, seat: int) -> float:
    """The big-pile player's value of the position for ``seat``."""
    done = strips_completed(state, seat)
    owed = state.game.components.track[state.track[seat]]  # rules 5.1, at the end
    return (
        TAKE * pieces_placed(state, seat)
        + STRIP * sum(done)
        + WINDOW * sum(1 for n in done if n >= FRAMES)
        + state.points[seat]
        + owed
    )
