"""The shared parts of the Summer Pavilion table in the drawing: factories, the centre (with the
start player token while it lies there), the supply's 10 spaces, bag and tower, the round track
with each round's wild colour, and the score track 1-80 with every player's marker."""

from __future__ import annotations

import math
from html import escape

from azul.pavilion import data
from azul.pavilion.draw.board import Look, token, wild_star
from azul.pavilion.draw.parts import (
    HIGHLIGHT,
    MARKERS,
    MUTED,
    PAPER,
    TEXT,
    WOOD,
    badge,
    group,
    hit_path,
    mix,
    num,
    rect_path,
    text,
    tile,
)
from azul.pavilion.state import PavilionState

NC = data.NUM_COLORS
TRACK = 80  # spaces on the score track (rules 1.6)
PLATE = "#fffaf0"


def _tiles(counts: list[int], biggest_first: bool = False) -> list[int]:
    """The colour of each tile, by colour or by the size of its colour's group."""
    order = sorted(range(NC), key=lambda c: -counts[c]) if biggest_first else range(NC)
    return [c for c in order for _ in range(counts[c])]


Corner = tuple[float, float]
"""The top left corner of a tile."""
Run = tuple[int, list[Corner]]
"""Tiles of one colour side by side: the colour and each tile's corner."""
TrackCell = tuple[float, float, float, float, int, int]
"""A space of the score track: x, y, width, height, and the inward direction (x, y) in which
markers on one space stack."""


def _runs(cells: list[int], boxes: list[Corner]) -> list[Run]:
    """The tiles as runs of one colour along a row, a run joined to the one above it when
    both span the same columns: every run is a rectangle, so that its middle is its own."""
    runs: list[Run] = []
    for c, box in zip(cells, boxes, strict=False):
        if runs and runs[-1][0] == c and runs[-1][1][-1][1] == box[1]:
            runs[-1][1].append(box)
        else:
            runs.append((c, [box]))
    merged: list[Run] = []
    for c, run in runs:
        if merged and merged[-1][0] == c:
            above = merged[-1][1]
            if {x for x, _ in above} == {x for x, _ in run}:
                above.extend(run)
                continue
        merged.append((c, run))
    return merged


def _source_groups(
    attrs: dict[str, str],
    title: str,
    cells: list[int],
    boxes: list[Corner],
    s: float,
    look: Look,
    **fields: object,
) -> str:
    """The clickable groups of a source whose tiles lie on ``boxes`` (top left corners, in
    order, row by row): a group per colour, or one per row when its tiles do not make a
    rectangle; titled by the template ``title`` with the colour, its count and ``fields``."""
    tr = look.tr
    pad = max(0.1 * s, (look.min_hit - s) / 2)
    out = []
    for c, run in _runs(cells, boxes):
        x0, y0 = min(x for x, _ in run) - pad, min(y for _, y in run) - pad
        x1, y1 = max(x for x, _ in run) + s + pad, max(y for _, y in run) + s + pad
        hit = hit_path(rect_path([(x0, y0, x1 - x0, y1 - y0)], pad))
        body = "".join(tile(x, y, s, c, look.patterns) for x, y in run)
        words = title.format(color=tr(data.COLORS[c]), count=cells.count(c), **fields)
        out.append(group({**attrs, "color": data.COLOR_LETTERS[c]}, hit, words, body, "tiles"))
    return "".join(out)


