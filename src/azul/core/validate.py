"""Checks shared by the position readers: each raises PositionError naming the field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from azul.core.errors import PositionError


def fields(obj: Any, where: str, known: set[str], optional: set[str] = frozenset()) -> dict:
    """``obj`` is an object with no unknown field and every field of ``known - optional``."""
    prefix = f"{where}." if where else ""
    if not isinstance(obj, dict):
        raise PositionError(f"{where or 'position'}: expected an object, got {obj!r}")
    unknown = sorted(set(obj) - known)
    if unknown:
        raise PositionError(f"{prefix}{unknown[0]}: unknown field")
    missing = sorted(known - optional - set(obj))
    if missing:
        raise PositionError(f"{prefix}{missing[0]}: missing")
    return obj


def integer(value: Any, field: str, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(f"{field}: {value!r} is not an integer")
    if lo is not None and value < lo:
        raise PositionError(f"{field}: {value} is {'negative' if lo == 0 else f'below {lo}'}")
    if hi is not None and value > hi:
        raise PositionError(f"{field}: {value} is more than {hi}")
    return value


def seat(value: Any, field: str, players: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value < players:
        raise PositionError(f"{field}: {value!r} is not a seat 0..{players - 1}")
    return value


def color(name: Any, field: str, colors: Sequence[str]) -> int:
    if name not in colors:
        raise PositionError(f"{field}: {name!r} is not a colour ({', '.join(colors)})")
    return list(colors).index(name)


def counts(value: Any, field: str, colors: Sequence[str], most: int | None = None) -> list[int]:
    """Colour counts written as ``{"red": 2}``; missing colours are 0."""
    if not isinstance(value, dict):
        raise PositionError(f"{field}: expected an object of colour counts, got {value!r}")
    out = [0] * len(colors)
    for name, n in value.items():
        out[color(name, field, colors)] = integer(n, f"{field}.{name}", 0)
    if most is not None and sum(out) > most:
        raise PositionError(f"{field}: {sum(out)} in all, more than the {most} it can hold")
    return out


def write_counts(values: Sequence[int], colors: Sequence[str]) -> dict[str, int]:
    return {colors[c]: n for c, n in enumerate(values) if n}


def boolean(value: Any, field: str) -> bool:
    if not isinstance(value, bool):
        raise PositionError(f"{field}: {value!r} is not true or false")
    return value
