"""One palace board in SVG: header (seat, score, starting tile), glazier, the 8 pattern strips
with the other side's icon, the windows with their values, side A's ornaments or side B's
count, and the broken-glass track with the player's marker.

Drawn at the origin in board units; the document places and scales it. The broken-glass track
stands at the right (``track="side"``) or below the windows (``track="below"``, for phones).
"""

from __future__ import annotations

from html import escape, unescape

from azul.sintra.data import FRAMES, JOKER, ORNAMENT_BONUS, SLOTS, SPACES
from azul.sintra.draw.parts import (
    FILL,
    GOLD,
    LEAD,
    SEATS,
    STONE,
    Pen,
    empty_space,
    first_tile,
    fit,
    glass,
    group,
    hit,
    text,
)
from azul.sintra.state import KEEPING

P = 50  # column pitch and pattern-space pitch: a tap target of 44 px on a 390 px phone
S = 40  # a piece
MARGIN = {"side": 20, "below": 4}  # left margin; a phone's board spans the whole width
HEAD = 46  # header row
GLAZ_Y = HEAD  # the glazier row (50 high)
ICON_Y = GLAZ_Y + P  # the icon of the strip's other side (rules 1.4)
STRIP_Y = ICON_Y + 16  # the 5 pattern spaces
STRIP_H = STRIP_Y - ICON_Y + SPACES * P  # a strip with its icon
WIN_Y = STRIP_Y + SPACES * P + 8  # the window's arch
PANE_Y = WIN_Y + 20  # top frame; the bottom frame is one pitch lower
VALUE_Y = PANE_Y + FRAMES * P + 4  # printed values
BONUS_Y = VALUE_Y + 32  # ornaments (side A) or the windows' count (side B)
HEIGHT = BONUS_Y + 36
TRACK_X = MARGIN["side"] + SLOTS * P + 10  # the broken-glass track at the side
TRACK_W = 70
SCALE = ", ".join(f"{k}: {v}" for k, v in ORNAMENT_BONUS.items() if v)  # "4: 10, 3: 6, 2: 3"
SIZES = {
    "side": (TRACK_X + TRACK_W + 18, HEIGHT),
    "below": (2 * MARGIN["below"] + SLOTS * P, HEIGHT + 64),
}


def board(pen: Pen, p: int, track: str = "side") -> list[str]:
    """Seat ``p``'s palace board at the origin, ``SIZES[track]`` large."""
    return _Board(pen, p, track).draw()


