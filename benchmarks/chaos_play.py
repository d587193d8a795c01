"""The chaos benchmark's scripted players, and the notes they keep for the audit.

Each seat's client follows its game on a WebSocket to one server, and asks any server for the
view over HTTP when the socket is quiet or down. On every view that offers it moves, it chooses
a random legal move and sends it, over HTTP to any server or on its WebSocket (each game keeps
to one of the two). It acts on a view even when it has seen a newer one (views reach a client
out of order: a socket's next message may be older than the answer to a request), as any API
client may: the server must judge a move on the view it was chosen on.

Every move sent is written down with the view it was chosen on (how many moves that view
showed, and the last of them) and what became of it: acknowledged when the client saw a view
come back with it, refused, or failed (no answer). ``audit`` then holds these notes against
each game's stored record. A view a server gives (over HTTP, or first on a new WebSocket)
older than one the game's clients had seen before asking is a stale view.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections import Counter
from dataclasses import dataclass, field

import httpx
import websockets
from websockets.exceptions import WebSocketException

from azul.core.records import parse_record

ANSWER_SECONDS = 5.0  # a move with no answer by then has failed
CONNECT_SECONDS = 3.0
Move = tuple[int, int, str]  # ply, seat, notation: one entry of a view's log
COUNTED = (  # the audit's counts, in the order of its report
    *("sent", "acknowledged", "refused_stale", "refused_other", "failed", "unanswered"),
    *("views", "stale_views", "finished_games", "checked_games", "unchecked_games"),
    *("acknowledged_checked", "acknowledged_stored", "lost", "duplicated", "stale_applied"),
    *("stored", "stored_unacknowledged", "unacknowledged_applied", "unexplained"),
)


@dataclass
class Sent:
    """A move a seat's client sent, the view it was chosen on, and what became of it."""

    seat: int
    seen: int  # the moves the view showed (its ply)
    last: Move | None  # the last of them
    move: str  # notation
    via: int  # the server it went to
    at: float
    socket: bool = False  # sent on the WebSocket (else over HTTP)
    status: str = "unanswered"  # acknowledged, refused_stale, refused_other, failed
    ply: int | None = None  # where the acknowledging view shows it


@dataclass
class Game:
    """A game the players play, and what its clients saw."""

    id: str
    watch: str
    tokens: dict[int, str]  # the scripted seats'
    bots: set[int]  # the bot seats
    transport: str  # how moves are sent: "http" or "ws"
    sent: list[Sent] = field(default_factory=list)
    newest: int = -1  # the highest version any of its clients saw
    views: int = 0
    stale_views: int = 0  # views served older than one its clients had seen before asking
    bot_seen: int = 0  # the ply of the latest bot move seen
    acknowledged: dict[int, set[int]] = field(default_factory=dict)  # plies, by seat
    over: bool = False


@dataclass
class Ledger:
    """What every player of a scenario saw: its games, acknowledgements, bot moves, errors."""

    games: list[Game] = field(default_factory=list)
    acks: list[tuple[float, int, str, int, float]] = field(default_factory=list)
    # (when, server, game, ply, when it was sent)
    bot_moves: list[tuple[float, str, int]] = field(default_factory=list)  # (when, game, ply)
    errors: Counter = field(default_factory=Counter)


@dataclass
class Context:
    """What the players of a scenario share."""

    urls: list[str]
    http: httpx.AsyncClient
    ledger: Ledger
    rng: random.Random
    stop: asyncio.Event
    think: float = 0.05
    poll: float = 1.0  # seconds of a quiet WebSocket before asking over HTTP
    ply_field: str | None = None  # the field of a move naming the view it was chosen on


def ply_field(schema: dict) -> str | None:
    """The field a move names its view with in the server's OpenAPI schema, if it has one."""
    found = schema.get("components", {}).get("schemas", {}).get("Move", {})
    properties = found.get("properties", {})
    return next((name for name in ("ply", "version") if name in properties), None)


def _view_in(answer: dict) -> dict | None:
    """The view a refusal carries (as ``view``, or as the answer itself), if any."""
    view = answer.get("view", answer)
    if isinstance(view, dict) and {"version", "log", "legal", "over"} <= view.keys():
        return view
    return None


def _error(e: BaseException) -> str:
    return type(e).__name__


