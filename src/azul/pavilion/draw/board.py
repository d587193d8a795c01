"""One player's board in the Summer Pavilion drawing: the seven stars with each space's cost,
the pillars, statues and windows (rules "Board geometry"), the four corner spaces, the hand and
the pass button, under a header with the seat, its score and what it is doing.

Sizes are in ``u``, the side of a diamond space; a board is ``WIDTH * u`` wide and
``HEIGHT * u`` high.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

from azul.i18n import N_
from azul.pavilion import data
from azul.pavilion.draw.describe import star_name
from azul.pavilion.draw.parts import (
    FILL,
    GOLD,
    HIGHLIGHT,
    MARKERS,
    MUTED,
    PAPER,
    RIM,
    TEXT,
    WOOD,
    badge,
    diamond,
    group,
    hit_path,
    hit_polygon,
    letter,
    mix,
    num,
    point,
    points,
    rect_path,
    text,
    tile,
)
from azul.pavilion.state import BONUS_PICK, PLAY, PavilionState

STAR_DIRECTION = {1: 270, 2: 330, 3: 30, 4: 90, 5: 150, 6: 210}  # rules "Board geometry"
SPREAD = 3.55  # distance of an outer star's centre from the board's centre
SQUARE = 11.2  # side of the board proper
HEAD = 1.5  # the header band above it
RACK = 2.5  # the hand (and the pass button) below it
WIDTH = SQUARE
HEIGHT = HEAD + SQUARE + RACK
CORNER = 1.3  # side of a corner space
SLOT_PITCH = 1.42  # hand slots
TILE = 1.18  # a hand tile


@dataclass(frozen=True)
class Look:
    """How a board is drawn: its words (``tr``, ``ntr``), colour-blind patterns, and the
    smallest hit shape in drawing units (0: no minimum)."""

    tr: Callable[[str], str]
    ntr: Callable[[str, str, int], str]
    patterns: bool
    min_hit: float = 0.0
    names: tuple[str, ...] = ()  # the players' names; "seat N" without

    def who(self, p: int) -> str:
        """A player's name in the drawing."""
        if p < len(self.names) and self.names[p]:
            return self.names[p]
        return self.tr("seat {seat}").format(seat=p)


def space_angle(star: int, pos: int) -> float:
    """Where ring position ``pos`` of ``star`` points (rules "Board geometry")."""
    if star == 0:
        return 60 * (pos - 1)
    return STAR_DIRECTION[star] + 30 + 60 * pos


def star_center(cx: float, cy: float, star: int, u: float) -> tuple[float, float]:
    if star == 0:
        return cx, cy
    return point(cx, cy, STAR_DIRECTION[star], SPREAD * u)


def structure_center(cx: float, cy: float, kind: str, star: int, u: float) -> tuple[float, float]:
    """A pillar sits between its star and the centre star, a statue between its star and the
    next one clockwise, a window on the star's outer edge, between spaces 5 and 6."""
    theta = STAR_DIRECTION[star]
    if kind == "pillar":
        return point(cx, cy, theta, SPREAD * u / 2)
    if kind == "statue":
        return point(cx, cy, theta + 30, SPREAD * u * math.cos(math.radians(30)))
    return point(cx, cy, theta, (SPREAD + 1.5) * u)


def draw_board(state: PavilionState, p: int, x: float, y: float, u: float, look: Look) -> str:
    """The board of seat ``p`` with its top left corner at (x, y)."""
    cx, cy = x + SQUARE * u / 2, y + (HEAD + SQUARE / 2) * u
    to_move = state.current_player() == p
    frame = HIGHLIGHT if to_move else WOOD
    out = [
        f'<g class="board" data-seat="{p}">',
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(WIDTH * u)}" height="{num(HEIGHT * u)}" '
        f'rx="{num(0.45 * u)}" fill="{PAPER}" stroke="{frame}" '
        f'stroke-width="{num((0.16 if to_move else 0.07) * u)}" filter="url(#pv-shadow)"/>',
        f'<line x1="{num(x + 0.3 * u)}" y1="{num(y + HEAD * u)}" x2="{num(x + (WIDTH - 0.3) * u)}"'
        f' y2="{num(y + HEAD * u)}" stroke="{mix(WOOD, PAPER, 0.6)}" stroke-width="1"/>',
        _header(state, p, x, y, u, look),
    ]
    for star in range(data.NUM_STARS):
        out += _star(state, p, star, cx, cy, u, look)
    out += _structures(state, p, cx, cy, u, look)
    out.append(_corners(state, p, cx, cy, u, look))
    out += _rack(state, p, x, y + (HEAD + SQUARE) * u, u, look)
    out.append("</g>")
    return "".join(out)


