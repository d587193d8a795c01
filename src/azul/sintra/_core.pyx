# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=True
"""The compiled core of Stained Glass of Sintra: the rules of ``azul.sintra.state`` on fixed C
arrays, for speed. ``azul.sintra.state`` stays the reference: every function here mirrors the
one of the same name there (rules sections are cited there), and the test suite compares the two
step by step. A ``Core`` is made from a ``SintraState`` and turns back into one (``to_state``),
so everything else (notation, JSON positions, drawings) stays in Python.
"""

from libc.math cimport pow

from azul.core.errors import AzulError, IllegalMoveError

include "../core/_common.pxi"
include "../core/_net.pxi"
include "../core/_queries.pxi"

cdef enum:
    NC = 5
    SLOTS = 8
    SPACES = 5
    FRAMES = 2
    ROUNDS = 6
    TARGETS = 9  # SLOTS + 1: the last target means every piece breaks
    BREAK = 8
    MAXP = 4
    MAXSRC = 10  # the centre and up to 9 factories
    CELLS = 40  # SLOTS * SPACES
    WF = 16  # SLOTS * FRAMES
    MAXDEALS = 128
    MAXTRACK = 32
    MAXLEGAL = 512
    PIECES_PER_FACTORY = 4
    PIECES_PER_COLOR = 20
    LEFTOVER_DIVISOR = 3
    JOKER = -1
    CHANCE = -1
    TERMINAL = -4

cdef enum:  # decision kinds, as in azul.sintra.state
    TURN = 0
    KEEPING = 1
    OVER = 2

cdef enum:  # pending draws, as in azul.sintra.state
    FIRST = 0
    STRIP = 1
    SIDE = 2
    ORDER = 3
    INDICATOR = 4
    FACTORY = 5

cdef int ORNAMENT_BONUS[5]
ORNAMENT_BONUS[:] = [0, 0, 3, 6, 10]  # by frames filled (rules 5.2)
cdef double ORNAMENT_POTENTIAL[5]
ORNAMENT_POTENTIAL[:] = [0.0, 1.0, 3.0, 6.0, 10.0]  # as azul.sintra.evaluation

cdef class Rules:
    """The fixed facts of one SintraGame (its options and printed components), as C arrays."""

    cdef readonly object game
    cdef int players, factories, nsrc, explicit, side_a, has_floor, floor
    cdef int bottom, penalty, joker_strip, joker_side, back, keep_base, size
    cdef int observation_size  # the entries of Core.observe
    cdef uint8_t accept[16][32]
    cdef int8_t pattern[16][SPACES]
    cdef int window_values[SLOTS]
    cdef int track[MAXTRACK]
    cdef int8_t ornaments[4][4]

    def __init__(self, game):
        comps = game.components
        self.game = game
        self.players = game.players
        self.factories = game.factories
        self.nsrc = game.factories + 1
        self.explicit = bool(game.explicit_chance)
        self.side_a = game.options["side"] == "A"
        floor = game.options["score_floor"]
        self.has_floor = floor is not None
        self.floor = floor or 0
        if len(comps.track) > MAXTRACK:
            raise AzulError(f"the compiled core takes a track of at most {MAXTRACK} spaces")
        self.bottom = len(comps.track) - 1
        self.penalty = comps.bottom_penalty
        for i, v in enumerate(comps.track):
            self.track[i] = v
        self.joker_strip = comps.joker_strip
        self.joker_side = comps.joker_side
        self.back = game.actions.back
        self.keep_base = game.actions.keep_base
        self.size = game.actions.size
        self.observation_size = game.info.observation_shape[0]
        if self.observation_size > NET_MAXIN:  # Features holds that many entries
            raise AzulError(f"an observation of {self.observation_size} entries is too long")
        for i, row in enumerate(game.accept):
            for m, v in enumerate(row):
                self.accept[i][m] = v
        for strip in range(SLOTS):
            for side in range(2):
                for k in range(SPACES):
                    self.pattern[strip * 2 + side][k] = comps.strips[strip][side][k]
        for i, v in enumerate(game.window_values):
            self.window_values[i] = v
        for i, ornament in enumerate(comps.ornaments):
            for j, f in enumerate(ornament):
                self.ornaments[i][j] = f


    def __reduce__(self):  # a pickled game drops its Rules; ``rules`` makes them again
        return (_nothing, ())


def _nothing():
    return None


