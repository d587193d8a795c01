"""How good a Summer Pavilion position is for one seat, in points.

The score, plus what the board and the tiles in hand are likely to bring: end bonuses weighted
by how far the star or number set has come, structures one tile from paying, and tiles in hand
worth about half a point each until they would have to be discarded.
"""

from __future__ import annotations

from azul.pavilion import data
from azul.pavilion.state import OVER, PLAY, PavilionState
from azul.pavilion.tables import POPCOUNT, STRUCTURES_AT

NC = data.NUM_COLORS
_STRUCTURES = [(sum(1 << sp for sp in spaces), reward) for _, _, spaces, reward in data.STRUCTURES]
_AVERAGE_STAR = sum(data.STAR_BONUS_BY_COLOR.values()) / NC


def _star_bonus(state: PavilionState, p: int, star: int, count: int) -> float:
    if not state.game.board.grey or count >= 2:
        return state.star_bonus(p, star)
    return (_AVERAGE_STAR + data.MULTICOLORED_STAR_BONUS) / 2


def evaluate(state: PavilionState, p: int) -> float:
    v = float(state.points[p])
    if state.kind == OVER:
        return v
    filled = state.filled[p]
    late = state.round / data.ROUNDS  # bonuses are surer late, hand tiles are worth less
    for star in range(data.NUM_STARS):
        k = POPCOUNT[(filled >> star * 6) & 63]
        if k:
            weight = 1.0 if k == 6 else 0.35 + 0.35 * late
            v += _star_bonus(state, p, star, k) * (k / 6) ** 2 * weight
    for _number, mask, bonus in state.game.board.number_masks:
        have = bin(filled & mask).count("1")
        need = bin(mask).count("1")
        if have:
            v += bonus * (have / need) ** 3 * (1.0 if have == need else 0.5)
    for mask, reward in _STRUCTURES:
        missing = bin(mask & ~filled).count("1")
        if missing == 1:
            v += 0.5 * reward
    hand = state.hands[p * NC : (p + 1) * NC]
    kept = state.kept[p * NC : (p + 1) * NC]
    wild = state.wild()
    tiles = sum(hand) + sum(kept)
    value = 0.55 if state.round < data.ROUNDS else 0.4
    v += value * min(tiles, 14) + 0.25 * hand[wild]
    if state.kind == PLAY and state.round == data.ROUNDS:
        v -= 0.3 * max(0, tiles - 6)  # what is left after the last round costs 1 each
    return v


def near_structures(sp: int) -> int:
    """How many structures a space belongs to (1 or 2): used to prefer busy spaces."""
    return len(STRUCTURES_AT[sp])
