"""One game's table in memory: its stored game, its position, the moves as clients show them,
and what undo may take back. No store and no transport: the other server modules use it.

Unless a game was created with a seed, every chance outcome is drawn from the operating
system's generator when it is due and stored in the log with the moves, so nothing a client can
see predicts a future draw.
"""

from __future__ import annotations

import asyncio
import random
import secrets
import time
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import orjson

import azul
from azul.core.api import Target
from azul.core.errors import IllegalMoveError
from azul.server import clocks
from azul.server.clocks import TIMEOUTS_TO_AWAY, Clock
from azul.server.errors import Forbidden
from azul.server.settings import DEFAULT_LEVEL
from azul.server.store import CHANCE_SEAT, Seat, StoredGame

MOVE_LENGTH = 64  # characters of a move's notation, at most
_SYSTEM = random.SystemRandom()  # the operating system's generator


def position(game: str, options: dict[str, Any], seed: int, actions: list[int]) -> azul.State:
    """A game's position rebuilt from its log."""
    state: azul.State = azul.load_game(game, **options).new_initial_state(seed)
    for a in actions:
        state.apply_action(a)
    return state


def draw(state: azul.State) -> int:
    """A chance outcome drawn by the operating system's generator, by its probability."""
    outcomes = state.chance_outcomes()
    return _SYSTEM.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0]


def settle(
    state: azul.State, log: list[tuple[int, int]], notation: list[str] | None = None
) -> None:
    """Draw every chance outcome now due, appending them to ``log`` (and their notation)."""
    while state.is_chance_node():
        outcome = draw(state)
        if notation is not None:
            notation.append(state.action_to_string(outcome))
        state.apply_action(outcome)
        log.append((CHANCE_SEAT, outcome))


def bot_turn(state: azul.State, seats: list[Seat]) -> bool:
    """Whether a bot is to move in ``state``: a bot's seat, or a person's that a bot keeps."""
    seat = state.current_player()
    return not state.is_terminal() and seat >= 0 and (seats[seat].kind == "bot" or seats[seat].away)


def clock_after(
    stored: StoredGame, after: azul.State, seat: int, by: str | None, at: float
) -> tuple[Clock | None, int | None]:
    """A timed game's clocks once ``seat`` moved at ``at`` into ``after`` (by a bot, and why),
    the next person's running; and the seat a bot keeps from now on, if its timeouts in a row
    reached TIMEOUTS_TO_AWAY."""
    if stored.clock is None:
        return None, None
    clock = stored.clock.moved(seat, at, by == "timeout")
    away = seat if by == "timeout" and clock.timeouts[seat] >= TIMEOUTS_TO_AWAY else None
    to_move = after.current_player()
    runs = (
        not after.is_terminal()
        and to_move >= 0
        and stored.seats[to_move].kind == "human"
        and not stored.seats[to_move].away
        and to_move != away
    )
    return clock.started(to_move if runs else None, at), away


def check_move(action: Any, move: Any, version: Any) -> None:
    """A move's fields as a client sent them: an action id or a notation of at most
    MOVE_LENGTH characters, and perhaps the version of the view it was chosen on."""
    if (action is None) == (move is None):
        raise IllegalMoveError("send either 'action' (an id) or 'move' (the notation)")
    if action is not None and (isinstance(action, bool) or not isinstance(action, int)):
        raise IllegalMoveError("action: an action is a whole number")
    if move is not None and (not isinstance(move, str) or len(move) > MOVE_LENGTH):
        raise IllegalMoveError("move: a move is text of at most {n} characters", n=MOVE_LENGTH)
    if version is not None and (
        isinstance(version, bool) or not isinstance(version, int) or version < 0
    ):
        raise IllegalMoveError("version: the version of a view is a whole number")


def encode(document: Any) -> str:
    """JSON text of a view's parts: orjson, as a view of many legal moves is tens of KB,
    encoded for every move of every game (the standard encoder took most of the server's
    time under load)."""
    return orjson.dumps(document).decode()


