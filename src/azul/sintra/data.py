"""Azul: Stained Glass of Sintra: the rulebook's figures and the printed component values.

The figures the rulebook states are constants here. The printed values no source gives (colour
names, window values, the broken-glass track, ornaments, strip designs) come from a components file
(``components.toml`` ships provisional ones) that is validated on load.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from itertools import pairwise
from pathlib import Path
from typing import Any, Final

from azul.core.errors import OptionError

RULES_VERSION: Final = "sintra-1"

NUM_COLORS: Final = 5
PIECES_PER_COLOR: Final = 20
TOTAL_PIECES: Final = NUM_COLORS * PIECES_PER_COLOR  # 100 (rules 1.1)
FACTORIES: Final = {2: 5, 3: 7, 4: 9}  # rules 2.1
PIECES_PER_FACTORY: Final = 4
ROUNDS: Final = 6  # rules 3.0
SLOTS: Final = 8  # strips and windows per palace board (rules 1.3)
SPACES: Final = 5  # pattern spaces per strip side (rules 1.4)
FRAMES: Final = 2  # top and bottom frame of each window
ORNAMENT_BONUS: Final = {4: 10, 3: 6, 2: 3, 1: 0, 0: 0}  # side A (rules 5.2)
LEFTOVER_DIVISOR: Final = 3  # 1 point per 3 pieces left on strips (rules 5.1)
SIDES: Final = ("A", "B")
JOKER: Final = -1
JOKER_SPACES: Final = 2  # on the joker strip's joker side (rules 1.4)

SHIPPED = Path(__file__).with_name("components.toml")

Pattern = tuple[int, ...]
"""The 5 spaces of one side of a strip, as colours (JOKER for a joker space)."""
Strip = tuple[Pattern, Pattern]
"""A strip's two sides, a and b."""


@dataclass(frozen=True)
class Components:
    """The printed values of one copy of the game, validated."""

    provenance: str
    colors: tuple[str, ...]
    letters: tuple[str, ...]
    window_values: dict[str, tuple[int, ...]]
    track: tuple[int, ...]
    ornaments: tuple[tuple[int, ...], ...]  # frame indices: (window - 1) * 2 + (0 top, 1 bottom)
    strips: tuple[Strip, ...]  # [strip][side] -> 5 colours
    joker_strip: int
    joker_side: int
    source: str

    @property
    def provisional(self) -> bool:
        return self.provenance.lower().startswith("provisional")

    @property
    def bottom_penalty(self) -> int:
        """Points lost when the marker reaches the bottom space (rules 3.5)."""
        return -self.track[-1]


class ComponentsError(OptionError):
    """A components file that cannot be read or has a bad field."""


def _fail(source: str, field: str, what: str) -> ComponentsError:
    return ComponentsError(f"components {source}: {field}: {what}")


def _int_list(value: Any, source: str, field: str, length: int | None = None) -> tuple[int, ...]:
    if not isinstance(value, list) or any(
        isinstance(v, bool) or not isinstance(v, int) for v in value
    ):
        raise _fail(source, field, f"expected a list of integers, got {value!r}")
    if length is not None and len(value) != length:
        raise _fail(source, field, f"expected {length} values, got {len(value)}")
    return tuple(value)


def parse_components(doc: dict[str, Any], source: str = "<data>") -> Components:
    """Validate a components document (the parsed TOML) and build Components."""
    known = {
        "provenance",
        "colors",
        "letters",
        "window_values",
        "broken_glass",
        "ornaments",
        "strips",
    }
    for key in doc:
        if key not in known:
            raise _fail(source, key, "unknown field")
    for key in sorted(known):
        if key not in doc:
            raise _fail(source, key, "missing")
    provenance = doc["provenance"]
    if not isinstance(provenance, str) or not provenance.strip():
        raise _fail(source, "provenance", "expected a non-empty text")
    colors = doc["colors"]
    if (
        not isinstance(colors, list)
        or len(colors) != NUM_COLORS
        or not all(isinstance(c, str) and c for c in colors)
        or len(set(colors)) != NUM_COLORS
    ):
        raise _fail(source, "colors", f"expected {NUM_COLORS} different names, got {colors!r}")
    if "joker" in colors:
        raise _fail(source, "colors", "'joker' is the name of the joker space, not a colour")
    letters = doc["letters"]
    if (
        not isinstance(letters, list)
        or len(letters) != NUM_COLORS
        or not all(isinstance(x, str) and len(x) == 1 and x.isalpha() for x in letters)
        or len({x.upper() for x in letters}) != NUM_COLORS
    ):
        raise _fail(source, "letters", f"expected {NUM_COLORS} different single letters")
    windows = doc["window_values"]
    if not isinstance(windows, dict) or set(windows) != set(SIDES):
        raise _fail(source, "window_values", "expected the sides A and B")
    window_values = {}
    for side in SIDES:
        vals = _int_list(windows[side], source, f"window_values.{side}", SLOTS)
        if any(v < 0 for v in vals):
            raise _fail(source, f"window_values.{side}", "values cannot be negative")
        window_values[side] = vals
    glass = doc["broken_glass"]
    if not isinstance(glass, dict) or set(glass) != {"track"}:
        raise _fail(source, "broken_glass", "expected one field, track")
    track = _int_list(glass["track"], source, "broken_glass.track")
    if len(track) < 2 or track[0] != 0 or track[-1] >= 0:
        raise _fail(source, "broken_glass.track", "must start at 0 and end below 0")
    if any(b > a for a, b in pairwise(track)):
        raise _fail(source, "broken_glass.track", "values must not rise going down the track")
    ornaments = _parse_ornaments(doc["ornaments"], source)
    strips, joker = _parse_strips(doc["strips"], colors, source)
    return Components(
        provenance.strip(),
        tuple(colors),
        tuple(x.upper() for x in letters),
        window_values,
        track,
        ornaments,
        strips,
        joker[0],
        joker[1],
        source,
    )


