"""What each audience of a table is sent: the seats' and the spectators' views as JSON text,
built once per version, and the live connections that are posted each new one.

A client only ever receives the public view of a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from azul import i18n
from azul.server import clocks
from azul.server.errors import TooMany
from azul.server.settings import LEVEL_NAMES
from azul.server.store import StoredGame
from azul.server.table import Listener, Table, encode


def shown_options(stored: StoredGame) -> dict[str, Any]:
    """A game's options as its players chose them (how chance is drawn is the server's)."""
    return {k: v for k, v in stored.options.items() if k != "explicit_chance"}


def seats(stored: StoredGame) -> list[dict[str, Any]]:
    return [
        {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "away": s.away}
        for s in stored.seats
    ]


def display_name(stored: StoredGame, seat: int, lang: str) -> str:
    """A seat's name in drawings: the player's, else the bot's level, else "seat N"."""
    s = stored.seats[seat]
    gettext: Callable[[str], str] = i18n.in_language(lang)
    if s.name:
        return s.name
    if s.kind == "bot" and s.bot:
        return gettext(LEVEL_NAMES.get(s.bot, s.bot))
    return gettext("seat {seat}").format(seat=seat + 1)  # people count seats from 1


def view(table: Table, seat: int | None, details: bool = True) -> str:
    """A seat's or the spectators' view as JSON text, built once per change (only the text
    is kept: it is what every listener is sent). What every audience sees alike is
    encoded once per change, and each move of the log once for the game's life.
    ``details``: the legal moves carry their words, preview and details (most of the work
    of a view, and only a client that shows them asks for them)."""
    details = details and seat is not None and seat == table.state.current_player()
    known = table.views.get((seat, details))
    if known is None:
        known = table.views[seat, details] = (
            f'{head(table, seat, details)},"log":[{table.log_text()}]'
        )
    return f"{known},{clocks.stamp()}}}" if table.stored.clock else f"{known}}}"


def head(table: Table, seat: int | None, details: bool) -> str:
    """A view's JSON text without its log and closing brace, built once per change."""
    state = table.state
    details = details and seat is not None and seat == state.current_player()
    known = table.heads.get((seat, details))
    if known is not None:
        return known
    position = state.public_view(seat)
    position["options"] = shown_options(table.stored)
    own = {
        "you": seat,
        "legal": _legal(table, seat, details),
        "can_undo": seat is not None and table.undo_point(seat) is not None,
        "rematch": table.rematch_link(seat),
        "position": position,
    }
    known = table.heads[seat, details] = f"{{{_shared(table)},{encode(own)[1:-1]}"
    return known


def _shared(table: Table) -> str:
    """The JSON text, without braces, of what every audience's view holds."""
    if table.shared:
        return table.shared
    state = table.state
    to_move = state.current_player()
    alike = {
        "id": table.stored.id,
        "version": table.stored.version,  # clients keep the newest view they got
        "game": table.stored.game,
        "title": state.game.title or table.stored.game,  # an English message to translate
        "options": shown_options(table.stored),
        "seeded": table.stored.seeded,
        "palette": state.game.presenter().palette(),
        "notice": state.game.notice(),  # an English message to translate ("" for none)
        "seats": seats(table.stored),
        "to_move": to_move if to_move >= 0 else None,
        "decision": state.decision(),
        "over": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "breakdown": state.score_breakdown(),
        "last": _last_moves(table),
        # the time control and each seat's time left; the running clock's deadline and start
        # are the server's times, as "now" is in every view sent
        "clock": None if table.stored.clock is None else table.stored.clock.to_json(),
    }
    table.shared = encode(alike)[1:-1]
    return table.shared


def _legal(table: Table, seat: int | None, details: bool) -> list[dict[str, Any]]:
    """The legal moves of the seat to move: each one's action, notation and targets, and
    with ``details`` what a client shows of it; none for any other audience."""
    state = table.state
    if (
        seat is None
        or seat != state.current_player()
        or table.kind(seat) != "human"
        or table.stored.seats[seat].away
    ):
        return []
    actions = state.legal_actions()
    shown = state.game.presenter()
    if not details:
        return [
            {
                "action": a,
                "move": state.action_to_string(a),
                "targets": shown.action_targets(state, a),
            }
            for a in actions
        ]
    return [
        {
            "action": a,
            "move": state.action_to_string(a),
            "targets": shown.action_targets(state, a),
            "details": shown.action_details(state, a),
            "preview": preview,
            "text": shown.describe_action(state, a).to_json(),
        }
        for a, preview in zip(actions, shown.action_previews(state, actions), strict=True)
    ]


def _last_moves(table: Table) -> list[dict[str, Any] | None]:
    """Each seat's last move: its number, what was clicked, where the pieces went."""
    last: list[dict[str, Any] | None] = [None] * len(table.stored.seats)
    missing = len(last)
    for ply in range(len(table.played), 0, -1):  # from the end, until every seat is found
        m = table.played[ply - 1]
        if last[m.seat] is None:
            last[m.seat] = {"ply": ply, "clicked": m.clicked, "marks": m.marks}
            missing -= 1
            if not missing:
                break
    return last


def subscribe(table: Table, seat: int | None, most: int, details: bool = False) -> Listener:
    """A live connection to a table, for ``seat``'s audience, posted its view at once; at most
    ``most`` per table. ``details``: its legal moves carry their words, preview and details."""
    if len(table.listeners) >= most:
        raise TooMany("this game has too many live connections", retry_after=60)
    listener = Listener(seat, details, table.stored.clock is not None)
    table.listeners.append(listener)
    listener.post(head(table, seat, details), tuple(table.played))
    return listener


def unsubscribe(table: Table, listener: Listener) -> None:
    if listener in table.listeners:
        table.listeners.remove(listener)
    table.used = time.monotonic()


def post(table: Table) -> None:
    """Send every live connection of a table the new view of its audience."""
    played = tuple(table.played)
    for listener in table.listeners:
        listener.post(head(table, listener.seat, listener.details), played)
