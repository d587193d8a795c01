"""Summer Pavilion actions in words, as translatable messages without the player's name:
"takes red ×3 and one wild purple from factory 2"."""

from __future__ import annotations

from azul.core.errors import Message, Word
from azul.core.scoring import deduct
from azul.i18n import N_
from azul.pavilion import data
from azul.pavilion.actions import PASS, PLACE, TAKE
from azul.pavilion.draw.targets import kept_by_pass
from azul.pavilion.state import PavilionState
from azul.pavilion.tables import RUN

NC = data.NUM_COLORS

# (source is the centre, a wild comes along, the start player token comes along) -> template
_TAKES = {
    (False, False, False): N_("takes {color} ×{count} from factory {factory}"),
    (False, True, False): N_("takes {color} ×{count} and one wild {wild} from factory {factory}"),
    (True, False, False): N_("takes {color} ×{count} from the centre"),
    (True, True, False): N_("takes {color} ×{count} and one wild {wild} from the centre"),
    (True, False, True): N_(
        "takes {color} ×{count} from the centre with the start player token "
        "(score {before} → {after})"
    ),
    (True, True, True): N_(
        "takes {color} ×{count} and one wild {wild} from the centre with the start player "
        "token (score {before} → {after})"
    ),
}
# only wild tiles were there: one is taken (rules 4.2, 4.3)
_TAKE_WILD = {
    (False, False): N_("takes one wild {color} from factory {factory}"),
    (True, False): N_("takes one wild {color} from the centre"),
    (True, True): N_(
        "takes one wild {color} from the centre with the start player token "
        "(score {before} → {after})"
    ),
}
# paid with wilds too -> template; {star} is a whole phrase (its words agree in every language)
# and {cost} the number printed on the space
_PLACES = {
    False: N_("places {color} on {star} ({cost}), paying {color} ×{paid} (+{points})"),
    True: N_(
        "places {color} on {star} ({cost}), paying {color} ×{paid} and {wild} ×{wilds} (+{points})"
    ),
}
# the stars of the coloured side by their colour; of the grey side by where they are (rules
# "Board geometry": star 1 at 9 o'clock, then clockwise)
_COLOURED_STARS = (
    N_("the centre star"),
    N_("the purple star"),
    N_("the orange star"),
    N_("the red star"),
    N_("the blue star"),
    N_("the yellow star"),
    N_("the green star"),
)
_GREY_STARS = (
    N_("the centre star"),
    N_("the left star"),
    N_("the upper left star"),
    N_("the upper right star"),
    N_("the right star"),
    N_("the lower right star"),
    N_("the lower left star"),
)


def star_name(state: PavilionState, star: int) -> str:
    """A star as the log and the titles name it: by its colour on the coloured side, by
    where it is on the grey side, whose stars have no colour (an English message)."""
    return (_GREY_STARS if state.game.board.grey else _COLOURED_STARS)[star]


def _score(state: PavilionState, n: int) -> dict[str, int]:
    """The score of the player to move before and after a deduction of ``n`` (which stops at
    the score floor: rules 4.4, 5.8)."""
    score = state.points[state.player]
    return {"before": score, "after": deduct(score, n, state.game.options["score_floor"])}


def describe_action(state: PavilionState, action: int) -> Message:
    """``action`` of the player to move, in words (a draw: its notation)."""
    if state.deals:
        return Message("{move}", move=state.action_to_string(action))
    kind, x, y, k = state.game.actions.decode[action]
    if kind == TAKE:
        return _take(state, x, y)
    if kind == PLACE:
        return _place(state, x, y, k)
    if kind == PASS:
        return _pass(state, x)
    return Message(N_("takes {color} from the supply as a bonus tile"), color=Word(data.COLORS[x]))


def _take(state: PavilionState, source: int, c: int) -> Message:
    b = source * NC
    w = state.wild()
    counts = state.sources[b : b + NC]
    centre = source == 0
    token = centre and state.token < 0
    taken = 1 if c == w else counts[c] + (1 if counts[w] else 0)
    fields = {"factory": source, **(_score(state, taken) if token else {})}
    if c == w:
        return Message(_TAKE_WILD[centre, token], color=Word(data.COLORS[w]), **fields)
    return Message(
        _TAKES[centre, bool(counts[w]), token],
        color=Word(data.COLORS[c]),
        count=counts[c],
        wild=Word(data.COLORS[w]),
        **fields,
    )


def _place(state: PavilionState, sp: int, c: int, k: int) -> Message:
    star, i = divmod(sp, 6)
    n = state.game.board.cost[sp]
    ring = (state.filled[state.player] >> star * 6 | 1 << i) & 63
    return Message(
        _PLACES[k > 0],
        color=Word(data.COLORS[c]),
        cost=n,
        star=Word(star_name(state, star)),
        paid=n - k,
        wild=Word(data.COLORS[state.wild()]),
        wilds=k,
        points=RUN[ring][i],
    )


def _pass(state: PavilionState, x: int) -> Message:
    b = state.player * NC
    total = sum(state.hands[b : b + NC])
    kept = sum(kept_by_pass(state, x))
    gone = total - kept
    score = _score(state, gone)
    if not gone:
        if kept == 1:
            return Message(N_("passes, keeping 1 tile"))
        return Message(N_("passes, keeping {kept} tiles"), kept=kept)
    if not kept:
        if gone == 1:
            return Message(N_("passes and discards 1 tile (score {before} → {after})"), **score)
        return Message(
            N_("passes and discards {discarded} tiles (score {before} → {after})"),
            discarded=gone,
            **score,
        )
    return Message(
        N_("passes, keeping {kept} and discarding {discarded} (score {before} → {after})"),
        kept=kept,
        discarded=gone,
        **score,
    )
