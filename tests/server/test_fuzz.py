"""The API fuzzed from its OpenAPI schema against a real server process: single requests and
sequences that follow the schema's links into real games. No request may get a 5xx, and every
status and content type must be the documented ones."""

import os
import signal

import pytest

pytest.importorskip("schemathesis")
import httpx
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import content_type_conformance, status_code_conformance

from tests.server.test_restart import free_port, start

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance]
BOUNDED = settings(
    max_examples=int(os.environ.get("AZUL_FUZZ_EXAMPLES", "30")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
    derandomize=True,  # the same requests on every run; raise AZUL_FUZZ_EXAMPLES to dig more
)


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    port = free_port()
    proc = start(
        port,
        f"sqlite:///{folder / 'games.db'}",
        log=str(folder / "server.log"),
        extra=["--limit", "creates_per_minute=100000", "--limit", "hints_per_minute=100000"],
    )
    yield f"http://127.0.0.1:{port}"
    os.kill(proc.pid, signal.SIGTERM)
    proc.wait(timeout=30)
    log = (folder / "server.log").read_text()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def api_schema(server):
    return schemathesis.openapi.from_url(f"{server}/openapi.json")


@pytest.fixture(scope="module")
def games(server):
    """Real games to aim at: people only, a person against a bot, a public one with an open
    seat; with every token of each."""
    bodies = [
        {"game": "pavilion", "seats": [{"kind": "human"}, {"kind": "human"}]},
        {"game": "sintra", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]},
        {"game": "sintra", "public": True, "seats": [{"kind": "human"}, {"kind": "open"}]},
    ]
    found = []
    for body in bodies:
        g = httpx.post(f"{server}/api/games", json=body).json()
        tokens = [s["token"] for s in g["seats"] if s["token"]] + [g["watch_token"]]
        found.append({"id": g["id"], "tokens": tokens})
    return found


def test_single_requests(api_schema, games, server):
    def aim(case, data):
        """Most of the time, a real game and one of its tokens; for a move, often a legal one.
        Every choice is drawn before the server is asked, so that replaying an example draws
        the same (whatever the games' positions are by then)."""
        aimed, game, token, legal, pick = data.draw(
            st.tuples(
                st.integers(0, 3),
                st.sampled_from(games),
                st.integers(0, 2),
                st.integers(0, 3),
                st.integers(0, 999),
            )
        )
        if "game_id" not in (case.path_parameters or {}) or not aimed:
            return
        token = game["tokens"][token % len(game["tokens"])]
        case.path_parameters["game_id"] = game["id"]
        if isinstance(case.query, dict) and "token" in case.query:
            case.query["token"] = token
        if isinstance(case.body, dict) and "token" in case.body:
            case.body["token"] = token
            if case.operation.path.endswith("/moves") and legal:
                for seat_token in game["tokens"]:  # the seat to move plays a legal move
                    view = httpx.get(
                        f"{server}/api/games/{game['id']}", params={"token": seat_token}
                    ).json()
                    if view.get("legal"):
                        move = view["legal"][pick % len(view["legal"])]
                        case.body = {"token": seat_token, "action": move["action"]}

    for found in api_schema.get_all_operations():
        operation = found.ok()

        @given(case=operation.as_strategy(), data=st.data())
        @BOUNDED
        def check(case, data):
            aim(case, data)
            case.call_and_validate(checks=CHECKS, timeout=60)  # a hint thinks on a busy machine

        check()
    played = httpx.get(f"{server}/api/stats").json()["moves"]
    print(f"moves played by the fuzzed requests: {played}")
    assert played > 0  # the requests reached real games, not only 404s


def test_sequences_through_real_games(api_schema, server):
    """Sequences that follow the links: new games, their seats' views, moves chosen on those
    views (with their versions), undos, hints."""

    class Machine(api_schema.as_state_machine()):
        def before_call(self, case):
            """Most new games are playable: two seats, a person first and to move (the
            generated game, public flag and second seat's kind are kept)."""
            if case.operation.label == "POST /api/games" and isinstance(case.body, dict):
                seats = case.body.get("seats")
                if isinstance(seats, list) and len(seats) % 4:
                    bot = isinstance(seats[-1], dict) and seats[-1].get("kind") == "bot"
                    second = {"kind": "bot", "bot": "random"} if bot else {"kind": "human"}
                    options = {"first_player": 0}
                    case.body = {
                        **case.body,
                        "options": options,
                        "seats": [{"kind": "human"}, second],
                    }

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            case.validate_response(response, checks=CHECKS)

    Machine.run(settings=settings(BOUNDED, stateful_step_count=8))


def resolve(expression, request, answer):
    """A link's runtime expression ($response.body#/..., $request.query.x, $request.path.x,
    $request.body#/...) or a structure of them, from a request and its answer."""
    if isinstance(expression, dict):
        return {k: resolve(v, request, answer) for k, v in expression.items()}
    if not isinstance(expression, str) or not expression.startswith("$"):
        return expression
    source, _, pointer = expression.partition("#")
    found = {
        "$response.body": answer,
        "$request.body": request.get("body"),
        **{
            f"$request.{where}.{k}": v
            for where in ("query", "path")
            for k, v in request.get(where, {}).items()
        },
    }[source]
    for part in filter(None, pointer.split("/")):
        found = found[int(part)] if isinstance(found, list) else found[part]
    return found


def test_the_links_alone_play_a_game(server):
    """Following only the schema's links, from a new game: seat 0's view, a move chosen on it
    (with its version), the next view, another move, an undo, a hint."""
    schema = httpx.get(f"{server}/openapi.json").json()
    operations = {
        op["operationId"]: (method.upper(), path)
        for path, methods in schema["paths"].items()
        for method, op in methods.items()
    }

    def links(operation_id, status):
        method, path = operations[operation_id]
        return schema["paths"][path][method.lower()]["responses"][str(status)]["links"]

    def follow(link, request, answer):
        method, path = operations[link["operationId"]]
        values = {k: resolve(v, request, answer) for k, v in link["parameters"].items()}
        path_values = {k: v for k, v in values.items() if "{" + k + "}" in path}
        query = {k: v for k, v in values.items() if k not in path_values}
        body = resolve(link.get("requestBody"), request, answer)
        res = httpx.request(method, server + path.format(**path_values), params=query, json=body)
        return {"path": path_values, "query": query, "body": body}, res

    body = {
        "game": "sintra",
        "options": {"first_player": 0},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    created = httpx.post(f"{server}/api/games", json=body)
    assert created.status_code == 201
    request, view = follow(links("new_game", 201)["GetGameOfSeat0"], {}, created.json())
    assert view.status_code == 200 and view.json()["legal"]
    request, moved = follow(links("get_game", 200)["PostMove"], request, view.json())
    assert moved.status_code == 200 and len(moved.json()["log"]) == 1
    request, undone = follow(links("post_move", 200)["PostUndo"], request, moved.json())
    assert undone.status_code == 200 and undone.json()["log"] == []
    request, again = follow(links("post_undo", 200)["PostMove"], request, undone.json())
    assert again.status_code == 200 and len(again.json()["log"]) >= 1
    hint = follow(links("post_move", 200)["PostHint"], request, again.json())[1]
    assert hint.status_code in (200, 409)  # 409 while the bot is to move