def _parse_ornaments(value: Any, source: str) -> tuple[tuple[int, ...], ...]:
    if (
        not isinstance(value, dict)
        or set(value) != {"frames"}
        or not isinstance(value["frames"], list)
    ):
        raise _fail(source, "ornaments", "expected one field, frames (a list)")
    out = []
    for i, orn in enumerate(value["frames"]):
        field = f"ornaments.frames[{i}]"
        if not isinstance(orn, list) or len(orn) != 4:
            raise _fail(source, field, "expected 4 frames")
        frames = []
        for fr in orn:
            if (
                not isinstance(fr, list)
                or len(fr) != 2
                or isinstance(fr[0], bool)
                or not isinstance(fr[0], int)
                or not 1 <= fr[0] <= SLOTS
                or fr[1] not in ("top", "bottom")
            ):
                raise _fail(source, field, f"{fr!r} is not [window 1-8, 'top' or 'bottom']")
            frames.append((fr[0] - 1) * FRAMES + (fr[1] == "bottom"))
        if len(set(frames)) != 4:
            raise _fail(source, field, "the 4 frames must be different")
        out.append(tuple(frames))
    if len(out) != 4:
        raise _fail(source, "ornaments.frames", f"expected 4 ornaments, got {len(out)}")
    return tuple(out)


def _parse_strips(
    value: Any, colors: list[str], source: str
) -> tuple[tuple[Strip, ...], tuple[int, int]]:
    """The strips, and the strip and side (0 a, 1 b) with the joker spaces."""
    if not isinstance(value, dict) or set(value) != {"a", "b"}:
        raise _fail(source, "strips", "expected the sides a and b")
    sides: list[list[Pattern]] = []
    for side in ("a", "b"):
        rows = value[side]
        if not isinstance(rows, list) or len(rows) != SLOTS:
            raise _fail(source, f"strips.{side}", f"expected {SLOTS} strips")
        parsed: list[Pattern] = []
        for i, row in enumerate(rows):
            field = f"strips.{side}[{i}]"
            if not isinstance(row, list) or len(row) != SPACES:
                raise _fail(source, field, f"expected {SPACES} spaces")
            cells: list[int] = []
            for name in row:
                if name == "joker":
                    cells.append(JOKER)
                elif name in colors:
                    cells.append(colors.index(name))
                else:
                    raise _fail(source, field, f"{name!r} is not a colour or 'joker'")
            parsed.append(tuple(cells))
        sides.append(parsed)
    strips = tuple((sides[0][i], sides[1][i]) for i in range(SLOTS))
    jokers = [(i, s) for i in range(SLOTS) for s in range(2) if JOKER in strips[i][s]]
    if len(jokers) != 1:
        raise _fail(source, "strips", "exactly one strip side must have joker spaces")
    strip, joker_side = jokers[0]
    count = strips[strip][joker_side].count(JOKER)
    if count != JOKER_SPACES:
        field = f"strips.{'ab'[joker_side]}[{strip}]"
        raise _fail(
            source, field, f"expected {JOKER_SPACES} joker spaces on the joker side, got {count}"
        )
    return strips, jokers[0]


def load_components(path: str | None = None) -> Components:
    """The components file at ``path`` (the shipped provisional one when None), validated.
    A user's file is read anew each time, so edits take effect."""
    return _shipped() if path is None else _read(Path(path), str(path))


@cache
def _shipped() -> Components:
    return _read(SHIPPED, "(shipped)")


def _read(file: Path, name: str) -> Components:
    try:
        doc = tomllib.loads(file.read_text(encoding="utf-8"))
    except OSError as e:
        raise ComponentsError(f"components {name}: cannot read: {e.strerror}") from None
    except tomllib.TOMLDecodeError as e:
        raise ComponentsError(f"components {name}: not valid TOML: {e}") from None
    return parse_components(doc, name)


def accept_table(components: Components) -> list[list[int]]:
    """accept[strip * 2 + side][filled] = bitmask of the colours an empty space of that strip
    side takes, given the 5-bit mask of its filled spaces (a joker takes every colour)."""
    every = (1 << NUM_COLORS) - 1
    table = []
    for strip in components.strips:
        for pattern in strip:
            row = []
            for filled in range(1 << SPACES):
                mask = 0
                for k, c in enumerate(pattern):
                    if not filled >> k & 1:
                        mask |= every if c == JOKER else 1 << c
                row.append(mask)
            table.append(row)
    return table
