"""SVG drawing of a Sintra position: the table (factories, centre, round indicator, bag and
tower) and every palace board, the viewer's large.

``layout="wide"`` fills a screen wider than tall: the table at the left, the viewer's board
next to it, the others smaller at the right. ``layout="tall"`` is one column for a phone, 408
units wide, where every clickable element is at least 50 units across (44 px while the
drawing is at least 360 px wide).

Clickable elements are groups with ``data-`` attributes (see ``azul.sintra.draw.targets``): a
factory's or the centre's pieces of one colour (``data-source``, ``data-color``), a strip
(``data-seat``, ``data-strip``), the broken-glass track (``data-strip="break"``), the glazier
(``data-glazier="back"``), a piece to keep (``data-keep``) and a window (``data-window``).
"""

from __future__ import annotations

import math

from azul.core.errors import OptionError
from azul.core.svgkit import pattern_defs
from azul.sintra.data import NUM_COLORS, ROUNDS
from azul.sintra.draw.board import SIZES, board
from azul.sintra.draw.parts import FILL, INK, Pen, fit, text
from azul.sintra.draw.table import centre, factory, rounds, supply
from azul.sintra.state import KEEPING, SintraState

__all__ = ["FILL", "INK", "LAYOUTS", "render_svg"]

LAYOUTS = ("wide", "tall")
WIDE = 1600
TALL = SIZES["below"][0]  # 408: the phone's board spans the width
TOP = 56  # the title bar
RING = 480  # the table's square on wide screens


def render_svg(
    state: SintraState,
    patterns: bool = False,
    lang: str | None = None,
    seat: int | None = None,
    layout: str = "wide",
    names: list[str] | None = None,
) -> str:
    """The whole position as one SVG document, sized by its viewBox (the page sets its
    width); ``seat``'s board is drawn large; words are in ``lang``."""
    if layout not in LAYOUTS:
        raise OptionError(f"layout: {layout!r} is not one of {', '.join(LAYOUTS)}")
    if seat is not None and not 0 <= seat < state.game.players:
        seat = None
    pen = Pen.of(state, patterns, lang, names)
    body, width, height = (_wide if layout == "wide" else _tall)(pen, seat)
    title = pen.tr("Stained Glass of Sintra, round {round}", round=state.round)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height:.0f}" '
        f'width="100%" font-family="DejaVu Sans, Verdana, sans-serif" '
        f'class="sintra {layout}">',
        f"<title>{title}</title>",
    ]
    if patterns:
        out.append(pattern_defs(INK[:NUM_COLORS]))
    out.append(f'<rect width="{width}" height="{height:.0f}" fill="#e9e1cf"/>')
    out += body
    out.append("</svg>")
    return "\n".join(out)


def _status(pen: Pen) -> str:
    """Who is to do what now, in words."""
    state = pen.state
    if state.is_terminal():
        winners = state.winners()
        names = ", ".join(pen.who(p) for p in winners)
        words = pen.ntr("winner: {names}", "winners: {names}", len(winners), names=names)
        return pen.tr("game over") + " \u2014 " + words
    if state.deals:
        return pen.tr("Chance: drawing")
    p = state.current_player()
    if state.kind == KEEPING:
        return pen.tr(
            "{name} to choose the piece to keep from strip {strip}",
            name=pen.who(p),
            strip=state.keep_slot + 1,
        )
    return pen.tr("{name} to play", name=pen.who(p))


def _title_bar(pen: Pen, width: float, tall: bool) -> tuple[list[str], float]:
    """The round, who is to do what, and the provisional note; with its height."""
    state = pen.state
    head = pen.tr("Round {round} of {rounds}", round=min(state.round, ROUNDS), rounds=ROUNDS)
    note = pen.tr("printed values provisional") if state.game.components.provisional else ""
    if not tall:
        line = f"{head} \u00b7 {_status(pen)}"
        room = width - 48 - 0.58 * 15 * len(note)
        out = [
            f'<rect width="{width}" height="{TOP}" fill="#27445e"/>',
            text(16, 37, line, fit(line, room, 24, True), "start", fill="#fff", weight="bold"),
            text(width - 16, 36, note, 15, "end", fill="#d6e2ec"),
        ]
        return out, TOP
    status = _status(pen)
    out = [
        f'<rect width="{width}" height="{TOP + 46}" fill="#27445e"/>',
        text(14, 32, head, 22, "start", fill="#fff", weight="bold"),
        text(14, 60, status, fit(status, width - 28, 18), "start", fill="#fff"),
        text(14, 86, note, 14, "start", fill="#d6e2ec"),
    ]
    return out, TOP + 46


def _place(pen: Pen, p: int, track: str, x: float, y: float, scale: float) -> str:
    inner = "".join(board(pen, p, track))
    return (
        f'<g class="board" data-board="{p}" '
        f'transform="translate({x:.1f},{y:.1f}) scale({scale:.3f})">{inner}</g>'
    )


