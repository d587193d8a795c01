"""The final scores explained in the terminal: a row per scored item, a column per seat."""

from __future__ import annotations

import azul
from azul.i18n import N_, _

# the items of the final scores, in the order the rules score them
ITEMS = ("play", "star", "number", "leftovers", "broken", "ornaments", "windows")


def _row_label(item: str, detail: str) -> tuple[str, bool]:
    """A final-score item's row label, and whether its detail names the row (a star, a number)
    or only explains the points (how many pieces, which track space)."""
    if item == "star":
        return f"{_('star')}: {_(detail)}", True
    if item == "number":
        return f"{_('all spaces')} {detail}", True
    labels = {
        "play": N_("during the game"),
        "leftovers": N_("leftover pieces"),
        "broken": N_("broken glass"),
        "ornaments": N_("ornaments"),
        "windows": N_("windows"),
    }
    return _(labels.get(item, item)), False


def score_table(state: azul.State) -> str | None:
    """The final scores explained, a row per item and a column per seat (as in the browser);
    None when the state does not keep its breakdown."""
    breakdown = state.score_breakdown()
    if breakdown is None:
        return None
    rows: dict[str, list[str]] = {}
    entries = sorted(  # whichever seat has the item
        ((line, seat) for seat, items in enumerate(breakdown) for line in items),
        key=lambda entry: ITEMS.index(entry[0]["item"]) if entry[0]["item"] in ITEMS else 99,
    )
    for line, seat in entries:
        label, names = _row_label(line["item"], line["detail"])
        cells = rows.setdefault(label, [""] * len(breakdown))
        points, detail = line["points"], line["detail"]
        cells[seat] = str(points) if names or not detail else f"{points} ({detail})"
    head = [f"{_('seat')} {seat}" for seat in range(len(breakdown))]
    total = [str(score) for score in state.scores()]
    table = [["", *head], *([label, *cells] for label, cells in rows.items()), [_("total"), *total]]
    widths = [max(len(row[i]) for row in table) for i in range(len(head) + 1)]
    lines = []
    for label, *cells in table:
        cells = [cell.rjust(width) for cell, width in zip(cells, widths[1:], strict=True)]
        lines.append("  ".join([label.ljust(widths[0]), *cells]))
    lines.insert(-1, "-" * len(lines[0]))
    return "\n".join(lines)


def outcome(state: azul.State) -> str:
    """The final scores, explained; or, for an unfinished game, the scores so far."""
    scores = ", ".join(
        _("seat {seat}: {score}").format(seat=i, score=s) for i, s in enumerate(state.scores())
    )
    if not state.is_terminal():
        return _("the game is unfinished; scores so far: {scores}").format(scores=scores)
    final = _("final scores: {scores}").format(scores=scores)
    table = score_table(state)
    return final if table is None else table + "\n" + final
