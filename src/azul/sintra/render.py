"""Text rendering of a Sintra position for terminals."""

from __future__ import annotations

from azul.core.ansi import painter, plain
from azul.core.api import CHANCE, TERMINAL
from azul.sintra.data import JOKER, NUM_COLORS, ROUNDS, SLOTS, SPACES
from azul.sintra.state import WINDOW_FRAMES, SintraState
from azul.sintra.svg import FILL, INK

NC = NUM_COLORS
PAINT = painter(FILL, INK)


def render_text(state: SintraState, color: bool = False) -> str:
    game = state.game
    comps = game.components
    paint = PAINT if color else plain
    letters = [paint(letter, c) for c, letter in enumerate(comps.letters)]

    def pieces(counts: list[int]) -> str:
        parts = [f"{n}{letters[c]}" for c, n in enumerate(counts) if n]
        return " ".join(parts) if parts else "-"

    out = [
        f"Azul: Stained Glass of Sintra (side {game.options['side']}) - round {state.round} "
        f"of {ROUNDS}"
    ]
    if comps.provisional:
        out.append(f"Note: the printed values in use are {comps.provenance}.")
    ind = " ".join(letters[c] if c >= 0 else "." for c in state.indicator)
    top = state.round_color()
    out.append(
        f"Round indicator (I..VI): {ind}   bonus colour: {comps.colors[top] if top >= 0 else '-'}"
    )
    cp = state.current_player()
    if cp == TERMINAL:
        out.append("Game over. Winner(s): " + ", ".join(f"seat {i}" for i in state.winners()))
    elif cp == CHANCE:
        out.append("Chance: drawing")
    elif state.decision() == "keep":
        out.append(f"Seat {cp} to choose the piece to keep from strip {state.keep_slot + 1}")
    else:
        out.append(f"Seat {cp} to play")
    facs = [
        f"F{f}[{pieces(state.sources[f * NC : (f + 1) * NC])}]"
        for f in range(1, game.factories + 1)
    ]
    out.append("Factories: " + "  ".join(facs))
    tile = "  + starting-player tile" if state.tile < 0 else ""
    out.append(f"Centre:    {pieces(state.sources[:NC])}{tile}")
    out.append(f"Bag {sum(state.bag)}, tower {sum(state.tower)}")
    values = game.window_values
    for p in range(game.players):
        marks = []
        if state.tile == p:
            marks.append("starting-player tile")
        if p == cp:
            marks.append("to move")
        extra = f"  ({', '.join(marks)})" if marks else ""
        track = comps.track[state.track[p]]
        out.append(
            f"Seat {p}: score {state.points[p]}  broken glass {track} (lost {state.lost[p]}){extra}"
        )
        g = state.glazier[p]
        out.append("    glazier   " + "   ".join("v" if s == g else " " for s in range(SLOTS)))
        out.append("    strip     " + "   ".join(str(s + 1) for s in range(SLOTS)))
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
            out.append("              " + "   ".join(row))
        w = p * WINDOW_FRAMES
        for frame, label in ((0, "win top"), (1, "win bot")):
            row = [
                letters[state.windows[w + 2 * s + frame]]
                if state.windows[w + 2 * s + frame] >= 0
                else "."
                for s in range(SLOTS)
            ]
            out.append(f"    {label:<10}" + "   ".join(row))
        out.append("    value     " + "   ".join(str(v) for v in values))
    out.append("(empty spaces show their colour in lower case, * a joker space)")
    return "\n".join(out)