class _Board:
    """The drawing of one board: its seat, where its track stands, its left margin."""

    def __init__(self, pen: Pen, p: int, track: str):
        self.pen = pen
        self.state = pen.state
        self.p = p
        self.track = track
        self.m = MARGIN[track]
        self.w, self.h = SIZES[track]

    def x(self, slot: int) -> float:
        """The left edge of a slot's column."""
        return self.m + slot * P

    def draw(self) -> list[str]:
        to_move = self.state.current_player() == self.p
        out = [
            f'<rect x="0" y="0" width="{self.w}" height="{self.h}" rx="{self.m / 2 + 8}" '
            f'fill="{STONE}" stroke="{GOLD if to_move else "#9c7a4a"}" '
            f'stroke-width="{6 if to_move else 3}"/>'
        ]
        out += self._header()
        for slot in range(SLOTS):
            out += self._strip(slot)
        out += self._glazier()
        out += self._keep_choices()
        for slot in range(SLOTS):
            out.append(self._window(slot))
        out += self._ornaments() if self.state.game.options["side"] == "A" else self._side_b()
        out.append(self._track())
        return out

    def _header(self) -> list[str]:
        pen, p, state = self.pen, self.p, self.state
        points = state.points[p]
        name = pen.ntr(
            "{name}: {points} point",
            "{name}: {points} points",
            points,
            name=pen.who(p),
            points=points,
        )
        out = [f'<circle cx="24" cy="24" r="10" fill="{SEATS[p % len(SEATS)]}" stroke="{LEAD}"/>']
        x: float = self.w - 14
        if state.current_player() == p:
            words = "\u25b6 " + pen.tr("to move")
            size = fit(words, 130, 18, True)
            out.append(text(x, 31, words, size, "end", fill="#8a5a00", weight="bold"))
            x -= 0.64 * size * len(unescape(words)) + 10
        if state.tile == p:
            title = pen.tr("starting player tile")
            out.append(f"<g><title>{title}</title>{first_tile(x - 30, 8, 30)}</g>")
            x -= 40
        out.append(text(42, 31, name, fit(name, x - 48, 21, True), "start", weight="bold"))
        return out

    def _strip(self, slot: int) -> list[str]:
        """The strip in ``slot``: its icon, its 5 spaces, dimmed when left of the glazier, and
        the strip's clickable group over it."""
        pen, p, state = self.pen, self.p, self.state
        x = self.x(slot)
        i = p * SLOTS + slot
        out = [text(x + P / 2, GLAZ_Y + 15, str(slot + 1), 15, fill="#6b5a3e", weight="bold")]
        present = state.strips[i] >= 0
        if present:
            out.append(
                f'<rect x="{x + 2}" y="{ICON_Y}" width="{P - 4}" height="{STRIP_H}" rx="6" '
                f'fill="#e4d3ad" stroke="#a88b58" stroke-width="1.5"/>'
            )
            comps = state.game.components
            back = comps.strips[state.strips[i]][1 - state.sides[i]]
            for k, c in enumerate(back):  # rules 1.4: the icon shows the other side
                color = "#b9b2a6" if c == JOKER else FILL[c]
                out.append(
                    f'<rect x="{x + 3.5 + k * 8.8:.1f}" y="{ICON_Y + 3}" width="7.5" height="9" '
                    f'rx="1.5" fill="{color}" stroke="{LEAD}" stroke-width="0.6"/>'
                )
            pattern = state.pattern(p, slot)
            for k in range(SPACES):
                y = STRIP_Y + k * P + (P - S) / 2
                c = state.cells[i * SPACES + k]
                if c >= 0:
                    look = glass(x + 5, y, S, c, pen)
                else:
                    look = empty_space(x + 5, y, S, pattern[k], pen)
                out.append(
                    f'<g class="space" data-strip="{slot + 1}" data-space="{k + 1}">{look}</g>'
                )
            if slot < state.glazier[p]:  # out of reach (rules 3.2)
                out.append(
                    f'<rect x="{x + 2}" y="{ICON_Y}" width="{P - 4}" '
                    f'height="{STRIP_H}" rx="6" fill="{STONE}" '
                    f'fill-opacity="0.55"/>'
                )
            title = pen.tr("strip {strip}", strip=slot + 1)
        else:
            out.append(
                f'<rect x="{x + 4}" y="{ICON_Y + 2}" width="{P - 8}" '
                f'height="{STRIP_H - 4}" rx="6" fill="none" '
                f'stroke="#c4b594" stroke-width="1.5" stroke-dasharray="5,4"/>'
            )
            title = pen.tr("strip {strip} (removed)", strip=slot + 1)
        attrs = {"seat": str(p), "strip": str(slot + 1)}
        out.append(group(attrs, title, hit(x, ICON_Y, P, STRIP_H), cls="strip"))
        return out

    def _glazier(self) -> list[str]:
        pen, p, state = self.pen, self.p, self.state
        slot = state.glazier[p]
        x = self.x(slot) + P / 2
        y = GLAZ_Y
        color = SEATS[p % len(SEATS)]
        pawn = (
            f'<polygon class="glazier" points="{x - 11},{y + 48} {x + 11},{y + 48} '
            f'{x + 5},{y + 31} {x - 5},{y + 31}" fill="{color}" stroke="{LEAD}" '
            f'stroke-width="1.5"/>'
            f'<circle cx="{x}" cy="{y + 26}" r="6.5" fill="{color}" stroke="{LEAD}" '
            f'stroke-width="1.5"/>'
        )
        title = pen.tr("glazier above strip {strip}", strip=slot + 1)
        attrs = {"seat": str(p), "glazier": "back"}
        return [group(attrs, title, hit(self.x(slot), GLAZ_Y, P, P), pawn, cls="glazier-pawn")]

    def _keep_choices(self) -> list[str]:
        """While ``p`` chooses the piece to keep (rules 3.3b), each piece of the completed strip."""
        pen, p, state = self.pen, self.p, self.state
        if state.kind != KEEPING or state.player != p or state.deals:
            return []
        slot = state.keep_slot
        base = (p * SLOTS + slot) * SPACES
        x = self.x(slot)
        out = [
            f'<rect class="completed" x="{x + 1}" y="{STRIP_Y - 2}" width="{P - 2}" '
            f'height="{SPACES * P + 4}" rx="8" fill="none" stroke="{GOLD}" stroke-width="4"/>',
        ]
        for k in range(SPACES):
            c = state.cells[base + k]
            if c < 0:
                continue
            title = pen.tr("keep {color} for window {window}", color=pen.color(c), window=slot + 1)
            attrs = {"seat": str(p), "keep": pen.letter(c)}
            out.append(group(attrs, title, hit(self.x(slot), STRIP_Y + k * P, P, P), cls="keep"))
        return out

    def _window(self, slot: int) -> str:
        pen, p, state = self.pen, self.p, self.state
        x = self.x(slot)
        value = state.game.window_values[slot]
        body = [
            f'<path d="M{x + 2},{PANE_Y + FRAMES * P - 2} V{PANE_Y - 2} '
            f"A{P / 2 - 2},{PANE_Y - WIN_Y} 0 0 1 {x + P - 2},{PANE_Y - 2} "
            f'V{PANE_Y + FRAMES * P - 2} Z" fill="#cfc6b3" stroke="{LEAD}" stroke-width="2"/>',
            f'<circle cx="{x + P / 2}" cy="{PANE_Y - 6}" r="4.5" fill="#f3ead6" stroke="{LEAD}"/>',
        ]
        names = []
        for frame in range(FRAMES):
            c = state.windows[(p * SLOTS + slot) * FRAMES + frame]
            y = PANE_Y + frame * P + 2
            if c >= 0:
                body.append(glass(x + 5, y, S, c, pen))
                names.append(pen.color(c))
            else:
                body.append(
                    f'<rect x="{x + 5}" y="{y}" width="{S}" height="{S}" rx="4" fill="#eef3f4" '
                    f'stroke="#8d9a9e" stroke-width="1.5" stroke-dasharray="4,3"/>'
                )
        cy = VALUE_Y + 15
        body.append(
            f'<circle cx="{x + P / 2}" cy="{cy}" r="13" fill="#7a5230" stroke="{LEAD}"/>'
            + text(x + P / 2, cy + 6, str(value), 17, fill="#fff8e7", weight="bold")
        )
        title = pen.tr("window {window}, value {value}", window=slot + 1, value=value)
        if names:
            title += ": " + ", ".join(escape(n) for n in names)
        attrs = {"seat": str(p), "window": str(slot + 1)}
        shape = hit(x, WIN_Y, P, VALUE_Y + 30 - WIN_Y)
        return group(attrs, title, shape, "".join(body), cls="window")

    def _frame_center(self, frame: int) -> tuple[float, float]:
        slot, half = divmod(frame, FRAMES)
        return self.x(slot) + P / 2, PANE_Y + half * P + 2 + S / 2

    def _ornaments(self) -> list[str]:
        """Side A: each ornament among its 4 frames, and what it scores now (rules 5.2)."""
        pen, p, state = self.pen, self.p, self.state
        out = []
        ornaments = state.game.components.ornaments
        for ornament, filled in zip(ornaments, state.ornament_frames(p), strict=True):
            xs, ys = zip(*(self._frame_center(f) for f in ornament), strict=True)
            cx, cy = sum(xs) / 4, sum(ys) / 4
            points = ORNAMENT_BONUS[filled]
            fill = GOLD if filled == 4 else "#e9d79b"
            title = pen.tr(
                "ornament: frames filled {filled}/4, worth {points} ({scale})",
                filled=filled,
                points=points,
                scale=SCALE,
            )
            r = 14
            out.append(
                f'<g class="ornament"><title>{title}</title>'
                f'<path d="M{cx},{cy - r} L{cx + r},{cy} L{cx},{cy + r} L{cx - r},{cy} Z" '
                f'fill="{fill}" stroke="{LEAD}" stroke-width="2"/>'
                f'<circle cx="{cx}" cy="{cy}" r="4" fill="{LEAD}"/>'
                + text(cx, BONUS_Y + 22, f"\u25c6 {filled}/4 \u2192 {points}", 15, fill="#5c4416")
                + "</g>"
            )
        return out

    def _side_b(self) -> list[str]:
        """Side B: complete windows times the pieces of one colour in the windows (rules 5.3)."""
        pen, p, state = self.pen, self.p, self.state
        complete, count = state.window_bonus(p)
        words = pen.tr(
            "complete windows {complete} \u00d7 most of one colour {count} = {points}",
            complete=complete,
            count=count,
            points=complete * count,
        )
        size = fit(words, SLOTS * P - 8, 16)  # longer in French and Portuguese
        return [text(self.m + SLOTS * P / 2, BONUS_Y + 22, words, size, fill="#5c4416")]

    def _track(self) -> str:
        """The broken-glass track with the marker; the group is the target of '>break' moves."""
        pen, p, state = self.pen, self.p, self.state
        values = state.game.components.track
        n = len(values)
        spaces = []
        boxes: list[tuple[float, float, float, float]]  # x, y, width, height of each space
        if self.track == "side":
            x0, y0, w, h = TRACK_X, GLAZ_Y, TRACK_W, BONUS_Y + 30 - GLAZ_Y
            icon = _shard(x0 + w / 2, y0 + 20)
            pitch = (h - 44) / n
            boxes = [(x0 + 4, y0 + 44 + k * pitch, w - 8, pitch - 5) for k in range(n)]
        else:
            x0, y0, w, h = self.m, HEIGHT - 4, SLOTS * P, 62
            icon = text(x0 + 4, y0 + 16, pen.tr("broken glass"), 15, "start", fill="#7b1d14")
            pitch = w / n
            boxes = [(x0 + k * pitch + 2, y0 + 22, pitch - 4, 36) for k in range(n)]
        seat = SEATS[p % len(SEATS)]
        for k, (bx, by, bw, bh) in enumerate(boxes):
            last = k == n - 1
            here = k == state.track[p]
            spaces.append(
                f'<rect class="glass-space" x="{bx:.1f}" y="{by:.1f}" width="{bw:.1f}" '
                f'height="{bh:.1f}" rx="5" fill="{"#f2c9c2" if last else "#f8f3ea"}" '
                f'stroke="{"#a33" if last else "#a89a80"}" stroke-width="1.5"/>'
            )
            # the marker: at the left of a tall space; behind the value of a narrow one
            mx = bx + 13 if self.track == "side" else bx + bw / 2
            if here:
                spaces.append(
                    f'<circle class="glass-marker" cx="{mx:.1f}" cy="{by + bh / 2:.1f}" '
                    f'r="{10 if self.track == "side" else 16}" fill="{seat}" stroke="#fff" '
                    f'stroke-width="2"/>'
                )
            if self.track == "side":
                spaces.append(
                    text(bx + bw - 6, by + bh / 2 + 6, str(values[k]), 16, "end", "#7b1d14")
                )
            else:
                ink, weight = ("#fff", "bold") if here else ("#7b1d14", "normal")
                spaces.append(
                    text(mx, by + bh / 2 + 6, str(values[k]), 16, fill=ink, weight=weight)
                )
        points = values[state.track[p]]
        title = pen.tr("broken glass {points}", points=points)
        if state.lost[p]:
            title += " (" + pen.tr("lost {lost}", lost=state.lost[p]) + ")"
        attrs = {"seat": str(p), "strip": "break"}
        return group(attrs, title, hit(x0, y0, w, h), icon + "".join(spaces), cls="glass-track")


def _shard(cx: float, cy: float) -> str:
    """A small broken pane: the track's sign."""
    return (
        f'<rect x="{cx - 14}" y="{cy - 14}" width="28" height="28" rx="3" fill="#dfe9ec" '
        f'stroke="{LEAD}" stroke-width="2"/>'
        f'<path d="M{cx - 14},{cy - 4} L{cx - 2},{cy} L{cx + 3},{cy - 14} M{cx - 2},{cy} '
        f'L{cx + 4},{cy + 5} L{cx + 14},{cy + 2} M{cx + 4},{cy + 5} L{cx - 3},{cy + 14}" '
        f'fill="none" stroke="{LEAD}" stroke-width="1.5"/>'
    )
