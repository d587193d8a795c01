"""How good a Summer Pavilion position is for one seat, in points.

The score, plus what the board and the tiles in hand are likely to bring: end bonuses weighted
by how far the star or number set has come, structures one tile from paying, and tiles in hand
worth about half a point each until they would have to be discarded.
"""

from __future__ import annotations

from azul.pavilion import data
from azul.pavilion.state import OVER, PLAY, PavilionState
from azul.pavilion.tables import POPCOUNT

NC = data.NUM_COLORS
_STRUCTURES = [(sum(1 << sp for sp in spaces), reward) for _, _, spaces, reward in data.STRUCTURES]
_AVERAGE_STAR = sum(data.STAR_BONUS_BY_COLOR.values()) / NC
_SQUARES = [(k / 6) ** 2 for k in range(7)]

# The weights, tuned by self-play matches of the heuristic bot (coordinate search, 60 games a
# step; the result beat the first guess 63% over 200 games).
WEIGHTS = {
    "star_early": 0.35,  # share of a star's bonus counted in round 1 ...
    "star_late": 0.35,  # ... plus this share by round 6 (times (tiles / 6) squared)
    "number": 0.5,  # share of a number bonus counted (times the cube of the share covered)
    "structure": 0.2,  # share of a structure's bonus tiles counted when one space is missing
    "tile": 0.55,  # a tile in hand or kept, rounds 1-5
    "tile_last": 0.55,  # the same in round 6
    "tile_cap": 17,  # tiles beyond this are worth nothing
    "wild": 0.45,  # extra for a tile of the round's wild colour
    "excess_last": 0.5,  # round 6: cost of each tile beyond 6 (leftovers cost 1 each)
}


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
    w = WEIGHTS
    star_weight = w["star_early"] + w["star_late"] * late
    for star in range(data.NUM_STARS):
        k = POPCOUNT[(filled >> star * 6) & 63]
        if k:
            weight = 1.0 if k == 6 else star_weight
            v += _star_bonus(state, p, star, k) * _SQUARES[k] * weight
    for _number, mask, bonus in state.game.board.number_masks:
        have = (filled & mask).bit_count()
        if have:
            need = mask.bit_count()
            v += bonus * (have / need) ** 3 * (1.0 if have == need else w["number"])
    for mask, reward in _STRUCTURES:
        missing = mask & ~filled
        if missing and not missing & (missing - 1):  # exactly one space missing
            v += w["structure"] * reward
    b = p * NC
    hand = state.hands[b : b + NC]
    tiles = sum(hand) + sum(state.kept[b : b + NC])
    value = w["tile"] if state.round < data.ROUNDS else w["tile_last"]
    v += value * min(tiles, w["tile_cap"]) + w["wild"] * hand[data.WILD_BY_ROUND[state.round]]
    if state.kind == PLAY and state.round == data.ROUNDS:
        v -= w["excess_last"] * max(0, tiles - 6)  # leftovers after round 6 cost 1 each
    return v
