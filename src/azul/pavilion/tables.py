"""Lookup tables computed once at import, so the rules never loop over geometry at play time."""

from itertools import combinations_with_replacement

from azul.pavilion import data

# RUN[mask][i]: length of the unbroken run of filled ring positions through position index i
# (0..5) in a 6-bit ring mask; a full ring counts 6 (rules 5.5).
RUN: list[list[int]] = []
for _m in range(64):
    _row = []
    for _i in range(6):
        if not _m >> _i & 1:
            _row.append(0)
            continue
        if _m == 63:
            _row.append(6)
            continue
        _n = 1
        _j = (_i + 1) % 6
        while _m >> _j & 1:
            _n += 1
            _j = (_j + 1) % 6
        _j = (_i - 1) % 6
        while _m >> _j & 1:
            _n += 1
            _j = (_j - 1) % 6
        _row.append(_n)
    RUN.append(_row)

# EMPTY[mask]: ring position indices (0..5) that are empty in a 6-bit ring mask.
EMPTY = [tuple(i for i in range(6) if not m >> i & 1) for m in range(64)]
# BITS[mask]: colour indices (or positions) set in a 6-bit mask, ascending.
BITS = [tuple(i for i in range(6) if m >> i & 1) for m in range(64)]
POPCOUNT = [bin(m).count("1") for m in range(64)]

# STRUCTURES_AT[space]: (mask of the structure's spaces, reward) for each structure the space is in.
STRUCTURES_AT: list[tuple[tuple[int, int], ...]] = [() for _ in range(data.NUM_SPACES)]
for _kind, _star, _spaces, _reward in data.STRUCTURES:
    _mask = sum(1 << s for s in _spaces)
    for _s in _spaces:
        STRUCTURES_AT[_s] = (*STRUCTURES_AT[_s], (_mask, _reward))

# The multisets of exactly CORNER_SPACES tiles a passing player may keep (rules 5.8), as colour
# count tuples in a fixed order; their index + 1 is the pass action's offset.
KEEPS: list[tuple[int, ...]] = []
for _combo in combinations_with_replacement(range(data.NUM_COLORS), data.CORNER_SPACES):
    KEEPS.append(tuple(_combo.count(c) for c in range(data.NUM_COLORS)))
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}

_keeps_fitting: dict[tuple[int, ...], tuple[int, ...]] = {}


def keeps_fitting(hand: list[int]) -> tuple[int, ...]:
    """Indices into KEEPS of the multisets a hand can keep (memoised on the capped hand)."""
    key = tuple(h if h < 4 else 4 for h in hand)
    got = _keeps_fitting.get(key)
    if got is None:
        found: list[int] = []
        _fit(key, 0, data.CORNER_SPACES, [], found)
        got = _keeps_fitting[key] = tuple(sorted(found))
    return got


def _fit(cap: tuple[int, ...], c: int, left: int, chosen: list[int], found: list[int]) -> None:
    if c == data.NUM_COLORS - 1:
        if left <= cap[c]:
            found.append(KEEP_INDEX[(*chosen, left)])
        return
    for k in range(min(left, cap[c]) + 1):
        chosen.append(k)
        _fit(cap, c + 1, left - k, chosen, found)
        chosen.pop()


class BoardTables:
    """Per board side: the cost of each space and the number-bonus masks (rules 7.2, 9.1)."""

    def __init__(self, side: str):
        costs = data.BOARDS[side]
        self.side = side
        self.grey = side == "grey"
        self.cost = [costs[sp // 6][sp % 6 + 1] for sp in range(data.NUM_SPACES)]
        self.number_masks = tuple(
            (number, sum(1 << sp for sp in range(data.NUM_SPACES) if self.cost[sp] == number),
             bonus)
            for number, bonus in data.NUMBER_BONUS.items()
        )


BOARD_TABLES = {side: BoardTables(side) for side in data.BOARDS}
