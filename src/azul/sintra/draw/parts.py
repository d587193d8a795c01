"""What every part of a Sintra drawing shares: the palette, the pen (language, letters,
patterns), a glass piece with its letter, and the invisible hit shape of clickable groups.

A clickable element is a ``<g>`` carrying ``data-`` attributes whose first child is its hit
shape (``class="hit"``, transparent but catching clicks) and whose second is a ``<title>``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from html import escape, unescape

from azul import i18n
from azul.sintra.state import SintraState

# glass colours by colour id (pink, orange, yellow, blue, white) and the ink of their letters;
# every pair reaches a contrast of 4.5 or more (tests/sintra/test_drawing.py)
FILL = ["#ec6a9c", "#ee8a2c", "#f5cd2a", "#2f6fc4", "#f7f5ee"]
INK = ["#000", "#000", "#000", "#fff", "#000"]
LEAD = "#2b2622"  # the lead between panes
SEATS = ["#b3261e", "#1f7a3a", "#6a2c91", "#3a4750"]  # glaziers and markers, by seat
GOLD = "#c8961e"
STONE = "#f3ead6"
INKS = "#2b2622"  # text


@dataclass(frozen=True)
class Pen:
    """The state being drawn and how: language, colour letters and names, patterns."""

    state: SintraState
    gettext: Callable[[str], str]
    ngettext: Callable[[str, str, int], str]
    patterns: bool
    names: tuple[str, ...] = ()  # the players' names; "seat N" without

    @classmethod
    def of(
        cls, state: SintraState, patterns: bool, lang: str | None, names: list[str] | None = None
    ) -> Pen:
        gettext = i18n.in_language(lang) if lang else i18n._
        ngettext = i18n.ngettext_in(lang) if lang else i18n.ngettext
        return cls(state, gettext, ngettext, patterns, tuple(names or ()))

    def who(self, p: int) -> str:
        """A player's name, not yet escaped (``tr`` escapes what it formats)."""
        if p < len(self.names) and self.names[p]:
            return self.names[p]
        return self.gettext("seat {seat}").format(seat=p)

    def letter(self, c: int) -> str:
        return self.state.game.components.letters[c]

    def color(self, c: int) -> str:
        """The colour's name in the drawing's language."""
        return self.gettext(self.state.game.components.colors[c])

    def tr(self, template: str, **fields: object) -> str:
        """A template translated, formatted and escaped for SVG text."""
        return escape(self.gettext(template).format(**fields))

    def ntr(self, singular: str, plural: str, n: int, **fields: object) -> str:
        """The form of a template that ``n`` needs, translated, formatted and escaped."""
        return escape(self.ngettext(singular, plural, n).format(**fields))


def hit(x: float, y: float, w: float, h: float, rx: float = 6) -> str:
    """The shape a client outlines when its group is clickable; invisible, but catches clicks."""
    return (
        f'<rect class="hit" x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" '
        f'rx="{rx}" fill="#fff" fill-opacity="0"/>'
    )


def group(attrs: dict[str, str], title: str, shape: str, body: str = "", cls: str = "") -> str:
    """A clickable group: its data- attributes, the hit shape first, then its title."""
    data = " ".join(f'data-{k}="{escape(v)}"' for k, v in attrs.items())
    klass = f' class="{cls}"' if cls else ""
    return f"<g{klass} {data}>{shape}<title>{title}</title>{body}</g>"


def text(
    x: float,
    y: float,
    words: str,
    size: float = 16,
    anchor: str = "middle",
    fill: str = INKS,
    weight: str = "normal",
    extra: str = "",
) -> str:
    """Text already escaped, centred on x by default; y is the baseline."""
    bold = f' font-weight="{weight}"' if weight != "normal" else ""
    return (
        f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size:.0f}" text-anchor="{anchor}" '
        f'fill="{fill}"{bold}{extra}>{words}</text>'
    )


def fit(words: str, width: float, size: float, bold: bool = False) -> float:
    """The font size, at most ``size``, at which escaped ``words`` fit in ``width`` (an
    estimate from the average glyph width of sans-serif fonts)."""
    em = 0.64 if bold else 0.58
    return min(size, width / max(1, len(unescape(words))) / em)


def glass(x: float, y: float, s: float, c: int, pen: Pen) -> str:
    """A glass piece of colour ``c`` (size ``s``) with its letter; with patterns the colour's
    pattern lies over the glass and the letter keeps a halo of the glass colour."""
    fill, ink = FILL[c], INK[c]
    r = s * 0.14
    out = [
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{r:.1f}" '
        f'fill="{fill}" stroke="{LEAD}" stroke-width="{max(1.5, s * 0.06):.1f}"/>'
    ]
    if pen.patterns:
        out.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{r:.1f}" '
            f'fill="url(#azul-pat-{c})"/>'
        )
    g = s * 0.16  # a glint in the upper left corner
    out.append(
        f'<path d="M{x + g:.1f},{y + g:.1f}h{s * 0.32:.1f}l{-s * 0.32:.1f},{s * 0.32:.1f}z" '
        f'fill="#fff" fill-opacity="0.45"/>'
    )
    out.append(
        text(
            x + s / 2,
            y + s * 0.7,
            pen.letter(c),
            s * 0.56,
            fill=ink,
            weight="bold",
            extra=f' stroke="{fill}" stroke-width="{s * 0.12:.1f}" paint-order="stroke"',
        )
    )
    return "".join(out)


def first_tile(x: float, y: float, s: float) -> str:
    """The starting-player tile: a dark tile with a gold 1."""
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{s * 0.18:.1f}" '
        f'fill="#27445e" stroke="{GOLD}" stroke-width="2.5"/>'
        + text(x + s / 2, y + s * 0.72, "1", s * 0.62, fill="#f5d77a", weight="bold")
    )


def empty_space(x: float, y: float, s: float, c: int, pen: Pen) -> str:
    """An empty pattern space of colour ``c`` (JOKER: grey with a star): its colour faint and
    its letter in lower case."""
    if c < 0:
        return (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{s * 0.14:.1f}" '
            f'fill="#cfcac0" stroke="#8c857a" stroke-width="1.5"/>'
            + text(x + s / 2, y + s * 0.78, "*", s * 0.75, fill="#5d574e", weight="bold")
        )
    over = ""
    if pen.patterns:
        over = (
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{s * 0.14:.1f}" '
            f'fill="url(#azul-pat-{c})" opacity="0.5"/>'
        )
    return (
        f'<rect x="{x:.1f}" y="{y:.1f}" width="{s:.1f}" height="{s:.1f}" rx="{s * 0.14:.1f}" '
        f'fill="{FILL[c]}" fill-opacity="0.3" stroke="{FILL[c]}" stroke-width="1.5"/>'
        + over
        + text(
            x + s / 2,
            y + s * 0.68,
            pen.letter(c).lower(),
            s * 0.48,
            fill="#3d3a36",
            extra=' stroke="#f7f2e7" stroke-width="3" paint-order="stroke"',
        )
    )
