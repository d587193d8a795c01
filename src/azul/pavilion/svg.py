"""SVG drawing of a Summer Pavilion position: the table and every player's board.

Covered spaces show their tile's colour and letter (the letters make the drawing readable without
telling colours apart); empty spaces show their cost. Elements carry ``data-`` attributes (space,
seat, source, colour) for clients that make them clickable.
"""

from __future__ import annotations

import math
from html import escape

from azul import i18n
from azul.core.svgkit import pattern_defs, tile
from azul.pavilion import actions, data
from azul.pavilion.actions import BONUS, PASS, PLACE, TAKE
from azul.pavilion.state import PavilionState

FILL = {0: "#8e44ad", 1: "#2e9e57", 2: "#e67e22", 3: "#f1c40f", 4: "#2e86de", 5: "#c0392b"}
INK = {0: "#fff", 1: "#fff", 2: "#000", 3: "#000", 4: "#fff", 5: "#fff"}
STAR_DIRECTION = {1: 270, 2: 330, 3: 30, 4: 90, 5: 150, 6: 210}  # rules "Board geometry"
UNIT = 22.0  # side of a diamond, in pixels
BOARD = 10.2 * UNIT  # width and height of one board


def _point(cx: float, cy: float, angle: float, r: float) -> tuple[float, float]:
    """The point at ``r`` from (cx, cy), ``angle`` degrees clockwise from 12 o'clock."""
    a = math.radians(angle)
    return cx + r * math.sin(a), cy - r * math.cos(a)


def _tile(x: float, y: float, c: int, size: float, attrs: str, patterns: bool) -> str:
    letter = data.COLOR_LETTERS[c]
    return tile(x, y, size, FILL[c], INK[c], letter, attrs, c if patterns else None)


def _counts(
    counts: list[int], x: float, y: float, size: float, attrs: str, patterns: bool
) -> list[str]:
    out = []
    for c, n in enumerate(counts):
        for _ in range(n):
            attr = f'{attrs} data-color="{data.COLOR_LETTERS[c]}"'
            out.append(_tile(x, y, c, size, attr, patterns))
            x += size + 2
    return out


def _board(
    state: PavilionState, p: int, ox: float, oy: float, patterns: bool, tr, ntr
) -> list[str]:
    cost = state.game.board.cost
    cx, cy = ox + BOARD / 2, oy + BOARD / 2 + 10
    out = [
        f'<g class="board" data-seat="{p}">',
        f'<rect x="{ox}" y="{oy}" width="{BOARD}" height="{BOARD + 44}" rx="10" '
        f'fill="#f7f1e3" stroke="#999"/>',
        f'<text x="{ox + 8}" y="{oy + 16}" font-size="13">'
        + escape(
            ntr(
                "seat {seat}: {points} point", "seat {seat}: {points} points", state.points[p]
            ).format(seat=p, points=state.points[p])
        )
        + (escape(" (" + tr("passed") + ")") if state.passed >> p & 1 else "")
        + "</text>",
    ]
    for star in range(data.NUM_STARS):
        sx, sy = (cx, cy) if star == 0 else _point(cx, cy, STAR_DIRECTION[star], 3.55 * UNIT)
        for i in range(6):
            pos = i + 1
            angle = 60 * (pos - 1) if star == 0 else STAR_DIRECTION[star] + 30 + 60 * pos
            corners = [
                (sx, sy),
                _point(sx, sy, angle - 30, UNIT),
                _point(sx, sy, angle, UNIT * math.sqrt(3)),
                _point(sx, sy, angle + 30, UNIT),
            ]
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in corners)
            sp = star * 6 + i
            c = state.cells[p * data.NUM_SPACES + sp]
            tx, ty = _point(sx, sy, angle, UNIT * 0.9)
            code = f"{data.STAR_LETTERS[star]}{pos}"
            over = ""
            if c >= 0:
                fill, ink, label = FILL[c], INK[c], data.COLOR_LETTERS[c]
                klass = "space covered"
                if patterns:
                    over = f'<polygon points="{path}" fill="url(#azul-pat-{c})"/>'
            else:
                home = data.STAR_COLOR[star] if not state.game.board.grey else None
                fill = "#fff" if home is None else FILL[home] + "40"
                ink, label, klass = "#555", str(cost[sp]), "space empty"
            out.append(
                f'<g class="{klass}" data-space="{code}"><polygon points="{path}" '
                f'fill="{fill}" stroke="#444"/>{over}<text x="{tx:.1f}" y="{ty + 4:.1f}" '
                f'font-size="11" text-anchor="middle" fill="{ink}">{label}</text></g>'
            )
    b = p * data.NUM_COLORS
    y = oy + BOARD + 22
    hand_word, kept_word = escape(tr("hand")), escape(tr("kept"))
    out.append(f'<text x="{ox + 8}" y="{y + 11}" font-size="11">{hand_word}</text>')
    hand = state.hands[b : b + data.NUM_COLORS]
    out += _counts(hand, ox + 40, y, 12, 'class="hand"', patterns)
    kept = state.kept[b : b + data.NUM_COLORS]
    if any(kept):
        x = ox + BOARD - 14 * sum(kept) - 8
        out.append(
            f'<text x="{x - 4}" y="{y + 11}" font-size="11" text-anchor="end">{kept_word}</text>'
        )
        out += _counts(kept, x, y, 12, 'class="kept"', patterns)
    out.append("</g>")
    return out


