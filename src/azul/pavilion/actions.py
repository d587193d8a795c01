"""The fixed integer action space of Summer Pavilion and its notation (docs/pavilion-notation.md).

Blocks, in id order, for a game with F factories:

* take    ``source * 6 + color``; source 0 is the centre, 1..F the factories    ``F3:R``, ``C:Y``
* place   ``(space * 6 + color) * 6 + wilds``, 42 spaces x 6 colours x 0..5 wilds ``R@R3+1``
* pass    0 keeps the whole hand (4 tiles or fewer), 1..210 keep a multiset of 0 to 4 tiles
          of a larger hand                                 ``pass``, ``pass:PPGR``, ``pass:-``
* bonus   take one tile of a colour from the supply                             ``S:B``

Chance outcomes (explicit chance only) are a colour index for a tile draw (``draw:R``) and a
seat index for the first player (``first:1``).
"""

from __future__ import annotations

import re

from azul.core.errors import IllegalMoveError
from azul.pavilion import data
from azul.pavilion.tables import KEEP_INDEX, KEEPS

TAKE, PLACE, PASS, BONUS = range(4)
NUM_PLACE = data.NUM_SPACES * data.NUM_COLORS * 6
NUM_PASS = 1 + len(KEEPS)
NUM_BONUS = data.NUM_COLORS

_COLOR_NAMES = {name: i for i, name in enumerate(data.COLORS)}
_COLOR_NAMES.update({letter: i for i, letter in enumerate(data.COLOR_LETTERS.lower())})
_STAR_NAMES = {name: i for i, name in enumerate(data.STARS)}
_STAR_NAMES.update({letter: i for i, letter in enumerate(data.STAR_LETTERS.lower())})
_STAR_NAMES["center"] = 0

_TAKE_RE = re.compile(r"^(?:f(\d+)|c|centre|center)\s*:\s*(\w+)$")
_PLACE_RE = re.compile(r"^(\w+?)\s*@\s*([a-z]+)\s*(\d)\s*(?:\+\s*(\d)\s*w?)?$")
_PASS_RE = re.compile(r"^pass(?:\s*:\s*([a-z]+|-))?$")
KEEP_NONE = "-"  # the notation of a pass that keeps no tile: ``pass:-``
_BONUS_RE = re.compile(r"^s\s*:\s*(\w+)$")


def color_letter(c: int) -> str:
    return data.COLOR_LETTERS[c]


def keep_letters(keep: tuple[int, ...] | list[int]) -> str:
    """The tiles a pass keeps, e.g. ``PPGR``; ``-`` for none."""
    return "".join(data.COLOR_LETTERS[c] * n for c, n in enumerate(keep)) or KEEP_NONE


def space_name(sp: int) -> str:
    """Readable name of a space, e.g. ``purple 3`` (star, ring position)."""
    return f"{data.STARS[sp // 6]} {sp % 6 + 1}"


def space_code(sp: int) -> str:
    """Notation of a space, e.g. ``P3``."""
    return f"{data.STAR_LETTERS[sp // 6]}{sp % 6 + 1}"


def parse_color(word: str) -> int:
    c = _COLOR_NAMES.get(word.lower())
    if c is None:
        raise IllegalMoveError(
            "unknown colour {word!r}: use one of {letters} or a colour name",
            word=word,
            letters=", ".join(data.COLOR_LETTERS),
        )
    return c


