"""The OpenAPI links between operations: from an answer (``$response``) or the request
(``$request``) to what a client does next, so that clients and API fuzzers play real games."""

from __future__ import annotations

from typing import Any


def _link(
    operation: str, parameters: dict[str, str], body: dict[str, str] | None = None
) -> dict[str, Any]:
    """An OpenAPI link to ``operation``, its parameters and body from the answer (``$response``)
    or the request (``$request``) it follows, so that clients and API fuzzers play real games."""
    link: dict[str, Any] = {"operationId": operation, "parameters": parameters}
    if body is not None:
        link["requestBody"] = body
        link["x-schemathesis"] = {"merge_body": False}  # the body as given, nothing added
    return link


def _acting(token: str, game: str = "$request.path.game_id") -> dict[str, dict[str, Any]]:
    """Links to what the holder of ``token`` does next in a game: a legal move of the view
    just answered (with its version), a hint, an undo, a rematch, a look at the view."""
    body = {"token": token}
    move = {
        **body,
        "action": "$response.body#/legal/0/action",
        "version": "$response.body#/version",
    }
    return {
        "PostMove": _link("post_move", {"game_id": game}, move),
        "PostHint": _link("post_hint", {"game_id": game}, body),
        "PostUndo": _link("post_undo", {"game_id": game}, body),
        "Rematch": _link("rematch", {"game_id": game}, body),
    }


def _seat(n: int) -> dict[str, dict[str, Any]]:
    """From a new game, seat ``n``'s view, hint, undo and rematch."""
    token = f"$response.body#/seats/{n}/token"
    game = "$response.body#/id"
    view = _link("get_game", {"game_id": game, "token": token})
    return {f"GetGameOfSeat{n}": view} | {
        f"{name}OfSeat{n}": link
        for name, link in _acting(token, game).items()
        if name != "PostMove"
    }


_NEW_VIEW = {"game_id": "$response.body#/id", "token": "$response.body#/token"}
LINKS: dict[str, dict[str, dict[str, Any]]] = {
    "new_game": _seat(0)
    | _seat(1)
    | {
        "Join": _link(
            "join", {"game_id": "$response.body#/id"}, {"seat": "$response.body#/seats/1/seat"}
        )
    },
    "get_game": _acting("$request.query.token"),
    "post_move": _acting("$request.body#/token")
    | {
        "GetGame": _link(
            "get_game", {"game_id": "$request.path.game_id", "token": "$request.body#/token"}
        )
    },
    "post_undo": _acting("$request.body#/token"),
    "post_back": _acting("$request.body#/token"),
    "post_name": _acting("$request.body#/token"),
    "rematch": {"GetGame": _link("get_game", _NEW_VIEW)},
    "join": {"GetGame": _link("get_game", _NEW_VIEW)},
}


def linked(operation: str) -> dict[int | str, dict[str, Any]]:
    """An operation's answer (200) with its links."""
    return {200: {"description": "Successful Response", "links": LINKS[operation]}}


def watching(operation: str) -> dict[str, Any]:
    """The link from a new game to one of its spectators' answers (view, drawing, record)."""
    return {
        "operationId": operation,
        "parameters": {"game_id": "$response.body#/id", "token": "$response.body#/watch_token"},
    }