class SeatClient:
    """One seat's client of one game (see the module's docstring)."""

    def __init__(self, ctx: Context, game: Game, seat: int):
        self.ctx, self.game, self.seat = ctx, game, seat
        self.home = seat % len(ctx.urls)  # the server of its WebSocket
        self.ws: websockets.ClientConnection | None = None
        self.retry_at = 0.0
        self.fresh = -1  # on a new socket: the newest version seen before it connected
        self.pending: Sent | None = None
        self.rng = random.Random(ctx.rng.random())
        game.acknowledged.setdefault(seat, set())

    async def run(self) -> None:
        try:
            while not (self.ctx.stop.is_set() or self.game.over):
                view = await self.next_view()
                if view is None:
                    await asyncio.sleep(0.2)
                    continue
                self.see(view)
                await self.maybe_move(view)
        finally:
            if self.ws is not None:
                with contextlib.suppress(Exception):
                    await asyncio.wait_for(self.ws.close(), 2)

    # -- views ------------------------------------------------------------------------------
    def _url(self, server: int) -> str:
        return f"{self.ctx.urls[server]}/api/games/{self.game.id}"

    async def next_view(self) -> dict | None:
        """The next view on the WebSocket, else (quiet, or down) one asked for over HTTP."""
        if self.pending is not None and time.monotonic() > self.pending.at + ANSWER_SECONDS:
            self.resolve("failed")
        if self.ws is None and time.monotonic() >= self.retry_at:
            await self.connect()
        if self.ws is None:
            await asyncio.sleep(self.ctx.poll / 4)  # no socket: ask over HTTP, not too often
        while self.ws is not None:
            try:
                message = json.loads(await asyncio.wait_for(self.ws.recv(), self.ctx.poll))
            except TimeoutError:
                break
            except (WebSocketException, OSError, ValueError) as e:
                self.ctx.ledger.errors[f"websocket: {_error(e)}"] += 1
                self.ws, self.retry_at = None, time.monotonic() + 0.5
                if self.pending is not None and self.pending.socket:
                    self.resolve("failed")
                break
            if "error" in message:
                self.refused_on_socket(message)
                continue
            if self.fresh >= 0 and message["version"] < self.fresh:  # its first view
                self.game.stale_views += 1
            self.fresh = -1
            return message
        return await self.ask()

    async def connect(self) -> None:
        token = self.game.tokens[self.seat]
        url = self._url(self.home).replace("http", "ws", 1) + f"/ws?token={token}"
        newest = self.game.newest
        try:
            self.ws = await websockets.connect(
                url, open_timeout=CONNECT_SECONDS, close_timeout=1, max_size=2**23
            )
            self.fresh = max(newest, 0)
        except (WebSocketException, OSError, TimeoutError) as e:
            self.ctx.ledger.errors[f"websocket connect: {_error(e)}"] += 1
            self.retry_at = time.monotonic() + 0.5

    async def ask(self) -> dict | None:
        """The seat's view from any server, over HTTP."""
        server = self.rng.randrange(len(self.ctx.urls))
        token = self.game.tokens[self.seat]
        newest = self.game.newest
        try:
            answer = await self.ctx.http.get(self._url(server), params={"token": token})
            if answer.status_code == 200:
                view = answer.json()
                if view["version"] < newest:  # older than a view seen before asking
                    self.game.stale_views += 1
                return view
            self.ctx.ledger.errors[f"view: {answer.status_code}"] += 1
        except (httpx.HTTPError, ValueError) as e:
            self.ctx.ledger.errors[f"view: {_error(e)}"] += 1
        return None

    def see(self, view: dict) -> None:
        """Note a view: its age, the bots' moves, and the acknowledgement of a move sent."""
        game = self.game
        game.views += 1
        game.newest = max(game.newest, view["version"])
        game.over = game.over or view["over"]
        now = time.monotonic()
        for entry in view["log"]:
            if entry["seat"] in game.bots and entry["ply"] > game.bot_seen:
                game.bot_seen = entry["ply"]
                self.ctx.ledger.bot_moves.append((now, game.id, entry["ply"]))
        sent = self.pending
        if sent is not None:
            ply = self.ply_of(view, sent)
            if ply is not None:
                self.acknowledge(sent, ply)

    def ply_of(self, view: dict, sent: Sent) -> int | None:
        """Where ``view`` shows ``sent``: the latest move of its seat and notation after the
        view it was chosen on, not already taken by an earlier acknowledgement."""
        taken = self.game.acknowledged[sent.seat]
        found = [
            e["ply"]
            for e in view["log"]
            if e["ply"] > sent.seen
            and e["seat"] == sent.seat
            and e["move"] == sent.move
            and e["ply"] not in taken
        ]
        return max(found, default=None)

    def acknowledge(self, sent: Sent, ply: int | None) -> None:
        now = time.monotonic()
        sent.status, sent.ply = "acknowledged", ply
        if ply is not None:
            self.game.acknowledged[sent.seat].add(ply)
        self.ctx.ledger.acks.append((now, sent.via, self.game.id, ply or 0, sent.at))
        self.pending = None

    def resolve(self, status: str) -> None:
        if self.pending is not None:
            self.pending.status = status
            self.pending = None

    def refused_on_socket(self, message: dict) -> None:
        """An error on the WebSocket: the answer to the move sent there, if one is waiting;
        a refusal that carries the status 409 or the view now is one of a stale move."""
        view = _view_in(message)
        stale = 409 in (message.get("status"), message.get("code")) or view is not None
        self.ctx.ledger.errors["move over websocket refused"] += 1
        if self.pending is not None and self.pending.socket:
            self.resolve("refused_stale" if stale else "refused_other")
        if view is not None:
            self.see(view)

    # -- moves ------------------------------------------------------------------------------
    async def maybe_move(self, view: dict) -> None:
        """Choose and send a move if the view offers some and none is waiting for its answer."""
        if not view["legal"] or self.pending is not None or self.game.over:
            return
        choice = self.rng.choice(view["legal"])
        await asyncio.sleep(self.ctx.think * self.rng.uniform(0.5, 1.5))
        log = view["log"]
        last = (log[-1]["ply"], log[-1]["seat"], log[-1]["move"]) if log else None
        sent = Sent(self.seat, len(log), last, choice["move"], self.home, time.monotonic())
        self.game.sent.append(sent)
        self.pending = sent
        body = {"action": choice["action"]}
        field_ = self.ctx.ply_field
        if field_ is not None:
            body[field_] = view.get(field_, len(log) if field_ == "ply" else view["version"])
        if self.game.transport == "ws" and self.ws is not None:
            sent.socket = True
            await self.send_on_socket(body)
        else:
            await self.post(sent, body)

    async def send_on_socket(self, body: dict) -> None:
        try:
            await asyncio.wait_for(self.ws.send(json.dumps(body)), ANSWER_SECONDS)
        except (WebSocketException, OSError, TimeoutError) as e:
            self.ctx.ledger.errors[f"websocket send: {_error(e)}"] += 1
            self.ws, self.retry_at = None, time.monotonic() + 0.5
            self.resolve("failed")

    async def post(self, sent: Sent, body: dict) -> None:
        sent.via = self.rng.randrange(len(self.ctx.urls))
        body["token"] = self.game.tokens[self.seat]
        try:
            answer = await self.ctx.http.post(f"{self._url(sent.via)}/moves", json=body)
            content = answer.json()
        except (httpx.HTTPError, ValueError) as e:
            self.ctx.ledger.errors[f"move: {_error(e)}"] += 1
            self.resolve("failed")
            return
        if answer.status_code == 200:
            self.see(content)
            if self.pending is sent:  # answered, yet its view does not show it
                self.acknowledge(sent, None)
            return
        self.ctx.ledger.errors[f"move: {answer.status_code}"] += 1
        if answer.status_code == 409:
            self.resolve("refused_stale")
            view = _view_in(content)
            if view is not None:  # the view now comes with the refusal
                self.see(view)
        else:
            self.resolve("refused_other" if answer.status_code < 500 else "failed")


