"""The rules of Summer Pavilion: legal actions and their effects on a flat state.

The state is a handful of lists of small ints (see DESIGN.md "Speed"); ``clone()`` copies them.
Section numbers in comments refer to ``rules/summer-pavilion.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from azul.core.dealt import DealtState, ScoreLines
from azul.core.errors import AzulError, IllegalMoveError, Word
from azul.core.rng import next_below, next_weighted, seed_state
from azul.core.scoring import deduct
from azul.pavilion import data
from azul.pavilion.actions import (
    BONUS,
    PASS,
    PLACE,
    TAKE,
    chance_to_string,
    space_name,
)
from azul.pavilion.tables import BITS, EMPTY, KEEPS, POPCOUNT, RUN, STRUCTURES_AT, keeps_fitting

if TYPE_CHECKING:
    from azul.pavilion.game import PavilionGame

# What the player to move decides (``kind``).
ACQUIRE, PLAY, BONUS_PICK, OVER = range(4)
KIND_NAMES = ("take", "place", "bonus", "over")
# Where a pending draw goes: the supply, the first-player choice, or a factory (1..F).
TO_SUPPLY, FIRST_PLAYER = -1, -2
NC = data.NUM_COLORS
ALL_COLORS = (1 << NC) - 1


def _take_ids(w: int, base: int, counts: list[int]) -> tuple[int, ...]:
    """The take actions of one source: each non-wild colour present, or the wild alone when the
    source holds nothing else (rules 4.2, 4.3)."""
    total = sum(counts)
    if not total:
        return ()
    if counts[w] == total:
        return (base + w,)
    return tuple(base + c for c in range(NC) if counts[c] and c != w)


_TAKES: dict[tuple[int, ...], tuple[int, ...]] = {}  # memo of _take_ids


def allowed_colors(grey: bool, star: int, present: int, count: int) -> int:
    """Bitmask of the colours that may go on ``star``, given the bitmask of colours ``present``
    on it and its ``count`` of tiles (rules 5.3, 9.1)."""
    if not grey:
        if star:
            return 1 << data.STAR_COLOR[star]
        return ALL_COLORS & ~present
    if count < 2:
        return ALL_COLORS
    if POPCOUNT[present] == 1:
        return present
    return ALL_COLORS & ~present


def star_bonus(grey: bool, star: int, present: int) -> int:
    """Bonus of ``star`` once complete, given the colours ``present`` on it: multicoloured 12,
    else by its colour (rules 7.1, 9.1)."""
    if grey:
        if POPCOUNT[present] == 1:
            return data.STAR_BONUS_BY_COLOR[BITS[present][0]]
        return data.MULTICOLORED_STAR_BONUS
    if star == 0:
        return data.MULTICOLORED_STAR_BONUS
    return data.STAR_BONUS_BY_COLOR[data.STAR_COLOR[star]]


class PavilionState(DealtState):
    """A position of Summer Pavilion."""

    KIND_NAMES = KIND_NAMES
    OVER = OVER
    game: PavilionGame
    deals: list[int]  # where each pending draw goes: TO_SUPPLY, FIRST_PLAYER or a factory

    __slots__ = (
        "bag",
        "cells",
        "colors",
        "filled",
        "hands",
        "kept",
        "owed",
        "passed",
        "round",
        "sources",
        "start",
        "supply",
        "token",
        "tower",
    )

    def __init__(self, game: PavilionGame, seed: int = 0, *, setup: bool = True):
        self.game = game
        self.final: ScoreLines | None = None  # the end-of-game breakdown, once scored
        self.drawn = 0  # draws resolved (State.draws)
        if not setup:
            return
        n = game.players
        self.sources = [0] * (game.factories + 1) * NC  # source 0 is the centre (rules 4.3)
        self.supply = [0] * NC
        self.bag = [data.TILES_PER_COLOR] * NC
        self.tower = [0] * NC
        self.hands = [0] * n * NC
        self.kept = [0] * n * NC  # the 4 corner spaces (rules 5.8)
        self.cells = [-1] * n * data.NUM_SPACES  # colour on each space, -1 empty
        self.filled = [0] * n  # 42-bit mask of covered spaces per player
        self.colors = [0] * n * data.NUM_STARS  # colour bitmask per player and star
        self.points = [data.START_SCORE] * n
        self.passed = 0
        self.round = 1
        self.kind = ACQUIRE
        self.owed = 0
        self.token = -1  # seat holding the start player token; -1: in the centre
        self._rng = seed_state(seed)
        self.hist: list[int] = []
        first = game.options["first_player"]
        self.start = self.player = 0 if first is None else first
        # rules 2 and "order of draws": first player, then the supply, then factory by factory.
        self.deals = [FIRST_PLAYER] if first is None else []
        self.deals += [TO_SUPPLY] * data.SUPPLY_SPACES
        self.deals += [
            f for f in range(1, game.factories + 1) for _ in range(data.TILES_PER_FACTORY)
        ]
        if not game.explicit_chance:
            self._draw_all()

    # ------------------------------------------------------------------ cheap copies
    def clone(self) -> PavilionState:
        s = PavilionState.__new__(PavilionState)
        s.game = self.game
        s.sources = self.sources[:]
        s.supply = self.supply[:]
        s.bag = self.bag[:]
        s.tower = self.tower[:]
        s.hands = self.hands[:]
        s.kept = self.kept[:]
        s.cells = self.cells[:]
        s.filled = self.filled[:]
        s.colors = self.colors[:]
        s.points = self.points[:]
        s.deals = self.deals[:]
        s.hist = self.hist[:]
        s.passed = self.passed
        s.round = self.round
        s.kind = self.kind
        s.owed = self.owed
        s.token = self.token
        s.start = self.start
        s.player = self.player
        s._rng = self._rng
        s.final = self.final
        s.drawn = self.drawn
        return s

    # ------------------------------------------------------------------ queries
    def wild(self) -> int:
        """The wild colour of the current round (rules 3.2)."""
        return data.WILD_BY_ROUND[self.round]

    def count_pieces(self) -> int:
        return (
            sum(self.sources)
            + sum(self.supply)
            + sum(self.bag)
            + sum(self.tower)
            + sum(self.hands)
            + sum(self.kept)
            + sum(bin(f).count("1") for f in self.filled)
        )

    def allowed_colors(self, seat: int, star: int) -> int:
        """Bitmask of the colours that may go on ``star`` of ``seat`` (rules 5.3, 9.1)."""
        return allowed_colors(
            self.game.board.grey,
            star,
            self.colors[seat * data.NUM_STARS + star],
            POPCOUNT[(self.filled[seat] >> star * 6) & 63],
        )

    def legal_actions(self) -> list[int]:
        if self.deals:
            return [c for c, _ in self.chance_outcomes()]
        kind = self.kind
        space = self.game.actions
        p = self.player
        if kind == ACQUIRE:
            return self._legal_takes()
        if kind == BONUS_PICK:
            base = space.bonus_base
            return [base + c for c in range(NC) if self.supply[c]]
        if kind == OVER:
            return []
        out = self._legal_placements()
        hand = self.hands[p * NC : (p + 1) * NC]
        if sum(hand) <= data.CORNER_SPACES or self._discards_all():
            out.append(space.pass_base)
        else:
            base = space.pass_base + 1
            out.extend(base + i for i in keeps_fitting(hand))
        return out

    def _legal_takes(self) -> list[int]:
        out: list[int] = []
        w = data.WILD_BY_ROUND[self.round]
        src = self.sources
        for b in range(0, len(src), NC):
            key = (w, b, *src[b : b + NC])
            ids = _TAKES.get(key)
            if ids is None:
                ids = _TAKES[key] = _take_ids(w, b, src[b : b + NC])
            if ids:
                out += ids
        return out

    def _legal_placements(self) -> list[int]:
        out: list[int] = []
        p = self.player
        h = self.hands[p * NC : (p + 1) * NC]
        w = data.WILD_BY_ROUND[self.round]
        hw = h[w] if h[w] < 5 else 5
        board = self.game.board
        cost = board.cost
        wilds = board.wilds
        wild_self = board.wild_self
        filled = self.filled[p]
        base0 = self.game.actions.place_base
        grey = board.grey
        colors = self.colors
        cb = p * data.NUM_STARS
        in_hand = 0
        for c in range(NC):
            if h[c]:
                in_hand |= 1 << c
        for star in range(data.NUM_STARS):
            ring = (filled >> star * 6) & 63
            if ring == 63:
                continue
            cols = BITS[allowed_colors(grey, star, colors[cb + star], POPCOUNT[ring]) & in_hand]
            if not cols:
                continue
            for i in EMPTY[ring]:
                sp = star * 6 + i
                n = cost[sp]
                base = base0 + sp * 36
                for c in cols:
                    hc = h[c] if h[c] < 6 else 6
                    ks = wild_self[n][hc] if c == w else wilds[n][hc * 6 + hw]
                    if ks:
                        b = base + c * 6
                        out.extend(range(b + ks[0], b + ks[1]))
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the pending random draw (rules 2, 5.7, 6)."""
        if not self.deals:
            raise AzulError("no random draw is pending: this is not a chance node")
        if self.deals[0] == FIRST_PLAYER:
            n = self.game.players
            return [(i, 1.0 / n) for i in range(n)]
        total = sum(self.bag)
        return [(c, k / total) for c, k in enumerate(self.bag) if k]

    # ------------------------------------------------------------------ notation
    def _chance_string(self, outcome: int) -> str:
        return chance_to_string(self.deals[0] == FIRST_PLAYER, outcome)

    # ------------------------------------------------------------------ moves
    def _move(self, action: int) -> None:
        space = self.game.actions
        what, x, y, z = space.decode[action]
        kind = self.kind
        if kind == ACQUIRE:
            if what != TAKE:
                raise IllegalMoveError(
                    "{move}: now is the time to take tiles from a factory or the centre",
                    move=space.to_string(action),
                )
            self._take(x, y)
        elif kind == BONUS_PICK:
            if what != BONUS:
                raise IllegalMoveError(
                    "{move}: first take your bonus tiles from the supply ({n} to take), e.g. 'S:R'",
                    move=space.to_string(action),
                    n=self.owed,
                )
            self._bonus(x)
        elif what == PLACE:
            self._place(x, y, z)
        elif what == PASS:
            self._pass(x)
        else:
            raise IllegalMoveError(
                "{move}: now is the time to place a tile or pass", move=space.to_string(action)
            )

    def _take(self, source: int, c: int) -> None:
        """Phase 1: take tiles from a factory or the centre (rules 4.2-4.4)."""
        src = self.sources
        b = source * NC
        w = data.WILD_BY_ROUND[self.round]
        total = sum(src[b : b + NC])
        if not src[b + c]:
            if source == 0:
                raise IllegalMoveError("the centre has no {color} tile", color=Word(data.COLORS[c]))
            raise IllegalMoveError(
                "factory {factory} has no {color} tile", factory=source, color=Word(data.COLORS[c])
            )
        p = self.player
        hand = self.hands
        h = p * NC
        if c == w:
            if src[b + w] != total:
                raise IllegalMoveError(
                    "{color} is wild this round: take another colour (one wild comes with it)",
                    color=Word(data.COLORS[w]),
                )
            taken = 1
            src[b + w] -= 1
            hand[h + w] += 1
        else:
            taken = src[b + c]
            src[b + c] = 0
            hand[h + c] += taken
            if src[b + w]:  # exactly one wild comes along (rules 4.2)
                src[b + w] -= 1
                hand[h + w] += 1
                taken += 1
        if source:  # the rest of a factory goes to the centre (rules 4.2)
            for k in range(NC):
                if src[b + k]:
                    src[k] += src[b + k]
                    src[b + k] = 0
        elif self.token < 0:  # first from the centre takes the token and loses points (rules 4.4)
            self.token = p
            self.points[p] = self._deduct(self.points[p], taken)
        if any(src):
            self.player = (p + 1) % self.game.players
        else:
            self._start_play()

    def _start_play(self) -> None:
        """Phase 2 starts with the token holder, or with this round's start player when nobody
        took from the centre (rules 4.6-4.8)."""
        self.kind = PLAY
        self.passed = 0
        self._next_in_play(self.token if self.token >= 0 else self.start, include_self=True)

    def _place(self, sp: int, c: int, k: int) -> None:
        """Phase 2: pay for and place one tile, score it, maybe earn bonus tiles (rules 5.2-5.6)."""
        p = self.player
        star, i = divmod(sp, 6)
        bit = 1 << sp
        filled = self.filled[p]
        if filled & bit:
            raise IllegalMoveError("space {space} is already filled", space=space_name(sp))
        if not self.allowed_colors(p, star) >> c & 1:
            raise self._why_color_not_allowed(p, star, c)
        n = self.game.board.cost[sp]
        w = data.WILD_BY_ROUND[self.round]
        h = p * NC
        hand = self.hands
        hc = hand[h + c]
        hw = hand[h + w]
        name, wild = Word(data.COLORS[c]), Word(data.COLORS[w])
        if c == w:  # rules 5.4
            if k:
                raise IllegalMoveError(
                    "{color} is wild this round: a {color} tile is paid with {color} tiles only, "
                    "so no '+wilds'",
                    color=name,
                )
            if hc < n:
                raise IllegalMoveError(
                    "costs {n}: hand has {have} {color} (wild)", n=n, have=hc, color=name
                )
        else:
            if not hc:
                raise IllegalMoveError(
                    "costs {n}: hand has {have} {color} and {wilds} wild ({wild}), and at least "
                    "one must be {color}",
                    **dict(n=n, have=hc, color=name, wilds=hw, wild=wild),
                )
            if hc + hw < n:
                raise IllegalMoveError(
                    "costs {n}: hand has {have} {color} and {wilds} wild ({wild})",
                    **dict(n=n, have=hc, color=name, wilds=hw, wild=wild),
                )
            if k > n - 1:
                raise IllegalMoveError(
                    "space {space} costs {n}: wilds pay at most {most} of it",
                    space=space_name(sp),
                    n=n,
                    most=n - 1,
                )
            if k > hw:
                raise IllegalMoveError(
                    "cannot pay {k} with wilds: hand has {wilds} {wild}", k=k, wilds=hw, wild=wild
                )
            if n - k > hc:
                raise IllegalMoveError(
                    "costs {n}: paying {k} with wilds leaves {rest} {color}, hand has {have}",
                    n=n,
                    k=k,
                    rest=n - k,
                    color=name,
                    have=hc,
                )
        # pay: n - k of colour c (one of them placed) and k wilds; the rest to the tower
        hand[h + c] -= n - k
        hand[h + w] -= k
        self.tower[c] += n - k - 1
        self.tower[w] += k
        filled |= bit
        self.filled[p] = filled
        self.cells[p * data.NUM_SPACES + sp] = c
        self.colors[p * data.NUM_STARS + star] |= 1 << c
        self.points[p] += RUN[(filled >> star * 6) & 63][i]  # rules 5.5
        bonus = 0
        for mask, reward in STRUCTURES_AT[sp]:  # rules 5.6
            if filled & mask == mask:
                bonus += reward
        if bonus:
            self.owed = min(bonus, sum(self.supply))  # rules 5.7: take all there is
        if self.owed:
            self.kind = BONUS_PICK
        else:
            self._end_turn()

    def _why_color_not_allowed(self, p: int, star: int, c: int) -> IllegalMoveError:
        name = Word(data.COLORS[c])
        present = self.colors[p * data.NUM_STARS + star]
        if not self.game.board.grey:
            if star:
                return IllegalMoveError(
                    "the {star} star takes only {star} tiles, not {color}",
                    star=Word(data.STARS[star]),
                    color=name,
                )
            return IllegalMoveError("the centre star already has a {color} tile", color=name)
        if POPCOUNT[present] == 1:
            return IllegalMoveError(
                "star {star} is single-coloured {only}: {color} cannot go on it",
                star=data.STAR_LETTERS[star],
                only=Word(data.COLORS[BITS[present][0]]),
                color=name,
            )
        return IllegalMoveError(
            "star {star} is multicoloured and already has a {color} tile",
            star=data.STAR_LETTERS[star],
            color=name,
        )

    def _bonus(self, c: int) -> None:
        """Take one chosen bonus tile from the supply (rules 5.6)."""
        if not self.supply[c]:
            raise IllegalMoveError("the supply has no {color} tile", color=Word(data.COLORS[c]))
        self.supply[c] -= 1
        self.hands[self.player * NC + c] += 1
        self.owed -= 1
        if not self.owed:
            self.kind = PLAY
            self._end_turn()

    def _pass(self, x: int) -> None:
        """Keep the whole hand (4 tiles or fewer), or 0 to 4 tiles of a larger hand; discard the
        rest at -1 each (rules 5.8)."""
        p = self.player
        h = p * NC
        hand = self.hands[h : h + NC]
        total = sum(hand)
        keep: Sequence[int]  # colour counts kept
        if self._discards_all():  # option round6_leftovers="at_pass"
            if x:
                raise IllegalMoveError("every tile is discarded at the last pass: say just 'pass'")
            keep = [0] * NC
        elif x == 0:
            if total > data.CORNER_SPACES:
                raise IllegalMoveError(
                    "the hand has {total} tiles: say which to keep, up to {n}, e.g. '{example}', "
                    "or 'pass:-' to keep none",
                    total=total,
                    n=data.CORNER_SPACES,
                    example="pass:" + self._example_keep(hand),
                )
            keep = hand
        else:
            keep = KEEPS[x - 1]
            if total <= data.CORNER_SPACES:
                raise IllegalMoveError(
                    "a hand of {n} tiles or fewer is kept whole: say just 'pass'",
                    n=data.CORNER_SPACES,
                )
            for c in range(NC):
                if keep[c] > hand[c]:
                    raise IllegalMoveError(
                        "cannot keep {n} {color}: hand has {have}",
                        n=keep[c],
                        color=Word(data.COLORS[c]),
                        have=hand[c],
                    )
        for c in range(NC):
            self.kept[h + c] = keep[c]
            self.tower[c] += hand[c] - keep[c]
            self.hands[h + c] = 0
        self.points[p] = self._deduct(self.points[p], total - sum(keep))
        self.passed |= 1 << p
        self._end_turn()

    def _discards_all(self) -> bool:
        return self.round == data.ROUNDS and self.game.discard_at_last_pass

    @staticmethod
    def _example_keep(hand: list[int]) -> str:
        letters = "".join(data.COLOR_LETTERS[c] * n for c, n in enumerate(hand))
        return letters[: data.CORNER_SPACES]

    # ------------------------------------------------------------------ flow
    def _deduct(self, score: int, n: int) -> int:
        """A deduction that stops at the score floor (project decision ``score_floor``)."""
        return deduct(score, n, self.game.options["score_floor"])

    def _end_turn(self) -> None:
        """After every Phase-2 turn: refill the supply, then the next player (rules 5.1, 5.7)."""
        missing = data.SUPPLY_SPACES - sum(self.supply)
        if missing:
            self.deals += [TO_SUPPLY] * missing
            self._recycle()
        self._next_in_play(self.player, include_self=False)

    def _next_in_play(self, p: int, include_self: bool) -> None:
        """Hand the turn to the next player clockwise who has not passed; empty hands pass."""
        n = self.game.players
        for step in range(0 if include_self else 1, n + 1):
            q = (p + step) % n
            if self.passed >> q & 1:
                continue
            if any(self.hands[q * NC : (q + 1) * NC]):
                self.player = q
                return
            self.passed |= 1 << q  # project decision "empty hand": automatic pass
        self._end_round()

    def _end_round(self) -> None:
        """Phase 3 (rules 6), or end-game scoring after round 6 (rules 7)."""
        if self.round == data.ROUNDS:
            self._final_scoring()
            return
        self.round += 1
        if self.token >= 0:
            self.start = self.token
        self.token = -1
        for i in range(len(self.kept)):
            self.hands[i] += self.kept[i]
            self.kept[i] = 0
        self.passed = 0
        self.kind = ACQUIRE
        self.player = self.start
        self.deals += [
            f for f in range(1, self.game.factories + 1) for _ in range(data.TILES_PER_FACTORY)
        ]
        self._recycle()

    def _final_scoring(self) -> None:
        self.deals.clear()  # a refill after the last pass changes nothing
        final = []
        for p in range(self.game.players):
            lines = [("play", "", self.points[p]), *self.end_bonuses(p)]
            score = sum(points for _, _, points in lines)
            left = 0  # rules 7.3: -1 per tile still kept or in hand
            for c in range(NC):
                i = p * NC + c
                n = self.kept[i] + self.hands[i]
                self.tower[c] += n
                self.kept[i] = self.hands[i] = 0
                left += n
            self.points[p] = self._deduct(score, left)
            if left:
                lines.append(("leftovers", str(left), self.points[p] - score))
            final.append(tuple(lines))
        self.final = tuple(final)
        self.kind = OVER

    def end_bonuses(self, p: int) -> list[tuple[str, str, int]]:
        """The bonuses seat ``p``'s board earns at the end as it stands: each completed star,
        then each number whose every space is covered (rules 7.1, 7.2)."""
        filled = self.filled[p]
        grey = self.game.board.grey
        lines = []
        for star in range(data.NUM_STARS):  # rules 7.1
            if (filled >> star * 6) & 63 == 63:
                lines.append(("star", data.star_names(grey)[star], self.star_bonus(p, star)))
        for number, mask, bonus in self.game.board.number_masks:  # rules 7.2
            if filled & mask == mask:
                lines.append(("number", str(number), bonus))
        return lines

    def star_bonus(self, p: int, star: int) -> int:
        """Bonus of a completed star: multicoloured 12, else by its colour (rules 7.1, 9.1)."""
        return star_bonus(self.game.board.grey, star, self.colors[p * data.NUM_STARS + star])

    # ------------------------------------------------------------------ chance
    def _recycle(self) -> None:
        """Before a tile draw: an empty bag takes the whole tower; with both empty the pending
        tile draws lapse (rules 5.7, 6.2), and a round left with no tile to take goes straight
        to Phase 2."""
        deals = self.deals
        if deals and deals[0] != FIRST_PLAYER and not any(self.bag):
            if any(self.tower):
                self.bag, self.tower = self.tower, [0] * NC
            else:
                deals.clear()
        if not deals and self.kind == ACQUIRE and not any(self.sources):
            self._start_play()

    def _apply_chance(self, outcome: int) -> None:
        dest = self.deals[0]
        if dest == FIRST_PLAYER:
            if not 0 <= outcome < self.game.players:
                raise IllegalMoveError(
                    f"first player {outcome} is not a seat 0..{self.game.players - 1}"
                )
            self.start = self.player = outcome
        else:
            if not 0 <= outcome < NC or not self.bag[outcome]:
                raise IllegalMoveError(f"draw {outcome}: the bag holds no tile of that colour")
            self.bag[outcome] -= 1
            if dest == TO_SUPPLY:
                self.supply[outcome] += 1
            else:
                self.sources[dest * NC + outcome] += 1
        del self.deals[0]
        self._recycle()

    def _draw_all(self) -> None:
        """Resolve every pending draw with the state's own generator."""
        while self.deals:
            if self.deals[0] == FIRST_PLAYER:
                self._rng, x = next_below(self._rng, self.game.players)
            else:
                self._rng, x = next_weighted(self._rng, self.bag)
            self._apply_chance(x)
            self.drawn += 1
