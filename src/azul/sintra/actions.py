"""The fixed integer action space of Sintra and its notation (docs/sintra-notation.md).

Blocks, in id order, for a game with F factories:

* play  ``(source * 5 + color) * 9 + target``; source 0 is the centre, 1..F the factories;
  target 0..7 is the strip slot, 8 means every piece breaks              ``F3:P>4``, ``C:Y>break``
* back  move the glazier back to the leftmost remaining strip                      ``back``
* keep  the colour of the piece kept for the window                                ``keep:O``
"""

from __future__ import annotations

import re

from azul.core.errors import IllegalMoveError
from azul.sintra.data import NUM_COLORS, SLOTS, Components

PLAY, BACK, KEEP = range(3)
BREAK = SLOTS  # the target meaning "no strip: every piece breaks"
TARGETS = SLOTS + 1

_PLAY_RE = re.compile(r"^(?:f(\d+)|c|centre|center)\s*:\s*(\w+)\s*>\s*(\d+|break|x)$")
_KEEP_RE = re.compile(r"^keep\s*:\s*(\w+)$")


class ActionSpace:
    """Action ids <-> decoded moves <-> notation for ``factories`` factories."""

    def __init__(self, factories: int, components: Components):
        self.factories = factories
        self.components = components
        self.back = (factories + 1) * NUM_COLORS * TARGETS
        self.keep_base = self.back + 1
        self.size = self.keep_base + NUM_COLORS
        self.decode: list[tuple[int, int, int, int]] = []
        for a in range(self.size):
            if a < self.back:
                self.decode.append(
                    (PLAY, a // (NUM_COLORS * TARGETS), a // TARGETS % NUM_COLORS, a % TARGETS)
                )
            elif a == self.back:
                self.decode.append((BACK, 0, 0, 0))
            else:
                self.decode.append((KEEP, a - self.keep_base, 0, 0))
        self._colors = {}
        for i, (name, letter) in enumerate(zip(components.colors, components.letters, strict=True)):
            self._colors[name.lower()] = i
            self._colors[letter.lower()] = i
        self.notation = [self._spell(a) for a in range(self.size)]  # by id, made once

    def play(self, source: int, color: int, target: int) -> int:
        return (source * NUM_COLORS + color) * TARGETS + target

    def keep(self, color: int) -> int:
        return self.keep_base + color

    def letter(self, color: int) -> str:
        return self.components.letters[color]

    def parse_color(self, word: str) -> int:
        c = self._colors.get(word.lower())
        if c is None:
            raise IllegalMoveError(
                "unknown colour {word!r}: use one of {letters} or a colour name",
                word=word,
                letters=", ".join(self.components.letters),
            )
        return c

    def to_string(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise IllegalMoveError(
                "action {action} is outside 0..{last}", action=action, last=self.size - 1
            )
        return self.notation[action]

    def _spell(self, action: int) -> str:
        kind, source, color, target = self.decode[action]
        if kind == BACK:
            return "back"
        if kind == KEEP:
            return f"keep:{self.letter(source)}"
        where = "C" if source == 0 else f"F{source}"
        to = "break" if target == BREAK else str(target + 1)
        return f"{where}:{self.letter(color)}>{to}"

    def from_string(self, text: str) -> int:
        if not isinstance(text, str):
            raise IllegalMoveError(f"a move is text, not {type(text).__name__}")
        s = text.strip().lower()
        if s == "back":
            return self.back
        if m := _KEEP_RE.match(s):
            return self.keep(self.parse_color(m.group(1)))
        if m := _PLAY_RE.match(s):
            source = 0 if m.group(1) is None else int(m.group(1))
            if not 0 <= source <= self.factories:
                raise IllegalMoveError(
                    "there is no factory {factory}: factories are F1..F{last}",
                    factory=source,
                    last=self.factories,
                )
            color = self.parse_color(m.group(2))
            to = m.group(3)
            if to in ("break", "x"):
                target = BREAK
            else:
                target = int(to) - 1
                if not 0 <= target < SLOTS:
                    raise IllegalMoveError(
                        "there is no strip {strip}: strips are 1..{last}", strip=to, last=SLOTS
                    )
            return self.play(source, color, target)
        raise IllegalMoveError(
            "cannot read move {text!r}: expected e.g. 'F3:P>4', 'C:Y>2', 'F1:O>break', 'back' "
            "or 'keep:O'",
            text=text,
        )
