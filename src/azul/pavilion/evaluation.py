"""How good a Summer Pavilion position is for one seat, in points (``evaluate``).

It first spends the hand this round by a greedy plan of placements, so tiles count for what they
can buy on this board in this round's wild colour; what the plan leaves over is kept (at most 4)
or discarded at a point each (rules 5.8, 5.9). Tiles that cannot pay for a placement yet earn
part of its value while more are drafted, or when kept for the next round ("pursuit"). A search
that drafts with it sees which colours its board needs.

On the board after the plan it counts the score, end bonuses weighted by how far each star or
number set has come, structures one tile from paying, and a plan for the stars (``star_plan``):
each started star counts a share of its bonus by its progress and by the chance of paying for
its empty spaces in the rounds left, from the tiles of its colour in hand or kept and those a
player can still gather: fewer in the round its colour is wild (one wild a take, rules 4.2),
fewer when an opponent collects the colour too (their tiles of it, their star of it), none
beyond what the game has left of it (22 a colour, less what the boards hold).

Then it adds the player's commitment to one star at a time (``commitment``): strong players
commit early to a star and fill it for the bonus, then to the next.

Search leaves and the builder style use it as it is; the heuristic bot weighs it against the
opponents' (``strategy``).
"""

from __future__ import annotations

from typing import TypedDict

from azul.pavilion import data
from azul.pavilion.commitment import commitment
from azul.pavilion.state import ACQUIRE, OVER, PavilionState, allowed_colors, star_bonus
from azul.pavilion.tables import BITS, BOARD_TABLES, EMPTY, POPCOUNT, RUN, STRUCTURES_AT

NC = data.NUM_COLORS
_STRUCTURES = [(sum(1 << sp for sp in spaces), reward) for _, _, spaces, reward in data.STRUCTURES]
_AVERAGE_STAR = sum(data.STAR_BONUS_BY_COLOR.values()) / NC
_SQUARES = [(k / 6) ** 2 for k in range(7)]
_SIXTHS = [k / 6 for k in range(7)]


class Weights(TypedDict):
    """The weights of the board terms, then the plan's own."""

    star_early: float  # share of a star's bonus counted in round 1 ...
    star_late: float  # ... plus this share by round 6 (times (tiles / 6) squared)
    number: float  # share of a number bonus counted (times the cube of the share covered)
    structure: float  # share of a structure's bonus tiles counted when one space is missing
    plan: float  # share of a started star's bonus counted by progress and chance (star_plan)
    keep: float  # a tile the plan leaves over and keeps for the next round
    bonus_tile: float  # a bonus tile a planned placement earns
    spend: float  # the plan's price of each tile it pays, against a placement's gain (1-5)
    pursuit: float  # share of what the hand gathers toward, while tiles are still drafted
    pursuit_keep: float  # the same for tiles kept for the next round
    commit: float  # weight of the commitment to a star (``commitment``)


# The board terms' weights were tuned by self-play matches of a one-ply bot (coordinate search,
# 60 games a step), the plan's by MCTS matches against the heuristic bot.
WEIGHTS: Weights = {
    "star_early": 0.35,
    "star_late": 0.35,
    "number": 0.5,
    "structure": 0.2,
    "plan": 0.3,
    "keep": 0.8,
    "bonus_tile": 0.8,
    "spend": 0.3,
    "pursuit": 0.5,
    "pursuit_keep": 0.5,
    "commit": 1.0,
}

Option = tuple[float, float, int, int, int, int]
"""A placement the plan weighs: (gain, share of its cost in hand, star, ring position, colour,
cost)."""


def _star_value(grey: bool, star: int, present: int, k: int, weight: float) -> float:
    """A star's bonus counted for ``k`` tiles: in full when complete, else a share."""
    if not k:
        return 0.0
    if grey and k < 2:  # its kind is still open (rules 9.1)
        bonus = (_AVERAGE_STAR + data.MULTICOLORED_STAR_BONUS) / 2
    else:
        bonus = star_bonus(grey, star, present)
    return bonus if k == 6 else bonus * _SQUARES[k] * weight


def _number_value(have: int, need: int, bonus: int, weight: float) -> float:
    """A number bonus counted for ``have`` of its ``need`` spaces: in full when all are
    covered, else ``weight`` times the cube of the share."""
    if not have:
        return 0.0
    return bonus * (have / need) ** 3 * (1.0 if have == need else weight)


