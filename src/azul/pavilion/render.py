"""Text rendering of a Summer Pavilion position for terminals."""

from __future__ import annotations

from collections.abc import Collection

from azul.core.ansi import Paint, painter, plain
from azul.core.api import CHANCE, TERMINAL
from azul.i18n import N_, _, ngettext
from azul.pavilion import data
from azul.pavilion.draw.svg import FILL, INK
from azul.pavilion.state import FIRST_PLAYER, PavilionState

NC = data.NUM_COLORS
PAINT = painter([FILL[c] for c in range(NC)], [INK[c] for c in range(NC)])


def tiles(counts: list[int], paint: Paint = plain) -> str:
    """Colour counts as '3P 1G', or '-' when empty."""
    parts = [f"{n}{paint(data.COLOR_LETTERS[c], c)}" for c, n in enumerate(counts) if n]
    return " ".join(parts) if parts else "-"


def _board_lines(state: PavilionState, p: int, paint: Paint) -> list[str]:
    """One line per star: a colour letter on covered spaces, the cost (a digit) on empty ones."""
    cost = state.game.board.cost
    grey = state.game.board.grey
    labels = [
        data.STAR_LETTERS[star] + " " + _(data.star_names(grey)[star])
        for star in range(data.NUM_STARS)
    ]
    width = max(10, *map(len, labels))
    lines = [f"    {_('star'):<{width}}  1 2 3 4 5 6"]
    for star in range(data.NUM_STARS):
        cells = []
        for i in range(6):
            sp = star * 6 + i
            c = state.cells[p * data.NUM_SPACES + sp]
            cells.append(paint(data.COLOR_LETTERS[c], c) if c >= 0 else str(cost[sp]))
        lines.append(f"    {labels[star]:<{width}}  " + " ".join(cells))
    return lines + _structure_lines(state, p)


KINDS = {"pillar": N_("pillars"), "statue": N_("statues"), "window": N_("windows")}


def _structure_lines(state: PavilionState, p: int) -> list[str]:
    """One line per kind of structure (rules 5.6): for each, named by the letter of its outer
    star, how many of the spaces around it are covered, or "done" once it is surrounded."""
    cells = state.cells[p * data.NUM_SPACES : (p + 1) * data.NUM_SPACES]
    lines = []
    for kind, word in KINDS.items():
        parts = []
        for name, star, spaces, _reward in data.STRUCTURES:
            if name != kind:
                continue
            covered = sum(cells[sp] >= 0 for sp in spaces)
            shown = _("done") if covered == len(spaces) else f"{covered}/{len(spaces)}"
            parts.append(f"{data.STAR_LETTERS[star]} {shown}")
        reward = next(r for name, _s, _sp, r in data.STRUCTURES if name == kind)
        label = f"{_(word)} (+{reward})"
        lines.append(f"    {label:<14}" + "  ".join(parts))
    return lines


def render_text(
    state: PavilionState, color: bool = False, boards: Collection[int] | None = None
) -> str:
    game = state.game
    paint = PAINT if color else plain
    w = state.wild()
    head = _(
        "Azul: Summer Pavilion ({board} board) - round {round} of {rounds}, wild colour "
        "{color} ({letter})"
    ).format(
        board=_(game.options["board"]),
        round=state.round,
        rounds=data.ROUNDS,
        color=_(data.COLORS[w]),
        letter=paint(data.COLOR_LETTERS[w], w),
    )
    out = [head]
    cp = state.current_player()
    if cp == TERMINAL:
        winners = state.winners()
        over = ngettext(
            "Game over. Winner: seat {seats} with {score}",
            "Game over. Winners: seats {seats} with {score}",
            len(winners),
        )
        seats = ", ".join(str(i) for i in winners)
        out.append(over.format(seats=seats, score=max(state.scores())))
    elif cp == CHANCE:
        if state.deals[0] == FIRST_PLAYER:
            out.append(_("Chance: drawing the first player"))
        else:
            out.append(_("Chance: drawing a tile from the bag"))
    else:
        out.append(
            _("Seat {seat} to move: {decision}").format(seat=cp, decision=_(state.decision()))
        )
        if state.owed:
            owed = ngettext(
                "({n} bonus tile from the supply)", "({n} bonus tiles from the supply)", state.owed
            )
            out[-1] += " " + owed.format(n=state.owed)
    facs = []
    for f in range(1, game.factories + 1):
        facs.append(f"F{f}[{tiles(state.sources[f * NC : (f + 1) * NC], paint)}]")
    out.append(_("Factories:") + " " + "  ".join(facs))
    token = "  + " + _("start player token") if state.token < 0 else ""
    centre, supply = _("Centre:"), _("Supply:")
    out.append(f"{centre:<10} {tiles(state.sources[:NC], paint)}{token}")
    counts = _("bag {bag}, tower {tower}").format(bag=sum(state.bag), tower=sum(state.tower))
    out.append(f"{supply:<10} {tiles(state.supply, paint)}    {counts}")
    for p in range(game.players):
        marks = []
        if state.token == p:
            marks.append(_("start player token"))
        if state.passed >> p & 1:
            marks.append(_("passed"))
        if p == cp:
            marks.append(_("to move"))
        extra = f"  ({', '.join(marks)})" if marks else ""
        hand = state.hands[p * NC : (p + 1) * NC]
        kept = tiles(state.kept[p * NC : (p + 1) * NC], paint)
        line = _("Seat {seat}: score {score}  hand {hand}  kept {kept}")
        out.append(line.format(seat=p, score=state.points[p], hand=tiles(hand, paint), kept=kept))
        out[-1] += extra
        if boards is None or p in boards:
            out.extend(_board_lines(state, p, paint))
    return "\n".join(out)
