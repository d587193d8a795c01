"""The fixed-shape observation of a Summer Pavilion position from one seat (docs/observations.md).

Seats are rotated so that the observer is seat 0 of every per-player block. Everything observed
is public: the bag is seen as counts, never as an order, and never the generator. Values are raw
counts and 0/1 flags as floats. This module fills arrays it is given: it needs no numpy itself.
"""

from __future__ import annotations

import math
from typing import Any

from azul.core.api import Layout
from azul.pavilion import data
from azul.pavilion.state import ACQUIRE, BONUS_PICK, PLAY, PavilionState

NC = data.NUM_COLORS


def layout(players: int) -> Layout:
    """The named pieces of the flat observation vector, in order, with their shapes."""
    f = data.FACTORIES[players]
    return [
        ("round", (data.ROUNDS,)),  # one-hot
        ("wild", (NC,)),  # one-hot wild colour
        ("decision", (3,)),  # one-hot: take, place, bonus (all 0 at chance or the end)
        ("to_move", (players,)),  # one-hot, relative seat
        ("token", (players + 1,)),  # 0: in the centre, 1 + i: held by relative seat i
        ("bonus_owed", (1,)),
        ("sources", (f + 1, NC)),  # row 0 the centre, then factories 1..F: colour counts
        ("supply", (NC,)),
        ("bag", (NC,)),
        ("tower", (NC,)),
        ("scores", (players,)),
        ("passed", (players,)),
        ("hands", (players, NC)),
        ("kept", (players, NC)),
        ("boards", (players, data.NUM_SPACES, NC)),  # one-hot colour on each covered space
    ]


def observe(state: PavilionState, seat: int, views: dict[str, Any]) -> None:
    """Fill zeroed ``views`` (arrays shaped as in ``layout``) with the position seen by ``seat``."""
    n = state.game.players
    views["round"][state.round - 1] = 1
    views["wild"][state.wild()] = 1
    if not state.deals and state.kind in (ACQUIRE, PLAY, BONUS_PICK):
        views["decision"][(ACQUIRE, PLAY, BONUS_PICK).index(state.kind)] = 1
        views["to_move"][(state.player - seat) % n] = 1
    views["token"][0 if state.token < 0 else 1 + (state.token - seat) % n] = 1
    views["bonus_owed"][0] = state.owed
    for i, k in enumerate(state.sources):
        views["sources"][i // NC, i % NC] = k
    for c in range(NC):
        views["supply"][c] = state.supply[c]
        views["bag"][c] = state.bag[c]
        views["tower"][c] = state.tower[c]
    for r in range(n):
        p = (seat + r) % n
        views["scores"][r] = state.points[p]
        views["passed"][r] = state.passed >> p & 1
        for c in range(NC):
            views["hands"][r, c] = state.hands[p * NC + c]
            views["kept"][r, c] = state.kept[p * NC + c]
        cells = state.cells[p * data.NUM_SPACES : (p + 1) * data.NUM_SPACES]
        for sp, c in enumerate(cells):
            if c >= 0:
                views["boards"][r, sp, c] = 1


# The shape of the flat observation, by number of players (also ``game.info.observation_shape``).
SHAPES = {n: (sum(math.prod(shape) for _, shape in layout(n)),) for n in data.FACTORIES}
