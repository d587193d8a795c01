# The methods of ``Core`` that both compiled cores share word for word, written once:
# copying, the thin queries on the position, the history, reseeding, the legal actions, their
# mask and a playout. Cython allows no include inside a class body, so each game's ``cdef class
# Core`` names these functions as its methods (``current_player = _current_player``). Each
# core's ``S`` keeps the same names for what they read (``dhead``/``dtail`` of the pending
# draws, ``kind``, ``player``, ``points``, ``drawn``, ``rng``) and each defines ``_legal`` and
# ``advance``.

cdef class Core  # each game's own, defined after this file is included


def _clone(Core self):
    cdef Core c = Core.__new__(Core)
    c.r = self.r
    c.s = self.s
    hist_copy(&c.hist, &self.hist)
    return c


def _copy(Core self):
    return self.clone()


def _deepcopy(Core self, memo):
    return self.clone()


def _reduce(Core self):
    return (Core.from_state, (self.to_state(),))


def _current_player(Core self):
    if self.s.dhead < self.s.dtail:
        return CHANCE
    if self.s.kind == OVER:
        return TERMINAL
    return self.s.player


def _is_terminal(Core self):
    return self.s.dhead == self.s.dtail and self.s.kind == OVER


def _is_chance_node(Core self):
    return self.s.dhead < self.s.dtail


def _scores(Core self):
    return [self.s.points[i] for i in range(self.r.players)]


def _history(Core self):
    return hist_list(&self.hist)


def _draws(Core self):
    return self.s.drawn


def _reseed(Core self, seed):
    """As ``State.reseed``: the future draws follow ``seed``."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    self.s.rng = seed & 0xFFFFFFFFFFFFFFFF


def _legal_actions(Core self):
    cdef int out[MAXLEGAL]
    cdef int n = self._legal(out)
    return [out[i] for i in range(n)]


def _playout(Core self, uint64_t seed):
    """Play uniformly random legal actions to the end (explicit draws by their
    probabilities), all in C, from a generator seeded with ``seed``. Returns the steps."""
    before = self.hist.n
    self.advance(-1, seed)
    return self.hist.n - before


def _mask(Core self, signed char[::1] out):
    """Write 1 for each legal action into ``out`` (int8, the action space's size), 0
    elsewhere; all 0 at chance and at the end."""
    cdef int legal[MAXLEGAL]
    cdef int i, n = 0
    if out.shape[0] != self.r.size:
        raise AzulError(f"the mask has {self.r.size} entries, not {out.shape[0]}")
    for i in range(self.r.size):
        out[i] = 0
    if self.s.dhead == self.s.dtail:
        n = self._legal(legal)
    for i in range(n):
        out[legal[i]] = 1
