"""Checks shared by the position readers: each raises PositionError naming the field."""

from __future__ import annotations

from collections.abc import Sequence, Set
from typing import Any

from azul.core.errors import PositionError


def fields(
    obj: Any, where: str, known: set[str], optional: Set[str] = frozenset()
) -> dict[str, Any]:
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


FORMAT = "azul-position"
VERSION = 1


def header(doc: Any, game: Any, known: set[str], optional: set[str]) -> dict[str, Any]:
    """The parts every position shares: the fields, format, version, game and its options."""
    if not isinstance(doc, dict):
        raise PositionError(f"a position is a JSON object, not {type(doc).__name__}")
    fields(doc, "", known, optional)
    if doc["format"] != FORMAT:
        raise PositionError(f"format: {doc['format']!r} is not {FORMAT!r}")
    if doc["version"] != VERSION:
        raise PositionError(f"version: {doc['version']!r} is not supported (this reads {VERSION})")
    if doc["game"] != game.name:
        raise PositionError(f"game: {doc['game']!r} is not {game.name!r}")
    options = doc.get("options")
    if options is None:
        return doc
    if not isinstance(options, dict):
        raise PositionError("options: expected an object")
    for key, value in options.items():
        if key not in game.options:
            raise PositionError(f"options.{key}: unknown option")
        if value != game.options[key]:
            raise PositionError(
                f"options.{key}: the position says {value!r}, the game has {game.options[key]!r}"
            )
    return doc


def generator(doc: dict[str, Any], explicit_chance: bool, seed: int | None) -> int:
    """The generator state: a caller's seed, else the stored one; needed unless chance is
    explicit (then the caller supplies every draw)."""
    from azul.core.rng import MASK64, seed_state

    if seed is not None:
        return seed_state(seed)
    if doc.get("rng") is not None:
        return integer(doc["rng"], "rng", 0, MASK64)
    if explicit_chance:
        return 0
    raise PositionError("rng: missing; include it or pass seed= to draw future pieces")


def history(doc: dict[str, Any]) -> list[int]:
    hist = doc.get("history", [])
    if not isinstance(hist, list):
        raise PositionError("history: expected a list of action ids")
    return [integer(a, f"history[{i}]", 0) for i, a in enumerate(hist)]


def choice(value: Any, field: str, names: Sequence[str]) -> int:
    if value not in names:
        raise PositionError(f"{field}: {value!r} is not one of {', '.join(names)}")
    return list(names).index(value)


def parse(doc: Any) -> Any:
    """A position given as JSON text is parsed; anything else is returned as it is."""
    if not isinstance(doc, str):
        return doc
    import json

    try:
        return json.loads(doc)
    except json.JSONDecodeError as e:
        raise PositionError(f"not valid JSON: {e}") from None