def _header(state: PavilionState, p: int, x: float, y: float, u: float, look: Look) -> str:
    tr, ntr = look.tr, look.ntr
    size = 0.62 * u
    base = y + HEAD * u * 0.66
    fill, ink = MARKERS[p]
    points_word = ntr("{name}: {points} point", "{name}: {points} points", state.points[p]).format(
        name=look.who(p), points=state.points[p]
    )
    out = [
        f'<circle cx="{num(x + 0.75 * u)}" cy="{num(base - size * 0.36)}" r="{num(0.38 * u)}" '
        f'fill="{fill}" stroke="{TEXT}" stroke-width="1"/>',
        text(
            x + 0.75 * u, base, str(p + 1), size * 0.85, ink, "middle", "700"
        ),  # people count from 1
        text(x + 1.35 * u, base, points_word, size, TEXT, "start", "700"),
    ]
    right = x + (WIDTH - 0.35) * u
    chips = []
    if state.is_terminal():
        if p in state.winners():
            chips.append((tr("winner"), GOLD))
    elif state.passed >> p & 1:
        chips.append((tr("passed"), MUTED))
    elif state.current_player() == p:
        chips.append((tr("to play"), HIGHLIGHT))
    for words, color in chips:
        w = (len(words) * 0.3 + 0.7) * u
        out.append(
            f'<rect x="{num(right - w)}" y="{num(base - size)}" width="{num(w)}" '
            f'height="{num(size * 1.35)}" rx="{num(size * 0.6)}" fill="{color}"/>'
            + text(right - w / 2, base, words, size * 0.8, "#fff", "middle", "700")
        )
        right -= w + 0.25 * u
    if state.token == p and not state.is_terminal():
        s = 0.8 * u
        out.append(token({"seat": str(p)}, right - s, base - size * 0.36 - s / 2, s, tr))
    return "".join(out)


def token(attrs: dict[str, str], x: float, y: float, s: float, tr: Callable[[str], str]) -> str:
    """The start player token, a white tile with a 1 and a gold edge, as a group carrying
    ``attrs`` and ``token="1"``."""
    pad = 0.12 * s
    hit = hit_path(rect_path([(x - pad, y - pad, s + 2 * pad, s + 2 * pad)], pad * 2))
    body = (
        f'<rect x="{num(x)}" y="{num(y)}" width="{num(s)}" height="{num(s)}" rx="{num(s * 0.2)}" '
        f'fill="#fffdf7" stroke="{GOLD}" stroke-width="{num(max(1.5, s * 0.1))}"/>'
        + text(x + s / 2, y + s * 0.72, "1", s * 0.6, TEXT, "middle", "700")
    )
    return group({**attrs, "token": "1"}, hit, tr("start player token"), body, "token")


def _star(
    state: PavilionState, p: int, star: int, cx: float, cy: float, u: float, look: Look
) -> list[str]:
    tr = look.tr
    grey = state.game.board.grey
    cost = state.game.board.cost
    sx, sy = star_center(cx, cy, star, u)
    home = data.NO_COLOR if grey else data.STAR_COLOR[star]  # the star's fixed colour
    if grey:
        empty = "#ddd5c6"
    elif home == data.NO_COLOR:
        empty = "#f1e4c6"
    else:
        empty = mix(FILL[home], PAPER, 0.7)
    edge = mix(WOOD, PAPER, 0.25)
    star_word = tr(star_name(state, star))  # as the log names it: by place on the grey side
    # the hit shape: the diamond a little grown, its sides widened until its narrowest extent
    # (0.866 of a side, for a space pointing at 60 degrees) reaches the smallest tap
    side = max(1.08, look.min_hit / (0.866 * u)) * u
    tip = 1.08 * math.sqrt(3) * u
    out = []
    for pos in range(1, 7):
        sp = data.space(star, pos)
        angle = space_angle(star, pos)
        shape = points(diamond(sx, sy, angle, u))
        hit = hit_polygon(
            [
                (sx, sy),
                point(sx, sy, angle - 30, side),
                point(sx, sy, angle, tip),
                point(sx, sy, angle + 30, side),
            ]
        )
        c = state.cells[p * data.NUM_SPACES + sp]
        mx, my = point(sx, sy, angle, u * 0.9)
        attrs = {"seat": str(p), "space": f"{data.STAR_LETTERS[star]}{pos}"}
        if c >= 0:
            over = f'<polygon points="{shape}" fill="url(#azul-pat-{c})"/>' if look.patterns else ""
            body = (
                f'<polygon points="{shape}" fill="{FILL[c]}" stroke="{RIM[c]}"'
                f' stroke-width="{num(0.05 * u)}" stroke-linejoin="round"/>'
                f'<polygon points="{shape}" fill="url(#pv-sheen)"/>{over}'
                + letter(mx, my, 0.62 * u, c, look.patterns)
            )
            title = tr("{star}, space {space}: {color}").format(
                star=star_word, space=pos, color=tr(data.COLORS[c])
            )
            out.append(group(attrs, hit, title, body, "space covered"))
        else:
            body = (
                f'<polygon points="{shape}" fill="{empty}" stroke="{edge}" '
                f'stroke-width="{num(0.04 * u)}" stroke-linejoin="round"/>'
                + text(mx, my + 0.22 * u, str(cost[sp]), 0.6 * u, TEXT, "middle", "700")
            )
            title = tr("{star}, space {space}, costs {cost}").format(
                star=star_word, space=pos, cost=cost[sp]
            )
            out.append(group(attrs, hit, title, body, "space empty"))
    if look.patterns and home != data.NO_COLOR:  # the star's colour, for those who cannot see it
        out.append(
            f'<circle cx="{num(sx)}" cy="{num(sy)}" r="{num(0.26 * u)}" fill="{FILL[home]}" '
            f'stroke="#fff" stroke-width="{num(0.04 * u)}"/>' + letter(sx, sy, 0.32 * u, home, True)
        )
    return out


