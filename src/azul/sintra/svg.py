"""SVG drawing of a Sintra position: factories, centre, round indicator and every palace board.

Pieces show their colour and letter; empty pattern spaces show their colour faintly (a joker
space is grey with a star). Elements carry ``data-`` attributes (seat, strip, source, colour)
for clients that make them clickable.
"""

from __future__ import annotations

from html import escape

from azul import i18n
from azul.core.svgkit import pattern_defs, tile
from azul.sintra.actions import BREAK, KEEP, PLAY
from azul.sintra.data import JOKER, NUM_COLORS, ROUNDS, SLOTS, SPACES
from azul.sintra.state import SintraState

FILL = ["#e75480", "#e67e22", "#f1c40f", "#2e86de", "#f4f4f4"]  # pink orange yellow blue white
INK = ["#fff", "#000", "#000", "#fff", "#000"]
CELL = 20
BOARD_W = SLOTS * (CELL + 8) + 20


def _piece(x: float, y: float, c: int, letters: tuple[str, ...], attrs: str, patterns: bool) -> str:
    attrs = f'{attrs} data-color="{letters[c]}"'
    pattern = c if patterns else None
    return tile(x, y, CELL, FILL[c % len(FILL)], INK[c % len(INK)], letters[c], attrs, pattern)


def _board(state: SintraState, p: int, ox: float, oy: float, patterns: bool, tr, ntr) -> list[str]:
    letters = state.game.components.letters
    track = state.game.components.track
    values = state.game.window_values
    out = [
        f'<g class="board" data-seat="{p}">',
        f'<rect x="{ox}" y="{oy}" width="{BOARD_W}" height="{13 * CELL}" rx="8" '
        f'fill="#eef3f8" stroke="#999"/>',
        f'<text x="{ox + 8}" y="{oy + 15}" font-size="13">'
        + escape(
            ntr(
                "seat {seat}: {points} point", "seat {seat}: {points} points", state.points[p]
            ).format(seat=p, points=state.points[p])
        )
        + "</text>",
        f'<g data-strip="break"><rect x="{ox + BOARD_W - 104}" y="{oy + 3}" width="98" '
        f'height="16" rx="4" fill="#fff" stroke="#c0392b"/><text x="{ox + BOARD_W - 55}" '
        f'y="{oy + 15}" font-size="11" text-anchor="middle">'
        + escape(tr("broken glass {points}").format(points=track[state.track[p]]))
        + "</text></g>",
    ]
    for slot in range(SLOTS):
        x = ox + 10 + slot * (CELL + 8)
        i = p * SLOTS + slot
        if slot == state.glazier[p]:
            out.append(
                f'<polygon class="glazier" points="{x + 4},{oy + 24} {x + CELL - 4},'
                f'{oy + 24} {x + CELL / 2},{oy + 34}" fill="#333"/>'
            )
        out.append(
            f'<text x="{x + CELL / 2}" y="{oy + 48}" font-size="11" '
            f'text-anchor="middle">{slot + 1}</text>'
        )
        if state.strips[i] >= 0:
            pattern = state.pattern(p, slot)
            for k in range(SPACES):
                y = oy + 54 + k * (CELL + 2)
                c = state.cells[i * SPACES + k]
                attrs = f'class="space" data-strip="{slot + 1}" data-space="{k + 1}"'
                if c >= 0:
                    out.append(_piece(x, y, c, letters, attrs, patterns))
                elif pattern[k] == JOKER:
                    out.append(
                        f'<g {attrs}><rect x="{x}" y="{y}" width="{CELL}" '
                        f'height="{CELL}" fill="#bbb" stroke="#666"/><text x="{x + 10}" '
                        f'y="{y + 14}" font-size="12" text-anchor="middle">*</text></g>'
                    )
                else:
                    out.append(
                        f'<g {attrs}><rect x="{x}" y="{y}" width="{CELL}" '
                        f'height="{CELL}" fill="{FILL[pattern[k]]}" fill-opacity="0.3" '
                        f'stroke="#666"/><text x="{x + 10}" y="{y + 14}" font-size="10" '
                        f'text-anchor="middle" fill="#555">'
                        f"{letters[pattern[k]].lower()}</text></g>"
                    )
        for frame in range(2):
            y = oy + 54 + SPACES * (CELL + 2) + 8 + frame * (CELL + 2)
            c = state.windows[i * 2 + frame]
            if c >= 0:
                out.append(_piece(x, y, c, letters, f'data-window="{slot + 1}"', patterns))
            else:
                out.append(
                    f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#fff" '
                    f'stroke="#888" stroke-dasharray="3,2" data-window="{slot + 1}"/>'
                )
        out.append(
            f'<text x="{x + CELL / 2}" y="{oy + 12.6 * CELL}" font-size="11" '
            f'text-anchor="middle">{values[slot]}</text>'
        )
    out.append("</g>")
    return out


