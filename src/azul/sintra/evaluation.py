"""How good a Stained Glass of Sintra position is for one seat, in points.

The score, the final broken-glass penalty already owed, strips weighted by how full they are
(a full strip pays its window and the occupied windows to its right), and the palace bonus the
windows are heading for. The glazier's place is not valued: a penalty of 0.4 a slot for
standing to the right held the heuristic bot back from the strips that pay (without it, the
bot won 99% of 400 games against itself with it, 48.2 points against 4.6).
"""

from __future__ import annotations

from azul.sintra.data import FRAMES, NUM_COLORS, ORNAMENT_BONUS, SLOTS, SPACES
from azul.sintra.state import OVER, SintraState

_ORNAMENT_POTENTIAL = {0: 0.0, 1: 1.0, 2: 3.0, 3: 6.0, 4: 10.0}


def evaluate(state: SintraState, p: int) -> float:
    v = float(state.points[p])
    if state.kind == OVER:
        return v
    comps = state.game.components
    v += comps.track[state.track[p]]  # owed at the end (rules 5.1)
    v -= 0.6 * state.track[p] / (len(comps.track) - 1) * comps.bottom_penalty / 4
    values = state.game.window_values
    windows = state.windows[p * SLOTS * FRAMES : (p + 1) * SLOTS * FRAMES]
    occupied_right = 0.0
    for slot in reversed(range(SLOTS)):
        i = p * SLOTS + slot
        if windows[slot * FRAMES] >= 0:
            occupied_right += values[slot]
        if state.strips[i] < 0:
            continue
        filled = bin(state.fills[i]).count("1")
        if filled:
            pay = values[slot] + occupied_right
            v += pay * (filled / SPACES) ** 2 * 0.8
    on_strips = sum(bin(state.fills[p * SLOTS + s]).count("1") for s in range(SLOTS))
    v += on_strips / 3 * 0.5
    if state.game.options["side"] == "A":
        for ornament in comps.ornaments:
            n = sum(1 for f in ornament if windows[f] >= 0)
            v += ORNAMENT_BONUS[n] * 0.5 + _ORNAMENT_POTENTIAL[n] * 0.5
    else:
        complete = sum(1 for w in range(SLOTS) if windows[2 * w + 1] >= 0)
        best = max(windows.count(c) for c in range(NUM_COLORS))
        v += (complete + 0.5) * (best + 0.5) * 0.8
    return v