NumberGains = dict[int, tuple[int, list[float]]]
"""By printed number: its spaces' mask and the gain of covering one more, by count covered."""
_NUMBER_GAINS: dict[tuple[str, float], NumberGains] = {}


def _number_gains(side: str, weight: float) -> NumberGains:
    """By printed number: (its spaces' mask, the gain in _number_value of covering one more
    space, by the count already covered)."""
    key = (side, weight)
    if key not in _NUMBER_GAINS:
        _NUMBER_GAINS[key] = {
            n: (
                mask,
                [
                    _number_value(done + 1, mask.bit_count(), bonus, weight)
                    - _number_value(done, mask.bit_count(), bonus, weight)
                    for done in range(mask.bit_count())
                ],
            )
            for n, mask, bonus in BOARD_TABLES[side].number_masks
        }
    return _NUMBER_GAINS[key]


def _star_weight(state: PavilionState, w: Weights) -> float:
    return w["star_early"] + w["star_late"] * state.round / data.ROUNDS


def _board(state: PavilionState, filled: int, colors: list[int], w: Weights) -> float:
    """End bonuses and structures, counted by how far they have come."""
    grey = state.game.board.grey
    weight = _star_weight(state, w)
    v = 0.0
    for star in range(data.NUM_STARS):
        v += _star_value(grey, star, colors[star], POPCOUNT[(filled >> star * 6) & 63], weight)
    for _number, mask, bonus in state.game.board.number_masks:
        v += _number_value((filled & mask).bit_count(), mask.bit_count(), bonus, w["number"])
    for mask, reward in _STRUCTURES:
        missing = mask & ~filled
        if missing and not missing & (missing - 1):  # exactly one space missing
            v += w["structure"] * reward
    return v


GATHER = 4.0
"""Tiles of one colour a player building a star can gather in a round: about 10 tiles a round
reach each of 2 players (rules 1.3, 4), a builder takes them in one or two colours."""
GATHER_WILD = 2.0  # in the round that colour is wild: one wild a take (rules 4.2)
RIVAL = 0.15  # the gathering lost per tile an opponent holds of the colour
RIVAL_STAR = 2.0  # tiles an opponent building the star of the colour counts as holding
# _FUTURE[c][r]: what a player can gather of colour c in the rounds after round r (rules 3.2)
_FUTURE = [
    [
        sum(GATHER_WILD if data.WILD_BY_ROUND[q] == c else GATHER for q in range(r + 1, 7))
        for r in range(data.ROUNDS + 1)
    ]
    for c in range(NC)
]
# _NEED[side][star * 64 + ring]: the tiles that pay for a star's empty spaces (rules 5.2)
_NEED = {
    side: [sum(t.cost[star * 6 + i] for i in EMPTY[r]) for star in range(7) for r in range(64)]
    for side, t in BOARD_TABLES.items()
}
_FUTURE_BY_ROUND = [[_FUTURE[c][r] for c in range(NC)] for r in range(data.ROUNDS + 1)]
_WILD_SHARE = GATHER_WILD / GATHER
# the shift of each colour's star on the coloured side
_STAR_OF = {c: s * 6 for s, c in enumerate(data.STAR_COLOR) if c >= 0}
_OTHERS = {n: [[q for q in range(n) if q != p] for p in range(n)] for n in data.FACTORIES}