def render_svg(state: SintraState, patterns: bool = False, lang: str | None = None) -> str:
    """The whole position as one SVG document; ``patterns`` lays a pattern per colour over the
    pieces (colour-blind mode); its words are in ``lang`` (default: the current language)."""
    tr = i18n.in_language(lang) if lang else i18n._
    ntr = i18n.ngettext_in(lang) if lang else i18n.ngettext
    title = tr("Stained Glass of Sintra, round {round}")
    game = state.game
    comps = game.components
    n = game.players
    width = max(n * (BOARD_W + 10) + 10, 640)
    height = 110 + 13 * CELL + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif">',
        "<title>" + escape(title.format(round=state.round)) + "</title>",
        '<text x="10" y="18" font-size="14">'
        + escape(
            tr("Round {round} of {rounds} - {decision}").format(
                round=state.round, rounds=ROUNDS, decision=tr(state.decision())
            )
            + (" - " + tr("printed values provisional") if comps.provisional else "")
        )
        + "</text>",
    ]
    if patterns:
        out.append(pattern_defs(INK[:NUM_COLORS]))
    x = 10
    for f in range(1, game.factories + 1):
        out.append(
            f'<circle cx="{x + 26}" cy="50" r="24" fill="#fff" stroke="#999" data-source="F{f}"/>'
        )
        pieces = [c for c in range(NUM_COLORS) for _ in range(state.sources[f * NUM_COLORS + c])]
        for k, c in enumerate(pieces):
            out.append(
                _piece(
                    x + 5 + (k % 2) * (CELL + 1),
                    29 + (k // 2) * (CELL + 1),
                    c,
                    comps.letters,
                    f'data-source="F{f}"',
                    patterns,
                )
            )
        x += 58
    centre, rounds = escape(tr("centre")), escape(tr("rounds"))
    out.append(f'<text x="10" y="98" font-size="12">{centre}</text>')
    cx = 60
    for c in range(NUM_COLORS):
        for _ in range(state.sources[c]):
            out.append(_piece(cx, 84, c, comps.letters, 'data-source="C"', patterns))
            cx += CELL + 2
    out.append(f'<text x="{width - 230}" y="98" font-size="12">{rounds}</text>')
    for r, c in enumerate(state.indicator):
        if c >= 0:
            out.append(
                _piece(
                    width - 180 + r * (CELL + 2),
                    84,
                    c,
                    comps.letters,
                    f'data-round="{r + 1}"',
                    patterns,
                )
            )
    for p in range(n):
        out += _board(state, p, 10 + p * (BOARD_W + 10), 110, patterns, tr, ntr)
    out.append("</svg>")
    return "\n".join(out)


def action_targets(state: SintraState, action: int) -> list[dict[str, str]]:
    """What a person clicks on the drawing to choose ``action``, in order: the pieces of one
    colour in a factory or the centre, then a strip of their board or its broken-glass box.
    Walking back and keeping a piece are chosen from a list."""
    kind, source, color, target = state.game.actions.decode[action]
    if kind == KEEP or kind != PLAY:
        return []
    letter = state.game.components.letters[color]
    strip = "break" if target == BREAK else str(target + 1)
    return [
        {"source": "C" if source == 0 else f"F{source}", "color": letter},
        {"seat": str(state.player), "strip": strip},
    ]