_KIND_WORDS = {"pillar": N_("pillar"), "statue": N_("statue"), "window": N_("window")}


def _structures(
    state: PavilionState, p: int, cx: float, cy: float, u: float, look: Look
) -> list[str]:
    """Each structure with the bonus tiles it gives; gold once its spaces are all covered."""
    tr, ntr = look.tr, look.ntr
    filled = state.filled[p]
    out = []
    for kind, star, spaces, reward in data.STRUCTURES:
        done = all(filled >> sp & 1 for sp in spaces)
        x, y = structure_center(cx, cy, kind, star, u)
        r = 0.34 * u
        if done:
            fill, stroke, ink = GOLD, mix(GOLD, "#000000", 0.35), "#fff"
        else:
            fill, stroke, ink = "#fffaf0", mix(WOOD, PAPER, 0.35), MUTED
        style = f'fill="{fill}" stroke="{stroke}" stroke-width="{num(0.05 * u)}"'
        if kind == "pillar":
            shape = f'<circle cx="{num(x)}" cy="{num(y)}" r="{num(r)}" {style}/>'
        elif kind == "statue":
            corners = [point(x, y, a, r * 1.25) for a in (0, 90, 180, 270)]
            shape = f'<polygon points="{points(corners)}" {style}/>'
        else:  # an arched window, facing out from the board
            w, h = r * 1.5, r * 2.0
            shape = (
                f'<path d="M{num(x - w / 2)},{num(y + h / 2)}v{num(-h + w / 2)}'
                f'a{num(w / 2)},{num(w / 2)} 0 0 1 {num(w)},0v{num(h - w / 2)}z" {style}/>'
            )
        mark = "✓" if done else str(reward)
        what = ntr("{kind}: {n} bonus tile", "{kind}: {n} bonus tiles", reward).format(
            kind=tr(_KIND_WORDS[kind]), n=reward
        )
        if done:
            what += " (" + tr("done") + ")"
        klass = f"structure {kind}" + (" done" if done else "")
        out.append(
            f'<g class="{klass}" data-seat="{p}" data-structure="{kind}-{star}">'
            f"<title>{escape(what)}</title>{shape}"
            + text(x, y + r * 0.42, mark, r * 1.15, ink, "middle", "700")
            + "</g>"
        )
    return out


