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

# The multisets of 0 to CORNER_SPACES tiles a passing player with more than CORNER_SPACES tiles
# may keep (rules 5.8.1: "up to 4"), as colour-count tuples ordered by size, then as
# combinations_with_replacement lists them; their index + 1 is the pass action's offset.
KEEPS: list[tuple[int, ...]] = []
for _size in range(data.CORNER_SPACES + 1):
    for _combo in combinations_with_replacement(range(data.NUM_COLORS), _size):
        KEEPS.append(tuple(_combo.count(c) for c in range(data.NUM_COLORS)))
KEEP_INDEX = {k: i for i, k in enumerate(KEEPS)}

# FITS[c][v]: bitmask over KEEPS of the multisets with at most v tiles of colour c.
_FITS = [
    [sum(1 << i for i, k in enumerate(KEEPS) if k[c] <= v) for v in range(5)]
    for c in range(data.NUM_COLORS)
]
_keeps_fitting: dict[int, tuple[int, ...]] = {}


def keeps_fitting(hand: list[int]) -> tuple[int, ...]:
    """Indices into KEEPS (ascending) of the multisets a hand can keep."""
    mask = -1
    for c, h in enumerate(hand):
        mask &= _FITS[c][h if h < 4 else 4]
    got = _keeps_fitting.get(mask)
    if got is None:
        found = []
        m = mask & ((1 << len(KEEPS)) - 1)
        while m:
            low = m & -m
            found.append(low.bit_length() - 1)
            m ^= low
        got = _keeps_fitting[mask] = tuple(found)
    return got


def payments(n: int, hc: int, hw: int, wild: bool) -> tuple[int, ...]:
    """The numbers of wilds that can pay a space of cost n with hc tiles of the colour and hw
    wilds in hand (rules 5.2, 5.4; section 8 "Legal PLACE")."""
    if wild:  # the wild colour itself: n tiles of it, no mixing
        return (0,) if hc >= n else ()
    if hc < 1:
        return ()
    return tuple(range(max(0, n - hc), min(hw, n - 1) + 1))


def _span(ks: tuple[int, ...]) -> tuple[int, int] | None:
    return (ks[0], ks[-1] + 1) if ks else None


class BoardTables:
    """Per board side: the cost of each space, the number-bonus masks (rules 7.2, 9.1) and the
    legal payments of each space."""

    def __init__(self, side: str):
        costs = data.BOARDS[side]
        self.side = side
        self.grey = side == "grey"
        self.cost = [costs[sp // 6][sp % 6 + 1] for sp in range(data.NUM_SPACES)]
        # wilds[n][min(hc, 6) * 6 + min(hw, 5)] and wild_self[n][min(hc, 6)]: the payments()
        # of a space of cost n as a range (first, last + 1) of wild counts, or None
        self.wilds = [
            [_span(payments(n, hc, hw, False)) for hc in range(7) for hw in range(6)]
            for n in range(7)
        ]
        self.wild_self = [[_span(payments(n, hc, 0, True)) for hc in range(7)] for n in range(7)]
        self.number_masks = tuple(
            (
                number,
                sum(1 << sp for sp in range(data.NUM_SPACES) if self.cost[sp] == number),
                bonus,
            )
            for number, bonus in data.NUMBER_BONUS.items()
        )


BOARD_TABLES = {side: BoardTables(side) for side in data.BOARDS}
