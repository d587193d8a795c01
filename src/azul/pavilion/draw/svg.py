"""SVG drawing of a Summer Pavilion position: the whole table, laid out for a wide screen or a
phone, with the viewer's board large.

The drawing has a ``viewBox`` and ``width="100%"`` so that the page sizes it. Every element a
person clicks is a ``<g>`` with ``data-`` attributes (see ``targets.py``), its ``hit`` shape as
first child and a ``<title>``; the pieces are in ``svg_board.py`` and ``svg_table.py``.
"""

from __future__ import annotations

import math
from html import escape

from azul import i18n
from azul.core.errors import OptionError
from azul.pavilion import data
from azul.pavilion.draw.board import HEIGHT, WIDTH, Look, draw_board
from azul.pavilion.draw.parts import FILL, INK, MUTED, TEXT, TEXT_DEFAULTS, defs, num, text, tile
from azul.pavilion.draw.table import (
    bag_and_tower,
    centre,
    factory,
    panel,
    ring_positions,
    round_track,
    score_track,
    supply,
    track_rows,
)
from azul.pavilion.state import ACQUIRE, BONUS_PICK, PLAY, PavilionState

__all__ = ["FILL", "INK", "LAYOUTS", "render_svg"]

LAYOUTS = ("wide", "tall")
WIDE_WIDTH = 1400  # the wide layout's viewBox width; its height follows the boards
VIEWER = 560  # the width of the viewer's board in the wide layout
TILE_SIZE = 50  # a tile one takes in the wide layout
PLATE = 76  # a factory's radius in the wide layout
TALL_WIDTH = 390  # the phone layout's viewBox width: one unit is one CSS pixel on a phone
TAP = 48  # smallest tap target: 44 CSS pixels on a phone down to 360 pixels wide


def status(state: PavilionState, look: Look) -> str:
    """Who does what now."""
    tr = look.tr
    if state.deals:
        return tr("drawing tiles from the bag")
    name = look.who(state.player)
    if state.kind == ACQUIRE:
        return tr("{name} takes tiles").format(name=name)
    if state.kind == PLAY:
        return tr("{name} places a tile or passes").format(name=name)
    if state.kind == BONUS_PICK:
        return look.ntr(
            "{name} takes {n} bonus tile", "{name} takes {n} bonus tiles", state.owed
        ).format(name=name, n=state.owed)
    return tr("game over")


def _heading(state: PavilionState, x: float, y: float, size: float, look: Look) -> str:
    """The round, its wild colour and who does what, from (x, y) (top left)."""
    tr = look.tr
    round_words = tr("Round {round} of {rounds}").format(round=state.round, rounds=data.ROUNDS)
    wild_words = tr("wild")
    w = state.wild()
    wx = x + size * (0.56 * len(round_words) + 0.8)
    return (
        text(x, y + size, round_words, size, TEXT, "start", "700")
        + text(wx, y + size * 0.92, wild_words, size * 0.7, MUTED, "start", "700")
        + tile(
            wx + size * 0.42 * len(wild_words) + size * 0.35,
            y + size * 0.05,
            size,
            w,
            look.patterns,
        )
        + text(x, y + size * 2.05, status(state, look), size * 0.72, TEXT)
    )


def render_svg(
    state: PavilionState,
    patterns: bool = False,
    lang: str | None = None,
    seat: int | None = None,
    layout: str = "wide",
    names: list[str] | None = None,
) -> str:
    """The whole position as one SVG document. ``patterns`` lays a pattern over each colour
    (colour-blind mode); its words are in ``lang`` (default: the current language); ``seat``'s
    board is drawn large (None: every board alike, for a spectator); ``layout`` is "wide" for
    a screen wider than tall, "tall" for a phone (one column; taps of at least 44 px)."""
    if layout not in LAYOUTS:
        raise OptionError(f"layout {layout!r}: expected one of {', '.join(LAYOUTS)}")
    tr = i18n.in_language(lang) if lang else i18n._
    ntr = i18n.ngettext_in(lang) if lang else i18n.ngettext
    players = state.game.players
    if seat is not None and not 0 <= seat < players:
        raise OptionError(f"seat {seat}: there are seats 0..{players - 1}")
    tall = layout == "tall"
    look = Look(tr, ntr, patterns, TAP if tall else 0.0, tuple(names or ()))
    body, (width, height) = (_tall if tall else _wide)(state, seat, look)
    title = tr("Summer Pavilion, round {round}").format(round=state.round)
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {num(height)}" '
        f'width="100%" font-family="Segoe UI, Helvetica, Arial, sans-serif" '
        f'class="pavilion {layout}" {TEXT_DEFAULTS}>'
        f"<title>{escape(title)}</title>"
        + defs(patterns)
        + f'<rect width="{width}" height="{num(height)}" fill="#efe3cc"/>'
        + body
        + "</svg>"
    )


