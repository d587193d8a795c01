"""How the server answers: in the client's language, from its address, errors as
``{"error": ...}`` JSON, views as the JSON text they were built as, and tokens never logged."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Sequence
from typing import Any

from fastapi import Request, WebSocket
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from azul import i18n
from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server.errors import Invalid, Outdated, TooMany, status_of

# What a validation problem is called in every language, by pydantic's error type.
PROBLEMS = {
    "missing": N_("{where} is missing"),
    "json_invalid": N_("the body is not valid JSON"),
    "int_parsing": N_("{where} must be a whole number"),
    "int_type": N_("{where} must be a whole number"),
    "int_from_float": N_("{where} must be a whole number"),
    "string_type": N_("{where} must be text"),
    "string_too_long": N_("{where} is too long"),
    "bool_parsing": N_("{where} must be true or false"),
    "bool_type": N_("{where} must be true or false"),
    "dict_type": N_("{where} must be an object"),
    "model_attributes_type": N_("{where} must be an object"),
    "list_type": N_("{where} must be a list"),
    "too_long": N_("{where} has too many items"),
    "too_short": N_("{where} has too few items"),
    "literal_error": N_("{where} must be one of {expected}"),
    "greater_than_equal": N_("{where} is too small"),
    "greater_than": N_("{where} is too small"),
    "less_than": N_("{where} is too large"),
    "less_than_equal": N_("{where} is too large"),
}


class _HideTokens(logging.Filter):
    """Access log lines show ``token=***`` instead of a seat's or spectator's token."""

    PATTERN = re.compile(r"(token=)[^&\s\"]+")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self.PATTERN.sub(r"\1***", a) if isinstance(a, str) else a for a in record.args
            )
        record.msg = self.PATTERN.sub(r"\1***", str(record.msg))
        return True


def hide_tokens() -> None:
    """Mask tokens in uvicorn's access log (when an operator turns it on)."""
    logging.getLogger("uvicorn.access").addFilter(_HideTokens())


def language(request: HTTPConnection) -> str:
    """The client's language for messages: ``?lang=``, else Accept-Language, else English."""
    wanted = [request.query_params.get("lang")]
    for part in request.headers.get("accept-language", "")[:200].split(","):
        wanted.append(part.split(";")[0].strip())
    for tag in wanted:
        lang = i18n.supported(tag)
        if lang:
            return lang
    return i18n.DEFAULT


def client_of(request: HTTPConnection) -> str:
    """The client's address (behind a proxy: run uvicorn with --forwarded-allow-ips)."""
    return request.client.host if request.client else "unknown"


def answer(request: Request | WebSocket, error: AzulError) -> JSONResponse:
    headers = {"Retry-After": str(error.retry_after)} if isinstance(error, TooMany) else None
    return JSONResponse(error_body(error, language(request)), status_of(error), headers=headers)


def error_body(error: AzulError, lang: str) -> dict[str, Any]:
    """An error's answer: its message, and for a move on an old view the view now."""
    body: dict[str, Any] = {"error": error.translate(i18n.in_language(lang))}
    if isinstance(error, Outdated) and error.view is not None:
        body["view"] = json.loads(error.view)
    return body


def json_view(text: str) -> Response:
    """A view, already JSON text (built once for every listener)."""
    return Response(text, media_type="application/json")


def invalid(errors: Sequence[Any], whole: str = "body") -> Invalid:
    """The first problem of a request (or message) that does not have the documented shape."""
    problem = errors[0] if errors else {}
    where = ".".join(str(p) for p in problem.get("loc", ()) if p != "body") or whole
    template = PROBLEMS.get(problem.get("type", ""), N_("{where} is not valid"))
    expected = str(problem.get("ctx", {}).get("expected", "")).replace(" or ", ", ")
    return Invalid(template, where=where, expected=expected)
