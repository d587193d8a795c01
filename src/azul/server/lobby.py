"""New games, open seats and rematches: a game checked and stored with its setup drawn, a seat
joined from the lobby, the next game of a finished one, and the list of public games."""

from __future__ import annotations

import secrets
import unicodedata
from typing import Any

import azul
from azul.core.errors import AzulError, OptionError
from azul.server import clocks, live
from azul.server.clocks import Clock, TimeControl
from azul.server.errors import Conflict, Forbidden
from azul.server.settings import DEFAULT_FILE, DEFAULT_LEVEL, Settings
from azul.server.store import Seat, StoredGame, now
from azul.server.table import Table, bot_turn, settle
from azul.server.tables import Tables, file_options

MAX_SEED = 2**63  # seeds are 0 .. 2**63 - 1
NAME_LENGTH = 24


def title(game: str) -> str:
    """A game's name for people (an English message the clients translate); its registry
    name for a game without a title or no longer registered."""
    found = azul.GAMES.get(game)
    return (found.title if found is not None else "") or game


def clean_name(name: Any, where: str) -> str | None:
    """A player's name: printable text of at most NAME_LENGTH characters, or None."""
    if name is None:
        return None
    if not isinstance(name, str):
        raise AzulError("{where}: a name is text", where=where)
    name = " ".join(name.split())
    if len(name) > NAME_LENGTH or any(unicodedata.category(ch)[0] == "C" for ch in name):
        raise AzulError(
            "{where}: a name is at most {n} printable characters", where=where, n=NAME_LENGTH
        )
    return name or None


def _seat(i: int, spec: Any, public: bool, settings: Settings) -> Seat:
    where = f"seats[{i}]"
    kind = spec.get("kind") if isinstance(spec, dict) else None
    name = clean_name(spec.get("name"), where) if isinstance(spec, dict) else None
    token = secrets.token_urlsafe(18)
    if kind == "human":
        return Seat(i, kind, token, name=name)
    if kind == "open":
        if not public:
            raise AzulError(
                "{where}: an open seat is joined from the lobby: make the game public",
                where=where,
            )
        return Seat(i, kind, token)
    if kind == "bot":
        level = spec.get("bot") or DEFAULT_LEVEL
        if not isinstance(level, str):
            raise AzulError("{where}.bot: expected a bot level", where=where)
        settings.level(level)  # an unknown level is refused with the known ones
        return Seat(i, kind, token, bot=level, name=name)
    raise AzulError("{where}: kind is 'human', 'open' or 'bot'", where=where)


def _checked_seed(seed: Any) -> None:
    if seed is not None and (
        isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < MAX_SEED
    ):
        raise OptionError("seed: {seed} is not in 0..2**63 - 1", seed=seed)


async def new_game(
    tables: Tables,
    game: str,
    options: dict[str, Any],
    seats: list[dict[str, Any]],
    seed: int | None,
    public: bool,
    clock: Any = None,
) -> StoredGame:
    """Check, store and open a new game, its setup drawn. ``seats`` lists {"kind": "human" |
    "open" | "bot", "bot": level, "name": text}; without a seed every draw is the operating
    system's. ``clock``: the time control (``clocks.TimeControl.parse``; none: untimed)."""
    if not isinstance(options, dict):
        raise OptionError("options: expected an object")
    if "explicit_chance" in options:
        raise OptionError("explicit_chance: the server decides how chance is drawn")
    _checked_seed(seed)
    seeded = seed is not None
    if game not in azul.GAMES:
        azul.load_game(game)  # names the games there are
    stored_options = dict(options)
    files = {option.name for option in file_options(game)}
    for name in files:  # stored by the name the players chose
        stored_options[name] = options.get(name) or DEFAULT_FILE
    engine = tables.engine_options(game, stored_options, seeded)
    g = azul.load_game(game, **engine)  # a bad option is named here
    for key, value in g.options.items():  # stored with every default
        if key != "explicit_chance" and key not in files:
            stored_options[key] = value
    engine = tables.engine_options(game, stored_options, seeded)
    if not isinstance(seats, list) or len(seats) != g.info.num_players:
        raise AzulError(
            "seats: {n} players need {n} seats, got {got}",
            n=g.info.num_players,
            got=len(seats) if isinstance(seats, list) else 0,
        )
    rows = [_seat(i, spec, public, tables.settings) for i, spec in enumerate(seats)]
    control = TimeControl.parse(clock, DEFAULT_LEVEL)
    tables.settings.level(control.bot)  # the bot of a timeout is a level like any other
    state: azul.State = g.new_initial_state(0 if seed is None else seed)
    log: list[tuple[int, int]] = []
    notation: list[str] = []
    settle(state, log, notation)
    timing: Clock | None = None
    if control.timed:
        first = state.current_player()
        person = first >= 0 and rows[first].kind == "human"  # an open seat's clock waits
        timing = Clock.new(control, len(rows)).started(first if person else None, clocks.now())
    stored = StoredGame(
        id=secrets.token_hex(8),
        game=game,
        options=stored_options,
        seed=secrets.randbelow(MAX_SEED) if seed is None else seed,
        seeded=seeded,
        public=bool(public),
        finished=False,
        watch_token=secrets.token_urlsafe(18),
        created=now(),
        seats=rows,
        log=log,
        version=0,
        bot_turn=bot_turn(state, rows),
        clock=timing,
    )
    await tables.io(tables.store.create, stored)
    tables.open(Table(stored, engine, state, notation, []))  # the bots start if first
    return stored