def rules(game):
    """The game's Rules, made once and kept on the game."""
    found = game.__dict__.get("_core_rules")
    if found is None:
        found = game._core_rules = Rules(game)
    return found


cdef struct Final:
    int32_t play, on_strips, track, broken, bonus, complete, best


cdef struct S:
    int16_t sources[MAXSRC * NC]
    int16_t bag[NC]
    int16_t tower[NC]
    int8_t indicator[ROUNDS]
    int8_t strips[MAXP * SLOTS]
    int8_t sides[MAXP * SLOTS]
    int8_t cells[MAXP * CELLS]
    int8_t fills[MAXP * SLOTS]
    int8_t windows[MAXP * WF]
    int8_t glazier[MAXP]
    int8_t track[MAXP]
    int32_t points[MAXP]
    int32_t lost[MAXP]
    int8_t round, kind, keep_slot, tile, start, player, over_scored
    int8_t deal_kind[MAXDEALS]
    int8_t deal_a[MAXDEALS]
    int8_t deal_b[MAXDEALS]
    int16_t dhead, dtail
    uint64_t rng
    int32_t drawn
    Final final[MAXP]


cdef class Core:
    """A Sintra position in C arrays with the rules of ``SintraState``; ``hist`` as there."""

    cdef Rules r
    cdef S s
    cdef Hist hist

    def __dealloc__(self):
        free(self.hist.actions)

    # ---------------------------------------------------------------- to and from Python
    @staticmethod
    def new(game, seed=0):
        """A fresh game, as ``game.new_initial_state(seed)`` deals it (``SintraState``'s
        setup)."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        cdef Core c = Core.__new__(Core)
        cdef Rules r = rules(game)
        cdef S* s = &c.s
        cdef int i, p, slot
        c.r = r
        for i in range(NC):
            s.bag[i] = PIECES_PER_COLOR - 1
        for i in range(ROUNDS):
            s.indicator[i] = -1
        for i in range(MAXP * SLOTS):
            s.strips[i] = -1
        for i in range(MAXP * CELLS):
            s.cells[i] = -1
        for i in range(MAXP * WF):
            s.windows[i] = -1
        s.round, s.kind, s.keep_slot, s.tile = 1, TURN, -1, -1
        s.rng = seed & 0xFFFFFFFFFFFFFFFF
        first = game.options["first_player"]
        s.start = s.player = 0 if first is None else first
        if first is None:
            c._deal(FIRST, 0, 0)
        for p in range(r.players):
            for slot in range(SLOTS):
                c._deal(STRIP, p, slot)
                c._deal(SIDE, p, slot)
        for i in range(1, ROUNDS):
            c._deal(ORDER, i, 0)
        c._deal(INDICATOR, 0, 0)
        c._deal_factories()
        hist_alloc(&c.hist, 64)
        if not r.explicit:
            c._draw_all()
        return c

    cdef inline void _deal(self, int kind, int a, int b) noexcept nogil:
        cdef S* s = &self.s
        s.deal_kind[s.dtail], s.deal_a[s.dtail], s.deal_b[s.dtail] = kind, a, b
        s.dtail += 1

    cdef void _deal_factories(self) noexcept nogil:
        cdef int f, k
        for f in range(1, self.r.factories + 1):
            for k in range(PIECES_PER_FACTORY):
                self._deal(FACTORY, f, 0)

    @staticmethod
    def from_state(state):
        """The compiled copy of a ``SintraState``."""
        cdef Core c = Core.__new__(Core)
        cdef Rules r = rules(state.game)
        c.r = r
        cdef S* s = &c.s
        cdef int i
        for i, v in enumerate(state.sources):
            s.sources[i] = v
        for i in range(NC):
            s.bag[i] = state.bag[i]
            s.tower[i] = state.tower[i]
        for i in range(ROUNDS):
            s.indicator[i] = state.indicator[i]
        for i in range(r.players * SLOTS):
            s.strips[i] = state.strips[i]
            s.sides[i] = state.sides[i]
            s.fills[i] = state.fills[i]
        for i in range(r.players * CELLS):
            s.cells[i] = state.cells[i]
        for i in range(r.players * WF):
            s.windows[i] = state.windows[i]
        for i in range(r.players):
            s.glazier[i] = state.glazier[i]
            s.track[i] = state.track[i]
            s.points[i] = state.points[i]
            s.lost[i] = state.lost[i]
        s.round, s.kind, s.keep_slot = state.round, state.kind, state.keep_slot
        s.tile, s.start, s.player = state.tile, state.start, state.player
        if len(state.deals) > MAXDEALS:
            raise AzulError("too many pending draws for the compiled core")
        s.dhead, s.dtail = 0, len(state.deals)
        for i, (kind, a, b) in enumerate(state.deals):
            s.deal_kind[i], s.deal_a[i], s.deal_b[i] = kind, a, b
        s.rng = state._rng
        s.drawn = state.drawn
        s.over_scored = state.final is not None
        if state.final is not None:
            for i, lines in enumerate(state.final):
                c._final_from_lines(i, lines)
        hist_from(&c.hist, state.hist)
        return c

    cdef _final_from_lines(self, int p, lines):
        cdef Final* f = &self.s.final[p]
        f.play = lines[0][2]
        f.on_strips = int(lines[1][1])
        f.track = int(lines[2][1])
        f.broken = lines[2][2]
        f.bonus = lines[3][2]
        if lines[3][0] == "windows":
            complete, best = lines[3][1].split("x")
            f.complete, f.best = int(complete), int(best)

    def to_state(self):
        """A ``SintraState`` equal to this position."""
        from azul.sintra.state import SintraState

        cdef Rules r = self.r
        cdef S* s = &self.s
        cdef int n = r.players
        state = SintraState.__new__(SintraState)
        state.game = r.game
        state.sources = [s.sources[i] for i in range(r.nsrc * NC)]
        state.bag = [s.bag[i] for i in range(NC)]
        state.tower = [s.tower[i] for i in range(NC)]
        state.indicator = [s.indicator[i] for i in range(ROUNDS)]
        state.strips = [s.strips[i] for i in range(n * SLOTS)]
        state.sides = [s.sides[i] for i in range(n * SLOTS)]
        state.cells = [s.cells[i] for i in range(n * CELLS)]
        state.fills = [s.fills[i] for i in range(n * SLOTS)]
        state.windows = [s.windows[i] for i in range(n * WF)]
        state.glazier = [s.glazier[i] for i in range(n)]
        state.track = [s.track[i] for i in range(n)]
        state.points = [s.points[i] for i in range(n)]
        state.lost = [s.lost[i] for i in range(n)]
        state.deals = [
            (s.deal_kind[i], s.deal_a[i], s.deal_b[i]) for i in range(s.dhead, s.dtail)
        ]
        state.hist = hist_list(&self.hist)
        state.round, state.kind, state.keep_slot = s.round, s.kind, s.keep_slot
        state.tile, state.start, state.player = s.tile, s.start, s.player
        state._rng = s.rng
        state.drawn = s.drawn
        state.final = self._final_lines() if s.over_scored else None
        return state

    cdef _final_lines(self):
        out = []
        cdef Final* f
        for p in range(self.r.players):
            f = &self.s.final[p]
            lines = [
                ("play", "", f.play),
                ("leftovers", str(f.on_strips), f.on_strips // LEFTOVER_DIVISOR),
                ("broken", str(f.track), f.broken),
            ]
            if self.r.side_a:
                lines.append(("ornaments", "", f.bonus))
            else:
                lines.append(("windows", f"{f.complete}x{f.best}", f.bonus))
            out.append(tuple(lines))
        return tuple(out)

    # the methods both cores share, word for word (azul/core/_queries.pxi)
    clone = _clone
    __copy__ = _copy
    __deepcopy__ = _deepcopy
    __reduce__ = _reduce
    current_player = _current_player
    is_terminal = _is_terminal
    is_chance_node = _is_chance_node
    scores = _scores
    history = _history
    draws = _draws
    reseed = _reseed
    legal_actions = _legal_actions
    playout = _playout
    mask = _mask

    # ---------------------------------------------------------------- queries
    def chance_outcomes(self):
        """(outcome, probability) of the pending random draw."""
        cdef int out[MAXLEGAL]
        cdef int i, total, n
        if self.s.dhead == self.s.dtail:
            raise AzulError("no random draw is pending: this is not a chance node")
        kind = self.s.deal_kind[self.s.dhead]
        if kind == INDICATOR or kind == FACTORY:
            total = 0
            for i in range(NC):
                total += self.s.bag[i]
            return [(i, self.s.bag[i] / <double>total) for i in range(NC) if self.s.bag[i]]
        n = self._outcomes(out)
        return [(out[i], 1.0 / n) for i in range(n)]

    cdef inline int _any_sources(self) noexcept nogil:
        cdef int i
        for i in range(self.r.nsrc * NC):
            if self.s.sources[i]:
                return 1
        return 0

    cdef int _outcomes(self, int* out) noexcept nogil:
        """The outcomes of the pending draw in order (bag draws: the colours in the bag)."""
        cdef S* s = &self.s
        cdef int kind = s.deal_kind[s.dhead], a = s.deal_a[s.dhead], n = 0, x, c, i, used
        if kind == FIRST:
            for x in range(self.r.players):
                out[n] = x
                n += 1
        elif kind == STRIP:
            for x in range(SLOTS):
                used = 0
                for i in range(SLOTS):
                    if s.strips[a * SLOTS + i] == x:
                        used = 1
                if not used:
                    out[n] = x
                    n += 1
        elif kind == SIDE:
            out[0], out[1] = 0, 1
            n = 2
        elif kind == ORDER:
            for c in range(NC):
                used = 0
                for i in range(1, ROUNDS):
                    if s.indicator[i] == c:
                        used = 1
                if not used:
                    out[n] = c
                    n += 1
        else:
            for c in range(NC):
                if s.bag[c]:
                    out[n] = c
                    n += 1
        return n

    cdef int _leftmost(self, int p) noexcept nogil:
        cdef int slot
        for slot in range(SLOTS):
            if self.s.strips[p * SLOTS + slot] >= 0:
                return slot
        return -1

    cdef void _reach(self, int p, int* reach) noexcept nogil:
        cdef S* s = &self.s
        cdef int slot, i, c, m
        for c in range(NC):
            reach[c] = 0
        for slot in range(s.glazier[p], SLOTS):
            i = p * SLOTS + slot
            if s.strips[i] < 0:
                continue
            m = self.r.accept[s.strips[i] * 2 + s.sides[i]][s.fills[i]]
            for c in range(NC):
                if m >> c & 1:
                    reach[c] |= 1 << slot

    cdef int _legal(self, int* out) noexcept nogil:
        cdef S* s = &self.s
        cdef int n = 0, p, src, c, base, m, slot, k, left
        cdef int reach[NC]
        cdef int present[NC]
        if s.dhead < s.dtail:
            return self._outcomes(out)
        if s.kind == OVER:
            return 0
        p = s.player
        if s.kind == KEEPING:
            base = (p * SLOTS + s.keep_slot) * SPACES
            for c in range(NC):
                present[c] = 0
            for k in range(SPACES):
                present[s.cells[base + k]] = 1
            for c in range(NC):
                if present[c]:
                    out[n] = self.r.keep_base + c
                    n += 1
            return n
        self._reach(p, reach)
        for src in range(self.r.nsrc):
            for c in range(NC):
                if s.sources[src * NC + c]:
                    base = (src * NC + c) * TARGETS
                    m = reach[c]
                    if m == 0:
                        out[n] = base + BREAK
                        n += 1
                    else:
                        for slot in range(SLOTS):
                            if m >> slot & 1:
                                out[n] = base + slot
                                n += 1
        left = self._leftmost(p)
        if left >= 0 and s.glazier[p] != left:
            out[n] = self.r.back
            n += 1
        return n

    # ---------------------------------------------------------------- applying actions
    def apply_action(self, int action):
        """Apply a legal action or outcome; anything else raises ``IllegalMoveError`` (with the
        reference engine's explanation) and changes nothing."""
        cdef int out[MAXLEGAL]
        cdef int n, i, kind
        cdef S* s = &self.s
        if s.dhead < s.dtail:
            kind = s.deal_kind[s.dhead]
            if kind == INDICATOR or kind == FACTORY:
                ok = 0 <= action < NC and s.bag[action] > 0
            else:
                ok = False
                n = self._outcomes(out)
                for i in range(n):
                    if out[i] == action:
                        ok = True
            if not ok:
                raise IllegalMoveError(f"{action} is not an outcome of this draw")
            self._apply_chance(action)
            s.drawn += 1
            hist_push(&self.hist, action)
            return
        if not self._is_legal(action):
            self._explain(action)
        self._move(action)
        hist_push(&self.hist, action)
        if s.dhead < s.dtail and not self.r.explicit:
            self._draw_all()

    cdef int _is_legal(self, int action) noexcept nogil:
        """Whether ``action`` is among ``_legal``'s, without listing them."""
        cdef S* s = &self.s
        cdef int p = s.player, source, c, target, k, slot, i, m = 0
        if s.kind == OVER or action < 0 or action >= self.r.size:
            return 0
        if s.kind == KEEPING:
            if action < self.r.keep_base:
                return 0
            c = action - self.r.keep_base
            for k in range(SPACES):
                if s.cells[(p * SLOTS + s.keep_slot) * SPACES + k] == c:
                    return 1
            return 0
        if action == self.r.back:
            k = self._leftmost(p)
            return k >= 0 and s.glazier[p] != k
        if action > self.r.back:
            return 0
        source, c, target = action // (NC * TARGETS), action // TARGETS % NC, action % TARGETS
        if not s.sources[source * NC + c]:
            return 0
        for slot in range(s.glazier[p], SLOTS):
            i = p * SLOTS + slot
            if s.strips[i] >= 0 and self.r.accept[s.strips[i] * 2 + s.sides[i]][s.fills[i]] >> c & 1:
                m |= 1 << slot
        return m == 0 if target == BREAK else m >> target & 1

    cdef _explain(self, int action):
        """Raise the reference engine's error for an illegal action."""
        self.to_state().apply_action(action)
        raise IllegalMoveError(f"action {action} is not legal here")  # pragma: no cover

    cdef void _move(self, int action) noexcept nogil:
        """A legal player's action (``_move`` of the reference, without the checks)."""
        if action < self.r.back:
            self._play(action // (NC * TARGETS), action // TARGETS % NC, action % TARGETS)
        elif action == self.r.back:
            self.s.glazier[self.s.player] = self._leftmost(self.s.player)
            self._end_turn()
        else:
            self._keep(action - self.r.keep_base)

    cdef void _play(self, int source, int c, int target) noexcept nogil:
        cdef S* s = &self.s
        cdef int p = s.player, b = source * NC, n, k, placed, base, bonus, same
        n = s.sources[b + c]
        s.sources[b + c] = 0
        if source:
            for k in range(NC):
                s.sources[k] += s.sources[b + k]
                s.sources[b + k] = 0
        elif s.tile < 0:
            s.tile = p
            self._break(p, 1)
        if target == BREAK:
            self._break(p, n)
            s.tower[c] += n
            self._end_turn()
            return
        s.glazier[p] = target
        placed = self._place(p, target, c, n)
        if n > placed:
            self._break(p, n - placed)
            s.tower[c] += n - placed
        base = (p * SLOTS + target) * SPACES
        bonus = 0
        same = 1
        for k in range(SPACES):
            if s.cells[base + k] < 0:
                self._end_turn()
                return
            if s.cells[base + k] == s.indicator[s.round - 1]:
                bonus += 1
            if s.cells[base + k] != s.cells[base]:
                same = 0
        s.points[p] += bonus
        s.keep_slot = target
        if same:
            self._keep(s.cells[base])
        else:
            s.kind = KEEPING

    cdef int _place(self, int p, int slot, int c, int n) noexcept nogil:
        cdef S* s = &self.s
        cdef int i = p * SLOTS + slot, base = i * SPACES, placed = 0, k, w, want
        cdef int8_t* pat = self.r.pattern[s.strips[i] * 2 + s.sides[i]]
        for w in range(2):
            want = c if w == 0 else JOKER
            for k in range(SPACES):
                if placed == n:
                    return placed
                if s.cells[base + k] < 0 and pat[k] == want:
                    s.cells[base + k] = c
                    s.fills[i] |= 1 << k
                    placed += 1
        return placed

    cdef void _keep(self, int c) noexcept nogil:
        cdef S* s = &self.s
        cdef int p = s.player, slot = s.keep_slot, i, base, k, w, gained, right
        i = p * SLOTS + slot
        base = i * SPACES
        for k in range(SPACES):
            s.tower[s.cells[base + k]] += 1
            s.cells[base + k] = -1
        s.tower[c] -= 1
        s.fills[i] = 0
        w = p * WF + slot * FRAMES
        if s.windows[w] < 0:
            s.windows[w] = c
            s.sides[i] ^= 1
        else:
            s.windows[w + 1] = c
            s.strips[i] = -1
        gained = self.r.window_values[slot]
        for right in range(slot + 1, SLOTS):
            if s.windows[p * WF + right * FRAMES] >= 0:
                gained += self.r.window_values[right]
        s.points[p] += gained
        s.kind = TURN
        s.keep_slot = -1
        self._end_turn()

    cdef void _break(self, int p, int steps) noexcept nogil:
        cdef S* s = &self.s
        cdef int k
        for k in range(steps):
            s.track[p] += 1
            if s.track[p] == self.r.bottom:
                s.points[p] = deduct(s.points[p], self.r.penalty, self.r.has_floor, self.r.floor)
                s.lost[p] += self.r.penalty
                s.track[p] = 0

    cdef void _end_turn(self) noexcept nogil:
        if self._any_sources():
            self.s.player = (self.s.player + 1) % self.r.players
        else:
            self._end_round()

    cdef void _end_round(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int top = s.indicator[s.round - 1]
        if top >= 0:
            s.tower[top] += 1
            s.indicator[s.round - 1] = -1
        if s.round == ROUNDS:
            self._final_scoring()
            return
        s.round += 1
        if s.tile >= 0:
            s.start = s.tile
        s.tile = -1
        s.player = s.start
        if s.dhead == s.dtail:
            s.dhead = s.dtail = 0
        self._deal_factories()
        self._recycle()

    cdef void _final_scoring(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int p, k, score, loss, bonus, on_strips, filled, complete, best, count
        cdef Final* f
        for p in range(self.r.players):
            f = &s.final[p]
            f.play = s.points[p]
            on_strips = 0
            for k in range(CELLS):
                if s.cells[p * CELLS + k] >= 0:
                    on_strips += 1
            f.on_strips = on_strips
            score = s.points[p] + on_strips // LEFTOVER_DIVISOR
            loss = -self.r.track[s.track[p]]
            f.track = s.track[p]
            f.broken = deduct(score, loss, self.r.has_floor, self.r.floor) - score
            score += f.broken
            s.lost[p] += loss
            bonus = 0
            if self.r.side_a:
                for k in range(4):
                    bonus += ORNAMENT_BONUS[self._ornament_frames(p, k)]
            else:
                f.complete, f.best = self._complete_windows(p), self._best_color(p)
                bonus = f.complete * f.best
            f.bonus = bonus
            s.points[p] = score + bonus
        s.over_scored = 1
        s.kind = OVER

    # ---------------------------------------------------------------- chance
    cdef void _recycle(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int k, bag = 0, tower = 0, kind
        if s.dhead < s.dtail:
            kind = s.deal_kind[s.dhead]
            if kind == INDICATOR or kind == FACTORY:
                for k in range(NC):
                    bag += s.bag[k]
                    tower += s.tower[k]
                if bag == 0:
                    if tower:
                        for k in range(NC):
                            s.bag[k] = s.tower[k]
                            s.tower[k] = 0
                    else:
                        s.dhead = s.dtail = 0
        if s.dhead == s.dtail and s.kind == TURN and not self._any_sources():
            self._end_round()

    cdef void _apply_chance(self, int outcome) noexcept nogil:
        cdef S* s = &self.s
        cdef int kind = s.deal_kind[s.dhead], a = s.deal_a[s.dhead], b = s.deal_b[s.dhead]
        s.dhead += 1
        if kind == FIRST:
            s.start = s.player = outcome
        elif kind == STRIP:
            s.strips[a * SLOTS + b] = outcome
            if outcome == self.r.joker_strip:
                s.sides[a * SLOTS + b] = 1 - self.r.joker_side
                s.dhead += 1
        elif kind == SIDE:
            s.sides[a * SLOTS + b] = outcome
        elif kind == ORDER:
            s.indicator[a] = outcome
        else:
            s.bag[outcome] -= 1
            if kind == INDICATOR:
                s.indicator[0] = outcome
            else:
                s.sources[a * NC + outcome] += 1
        self._recycle()

    cdef void _draw_all(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int out[MAXLEGAL]
        cdef int kind, x, n
        while s.dhead < s.dtail:
            kind = s.deal_kind[s.dhead]
            if kind == INDICATOR or kind == FACTORY:
                x = next_weighted(&s.rng, s.bag, NC)
            else:
                n = self._outcomes(out)
                x = out[next_below(&s.rng, n)]
            self._apply_chance(x)
            s.drawn += 1

    # ---------------------------------------------------------------- for environments
    def observe(self, int seat, float[::1] out):
        """Write the observation of ``azul.sintra.observation.observe`` seen by ``seat`` into
        ``out`` (a float32 vector of the game's observation size; zeroed here)."""
        cdef int size = self.r.observation_size
        if out.shape[0] != size:
            raise AzulError(f"the observation has {size} entries, not {out.shape[0]}")
        if not 0 <= seat < self.r.players:
            raise AzulError(f"seat {seat} is not a seat of this game")
        self._observe(seat, &out[0])

    cdef void _observe(self, int seat, float* out) noexcept nogil:
        """``observe`` into a C array of ``Rules.observation_size`` floats, unchecked."""
        cdef Features f
        f.n = 0
        self._features(seat, &f)
        scatter(&f, out, self.r.observation_size)

    cdef void _features(self, int seat, Features* out) noexcept nogil:
        """The non-zero entries of ``observe``, added to ``out`` (each entry once)."""
        cdef S* s = &self.s
        cdef int n = self.r.players, nsrc = self.r.nsrc, T = self.r.bottom + 1
        cdef int i, c, k, p, q, slot, f, o
        cdef int8_t* pat
        # offsets of the layout's pieces
        cdef int o_round = 0, o_color = 6, o_decision = 11, o_move = 13
        cdef int o_tile = o_move + n, o_keep = o_tile + n + 1, o_src = o_keep + SLOTS
        cdef int o_bag = o_src + nsrc * NC, o_tower = o_bag + NC, o_ind = o_tower + NC
        cdef int o_scores = o_ind + ROUNDS * NC, o_lost = o_scores + n, o_track = o_lost + n
        cdef int o_glazier = o_track + n * T, o_present = o_glazier + n * SLOTS
        cdef int o_side = o_present + n * SLOTS, o_pattern = o_side + n * SLOTS
        cdef int o_pieces = o_pattern + n * SLOTS * SPACES * (NC + 1)
        cdef int o_windows = o_pieces + n * SLOTS * SPACES * NC
        put(out, o_round + s.round - 1, 1)
        c = s.indicator[s.round - 1]
        if c >= 0:
            put(out, o_color + c, 1)
        if s.dhead == s.dtail and (s.kind == TURN or s.kind == KEEPING):
            put(out, o_decision + s.kind, 1)
            put(out, o_move + (s.player - seat + n) % n, 1)
        put(out, o_tile + (0 if s.tile < 0 else 1 + (s.tile - seat + n) % n), 1)
        if s.keep_slot >= 0:
            put(out, o_keep + s.keep_slot, 1)
        for i in range(nsrc * NC):
            put(out, o_src + i, s.sources[i])
        for c in range(NC):
            put(out, o_bag + c, s.bag[c])
            put(out, o_tower + c, s.tower[c])
        for i in range(ROUNDS):
            if s.indicator[i] >= 0:
                put(out, o_ind + i * NC + s.indicator[i], 1)
        for q in range(n):
            p = (seat + q) % n
            put(out, o_scores + q, s.points[p])
            put(out, o_lost + q, s.lost[p])
            put(out, o_track + q * T + s.track[p], 1)
            put(out, o_glazier + q * SLOTS + s.glazier[p], 1)
            for slot in range(SLOTS):
                i = p * SLOTS + slot
                for f in range(FRAMES):
                    c = s.windows[i * FRAMES + f]
                    if c >= 0:
                        put(out, o_windows + ((q * SLOTS + slot) * FRAMES + f) * NC + c, 1)
                if s.strips[i] < 0:
                    continue
                put(out, o_present + q * SLOTS + slot, 1)
                put(out, o_side + q * SLOTS + slot, s.sides[i])
                pat = self.r.pattern[s.strips[i] * 2 + s.sides[i]]
                for k in range(SPACES):
                    o = (q * SLOTS + slot) * SPACES + k
                    put(out, o_pattern + o * (NC + 1) + (NC if pat[k] == JOKER else pat[k]), 1)
                    c = s.cells[i * SPACES + k]
                    if c >= 0:
                        put(out, o_pieces + o * NC + c, 1)

    def advance(self, int seat, uint64_t seed):
        """Play chance and uniformly random opponents until ``seat`` decides or the game ends,
        drawing from a generator seeded with ``seed``; returns the generator's next seed."""
        cdef int out[MAXLEGAL]
        cdef int n, a, kind
        cdef uint64_t rng = seed
        cdef S* s = &self.s
        while not (s.dhead == s.dtail and s.kind == OVER):
            if s.dhead < s.dtail:
                kind = s.deal_kind[s.dhead]
                if kind == INDICATOR or kind == FACTORY:
                    a = next_weighted(&rng, s.bag, NC)
                else:
                    n = self._outcomes(out)
                    a = out[next_below(&rng, n)]
                self._apply_chance(a)
                s.drawn += 1
            elif s.player == seat:
                break
            else:
                n = self._legal(out)
                a = out[next_below(&rng, n)]
                self._move(a)
                if s.dhead < s.dtail and not self.r.explicit:
                    self._draw_all()
            hist_push(&self.hist, a)
        return rng

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, int seat):
        """``azul.sintra.evaluation.evaluate`` of this position for ``seat``, the same float."""
        if not 0 <= seat < self.r.players:
            raise AzulError(f"seat {seat} is not a seat of this game")
        return self._evaluate(seat)

    cdef double _evaluate(self, int p) noexcept nogil:
        """Each step as in azul.sintra.evaluation, in the same order, so the floats agree."""
        cdef S* s = &self.s
        cdef double v = s.points[p], occupied_right = 0.0, pay
        cdef int slot, i, k, j, filled, on_strips = 0, complete, best, count
        if s.kind == OVER:
            return v
        v += self.r.track[s.track[p]]
        v -= 0.6 * s.track[p] / self.r.bottom * self.r.penalty / 4
        for slot in range(SLOTS - 1, -1, -1):
            i = p * SLOTS + slot
            if s.windows[p * WF + slot * FRAMES] >= 0:
                occupied_right += self.r.window_values[slot]
            if s.strips[i] < 0:
                continue
            filled = popcount64(s.fills[i])
            if filled:
                pay = self.r.window_values[slot] + occupied_right
                v += pay * pow(filled / 5.0, 2.0) * 0.8
        for slot in range(SLOTS):
            on_strips += popcount64(s.fills[p * SLOTS + slot])
        v += on_strips / 3.0 * 0.5
        if self.r.side_a:
            for k in range(4):
                count = self._ornament_frames(p, k)
                v += ORNAMENT_BONUS[count] * 0.5 + ORNAMENT_POTENTIAL[count] * 0.5
        else:
            v += (self._complete_windows(p) + 0.5) * (self._best_color(p) + 0.5) * 0.8
        return v

    cdef int _ornament_frames(self, int p, int k) noexcept nogil:
        """The frames of ornament ``k`` that hold a piece (rules 5.2, side A)."""
        cdef int j, count = 0
        for j in range(4):
            if self.s.windows[p * WF + self.r.ornaments[k][j]] >= 0:
                count += 1
        return count

    cdef int _complete_windows(self, int p) noexcept nogil:
        """Windows with both frames filled (side B)."""
        cdef int k, count = 0
        for k in range(SLOTS):
            if self.s.windows[p * WF + 2 * k + 1] >= 0:
                count += 1
        return count

    cdef int _best_color(self, int p) noexcept nogil:
        """The most frames of one colour (side B)."""
        cdef int c, j, count, best = 0
        for c in range(NC):
            count = 0
            for j in range(WF):
                if self.s.windows[p * WF + j] == c:
                    count += 1
            best = max(best, count)
        return best

    cdef void _returns(self, double* out) noexcept nogil:
        """``State.returns`` with Sintra's winners (score, then fewest points lost)."""
        cdef S* s = &self.s
        cdef int p, n = self.r.players, k = 0, bp = 0
        cdef int win[MAXP]
        for p in range(1, n):
            if s.points[p] > s.points[bp] or (
                s.points[p] == s.points[bp] and s.lost[p] < s.lost[bp]
            ):
                bp = p
        for p in range(n):
            win[p] = s.points[p] == s.points[bp] and s.lost[p] == s.lost[bp]
            k += win[p]
        for p in range(n):
            out[p] = 0.0 if k == n else (1.0 / k if win[p] else -1.0 / (n - k))

    cdef void _step(self, int action) noexcept nogil:
        """A legal move in a search (no history kept), its draws made."""
        self._move(action)
        if self.s.dhead < self.s.dtail and not self.r.explicit:
            self._draw_all()

    # ---------------------------------------------------------------- playouts
    def returns(self):
        """As ``SintraState.returns`` (read at the end of a game, so through Python)."""
        return self.to_state().returns()


include "../core/_search.pxi"
