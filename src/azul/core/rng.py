"""SplitMix64: a small seeded generator whose whole state is one integer.

One integer is cheap to copy in ``clone()`` and to store in a position document.
"""

MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """The generator state for a user seed (any int, negative ones included)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError(f"seed must be an int, not {type(seed).__name__}")
    return seed & MASK64


def next_below(state: int, n: int) -> tuple[int, int]:
    """Advance ``state`` and return ``(new_state, x)`` with ``0 <= x < n``."""
    state = (state + _GOLDEN) & MASK64
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
    z ^= z >> 31
    return state, (z * n) >> 64


def next_weighted(state: int, counts: list[int]) -> tuple[int, int]:
    """Advance ``state`` and return ``(new_state, i)``, index i drawn with weight ``counts[i]``
    (a piece drawn from a bag of colour counts). ``counts`` must not all be zero."""
    state, r = next_below(state, sum(counts))
    i = 0
    while r >= counts[i]:
        r -= counts[i]
        i += 1
    return state, i
