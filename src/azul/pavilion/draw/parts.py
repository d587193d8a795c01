"""The small pieces of the Summer Pavilion drawing: colours, tiles with their letters, diamond
spaces, clickable groups and the shared ``<defs>``.

A clickable group is a ``<g>`` carrying ``data-`` attributes whose first child is its ``hit``
shape (transparent; the client outlines it) and whose second child is a ``<title>``.
"""

from __future__ import annotations

import math
from html import escape

from azul.core.svgkit import pattern_defs
from azul.pavilion import data

# tile colours in colour order (purple, green, orange, yellow, blue, red) and the ink of their
# letters; every pair has a contrast of at least 4.5:1 (tests/pavilion/test_drawing.py)
FILL = {0: "#8e3fa8", 1: "#23804a", 2: "#f08a24", 3: "#f5c518", 4: "#1f6fc5", 5: "#c0392b"}
INK = {0: "#fff", 1: "#fff", 2: "#1a1a1a", 3: "#1a1a1a", 4: "#fff", 5: "#fff"}
PAPER = "#fbf4e6"  # player boards and the scoring board
WOOD = "#7a5230"  # frames
GOLD = "#c99a2e"
TEXT = "#3b2a1a"
MUTED = "#7d6a55"
HIGHLIGHT = "#e8590c"  # the player to move
# score markers of seats 0-3: dark, light, brown, slate (none is a tile colour)
MARKERS = (("#262626", "#fff"), ("#f7f7f2", "#111"), ("#8d5a3b", "#fff"), ("#4f6d7a", "#fff"))


TEXT_DEFAULTS = 'font-weight="700" text-anchor="middle"'  # set on the <svg>, inherited


def num(v: float) -> str:
    """A coordinate, short."""
    return f"{v:.1f}".removesuffix(".0")


