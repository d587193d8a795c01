"""SVG drawing of a Sintra position: factories, centre, round indicator and every palace board.

Pieces show their colour and letter; empty pattern spaces show their colour faintly (a joker
space is grey with a star). Elements carry ``data-`` attributes (seat, strip, source, colour)
for clients that make them clickable.
"""

from __future__ import annotations

from html import escape

from azul.sintra.data import JOKER, NUM_COLORS, ROUNDS, SLOTS, SPACES
from azul.sintra.state import SintraState

FILL = ["#e75480", "#e67e22", "#f1c40f", "#2e86de", "#f4f4f4"]  # pink orange yellow blue white
INK = ["#fff", "#000", "#000", "#fff", "#000"]
CELL = 20
BOARD_W = SLOTS * (CELL + 8) + 20


def _piece(x: float, y: float, c: int, letters: tuple[str, ...], attrs: str = "") -> str:
    fill, ink = FILL[c % len(FILL)], INK[c % len(INK)]
    return (
        f'<g {attrs}><rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" rx="3" '
        f'fill="{fill}" stroke="#333"/><text x="{x + CELL / 2}" y="{y + 14}" font-size="12" '
        f'text-anchor="middle" fill="{ink}">{letters[c]}</text></g>'
    )


def _board(state: SintraState, p: int, ox: float, oy: float) -> list[str]:
    letters = state.game.components.letters
    track = state.game.components.track
    values = state.game.window_values
    out = [
        f'<g class="board" data-seat="{p}">',
        f'<rect x="{ox}" y="{oy}" width="{BOARD_W}" height="{13 * CELL}" rx="8" '
        f'fill="#eef3f8" stroke="#999"/>',
        f'<text x="{ox + 8}" y="{oy + 15}" font-size="13">seat {p}: {state.points[p]} points, '
        f"broken glass {track[state.track[p]]}</text>",
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
                    out.append(_piece(x, y, c, letters, attrs))
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
                out.append(_piece(x, y, c, letters, f'data-window="{slot + 1}"'))
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


def render_svg(state: SintraState) -> str:
    """The whole position as one SVG document."""
    game = state.game
    comps = game.components
    n = game.players
    width = max(n * (BOARD_W + 10) + 10, 640)
    height = 110 + 13 * CELL + 20
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif">',
        f"<title>{escape(f'Stained Glass of Sintra, round {state.round}')}</title>",
        f'<text x="10" y="18" font-size="14">Round {state.round} of {ROUNDS} - '
        f"{escape(state.decision())}"
        f"{' - printed values provisional' if comps.provisional else ''}</text>",
    ]
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
                )
            )
        x += 58
    out.append('<text x="10" y="98" font-size="12">centre</text>')
    cx = 60
    for c in range(NUM_COLORS):
        for _ in range(state.sources[c]):
            out.append(_piece(cx, 84, c, comps.letters, 'data-source="C"'))
            cx += CELL + 2
    out.append(f'<text x="{width - 230}" y="98" font-size="12">rounds</text>')
    for r, c in enumerate(state.indicator):
        if c >= 0:
            out.append(
                _piece(width - 180 + r * (CELL + 2), 84, c, comps.letters, f'data-round="{r + 1}"')
            )
    for p in range(n):
        out += _board(state, p, 10 + p * (BOARD_W + 10), 110)
    out.append("</svg>")
    return "\n".join(out)
