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
WIDE = 1220  # the wide layout's viewBox width; its height follows the boards
TALL = SIZES["below"][0]  # 408: the phone's board spans the width
TOP = 56  # the title bar
PITCH = 54  # a factory's piece pitch on wide screens
PLATE = PITCH * 1.3  # a factory's radius, as table.factory draws it
LARGE = 1.1  # the viewer's board on wide screens


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


def _ring(factories: int) -> tuple[float, float]:
    """The radius of the factory ring and the side of the table's square: plates that do not
    touch, round a centre that holds three piles to a row."""
    radius = max(200.0, (PLATE + 4) / math.sin(math.pi / factories))
    return radius, 2 * (radius + PLATE + 8)


def _wide_table(pen: Pen, x: float, y: float) -> tuple[list[str], float]:
    """Factories in a ring around the centre, then the round indicator and the bag; with the
    height used (its width is ``_ring``'s side)."""
    state = pen.state
    n = state.game.factories
    radius, side = _ring(n)
    cx, cy = x + side / 2, y + side / 2
    inner = radius - PLATE - 10
    out = [
        f'<circle cx="{cx}" cy="{cy}" r="{side / 2 - 2}" fill="#d9ccb0" stroke="#b8a27a" '
        f'stroke-width="2"/>',
        f'<circle cx="{cx}" cy="{cy}" r="{inner}" fill="#cbbb98" fill-opacity="0.5"/>',
    ]
    for f in range(1, n + 1):
        a = -math.pi / 2 + 2 * math.pi * (f - 1) / n
        out += factory(pen, f, cx + radius * math.cos(a), cy + radius * math.sin(a), PITCH, a)
    cell = 68  # a centre pile's piece: 0.62 of it, as large as a factory's
    out += centre(pen, cx - 1.5 * cell + 6, cy - cell, 3, cell)[0]
    below = y + side + 12
    out += rounds(pen, x + 10, below, 52)
    out.append(supply(pen, x + side - 104, below + 4))
    return out, side + 12 + 72


def _wide(pen: Pen, seat: int | None) -> tuple[list[str], float, float]:
    """A screen wider than tall. The first row fills the first screen: the table (factories,
    centre, round indicator, bag) and the viewer's board beside it; the other boards follow in
    rows beneath, each wide enough to read (a spectator sees every board there). A piece one
    takes or places is about 43 units: 32 CSS pixels when the drawing is 900 pixels wide."""
    state = pen.state
    out, _ = _title_bar(pen, WIDE, False)
    y0 = TOP + 12
    board_w, board_h = SIZES["side"]
    others = _others(state, seat)
    table_w = _ring(state.game.factories)[1]
    if seat is None:  # the table alone in the first row, centred
        table, table_h = _wide_table(pen, (WIDE - table_w) / 2, y0)
        bottom = y0 + table_h
    else:
        table, table_h = _wide_table(pen, 20, y0)
        x = 20 + table_w + 20
        x += (WIDE - 20 - x - board_w * LARGE) / 2
        out.append(_place(pen, seat, "side", x, y0, LARGE))
        bottom = y0 + max(table_h, board_h * LARGE)
    out += table
    per_row = min(len(others), 3 if seat is not None else 4)
    scale = min(LARGE, (WIDE - 40 - 20 * (per_row - 1)) / per_row / board_w)
    y = bottom + 20
    for k in range(0, len(others), per_row):
        row = others[k : k + per_row]
        x = (WIDE - len(row) * board_w * scale - 20 * (len(row) - 1)) / 2
        for j, p in enumerate(row):
            out.append(_place(pen, p, "side", x + j * (board_w * scale + 20), y, scale))
        y += board_h * scale + 20
    return out, WIDE, y


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
