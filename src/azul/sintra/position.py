"""Sintra positions as JSON documents (docs/sintra-position.md): write, read, validate.

Reading checks everything and raises PositionError naming the field; it never half-loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azul.core.errors import PositionError
from azul.core.validate import (
    FORMAT,
    VERSION,
    choice,
    color,
    counts,
    fields,
    generator,
    header,
    history,
    integer,
    seat,
    write_counts,
)
from azul.sintra.data import (
    FRAMES,
    JOKER,
    NUM_COLORS,
    PIECES_PER_COLOR,
    PIECES_PER_FACTORY,
    ROUNDS,
    SLOTS,
    SPACES,
)
from azul.sintra.state import (
    FACTORY,
    FIRST,
    INDICATOR,
    KEEPING,
    KIND_NAMES,
    ORDER,
    OVER,
    SIDE,
    STRIP,
    WINDOW_FRAMES,
    SintraState,
)

if TYPE_CHECKING:
    from azul.sintra.game import SintraGame

NC = NUM_COLORS
_TOP = {
    "format",
    "version",
    "game",
    "options",
    "round",
    "decision",
    "to_move",
    "start_player",
    "tile",
    "keep_strip",
    "factories",
    "centre",
    "bag",
    "tower",
    "indicator",
    "players",
    "pending_draws",
    "rng",
    "history",
}
_OPTIONAL = {"options", "keep_strip", "pending_draws", "rng", "history"}
_PLAYER = {"score", "lost", "track", "glazier", "strips", "windows"}
_STRIP = {"strip", "side", "pieces"}


# ---------------------------------------------------------------------- writing
def _deal_name(deal: tuple[int, int, int]) -> str:
    kind, a, b = deal
    if kind == FIRST:
        return "first_player"
    if kind == STRIP:
        return f"strip {a} {b + 1}"
    if kind == SIDE:
        return f"side {a} {b + 1}"
    if kind == ORDER:
        return f"round {a + 1}"
    if kind == INDICATOR:
        return "round 1"
    return f"factory {a}"


def state_to_json(state: SintraState) -> dict[str, Any]:
    """The full position, generator state included (never send this to a player)."""
    game = state.game
    names = game.components.colors

    def name(c: int) -> str | None:
        return None if c < 0 else names[c]

    players = []
    for p in range(game.players):
        strips: list[dict[str, object] | None] = []  # None: a removed strip
        for slot in range(SLOTS):
            i = p * SLOTS + slot
            if state.strips[i] < 0:
                strips.append(None)
                continue
            cells = state.cells[i * SPACES : (i + 1) * SPACES]
            strips.append(
                {
                    "strip": state.strips[i] + 1,
                    "side": "ab"[state.sides[i]],
                    "pieces": [name(c) for c in cells],
                }
            )
        w = p * WINDOW_FRAMES
        windows = [
            [name(state.windows[w + 2 * k]), name(state.windows[w + 2 * k + 1])]
            for k in range(SLOTS)
        ]
        players.append(
            {
                "score": state.points[p],
                "lost": state.lost[p],
                "track": state.track[p],
                "glazier": state.glazier[p] + 1,
                "strips": strips,
                "windows": windows,
            }
        )
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.name,
        "options": dict(game.options),
        "round": state.round,
        "decision": KIND_NAMES[state.kind],
        "to_move": state.player,
        "start_player": state.start,
        "tile": None if state.tile < 0 else state.tile,
        "keep_strip": None if state.keep_slot < 0 else state.keep_slot + 1,
        "factories": [
            write_counts(state.sources[f * NC : (f + 1) * NC], names)
            for f in range(1, game.factories + 1)
        ],
        "centre": write_counts(state.sources[:NC], names),
        "bag": write_counts(state.bag, names),
        "tower": write_counts(state.tower, names),
        "indicator": [name(c) for c in state.indicator],
        "players": players,
        "pending_draws": [_deal_name(d) for d in state.deals],
        "rng": state._rng,
        "history": list(state.hist),
    }


# ---------------------------------------------------------------------- reading
def _read_deal(value: Any, field: str, game: SintraGame) -> tuple[int, int, int]:
    words = value.split() if isinstance(value, str) else []
    nums = [int(w) for w in words[1:] if w.isdigit()]
    if words == ["first_player"]:
        return (FIRST, 0, 0)
    if words == ["round", "1"]:
        return (INDICATOR, 0, 0)
    if len(words) == 2 and words[0] == "round" and len(nums) == 1 and 2 <= nums[0] <= ROUNDS:
        return (ORDER, nums[0] - 1, 0)
    if (
        len(words) == 2
        and words[0] == "factory"
        and len(nums) == 1
        and (1 <= nums[0] <= game.factories)
    ):
        return (FACTORY, nums[0], 0)
    if (
        len(words) == 3
        and words[0] in ("strip", "side")
        and len(nums) == 2
        and (nums[0] < game.players and 1 <= nums[1] <= SLOTS)
    ):
        return (STRIP if words[0] == "strip" else SIDE, nums[0], nums[1] - 1)
    raise PositionError(
        f"{field}: {value!r} is not 'first_player', 'strip SEAT SLOT', 'side SEAT SLOT', "
        f"'round N' or 'factory N'"
    )


def state_from_json(game: SintraGame, doc: Any, seed: int | None = None) -> SintraState:
    """Build a state from a position document, or raise PositionError naming the bad field."""
    header(doc, game, _TOP, _OPTIONAL)
    names = game.components.colors
    n = game.players
    s = SintraState(game, setup=False)
    s.round = integer(doc["round"], "round", 1, ROUNDS)
    s.kind = choice(doc["decision"], "decision", KIND_NAMES)
    s.player = seat(doc["to_move"], "to_move", n)
    s.start = seat(doc["start_player"], "start_player", n)
    s.tile = -1 if doc["tile"] is None else seat(doc["tile"], "tile", n)
    keep = doc.get("keep_strip")
    s.keep_slot = -1 if keep is None else integer(keep, "keep_strip", 1, SLOTS) - 1
    factories = doc["factories"]
    if not isinstance(factories, list) or len(factories) != game.factories:
        raise PositionError(f"factories: expected a list of {game.factories} factories")
    s.sources = counts(doc["centre"], "centre", names)
    for f, fac in enumerate(factories):
        s.sources += counts(fac, f"factories[{f}]", names, PIECES_PER_FACTORY)
    s.bag = counts(doc["bag"], "bag", names)
    s.tower = counts(doc["tower"], "tower", names)
    ind = doc["indicator"]
    if not isinstance(ind, list) or len(ind) != ROUNDS:
        raise PositionError(f"indicator: expected a list of {ROUNDS} pieces or nulls")
    s.indicator = [
        -1 if c is None else color(c, f"indicator[{i}]", names) for i, c in enumerate(ind)
    ]
    players = doc["players"]
    if not isinstance(players, list) or len(players) != n:
        raise PositionError(f"players: expected a list of {n} players")
    s.points, s.lost, s.track, s.glazier = [], [], [], []
    s.strips, s.sides, s.cells, s.windows = [], [], [], []
    for p, pl in enumerate(players):
        _read_player(game, s, p, pl)
    deals = doc.get("pending_draws", [])
    if not isinstance(deals, list):
        raise PositionError("pending_draws: expected a list")
    s.deals = [_read_deal(d, f"pending_draws[{i}]", game) for i, d in enumerate(deals)]
    s._rng = generator(doc, game.explicit_chance, seed)
    s.hist = history(doc)
    s.fills = [
        sum(1 << k for k in range(SPACES) if s.cells[i * SPACES + k] >= 0) for i in range(n * SLOTS)
    ]
    _check_consistency(game, s)
    return s


def _read_player(game: SintraGame, s: SintraState, p: int, pl: Any) -> None:
    field = f"players[{p}]"
    fields(pl, field, _PLAYER)
    names = game.components.colors
    floor = game.options["score_floor"]
    s.points.append(integer(pl["score"], f"{field}.score", floor))
    s.lost.append(integer(pl["lost"], f"{field}.lost", 0))
    s.track.append(integer(pl["track"], f"{field}.track", 0, len(game.components.track) - 2))
    s.glazier.append(integer(pl["glazier"], f"{field}.glazier", 1, SLOTS) - 1)
    strips, windows = pl["strips"], pl["windows"]
    if not isinstance(strips, list) or len(strips) != SLOTS:
        raise PositionError(f"{field}.strips: expected a list of {SLOTS} strips or nulls")
    if not isinstance(windows, list) or len(windows) != SLOTS:
        raise PositionError(f"{field}.windows: expected a list of {SLOTS} windows")
    seen = set()
    for slot, st in enumerate(strips):
        where = f"{field}.strips[{slot}]"
        if st is None:
            s.strips.append(-1)
            s.sides.append(0)
            s.cells += [-1] * SPACES
            continue
        fields(st, where, _STRIP)
        strip = integer(st["strip"], f"{where}.strip", 1, SLOTS) - 1
        if strip in seen:
            raise PositionError(f"{where}.strip: strip {strip + 1} is already on the board")
        seen.add(strip)
        if st["side"] not in ("a", "b"):
            raise PositionError(f"{where}.side: {st['side']!r} is not 'a' or 'b'")
        side = "ab".index(st["side"])
        pieces = st["pieces"]
        if not isinstance(pieces, list) or len(pieces) != SPACES:
            raise PositionError(f"{where}.pieces: expected {SPACES} pieces or nulls")
        pattern = game.components.strips[strip][side]
        for k, c in enumerate(pieces):
            if c is None:
                s.cells.append(-1)
                continue
            ci = color(c, f"{where}.pieces[{k}]", names)
            if pattern[k] not in (ci, JOKER):
                raise PositionError(
                    f"{where}.pieces[{k}]: {c} cannot be on a {names[pattern[k]]} space"
                )
            s.cells.append(ci)
        s.strips.append(strip)
        s.sides.append(side)
    for slot, win in enumerate(windows):
        where = f"{field}.windows[{slot}]"
        if not isinstance(win, list) or len(win) != FRAMES:
            raise PositionError(f"{where}: expected [top, bottom] (colours or nulls)")
        top, bottom = (-1 if c is None else color(c, f"{where}", names) for c in win)
        if bottom >= 0 and top < 0:
            raise PositionError(f"{where}: the bottom frame fills only after the top frame")
        s.windows += [top, bottom]


def _check_consistency(game: SintraGame, s: SintraState) -> None:
    """Conservation of all 100 pieces and the invariants of the rules."""
    set_aside = s._set_aside()
    if len(set_aside) != sum(1 for k, _, _ in s.deals if k == ORDER):
        raise PositionError("pending_draws: one 'round N' draw per round 2-6 without a piece")
    for c in range(NC):
        total = (
            sum(s.sources[c::NC])
            + s.bag[c]
            + s.tower[c]
            + s.cells.count(c)
            + s.windows.count(c)
            + s.indicator.count(c)
            + set_aside.count(c)
        )
        if total != PIECES_PER_COLOR:
            name = game.components.colors[c]
            raise PositionError(f"pieces: {name} adds up to {total}, expected {PIECES_PER_COLOR}")
    pending_strips = {(a, b) for k, a, b in s.deals if k == STRIP}
    for p in range(game.players):
        for slot in range(SLOTS):
            i = p * SLOTS + slot
            complete = s.windows[p * WINDOW_FRAMES + slot * FRAMES + 1] >= 0
            where = f"players[{p}].strips[{slot}]"
            if s.strips[i] < 0 and not complete and (p, slot) not in pending_strips:
                raise PositionError(f"{where}: a strip leaves only when its window is complete")
            if s.strips[i] >= 0 and complete:
                raise PositionError(f"{where}: the window below is complete, so it was removed")
            full = min(s.cells[i * SPACES : (i + 1) * SPACES]) >= 0 and s.strips[i] >= 0
            keeping = s.kind == KEEPING and p == s.player and slot == s.keep_slot
            if full and not keeping:
                raise PositionError(f"{where}: a full strip is resolved at once")
            if keeping and not full:
                raise PositionError(f"keep_strip: strip {slot + 1} is not complete")
    if s.kind == KEEPING and s.keep_slot < 0:
        raise PositionError("keep_strip: a 'keep' decision names the completed strip")
    if s.kind != KEEPING and s.keep_slot >= 0:
        raise PositionError("keep_strip: only a 'keep' decision has one")
    placed = [c for c in s.indicator[1:] if c >= 0]
    if len(set(placed)) != len(placed):
        raise PositionError("indicator: rounds 2-6 hold one piece of each colour")
    pending_rounds = {a for k, a, _ in s.deals if k == ORDER} | (
        {0} if any(k == INDICATOR for k, _, _ in s.deals) else set()
    )
    for i in range(ROUNDS):
        if i < s.round - 1 and s.indicator[i] >= 0:
            raise PositionError(f"indicator[{i}]: round {i + 1} is over, its piece is gone")
        if i >= s.round - 1 and s.indicator[i] < 0 and i not in pending_rounds and s.kind != OVER:
            raise PositionError(f"indicator[{i}]: round {i + 1} has no piece")
    if s.deals and not game.explicit_chance:
        raise PositionError("pending_draws: must be empty unless explicit_chance is on")
    for f in range(1, game.factories + 1):
        k = sum(1 for kind, a, _ in s.deals if kind == FACTORY and a == f)
        if k and sum(s.sources[f * NC : (f + 1) * NC]) + k > PIECES_PER_FACTORY:
            raise PositionError(f"pending_draws: factory {f} cannot take {k} more pieces")
    if (FIRST, 0, 0) in s.deals[1:]:
        raise PositionError("pending_draws: 'first_player' can only be the first draw")
    if s.deals and s.deals[0][0] in (INDICATOR, FACTORY) and not any(s.bag):
        raise PositionError("bag: empty while pieces are to be drawn (the tower is tipped first)")
    if s.kind not in (OVER,) and not s.deals and not any(s.sources) and s.kind != KEEPING:
        raise PositionError("factories: nothing is left to take, so the round is over")
