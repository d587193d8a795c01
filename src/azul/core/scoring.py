"""Score arithmetic shared by the games."""


def deduct(score: int, n: int, floor: int | None) -> int:
    """``score - n``, stopping at ``floor`` (None: plain arithmetic). A score already below the
    floor is never raised by a deduction."""
    if floor is None or n <= 0:
        return score - n
    return min(score, max(floor, score - n))
