# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
# cython: initializedcheck=False, infer_types=True
"""The compiled core of Summer Pavilion: the rules of ``azul.pavilion.state`` on fixed C
arrays, for speed. ``azul.pavilion.state`` stays the reference: every function here mirrors the
one of the same name there (rules sections are cited there), and the test suite compares the two
step by step. A ``Core`` is made from a ``PavilionState`` and turns back into one
(``to_state``), so everything else (notation, JSON positions, drawings, the bots' evaluation)
stays in Python.
"""

from libc.string cimport memmove

from azul.core.errors import AzulError, IllegalMoveError
from azul.pavilion import commitment, data, evaluation, tables

include "../core/_common.pxi"
include "../core/_net.pxi"
include "../core/_queries.pxi"

cdef enum:
    NC = 6
    NSTARS = 7
    NSPACES = 42
    MAXP = 4
    MAXSRC = 10  # the centre and up to 9 factories
    MAXDEALS = 256
    MAXLEGAL = 2048
    NKEEPS = 210
    SUPPLY_SPACES = 10
    TILES_PER_FACTORY = 4
    TILES_PER_COLOR = 22
    CORNER_SPACES = 4
    ROUNDS = 6
    START_SCORE = 5
    ALL_COLORS = 63
    CHANCE = -1
    TERMINAL = -4

cdef enum:  # decision kinds, as in azul.pavilion.state
    ACQUIRE = 0
    PLAY = 1
    BONUS_PICK = 2
    OVER = 3

cdef enum:  # where a pending draw goes, as in azul.pavilion.state (or a factory 1..F)
    TO_SUPPLY = -1
    FIRST_PLAYER = -2

# the tables of azul.pavilion.tables and data, in C
cdef int RUN[64][6]
cdef int POPCOUNT[64]
cdef int WILD_BY_ROUND[7]
cdef int STAR_COLOR[7]
cdef int STAR_BONUS_BY_COLOR[6]
cdef int NSTRUCT[NSPACES]
cdef uint64_t STRUCT_MASK[NSPACES][4]
cdef int STRUCT_REWARD[NSPACES][4]
cdef int8_t KEEPS[NKEEPS][NC]
cdef uint64_t FITS[NC][5][4]  # a 210-bit set over KEEPS, as 4 words


def _tables():
    cdef int m, i, c, v, k
    for m in range(64):
        POPCOUNT[m] = tables.POPCOUNT[m]
        for i in range(6):
            RUN[m][i] = tables.RUN[m][i]
    for i in range(7):
        WILD_BY_ROUND[i] = data.WILD_BY_ROUND[i]
        STAR_COLOR[i] = data.STAR_COLOR[i]
    for c in range(NC):
        STAR_BONUS_BY_COLOR[c] = data.STAR_BONUS_BY_COLOR[c]
    for i in range(NSPACES):
        NSTRUCT[i] = len(tables.STRUCTURES_AT[i])
        for k, (mask, reward) in enumerate(tables.STRUCTURES_AT[i]):
            STRUCT_MASK[i][k] = mask
            STRUCT_REWARD[i][k] = reward
    if len(tables.KEEPS) != NKEEPS:
        raise AzulError("the compiled core disagrees with azul.pavilion.tables.KEEPS")
    for k, keep in enumerate(tables.KEEPS):
        for c in range(NC):
            KEEPS[k][c] = keep[c]
    for c in range(NC):
        for v in range(5):
            for i in range(4):
                FITS[c][v][i] = 0
            for k in range(NKEEPS):
                if KEEPS[k][c] <= v:
                    FITS[c][v][k >> 6] |= (<uint64_t>1) << (k & 63)


# the evaluation's constants (azul.pavilion.evaluation and commitment), read once: the compiled
# evaluation assumes, as the evaluation's memo does, that the weights do not change
cdef double W_STAR_EARLY, W_STAR_LATE, W_NUMBER, W_STRUCTURE, W_PLAN, W_KEEP, W_BONUS_TILE
cdef double W_SPEND, W_PURSUIT, W_PURSUIT_KEEP, W_COMMIT
cdef double W_PROGRESS, W_FIT, W_CLAIM_TILE, W_CLAIM_PAST
cdef double GATHER, WILD_SHARE, RIVAL, RIVAL_STAR, AVERAGE_STAR
cdef double SQUARES[7]
cdef double SIXTHS[7]
cdef double FUTURE[7][NC]  # by round, colour
cdef int STAR_OF[NC]
cdef int WILD_ROUND[NC]
cdef uint64_t STRUCTURE_MASK[18]
cdef int STRUCTURE_REWARD[18]


def _evaluation_tables():
    global W_STAR_EARLY, W_STAR_LATE, W_NUMBER, W_STRUCTURE, W_PLAN, W_KEEP, W_BONUS_TILE
    global W_SPEND, W_PURSUIT, W_PURSUIT_KEEP, W_COMMIT
    global W_PROGRESS, W_FIT, W_CLAIM_TILE, W_CLAIM_PAST
    global GATHER, WILD_SHARE, RIVAL, RIVAL_STAR, AVERAGE_STAR
    w = evaluation.WEIGHTS
    W_STAR_EARLY, W_STAR_LATE, W_NUMBER = w["star_early"], w["star_late"], w["number"]
    W_STRUCTURE, W_PLAN, W_KEEP, W_BONUS_TILE = w["structure"], w["plan"], w["keep"], w["bonus_tile"]
    W_SPEND, W_PURSUIT, W_PURSUIT_KEEP = w["spend"], w["pursuit"], w["pursuit_keep"]
    W_COMMIT = w["commit"]
    cw = commitment.WEIGHTS
    W_PROGRESS, W_FIT = cw["progress"], cw["fit"]
    W_CLAIM_TILE, W_CLAIM_PAST = cw["claim_tile"], cw["claim_past"]
    if commitment.TARGETS != 1:
        raise AzulError("the compiled evaluation commits to one star at a time")
    GATHER, RIVAL, RIVAL_STAR = evaluation.GATHER, evaluation.RIVAL, evaluation.RIVAL_STAR
    WILD_SHARE, AVERAGE_STAR = evaluation._WILD_SHARE, evaluation._AVERAGE_STAR
    for k in range(7):
        SQUARES[k], SIXTHS[k] = evaluation._SQUARES[k], evaluation._SIXTHS[k]
    for r in range(7):
        for c in range(NC):
            FUTURE[r][c] = evaluation._FUTURE_BY_ROUND[r][c]
    for c in range(NC):
        STAR_OF[c] = evaluation._STAR_OF[c]
        WILD_ROUND[c] = commitment._WILD_ROUND[c]
    for i, (mask, reward) in enumerate(evaluation._STRUCTURES):
        STRUCTURE_MASK[i], STRUCTURE_REWARD[i] = mask, reward


