"""The rules of Stained Glass of Sintra: legal actions and their effects on a flat state.

Section numbers in comments refer to ``rules/sintra.md``. Per player, slots are 0..7 left to right;
a slot's strip is a strip id (or -1 once removed), with a side (0 = a, 1 = b) and 5 cells.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from azul.core.dealt import DealtState, ScoreLines
from azul.core.errors import AzulError, IllegalMoveError, Word
from azul.core.rng import next_below, next_weighted, seed_state
from azul.core.scoring import deduct
from azul.sintra.actions import BACK, BREAK, KEEP, PLAY
from azul.sintra.data import (
    FRAMES,
    JOKER,
    LEFTOVER_DIVISOR,
    NUM_COLORS,
    ORNAMENT_BONUS,
    PIECES_PER_COLOR,
    PIECES_PER_FACTORY,
    ROUNDS,
    SLOTS,
    SPACES,
)

if TYPE_CHECKING:
    from azul.sintra.game import SintraGame

NC = NUM_COLORS
TURN, KEEPING, OVER = range(3)
KIND_NAMES = ("play", "keep", "over")
# Kinds of pending random draws, each a tuple (kind, a, b).
FIRST, STRIP, SIDE, ORDER, INDICATOR, FACTORY = range(6)
Deal = tuple[int, int, int]
"""A pending draw (kind, a, b): a, b the seat and slot of a STRIP or SIDE draw, a the indicator
space of an ORDER draw or the factory of a FACTORY draw; 0 where unused."""
CELLS = SLOTS * SPACES
WINDOW_FRAMES = SLOTS * FRAMES
FULL = (1 << SPACES) - 1
BITS5 = [tuple(i for i in range(NC) if m >> i & 1) for m in range(1 << NC)]
BITS8 = [tuple(i for i in range(SLOTS) if m >> i & 1) for m in range(1 << SLOTS)]
# the target slots of a play for a slot mask; none reachable means every piece breaks
TARGET_LISTS = [BITS8[m] or (BREAK,) for m in range(1 << SLOTS)]


class SintraState(DealtState):
    """A position of Stained Glass of Sintra."""

    KIND_NAMES = KIND_NAMES
    OVER = OVER
    game: SintraGame
    deals: list[Deal]

    __slots__ = (
        "bag",
        "cells",
        "fills",
        "glazier",
        "indicator",
        "keep_slot",
        "lost",
        "round",
        "sides",
        "sources",
        "start",
        "strips",
        "tile",
        "tower",
        "track",
        "windows",
    )

    def __init__(self, game: SintraGame, seed: int = 0, *, setup: bool = True):
        self.game = game
        self.final: ScoreLines | None = None  # the end-of-game breakdown, once scored
        self.drawn = 0  # draws resolved (State.draws)
        if not setup:
            return
        n = game.players
        self.sources = [0] * (game.factories + 1) * NC  # source 0 is the centre
        self.bag = [PIECES_PER_COLOR - 1] * NC  # one of each colour goes to rounds II-VI
        self.tower = [0] * NC
        self.indicator = [-1] * ROUNDS  # rules 1.7: space I (round 1) first
        self.strips = [-1] * n * SLOTS
        self.sides = [0] * n * SLOTS
        self.cells = [-1] * n * CELLS
        self.fills = [0] * n * SLOTS  # per slot, a 5-bit mask of the spaces holding a piece
        self.windows = [-1] * n * WINDOW_FRAMES  # (slot * 2 + 0 top / 1 bottom)
        self.glazier = [0] * n  # rules 2.5: above slot 1
        self.track = [0] * n  # broken-glass marker, 0 = top space
        self.points = [0] * n
        self.lost = [0] * n  # points lost to broken glass, for the tie-break (rules 5.4)
        self.round = 1
        self.kind = TURN
        self.keep_slot = -1
        self.tile = -1  # seat holding the starting-player tile; -1: in the centre
        self._rng = seed_state(seed)
        self.hist: list[int] = []
        first = game.options["first_player"]
        self.start = self.player = 0 if first is None else first
        # setup order (rules 2): first player, strips slot by slot, rounds II-VI, round I, factories
        deals: list[Deal] = [(FIRST, 0, 0)] if first is None else []
        for p in range(n):
            for slot in range(SLOTS):
                deals += [(STRIP, p, slot), (SIDE, p, slot)]
        deals += [(ORDER, i, 0) for i in range(1, ROUNDS)]
        deals.append((INDICATOR, 0, 0))
        deals += self._factory_deals()
        self.deals = deals
        if not game.explicit_chance:
            self._draw_all()

    def _factory_deals(self) -> list[Deal]:
        return [
            (FACTORY, f, 0)
            for f in range(1, self.game.factories + 1)
            for _ in range(PIECES_PER_FACTORY)
        ]

    # ------------------------------------------------------------------ copies
    def clone(self) -> SintraState:
        s = SintraState.__new__(SintraState)
        s.game = self.game
        s.sources = self.sources[:]
        s.bag = self.bag[:]
        s.tower = self.tower[:]
        s.indicator = self.indicator[:]
        s.strips = self.strips[:]
        s.sides = self.sides[:]
        s.cells = self.cells[:]
        s.fills = self.fills[:]
        s.windows = self.windows[:]
        s.glazier = self.glazier[:]
        s.track = self.track[:]
        s.points = self.points[:]
        s.lost = self.lost[:]
        s.deals = self.deals[:]
        s.hist = self.hist[:]
        s.round = self.round
        s.kind = self.kind
        s.keep_slot = self.keep_slot
        s.tile = self.tile
        s.start = self.start
        s.player = self.player
        s._rng = self._rng
        s.final = self.final
        s.drawn = self.drawn
        return s

    # ------------------------------------------------------------------ queries
    def count_pieces(self) -> int:
        on_boards = sum(1 for x in self.cells if x >= 0) + sum(1 for x in self.windows if x >= 0)
        # the pieces set aside for rounds II-VI wait beside the indicator until drawn (rules 2.8)
        on_indicator = sum(1 for x in self.indicator if x >= 0) + len(self._set_aside())
        return sum(self.sources) + sum(self.bag) + sum(self.tower) + on_boards + on_indicator

    def _set_aside(self) -> list[int]:
        """Colours set aside for rounds II-VI and not yet placed (only during setup)."""
        if not any(k == ORDER for k, _, _ in self.deals):
            return []
        return self._free_order_colors()

    def round_color(self) -> int:
        """The colour of the piece on top of the round indicator (rules 1.7), -1 if none."""
        return self.indicator[self.round - 1]

    def winners(self) -> list[int]:
        """Highest score, then fewest points lost to broken glass, then shared (rules 5.4)."""
        if not self.is_terminal():
            return []
        best = max(zip(self.points, (-x for x in self.lost), strict=True))
        return [p for p in range(self.game.players) if (self.points[p], -self.lost[p]) == best]

    def pattern(self, p: int, slot: int) -> tuple[int, ...]:
        """The 5 spaces of the strip in ``slot`` as colours (JOKER for a joker space)."""
        i = p * SLOTS + slot
        return self.game.components.strips[self.strips[i]][self.sides[i]]

    def leftmost_strip(self, p: int) -> int:
        """The slot of the leftmost remaining strip, or -1 when every strip is gone."""
        for slot in range(SLOTS):
            if self.strips[p * SLOTS + slot] >= 0:
                return slot
        return -1

    def _reach(self, p: int) -> list[int]:
        """Per colour, the bitmask of slots whose strip can take a piece of it: reachable
        (the glazier's slot or to its right) and with an empty space of that colour or a joker
        (rules 3.2)."""
        reach = [0] * NC
        accept = self.game.accept
        strips, sides, fills = self.strips, self.sides, self.fills
        for slot in range(self.glazier[p], SLOTS):
            i = p * SLOTS + slot
            if strips[i] < 0:
                continue
            for c in BITS5[accept[strips[i] * 2 + sides[i]][fills[i]]]:
                reach[c] |= 1 << slot
        return reach

    def legal_actions(self) -> list[int]:
        if self.deals:
            return [a for a, _ in self.chance_outcomes()]
        space = self.game.actions
        if self.kind == OVER:
            return []
        p = self.player
        if self.kind == KEEPING:
            base = (p * SLOTS + self.keep_slot) * SPACES
            present = set(self.cells[base : base + SPACES])
            return [space.keep_base + c for c in sorted(present)]
        targets = [TARGET_LISTS[m] for m in self._reach(p)]
        out: list[int] = []
        src = self.sources
        for s in range(self.game.factories + 1):
            b = s * NC
            for c in range(NC):
                if src[b + c]:
                    out.extend(map(((b + c) * (SLOTS + 1)).__add__, targets[c]))
        left = self.leftmost_strip(p)
        if left >= 0 and self.glazier[p] != left:
            out.append(space.back)
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """(outcome, probability) of the pending random draw."""
        if not self.deals:
            raise AzulError("no random draw is pending: this is not a chance node")
        kind, a, _ = self.deals[0]
        if kind == FIRST:
            n = self.game.players
            return [(i, 1.0 / n) for i in range(n)]
        if kind == STRIP:
            free = self._free_strips(a)
            return [(x, 1.0 / len(free)) for x in free]
        if kind == SIDE:
            return [(0, 0.5), (1, 0.5)]
        if kind == ORDER:
            free = self._free_order_colors()
            return [(c, 1.0 / len(free)) for c in free]
        total = sum(self.bag)
        return [(c, k / total) for c, k in enumerate(self.bag) if k]

    def _free_strips(self, p: int) -> list[int]:
        used = set(self.strips[p * SLOTS : (p + 1) * SLOTS])
        return [x for x in range(SLOTS) if x not in used]

    def _free_order_colors(self) -> list[int]:
        used = set(self.indicator[1:])
        return [c for c in range(NC) if c not in used]

    # ------------------------------------------------------------------ notation
    def _chance_string(self, outcome: int) -> str:
        kind = self.deals[0][0]
        if kind == FIRST:
            return f"first:{outcome}"
        if kind == STRIP:
            return f"strip:{outcome + 1}"
        if kind == SIDE:
            return f"side:{'ab'[outcome] if outcome in (0, 1) else outcome}"
        if 0 <= outcome < NC:
            return f"draw:{self.game.actions.letter(outcome)}"
        return f"draw:{outcome}"

    # ------------------------------------------------------------------ moves
    def _move(self, action: int) -> None:
        space = self.game.actions
        what, x, y, z = space.decode[action]
        if self.kind == KEEPING:
            if what != KEEP:
                raise IllegalMoveError(
                    "{move}: first choose the piece to keep for window {window}, e.g. '{example}'",
                    move=space.to_string(action),
                    window=self.keep_slot + 1,
                    example="keep:" + space.letter(self._strip_colors()[0]),
                )
            self._keep(x)
        elif what == PLAY:
            self._play(x, y, z)
        elif what == BACK:
            self._back()
        else:
            raise IllegalMoveError(
                "{move}: no strip was just completed", move=space.to_string(action)
            )

    def _play(self, source: int, c: int, target: int) -> None:
        """Action A: take all pieces of a colour, place them on one strip (rules 3.1-3.3)."""
        p = self.player
        src = self.sources
        b = source * NC
        name = Word(self.game.components.colors[c])
        if not src[b + c]:
            if source == 0:
                raise IllegalMoveError("the centre has no {color} piece", color=name)
            raise IllegalMoveError(
                "factory {factory} has no {color} piece", factory=source, color=name
            )
        targets = list(BITS8[self._reach(p)[c]])
        if target == BREAK and targets:
            raise IllegalMoveError(
                "strip {strip} takes {color}: pieces break only when no reachable strip can "
                "take one (rules 3.2)",
                strip=targets[0] + 1,
                color=name,
            )
        if target != BREAK and target not in targets:
            raise self._why_not_target(p, target, c, targets)
        n = src[b + c]
        src[b + c] = 0
        if source:  # the rest of a factory goes to the centre (rules 3.1a)
            for k in range(NC):
                src[k] += src[b + k]
                src[b + k] = 0
        elif self.tile < 0:  # first from the centre: the tile and one step down (rules 3.1b)
            self.tile = p
            self._break(p, 1)
        if target == BREAK:
            self._break(p, n)
            self.tower[c] += n
            self._end_turn()
            return
        self.glazier[p] = target
        placed = self._place(p, target, c, n)
        if n > placed:
            self._break(p, n - placed)
            self.tower[c] += n - placed
        base = (p * SLOTS + target) * SPACES
        strip = self.cells[base : base + SPACES]
        if min(strip) < 0:
            self._end_turn()
            return
        # rules 3.3a: +1 per piece of the round indicator's colour
        self.points[p] += strip.count(self.round_color())
        self.keep_slot = target
        if len(set(strip)) == 1:  # one colour: nothing to choose
            self._keep(strip[0])
        else:
            self.kind = KEEPING

    def _why_not_target(self, p: int, target: int, c: int, targets: list[int]) -> IllegalMoveError:
        name = Word(self.game.components.colors[c])
        if target < self.glazier[p]:
            why = IllegalMoveError(
                "strip {strip} is left of the glazier (above {glazier})",
                strip=target + 1,
                glazier=self.glazier[p] + 1,
            )
        elif self.strips[p * SLOTS + target] < 0:
            why = IllegalMoveError("strip {strip} has been removed", strip=target + 1)
        else:
            why = IllegalMoveError(
                "strip {strip} has no empty space for {color}", strip=target + 1, color=name
            )
        if not targets:
            return IllegalMoveError(
                "{why}; no strip takes {color}: say '>break'", why=why, color=name
            )
        options = ", ".join(str(t + 1) for t in targets)
        return IllegalMoveError(
            "{why}; strips that take {color}: {options}", why=why, color=name, options=options
        )

    def _place(self, p: int, slot: int, c: int, n: int) -> int:
        """Put up to n pieces of colour c on the strip: its colour spaces first, then jokers
        (project decision "joker allocation"). Returns how many were placed."""
        pat = self.pattern(p, slot)
        base = (p * SLOTS + slot) * SPACES
        cells = self.cells
        placed = 0
        for want in (c, JOKER):
            for k in range(SPACES):
                if placed == n:
                    return placed
                if cells[base + k] < 0 and pat[k] == want:
                    cells[base + k] = c
                    self.fills[p * SLOTS + slot] |= 1 << k
                    placed += 1
        return placed

    def _strip_colors(self) -> list[int]:
        base = (self.player * SLOTS + self.keep_slot) * SPACES
        return sorted(set(self.cells[base : base + SPACES]))

    def _keep(self, c: int) -> None:
        """Rules 3.3b-c: one piece to the window, the rest to the tower; flip or remove the
        strip; score the window and the occupied windows to its right."""
        p = self.player
        slot = self.keep_slot
        i = p * SLOTS + slot
        base = i * SPACES
        strip = self.cells[base : base + SPACES]
        if c not in strip:
            name = Word(self.game.components.colors[c]) if 0 <= c < NC else str(c)
            raise IllegalMoveError("the completed strip has no {color} piece to keep", color=name)
        for k in range(SPACES):
            self.tower[strip[k]] += 1
            self.cells[base + k] = -1
        self.tower[c] -= 1
        self.fills[i] = 0
        w = p * WINDOW_FRAMES + slot * FRAMES
        if self.windows[w] < 0:
            self.windows[w] = c
            self.sides[i] ^= 1  # the strip flips to its other side
        else:
            self.windows[w + 1] = c
            self.strips[i] = -1  # the window is complete: the strip leaves the game
        values = self.game.window_values
        gained = values[slot]
        for right in range(slot + 1, SLOTS):
            if self.windows[p * WINDOW_FRAMES + right * FRAMES] >= 0:
                gained += values[right]
        self.points[p] += gained
        self.kind = TURN
        self.keep_slot = -1
        self._end_turn()

    def _back(self) -> None:
        """Action B: the glazier back to the leftmost remaining strip (rules 3.4)."""
        p = self.player
        left = self.leftmost_strip(p)
        if left < 0:
            raise IllegalMoveError("no strip is left to move the glazier back to")
        if self.glazier[p] == left:
            raise IllegalMoveError(
                "the glazier already stands above the leftmost strip ({strip})", strip=left + 1
            )
        self.glazier[p] = left
        self._end_turn()

    def _break(self, p: int, steps: int) -> None:
        """Move down the broken-glass track one space at a time; the bottom space costs its
        value at once and sends the marker back to the top (rules 3.5)."""
        bottom = len(self.game.components.track) - 1
        penalty = self.game.components.bottom_penalty
        floor = self.game.options["score_floor"]
        for _ in range(steps):
            self.track[p] += 1
            if self.track[p] == bottom:
                self.points[p] = deduct(self.points[p], penalty, floor)
                self.lost[p] += penalty
                self.track[p] = 0

    # ------------------------------------------------------------------ flow
    def _end_turn(self) -> None:
        if any(self.sources):
            self.player = (self.player + 1) % self.game.players
        else:
            self._end_round()

    def _end_round(self) -> None:
        """Rules 4: the indicator's top piece to the tower; next round or the end."""
        top = self.indicator[self.round - 1]
        if top >= 0:
            self.tower[top] += 1
            self.indicator[self.round - 1] = -1
        if self.round == ROUNDS:
            self._final_scoring()
            return
        self.round += 1
        if self.tile >= 0:  # else the previous starting player starts again (rules 4.5)
            self.start = self.tile
        self.tile = -1
        self.player = self.start
        self.deals += self._factory_deals()
        self._recycle()

    def ornament_frames(self, p: int) -> list[int]:
        """Side A: the filled frames around each of seat ``p``'s ornaments (rules 5.2)."""
        frames = self.windows[p * WINDOW_FRAMES : (p + 1) * WINDOW_FRAMES]
        ornaments = self.game.components.ornaments
        return [sum(1 for f in ornament if frames[f] >= 0) for ornament in ornaments]

    def window_bonus(self, p: int) -> tuple[int, int]:
        """Side B: seat ``p``'s completed windows and its pieces of the best colour in its
        windows (rules 5.3); the bonus is their product."""
        frames = self.windows[p * WINDOW_FRAMES : (p + 1) * WINDOW_FRAMES]
        complete = sum(1 for w in range(SLOTS) if frames[2 * w + 1] >= 0)
        return complete, max(frames.count(c) for c in range(NC))

    def palace_bonus(self, p: int) -> tuple[str, str, int]:
        """The palace board's bonus seat ``p``'s windows would earn now, as a final-score line:
        (kind, detail, points)."""
        if self.game.options["side"] == "A":
            return "ornaments", "", sum(ORNAMENT_BONUS[k] for k in self.ornament_frames(p))
        complete, best = self.window_bonus(p)
        return "windows", f"{complete}x{best}", complete * best

    def _final_scoring(self) -> None:
        """Rules 5: leftover pieces, broken glass, then the palace side's bonus."""
        comps = self.game.components
        floor = self.game.options["score_floor"]
        final = []
        for p in range(self.game.players):
            lines = [("play", "", self.points[p])]
            on_strips = sum(1 for x in self.cells[p * CELLS : (p + 1) * CELLS] if x >= 0)
            lines.append(("leftovers", str(on_strips), on_strips // LEFTOVER_DIVISOR))
            score = self.points[p] + on_strips // LEFTOVER_DIVISOR
            loss = -comps.track[self.track[p]]
            lines.append(("broken", str(self.track[p]), deduct(score, loss, floor) - score))
            score = deduct(score, loss, floor)
            self.lost[p] += loss
            kind, detail, bonus = self.palace_bonus(p)
            lines.append((kind, detail, bonus))
            self.points[p] = score + bonus
            final.append(tuple(lines))
        self.final = tuple(final)
        self.kind = OVER

    # ------------------------------------------------------------------ chance
    def _recycle(self) -> None:
        """Before a draw from the bag: an empty bag takes the whole tower; with both empty the
        factories stay short (rules 4.4), and a round with nothing to take ends at once."""
        deals = self.deals
        if deals and deals[0][0] in (INDICATOR, FACTORY) and not any(self.bag):
            if any(self.tower):
                self.bag, self.tower = self.tower, [0] * NC
            else:
                deals.clear()
        if not deals and self.kind == TURN and not any(self.sources):
            self._end_round()

    def _apply_chance(self, outcome: int) -> None:
        kind = self.deals[0][0]
        if kind in (INDICATOR, FACTORY):
            ok = 0 <= outcome < NC and self.bag[outcome] > 0
        else:
            ok = outcome in (a for a, _ in self.chance_outcomes())
        if not ok:
            raise IllegalMoveError(f"{outcome} is not an outcome of this draw")
        kind, a, b = self.deals.pop(0)
        if kind == FIRST:
            self.start = self.player = outcome
        elif kind == STRIP:
            self.strips[a * SLOTS + b] = outcome
            comps = self.game.components
            if outcome == comps.joker_strip:  # rules 2.4: the joker side starts face down
                self.sides[a * SLOTS + b] = 1 - comps.joker_side
                self.deals.pop(0)  # its side is not drawn
        elif kind == SIDE:
            self.sides[a * SLOTS + b] = outcome
        elif kind == ORDER:
            self.indicator[a] = outcome
        else:
            self.bag[outcome] -= 1
            if kind == INDICATOR:
                self.indicator[0] = outcome
            else:
                self.sources[a * NC + outcome] += 1
        self._recycle()

    def _draw_all(self) -> None:
        """Resolve every pending draw with the state's own generator."""
        while self.deals:
            kind = self.deals[0][0]
            if kind in (INDICATOR, FACTORY):
                self._rng, x = next_weighted(self._rng, self.bag)
            else:
                outcomes = self.chance_outcomes()
                self._rng, i = next_below(self._rng, len(outcomes))
                x = outcomes[i][0]
            self._apply_chance(x)
            self.drawn += 1
