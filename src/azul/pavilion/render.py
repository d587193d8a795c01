"""Text rendering of a Summer Pavilion position for terminals."""

from __future__ import annotations

from azul.core.api import CHANCE, TERMINAL
from azul.pavilion import data
from azul.pavilion.state import FIRST_PLAYER, PavilionState

NC = data.NUM_COLORS


def tiles(counts: list[int]) -> str:
    """Colour counts as '3P 1G', or '-' when empty."""
    parts = [f"{n}{data.COLOR_LETTERS[c]}" for c, n in enumerate(counts) if n]
    return " ".join(parts) if parts else "-"


def _board_lines(state: PavilionState, p: int) -> list[str]:
    """One line per star: a colour letter on covered spaces, the cost (a digit) on empty ones."""
    cost = state.game.board.cost
    lines = []
    for star in range(data.NUM_STARS):
        cells = []
        for i in range(6):
            sp = star * 6 + i
            c = state.cells[p * data.NUM_SPACES + sp]
            cells.append(data.COLOR_LETTERS[c] if c >= 0 else str(cost[sp]))
        label = f"{data.STAR_LETTERS[star]} {data.STARS[star]}"
        lines.append(f"    {label:<10} " + " ".join(cells))
    return lines


def render_text(state: PavilionState) -> str:
    game = state.game
    w = state.wild()
    head = (
        f"Azul: Summer Pavilion ({game.options['board']} board) - round {state.round} of "
        f"{data.ROUNDS}, wild colour {data.COLORS[w]} ({data.COLOR_LETTERS[w]})"
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
        facs.append(f"F{f}[{tiles(state.sources[f * NC : (f + 1) * NC])}]")
    out.append("Factories: " + "  ".join(facs))
    token = "  + start player token" if state.token < 0 else ""
    out.append(f"Centre:    {tiles(state.sources[:NC])}{token}")
    out.append(
        f"Supply:    {tiles(state.supply)}    bag {sum(state.bag)}, tower {sum(state.tower)}"
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
            f"Seat {p}: score {state.points[p]}  hand {tiles(hand)}  "
            f"kept {tiles(state.kept[p * NC : (p + 1) * NC])}{extra}"
        )
        out.extend(_board_lines(state, p))
    return "\n".join(out)
