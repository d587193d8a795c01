"""Pieces shared by the SVG drawings: a coloured tile with its letter, and the colour-blind
patterns (a different line pattern per colour, laid over the tile's colour)."""

from __future__ import annotations

# one pattern shape per colour index: lines / \ - |, dots, crosses, checks
_SHAPES = (
    '<path d="M0,8 L8,0" stroke-width="1.6"/>',
    '<path d="M0,0 L8,8" stroke-width="1.6"/>',
    '<path d="M0,4 L8,4" stroke-width="1.6"/>',
    '<path d="M4,0 L4,8" stroke-width="1.6"/>',
    '<circle cx="4" cy="4" r="1.6" stroke="none"/>',
    '<path d="M0,0 L8,8 M8,0 L0,8" stroke-width="1"/>',
    '<path d="M0,0 H4 V4 H8 V8 H4 V4 H0 Z" stroke="none" fill-opacity="0.5"/>',
)


def pattern_defs(inks: list[str]) -> str:
    """``<defs>`` with pattern ``azul-pat-C`` for each colour index C, drawn in its ink."""
    out = ["<defs>"]
    for c, ink in enumerate(inks):
        shape = _SHAPES[c % len(_SHAPES)]
        out.append(
            f'<pattern id="azul-pat-{c}" width="8" height="8" patternUnits="userSpaceOnUse">'
            f'<g stroke="{ink}" fill="{ink}" stroke-opacity="0.55" fill-opacity="0.55">'
            f"{shape}</g></pattern>"
        )
    out.append("</defs>")
    return "".join(out)


def tile(
    x: float,
    y: float,
    size: float,
    fill: str,
    ink: str,
    letter: str,
    attrs: str = "",
    pattern: int | None = None,
) -> str:
    """A square tile of colour ``fill`` showing ``letter``; with ``pattern`` (a colour index)
    the colour's pattern is laid over it."""
    over = (
        ""
        if pattern is None
        else f'<rect x="{x:.1f}" y="{y:.1f}" width="{size}" height="{size}" rx="3" '
        f'fill="url(#azul-pat-{pattern})"/>'
    )
    return (
        f'<g {attrs}><rect x="{x:.1f}" y="{y:.1f}" width="{size}" height="{size}" rx="3" '
        f'fill="{fill}" stroke="#333"/>{over}<text x="{x + size / 2:.1f}" '
        f'y="{y + size * 0.72:.1f}" font-size="{size * 0.6:.0f}" text-anchor="middle" '
        f'fill="{ink}" font-weight="bold">{letter}</text></g>'
    )
