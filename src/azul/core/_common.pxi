# What the compiled cores share (included at the top of ``azul/<game>/_core.pyx``): the
# generator of ``azul.core.rng``, ``azul.core.scoring.deduct``, a bit count.

from libc.stdint cimport int8_t, int16_t, int32_t, uint8_t, uint64_t

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