def factory(
    state: PavilionState, f: int, cx: float, cy: float, r: float, s: float, look: Look
) -> str:
    """Factory ``f`` as a round plate with up to 4 tiles in a square, centred at (cx, cy)."""
    counts = state.sources[f * NC : (f + 1) * NC]
    cells = _tiles(counts, biggest_first=True)  # a pair fills a row, never a diagonal
    gap = s * 0.12
    boxes = [
        (cx - s - gap / 2 + (k % 2) * (s + gap), cy - s - gap / 2 + (k // 2) * (s + gap))
        for k in range(len(cells))
    ]
    out = [
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r)}" fill="{PLATE}" stroke="{WOOD}" '
        f'stroke-width="{num(r * 0.05)}" filter="url(#pv-shadow)"/>',
        f'<circle cx="{num(cx)}" cy="{num(cy)}" r="{num(r * 0.86)}" fill="none" '
        f'stroke="{mix(WOOD, PAPER, 0.6)}" stroke-width="1"/>',
        badge(cx, cy - r, max(r * 0.24, 11), str(f), WOOD),
    ]
    title = look.tr("factory {factory}: {color} ×{count}")
    out.append(_source_groups({"source": f"F{f}"}, title, cells, boxes, s, look, factory=f))
    return "".join(out)


