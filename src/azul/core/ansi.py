"""Colours for terminals: a piece's letter on its colour, in 24-bit ANSI escapes."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from typing import TextIO

Paint = Callable[[str, int], str]


def plain(text: str, color: int) -> str:
    return text


def painter(fills: list[str], inks: list[str]) -> Paint:
    """A function painting text on colour index ``c`` of ``fills`` (hex), in its ink."""

    def rgb(hex_colour: str) -> str:  # "#f4a" or "#ff44aa"
        digits = hex_colour[1:]
        if len(digits) == 3:
            digits = "".join(d * 2 for d in digits)
        return ";".join(str(int(digits[i : i + 2], 16)) for i in (0, 2, 4))

    codes = [
        f"\x1b[1;38;2;{rgb(ink)};48;2;{rgb(fill)}m" for fill, ink in zip(fills, inks, strict=True)
    ]

    def paint(text: str, color: int) -> str:
        return f"{codes[color % len(codes)]}{text}\x1b[0m"

    return paint


def wanted(stream: TextIO | None = None) -> bool:
    """Colours for a terminal that is one, unless NO_COLOR is set (no-color.org)."""
    stream = stream or sys.stdout
    return "NO_COLOR" not in os.environ and hasattr(stream, "isatty") and stream.isatty()
