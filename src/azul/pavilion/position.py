"""Summer Pavilion positions as JSON documents (docs/pavilion-position.md): write, read, validate.

Reading checks everything and raises PositionError naming the field; it never half-loads.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azul.core.errors import PositionError
from azul.core.validate import (
    FORMAT,
    VERSION,
    boolean,
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
from azul.pavilion import data
from azul.pavilion.actions import space_code
from azul.pavilion.state import (
    ACQUIRE,
    BONUS_PICK,
    FIRST_PLAYER,
    KIND_NAMES,
    OVER,
    PLAY,
    TO_SUPPLY,
    PavilionState,
)
from azul.pavilion.tables import POPCOUNT

if TYPE_CHECKING:
    from azul.pavilion.game import PavilionGame

NC = data.NUM_COLORS
_TOP_FIELDS = {
    "format",
    "version",
    "game",
    "options",
    "round",
    "decision",
    "to_move",
    "start_player",
    "token",
    "bonus_owed",
    "factories",
    "centre",
    "supply",
    "bag",
    "tower",
    "players",
    "pending_draws",
    "rng",
    "history",
}
_REQUIRED = _TOP_FIELDS - {"pending_draws", "rng", "history", "options", "bonus_owed"}
_PLAYER_FIELDS = {"score", "hand", "kept", "passed", "board"}
_SPACE_CODES = {space_code(sp): sp for sp in range(data.NUM_SPACES)}


# ---------------------------------------------------------------------- writing
def _counts(values: list[int]) -> dict[str, int]:
    return write_counts(values, data.COLORS)


def _read_counts(value: Any, field: str, most: int | None = None) -> list[int]:
    return counts(value, field, data.COLORS, most)


def _color(name: Any, field: str) -> int:
    return color(name, field, data.COLORS)


def _deal_name(dest: int) -> str:
    if dest == FIRST_PLAYER:
        return "first_player"
    return "supply" if dest == TO_SUPPLY else f"factory {dest}"


def state_to_json(state: PavilionState) -> dict[str, Any]:
    """The full position, generator state included (never send this to a player)."""
    game = state.game
    players = []
    for p in range(game.players):
        board = {}
        for sp in range(data.NUM_SPACES):
            if state.filled[p] >> sp & 1:
                board[space_code(sp)] = data.COLORS[state.cells[p * data.NUM_SPACES + sp]]
        players.append(
            {
                "score": state.points[p],
                "hand": _counts(state.hands[p * NC : (p + 1) * NC]),
                "kept": _counts(state.kept[p * NC : (p + 1) * NC]),
                "passed": bool(state.passed >> p & 1),
                "board": board,
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
        "token": None if state.token < 0 else state.token,
        "bonus_owed": state.owed,
        "factories": [
            _counts(state.sources[f * NC : (f + 1) * NC]) for f in range(1, game.factories + 1)
        ],
        "centre": _counts(state.sources[:NC]),
        "supply": _counts(state.supply),
        "bag": _counts(state.bag),
        "tower": _counts(state.tower),
        "players": players,
        "pending_draws": [_deal_name(d) for d in state.deals],
        "rng": state._rng,
        "history": list(state.hist),
    }


# ---------------------------------------------------------------------- reading
def _read_deal(value: Any, field: str, factories: int) -> int:
    if value == "first_player":
        return FIRST_PLAYER
    if value == "supply":
        return TO_SUPPLY
    if isinstance(value, str) and value.startswith("factory "):
        tail = value[len("factory ") :]
        if tail.isdigit() and 1 <= int(tail) <= factories:
            return int(tail)
    raise PositionError(
        f"{field}: {value!r} is not 'first_player', 'supply' or 'factory 1'..'factory {factories}'"
    )


def state_from_json(game: PavilionGame, doc: Any, seed: int | None = None) -> PavilionState:
    """Build a state from a position document, or raise PositionError naming the bad field."""
    header(doc, game, _TOP_FIELDS, _TOP_FIELDS - _REQUIRED)
    n = game.players
    s = PavilionState(game, setup=False)
    s.round = integer(doc["round"], "round", 1, data.ROUNDS)
    s.kind = choice(doc["decision"], "decision", KIND_NAMES)
    s.player = seat(doc["to_move"], "to_move", n)
    s.start = seat(doc["start_player"], "start_player", n)
    s.token = -1 if doc["token"] is None else seat(doc["token"], "token", n)
    s.owed = integer(doc.get("bonus_owed", 0), "bonus_owed", 0, 3)
    factories = doc["factories"]
    if not isinstance(factories, list) or len(factories) != game.factories:
        raise PositionError(f"factories: expected a list of {game.factories} factories")
    s.sources = _read_counts(doc["centre"], "centre")
    for f, fac in enumerate(factories, 1):
        s.sources += _read_counts(fac, f"factories[{f - 1}]", data.TILES_PER_FACTORY)
    s.supply = _read_counts(doc["supply"], "supply", data.SUPPLY_SPACES)
    s.bag = _read_counts(doc["bag"], "bag")
    s.tower = _read_counts(doc["tower"], "tower")
    players = doc["players"]
    if not isinstance(players, list) or len(players) != n:
        raise PositionError(f"players: expected a list of {n} players")
    s.points, s.hands, s.kept, s.filled, s.colors, s.passed = [], [], [], [], [], 0
    s.cells = []
    for p, pl in enumerate(players):
        _read_player(game, s, p, pl)
    deals = doc.get("pending_draws", [])
    if not isinstance(deals, list):
        raise PositionError("pending_draws: expected a list")
    s.deals = [_read_deal(d, f"pending_draws[{i}]", game.factories) for i, d in enumerate(deals)]
    s._rng = generator(doc, game.explicit_chance, seed)
    s.hist = history(doc)
    _check_consistency(game, s)
    return s


def _read_player(game: PavilionGame, s: PavilionState, p: int, pl: Any) -> None:
    field = f"players[{p}]"
    fields(pl, field, _PLAYER_FIELDS)
    floor = game.options["score_floor"]
    s.points.append(integer(pl["score"], f"{field}.score", floor))
    s.hands += _read_counts(pl["hand"], f"{field}.hand")
    s.kept += _read_counts(pl["kept"], f"{field}.kept", data.CORNER_SPACES)
    s.passed |= boolean(pl["passed"], f"{field}.passed") << p
    board = pl["board"]
    if not isinstance(board, dict):
        raise PositionError(f"{field}.board: expected an object of space -> colour")
    row = [-1] * data.NUM_SPACES
    filled = 0
    colors = [0] * data.NUM_STARS
    for code, name in board.items():
        sp = _SPACE_CODES.get(code)
        if sp is None:
            raise PositionError(f"{field}.board.{code}: not a space (e.g. 'P3', 'C1')")
        c = _color(name, f"{field}.board.{code}")
        star = sp // 6
        where = f"{field}.board.{code}"
        if not game.board.grey and star and c != data.STAR_COLOR[star]:
            raise PositionError(f"{where}: {name} cannot be on the {data.STARS[star]} star")
        if not game.board.grey and star == 0 and colors[0] >> c & 1:
            raise PositionError(f"{where}: the centre star already has a {name} tile")
        row[sp] = c
        filled |= 1 << sp
        colors[star] |= 1 << c
    if game.board.grey:
        for star in range(data.NUM_STARS):
            count = POPCOUNT[(filled >> star * 6) & 63]
            kinds = POPCOUNT[colors[star]]
            if count >= 2 and 1 < kinds < count:
                raise PositionError(
                    f"{field}.board: the {data.STARS[star]} star is neither single-coloured "
                    "nor all different colours"
                )
    s.cells += row
    s.filled.append(filled)
    s.colors += colors


def _check_consistency(game: PavilionGame, s: PavilionState) -> None:
    """Conservation of all 132 tiles and the rules' invariants of each decision."""
    n = game.players
    for c in range(NC):
        total = (
            sum(s.sources[c::NC])
            + s.supply[c]
            + s.bag[c]
            + s.tower[c]
            + sum(s.hands[c::NC])
            + sum(s.kept[c::NC])
            + s.cells.count(c)
        )
        if total != data.TILES_PER_COLOR:
            raise PositionError(
                f"tiles: {data.COLORS[c]} adds up to {total}, expected {data.TILES_PER_COLOR}"
            )
    supply_draws = s.deals.count(TO_SUPPLY)
    if sum(s.supply) + supply_draws > data.SUPPLY_SPACES:
        raise PositionError(f"pending_draws: the supply cannot take {supply_draws} more tiles")
    for f in range(1, game.factories + 1):
        k = s.deals.count(f)
        if k and sum(s.sources[f * NC : (f + 1) * NC]) + k > data.TILES_PER_FACTORY:
            raise PositionError(f"pending_draws: factory {f} cannot take {k} more tiles")
    if FIRST_PLAYER in s.deals[1:]:
        raise PositionError("pending_draws: 'first_player' can only be the first draw")
    if s.deals and not game.explicit_chance:
        raise PositionError("pending_draws: must be empty unless explicit_chance is on")
    if s.deals and s.deals[0] != FIRST_PLAYER and not any(s.bag):
        raise PositionError("bag: empty while tiles are to be drawn (the tower is tipped in first)")
    if s.kind != BONUS_PICK and s.owed:
        raise PositionError("bonus_owed: only a 'bonus' decision owes bonus tiles")
    if s.kind == BONUS_PICK and not 1 <= s.owed <= sum(s.supply):
        raise PositionError("bonus_owed: must be 1..3 and no more than the supply holds")
    for p in range(n):
        passed = s.passed >> p & 1
        if passed and any(s.hands[p * NC : (p + 1) * NC]):
            raise PositionError(f"players[{p}].hand: a player who passed holds no tiles")
        if s.kind == ACQUIRE and passed:
            raise PositionError(f"players[{p}].passed: nobody has passed while tiles are taken")
        if s.kind in (ACQUIRE, OVER) and any(s.kept[p * NC : (p + 1) * NC]):
            raise PositionError(
                f"players[{p}].kept: corners are empty during '{KIND_NAMES[s.kind]}'"
            )
        if s.kind == PLAY and not passed and any(s.kept[p * NC : (p + 1) * NC]):
            raise PositionError(f"players[{p}].kept: only a player who passed has kept tiles")
    if s.kind == OVER:
        if any(s.hands):
            raise PositionError("players: the game is over, so no tiles are in hand")
        return
    if s.passed >> s.player & 1:
        raise PositionError(f"to_move: seat {s.player} has passed this round")
    if s.kind == PLAY and not any(s.hands[s.player * NC : (s.player + 1) * NC]):
        raise PositionError(f"to_move: seat {s.player} has no tiles, so would have passed")
    if s.kind == ACQUIRE and not any(s.sources) and not any(d >= 1 for d in s.deals):
        raise PositionError("factories: no tile is left to take, so Phase 1 is over")