def centre(
    state: PavilionState, cx: float, cy: float, s: float, pitch: float, per_row: int, look: Look
) -> str:
    """The centre of the table, centred at (cx, cy): one tile per colour with its count, wilds
    marked, and the start player token while nobody has taken it (rules 4.4)."""
    tr = look.tr
    counts = state.sources[:NC]
    wild = state.wild()
    items = [c for c in range(NC) if counts[c]] + ([-1] if state.token < 0 else [])
    if not items:
        return text(cx, cy + s * 0.15, tr("empty"), s * 0.4, MUTED, "middle")
    rows = (len(items) + per_row - 1) // per_row
    pad = max(0.1 * s, (look.min_hit - s) / 2)
    out = []
    for k, c in enumerate(items):
        in_row = min(per_row, len(items) - (k // per_row) * per_row)
        tx = cx + (k % per_row - in_row / 2) * pitch + (pitch - s) / 2
        ty = cy + (k // per_row - rows / 2) * pitch + (pitch - s) / 2
        if c < 0:
            out.append(token({}, tx + s * 0.1, ty + s * 0.1, s * 0.8, tr))
            continue
        hit = hit_path(rect_path([(tx - pad, ty - pad, s + 2 * pad, s + 2 * pad)], pad))
        body = tile(tx, ty, s, c, look.patterns)
        if counts[c] > 1:
            body += badge(tx + s - 0.05 * s, ty + 0.05 * s, 0.26 * s, str(counts[c]))
        if c == wild:
            body += wild_star(tx + 0.17 * s, ty + s - 0.17 * s, 0.19 * s)
        words = tr("centre: {color} ×{count}").format(color=tr(data.COLORS[c]), count=counts[c])
        attrs = {"source": "C", "color": data.COLOR_LETTERS[c]}
        out.append(group(attrs, hit, words, body, "tiles"))
    return "".join(out)


def supply(
    state: PavilionState, x: float, y: float, s: float, pitch: float, per_row: int, look: Look
) -> str:
    """The supply's 10 spaces, tiles sorted by colour (rules 1.4, 5.6); (x, y) is the top left."""
    cells = _tiles(state.supply)
    boxes = [
        (x + (k % per_row) * pitch, y + (k // per_row) * pitch) for k in range(data.SUPPLY_SPACES)
    ]
    out = [
        f'<rect x="{num(bx - s * 0.06)}" y="{num(by - s * 0.06)}" width="{num(s * 1.12)}" '
        f'height="{num(s * 1.12)}" rx="{num(s * 0.2)}" fill="#e6d5b3" '
        f'stroke="{mix(WOOD, PAPER, 0.45)}" stroke-width="1"/>'
        for bx, by in boxes
    ]
    title = look.tr("supply: {color} ×{count}")
    out.append(_source_groups({"source": "S"}, title, cells, boxes, s, look))
    return "".join(out)


def bag_and_tower(state: PavilionState, x: float, y: float, s: float, look: Look) -> str:
    """Tiles left in the bag and in the tower, each with a little picture; (x, y) top left."""
    tr = look.tr
    bag, tower = sum(state.bag), sum(state.tower)
    bag_shape = (
        f'<path d="M{num(x + s * 0.3)},{num(y + s * 0.25)}q{num(-s * 0.3)},{num(s * 0.35)} '
        f"{num(-s * 0.2)},{num(s * 0.62)}q{num(s * 0.05)},{num(s * 0.13)} {num(s * 0.4)},"
        f"{num(s * 0.13)}q{num(s * 0.35)},0 {num(s * 0.4)},{num(-s * 0.13)}q{num(s * 0.1)},"
        f'{num(-s * 0.27)} {num(-s * 0.2)},{num(-s * 0.62)}z" fill="#b07a45" stroke="{WOOD}"/>'
        f'<rect x="{num(x + s * 0.26)}" y="{num(y + s * 0.12)}" width="{num(s * 0.28)}" '
        f'height="{num(s * 0.14)}" rx="{num(s * 0.05)}" fill="{WOOD}"/>'
    )
    tx = x + s * 1.4
    tower_shape = (
        f'<path d="M{num(tx + s * 0.15)},{num(y + s)}v{num(-s * 0.7)}h{num(-s * 0.05)}'
        f"v{num(-s * 0.2)}h{num(s * 0.14)}v{num(s * 0.08)}h{num(s * 0.12)}v{num(-s * 0.08)}"
        f"h{num(s * 0.12)}v{num(s * 0.08)}h{num(s * 0.12)}v{num(-s * 0.08)}h{num(s * 0.14)}"
        f'v{num(s * 0.2)}h{num(-s * 0.05)}v{num(s * 0.7)}z" fill="#c9b79a" stroke="{WOOD}"/>'
    )
    size = s * 0.36
    ntr = look.ntr
    bag_title = escape(ntr("bag: {count} tile", "bag: {count} tiles", bag).format(count=bag))
    tower_title = escape(
        ntr("tower: {count} tile", "tower: {count} tiles", tower).format(count=tower)
    )
    return (
        f'<g class="bag"><title>{bag_title}</title>{bag_shape}'
        + text(x + s * 0.4, y + s * 0.78, str(bag), size, "#fff", "middle", "700")
        + text(x + s * 0.4, y + s * 1.35, tr("bag"), size * 0.9, MUTED, "middle")
        + f'</g><g class="tower"><title>{tower_title}</title>{tower_shape}'
        + text(tx + s * 0.4, y + s * 0.82, str(tower), size, TEXT, "middle", "700")
        + text(tx + s * 0.4, y + s * 1.35, tr("tower"), size * 0.9, MUTED, "middle")
        + "</g>"
    )


def round_track(
    state: PavilionState, x: float, y: float, pitch: float, look: Look, per_row: int = 6
) -> str:
    """Rounds 1-6 with each round's wild colour (rules 3.2), the current one ringed; (x, y) is
    the top left, ``pitch`` the width of a round, ``per_row`` rounds to a row."""
    tr = look.tr
    s = pitch * 0.64
    out = []
    for r in range(1, data.ROUNDS + 1):
        c = data.WILD_BY_ROUND[r]
        rx = x + (r - 1) % per_row * pitch
        ry = y + (r - 1) // per_row * pitch * 1.2
        current = r == state.round
        words = tr("round {round}: wild {color}").format(round=r, color=tr(data.COLORS[c]))
        ring = ""
        if current:
            words += " (" + tr("current") + ")"
            ring = (
                f'<rect x="{num(rx + pitch * 0.06)}" y="{num(ry)}" width="{num(pitch * 0.88)}" '
                f'height="{num(pitch * 1.12)}" rx="{num(pitch * 0.18)}" fill="#fff" '
                f'stroke="{HIGHLIGHT}" stroke-width="{num(pitch * 0.06)}"/>'
            )
        fade = "" if r >= state.round else ' opacity="0.45"'
        tx = rx + (pitch - s) / 2
        out.append(
            f'<g class="round{" current" if current else ""}" data-round="{r}"{fade}>'
            f"<title>{escape(words)}</title>{ring}"
            + text(rx + pitch / 2, ry + pitch * 0.3, str(r), pitch * 0.3, TEXT, "middle", "700")
            + tile(tx, ry + pitch * 0.38, s, c, look.patterns)
            + "</g>"
        )
    return "".join(out)


def track_rows(x: float, y: float, w: float, rows: int, gap: float) -> list[TrackCell]:
    """Cells of the score track in ``rows`` rows read left to right."""
    per = TRACK // rows
    cw = w / per
    return [(x + (i % per) * cw, y + (i // per) * (cw + gap), cw, cw, 1, 0) for i in range(TRACK)]


def score_track(state: PavilionState, cells: list[TrackCell], r: float, look: Look) -> str:
    """The score track with a marker of radius ``r`` per seat; a marker beyond 80 starts a new
    lap and says +80 (rules 1.1: point tokens)."""
    ntr = look.ntr
    out = ['<g class="score-track">']
    edge = mix(WOOD, PAPER, 0.5)
    for i, (cx, cy, cw, ch, _, _) in enumerate(cells):
        n = i + 1
        fill = "#f3e7cc" if (n // 5) % 2 else "#eadbb9"
        out.append(
            f'<rect data-track="{n}" x="{num(cx)}" y="{num(cy)}" width="{num(cw)}" '
            f'height="{num(ch)}" fill="{fill}" stroke="{edge}" stroke-width="0.6"/>'
        )
        if n % 5 == 0 or n == 1:
            size = min(0.62 * max(cw, ch), 0.9 * min(cw, ch))
            out.append(
                text(
                    cx + cw / 2,
                    cy + ch / 2 + size * 0.36,
                    str(n),
                    size,
                    MUTED,
                    "middle",
                    "700",
                )
            )
    out.append("</g>")
    at: dict[int, list[int]] = {}
    for p, score in enumerate(state.points):
        at.setdefault(max(0, score - 1) % TRACK, []).append(p)
    for i, seats in at.items():
        cx, cy, cw, ch, ix, iy = cells[i]
        for k, p in enumerate(seats):  # markers on one space stack inwards
            mx = cx + cw / 2 + ix * k * r * 1.5
            my = cy + ch / 2 + iy * k * r * 1.5
            fill, ink = MARKERS[p]
            score = state.points[p]
            laps = (score - 1) // TRACK if score > TRACK else 0
            words = ntr("{name}, {points} point", "{name}, {points} points", score).format(
                name=look.who(p), points=score
            )
            extra = (
                text(mx + r, my - r * 0.8, f"+{laps * TRACK}", r * 0.9, TEXT, "start", "700")
                if laps
                else ""
            )
            out.append(
                f'<g class="marker" data-seat="{p}" data-score="{score}">'
                f"<title>{escape(words)}</title>"
                f'<circle cx="{num(mx)}" cy="{num(my)}" r="{num(r)}" fill="{fill}" '
                f'stroke="{TEXT}" stroke-width="{num(max(1, r * 0.12))}"/>'
                + text(mx, my + r * 0.4, str(p + 1), r * 1.15, ink, "middle", "700")
                + extra
                + "</g>"
            )
    return "".join(out)


def ring_positions(n: int, cx: float, cy: float, radius: float) -> list[tuple[float, float]]:
    """Centres of ``n`` factories evenly round a circle, the first at the top."""
    return [
        (cx + radius * math.sin(2 * math.pi * i / n), cy - radius * math.cos(2 * math.pi * i / n))
        for i in range(n)
    ]


def panel(x: float, y: float, w: float, h: float, fill: str = PAPER) -> str:
    return (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(w)}" height="{num(h)}" rx="12" '
        f'fill="{fill}" stroke="{WOOD}" stroke-width="2" filter="url(#pv-shadow)"/>'
    )