def render_svg(state: PavilionState, patterns: bool = False, lang: str | None = None) -> str:
    """The whole position as one SVG document; ``patterns`` lays a pattern per colour over the
    tiles (colour-blind mode); its words are in ``lang`` (default: the current language)."""
    tr = i18n.in_language(lang) if lang else i18n._
    ntr = i18n.ngettext_in(lang) if lang else i18n.ngettext
    title = tr("Summer Pavilion, round {round}")
    game = state.game
    n = game.players
    width = max(n * (BOARD + 10) + 10, 640)
    table_h = 120
    height = table_h + BOARD + 64
    w = state.wild()
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="{width:.0f}" height="{height:.0f}" font-family="sans-serif">',
        "<title>" + escape(title.format(round=state.round)) + "</title>",
        '<text x="10" y="18" font-size="14">'
        + escape(
            tr("Round {round} of {rounds} - wild colour {color} - {decision}").format(
                round=state.round,
                rounds=data.ROUNDS,
                color=tr(data.COLORS[w]),
                decision=tr(state.decision()),
            )
        )
        + "</text>",
    ]
    if patterns:
        out.append(pattern_defs([INK[c] for c in range(data.NUM_COLORS)]))
    x = 10.0
    size = 14
    for f in range(1, game.factories + 1):
        out.append(
            f'<circle cx="{x + 32}" cy="50" r="28" fill="#fff" stroke="#999" data-source="F{f}"/>'
        )
        tiles = state.sources[f * data.NUM_COLORS : (f + 1) * data.NUM_COLORS]
        cells = [c for c, k in enumerate(tiles) for _ in range(k)]
        for k, c in enumerate(cells):
            out.append(
                _tile(
                    x + 16 + (k % 2) * 17,
                    34 + (k // 2) * 17,
                    c,
                    size,
                    f'data-source="F{f}" data-color="{data.COLOR_LETTERS[c]}"',
                    patterns,
                )
            )
        x += 70
    centre, supply = escape(tr("centre")), escape(tr("supply"))
    out.append(f'<text x="10" y="100" font-size="12">{centre}</text>')
    out += _counts(state.sources[: data.NUM_COLORS], 60, 89, size, 'data-source="C"', patterns)
    out.append(f'<text x="{width / 2:.0f}" y="100" font-size="12">{supply}</text>')
    out += _counts(state.supply, width / 2 + 48, 89, size, 'data-source="S"', patterns)
    for p in range(n):
        out += _board(state, p, 10 + p * (BOARD + 10), table_h, patterns, tr, ntr)
    out.append("</svg>")
    return "\n".join(out)


def action_targets(state: PavilionState, action: int) -> list[dict[str, str]]:
    """What a person clicks on the drawing to choose ``action``, in order: the elements whose
    ``data-`` attributes match. A pass has none: it is chosen from a list."""
    kind, x, y, _ = state.game.actions.decode[action]
    if kind == TAKE:
        return [{"source": "C" if x == 0 else f"F{x}", "color": data.COLOR_LETTERS[y]}]
    if kind == PLACE:
        return [{"seat": str(state.player), "space": actions.space_code(x)}]
    if kind == BONUS:
        return [{"source": "S", "color": data.COLOR_LETTERS[x]}]
    assert kind == PASS
    return []