def _order(state: PavilionState, seat: int | None) -> list[int]:
    """Seats in table order, starting with the viewer."""
    n = state.game.players
    first = 0 if seat is None else seat
    return [(first + k) % n for k in range(n)]


def _row(
    state: PavilionState, seats: list[int], x: float, y: float, w: float, u: float, look: Look
) -> str:
    """Boards of ``seats`` at size ``u`` side by side, centred in a row ``w`` wide."""
    gap = 16
    bw = WIDTH * u
    x += (w - len(seats) * bw - (len(seats) - 1) * gap) / 2
    return "".join(
        draw_board(state, p, x + k * (bw + gap), y, u, look) for k, p in enumerate(seats)
    )


def _wide(state: PavilionState, seat: int | None, look: Look) -> tuple[str, tuple[int, float]]:
    """A screen wider than tall. The first row fills the first screen: the viewer's board at
    the left; at the right the round and who is to move, the factories in a ring round the
    centre, beside them the round track, the supply, bag and tower, and the score track below.
    The other boards follow in a row beneath, each wide enough to read; a spectator sees every
    board there. Factory, centre, supply and hand tiles are 50 units: 32 CSS pixels when the
    drawing is 900 pixels wide."""
    width = WIDE_WIDTH
    m, gap = 16, 16
    order = _order(state, seat)
    out = []
    rx: float = m
    bottom: float = m
    if seat is not None:
        u = VIEWER / WIDTH
        out.append(draw_board(state, seat, m, m, u, look))
        rx, bottom = m + VIEWER + gap, m + HEIGHT * u
        order = order[1:]
    rw = width - m - rx
    half = _ring_half(state.game.factories)
    side = max(150.0, min(200.0, rw - 2 * half - gap))
    bx = rx + (rw - 2 * half - gap - side) / 2  # the block of ring and side column, centred
    out.append(_heading(state, bx, m, 30, look))
    top = m + 78
    out.append(_table(state, bx + half, top + half, half, look))
    out.append(_side_column(state, bx + 2 * half + gap, top, side, look))
    cells = track_rows(bx, top + 2 * half + 8, 2 * half + gap + side, 2, 4)
    out.append(score_track(state, cells, 9, look))
    _, last_y, _, last_h, _, _ = cells[-1]
    bottom = max(bottom, last_y + last_h)
    y: float = bottom + gap
    per_row = min(3 if seat is not None else 4, len(order))
    bw = min(VIEWER, (width - 2 * m - gap * (per_row - 1)) / per_row)
    for k in range(0, len(order), per_row):
        row = order[k : k + per_row]
        out.append(_row(state, row, m, y, width - 2 * m, bw / WIDTH, look))
        y += HEIGHT * bw / WIDTH + gap
    return "".join(out), (width, y - gap + m)


def _ring_half(factories: int) -> float:
    """Half the side of the square the factory ring needs: plates of radius PLATE that do not
    touch, round a centre that holds a 3 x 3 grid of its tiles."""
    radius = max(215.0, (PLATE + 4) / math.sin(math.pi / factories))
    return radius + PLATE + 6


def _side_column(state: PavilionState, x: float, y: float, w: float, look: Look) -> str:
    """Beside the factories: the round track in two rows, the supply in two columns (rules
    1.4), the bag and the tower."""
    tr = look.tr
    pitch = min(56.0, w / 3)
    out = [text(x, y + 16, tr("rounds"), 17, MUTED, "start", "700")]
    out.append(round_track(state, x, y + 24, pitch, look, per_row=3))
    sy = y + 24 + 2 * pitch * 1.2 + 14
    out.append(text(x, sy + 16, tr("supply"), 17, MUTED, "start", "700"))
    out.append(supply(state, x + 4, sy + 26, TILE_SIZE, TILE_SIZE + 10, 2, look))
    by = sy + 26 + 5 * (TILE_SIZE + 10) + 8
    out.append(bag_and_tower(state, x + 4, by, 44, look))
    return "".join(out)