def _corners(state: PavilionState, p: int, cx: float, cy: float, u: float, look: Look) -> str:
    """The four corner spaces and the tiles kept on them (rules 5.8)."""
    tr = look.tr
    b = p * data.NUM_COLORS
    kept = [c for c in range(data.NUM_COLORS) for _ in range(state.kept[b + c])]
    s = CORNER * u
    reach = (SQUARE / 2 - 0.25) * u - s  # from the centre to a corner space's near side
    boxes = [
        (cx - reach - s, cy - reach - s),
        (cx + reach, cy - reach - s),
        (cx + reach, cy + reach),
        (cx - reach - s, cy + reach),
    ]
    pad = 0.08 * u
    hit = hit_path(
        rect_path([(bx - pad, by - pad, s + 2 * pad, s + 2 * pad) for bx, by in boxes], pad * 2)
    )
    body = []
    for i, (bx, by) in enumerate(boxes):
        body.append(
            f'<rect x="{num(bx)}" y="{num(by)}" width="{num(s)}" height="{num(s)}" '
            f'rx="{num(0.18 * u)}" fill="#efe2c4" stroke="{mix(WOOD, PAPER, 0.3)}" '
            f'stroke-width="{num(0.04 * u)}" stroke-dasharray="{num(0.15 * u)} {num(0.1 * u)}"/>'
        )
        if i < len(kept):
            m = 0.1 * u
            body.append(tile(bx + m, by + m, s - 2 * m, kept[i], look.patterns))
    names = ", ".join(tr(data.COLORS[c]) for c in kept) or tr("empty")
    title = tr("corner spaces: {tiles}").format(tiles=names)
    return group({"seat": str(p), "kept": "1"}, hit, title, "".join(body), "kept")


def _rack(state: PavilionState, p: int, x: float, y: float, u: float, look: Look) -> list[str]:
    """The hand, one slot per colour with its count, and the pass button of the player to
    move in the play phase."""
    tr = look.tr
    b = p * data.NUM_COLORS
    wild = state.wild()
    size = 0.48 * u
    out = [text(x + 0.3 * u, y + 0.62 * u, tr("hand"), size, MUTED, "start", "700")]
    top = y + 0.85 * u
    s = TILE * u
    pad = max(0.12 * u, (look.min_hit - s) / 2)
    for c in range(data.NUM_COLORS):
        n = state.hands[b + c]
        tx = x + 0.3 * u + c * SLOT_PITCH * u
        hit = hit_path(rect_path([(tx - pad, top - pad, s + 2 * pad, s + 2 * pad)], 0.2 * u))
        if n:
            body = tile(tx, top, s, c, look.patterns)
            if n > 1:
                body += badge(tx + s - 0.05 * u, top + 0.05 * u, 0.3 * u, str(n))
        else:
            body = (
                f'<rect x="{num(tx)}" y="{num(top)}" width="{num(s)}" height="{num(s)}" '
                f'rx="{num(s * 0.16)}" fill="{mix(FILL[c], PAPER, 0.82)}" '
                f'stroke="{mix(FILL[c], PAPER, 0.4)}" stroke-width="1" '
                f'stroke-dasharray="{num(0.12 * u)} {num(0.08 * u)}"/>'
            )
        if c == wild:
            body += wild_star(tx + 0.2 * u, top + s - 0.2 * u, 0.22 * u)
        title = tr("hand: {color} ×{count}").format(color=tr(data.COLORS[c]), count=n)
        if c == wild:
            title += " (" + tr("wild") + ")"
        out.append(group({"seat": str(p), "hand": data.COLOR_LETTERS[c]}, hit, title, body, "hand"))
    if state.kind == PLAY and state.current_player() == p:
        out.append(_pass_button(p, x + (WIDTH - 0.25) * u, top, u, look))
    elif state.kind == BONUS_PICK and state.current_player() == p:
        words = look.ntr("take {n} bonus tile", "take {n} bonus tiles", state.owed).format(
            n=state.owed
        )
        out.append(text(x + (WIDTH - 0.3) * u, y + 0.6 * u, words, size, HIGHLIGHT, "end", "700"))
    return out


def _pass_button(p: int, right: float, top: float, u: float, look: Look) -> str:
    words = look.tr("pass")
    w = 2.0 * u
    size = min(0.55 * u, 1.75 * u / (0.6 * len(words)))
    h = max(TILE * u, look.min_hit)
    x = right - w
    hit = hit_path(rect_path([(x, top, w, h)], 0.3 * u))
    body = (
        f'<rect x="{num(x)}" y="{num(top)}" width="{num(w)}" height="{num(h)}" rx="{num(0.3 * u)}" '
        f'fill="{WOOD}" stroke="{mix(WOOD, "#000000", 0.3)}" stroke-width="1"/>'
        + text(x + w / 2, top + h / 2 + size * 0.36, words, size, "#fff", "middle", "700")
    )
    title = look.tr("pass: keep up to 4 tiles, the others cost 1 point each")
    return group({"seat": str(p), "pass": "1"}, hit, title, body, "pass")


def wild_star(x: float, y: float, r: float) -> str:
    """A small gold star marking the wild colour."""
    corners = [point(x, y, 36 * i, r if i % 2 == 0 else r * 0.45) for i in range(10)]
    return f'<polygon points="{points(corners)}" fill="{GOLD}" stroke="#fff" stroke-width="0.8"/>'