async def new_game(ctx: Context, slot: int, bot: bool) -> Game | None:
    """A new game on any server: two scripted seats, or one against a random bot."""
    name = ("sintra", "pavilion")[(slot // 2) % 2] if not bot else "sintra"
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "random"} if bot else {"kind": "human"}]
    url = ctx.urls[ctx.rng.randrange(len(ctx.urls))]
    try:
        answer = await ctx.http.post(f"{url}/api/games", json={"game": name, "seats": seats})
        if answer.status_code == 201:
            g = answer.json()
            tokens = {s["seat"]: s["token"] for s in g["seats"] if s["kind"] == "human"}
            bots = {s["seat"] for s in g["seats"] if s["kind"] == "bot"}
            transport = "ws" if slot % 2 and not bot else "http"
            return Game(g["id"], g["watch_token"], tokens, bots, transport)
        ctx.ledger.errors[f"new game: {answer.status_code}"] += 1
    except (httpx.HTTPError, ValueError) as e:
        ctx.ledger.errors[f"new game: {_error(e)}"] += 1
    await asyncio.sleep(0.5)
    return None


async def keep_playing(ctx: Context, slot: int, bot: bool = False) -> None:
    """Play games one after the other in this slot until the scenario stops."""
    while not ctx.stop.is_set():
        game = await new_game(ctx, slot, bot)
        if game is None:
            continue
        ctx.ledger.games.append(game)
        await asyncio.gather(*(SeatClient(ctx, game, s).run() for s in game.tokens))