class ActionSpace:
    """Action ids <-> decoded moves <-> notation for a game with ``factories`` factories."""

    def __init__(self, factories: int):
        self.factories = factories
        self.num_sources = factories + 1
        self.take_base = 0
        self.place_base = self.num_sources * data.NUM_COLORS
        self.pass_base = self.place_base + NUM_PLACE
        self.bonus_base = self.pass_base + NUM_PASS
        self.size = self.bonus_base + NUM_BONUS
        decode: list[tuple[int, int, int, int]] = []
        for a in range(self.size):
            if a < self.place_base:
                decode.append((TAKE, a // 6, a % 6, 0))
            elif a < self.pass_base:
                x = a - self.place_base
                decode.append((PLACE, x // 36, x // 6 % 6, x % 6))
            elif a < self.bonus_base:
                decode.append((PASS, a - self.pass_base, 0, 0))
            else:
                decode.append((BONUS, a - self.bonus_base, 0, 0))
        self.decode = decode
        self.notation = [self._spell(a) for a in range(self.size)]  # by id, made once

    # -- encoding -----------------------------------------------------------------------
    def take(self, source: int, color: int) -> int:
        return source * data.NUM_COLORS + color

    def place(self, sp: int, color: int, wilds: int) -> int:
        return self.place_base + (sp * data.NUM_COLORS + color) * 6 + wilds

    def pass_keep(self, keep: tuple[int, ...] | None) -> int:
        """The pass action keeping ``keep`` (a colour-count tuple of 0 to 4 tiles), or the whole
        hand with None."""
        return self.pass_base if keep is None else self.pass_base + 1 + KEEP_INDEX[keep]

    def bonus(self, color: int) -> int:
        return self.bonus_base + color

    # -- notation -----------------------------------------------------------------------
    def to_string(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise IllegalMoveError(
                "action {action} is outside 0..{last}", action=action, last=self.size - 1
            )
        return self.notation[action]

    def _spell(self, action: int) -> str:
        kind, x, y, z = self.decode[action]
        if kind == TAKE:
            source = "C" if x == 0 else f"F{x}"
            return f"{source}:{color_letter(y)}"
        if kind == PLACE:
            wilds = f"+{z}" if z else ""
            return f"{color_letter(y)}@{space_code(x)}{wilds}"
        if kind == PASS:
            if x == 0:
                return "pass"
            return "pass:" + keep_letters(KEEPS[x - 1])
        return f"S:{color_letter(x)}"

    def from_string(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is text, not {type(text).__name__}")
        s = text.strip().lower()
        if m := _TAKE_RE.match(s):
            source = 0 if m.group(1) is None else int(m.group(1))
            if not 0 <= source <= self.factories:
                raise IllegalMoveError(
                    "there is no factory {factory}: factories are F1..F{last}",
                    factory=source,
                    last=self.factories,
                )
            return self.take(source, parse_color(m.group(2)))
        if m := _PLACE_RE.match(s):
            color = parse_color(m.group(1))
            star = _STAR_NAMES.get(m.group(2))
            if star is None:
                raise IllegalMoveError(
                    "unknown star {star!r}: use one of {letters}",
                    star=m.group(2),
                    letters=", ".join(data.STAR_LETTERS),
                )
            pos = int(m.group(3))
            if not 1 <= pos <= 6:
                raise IllegalMoveError("space {space} does not exist: spaces are 1..6", space=pos)
            wilds = int(m.group(4) or 0)
            if wilds > 5:
                raise IllegalMoveError(
                    "{wilds} wilds: a space costs at most 6, so 5 wilds at most", wilds=wilds
                )
            return self.place(data.space(star, pos), color, wilds)
        if m := _PASS_RE.match(s):
            if m.group(1) is None:
                return self.pass_keep(None)
            counts = [0] * data.NUM_COLORS
            if m.group(1) not in (KEEP_NONE, "none"):
                for ch in m.group(1):
                    counts[parse_color(ch)] += 1
            if sum(counts) > data.CORNER_SPACES:
                raise IllegalMoveError(
                    "'pass:' names at most {n} tiles to keep, not {count}",
                    n=data.CORNER_SPACES,
                    count=sum(counts),
                )
            return self.pass_keep(tuple(counts))
        if m := _BONUS_RE.match(s):
            return self.bonus(parse_color(m.group(1)))
        raise IllegalMoveError(
            "cannot read move {text!r}: expected e.g. 'F3:R', 'C:Y', 'R@R3+1', 'pass', "
            "'pass:PPGR', 'pass:-' or 'S:B'",
            text=text,
        )


def chance_to_string(is_first_player: bool, outcome: int) -> str:
    return f"first:{outcome}" if is_first_player else f"draw:{color_letter(outcome)}"
