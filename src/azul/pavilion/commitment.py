"""A Summer Pavilion player's commitment to a star, as players who build stars value it.

Strong human players commit early to a star and fill it for the bonus (rules 7.1: 12 to 20
points a star), then to the next. The evaluation (``azul.pavilion.evaluation``) does the same
without any memory, so that it plays from any position: the target is derived from the position
each time it looks.

- **Target**: the incomplete star (``TARGETS`` of them) with the best claim, where a star's claim
  is 3 points per tile already on it, plus the tiles in hand or kept that can go on it (its
  colour on a single-coloured star, each different colour still missing on a multicoloured
  one), plus a point when its colour's wild round is over (collecting it is no longer bent by
  the one-wild-per-take rule, 4.2), plus a twentieth of its bonus; ties go to the lower star
  index. Placing tiles on a target raises its claim, so the target stays put.
- **Value** (``commitment``): for the target, ``progress`` times its bonus for each sixth of it
  filled, and ``fit`` points for each tile in hand or kept that fits it (up to what its empty
  spaces cost); a completed star keeps ``progress`` times its bonus, so completing a target
  never looks like a loss when the next one is chosen.
"""

from __future__ import annotations

from typing import TypedDict

from azul.pavilion import data
from azul.pavilion.state import PavilionState, allowed_colors, star_bonus
from azul.pavilion.tables import BITS, EMPTY, POPCOUNT

NC = data.NUM_COLORS
TARGETS = 1
"""How many stars a player commits to at a time (two at a time won fewer games)."""


class CommitmentWeights(TypedDict):
    progress: float  # share of a target's bonus counted per sixth filled (linear)
    fit: float  # a tile in hand or kept that fits a target
    claim_tile: float  # a target's claim per tile on it
    claim_past: float  # ... when its colour's wild round is over


WEIGHTS: CommitmentWeights = {"progress": 1.0, "fit": 0.8, "claim_tile": 3.0, "claim_past": 1.0}

# the round in which each colour is wild (rules 3.2)
_WILD_ROUND = {c: r for r, c in enumerate(data.WILD_BY_ROUND) if r}


def _fit(stock: list[int], allowed: int, single: bool) -> int:
    """Tiles of ``stock`` that can go on a star whose allowed colours are ``allowed``: all the
    tiles of its colour if it is single-coloured (or may become so), else one per colour."""
    if single:
        return max(stock[c] for c in BITS[allowed])
    return sum(1 for c in BITS[allowed] if stock[c])


def targets(state: PavilionState, p: int) -> list[int]:
    """The stars ``p`` is committed to now: the ``TARGETS`` incomplete stars with the best claim."""
    b = p * NC
    stock = [h + k for h, k in zip(state.hands[b : b + NC], state.kept[b : b + NC], strict=True)]
    colors = state.colors[p * data.NUM_STARS : (p + 1) * data.NUM_STARS]
    return [star for _, star, _ in _stars(state, state.filled[p], colors, stock)[:TARGETS]]


def commitment(state: PavilionState, filled: int, colors: list[int], stock: list[int]) -> float:
    """Points for the target and the completed stars of a board (``filled``, star ``colors``)
    with tiles in hand and kept ``stock`` (see the module docstring)."""
    grey = state.game.board.grey
    v = 0.0
    for star in range(data.NUM_STARS):  # completed stars keep their share
        if (filled >> star * 6) & 63 == 63:
            v += WEIGHTS["progress"] * star_bonus(grey, star, colors[star])
    return v + sum(value for _, _, value in _stars(state, filled, colors, stock)[:TARGETS])


def _stars(
    state: PavilionState, filled: int, colors: list[int], stock: list[int]
) -> list[tuple[float, int, float]]:
    """(claim, star, value as a target) of each incomplete star, best claim first (see the
    module docstring)."""
    w = WEIGHTS
    board = state.game.board
    grey = board.grey
    out = []
    for star in range(data.NUM_STARS):
        ring = (filled >> star * 6) & 63
        if ring == 63:
            continue
        k = POPCOUNT[ring]
        present = colors[star]
        bonus = star_bonus(grey, star, present)
        allowed = allowed_colors(grey, star, present, k)
        single = POPCOUNT[allowed] == 1 or (grey and k < 2)
        fit = _fit(stock, allowed, single)
        claim = w["claim_tile"] * k + fit + bonus / 20
        if single and POPCOUNT[allowed] == 1 and _WILD_ROUND[BITS[allowed][0]] < state.round:
            claim += w["claim_past"]
        need = sum(board.cost[star * 6 + i] for i in EMPTY[ring])
        out.append((claim, star, w["progress"] * bonus * k / 6 + w["fit"] * min(fit, need)))
    out.sort(key=lambda cs: (-cs[0], cs[1]))
    return out