@dataclass(frozen=True)
class Played:
    """A player's move as clients show it: where it is in the log, who, the notation, the words
    (a Message as JSON), what was clicked and where the pieces went."""

    index: int
    seat: int
    move: str
    text: dict[str, Any]
    clicked: list[Target]
    marks: list[Target]
    by: str | None = None  # a person's move a bot played: "timeout" or "away"

    @classmethod
    def of(cls, state: azul.State, index: int, action: int, by: str | None = None) -> Played:
        """The move ``action`` about to be played in ``state`` (by a bot for its person,
        and why)."""
        shown = state.game.presenter()
        return cls(
            index,
            state.current_player(),
            state.action_to_string(action),
            shown.describe_action(state, action).to_json(),
            shown.action_targets(state, action),
            shown.action_marks(state, action),
            by,
        )

    def to_json(self, ply: int) -> dict[str, Any]:
        return {"ply": ply, **self._shown()}

    def _shown(self) -> dict[str, Any]:
        shown = {"seat": self.seat, "move": self.move, "text": self.text}
        return shown | ({"by": self.by} if self.by else {})

    @cached_property
    def body(self) -> str:
        """The JSON text of ``to_json`` without its ply and braces, made once: a view lists
        every move of the game, and every view of every version would encode them again."""
        return encode(self._shown())[1:-1]


@dataclass
class Listener:
    """A live connection: it is sent the newest view of its audience, older ones are dropped.
    ``details``: whether its legal moves carry their words, preview and details.

    A view is posted as its text without the log (``head``) and the log's moves; what is sent
    carries only the moves the connection was not sent yet, after the first ``log_from``
    (a game's whole log grows with every move, and every view would repeat it)."""

    seat: int | None
    details: bool = False
    timed: bool = False  # the game has a clock: each view sent says the server's time
    ready: asyncio.Event = field(default_factory=asyncio.Event)
    head: str = "{"
    played: tuple[Played, ...] = ()
    sent: tuple[int, Played | None] = (0, None)  # how many moves were sent, and the last one

    def post(self, head: str, played: tuple[Played, ...]) -> None:
        self.head, self.played = head, played
        self.ready.set()

    async def next(self) -> str:
        await self.ready.wait()
        self.ready.clear()
        return self.text()

    def text(self) -> str:
        """The newest view, with the moves of the log this connection was not sent yet (all
        of them when an undo or a reload changed the moves it was sent)."""
        played = self.played
        start, last = self.sent
        if start > len(played) or (start and played[start - 1] is not last):
            start = 0
        more = ",".join(f'{{"ply":{n},{m.body}}}' for n, m in enumerate(played[start:], start + 1))
        self.sent = (len(played), played[-1] if played else None)
        now = f",{clocks.stamp()}" if self.timed else ""
        return f'{self.head},"log_from":{start},"log":[{more}]{now}}}'