def created(stored: StoredGame) -> dict[str, Any]:
    """The answer to a new game: its id, seats and the people's tokens (an open seat's is
    given to whoever joins)."""
    return {
        "id": stored.id,
        "seeded": stored.seeded,
        "seats": [
            {
                "seat": r.seat,
                "kind": r.kind,
                "bot": r.bot,
                "name": r.name,
                "token": r.token if r.kind == "human" else None,
            }
            for r in stored.seats
        ],
        "watch_token": stored.watch_token,
    }


async def public_games(tables: Tables) -> list[dict[str, Any]]:
    """The public games: open seats to join and games to watch, newest first."""
    games = await tables.io(tables.store.list_public, tables.settings.lobby_games)
    return [
        {
            "id": g.id,
            "game": g.game,
            "title": title(g.game),
            "options": live.shown_options(g),
            "seeded": g.seeded,
            "created": g.created,
            "over": g.finished,
            "seats": live.seats(g),
            "open": [s.seat for s in g.seats if s.kind == "open"],
            "watch_token": g.watch_token,
            "clock": None if g.clock is None else g.clock.control.to_json(),
        }
        for g in games
    ]


async def join(tables: Tables, game_id: str, seat: Any, name: Any) -> dict[str, Any]:
    """Take an open seat of a public game: its token."""
    name = clean_name(name, "name")
    async with tables.use(game_id) as table:
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise AzulError("seat: expected a seat number")
        seats = table.stored.seats
        if not 0 <= seat < len(seats):
            raise AzulError(
                "seat {seat}: this game has seats 0..{last}", seat=seat, last=len(seats) - 1
            )
        token = secrets.token_urlsafe(18)
        async with table.lock:
            clock = table.stored.clock  # an open seat's clock starts when it is joined
            if clock is not None and table.state.current_player() == seat:
                clock = clock.started(seat, clocks.now())
            if seats[seat].kind != "open" or not await tables.io(
                tables.store.claim, game_id, seat, name, token, clock
            ):
                raise Conflict("seat {seat} is not open", seat=seat)
            await tables.refresh(table)  # the seat, and the version the claim bumped
        return {"id": game_id, "seat": seat, "token": token}


async def name_seat(tables: Tables, game_id: str, token: str | None, name: Any) -> None:
    """Name your seat, once: an invited friend, whose seat the creator left without a name."""
    name = clean_name(name, "name")
    if name is None:
        raise AzulError("name: a name is needed")
    async with tables.use(game_id) as table:
        seat = table.seat_of(token)
        if seat is None:
            raise Forbidden("a spectator link has no seat to name")
        async with table.lock:
            if not await tables.io(tables.store.name_seat, game_id, seat, name):
                raise Conflict("seat {seat} already has a name", seat=seat)
            await tables.refresh(table)


async def rematch(tables: Tables, game_id: str, token: str | None) -> dict[str, Any]:
    """The next game of a finished one: same game, options and seats, a new deal. The first
    person to ask makes it; everyone then finds their new link in their view."""
    async with tables.use(game_id) as table:
        seat = table.seat_of(token)
        if seat is None:
            raise Forbidden("a spectator link cannot start a rematch")
        if not table.state.is_terminal():
            raise Conflict("the game is not over")
        async with table.lock:
            if table.stored.rematch is None:
                s = table.stored
                seats = [{"kind": x.kind, "bot": x.bot, "name": x.name} for x in s.seats]
                control = None if s.clock is None else s.clock.control.to_json()
                made = await new_game(
                    tables, s.game, live.shown_options(s), seats, None, s.public, control
                )
                # False: another process linked one first, which the refresh brings
                await tables.io(tables.store.link_rematch, s.id, made.id)
                await tables.refresh(table)
        link = table.rematch_link(seat)
        if link is None:  # linked in the store, but not found there when loaded
            raise Conflict("the game changed meanwhile: reload it")
        return link