def star_plan(
    state: PavilionState, p: int, filled: int, colors: list[int], stock: list[int]
) -> float:
    """Points of the started, incomplete stars of ``p`` (board ``filled``, star ``colors``,
    tiles in hand and kept ``stock``): each its bonus times its share filled times the chance
    of paying for its empty spaces, squared. The chance is what pays (tiles of its colour in
    ``stock``, and those gathered in this round's drafting and the rounds left: fewer in the
    colour's wild round, fewer for each tile an opponent holds of it or needs for their own
    star of it, never more than the game has left of it) over what its spaces cost. A
    multicoloured star counts tiles of every colour it still takes."""
    board = state.game.board
    grey = board.grey
    need_of = _NEED[board.side]
    rnd = state.round
    future = _FUTURE_BY_ROUND[rnd]
    wild = data.WILD_BY_ROUND[rnd]
    now = 0.0
    if state.kind == ACQUIRE:  # this round's drafting is not over
        now = GATHER * sum(state.sources) / (state.game.factories * data.TILES_PER_FACTORY)
    hands, kept, others_filled, others_colors = state.hands, state.kept, state.filled, state.colors
    others = _OTHERS[state.game.players][p]
    v = 0.0
    for star in range(data.NUM_STARS):
        ring = (filled >> star * 6) & 63
        k = POPCOUNT[ring]
        if not k or k == 6:
            continue
        present = colors[star]
        need = need_of[star * 64 + ring]
        if (star and not grey) or (grey and POPCOUNT[present] == 1):  # one colour
            c = BITS[present][0]
            have = stock[c]
            gather = future[c] + (now if c != wild else now * _WILD_SHARE)
            rival = 0.0
            left = float(data.TILES_PER_COLOR - have)
            for q in others:
                held = hands[q * NC + c] + kept[q * NC + c]
                rival += held
                left -= held
                if not grey:  # their star of the colour and their centre star
                    theirs = POPCOUNT[(others_filled[q] >> _STAR_OF[c]) & 63]
                    left -= theirs + (others_colors[q * data.NUM_STARS] >> c & 1)
                    if 0 < theirs < 6:
                        rival += RIVAL_STAR
            if not grey:
                left -= k + (colors[0] >> c & 1)
            if rival:
                gather /= 1.0 + RIVAL * rival
            if gather > left:
                gather = left if left > 0.0 else 0.0
        else:  # multicoloured: any colour it still takes
            have = 0
            for c in BITS[allowed_colors(grey, star, present, k)]:
                have += stock[c]
            gather = GATHER * (data.ROUNDS - rnd) + now
        chance = (have + gather) / need
        worth = _SIXTHS[k] * star_bonus(grey, star, present)
        v += worth if chance >= 1.0 else worth * chance * chance
    return v


def _colors(state: PavilionState, p: int) -> list[int]:
    return state.colors[p * data.NUM_STARS : (p + 1) * data.NUM_STARS]


# evaluate's memo: what a seat's hand, kept tiles and board are worth in a round and
# phase (MCTS leaves share them often); it assumes WEIGHTS do not change.
SeenKey = tuple[str | int, ...]
"""Board side, round, drafting, passed, then the seat's hand, kept tiles, board and stars."""
Known = tuple[float, float, int, list[int], list[int]]
"""What the memo keeps of a seat: the plan's points + leftovers + board terms + commitment,
the pursuit value, and the board (filled, star colours) and tiles (hand and kept) after the plan."""
_SEEN: dict[SeenKey, Known] = {}


def evaluate(state: PavilionState, p: int) -> float:
    """Score, the points of a greedy plan for the hand this round, board terms after the plan,
    the tiles it leaves over (kept, at most 4, or discarded: rules 5.8, 5.9), and a share of
    what the leftover tiles are gathering toward (``pursuit``)."""
    v = float(state.points[p])
    if state.kind == OVER:
        return v
    w = WEIGHTS
    if state.owed and state.player == p:  # bonus tiles about to be chosen (rules 5.6)
        v += state.owed * w["bonus_tile"]
    b = p * NC
    acquire = state.kind == ACQUIRE
    key: SeenKey = (
        state.game.board.side,
        state.round,
        acquire,
        state.passed >> p & 1,
        *state.hands[b : b + NC],
        *state.kept[b : b + NC],
        state.filled[p],
        *_colors(state, p),
    )
    known = _SEEN.get(key)
    if known is None:
        if len(_SEEN) > 100_000:  # about 40 MB
            _SEEN.clear()
        known = _SEEN[key] = _hand_and_board(state, p)
    base, pursuit, filled, colors, stock = known
    if pursuit:  # more tiles to come this round
        share = sum(state.sources) / (state.game.factories * data.TILES_PER_FACTORY)
        v += w["pursuit"] * share * pursuit
    if w["plan"]:  # on the board after the plan, with what it leaves
        v += w["plan"] * star_plan(state, p, filled, colors, stock)
    return v + base


