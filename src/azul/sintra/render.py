"""Text rendering of a Sintra position for terminals."""

from __future__ import annotations

from collections.abc import Collection

from azul.core.ansi import painter, plain
from azul.core.api import CHANCE, TERMINAL
from azul.i18n import N_, _, ngettext
from azul.sintra.data import JOKER, NUM_COLORS, ORNAMENT_BONUS, ROUNDS, SLOTS, SPACES
from azul.sintra.draw.svg import FILL, INK
from azul.sintra.state import WINDOW_FRAMES, SintraState

NC = NUM_COLORS
# the provenance of the shipped components file, translated when shown
SHIPPED_PROVENANCE = N_("provisional: project defaults, not read off a physical copy")
PAINT = painter(FILL, INK)


def render_text(
    state: SintraState, color: bool = False, boards: Collection[int] | None = None
) -> str:
    game = state.game
    comps = game.components
    paint = PAINT if color else plain
    letters = [paint(letter, c) for c, letter in enumerate(comps.letters)]

    def pieces(counts: list[int]) -> str:
        parts = [f"{n}{letters[c]}" for c, n in enumerate(counts) if n]
        return " ".join(parts) if parts else "-"

    head = _("Azul: Stained Glass of Sintra (side {side}) - round {round} of {rounds}")
    out = [head.format(side=game.options["side"], round=state.round, rounds=ROUNDS)]
    if comps.provisional:
        note = _("Note: the printed values in use are provisional ({provenance}).")
        out.append(note.format(provenance=_(comps.provenance)))
    ind = " ".join(letters[c] if c >= 0 else "." for c in state.indicator)
    top = state.round_color()
    bonus = _(comps.colors[top]) if top >= 0 else "-"
    out.append(
        _("Round indicator (I..VI): {pieces}   bonus colour: {color}").format(
            pieces=ind, color=bonus
        )
    )
    cp = state.current_player()
    if cp == TERMINAL:
        winners = state.winners()
        over = ngettext(
            "Game over. Winner: seat {seats}", "Game over. Winners: seats {seats}", len(winners)
        )
        out.append(over.format(seats=", ".join(str(i) for i in winners)))
    elif cp == CHANCE:
        out.append(_("Chance: drawing"))
    elif state.decision() == "keep":
        line = _("Seat {seat} to choose the piece to keep from strip {strip}")
        out.append(line.format(seat=cp, strip=state.keep_slot + 1))
    else:
        out.append(_("Seat {seat} to play").format(seat=cp))
    facs = [
        f"F{f}[{pieces(state.sources[f * NC : (f + 1) * NC])}]"
        for f in range(1, game.factories + 1)
    ]
    out.append(_("Factories:") + " " + "  ".join(facs))
    tile = "  + " + _("starting player tile") if state.tile < 0 else ""
    centre = _("Centre:")
    out.append(f"{centre:<10} {pieces(state.sources[:NC])}{tile}")
    out.append(_("bag {bag}, tower {tower}").format(bag=sum(state.bag), tower=sum(state.tower)))
    values = game.window_values
    glazier, strip, value = _("glazier"), _("strip"), _("value")
    windows = _("window 1"), _("window 2")
    # the board's columns start after the longest label, whatever the language
    width = max(10, *(len(label) + 2 for label in (glazier, strip, value, *windows)))
    indent = " " * (4 + width)
    for p in range(game.players):
        marks = []
        if state.tile == p:
            marks.append(_("starting player tile"))
        if p == cp:
            marks.append(_("to move"))
        extra = f"  ({', '.join(marks)})" if marks else ""
        track = comps.track[state.track[p]]
        line = _("Seat {seat}: score {score}  broken glass {track} (lost {lost})")
        out.append(line.format(seat=p, score=state.points[p], track=track, lost=state.lost[p]))
        out[-1] += extra
        if boards is not None and p not in boards:
            continue
        g = state.glazier[p]
        pawn = "   ".join("v" if s == g else " " for s in range(SLOTS)).rstrip()
        out.append(f"    {glazier:<{width}}" + pawn)
        out.append(f"    {strip:<{width}}" + "   ".join(str(s + 1) for s in range(SLOTS)))
        for k in range(SPACES):
            row = []
            for slot in range(SLOTS):
                i = p * SLOTS + slot
                if state.strips[i] < 0:
                    row.append(" ")
                    continue
                c = state.cells[i * SPACES + k]
                want = state.pattern(p, slot)[k]
                if c >= 0:
                    row.append(letters[c])
                else:
                    row.append("*" if want == JOKER else comps.letters[want].lower())
            out.append(indent + "   ".join(row))
        w = p * WINDOW_FRAMES
        for frame, label in enumerate(windows):
            row = [
                letters[state.windows[w + 2 * s + frame]]
                if state.windows[w + 2 * s + frame] >= 0
                else "."
                for s in range(SLOTS)
            ]
            out.append(f"    {label:<{width}}" + "   ".join(row))
        out.append(f"    {value:<{width}}" + "   ".join(str(v) for v in values))
        out.append("    " + _palace_line(state, p))
    out.append(_("(empty spaces show their colour in lower case, * a joker space)"))
    return "\n".join(out)


def _palace_line(state: SintraState, p: int) -> str:
    """What seat ``p``'s palace board pays now. Side A: each ornament by the windows it sits
    between, its frames filled out of 4 and its points (rules 5.2); side B: the completed
    windows times the pieces of the best colour (rules 5.3)."""
    if state.game.options["side"] == "B":
        complete, count = state.window_bonus(p)
        line = _("complete windows {complete} \u00d7 most of one colour {count} = {points}")
        return line.format(complete=complete, count=count, points=complete * count)
    parts = []
    ornaments = state.game.components.ornaments
    for ornament, filled in zip(ornaments, state.ornament_frames(p), strict=True):
        windows = "+".join(str(w + 1) for w in sorted({f // 2 for f in ornament}))
        parts.append(f"{windows}: {filled}/{len(ornament)} \u2192 {ORNAMENT_BONUS[filled]}")
    return f"{_('ornaments')}  " + "   ".join(parts)