def _others(state: SintraState, seat: int | None) -> list[int]:
    """The seats drawn small, in playing order after the viewer."""
    n = state.game.players
    if seat is None:
        return list(range(n))
    return [(seat + k) % n for k in range(1, n)]


def _grid(
    count: int, w: float, h: float, size: tuple[float, float], cap: float
) -> tuple[int, float]:
    """The columns and scale that fit ``count`` boards of ``size`` in w x h (gaps of 20)."""
    best = (1, 0.0)
    for cols in range(1, count + 1):
        rows = math.ceil(count / cols)
        scale = min(
            cap, (w - 20 * (cols - 1)) / cols / size[0], (h - 20 * (rows - 1)) / rows / size[1]
        )
        if scale > best[1] + 1e-9:
            best = (cols, scale)
    return best


def _wide_table(pen: Pen, x: float, y: float) -> tuple[list[str], float]:
    """Factories in a ring around the centre, then the round indicator and the bag."""
    state = pen.state
    n = state.game.factories
    cx, cy, ring = x + RING / 2, y + RING / 2, 170
    out = [
        f'<circle cx="{cx}" cy="{cy}" r="{RING / 2 - 2}" fill="#d9ccb0" stroke="#b8a27a" '
        f'stroke-width="2"/>',
        f'<circle cx="{cx}" cy="{cy}" r="{ring - 62}" fill="#cbbb98" fill-opacity="0.5"/>',
    ]
    for f in range(1, n + 1):
        a = -math.pi / 2 + 2 * math.pi * (f - 1) / n
        out += factory(pen, f, cx + ring * math.cos(a), cy + ring * math.sin(a), 42, a)
    out += centre(pen, cx - 90, cy - 60, 3, 60)[0]
    below = y + RING + 12
    out += rounds(pen, x + 10, below, 46)
    out.append(supply(pen, x + RING - 104, below))
    return out, RING + 12 + 64


def _wide(pen: Pen, seat: int | None) -> tuple[list[str], float, float]:
    state = pen.state
    out, _ = _title_bar(pen, WIDE, False)
    table, table_h = _wide_table(pen, 20, TOP + 12)
    out += table
    x0: float = 20 + RING + 20
    y0 = TOP + 12
    side = SIZES["side"]
    bottom = TOP + 12 + table_h
    others = _others(state, seat)
    if seat is None:
        cols, scale = _grid(len(others), WIDE - 20 - x0, 1000 - y0 - 20, side, 1.0)
        x0 += (WIDE - 20 - x0 - cols * side[0] * scale - (cols - 1) * 20) / 2  # centred
        for k, p in enumerate(others):
            r, c = divmod(k, cols)
            x, y = x0 + c * (side[0] * scale + 20), y0 + r * (side[1] * scale + 20)
            out.append(_place(pen, p, "side", x, y, scale))
            bottom = max(bottom, y + side[1] * scale)
        return out, WIDE, bottom + 20
    large = 1.25
    out.append(_place(pen, seat, "side", x0, y0, large))
    bottom = max(bottom, y0 + side[1] * large)
    xr = x0 + side[0] * large + 20
    right = others[:2]
    _, scale = _grid(len(right), WIDE - 20 - xr, side[1] * large, side, 0.75)
    if len(others) > 2:  # the third opponent goes under the table
        scale = min(scale, 0.6)
    for k, p in enumerate(right):
        out.append(_place(pen, p, "side", xr, y0 + k * (side[1] * scale + 20), scale))
    for p in others[2:]:
        y = TOP + 12 + table_h + 10
        out.append(_place(pen, p, "side", 20, y, scale))
        bottom = max(bottom, y + side[1] * scale)
    return out, WIDE, bottom + 20


def _tall(pen: Pen, seat: int | None) -> tuple[list[str], float, float]:
    """One column: title, factories in rows of 3, centre, round indicator, the viewer's
    board (track below), then the others."""
    state = pen.state
    out, y = _title_bar(pen, TALL, True)
    y += 8
    n = state.game.factories
    cell = TALL / 3
    for f in range(1, n + 1):
        r, c = divmod(f - 1, 3)
        out += factory(pen, f, cell * (c + 0.5), y + cell * (r + 0.5), 50)
    y += cell * math.ceil(n / 3) + 6
    out.append(text(12, y + 18, pen.tr("centre"), 17, "start", fill="#5c4416", weight="bold"))
    piles, h = centre(pen, 12, y + 26, 6, 64)
    out += piles
    y += 26 + h + 10
    out += rounds(pen, 12, y, 48)
    out.append(supply(pen, TALL - 112, y + 72))
    y += 132
    if seat is not None:
        w, h = SIZES["below"]
        out.append(_place(pen, seat, "below", (TALL - w) / 2, y, 1.0))
        y += h + 16
    side = SIZES["side"]
    scale = TALL / side[0] if seat is None else 0.8
    for p in _others(state, seat):
        out.append(_place(pen, p, "side", (TALL - side[0] * scale) / 2, y, scale))
        y += side[1] * scale + 16
    return out, TALL, y