def mix(color: str, other: str, t: float) -> str:
    """``color`` moved a fraction ``t`` towards ``other`` (both ``#rrggbb``)."""
    a = [int(color[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(other[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b, strict=True))


def point(cx: float, cy: float, angle: float, r: float) -> tuple[float, float]:
    """The point at ``r`` from (cx, cy), ``angle`` degrees clockwise from 12 o'clock."""
    a = math.radians(angle)
    return cx + r * math.sin(a), cy - r * math.cos(a)


RIM = {c: mix(fill, "#000000", 0.35) for c, fill in FILL.items()}  # a tile's edge


def points(corners: list[tuple[float, float]]) -> str:
    return " ".join(f"{num(x)},{num(y)}" for x, y in corners)


def defs(patterns: bool) -> str:
    """Shared definitions: the tiles' sheen, a soft shadow and (colour-blind mode) patterns."""
    out = [
        "<defs>",
        '<linearGradient id="pv-sheen" x1="0" y1="0" x2="0.6" y2="1">'
        '<stop offset="0" stop-color="#fff" stop-opacity="0.45"/>'
        '<stop offset="0.5" stop-color="#fff" stop-opacity="0.05"/>'
        '<stop offset="1" stop-color="#000" stop-opacity="0.12"/></linearGradient>',
        '<filter id="pv-shadow" x="-10%" y="-10%" width="120%" height="120%">'
        '<feDropShadow dx="0" dy="2" stdDeviation="2.5" flood-color="#3b2a1a" '
        'flood-opacity="0.28"/></filter>',
        "</defs>",
    ]
    if patterns:
        out.append(pattern_defs([INK[c] for c in range(data.NUM_COLORS)]))
    return "".join(out)


def letter(x: float, y: float, size: float, c: int, patterns: bool, text: str = "") -> str:
    """The letter of colour ``c`` centred at (x, y); over patterns it gets a halo of the tile's
    own colour, so it reads as on a plain tile."""
    halo = (
        f' stroke="{FILL[c]}" stroke-width="{num(size * 0.22)}" stroke-linejoin="round" '
        'paint-order="stroke"'
        if patterns
        else ""
    )
    return (
        f'<text x="{num(x)}" y="{num(y + size * 0.36)}" font-size="{num(size)}" '
        f'fill="{INK[c]}"{halo}>'
        f"{text or data.COLOR_LETTERS[c]}</text>"
    )


def tile(x: float, y: float, s: float, c: int, patterns: bool) -> str:
    """A square tile of colour ``c`` with its letter, top left at (x, y), side ``s``."""
    r = num(s * 0.16)
    box = f'x="{num(x)}" y="{num(y)}" width="{num(s)}" height="{num(s)}" rx="{r}"'
    over = f'<rect {box} fill="url(#azul-pat-{c})"/>' if patterns else ""
    return (
        f'<rect {box} fill="{FILL[c]}" stroke="{RIM[c]}" '
        f'stroke-width="{num(max(1.0, s * 0.04))}"/><rect {box} fill="url(#pv-sheen)"/>{over}'
        + letter(x + s / 2, y + s / 2, s * 0.56, c, patterns)
    )


def diamond(sx: float, sy: float, angle: float, u: float) -> list[tuple[float, float]]:
    """The diamond space of side ``u`` of a star centred at (sx, sy), pointing at ``angle``."""
    return [
        (sx, sy),
        point(sx, sy, angle - 30, u),
        point(sx, sy, angle, u * math.sqrt(3)),
        point(sx, sy, angle + 30, u),
    ]


def rect_path(boxes: list[tuple[float, float, float, float]], r: float) -> str:
    """One path of rounded rectangles (x, y, w, h), in absolute coordinates."""
    parts = []
    for x, y, w, h in boxes:
        arc = f"A{num(r)},{num(r)} 0 0 1 "
        parts.append(
            f"M{num(x + r)},{num(y)}H{num(x + w - r)}{arc}{num(x + w)},{num(y + r)}"
            f"V{num(y + h - r)}{arc}{num(x + w - r)},{num(y + h)}H{num(x + r)}"
            f"{arc}{num(x)},{num(y + h - r)}V{num(y + r)}{arc}{num(x + r)},{num(y)}Z"
        )
    return "".join(parts)


def hit_path(d: str) -> str:
    return f'<path class="hit" d="{d}" fill="#fff" fill-opacity="0"/>'


def hit_polygon(corners: list[tuple[float, float]]) -> str:
    return f'<polygon class="hit" points="{points(corners)}" fill="#fff" fill-opacity="0"/>'


def group(attrs: dict[str, str], hit: str, title: str, body: str, klass: str = "") -> str:
    """A ``<g>`` with ``data-`` attributes (in the given order), its hit shape first, then its
    title for screen readers, then what it shows."""
    data_attrs = "".join(f' data-{k}="{escape(v)}"' for k, v in attrs.items())
    cls = f' class="{klass}"' if klass else ""
    return f"<g{cls}{data_attrs}>{hit}<title>{escape(title)}</title>{body}</g>"


def text(
    x: float,
    y: float,
    words: str,
    size: float,
    fill: str = TEXT,
    anchor: str = "start",
    weight: str = "400",
) -> str:
    """A line of text with its baseline at ``y`` (the drawing's texts are bold and centred
    unless told otherwise: see ``TEXT_DEFAULTS``)."""
    extra = (f' text-anchor="{anchor}"' if anchor != "middle" else "") + (
        f' font-weight="{weight}"' if weight != "700" else ""
    )
    return (
        f'<text x="{num(x)}" y="{num(y)}" font-size="{num(size)}" fill="{fill}"{extra}>'
        f"{escape(words)}</text>"
    )


def badge(x: float, y: float, r: float, words: str, fill: str = TEXT, ink: str = "#fff") -> str:
    """A small disc at (x, y) with a number or a short word."""
    return (
        f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" fill="{fill}" stroke="#fff" '
        f'stroke-width="{num(r * 0.18)}"/>'
        f'<text x="{num(x)}" y="{num(y + r * 0.42)}" font-size="{num(r * 1.2)}" '
        f'fill="{ink}">{escape(words)}</text>'
    )
