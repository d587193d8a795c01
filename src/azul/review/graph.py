"""The review's evaluation graph as SVG: each seat's expected final lead over the moves, with
the labelled decisions marked. Every point carries its ply (``data-ply``), so a page can show
the board at the move clicked."""

from __future__ import annotations

import math
from html import escape

from azul import i18n
from azul.review.analysis import WORDS, Review

SEATS = ("#2b6cb0", "#c05621", "#2f855a", "#6b46c1")  # one line colour per seat
MARKS = {"inaccuracy": "#d69e2e", "mistake": "#dd6b20", "blunder": "#c53030"}
PAD = 40  # room for the axis labels


def review_svg(
    review: Review,
    names: list[str] | None = None,
    width: int = 640,
    height: int = 180,
    lang: str | None = None,
) -> str:
    """The graph of ``review``: with 2 players one line, the first seat's lead (above the middle
    line the first seat is ahead); with more, one line per seat. ``names``: the seats' names in
    the legend (default "seat 0", "seat 1", ...); its words are in ``lang`` (default: the
    current language)."""
    _ = i18n.in_language(lang or i18n.current())
    names = names or [_("seat {seat}").format(seat=seat) for seat in range(review.players)]
    last = max((d.ply for d in review.decisions), default=1)
    seats = [0] if review.players == 2 else list(range(review.players))
    lines = {seat: review.margins(seat) for seat in seats}
    top = max((abs(v) for pts in lines.values() for _, v in pts), default=10.0)
    top = max(10.0, math.ceil(top / 10) * 10)
    title = _("{game}: expected final lead over the moves").format(game=review.game)
    inner_w, inner_h = width - 2 * PAD, height - PAD  # PAD / 2 above and below

    def x(ply: int) -> float:
        return round(PAD + inner_w * (ply - 1) / max(1, last - 1), 1)

    def y(value: float) -> float:
        return round(PAD // 2 + inner_h * (top - value) / (2 * top), 1)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'class="review-graph" role="img">',
        f"<title>{escape(title)}</title>",
        f'<rect x="{PAD}" y="{PAD // 2}" width="{inner_w}" height="{inner_h}" fill="#f7f7f2"/>',
        f'<line x1="{PAD}" x2="{width - PAD}" y1="{y(0)}" y2="{y(0)}" stroke="#999"/>',
    ]
    for value in (top, -top):
        out.append(
            f'<text x="{PAD - 4}" y="{y(value) + 4}" font-size="11" text-anchor="end">'
            f"{value:+.0f}</text>"
        )
    if review.players == 2:
        ahead = _("{name} ahead")
        legend = [
            (0, ahead.format(name=names[0]), y(top) + 14),
            (1, ahead.format(name=names[1]), y(-top) - 6),
        ]
    else:
        legend = [(seat, names[seat], y(top) + 14 + 13 * seat) for seat in seats]
    for seat, text, at in legend:
        out.append(
            f'<text x="{PAD + 6}" y="{at}" font-size="11" fill="{SEATS[seat]}" '
            f'class="legend" data-seat="{seat}">'
            f"{escape(text)}</text>"
        )
    for seat, pts in lines.items():
        if not pts:
            continue
        path = " ".join(f"{x(p)},{y(v)}" for p, v in pts)
        out.append(
            f'<polyline points="{path}" fill="none" stroke="{SEATS[seat % len(SEATS)]}" '
            f'stroke-width="2" data-seat="{seat}"/>'
        )
    for d in review.decisions:
        if d.label is None or d.lead is None:
            continue
        value = d.lead if review.players > 2 or d.seat == 0 else -d.lead
        out.append(
            f'<circle cx="{x(d.ply)}" cy="{y(value)}" r="4" fill="{MARKS[d.label]}" '
            f'data-ply="{d.ply}" class="mark {d.label}"><title>{d.ply}. {escape(d.move)}'
            f" ({escape(_(WORDS[d.label]))}, -{d.loss:g})</title></circle>"
        )
    out.append("</svg>")
    return "".join(out)
