# What the compiled cores share (included at the top of ``azul/<game>/_core.pyx``): the
# generator of ``azul.core.rng``, ``azul.core.scoring.deduct``, a bit count, and the history of
# actions (``State.history``) as a growing C array.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy

cdef extern from *:
    """
    static inline unsigned long long azul_mul_hi(unsigned long long a, unsigned long long b) {
        return (unsigned long long)(((unsigned __int128)a * b) >> 64);
    }
    """
    uint64_t mul_hi "azul_mul_hi"(uint64_t a, uint64_t b) nogil

cdef uint64_t GOLDEN = 0x9E3779B97F4A7C15ULL


cdef inline uint64_t next_below(uint64_t* rng, uint64_t n) noexcept nogil:
    """SplitMix64 as ``azul.core.rng.next_below``: advance the state, return x < n."""
    rng[0] += GOLDEN
    cdef uint64_t z = rng[0]
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL
    z ^= z >> 31
    return mul_hi(z, n)


cdef inline int next_weighted(uint64_t* rng, int16_t* counts, int n) noexcept nogil:
    """As ``azul.core.rng.next_weighted``: index i < n drawn with weight ``counts[i]`` (a tile
    drawn from a bag of colour counts); the counts must not all be zero."""
    cdef int total = 0, i, r
    for i in range(n):
        total += counts[i]
    r = next_below(rng, total)
    i = 0
    while r >= counts[i]:
        r -= counts[i]
        i += 1
    return i


cdef inline int deduct(int score, int n, int has_floor, int floor) noexcept nogil:
    """``azul.core.scoring.deduct``: ``score - n``, stopping at the floor if there is one."""
    if not has_floor or n <= 0:
        return score - n
    return min(score, max(floor, score - n))


cdef inline int popcount64(uint64_t m) noexcept nogil:
    cdef int n = 0
    while m:
        m &= m - 1
        n += 1
    return n


cdef struct Hist:
    int16_t* actions
    int n, cap


cdef int hist_alloc(Hist* h, int cap) except -1:
    """An empty history with room for ``cap`` actions (a new Hist: nothing to free)."""
    h.actions = <int16_t*>malloc(cap * sizeof(int16_t))
    if h.actions == NULL:
        raise MemoryError()
    h.n, h.cap = 0, cap
    return 0


cdef int hist_from(Hist* h, actions) except -1:
    """A new history holding the Python list ``actions``."""
    hist_alloc(h, max(64, 2 * len(actions)))
    for a in actions:
        h.actions[h.n] = a
        h.n += 1
    return 0


cdef int hist_copy(Hist* h, Hist* other) except -1:
    """A new history equal to ``other``."""
    hist_alloc(h, other.cap)
    memcpy(h.actions, other.actions, other.n * sizeof(int16_t))
    h.n = other.n
    return 0


cdef int hist_push(Hist* h, int action) except -1:
    cdef int16_t* grown
    if h.n == h.cap:
        grown = <int16_t*>realloc(h.actions, 2 * h.cap * sizeof(int16_t))
        if grown == NULL:
            raise MemoryError()
        h.actions, h.cap = grown, 2 * h.cap
    h.actions[h.n] = action
    h.n += 1
    return 0


cdef list hist_list(Hist* h):
    return [h.actions[i] for i in range(h.n)]
