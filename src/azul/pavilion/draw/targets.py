"""What a client shows of each Summer Pavilion action, in terms of the drawing (``svg.py``).

Elements of the drawing a person clicks, each a ``<g>`` with these ``data-`` attributes:

* ``source`` ``F1``..``F9`` (a factory), ``C`` (the centre) or ``S`` (the supply), with
  ``color`` a colour letter: the tiles of that colour there;
* ``seat`` with ``hand`` (a colour letter): that colour in the seat's hand;
* ``seat`` with ``space`` (``R3``: star letter and ring position): a space of the seat's board;
* ``seat`` with ``pass`` = ``1``: the pass button of the player to move;
* ``seat`` with ``kept`` = ``1``: the seat's four corner spaces (a mark, never clicked);
* ``seat`` with ``token`` = ``1``: the start player token by its holder's name (a mark).
"""

from __future__ import annotations

from typing import Any

from azul.core.api import Target
from azul.pavilion import data
from azul.pavilion.actions import BONUS, PASS, PLACE, TAKE, space_code
from azul.pavilion.state import PavilionState
from azul.pavilion.tables import KEEPS, STRUCTURES_AT

NC = data.NUM_COLORS


def _letters(counts: list[int] | tuple[int, ...]) -> dict[str, int]:
    return {data.COLOR_LETTERS[c]: n for c, n in enumerate(counts) if n}


def action_targets(state: PavilionState, action: int) -> list[Target]:
    """The elements a person clicks, in order, to choose ``action`` (none for a draw)."""
    if state.deals:
        return []
    kind, x, y, _ = state.game.actions.decode[action]
    seat = str(state.player)
    if kind == TAKE:
        return [{"source": "C" if x == 0 else f"F{x}", "color": data.COLOR_LETTERS[y]}]
    if kind == PLACE:
        return [
            {"seat": seat, "hand": data.COLOR_LETTERS[y]},
            {"seat": seat, "space": space_code(x)},
        ]
    if kind == BONUS:
        return [{"source": "S", "color": data.COLOR_LETTERS[x]}]
    return [{"seat": seat, "pass": "1"}]


def action_details(state: PavilionState, action: int) -> dict[str, Any]:
    """What sets ``action`` apart from the legal actions with the same targets: the tiles a
    placement pays, or the tiles a pass keeps."""
    if state.deals:
        return {}
    kind, x, y, k = state.game.actions.decode[action]
    if kind == PLACE:
        n = state.game.board.cost[x]
        pay = [0] * NC
        pay[y] += n - k
        pay[state.wild()] += k
        return {"pay": _letters(pay)}
    if kind == PASS:
        return {"keep": _letters(kept_by_pass(state, x))}
    return {}


def kept_by_pass(state: PavilionState, x: int) -> tuple[int, ...]:
    """The colour counts a pass (offset ``x`` in the pass block) keeps (rules 5.8)."""
    if state.round == data.ROUNDS and state.game.discard_at_last_pass:
        return (0,) * NC
    if x:
        return KEEPS[x - 1]
    b = state.player * NC
    return tuple(state.hands[b : b + NC])


def action_marks(state: PavilionState, action: int) -> list[Target]:
    """Where the pieces of ``action`` lie once it is played, as elements of the drawing after
    it: the hand colours a take or a bonus pick fills (and the start player token a first take
    from the centre brings), the space a placement covers, the corner spaces of a pass."""
    if state.deals:
        return []
    kind, x, y, _ = state.game.actions.decode[action]
    seat = str(state.player)
    if kind == TAKE:
        marks = [{"seat": seat, "hand": data.COLOR_LETTERS[y]}]
        w = state.wild()
        if y != w and state.sources[x * NC + w]:  # one wild comes along (rules 4.2)
            marks.append({"seat": seat, "hand": data.COLOR_LETTERS[w]})
        if x == 0 and state.token < 0:  # and the start player token (rules 4.4)
            marks.append({"seat": seat, "token": "1"})
        return marks
    if kind == PLACE:
        return [{"seat": seat, "space": space_code(x)}]
    if kind == BONUS:
        return [{"seat": seat, "hand": data.COLOR_LETTERS[x]}]
    return [{"seat": seat, "kept": "1"}]


def bonus_earned(state: PavilionState, sp: int) -> int:
    """Bonus tiles a placement on space ``sp`` earns: every pillar, statue and window it
    completes, no more than the supply holds (rules 5.6, 5.7)."""
    filled = state.filled[state.player] | 1 << sp
    earned = sum(reward for mask, reward in STRUCTURES_AT[sp] if filled & mask == mask)
    return min(earned, sum(state.supply))


def action_preview(state: PavilionState, action: int, points: int) -> dict[str, int]:
    """What ``action`` earns at once, given its ``points``: bonus tiles for a placement,
    tiles sent to the tower for a pass."""
    kind, x, _, _ = state.game.actions.decode[action]
    out = {"points": points}
    if kind == PLACE:
        out["bonus"] = bonus_earned(state, x)
    elif kind == PASS:
        b = state.player * NC
        out["discarded"] = sum(state.hands[b : b + NC]) - sum(kept_by_pass(state, x))
    return out
