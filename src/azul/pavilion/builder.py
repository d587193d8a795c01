"""Summer Pavilion's "builder" evaluation style: how a player who builds stars values a position.

Strong human players commit early to a star and fill it for the bonus (rules 7.1: 12 to 20
points a star), then to the next. The builder does the same without any memory, so that it plays
from any position: its target is derived from the position each time it looks.

- **Target**: the incomplete star (``TARGETS`` of them) with the best claim, where a star's claim
  is 3 points per tile already on it, plus the tiles in hand or kept that can go on it (its
  colour on a single-coloured star, each different colour still missing on a multicoloured
  one), plus a point when its colour's wild round is over (collecting it is no longer bent by
  the one-wild-per-take rule, 4.2), plus a twentieth of its bonus; ties go to the lower star
  index. Placing tiles on a target raises its claim, so the target stays put.
- **Value** (``evaluate_builder``): the evaluation of ``azul.pavilion.evaluation`` (the search's),
  plus the ``commitment``: for the target, ``progress`` times its bonus for each sixth of it
  filled, and ``fit`` points for each tile in hand or kept that fits it (up to what its empty
  spaces cost); a completed star keeps ``progress`` times its bonus, so completing a target
  never looks like a loss when the next one is chosen.
"""

from __future__ import annotations

from typing import TypedDict

from azul.pavilion import data
from azul.pavilion.evaluation import evaluate
from azul.pavilion.state import OVER, PavilionState, allowed_colors, star_bonus
from azul.pavilion.tables import BITS, EMPTY, POPCOUNT

NC = data.NUM_COLORS
TARGETS = 1
"""How many stars the builder commits to at a time (two at a time won fewer games)."""


class BuilderWeights(TypedDict):
    progress: float  # share of a target's bonus counted per sixth filled (linear)
    fit: float  # a tile in hand or kept that fits a target
    claim_tile: float  # a target's claim per tile on it
    claim_past: float  # ... when its colour's wild round is over


WEIGHTS: BuilderWeights = {"progress": 1.0, "fit": 0.8, "claim_tile": 3.0, "claim_past": 1.0}

# the round in which each colour is wild (rules 3.2)
_WILD_ROUND = {c: r for r, c in enumerate(data.WILD_BY_ROUND) if r}


def _fit(stock: list[int], allowed: int, single: bool) -> int:
    """Tiles of ``stock`` that can go on a star whose allowed colours are ``allowed``: all the
    tiles of its colour if it is single-coloured (or may become so), else one per colour."""
    if single:
        return max(stock[c] for c in BITS[allowed])
    return sum(1 for c in BITS[allowed] if stock[c])


def targets(state: PavilionState, p: int) -> list[int]:
    """The stars ``p`` builds now: the ``TARGETS`` incomplete stars with the best claim."""
    return [star for _, star in _claims(state, p)[:TARGETS]]


def _claims(state: PavilionState, p: int) -> list[tuple[float, int]]:
    """(claim, star) of each incomplete star of ``p``, best first (see the module docstring)."""
    w = WEIGHTS
    grey = state.game.board.grey
    b = p * NC
    stock = [h + k for h, k in zip(state.hands[b : b + NC], state.kept[b : b + NC], strict=True)]
    filled = state.filled[p]
    out = []
    for star in range(data.NUM_STARS):
        ring = (filled >> star * 6) & 63
        if ring == 63:
            continue
        k = POPCOUNT[ring]
        present = state.colors[p * data.NUM_STARS + star]
        allowed = allowed_colors(grey, star, present, k)
        single = POPCOUNT[allowed] == 1 or (grey and k < 2)
        claim = w["claim_tile"] * k + _fit(stock, allowed, single)
        if single and POPCOUNT[allowed] == 1 and _WILD_ROUND[BITS[allowed][0]] < state.round:
            claim += w["claim_past"]
        claim += star_bonus(grey, star, present) / 20
        out.append((claim, star))
    out.sort(key=lambda cs: (-cs[0], cs[1]))
    return out


def evaluate_builder(state: PavilionState, p: int) -> float:
    """The builder's value of the position for ``p`` (see the module docstring)."""
    v = evaluate(state, p)
    if state.kind == OVER:
        return v
    return v + commitment(state, p)


def commitment(state: PavilionState, p: int) -> float:
    """What the builder adds for its target and completed stars (see the module docstring)."""
    w = WEIGHTS
    grey = state.game.board.grey
    board = state.game.board
    filled = state.filled[p]
    b = p * NC
    stock = [h + k for h, k in zip(state.hands[b : b + NC], state.kept[b : b + NC], strict=True)]
    v = 0.0
    for star in range(data.NUM_STARS):  # completed stars keep their share
        if (filled >> star * 6) & 63 == 63:
            v += w["progress"] * star_bonus(grey, star, state.colors[p * data.NUM_STARS + star])
    for star in targets(state, p):
        ring = (filled >> star * 6) & 63
        k = POPCOUNT[ring]
        present = state.colors[p * data.NUM_STARS + star]
        v += w["progress"] * star_bonus(grey, star, present) * k / 6
        allowed = allowed_colors(grey, star, present, k)
        single = POPCOUNT[allowed] == 1 or (grey and k < 2)
        need = sum(board.cost[star * 6 + i] for i in EMPTY[ring])
        v += w["fit"] * min(_fit(stock, allowed, single), need)
    return v
