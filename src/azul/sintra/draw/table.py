"""The middle of the table in SVG: factories (a ring around the centre on wide screens, rows
on phones), the centre's pieces by colour with the starting-player tile, the round indicator
and the bag and tower counts."""

from __future__ import annotations

import math

from azul.sintra.data import NUM_COLORS, ROUNDS
from azul.sintra.draw.parts import GOLD, LEAD, Pen, first_tile, glass, group, hit, text

NC = NUM_COLORS
ROMAN = ("I", "II", "III", "IV", "V", "VI")


def factory(
    pen: Pen, f: int, cx: float, cy: float, pitch: float, badge: float = -2.36
) -> list[str]:
    """Factory ``f`` centred on (cx, cy); its pieces 2 by 2, ``pitch`` apart, each the
    clickable group of its colour; its number on the rim at angle ``badge``."""
    state = pen.state
    r = pitch * 1.3
    counts = state.sources[f * NC : (f + 1) * NC]
    empty = not any(counts)
    out = [
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r:.1f}" '
        f'fill="{"#efe6d3" if empty else "#fbf6ea"}" stroke="#9c7a4a" stroke-width="3"/>',
        f'<circle cx="{cx:.1f}" cy="{cy:.1f}" r="{r - 7:.1f}" fill="none" stroke="#d8c7a3" '
        f'stroke-width="1.5"/>',
    ]
    pieces = [c for c in range(NC) for _ in range(counts[c])]
    s = pitch * 0.8
    for k, c in enumerate(pieces):
        x = cx - pitch + (k % 2) * pitch
        y = cy - pitch + (k // 2) * pitch
        title = pen.tr("factory {factory}: {color}", factory=f, color=pen.color(c))
        attrs = {"source": f"F{f}", "color": pen.letter(c)}
        body = glass(x + (pitch - s) / 2, y + (pitch - s) / 2, s, c, pen)
        out.append(group(attrs, title, hit(x, y, pitch, pitch, 8), body, cls="piece"))
    bx, by = cx + r * math.cos(badge), cy + r * math.sin(badge)
    out.append(
        f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="13" fill="#7a5230" stroke="{LEAD}"/>'
        + text(bx, by + 5.5, str(f), 16, fill="#fff8e7", weight="bold")
    )
    return out


def centre(pen: Pen, x: float, y: float, cols: int, cell: float) -> tuple[list[str], float]:
    """The centre's pieces, one pile per colour with its count, and the starting-player tile
    while nobody has taken it, in rows of ``cols`` cells from (x, y); with the height used."""
    state = pen.state
    items: list[str] = []
    s = cell * 0.62
    for c in range(NC):
        n = state.sources[c]
        if not n:
            continue
        k = len(items)
        cx, cy = x + (k % cols) * cell, y + (k // cols) * cell
        body = []
        for d in range(min(n, 3) - 1, -1, -1):  # a small pile
            body.append(glass(cx + cell * 0.12 + d * 4, cy + cell * 0.12 + d * 4, s, c, pen))
        bx, by = cx + cell * 0.78, cy + cell * 0.78
        body.append(
            f'<circle cx="{bx:.1f}" cy="{by:.1f}" r="11" fill="{LEAD}"/>'
            + text(bx, by + 5, str(n), 15, fill="#fff", weight="bold")
        )
        title = pen.tr("centre: {color} ({count})", count=n, color=pen.color(c))
        attrs = {"source": "C", "color": pen.letter(c)}
        shape = hit(cx + 2, cy + 2, cell - 4, cell - 4, 8)
        items.append(group(attrs, title, shape, "".join(body), cls="piece"))
    if state.tile < 0 and not state.is_terminal():
        k = len(items)
        cx, cy = x + (k % cols) * cell + cell * 0.12, y + (k // cols) * cell + cell * 0.12
        title = pen.tr("starting player tile")
        items.append(f'<g class="first-tile"><title>{title}</title>{first_tile(cx, cy, s)}</g>')
    if not items:
        items.append(text(x + 4, y + cell / 2, "\u2014", 18, "start", fill="#8a7a5c"))
    rows = max(1, math.ceil(len(items) / cols))
    return items, rows * cell


def rounds(pen: Pen, x: float, y: float, pitch: float) -> list[str]:
    """The round indicator I-VI: the pieces of the rounds to come, the current one ringed
    (its colour scores +1 per piece on a completed strip, rules 3.3a)."""
    state = pen.state
    s = pitch * 0.8
    label = pen.tr("rounds")
    out = [text(x, y + pitch * 0.62, label, 16, "start", fill="#5c4416", weight="bold")]
    x0 = x + max(70, 9.5 * len(label) + 14)
    for r in range(ROUNDS):
        px = x0 + r * pitch
        current = r == state.round - 1 and not state.is_terminal()
        c = state.indicator[r]
        parts = [text(px + pitch / 2, y + pitch + 14, ROMAN[r], 13, fill="#6b5a3e")]
        if current:
            parts.append(
                f'<rect x="{px + 1:.1f}" y="{y + 1:.1f}" width="{pitch - 2:.1f}" '
                f'height="{pitch - 2:.1f}" rx="8" fill="none" stroke="{GOLD}" stroke-width="4"/>'
            )
        if c >= 0:
            parts.append(glass(px + (pitch - s) / 2, y + (pitch - s) / 2, s, c, pen))
            name = pen.color(c)
        else:
            parts.append(
                f'<circle cx="{px + pitch / 2:.1f}" cy="{y + pitch / 2:.1f}" r="{s / 4:.1f}" '
                f'fill="#d8cdb4"/>'
            )
            name = "\u2014"
        title = pen.tr("round {round}: {color}", round=r + 1, color=name)
        out.append(f'<g class="round"><title>{title}</title>{"".join(parts)}</g>')
    return out


def supply(pen: Pen, x: float, y: float) -> str:
    """The bag and the glass tower with their counts, 100 x 48 from (x, y)."""
    state = pen.state
    title = pen.tr("bag {bag}, tower {tower}", bag=sum(state.bag), tower=sum(state.tower))
    bag = (
        f'<rect x="{x + 15}" y="{y + 2}" width="14" height="9" rx="3" fill="#8a6634"/>'
        f'<path d="M{x + 5},{y + 44} Q{x},{y + 16} {x + 16},{y + 11} H{x + 28} '
        f'Q{x + 44},{y + 16} {x + 39},{y + 44} Z" fill="#b08850" stroke="{LEAD}" '
        f'stroke-width="1.5"/>'
        + text(x + 22, y + 36, str(sum(state.bag)), 16, fill="#fff", weight="bold")
    )
    tx = x + 56
    tower = (
        f'<path d="M{tx + 4},{y + 46} V{y + 6} h7 v5 h7 v-5 h8 v5 h7 v-5 h7 V{y + 46} Z" '
        f'fill="#9fb4bd" stroke="{LEAD}" stroke-width="1.5"/>'
        + text(tx + 20, y + 36, str(sum(state.tower)), 16, fill=LEAD, weight="bold")
    )
    return f'<g class="supply"><title>{title}</title>{bag}{tower}</g>'
