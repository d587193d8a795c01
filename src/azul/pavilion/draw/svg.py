"""SVG drawing of a Summer Pavilion position: the whole table, laid out for a wide screen or a
phone, with the viewer's board large.

The drawing has a ``viewBox`` and ``width="100%"`` so that the page sizes it. Every element a
person clicks is a ``<g>`` with ``data-`` attributes (see ``targets.py``), its ``hit`` shape as
first child and a ``<title>``; the pieces are in ``svg_board.py`` and ``svg_table.py``.
"""

from __future__ import annotations

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
    track_loop,
    track_rows,
)
from azul.pavilion.state import ACQUIRE, BONUS_PICK, PLAY, PavilionState

__all__ = ["FILL", "INK", "LAYOUTS", "render_svg"]

LAYOUTS = ("wide", "tall")
WIDE = (1600, 900)  # the wide layout's viewBox
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


def _wide(state: PavilionState, seat: int | None, look: Look) -> tuple[str, tuple[int, int]]:
    """Two players: three columns (a board | round, scores, supply and factories | the other
    board). More: the viewer's board on the left; on the right the scoring board and the
    factories above, the other boards in a row below. The viewer's board is drawn large."""
    width, height = WIDE
    m, gap = 16, 20
    order = _order(state, seat)
    out = []
    if len(order) == 2:
        bx, bw = m + 600 + gap, 480
        cx, cw = bx + bw + gap, width - m - (bx + bw + gap)
        medium = min(cw / WIDTH, (height - 2 * m) / HEIGHT)
        big = min(600 / WIDTH, (height - 2 * m) / HEIGHT) if seat is not None else medium
        out.append(_row(state, order[:1], m, m, 600, big, look))
        out.append(_row(state, order[1:], cx, m, cw, medium, look))
        out.append(_heading(state, bx, m, 30, look))
        out.append(_scoring(state, bx, m + 78, bw, 330, look))
        top = m + 78 + 330 + 8
        out.append(_table(state, bx + bw / 2, (top + height - m) / 2, (height - m - top) / 2, look))
        return "".join(out), (width, height)
    if seat is None:
        rx, rw, others = m, width - 2 * m, order
    else:
        rx = m + 600 + gap
        rw = width - m - rx
        big = min(600 / WIDTH, (height - 2 * m) / HEIGHT)
        out.append(_row(state, [seat], m, m, 600, big, look))
        others = order[1:]
    top = 440
    sx = rx + (rw - (480 + 28 + top)) / 2
    out.append(_heading(state, sx, m, 30, look))
    out.append(_scoring(state, sx, m + 78, 480, 330, look))
    out.append(_table(state, sx + 480 + 28 + top / 2, m + top / 2, top / 2, look))
    y = m + top + 12
    u = min((rw - 16 * (len(others) - 1)) / len(others) / WIDTH, (height - m - y) / HEIGHT)
    out.append(_row(state, others, rx, y, rw, u, look))
    return "".join(out), (width, height)


def _scoring(state: PavilionState, x: float, y: float, w: float, h: float, look: Look) -> str:
    """The scoring board: the score track round its edge; inside, the round track, the supply,
    the bag and the tower."""
    tr = look.tr
    thick = 26
    ix, iy = x + thick + 26, y + thick + 22  # room inside the track for stacked markers
    out = [panel(x, y, w, h), score_track(state, track_loop(x, y, w, h, 22, thick), 12, look)]
    out.append(text(ix, iy + 14, tr("rounds"), 17, MUTED, "start", "700"))
    out.append(round_track(state, ix, iy + 20, 54, look))
    sy = iy + 90
    out.append(text(ix, sy + 14, tr("supply"), 17, MUTED, "start", "700"))
    out.append(supply(state, ix + 4, sy + 24, 38, 47, 5, look))
    out.append(bag_and_tower(state, ix + 5 * 47 + 24, sy + 36, 50, look))
    return "".join(out)


def _table(state: PavilionState, cx: float, cy: float, half: float, look: Look) -> str:
    """Factories in a ring round the centre of the table, centred at (cx, cy) within
    ``half`` of it."""
    tr = look.tr
    r, s = 46, 30
    radius = half - r - 6
    inner = radius - r - 10
    out = [
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(inner)}" fill="#e6d5b3" '
        f'stroke="#c9b48c" stroke-width="1.5"/>',
        text(cx, cy - inner + 28, tr("centre"), 17, MUTED, "middle", "700"),
    ]
    for f, (fx, fy) in enumerate(ring_positions(state.game.factories, cx, cy, radius), 1):
        out.append(factory(state, f, fx, fy, r, s, look))
    out.append(centre(state, cx, cy + 14, 38, 50, 3, look))
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
