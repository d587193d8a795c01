"""What a client shows of a Sintra action on the drawing (``azul.sintra.draw.svg``): the elements
clicked to choose it (targets), where its pieces lie once played (marks), and details.

Targets and marks name ``<g>`` elements by their ``data-`` attributes:

* ``{"source": "F3" | "C", "color": "P"}``: the pieces of one colour in a factory or the centre
* ``{"seat": "0", "strip": "4"}``: a strip (1-8) of a palace board, drawn even once removed
* ``{"seat": "0", "strip": "break"}``: the player's broken-glass track
* ``{"seat": "0", "glazier": "back"}``: the player's glazier
* ``{"seat": "0", "keep": "O"}``: a piece of the strip just completed, while one is kept
* ``{"seat": "0", "window": "4"}``: a window (marks only)
"""

from __future__ import annotations

from typing import Any

from azul.core.api import Target
from azul.sintra.actions import BACK, BREAK, KEEP, PLAY
from azul.sintra.data import JOKER, NUM_COLORS, SLOTS, SPACES
from azul.sintra.state import SintraState


def action_targets(state: SintraState, action: int) -> list[Target]:
    """The elements clicked, in order, to choose ``action``: a factory's or the centre's
    pieces then a strip or the track; the glazier (back); a piece to keep."""
    if state.deals or state.is_terminal():
        return []
    kind, x, color, target = state.game.actions.decode[action]
    seat = str(state.player)
    letters = state.game.components.letters
    if kind == PLAY:
        strip = "break" if target == BREAK else str(target + 1)
        source = "C" if x == 0 else f"F{x}"
        return [{"source": source, "color": letters[color]}, {"seat": seat, "strip": strip}]
    if kind == BACK:
        return [{"seat": seat, "glazier": "back"}]
    return [{"seat": seat, "keep": letters[x]}]


def action_marks(state: SintraState, action: int) -> list[Target]:
    """Where ``action`` (legal in ``state``) leaves its pieces, as elements of the drawing
    after it: the strip placed on, the track if the marker moves, the window furnished."""
    if state.deals or state.is_terminal():
        return []
    kind, x, color, target = state.game.actions.decode[action]
    p = state.player
    seat = str(p)
    track = {"seat": seat, "strip": "break"}
    if kind == BACK:
        return [{"seat": seat, "glazier": "back"}]
    if kind == KEEP:
        return [{"seat": seat, "window": str(state.keep_slot + 1)}]
    if target == BREAK:
        return [track]
    marks = [{"seat": seat, "strip": str(target + 1)}]
    count = state.sources[x * NUM_COLORS + color]
    room = accepting(state, p, target, color)
    if count > room or (x == 0 and state.tile < 0):  # pieces break, or the first-player step
        marks.append(track)
    if completes(state, p, target, color, count) and _one_color(state, p, target, color):
        marks.append({"seat": seat, "window": str(target + 1)})  # kept at once (rules 3.3b)
    return marks


def action_details(state: SintraState, action: int) -> dict[str, Any]:
    """Sintra's legal actions never share their targets; a keep names its piece."""
    if state.deals or state.is_terminal():
        return {}
    kind, x, _, _ = state.game.actions.decode[action]
    if kind == KEEP:
        return {"keep": {state.game.components.letters[x]: 1}}
    return {}


def accepting(state: SintraState, p: int, slot: int, color: int) -> int:
    """Empty spaces of the strip in ``slot`` that take ``color``: its own or a joker."""
    pattern = state.pattern(p, slot)
    base = (p * SLOTS + slot) * SPACES
    return sum(
        1 for k in range(SPACES) if state.cells[base + k] < 0 and pattern[k] in (color, JOKER)
    )


def completes(state: SintraState, p: int, slot: int, color: int, count: int) -> bool:
    """Whether ``count`` pieces of ``color`` fill the strip in ``slot`` (rules 3.3)."""
    base = (p * SLOTS + slot) * SPACES
    empty = sum(1 for k in range(SPACES) if state.cells[base + k] < 0)
    return count >= accepting(state, p, slot, color) == empty


def _one_color(state: SintraState, p: int, slot: int, color: int) -> bool:
    """Whether the strip, once filled with ``color``, holds that colour only."""
    base = (p * SLOTS + slot) * SPACES
    return all(c < 0 or c == color for c in state.cells[base : base + SPACES])