def _table(state: PavilionState, cx: float, cy: float, half: float, look: Look) -> str:
    """Factories in a ring round the centre of the table, centred at (cx, cy) within
    ``half`` of it."""
    tr = look.tr
    radius = half - PLATE - 6
    inner = radius - PLATE - 10
    out = [
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(inner)}" fill="#e6d5b3" '
        f'stroke="#c9b48c" stroke-width="1.5"/>',
        text(cx, cy - inner + 24, tr("centre"), 17, MUTED, "middle", "700"),
    ]
    for f, (fx, fy) in enumerate(ring_positions(state.game.factories, cx, cy, radius), 1):
        out.append(factory(state, f, fx, fy, PLATE, TILE_SIZE, look))
    out.append(centre(state, cx, cy + 12, TILE_SIZE, TILE_SIZE + 12, 3, look))
    return "".join(out)


def _tall(state: PavilionState, seat: int | None, look: Look) -> tuple[str, tuple[int, float]]:
    """One column for a phone: round and scores, factories and centre, supply, the viewer's
    board, then the others."""
    tr = look.tr
    width = TALL_WIDTH
    m = 6
    out = [_heading(state, m + 4, m, 22, look)]
    y: float = m + 62
    # rounds and scores
    out.append(panel(m, y, width - 2 * m, 178))
    out.append(text(m + 10, y + 20, tr("rounds"), 13, MUTED, "start", "700"))
    out.append(round_track(state, m + 10 + (width - 2 * m - 20 - 6 * 56) / 2, y + 24, 56, look))
    out.append(score_track(state, track_rows(m + 10, y + 96, width - 2 * m - 20, 4, 2), 10, look))
    y += 178 + 12
    # factories (small plates once they are all empty) and the centre
    n = state.game.factories
    per = 3 if any(state.sources[data.NUM_COLORS :]) else n
    r = 60 if per == 3 else min(20, (width - 2 * m) / n / 2 - 2)
    pitch_x = (width - 2 * m) / per
    rows = (n + per - 1) // per
    for i in range(n):
        fx = m + pitch_x * (i % per + 0.5)
        fy = y + r * 0.3 + r + (i // per) * (2 * r + r * 0.3)
        out.append(factory(state, i + 1, fx, fy, r, 38, look))
    y += rows * (2 * r + r * 0.3) + 8
    out.append(text(m + 4, y + 14, tr("centre"), 13, MUTED, "start", "700"))
    out.append(centre(state, width / 2, y + 20 + 53 / 2, 40, 53, 7, look))
    y += 20 + 53 + 10
    # the supply, the bag and the tower
    out.append(text(m + 4, y + 14, tr("supply"), 13, MUTED, "start", "700"))
    out.append(supply(state, m + 8, y + 22, 40, 52, 5, look))
    out.append(bag_and_tower(state, m + 8 + 5 * 52 + 12, y + 30, 40, look))
    y += 22 + 2 * 52 + 12
    boards, y = _tall_boards(state, seat, y, look)
    return "".join(out) + boards, (width, y + m)


def _tall_boards(state: PavilionState, seat: int | None, y: float, look: Look) -> tuple[str, float]:
    """The viewer's board across the phone, the others two to a row; or, for a spectator,
    every board alike. Returns them and where they end."""
    m, width = 6, TALL_WIDTH
    order = _order(state, seat)
    out = []
    if seat is None:
        u = (width - 2 * m) * 0.8 / WIDTH
        for p in order:
            out.append(draw_board(state, p, (width - WIDTH * u) / 2, y, u, look))
            y += HEIGHT * u + 12
        return "".join(out), y
    u = (width - 2 * m) / WIDTH
    out.append(draw_board(state, seat, m, y, u, look))
    y += HEIGHT * u + 14
    others = order[1:]
    u = (width - 2 * m - 8) / 2 / WIDTH
    small = Look(look.tr, look.ntr, look.patterns, names=look.names)  # nothing to tap there
    for k, p in enumerate(others):
        bx = m + (k % 2) * (WIDTH * u + 8)
        out.append(draw_board(state, p, bx, y + (k // 2) * (HEIGHT * u + 10), u, small))
    return "".join(out), y + ((len(others) + 1) // 2) * (HEIGHT * u + 10)