async def stop_playing(ctx: Context, tasks: list[asyncio.Task]) -> None:
    """Stop the players, waiting a bounded time for them to finish what they were doing."""
    ctx.stop.set()
    done, left = await asyncio.wait(tasks, timeout=3 * ANSWER_SECONDS)
    for task in left:
        task.cancel()
    await asyncio.gather(*left, return_exceptions=True)
    for task in done:
        if task.exception() is not None:
            ctx.ledger.errors[f"player crashed: {task.exception()!r}"[:200]] += 1


async def record_of(ctx: Context, game: Game, deadline: float) -> list[str] | None:
    """The game's stored record, from any server that answers (ten tries, until
    ``deadline``)."""
    for attempt in range(10):
        if time.monotonic() > deadline:
            break
        url = ctx.urls[attempt % len(ctx.urls)]
        try:
            answer = await ctx.http.get(
                f"{url}/api/games/{game.id}/record", params={"token": game.watch}
            )
            if answer.status_code == 200:
                return answer.text.splitlines()
        except httpx.HTTPError:
            pass
        await asyncio.sleep(1)
    return None


def check(game: Game, lines: list[str], examples: list[dict]) -> Counter:
    """The game's moves as sent and seen, held against its stored record; the first few
    acknowledged moves lost or stale-applied are added to ``examples``."""
    rec = parse_record(lines)
    stored = [(p, m) for p, m in zip(rec.players, rec.moves, strict=True) if p >= 0]
    counts: Counter = Counter(checked_games=1)
    placed: dict[int, Sent] = {}  # ply -> the move sent that is stored there
    for sent in game.sent:
        if sent.status != "acknowledged":
            continue
        counts["acknowledged_checked"] += 1
        k = sent.ply
        if k is None or k > len(stored) or stored[k - 1] != (sent.seat, sent.move) or k in placed:
            counts["lost"] += 1
            examples.append(_example("lost", game, sent, stored))
            continue
        placed[k] = sent
        counts["acknowledged_stored"] += 1
        before = (k - 1, *stored[k - 2]) if k > 1 else None
        if before != sent.last:  # applied after another move than the one its view ended on
            counts["stale_applied"] += 1
            examples.append(_example("stale_applied", game, sent, stored))
    unknown = [s for s in game.sent if s.status in ("failed", "unanswered")]
    for k, (seat, move) in enumerate(stored, 1):
        if seat not in game.tokens or k in placed:
            continue
        counts["stored_unacknowledged"] += 1
        match = [s for s in unknown if (s.seat, s.move) == (seat, move) and s.seen < k]
        if match:  # its answer was lost, but it was played
            unknown.remove(max(match, key=lambda s: s.seen))
            counts["unacknowledged_applied"] += 1
        elif any((s.seat, s.move) == (seat, move) and p < k for p, s in placed.items()):
            counts["duplicated"] += 1
        else:
            counts["unexplained"] += 1
    counts["stored"] = sum(1 for seat, _ in stored if seat in game.tokens)
    return counts


def _example(kind: str, game: Game, sent: Sent, stored: list[tuple[int, str]]) -> dict:
    k = sent.ply or 0
    return {
        "kind": kind,
        "game": game.id,
        "seat": sent.seat,
        "move": sent.move,
        "chosen_on_ply": sent.seen,
        "view_ended_with": sent.last,
        "acknowledged_at_ply": sent.ply,
        "stored_there": stored[k - 1] if 0 < k <= len(stored) else None,
        "stored_before_it": stored[k - 2] if 1 < k <= len(stored) + 1 else None,
    }


async def audit(ctx: Context, seconds: float = 90) -> dict:
    """What the players sent and saw, and the stored records held against it (the records
    not read within ``seconds`` are left unchecked)."""
    deadline = time.monotonic() + seconds
    counts: Counter = Counter()
    examples: list[dict] = []
    for game in ctx.ledger.games:
        counts["sent"] += len(game.sent)
        counts.update(s.status for s in game.sent)
        counts["views"] += game.views
        counts["stale_views"] += game.stale_views
        counts["finished_games"] += game.over
        lines = await record_of(ctx, game, deadline)
        if lines is None:
            counts["unchecked_games"] += 1
        else:
            counts.update(check(game, lines, examples))
    result = {"games": len(ctx.ledger.games), **{k: counts[k] for k in COUNTED}}
    result["errors"] = dict(ctx.ledger.errors.most_common(12))
    result["examples"] = examples[:6]
    return result