_tables()
_evaluation_tables()

cdef inline int allowed_colors(int grey, int star, int present, int count) noexcept nogil:
    """As ``azul.pavilion.state.allowed_colors`` (rules 5.3, 9.1)."""
    if not grey:
        if star:
            return 1 << STAR_COLOR[star]
        return ALL_COLORS & ~present
    if count < 2:
        return ALL_COLORS
    if POPCOUNT[present] == 1:
        return present
    return ALL_COLORS & ~present


cdef inline int star_bonus(int grey, int star, int present) noexcept nogil:
    """As ``azul.pavilion.state.star_bonus`` (rules 7.1, 9.1)."""
    cdef int c
    if grey:
        if POPCOUNT[present] == 1:
            for c in range(NC):
                if present >> c & 1:
                    return STAR_BONUS_BY_COLOR[c]
        return 12
    if star == 0:
        return 12
    return STAR_BONUS_BY_COLOR[STAR_COLOR[star]]


cdef class Rules:
    """The fixed facts of one PavilionGame (its options and board side), as C arrays."""

    cdef readonly object game
    cdef int players, factories, nsrc, explicit, grey, discard_at_last_pass, has_floor, floor
    cdef int place_base, pass_base, bonus_base, size
    cdef int observation_size  # the entries of Core.observe
    cdef int cost[NSPACES]
    cdef int8_t wilds_lo[7][42]  # -1: no payment
    cdef int8_t wilds_hi[7][42]
    cdef int8_t self_lo[7][7]
    cdef int8_t self_hi[7][7]
    cdef uint64_t number_mask[4]
    cdef int number[4]
    cdef int number_bonus[4]
    cdef int nnumbers
    # the evaluation's tables for this side (azul.pavilion.evaluation)
    cdef int need[NSTARS * 64]
    cdef double number_value[4][16]  # _number_value of each number set, by spaces covered
    cdef uint64_t gain_mask[7]  # by cost: the number set's mask (0: none) ...
    cdef double gain[7][16]  # ... and the gain of covering one more, by spaces covered

    def __init__(self, game):
        board = game.board
        self.game = game
        self.players = game.players
        self.factories = game.factories
        self.nsrc = game.factories + 1
        self.explicit = bool(game.explicit_chance)
        self.grey = bool(board.grey)
        self.discard_at_last_pass = bool(game.discard_at_last_pass)
        floor = game.options["score_floor"]
        self.has_floor = floor is not None
        self.floor = floor or 0
        self.place_base = game.actions.place_base
        self.pass_base = game.actions.pass_base
        self.bonus_base = game.actions.bonus_base
        self.size = game.actions.size
        self.observation_size = game.info.observation_shape[0]
        if self.observation_size > NET_MAXIN:  # Features holds that many entries
            raise AzulError(f"an observation of {self.observation_size} entries is too long")
        for sp in range(NSPACES):
            self.cost[sp] = board.cost[sp]
        for n in range(7):
            for j, span in enumerate(board.wilds[n]):
                self.wilds_lo[n][j], self.wilds_hi[n][j] = span if span else (-1, -1)
            for j, span in enumerate(board.wild_self[n]):
                self.self_lo[n][j], self.self_hi[n][j] = span if span else (-1, -1)
        self.nnumbers = len(board.number_masks)
        for i, (number, mask, bonus) in enumerate(board.number_masks):
            self.number[i], self.number_mask[i], self.number_bonus[i] = number, mask, bonus
            size = mask.bit_count()
            for have in range(size + 1):
                self.number_value[i][have] = evaluation._number_value(
                    have, size, bonus, evaluation.WEIGHTS["number"]
                )
        for i, v in enumerate(evaluation._NEED[board.side]):
            self.need[i] = v
        gains = evaluation._number_gains(board.side, evaluation.WEIGHTS["number"])
        for n in range(7):
            self.gain_mask[n] = 0
            if n in gains:
                self.gain_mask[n] = gains[n][0]
                for done, g in enumerate(gains[n][1]):
                    self.gain[n][done] = g

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
    int32_t play, left, left_points
    int32_t star[NSTARS]  # the bonus of each completed star, -1 if not complete
    int32_t number[4]  # the bonus of each complete number set, -1 if not complete


cdef struct S:
    int16_t sources[MAXSRC * NC]
    int16_t supply[NC]
    int16_t bag[NC]
    int16_t tower[NC]
    int16_t hands[MAXP * NC]
    int16_t kept[MAXP * NC]
    int8_t cells[MAXP * NSPACES]
    uint64_t filled[MAXP]
    uint8_t colors[MAXP * NSTARS]
    int32_t points[MAXP]
    int32_t passed
    int8_t round, kind, owed, token, start, player, over_scored
    int8_t deals[MAXDEALS]
    int16_t dhead, dtail
    uint64_t rng
    int32_t drawn
    Final final[MAXP]