@dataclass
class Table:
    stored: StoredGame
    options: dict[str, Any]  # the engine's options
    state: azul.State
    notation: list[str]  # of each log entry
    played: list[Played]  # each player move
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    thinking: bool = False  # a bot task is running for this table
    listeners: list[Listener] = field(default_factory=list)
    # JSON text of the views, by audience and whether legal moves carry their details
    views: dict[tuple[int | None, bool], str] = field(default_factory=dict)
    heads: dict[tuple[int | None, bool], str] = field(default_factory=dict)  # views less the log
    shared: str = ""  # the JSON text of what every audience's view holds, this version
    users: int = 0  # requests using the table now
    used: float = field(default_factory=time.monotonic)
    undo_points: dict[int, int | None] = field(default_factory=dict)  # by seat, this version
    follow: StoredGame | None = None  # the rematch, once there is one
    epoch: int = 0  # the lobby's epoch when the table was last read from the store
    logged: tuple[Played | None, str] = (None, "")  # the log's last move, and its JSON text
    timer: asyncio.TimerHandle | None = None  # set to the running clock's deadline
    timer_at: float | None = None

    def log_text(self) -> str:
        """The JSON text of the log's entries (without brackets), extended as moves are
        played rather than made again for every version. A move is at the same place in
        every list that holds it (moves are appended, undone from the end, or all read again
        as new objects), so the last move known names the text's moves."""
        last, text = self.logged
        played = self.played
        if not played:
            return ""
        if played[-1] is last:
            return text
        start = 0
        if last is not None:
            try:
                start = next(i for i in range(len(played) - 1, -1, -1) if played[i] is last) + 1
            except StopIteration:
                start, text = 0, ""
        else:
            text = ""
        more = ",".join(f'{{"ply":{n},{m.body}}}' for n, m in enumerate(played[start:], start + 1))
        text = f"{text},{more}" if text else more
        self.logged = (played[-1], text)
        return text

    def seat_of(self, token: Any) -> int | None:
        """The seat a token plays, None for the spectator token; Forbidden otherwise (any
        text: tokens are ASCII, and compare_digest refuses other text)."""
        if isinstance(token, str) and token.isascii():
            for seat in self.stored.seats:
                if seat.kind != "open" and secrets.compare_digest(seat.token, token):
                    return seat.seat
            if secrets.compare_digest(self.stored.watch_token, token):
                return None
        raise Forbidden("this link's token does not belong to this game")

    def kind(self, seat: int) -> str:
        return self.stored.seats[seat].kind

    def bot_for(self, seat: int, at: float) -> tuple[str, str | None] | None:
        """Who plays ``seat``'s move at time ``at``, if a bot does: its level, and why it plays
        a person's move ("away": it keeps the seat; "timeout": the person's time ran out)."""
        s, clock = self.stored.seats[seat], self.stored.clock
        if s.kind == "bot":
            return s.bot or DEFAULT_LEVEL, None
        if clock is not None and s.away:
            return clock.control.bot, "away"
        if clock is not None and clock.ran_out(seat, at):
            return clock.control.bot, "timeout"
        return None

    def actions(self, upto: int | None = None) -> list[int]:
        return [a for _, a in self.stored.log[:upto]]

    def changed(self) -> None:
        self.views.clear()
        self.heads.clear()
        self.shared = ""
        self.undo_points.clear()

    def replay(self, upto: int | None) -> azul.State:
        """The position after the first ``upto`` entries of the log."""
        s = self.stored
        return position(s.game, self.options, s.seed, self.actions(upto))

    def undo_point(self, seat: int) -> int | None:
        """Where the log goes back to when ``seat`` undoes: before its last move, taking back
        the bots' replies since, as long as no other person acted and nothing was drawn."""
        if seat in self.undo_points:
            return self.undo_points[seat]
        point = None
        if not self.state.is_terminal() and self.stored.clock is None:  # none in timed games
            for m in reversed(self.played):
                if m.seat == seat:
                    point = None if m.by else m.index  # a bot's move for its person stays
                    break
                if self.kind(m.seat) != "bot":
                    break
        if point is not None:
            later = self.stored.log[point:]
            if any(s == CHANCE_SEAT for s, _ in later):
                point = None  # the server drew pieces since
            elif (  # did the state's own generator draw?
                not self.options["explicit_chance"]
                and self.replay(point).draws() != self.state.draws()
            ):
                point = None
        self.undo_points[seat] = point
        return point

    def rematch_link(self, seat: int | None) -> dict[str, Any] | None:
        """The link of the next game for this audience: its id and this seat's token there."""
        follow = self.follow
        if follow is None:
            return None
        if seat is None or follow.seats[seat].kind != "human":
            return {"id": follow.id, "token": follow.watch_token}
        return {"id": follow.id, "token": follow.seats[seat].token}
