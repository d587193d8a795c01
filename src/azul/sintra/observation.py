"""The fixed-shape observation of a Sintra position from one seat (docs/observations.md).

Seats are rotated so that the observer is seat 0 of every per-player block; everything is public
information. Values are raw counts and 0/1 flags. This module fills arrays it is given.
"""

from __future__ import annotations

import math
from typing import Any

from azul.core.api import Layout
from azul.sintra.data import FRAMES, JOKER, NUM_COLORS, ROUNDS, SLOTS, SPACES
from azul.sintra.state import KEEPING, TURN, SintraState

NC = NUM_COLORS


def layout(players: int, factories: int, track_length: int) -> Layout:
    """The named pieces of the flat observation vector, in order, with their shapes."""
    return [
        ("round", (ROUNDS,)),  # one-hot
        ("round_color", (NC,)),  # one-hot colour of the indicator's top piece
        ("decision", (2,)),  # one-hot: play, keep (all 0 at chance or the end)
        ("to_move", (players,)),  # one-hot, relative seat
        ("tile", (players + 1,)),  # 0: in the centre, 1 + i: held by relative seat i
        ("keep_strip", (SLOTS,)),  # one-hot slot whose piece is being chosen
        ("sources", (factories + 1, NC)),  # row 0 the centre, then factories 1..F
        ("bag", (NC,)),
        ("tower", (NC,)),
        ("indicator", (ROUNDS, NC)),  # one-hot piece on each space I..VI still there
        ("scores", (players,)),
        ("lost", (players,)),
        ("track", (players, track_length)),  # one-hot marker position
        ("glazier", (players, SLOTS)),  # one-hot
        ("strip_present", (players, SLOTS)),
        ("strip_side_b", (players, SLOTS)),
        ("strip_pattern", (players, SLOTS, SPACES, NC + 1)),  # one-hot colour, last = joker
        ("strip_pieces", (players, SLOTS, SPACES, NC)),  # one-hot piece on each space
        ("windows", (players, SLOTS, FRAMES, NC)),  # one-hot piece in each frame
    ]


def observe(state: SintraState, seat: int, views: dict[str, Any]) -> None:
    """Fill zeroed ``views`` (arrays shaped as in ``layout``) with the position seen by ``seat``."""
    n = state.game.players
    views["round"][state.round - 1] = 1
    if state.round_color() >= 0:
        views["round_color"][state.round_color()] = 1
    if not state.deals and state.kind in (TURN, KEEPING):
        views["decision"][(TURN, KEEPING).index(state.kind)] = 1
        views["to_move"][(state.player - seat) % n] = 1
    views["tile"][0 if state.tile < 0 else 1 + (state.tile - seat) % n] = 1
    if state.keep_slot >= 0:
        views["keep_strip"][state.keep_slot] = 1
    for i, k in enumerate(state.sources):
        views["sources"][i // NC, i % NC] = k
    for c in range(NC):
        views["bag"][c] = state.bag[c]
        views["tower"][c] = state.tower[c]
    for i, c in enumerate(state.indicator):
        if c >= 0:
            views["indicator"][i, c] = 1
    for r in range(n):
        p = (seat + r) % n
        views["scores"][r] = state.points[p]
        views["lost"][r] = state.lost[p]
        views["track"][r, state.track[p]] = 1
        views["glazier"][r, state.glazier[p]] = 1
        for slot in range(SLOTS):
            i = p * SLOTS + slot
            frames = state.windows[i * FRAMES : (i + 1) * FRAMES]
            for f, c in enumerate(frames):
                if c >= 0:
                    views["windows"][r, slot, f, c] = 1
            if state.strips[i] < 0:
                continue
            views["strip_present"][r, slot] = 1
            views["strip_side_b"][r, slot] = state.sides[i]
            for k, want in enumerate(state.pattern(p, slot)):
                views["strip_pattern"][r, slot, k, NC if want == JOKER else want] = 1
                c = state.cells[i * SPACES + k]
                if c >= 0:
                    views["strip_pieces"][r, slot, k, c] = 1


def _shapes() -> dict[int, tuple[int, ...]]:
    from azul.sintra.data import FACTORIES, load_components

    track = len(load_components().track)
    return {
        n: (sum(math.prod(shape) for _, shape in layout(n, f, track)),)
        for n, f in FACTORIES.items()
    }


# The shape of the flat observation with the shipped components, by number of players (also
# ``game.info.observation_shape``; a components file with another track length changes it).
SHAPES = _shapes()
