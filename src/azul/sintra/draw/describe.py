"""A Sintra action in words (a translatable Message, without the player's name) and what it
earns before it is confirmed (computed on a copy of the position, never drawing)."""

from __future__ import annotations

from azul.core.errors import Message, Word
from azul.i18n import N_
from azul.sintra.actions import BACK, BREAK, KEEP
from azul.sintra.data import NUM_COLORS
from azul.sintra.draw.targets import accepting, completes
from azul.sintra.state import SintraState

# (source, one piece, outcome) -> template; source: a factory, the centre, or the centre with
# the starting-player tile (rules 3.1b); outcome: placed, 1 broken, several broken, all broken
PLAYS = {
    ("factory", True, "placed"): N_(
        "takes 1 {color} piece from factory {factory} to strip {strip}"
    ),
    ("factory", False, "placed"): N_(
        "takes {count} {color} pieces from factory {factory} to strip {strip}"
    ),
    ("factory", False, "one"): N_(
        "takes {count} {color} pieces from factory {factory} to strip {strip}; 1 breaks"
    ),
    ("factory", False, "some"): N_(
        "takes {count} {color} pieces from factory {factory} to strip {strip}; {broken} break"
    ),
    ("factory", True, "all"): N_("takes 1 {color} piece from factory {factory}; it breaks"),
    ("factory", False, "all"): N_("takes {count} {color} pieces from factory {factory}; all break"),
    ("centre", True, "placed"): N_("takes 1 {color} piece from the centre to strip {strip}"),
    ("centre", False, "placed"): N_(
        "takes {count} {color} pieces from the centre to strip {strip}"
    ),
    ("centre", False, "one"): N_(
        "takes {count} {color} pieces from the centre to strip {strip}; 1 breaks"
    ),
    ("centre", False, "some"): N_(
        "takes {count} {color} pieces from the centre to strip {strip}; {broken} break"
    ),
    ("centre", True, "all"): N_("takes 1 {color} piece from the centre; it breaks"),
    ("centre", False, "all"): N_("takes {count} {color} pieces from the centre; all break"),
    ("first", True, "placed"): N_(
        "takes 1 {color} piece and the starting player tile from the centre to strip {strip}"
    ),
    ("first", False, "placed"): N_(
        "takes {count} {color} pieces and the starting player tile from the centre to strip {strip}"
    ),
    ("first", False, "one"): N_(
        "takes {count} {color} pieces and the starting player tile from the centre to strip "
        "{strip}; 1 breaks"
    ),
    ("first", False, "some"): N_(
        "takes {count} {color} pieces and the starting player tile from the centre to strip "
        "{strip}; {broken} break"
    ),
    ("first", True, "all"): N_(
        "takes 1 {color} piece and the starting player tile from the centre; it breaks"
    ),
    ("first", False, "all"): N_(
        "takes {count} {color} pieces and the starting player tile from the centre; all break"
    ),
}
BACK_TEXT = N_("moves the glazier back to strip {strip}")
KEEP_TEXT = N_("keeps {color} for window {window}")


def describe_action(state: SintraState, action: int) -> Message:
    """``action`` (legal in ``state``) in words, e.g. "takes 3 pink pieces from factory 2
    to strip 4; 1 breaks"."""
    if state.deals or state.is_terminal():
        return Message("{move}", move=state.action_to_string(action))
    kind, x, color, target = state.game.actions.decode[action]
    colors = state.game.components.colors
    if kind == BACK:
        return Message(BACK_TEXT, strip=state.leftmost_strip(state.player) + 1)
    if kind == KEEP:
        return Message(KEEP_TEXT, color=Word(colors[x]), window=state.keep_slot + 1)
    count = state.sources[x * NUM_COLORS + color]
    broken = _broken(state, x, color, target)
    outcome = "all" if target == BREAK else {0: "placed", 1: "one"}.get(broken, "some")
    source = "factory" if x else "first" if state.tile < 0 else "centre"
    template = PLAYS[source, count == 1, outcome]
    return Message(
        template,
        count=count,
        color=Word(colors[color]),
        factory=x,
        strip=target + 1,
        broken=broken,
    )


def action_preview(state: SintraState, action: int) -> dict[str, int]:
    """What ``action`` does at once: ``points`` (the change of score), ``broken`` (pieces
    that break), and when they apply ``tile`` (1: takes the starting-player tile and steps
    down the track), ``completes`` (the strip completed) and ``window`` (the window
    furnished)."""
    if state.deals or state.is_terminal():
        return {"points": 0, "broken": 0}
    p = state.player
    after = state.reference().clone()
    after._move(action)  # the rules without the draws that may follow (chance stays pending)
    out = {"points": after.points[p] - state.points[p], "broken": 0}
    kind, x, color, target = state.game.actions.decode[action]
    if kind == KEEP:
        out["window"] = state.keep_slot + 1
    elif kind != BACK:
        out["broken"] = _broken(state, x, color, target)
        if x == 0 and state.tile < 0:
            out["tile"] = 1
        count = state.sources[x * NUM_COLORS + color]
        if target != BREAK and completes(state, p, target, color, count):
            out["completes"] = target + 1
            if after.keep_slot < 0:  # one colour: kept at once (rules 3.3b)
                out["window"] = target + 1
    return out


def _broken(state: SintraState, source: int, color: int, target: int) -> int:
    """Pieces that break: those no space of the target strip takes (rules 3.2)."""
    count = state.sources[source * NUM_COLORS + color]
    if target == BREAK:
        return count
    return max(0, count - accepting(state, state.player, target, color))
