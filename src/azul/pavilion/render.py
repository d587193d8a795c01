"""Text rendering of a Summer Pavilion position for terminals."""

from __future__ import annotations

from azul.core.ansi import Paint, painter, plain
from azul.core.api import CHANCE, TERMINAL
from azul.pavilion import data
from azul.pavilion.state import FIRST_PLAYER, PavilionState
from azul.pavilion.svg import FILL, INK

NC = data.NUM_COLORS
PAINT = painter([FILL[c] for c in range(NC)], [INK[c] for c in range(NC)])


def tiles(counts: list[int], paint: Paint = plain) -> str:
    """Colour counts as '3P 1G', or '-' when empty."""
    parts = [f"{n}{paint(data.COLOR_LETTERS[c], c)}" for c, n in enumerate(counts) if n]
    return " ".join(parts) if parts else "-"


def _board_lines(state: PavilionState, p: int, paint: Paint) -> list[str]:
    """One line per star: a colour letter on covered spaces, the cost (a digit) on empty ones."""
    cost = state.game.board.cost
    lines = ["    star        1 2 3 4 5 6"]
    for star in range(data.NUM_STARS):
        cells = []
        for i in range(6):
            sp = star * 6 + i
            c = state.cells[p * data.NUM_SPACES + sp]
            cells.append(paint(data.COLOR_LETTERS[c], c) if c >= 0 else str(cost[sp]))
        label = f"{data.STAR_LETTERS[star]} {data.STARS[star]}"
        lines.append(f"    {label:<10}  " + " ".join(cells))
    return lines


def render_text(state: PavilionState, color: bool = False) -> str:
    game = state.game
    paint = PAINT if color else plain
    w = state.wild()
    head = (
        f"Azul: Summer Pavilion ({game.options['board']} board) - round {state.round} of "
        f"{data.ROUNDS}, wild colour {data.COLORS[w]} ({paint(data.COLOR_LETTERS[w], w)})"
    )
    out = [head]
    cp = state.current_player()
    if cp == TERMINAL:
        scores = state.scores()
        out.append(
            "Game over. Winner(s): "
            + ", ".join(f"seat {i}" for i in state.winners())
            + " with "
            + str(max(scores))
        )
    elif cp == CHANCE:
        what = "the first player" if state.deals[0] == FIRST_PLAYER else "a tile from the bag"
        out.append(f"Chance: drawing {what}")
    else:
        out.append(
            f"Seat {cp} to {state.decision()}"
            + (f" ({state.owed} bonus tile(s) from the supply)" if state.owed else "")
        )
    facs = []
    for f in range(1, game.factories + 1):
        facs.append(f"F{f}[{tiles(state.sources[f * NC : (f + 1) * NC], paint)}]")
    out.append("Factories: " + "  ".join(facs))
    token = "  + start player token" if state.token < 0 else ""
    out.append(f"Centre:    {tiles(state.sources[:NC], paint)}{token}")
    out.append(
        f"Supply:    {tiles(state.supply, paint)}    bag {sum(state.bag)}, tower {sum(state.tower)}"
    )
    for p in range(game.players):
        marks = []
        if state.token == p:
            marks.append("start token")
        if state.passed >> p & 1:
            marks.append("passed")
        if p == cp:
            marks.append("to move")
        extra = f"  ({', '.join(marks)})" if marks else ""
        hand = state.hands[p * NC : (p + 1) * NC]
        out.append(
            f"Seat {p}: score {state.points[p]}  hand {tiles(hand, paint)}  "
            f"kept {tiles(state.kept[p * NC : (p + 1) * NC], paint)}{extra}"
        )
        out.extend(_board_lines(state, p, paint))
    return "\n".join(out)
