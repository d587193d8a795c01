"""What each audience of a table is sent: the seats' and the spectators' views as JSON text,
built once per version, and the live connections that are posted each new one.

A client only ever receives the public view of a table.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from azul import i18n
from azul.server.errors import TooMany
from azul.server.settings import LEVEL_NAMES
from azul.server.store import StoredGame
from azul.server.table import Listener, Table, encode


def shown_options(stored: StoredGame) -> dict[str, Any]:
    """A game's options as its players chose them (how chance is drawn is the server's)."""
    return {k: v for k, v in stored.options.items() if k != "explicit_chance"}


def seats(stored: StoredGame) -> list[dict[str, Any]]:
    return [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name} for s in stored.seats]


def display_name(stored: StoredGame, seat: int, lang: str) -> str:
    """A seat's name in drawings: the player's, else the bot's level, else "seat N"."""
    s = stored.seats[seat]
    gettext: Callable[[str], str] = i18n.in_language(lang)
    if s.name:
        return s.name
    if s.kind == "bot" and s.bot:
        return gettext(LEVEL_NAMES.get(s.bot, s.bot))
    return gettext("seat {seat}").format(seat=seat + 1)  # people count seats from 1


def view(table: Table, seat: int | None) -> str:
    """A seat's or the spectators' view as JSON text, built once per change (only the text
    is kept: it is what every listener is sent). What every audience sees alike is
    encoded once per change, and each move of the log once for the game's life."""
    known = table.views.get(seat)
    if known is not None:
        return known
    state = table.state
    position = state.public_view(seat)
    position["options"] = shown_options(table.stored)
    own = {
        "you": seat,
        "legal": _legal(table, seat),
        "can_undo": seat is not None and table.undo_point(seat) is not None,
        "rematch": table.rematch_link(seat),
        "position": position,
    }
    known = table.views[seat] = f"{{{_shared(table)},{encode(own)[1:-1]}}}"
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
        "palette": state.game.palette(),
        "seats": seats(table.stored),
        "to_move": to_move if to_move >= 0 else None,
        "decision": state.decision(),
        "over": state.is_terminal(),
        "scores": state.scores(),
        "winners": state.winners(),
        "breakdown": state.score_breakdown(),
        "last": _last_moves(table),
    }
    moves = ",".join(f'{{"ply":{n},{m.body}}}' for n, m in enumerate(table.played, 1))
    table.shared = f'{encode(alike)[1:-1]},"log":[{moves}]'
    return table.shared


def _legal(table: Table, seat: int | None) -> list[dict[str, Any]]:
    """The legal moves of the seat to move, with what a client shows of each; none for
    any other audience."""
    state = table.state
    if seat is None or seat != state.current_player() or table.kind(seat) != "human":
        return []
    actions = state.legal_actions()
    return [
        {
            "action": a,
            "move": state.action_to_string(a),
            "targets": state.action_targets(a),
            "details": state.action_details(a),
            "preview": preview,
            "text": state.describe_action(a).to_json(),
        }
        for a, preview in zip(actions, state.action_previews(actions), strict=True)
    ]


def _last_moves(table: Table) -> list[dict[str, Any] | None]:
    """Each seat's last move: its number, what was clicked, where the pieces went."""
    last: list[dict[str, Any] | None] = [None] * len(table.stored.seats)
    for ply, m in enumerate(table.played, 1):
        last[m.seat] = {"ply": ply, "clicked": m.clicked, "marks": m.marks}
    return last


def subscribe(table: Table, seat: int | None, most: int) -> Listener:
    """A live connection to a table, for ``seat``'s audience, posted its view at once; at most
    ``most`` per table."""
    if len(table.listeners) >= most:
        raise TooMany("this game has too many live connections", retry_after=60)
    listener = Listener(seat)
    table.listeners.append(listener)
    listener.post(view(table, seat))
    return listener


def unsubscribe(table: Table, listener: Listener) -> None:
    if listener in table.listeners:
        table.listeners.remove(listener)
    table.used = time.monotonic()


def post(table: Table) -> None:
    """Send every live connection of a table the new view of its audience."""
    for listener in table.listeners:
        listener.post(view(table, listener.seat))