cdef class Core:
    """A Summer Pavilion position in C arrays with the rules of ``PavilionState``."""

    cdef Rules r
    cdef S s
    cdef Hist hist

    def __dealloc__(self):
        free(self.hist.actions)

    # ---------------------------------------------------------------- to and from Python
    @staticmethod
    def new(game, seed=0):
        """A fresh game, as ``game.new_initial_state(seed)`` deals it."""
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise TypeError(f"seed must be an int, not {type(seed).__name__}")
        cdef Core c = Core.__new__(Core)
        cdef Rules r = rules(game)
        cdef S* s = &c.s
        cdef int i, f, k
        c.r = r
        for i in range(NC):
            s.bag[i] = TILES_PER_COLOR
        for i in range(MAXP * NSPACES):
            s.cells[i] = -1
        for i in range(r.players):
            s.points[i] = START_SCORE
        s.round, s.kind, s.token = 1, ACQUIRE, -1
        s.rng = seed & 0xFFFFFFFFFFFFFFFF
        first = game.options["first_player"]
        s.start = s.player = 0 if first is None else first
        if first is None:
            c._deal(FIRST_PLAYER)
        for i in range(SUPPLY_SPACES):
            c._deal(TO_SUPPLY)
        c._deal_factories()
        hist_alloc(&c.hist, 64)
        if not r.explicit:
            c._draw_all()
        return c

    @staticmethod
    def from_state(state):
        """The compiled copy of a ``PavilionState``."""
        cdef Core c = Core.__new__(Core)
        cdef Rules r = rules(state.game)
        cdef S* s = &c.s
        cdef int i
        c.r = r
        for i, v in enumerate(state.sources):
            s.sources[i] = v
        for i in range(NC):
            s.supply[i], s.bag[i], s.tower[i] = state.supply[i], state.bag[i], state.tower[i]
        for i in range(r.players * NC):
            s.hands[i], s.kept[i] = state.hands[i], state.kept[i]
        for i in range(r.players * NSPACES):
            s.cells[i] = state.cells[i]
        for i in range(r.players * NSTARS):
            s.colors[i] = state.colors[i]
        for i in range(r.players):
            s.filled[i] = state.filled[i]
            s.points[i] = state.points[i]
        s.passed, s.round, s.kind, s.owed = state.passed, state.round, state.kind, state.owed
        s.token, s.start, s.player = state.token, state.start, state.player
        if len(state.deals) > MAXDEALS:
            raise AzulError("too many pending draws for the compiled core")
        s.dhead, s.dtail = 0, len(state.deals)
        for i, d in enumerate(state.deals):
            s.deals[i] = d
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
        cdef int i
        for i in range(NSTARS):
            f.star[i] = -1
        for i in range(4):
            f.number[i] = -1
        f.left = f.left_points = 0
        for item, detail, points in lines:
            if item == "play":
                f.play = points
            elif item == "star":
                f.star[data.star_names(self.r.grey).index(detail)] = points
            elif item == "number":
                for i in range(self.r.nnumbers):
                    if self.r.number[i] == int(detail):
                        f.number[i] = points
            else:
                f.left, f.left_points = int(detail), points

    def to_state(self):
        """A ``PavilionState`` equal to this position."""
        from azul.pavilion.state import PavilionState

        cdef Rules r = self.r
        cdef S* s = &self.s
        cdef int n = r.players
        state = PavilionState.__new__(PavilionState)
        state.game = r.game
        state.sources = [s.sources[i] for i in range(r.nsrc * NC)]
        state.supply = [s.supply[i] for i in range(NC)]
        state.bag = [s.bag[i] for i in range(NC)]
        state.tower = [s.tower[i] for i in range(NC)]
        state.hands = [s.hands[i] for i in range(n * NC)]
        state.kept = [s.kept[i] for i in range(n * NC)]
        state.cells = [s.cells[i] for i in range(n * NSPACES)]
        state.filled = [s.filled[i] for i in range(n)]
        state.colors = [s.colors[i] for i in range(n * NSTARS)]
        state.points = [s.points[i] for i in range(n)]
        state.passed, state.round, state.kind, state.owed = s.passed, s.round, s.kind, s.owed
        state.token, state.start, state.player = s.token, s.start, s.player
        state.deals = [s.deals[i] for i in range(s.dhead, s.dtail)]
        state.hist = hist_list(&self.hist)
        state._rng = s.rng
        state.drawn = s.drawn
        state.final = self._final_lines() if s.over_scored else None
        return state

    cdef _final_lines(self):
        out = []
        cdef Final* f
        for p in range(self.r.players):
            f = &self.s.final[p]
            lines = [("play", "", f.play)]
            for star in range(NSTARS):
                if f.star[star] >= 0:
                    lines.append(("star", data.star_names(self.r.grey)[star], f.star[star]))
            for i in range(self.r.nnumbers):
                if f.number[i] >= 0:
                    lines.append(("number", str(self.r.number[i]), f.number[i]))
            if f.left:
                lines.append(("leftovers", str(f.left), f.left_points))
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
    def returns(self):
        """As ``PavilionState.returns`` (read at the end of a game, so through Python)."""
        return self.to_state().returns()

    def chance_outcomes(self):
        """(outcome, probability) of the pending random draw."""
        cdef int i, total = 0
        if self.s.dhead == self.s.dtail:
            raise AzulError("no random draw is pending: this is not a chance node")
        if self.s.deals[self.s.dhead] == FIRST_PLAYER:
            return [(i, 1.0 / self.r.players) for i in range(self.r.players)]
        for i in range(NC):
            total += self.s.bag[i]
        return [(i, self.s.bag[i] / <double>total) for i in range(NC) if self.s.bag[i]]

    cdef inline int _hand_total(self, int p) noexcept nogil:
        cdef int c, t = 0
        for c in range(NC):
            t += self.s.hands[p * NC + c]
        return t

    cdef inline int _discards_all(self) noexcept nogil:
        return self.s.round == ROUNDS and self.r.discard_at_last_pass

    cdef int _legal(self, int* out) noexcept nogil:
        cdef S* s = &self.s
        cdef int n = 0, c, i, w, total, b, src, p, k
        cdef uint64_t fits[4]
        cdef uint64_t word
        if s.dhead < s.dtail:
            if s.deals[s.dhead] == FIRST_PLAYER:
                for i in range(self.r.players):
                    out[i] = i
                return self.r.players
            for c in range(NC):
                if s.bag[c]:
                    out[n] = c
                    n += 1
            return n
        if s.kind == OVER:
            return 0
        if s.kind == ACQUIRE:
            w = WILD_BY_ROUND[s.round]
            for src in range(self.r.nsrc):
                b = src * NC
                total = 0
                for c in range(NC):
                    total += s.sources[b + c]
                if not total:
                    continue
                if s.sources[b + w] == total:
                    out[n] = b + w
                    n += 1
                    continue
                for c in range(NC):
                    if s.sources[b + c] and c != w:
                        out[n] = b + c
                        n += 1
            return n
        if s.kind == BONUS_PICK:
            for c in range(NC):
                if s.supply[c]:
                    out[n] = self.r.bonus_base + c
                    n += 1
            return n
        n = self._placements(out)
        p = s.player
        if self._hand_total(p) <= CORNER_SPACES or self._discards_all():
            out[n] = self.r.pass_base
            return n + 1
        for i in range(4):  # keeps_fitting: the multisets of KEEPS the hand holds
            fits[i] = ~(<uint64_t>0)
        for c in range(NC):
            k = min(s.hands[p * NC + c], 4)
            for i in range(4):
                fits[i] &= FITS[c][k][i]
        for i in range(4):
            word = fits[i]
            for k in range(64):
                if word >> k & 1 and i * 64 + k < NKEEPS:
                    out[n] = self.r.pass_base + 1 + i * 64 + k
                    n += 1
        return n

    cdef int _placements(self, int* out) noexcept nogil:
        cdef S* s = &self.s
        cdef int p = s.player, n = 0, w = WILD_BY_ROUND[s.round], hw, star, ring, cols, pos
        cdef int sp, cost, base, c, hc, lo, hi, k, in_hand = 0
        cdef int16_t* h = &s.hands[p * NC]
        hw = h[w] if h[w] < 5 else 5
        for c in range(NC):
            if h[c]:
                in_hand |= 1 << c
        for star in range(NSTARS):
            ring = (s.filled[p] >> (star * 6)) & 63
            if ring == 63:
                continue
            cols = allowed_colors(
                self.r.grey, star, s.colors[p * NSTARS + star], POPCOUNT[ring]
            ) & in_hand
            if not cols:
                continue
            for pos in range(6):
                if ring >> pos & 1:
                    continue
                sp = star * 6 + pos
                cost = self.r.cost[sp]
                base = self.r.place_base + sp * 36
                for c in range(NC):
                    if not cols >> c & 1:
                        continue
                    hc = h[c] if h[c] < 6 else 6
                    if c == w:
                        lo, hi = self.r.self_lo[cost][hc], self.r.self_hi[cost][hc]
                    else:
                        lo, hi = self.r.wilds_lo[cost][hc * 6 + hw], self.r.wilds_hi[cost][hc * 6 + hw]
                    if lo < 0:
                        continue
                    for k in range(lo, hi):
                        out[n] = base + c * 6 + k
                        n += 1
        return n

    # ---------------------------------------------------------------- applying actions
    def apply_action(self, int action):
        """Apply a legal action or outcome; anything else raises ``IllegalMoveError`` (with the
        reference engine's explanation) and changes nothing."""
        cdef int out[MAXLEGAL]
        cdef int n, i
        cdef S* s = &self.s
        n = self._legal(out)
        for i in range(n):
            if out[i] == action:
                break
        else:
            self._explain(action)
        if s.dhead < s.dtail:
            self._apply_chance(action)
            s.drawn += 1
        else:
            self._move(action)
            if s.dhead < s.dtail and not self.r.explicit:
                self._draw_all()
        hist_push(&self.hist, action)

    cdef _explain(self, int action):
        """Raise the reference engine's error for an illegal action."""
        self.to_state().apply_action(action)
        raise IllegalMoveError(f"action {action} is not legal here")  # pragma: no cover

    cdef void _move(self, int action) noexcept nogil:
        """A legal player's action (``_move`` of the reference, without the checks)."""
        cdef int x
        if self.s.kind == ACQUIRE:
            self._take(action // NC, action % NC)
        elif self.s.kind == BONUS_PICK:
            self._bonus(action - self.r.bonus_base)
        elif action < self.r.pass_base:
            x = action - self.r.place_base
            self._place(x // 36, x // 6 % 6, x % 6)
        else:
            self._pass(action - self.r.pass_base)

    cdef void _take(self, int source, int c) noexcept nogil:
        cdef S* s = &self.s
        cdef int b = source * NC, w = WILD_BY_ROUND[s.round], p = s.player, h = p * NC
        cdef int taken, k
        if c == w:
            taken = 1
            s.sources[b + w] -= 1
            s.hands[h + w] += 1
        else:
            taken = s.sources[b + c]
            s.sources[b + c] = 0
            s.hands[h + c] += taken
            if s.sources[b + w]:
                s.sources[b + w] -= 1
                s.hands[h + w] += 1
                taken += 1
        if source:
            for k in range(NC):
                if s.sources[b + k]:
                    s.sources[k] += s.sources[b + k]
                    s.sources[b + k] = 0
        elif s.token < 0:
            s.token = p
            s.points[p] = deduct(s.points[p], taken, self.r.has_floor, self.r.floor)
        if self._any_sources():
            s.player = (p + 1) % self.r.players
        else:
            self._start_play()

    cdef inline int _any_sources(self) noexcept nogil:
        cdef int i
        for i in range(self.r.nsrc * NC):
            if self.s.sources[i]:
                return 1
        return 0

    cdef void _start_play(self) noexcept nogil:
        self.s.kind = PLAY
        self.s.passed = 0
        self._next_in_play(self.s.token if self.s.token >= 0 else self.s.start, 1)

    cdef void _place(self, int sp, int c, int k) noexcept nogil:
        cdef S* s = &self.s
        cdef int p = s.player, star = sp // 6, i = sp % 6, n = self.r.cost[sp]
        cdef int w = WILD_BY_ROUND[s.round], h = p * NC, bonus = 0, j, supply = 0
        cdef uint64_t filled = s.filled[p] | ((<uint64_t>1) << sp)
        s.hands[h + c] -= n - k
        s.hands[h + w] -= k
        s.tower[c] += n - k - 1
        s.tower[w] += k
        s.filled[p] = filled
        s.cells[p * NSPACES + sp] = c
        s.colors[p * NSTARS + star] |= 1 << c
        s.points[p] += RUN[(filled >> (star * 6)) & 63][i]
        for j in range(NSTRUCT[sp]):
            if filled & STRUCT_MASK[sp][j] == STRUCT_MASK[sp][j]:
                bonus += STRUCT_REWARD[sp][j]
        if bonus:
            for j in range(NC):
                supply += s.supply[j]
            s.owed = min(bonus, supply)
        if s.owed:
            s.kind = BONUS_PICK
        else:
            self._end_turn()

    cdef void _bonus(self, int c) noexcept nogil:
        cdef S* s = &self.s
        s.supply[c] -= 1
        s.hands[s.player * NC + c] += 1
        s.owed -= 1
        if not s.owed:
            s.kind = PLAY
            self._end_turn()

    cdef void _pass(self, int x) noexcept nogil:
        cdef S* s = &self.s
        cdef int p = s.player, h = p * NC, c, total = 0, kept = 0
        cdef int keep[NC]
        for c in range(NC):
            total += s.hands[h + c]
        for c in range(NC):
            if self._discards_all():
                keep[c] = 0
            elif x == 0:
                keep[c] = s.hands[h + c]
            else:
                keep[c] = KEEPS[x - 1][c]
            kept += keep[c]
        for c in range(NC):
            s.kept[h + c] = keep[c]
            s.tower[c] += s.hands[h + c] - keep[c]
            s.hands[h + c] = 0
        s.points[p] = deduct(s.points[p], total - kept, self.r.has_floor, self.r.floor)
        s.passed |= 1 << p
        self._end_turn()

    cdef void _end_turn(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int c, missing = SUPPLY_SPACES
        for c in range(NC):
            missing -= s.supply[c]
        if missing:
            for c in range(missing):
                self._deal(TO_SUPPLY)
            self._recycle()
        self._next_in_play(s.player, 0)

    cdef void _next_in_play(self, int p, int include_self) noexcept nogil:
        cdef S* s = &self.s
        cdef int n = self.r.players, step, q
        for step in range(0 if include_self else 1, n + 1):
            q = (p + step) % n
            if s.passed >> q & 1:
                continue
            if self._hand_total(q):
                s.player = q
                return
            s.passed |= 1 << q
        self._end_round()

    cdef void _end_round(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int i
        if s.round == ROUNDS:
            self._final_scoring()
            return
        s.round += 1
        if s.token >= 0:
            s.start = s.token
        s.token = -1
        for i in range(self.r.players * NC):
            s.hands[i] += s.kept[i]
            s.kept[i] = 0
        s.passed = 0
        s.kind = ACQUIRE
        s.player = s.start
        self._deal_factories()
        self._recycle()

    cdef void _final_scoring(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int p, star, i, c, score, left, present
        cdef uint64_t filled
        cdef Final* f
        s.dhead = s.dtail = 0
        for p in range(self.r.players):
            f = &s.final[p]
            filled = s.filled[p]
            score = s.points[p]
            f.play = score
            for star in range(NSTARS):
                f.star[star] = -1
                if (filled >> (star * 6)) & 63 == 63:
                    present = s.colors[p * NSTARS + star]
                    f.star[star] = star_bonus(self.r.grey, star, present)
                    score += f.star[star]
            for i in range(4):
                f.number[i] = -1
            for i in range(self.r.nnumbers):
                if filled & self.r.number_mask[i] == self.r.number_mask[i]:
                    f.number[i] = self.r.number_bonus[i]
                    score += f.number[i]
            left = 0
            for c in range(NC):
                i = p * NC + c
                left += s.kept[i] + s.hands[i]
                s.tower[c] += s.kept[i] + s.hands[i]
                s.kept[i] = s.hands[i] = 0
            s.points[p] = deduct(score, left, self.r.has_floor, self.r.floor)
            f.left = left
            f.left_points = s.points[p] - score
        s.over_scored = 1
        s.kind = OVER

    # ---------------------------------------------------------------- chance
    cdef void _deal(self, int dest) noexcept nogil:
        cdef S* s = &self.s
        if s.dhead == s.dtail:
            s.dhead = s.dtail = 0
        elif s.dtail == MAXDEALS:  # move the pending draws to the front
            memmove(&s.deals[0], &s.deals[s.dhead], s.dtail - s.dhead)
            s.dtail -= s.dhead
            s.dhead = 0
        s.deals[s.dtail] = dest
        s.dtail += 1

    cdef void _deal_factories(self) noexcept nogil:
        cdef int f, k
        for f in range(1, self.r.factories + 1):
            for k in range(TILES_PER_FACTORY):
                self._deal(f)

    cdef void _recycle(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int k, bag = 0, tower = 0
        if s.dhead < s.dtail and s.deals[s.dhead] != FIRST_PLAYER:
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
        if s.dhead == s.dtail and s.kind == ACQUIRE and not self._any_sources():
            self._start_play()

    cdef void _apply_chance(self, int outcome) noexcept nogil:
        cdef S* s = &self.s
        cdef int dest = s.deals[s.dhead]
        if dest == FIRST_PLAYER:
            s.start = s.player = outcome
        else:
            s.bag[outcome] -= 1
            if dest == TO_SUPPLY:
                s.supply[outcome] += 1
            else:
                s.sources[dest * NC + outcome] += 1
        s.dhead += 1
        self._recycle()

    cdef void _draw_all(self) noexcept nogil:
        cdef S* s = &self.s
        cdef int x
        while s.dhead < s.dtail:
            if s.deals[s.dhead] == FIRST_PLAYER:
                x = next_below(&s.rng, self.r.players)
            else:
                x = next_weighted(&s.rng, s.bag, NC)
            self._apply_chance(x)
            s.drawn += 1

    # ---------------------------------------------------------------- evaluation
    def evaluate(self, int seat):
        """``azul.pavilion.evaluation.evaluate`` of this position for ``seat``, the same
        float."""
        if not 0 <= seat < self.r.players:
            raise AzulError(f"seat {seat} is not a seat of this game")
        return self._evaluate(seat)

    cdef double _evaluate(self, int p) noexcept nogil:
        """Each step as in azul.pavilion.evaluation (no memo), in the same order."""
        cdef S* s = &self.s
        cdef double v = s.points[p], base, pursuit, share
        cdef uint64_t filled
        cdef int colors[NSTARS]
        cdef int stock[NC]
        cdef int i, total = 0
        if s.kind == OVER:
            return v
        if s.owed and s.player == p:
            v += s.owed * W_BONUS_TILE
        self._hand_and_board(p, &base, &pursuit, &filled, colors, stock)
        if pursuit:
            for i in range(self.r.nsrc * NC):
                total += s.sources[i]
            share = total / <double>(self.r.factories * TILES_PER_FACTORY)
            v += W_PURSUIT * share * pursuit
        if W_PLAN:
            v += W_PLAN * self._star_plan(p, filled, colors, stock)
        return v + base

    cdef void _hand_and_board(
        self, int p, double* base, double* pursuit, uint64_t* filled_out, int* colors, int* stock
    ) noexcept nogil:
        cdef S* s = &self.s
        cdef int hand[NC]
        cdef int kept[NC]
        cdef int none[NC]
        cdef int c, any_hand = 0, left = 0, keep, wild = WILD_BY_ROUND[s.round]
        cdef int last = s.round == ROUNDS
        cdef uint64_t filled = s.filled[p]
        cdef double v = 0.0, gained
        pursuit[0] = 0.0
        for c in range(NC):
            hand[c], kept[c], none[c] = s.hands[p * NC + c], s.kept[p * NC + c], 0
            any_hand |= hand[c]
        for c in range(NSTARS):
            colors[c] = s.colors[p * NSTARS + c]
        if not s.passed >> p & 1 and any_hand:
            gained = self._plan(hand, &filled, colors, wild)
            v += gained
            if s.kind == ACQUIRE and not last:
                pursuit[0] = self._pursuit(hand, filled, colors, wild)
        for c in range(NC):
            left += hand[c] + kept[c]
            stock[c] = hand[c] + kept[c]
        if last:
            v -= left
        else:
            keep = min(left, CORNER_SPACES)
            v += W_KEEP * keep - (left - keep)
            if s.kind != ACQUIRE and 0 < left <= CORNER_SPACES:
                v += W_PURSUIT_KEEP * self._pursuit(stock, filled, colors, WILD_BY_ROUND[s.round + 1])
        if last:  # what the plan leaves in round 6 is lost (rules 5.9): it fits no target
            v += W_COMMIT * self._commitment(filled, colors, none)
        else:
            v += W_COMMIT * self._commitment(filled, colors, stock)
        base[0] = v + self._board(filled, colors)
        filled_out[0] = filled

    cdef inline double _star_weight(self) noexcept nogil:
        return W_STAR_EARLY + W_STAR_LATE * self.s.round / ROUNDS

    cdef double _star_value(self, int star, int present, int k, double weight) noexcept nogil:
        cdef double bonus
        if not k:
            return 0.0
        if self.r.grey and k < 2:
            bonus = (AVERAGE_STAR + 12) / 2
        else:
            bonus = star_bonus(self.r.grey, star, present)
        return bonus if k == 6 else bonus * SQUARES[k] * weight

    cdef double _board(self, uint64_t filled, int* colors) noexcept nogil:
        cdef double weight = self._star_weight(), v = 0.0
        cdef int star, i
        cdef uint64_t missing
        for star in range(NSTARS):
            v += self._star_value(star, colors[star], POPCOUNT[(filled >> (star * 6)) & 63], weight)
        for i in range(self.r.nnumbers):
            v += self.r.number_value[i][popcount64(filled & self.r.number_mask[i])]
        for i in range(18):
            missing = STRUCTURE_MASK[i] & ~filled
            if missing and not missing & (missing - 1):
                v += W_STRUCTURE * STRUCTURE_REWARD[i]
        return v

    cdef int _options(
        self, int* hand, uint64_t filled, int* colors, int wild, int payable, double* gain_out,
        double* share_out, int* where
    ) noexcept nogil:
        """The placements the plan weighs (``evaluation._options``), in its order: gain and
        share, and in ``where`` star * 6 + i, colour and cost (3 ints each)."""
        cdef double weight = self._star_weight(), before, progress, gain
        cdef double spend = 0.0 if self.s.round == ROUNDS else W_SPEND
        cdef int hw = hand[wild], star, ring, k, present, allowed, c, hc, i, sp, n, have, j
        cdef int count = 0
        cdef uint64_t now
        for star in range(NSTARS):
            ring = (filled >> (star * 6)) & 63
            if ring == 63:
                continue
            k = POPCOUNT[ring]
            present = colors[star]
            before = self._star_value(star, present, k, weight)
            allowed = allowed_colors(self.r.grey, star, present, k)
            for c in range(NC):
                if not allowed >> c & 1:
                    continue
                hc = hand[c]
                if not hc:
                    continue
                progress = self._star_value(star, present | 1 << c, k + 1, weight) - before
                for i in range(6):
                    if ring >> i & 1:
                        continue
                    sp = star * 6 + i
                    n = self.r.cost[sp]
                    have = hc if c == wild else hc + (hw if hw < n else n - 1)
                    if (have >= n) != payable:
                        continue
                    gain = RUN[ring | 1 << i][i] + progress - spend * n
                    if self.r.gain_mask[n]:
                        gain += self.r.gain[n][popcount64(filled & self.r.gain_mask[n])]
                    now = filled | ((<uint64_t>1) << sp)
                    for j in range(NSTRUCT[sp]):
                        if now & STRUCT_MASK[sp][j] == STRUCT_MASK[sp][j]:
                            gain += STRUCT_REWARD[sp][j] * W_BONUS_TILE
                    gain_out[count] = gain
                    share_out[count] = have / <double>n
                    where[3 * count], where[3 * count + 1], where[3 * count + 2] = sp, c, n
                    count += 1
        return count

    cdef double _plan(self, int* hand, uint64_t* filled, int* colors, int wild) noexcept nogil:
        cdef double gains[256]
        cdef double shares[256]
        cdef int where[768]
        cdef double gained = 0.0, best_gain
        cdef int n, i, best, sp, c, cost, star, paid, j
        while True:
            n = self._options(hand, filled[0], colors, wild, 1, gains, shares, where)
            best, best_gain = -1, 0.0
            for i in range(n):
                if gains[i] > best_gain:
                    best, best_gain = i, gains[i]
            if best < 0:
                return gained
            sp, c, cost = where[3 * best], where[3 * best + 1], where[3 * best + 2]
            star = sp // 6
            filled[0] |= (<uint64_t>1) << sp
            colors[star] |= 1 << c
            gained += RUN[(filled[0] >> (star * 6)) & 63][sp % 6]
            for j in range(NSTRUCT[sp]):
                if filled[0] & STRUCT_MASK[sp][j] == STRUCT_MASK[sp][j]:
                    gained += STRUCT_REWARD[sp][j] * W_BONUS_TILE
            paid = min(hand[c], cost)
            hand[c] -= paid
            hand[wild] -= cost - paid

    cdef double _pursuit(self, int* hand, uint64_t filled, int* colors, int wild) noexcept nogil:
        cdef double gains[256]
        cdef double shares[256]
        cdef int where[768]
        cdef double best[NC]
        cdef double value, total = 0.0
        cdef int n, i, c
        for c in range(NC):
            best[c] = 0.0
        n = self._options(hand, filled, colors, wild, 0, gains, shares, where)
        for i in range(n):
            c = where[3 * i + 1]
            if c != wild:
                value = gains[i] * shares[i] * shares[i]
                if value > best[c]:
                    best[c] = value
        for c in range(NC):
            total += best[c]
        return total

    cdef double _commitment(self, uint64_t filled, int* colors, int* stock) noexcept nogil:
        """``commitment.commitment`` with one target."""
        cdef int grey = self.r.grey, star, ring, k, present, bonus, allowed, single, fit, c
        cdef int need, i, found = 0
        cdef double v = 0.0, claim, best_claim = 0.0, best_value = 0.0
        for star in range(NSTARS):
            if (filled >> (star * 6)) & 63 == 63:
                v += W_PROGRESS * star_bonus(grey, star, colors[star])
        for star in range(NSTARS):
            ring = (filled >> (star * 6)) & 63
            if ring == 63:
                continue
            k = POPCOUNT[ring]
            present = colors[star]
            bonus = star_bonus(grey, star, present)
            allowed = allowed_colors(grey, star, present, k)
            single = POPCOUNT[allowed] == 1 or (grey and k < 2)
            fit = 0
            for c in range(NC):
                if allowed >> c & 1:
                    if single:
                        fit = max(fit, stock[c])
                    elif stock[c]:
                        fit += 1
            claim = W_CLAIM_TILE * k + fit + bonus / 20.0
            if single and POPCOUNT[allowed] == 1:
                for c in range(NC):
                    if allowed >> c & 1 and WILD_ROUND[c] < self.s.round:
                        claim += W_CLAIM_PAST
            if not found or claim > best_claim:
                need = 0
                for i in range(6):
                    if not ring >> i & 1:
                        need += self.r.cost[star * 6 + i]
                best_claim = claim
                best_value = W_PROGRESS * bonus * k / 6 + W_FIT * min(fit, need)
                found = 1
        return v + best_value if found else v

    cdef double _star_plan(self, int p, uint64_t filled, int* colors, int* stock) noexcept nogil:
        """``evaluation.star_plan``."""
        cdef S* s = &self.s
        cdef int grey = self.r.grey, rnd = s.round, wild = WILD_BY_ROUND[s.round]
        cdef int star, ring, k, present, need, c, have, q, held, theirs, i, total = 0
        cdef double now = 0.0, v = 0.0, gather, rival, left, chance, worth
        if s.kind == ACQUIRE:
            for i in range(self.r.nsrc * NC):
                total += s.sources[i]
            now = GATHER * total / (self.r.factories * TILES_PER_FACTORY)
        for star in range(NSTARS):
            ring = (filled >> (star * 6)) & 63
            k = POPCOUNT[ring]
            if not k or k == 6:
                continue
            present = colors[star]
            need = self.r.need[star * 64 + ring]
            if (star and not grey) or (grey and POPCOUNT[present] == 1):
                c = 0
                while not present >> c & 1:
                    c += 1
                have = stock[c]
                gather = FUTURE[rnd][c] + (now if c != wild else now * WILD_SHARE)
                rival = 0.0
                left = <double>(TILES_PER_COLOR - have)
                for q in range(self.r.players):
                    if q == p:
                        continue
                    held = s.hands[q * NC + c] + s.kept[q * NC + c]
                    rival += held
                    left -= held
                    if not grey:
                        theirs = POPCOUNT[(s.filled[q] >> STAR_OF[c]) & 63]
                        left -= theirs + (s.colors[q * NSTARS] >> c & 1)
                        if 0 < theirs < 6:
                            rival += RIVAL_STAR
                if not grey:
                    left -= k + (colors[0] >> c & 1)
                if rival:
                    gather /= 1.0 + RIVAL * rival
                if gather > left:
                    gather = left if left > 0.0 else 0.0
            else:
                have = 0
                for c in range(NC):
                    if allowed_colors(grey, star, present, k) >> c & 1:
                        have += stock[c]
                gather = GATHER * (ROUNDS - rnd) + now
            chance = (have + gather) / need
            worth = SIXTHS[k] * star_bonus(grey, star, present)
            v += worth if chance >= 1.0 else worth * chance * chance
        return v

    cdef void _returns(self, double* out) noexcept nogil:
        """``State.returns``: the best score wins, ties shared."""
        cdef int p, n = self.r.players, k = 0, best = self.s.points[0]
        for p in range(n):
            best = max(best, self.s.points[p])
        for p in range(n):
            k += self.s.points[p] == best
        for p in range(n):
            out[p] = 0.0 if k == n else (1.0 / k if self.s.points[p] == best else -1.0 / (n - k))

    cdef void _step(self, int action) noexcept nogil:
        """A legal move in a search (no history kept), its draws made."""
        self._move(action)
        if self.s.dhead < self.s.dtail and not self.r.explicit:
            self._draw_all()

    # ---------------------------------------------------------------- playouts
    def advance(self, int seat, uint64_t seed):
        """Play chance and uniformly random opponents until ``seat`` decides or the game ends,
        drawing from a generator seeded with ``seed``; returns the generator's next seed."""
        cdef int out[MAXLEGAL]
        cdef int n, a
        cdef uint64_t rng = seed
        cdef S* s = &self.s
        while not (s.dhead == s.dtail and s.kind == OVER):
            if s.dhead < s.dtail:
                if s.deals[s.dhead] == FIRST_PLAYER:
                    a = next_below(&rng, self.r.players)
                else:
                    a = next_weighted(&rng, s.bag, NC)
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

    def observe(self, int seat, float[::1] out):
        """Write the observation of ``azul.pavilion.observation.observe`` seen by ``seat``
        into ``out`` (a float32 vector of the game's observation size; zeroed here)."""
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
        cdef int n = self.r.players, nsrc = self.r.nsrc, i, c, q, p, sp
        cdef int o_wild = 6, o_decision = 12, o_move = 15, o_token = o_move + n
        cdef int o_owed = o_token + n + 1, o_src = o_owed + 1, o_supply = o_src + nsrc * NC
        cdef int o_bag = o_supply + NC, o_tower = o_bag + NC, o_scores = o_tower + NC
        cdef int o_passed = o_scores + n, o_hands = o_passed + n, o_kept = o_hands + n * NC
        cdef int o_boards = o_kept + n * NC
        put(out, s.round - 1, 1)
        put(out, o_wild + WILD_BY_ROUND[s.round], 1)
        if s.dhead == s.dtail and s.kind != OVER:
            put(out, o_decision + s.kind, 1)
            put(out, o_move + (s.player - seat + n) % n, 1)
        put(out, o_token + (0 if s.token < 0 else 1 + (s.token - seat + n) % n), 1)
        put(out, o_owed, s.owed)
        for i in range(nsrc * NC):
            put(out, o_src + i, s.sources[i])
        for c in range(NC):
            put(out, o_supply + c, s.supply[c])
            put(out, o_bag + c, s.bag[c])
            put(out, o_tower + c, s.tower[c])
        for q in range(n):
            p = (seat + q) % n
            put(out, o_scores + q, s.points[p])
            put(out, o_passed + q, s.passed >> p & 1)
            for c in range(NC):
                put(out, o_hands + q * NC + c, s.hands[p * NC + c])
                put(out, o_kept + q * NC + c, s.kept[p * NC + c])
            for sp in range(NSPACES):
                c = s.cells[p * NSPACES + sp]
                if c >= 0:
                    put(out, o_boards + (q * NSPACES + sp) * NC + c, 1)


include "../core/_search.pxi"