def _hand_and_board(state: PavilionState, p: int) -> Known:
    """(the plan's points + leftovers + board terms + commitment, the pursuit value while
    drafting, the board and tiles after the plan)."""
    w = WEIGHTS
    b = p * NC
    hand = state.hands[b : b + NC]
    kept = state.kept[b : b + NC]
    filled, colors = state.filled[p], _colors(state, p)
    wild = data.WILD_BY_ROUND[state.round]
    last = state.round == data.ROUNDS
    v = pursuit = 0.0
    if not state.passed >> p & 1 and any(hand):
        gained, filled = _plan(state, hand, filled, colors, wild)
        v += gained
        if state.kind == ACQUIRE and not last:
            pursuit = _pursuit(state, hand, filled, colors, wild)
    left = sum(hand) + sum(kept)
    if last:
        v -= left  # rules 5.9, 7.3
    else:
        keep = min(left, data.CORNER_SPACES)
        v += w["keep"] * keep - (left - keep)
        if state.kind != ACQUIRE and 0 < left <= data.CORNER_SPACES:  # kept for next round
            stock = [h + k for h, k in zip(hand, kept, strict=True)]
            nxt = data.WILD_BY_ROUND[state.round + 1]
            v += w["pursuit_keep"] * _pursuit(state, stock, filled, colors, nxt)
    stock = [h + k for h, k in zip(hand, kept, strict=True)]
    # what the plan leaves in round 6 is lost (rules 5.9): it fits no target
    v += w["commit"] * commitment(state, filled, colors, [0] * NC if last else stock)
    return v + _board(state, filled, colors, w), pursuit, filled, colors, stock


def _options(
    state: PavilionState, hand: list[int], filled: int, colors: list[int], wild: int, payable: bool
) -> list[Option]:
    """The placements of a colour in hand on an empty space that the hand can pay (``payable``,
    rules 5.2, 5.4) or cannot pay yet: (gain, share, star, i, colour, cost). The gain is its
    points, bonus progress and bonus tiles less ``spend`` per tile paid; the share is how much
    of the cost the hand can pay."""
    board = state.game.board
    grey, cost = board.grey, board.cost
    w = WEIGHTS
    weight = _star_weight(state, w)
    # in the last round a tile not spent costs a point (rules 5.9): spending is free
    spend = 0.0 if state.round == data.ROUNDS else w["spend"]
    bonus_tile = w["bonus_tile"]
    numbers = _number_gains(board.side, w["number"])
    hw = hand[wild]
    out: list[Option] = []
    for star in range(data.NUM_STARS):
        ring = (filled >> star * 6) & 63
        if ring == 63:
            continue
        k = POPCOUNT[ring]
        present = colors[star]
        before = _star_value(grey, star, present, k, weight)
        for c in BITS[allowed_colors(grey, star, present, k)]:
            hc = hand[c]
            if not hc:
                continue
            progress = _star_value(grey, star, present | 1 << c, k + 1, weight) - before
            for i in EMPTY[ring]:
                sp = star * 6 + i
                n = cost[sp]
                have = hc if c == wild else hc + (hw if hw < n else n - 1)
                if (have >= n) != payable:
                    continue
                gain = RUN[ring | 1 << i][i] + progress - spend * n
                number = numbers.get(n)
                if number:
                    gain += number[1][(filled & number[0]).bit_count()]
                now = filled | 1 << sp
                for mask, reward in STRUCTURES_AT[sp]:
                    if now & mask == mask:
                        gain += reward * bonus_tile
                out.append((gain, have / n, star, i, c, n))
    return out


def _plan(
    state: PavilionState, hand: list[int], filled: int, colors: list[int], wild: int
) -> tuple[float, int]:
    """Place tiles from ``hand`` one at a time, each time the payable placement of best gain,
    while one gains; the colour is paid before wilds. Changes ``hand`` and ``colors``; returns
    (points, filled)."""
    gained = 0.0
    while True:
        best, best_gain = None, 0.0
        for option in _options(state, hand, filled, colors, wild, payable=True):
            if option[0] > best_gain:
                best, best_gain = option, option[0]
        if best is None:
            return gained, filled
        _, _, star, i, c, n = best
        sp = star * 6 + i
        filled |= 1 << sp
        colors[star] |= 1 << c
        gained += RUN[(filled >> star * 6) & 63][i]
        for mask, reward in STRUCTURES_AT[sp]:
            if filled & mask == mask:
                gained += reward * WEIGHTS["bonus_tile"]
        paid = min(hand[c], n)
        hand[c] -= paid
        hand[wild] -= n - paid


def _pursuit(
    state: PavilionState, hand: list[int], filled: int, colors: list[int], wild: int
) -> float:
    """For each colour but the wild, the best placement the hand cannot pay yet, its gain
    times the share of its cost in hand squared: what the tiles are gathering toward."""
    best = [0.0] * NC
    for gain, share, _star, _i, c, _n in _options(state, hand, filled, colors, wild, payable=False):
        if c != wild:
            value = gain * share * share
            if value > best[c]:
                best[c] = value
    return sum(best)
