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
from azul.core.scoring import deduct
from azul.pavilion import data
from azul.pavilion.actions import BONUS, PASS, PLACE, TAKE, space_code
from azul.pavilion.state import PavilionState
from azul.pavilion.tables import KEEP_INDEX, KEEPS, STRUCTURES_AT

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
        details: dict[str, Any] = {"keep": _letters(kept_by_pass(state, x))}
        same = same_pass(state, x)
        if same is not None:
            details["same_as"] = same
        return details
    return {}


# the offset in the pass block of the pass that keeps no tile of a hand of more than 4
KEEP_NONE = 1 + KEEP_INDEX[(0,) * NC]


def final_after_pass(state: PavilionState, x: int) -> int | None:
    """The final score of the player to move once they make the pass ``x`` (offset in the pass
    block) in the last round, None in an earlier round. Nothing else changes it: the pass
    takes 1 point per tile not kept, the board then earns its star and number bonuses, and each
    kept tile costs 1 point after them, every deduction stopping at the score floor (rules 5.8,
    5.9, 7.1 to 7.3; project decision "round 6 pass and end scoring")."""
    if state.round != data.ROUNDS:
        return None
    p = state.player
    floor = state.game.options["score_floor"]
    kept = sum(kept_by_pass(state, x))
    gone = sum(state.hands[p * NC : (p + 1) * NC]) - kept
    score = deduct(state.points[p], gone, floor)
    score += sum(points for _, _, points in state.end_bonuses(p))
    return deduct(score, kept, floor)


def same_pass(state: PavilionState, x: int) -> int | None:
    """The pass action that stands for the pass ``x`` (offset in the pass block), as it ends the
    game with the same score for its player: in the last round a kept tile costs its point at
    the end as a discarded one does at the pass (rules 5.9), so keeping nothing stands for every
    keep that scores the same (they differ only where a deduction stops at the floor, where
    keeping nothing scores more). None when ``x`` stands for itself."""
    if x in (0, KEEP_NONE) or state.round != data.ROUNDS:
        return None  # 0: the one pass of a hand of 4 tiles or fewer, or of option "at_pass"
    if final_after_pass(state, x) != final_after_pass(state, KEEP_NONE):
        return None
    return state.game.actions.pass_base + KEEP_NONE


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
    tiles sent to the tower for a pass (and in the last round the player's final score)."""
    kind, x, _, _ = state.game.actions.decode[action]
    out = {"points": points}
    if kind == PLACE:
        out["bonus"] = bonus_earned(state, x)
    elif kind == PASS:
        b = state.player * NC
        out["discarded"] = sum(state.hands[b : b + NC]) - sum(kept_by_pass(state, x))
        final = final_after_pass(state, x)
        if final is not None:  # the last round: the player's score at the end is known
            out["final"] = final
    return out
