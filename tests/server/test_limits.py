"""Every resource a client can make the server spend has a limit, and every error is one JSON
shape in the client's language."""

import logging
import math
import random
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from azul.server import drawings, live
from azul.server.app import create_app
from azul.server.service import MoveTimes
from azul.server.settings import Settings
from azul.server.store import Store
from tests.server.test_api import HUMANS
from tests.server.test_fairness import create, first_moves, view


@pytest.fixture
def client(make_client):
    return make_client()


def test_a_chunked_body_is_cut_at_the_limit(client):
    read = []

    def chunks():
        for _ in range(100):  # 1 MB in chunks, no Content-Length
            read.append(1)
            yield b"x" * 10_000

    res = client.post("/api/games", content=chunks(), headers={"content-type": "application/json"})
    assert res.status_code == 413 and "over 16384 bytes" in res.json()["error"]
    assert "content-length" not in {k.lower() for k in res.request.headers}
    res = client.post(
        "/api/games",
        content=b"x" * 20_000,
        headers={"content-type": "application/json", "accept-language": "fr"},
    )
    assert res.status_code == 413 and "octets" in res.json()["error"]


@pytest.mark.parametrize(
    "method,path,status,english,french",
    [
        ("get", "/api/games/ab%00cd?token=x", 404, "there is no game", "il n'y a pas de partie"),
        ("get", "/api/nothing", 404, "there is no such page", "pas de page"),
        ("delete", "/api/games", 405, "DELETE is not allowed here", "DELETE n'est pas permis"),
        ("get", "/api/games/0123456789abcdef", 422, "query.token is missing", "query.token manque"),
    ],
)
def test_routing_and_validation_errors_have_the_one_format(
    client, method, path, status, english, french
):
    for lang, text in (("en", english), ("fr", french)):
        res = client.request(method, path, headers={"accept-language": lang})
        assert res.status_code == status and set(res.json()) == {"error"}
        assert text in res.json()["error"], res.json()


@pytest.mark.parametrize(
    "body,message",
    [
        (b"{not json", "the body is not valid JSON"),
        (b'{"seats": []}', "game is missing"),
        (b'{"game": 5, "seats": [{"kind": "human"}]}', "game must be one of 'pavilion', 'sintra'"),
        (b'{"game": "pavilion", "seats": []}', "seats has too few items"),
        (b'{"game": "pavilion", "seats": {}}', "seats must be a list"),
        (
            b'{"game": "sintra", "seats": [{"kind": "human"}], "options": []}',
            "options must be an object",
        ),
        (b'{"game": "sintra", "seats": [{"kind": "bot", "name": 1}]}', "seats.0.name must be text"),
    ],
)
def test_malformed_bodies(client, body, message):
    res = client.post("/api/games", content=body, headers={"content-type": "application/json"})
    assert res.status_code == 422 and res.json() == {"error": message}


def test_an_internal_error_is_a_json_500_and_is_logged(make_client, monkeypatch, caplog):
    client = make_client()
    client.__exit__(None, None, None)
    app = create_app(
        f"sqlite:///{client.app.state.lobby.store.engine.url.database}", ThreadPoolExecutor(1)
    )

    async def broken(*args, **kwargs):
        raise ZeroDivisionError("a bug")

    app.state.lobby.lobby = broken
    with TestClient(app, raise_server_exceptions=False) as c:
        res = c.get("/api/games", headers={"accept-language": "pt"})
    assert res.status_code == 500 and res.json() == {
        "error": "erro interno: o servidor não conseguiu responder"
    }
    assert "ZeroDivisionError" in caplog.text


def test_every_endpoint_documents_its_errors(client):
    schema = client.get("/openapi.json").json()
    assert "ErrorBody" in schema["components"]["schemas"]
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            codes = set(operation["responses"])
            assert {"413", "422"} <= codes, (method, path)
            if "{game_id}" in path:
                assert "404" in codes, (method, path)
    links = schema["paths"]["/api/games"]["post"]["responses"]["201"]["links"]
    assert links["GetGame"]["operationId"] == "get_game"


def test_creations_and_hints_per_client_per_minute(make_client):
    client = make_client(creates_per_minute=2, hints_per_minute=1)
    g = create(client, options={"first_player": 0})
    create(client)
    res = client.post("/api/games", json={"game": "pavilion", "seats": HUMANS})
    assert res.status_code == 429 and 50 <= int(res.headers["retry-after"]) <= 60
    assert "too many requests" in res.json()["error"]
    token = g["seats"][0]["token"]
    assert client.post(f"/api/games/{g['id']}/hint", json={"token": token}).status_code == 200
    res = client.post(f"/api/games/{g['id']}/hint", json={"token": token})
    assert res.status_code == 429 and res.headers["retry-after"]


def test_hints_per_game_per_minute_count_only_the_seat_to_move(make_client):
    """A household shares an address: the address's rate is generous, and each game has its
    own. Requests without the seat's token do not use up the game's hints."""
    client = make_client(hints_per_minute=100, hints_per_game=2)
    g, other = (
        create(client, options={"first_player": 0}),
        create(client, options={"first_player": 0}),
    )
    url = f"/api/games/{g['id']}/hint"
    for token in (g["watch_token"], "not-a-token", g["seats"][1]["token"]) * 3:
        assert client.post(url, json={"token": token}).status_code in (403, 409)
    token = g["seats"][0]["token"]
    for _ in range(2):
        assert client.post(url, json={"token": token}).status_code == 200
    res = client.post(url, json={"token": token}, headers={"Accept-Language": "fr"})
    assert res.status_code == 429 and int(res.headers["retry-after"]) > 0
    assert "cette partie" in res.json()["error"]
    theirs = {"token": other["seats"][0]["token"]}  # the same address, another game
    assert client.post(f"/api/games/{other['id']}/hint", json=theirs).status_code == 200


def test_live_connections_per_game_and_per_address(make_client):
    client = make_client(sockets_per_game=2, sockets_per_client=3)
    g, h = create(client), create(client)
    url = f"/api/games/{g['id']}/ws?token={g['watch_token']}"
    with client.websocket_connect(url) as a, client.websocket_connect(url) as b:
        a.receive_json(), b.receive_json()
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url) as c:
            c.receive_json()
        assert refused.value.code == 4429
        other = f"/api/games/{h['id']}/ws?token={h['watch_token']}"
        with client.websocket_connect(other) as c:
            c.receive_json()
            with (
                pytest.raises(WebSocketDisconnect) as refused,
                client.websocket_connect(other) as d,
            ):
                d.receive_json()  # a fourth from the same address
            assert refused.value.code == 4429
    with client.websocket_connect(url) as a:  # closed ones count no more
        assert a.receive_json()["id"] == g["id"]


def test_one_view_per_audience_per_change(client, monkeypatch):
    g = create(client, options={"first_player": 0})
    dumps = []
    real = live.encode

    def counting(value):
        if "you" in value:  # an audience's own part of a view
            dumps.append(value["you"])
        return real(value)

    monkeypatch.setattr(live, "encode", counting)
    url = f"/api/games/{g['id']}/ws?token={g['watch_token']}"
    sockets = [client.websocket_connect(url) for _ in range(6)]
    for ws in sockets:
        ws.__enter__().receive_json()
    assert dumps == [None]  # six spectators share one view
    dumps.clear()
    first_moves(client, g, 1)
    for ws in sockets:
        assert len(ws.receive_json()["log"]) == 1
        ws.__exit__(None, None, None)
    # seat 0's view before its move (first_moves asks for it) and after (its answer), and one
    # for the six spectators; nobody asked for seat 1's
    assert sorted(dumps, key=str) == [0, 0, None]


def test_idle_tables_leave_memory_and_come_back(make_client):
    # beyond max_tables the least recently used table leaves memory; it comes back when asked
    client = make_client(max_tables=1)
    lobby = client.app.state.lobby
    g = create(client, options={"first_player": 0})
    first_moves(client, g, 2)
    before = view(client, g, g["watch_token"])
    h = create(client)
    assert list(lobby.tables.kept) == [h["id"]]
    assert view(client, g, g["watch_token"]) == before  # read back from the store
    assert list(lobby.tables.kept) == [g["id"]]
    first_moves(client, g, 1)
    # a table nobody has used for idle_seconds leaves memory by itself
    client = make_client(idle_seconds=0.1)
    lobby = client.app.state.lobby
    g = create(client, options={"first_player": 0})
    before = view(client, g, g["watch_token"])
    end = time.time() + 10
    while lobby.tables.kept and time.time() < end:
        time.sleep(0.05)
    assert lobby.tables.kept == {}
    assert view(client, g, g["watch_token"]) == before


def test_move_times_are_counted_without_keeping_every_one():
    rng = random.Random(1)
    times = [rng.lognormvariate(-6, 1) for _ in range(20_000)]
    kept = MoveTimes()
    for t in times:
        kept.add(t)
    times.sort()
    for q in (0.5, 0.99):
        exact = 1000 * times[math.ceil(q * len(times)) - 1]
        assert exact <= kept.quantile(q) <= exact * 1.021
    assert len(kept.counts) < 600


def test_the_lobby_lists_public_games_only_and_never_seat_tokens(client):
    private = create(client)
    public = create(
        client,
        [{"kind": "human", "name": "Ana"}, {"kind": "open"}],
        public=True,
    )
    listed = client.get("/api/games").json()
    assert [x["id"] for x in listed] == [public["id"]]
    text = str(listed)
    assert private["id"] not in text and public["seats"][0]["token"] not in text
    assert listed[0]["open"] == [1] and listed[0]["seats"][0]["name"] == "Ana"
    join = client.post(f"/api/games/{public['id']}/join", json={"seat": 1, "name": "Bo"})
    assert join.status_code == 200
    token = join.json()["token"]
    v = view(client, {"id": public["id"]}, token)
    assert v["you"] == 1 and v["seats"][1] == {
        "seat": 1,
        "kind": "human",
        "bot": None,
        "name": "Bo",
        "away": False,
    }
    again = client.post(f"/api/games/{public['id']}/join", json={"seat": 1, "name": "Cy"})
    assert again.status_code == 409
    res = client.post("/api/games", json={"game": "pavilion", "seats": [{"kind": "open"}] * 2})
    assert res.status_code == 400 and "make the game public" in res.json()["error"]
    res = client.post(
        "/api/games",
        json={
            "game": "pavilion",
            "seats": [{"kind": "human", "name": "a\x07b"}, {"kind": "human"}],
        },
    )
    assert res.status_code == 400 and "printable" in res.json()["error"]


def test_an_invited_friend_names_their_seat_once(client):
    g = create(client, [{"kind": "human", "name": "Ana"}, {"kind": "human"}])
    ana, friend = (s["token"] for s in g["seats"])
    url = f"/api/games/{g['id']}/name"
    version = view(client, g, friend)["version"]
    for body, status, says in [
        ({"token": g["watch_token"], "name": "Eve"}, 403, "spectator"),
        ({"token": friend, "name": "  "}, 400, "a name is needed"),
        ({"token": friend, "name": "a\x07b"}, 400, "printable"),
        ({"token": friend, "name": "x" * 25}, 422, "name is too long"),
        ({"token": ana, "name": "Zed"}, 409, "seat 0 already has a name"),
    ]:
        res = client.post(url, json=body)
        assert res.status_code == status and says in res.json()["error"], res.text
    assert view(client, g, friend)["version"] == version  # refusals change nothing
    res = client.post(url, json={"token": friend, "name": " Bo  "})
    assert res.status_code == 200 and res.json()["seats"][1]["name"] == "Bo"
    assert res.json()["version"] == version + 1  # so that every open view hears it
    assert view(client, g, ana)["seats"][1]["name"] == "Bo"
    again = client.post(url, json={"token": friend, "name": "Cy"})
    assert again.status_code == 409 and "already has a name" in again.json()["error"]


def _store_threads(client, monkeypatch):
    """The names of the threads that called the store while a game was created, read again,
    played, undone, and the lobby listed."""
    threads = set()
    for name in ("create", "load", "append", "truncate", "claim", "list_public"):
        real = getattr(Store, name)

        def spy(self, *args, _real=real, **kwargs):
            threads.add(threading.current_thread().name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, spy)
    g = create(client, options={"first_player": 0})
    client.app.state.lobby.tables.kept.clear()
    first_moves(client, g, 1)
    client.post(f"/api/games/{g['id']}/undo", json={"token": g["seats"][0]["token"]})
    client.get("/api/games")
    return threads


def test_the_event_loop_never_waits_on_postgresql(postgres_url, monkeypatch):
    from tests.server.conftest import empty

    empty(postgres_url)
    with TestClient(create_app(postgres_url, ThreadPoolExecutor(2))) as client:
        threads = _store_threads(client, monkeypatch)
    assert threads and all(t.startswith("azul-store") for t in threads)


def test_sqlite_is_called_on_the_event_loop(client, monkeypatch):
    threads = _store_threads(client, monkeypatch)
    assert threads and not any(t.startswith("azul-store") for t in threads)


def test_database_errors_never_log_tokens(tmp_path, caplog):
    from azul.server.store import Seat, StoredGame, now

    store = Store(f"sqlite:///{tmp_path / 'g.db'}")
    game = StoredGame(
        "g", "sintra", {}, 1, True, False, False, "secret-watch", now(),
        [Seat(0, "human", "secret-seat")], [], 0,
    )  # fmt: skip
    store.create(game)
    caplog.set_level(logging.DEBUG)
    with pytest.raises(Exception) as failed:
        store.create(game)  # the same ids again
    assert "secret" not in str(failed.value) and "secret" not in caplog.text


def test_access_logs_hide_tokens(caplog):
    from azul.server.replies import hide_tokens

    hide_tokens()
    with caplog.at_level(logging.INFO, "uvicorn.access"):
        logging.getLogger("uvicorn.access").info(
            '%s - "%s %s HTTP/%s" %d',
            "1.2.3.4",
            "GET",
            "/api/games/g?token=abc&lang=fr",
            "1.1",
            200,
        )
    assert "abc" not in caplog.text and "token=***&lang=fr" in caplog.text


def test_the_operator_sets_the_limits(tmp_path, capsys):
    from azul.cli import main

    assert Settings().with_limits([("bot_time", 2), ("lobby_games", 5)]).bot_time == 2.0
    assert main(["serve", "--limit", "bots=9"]) == 2
    assert "unknown limit 'bots'" in capsys.readouterr().err
    assert main(["serve", "--limit", "bot_processes=-1"]) == 2
    assert "not a positive number" in capsys.readouterr().err
    assert main(["serve", "--components", f"mine={tmp_path / 'none.toml'}"]) == 2
    assert "is not a file" in capsys.readouterr().err


def test_drawings_are_made_off_the_event_loop_once_per_look(make_client, monkeypatch):
    client = make_client()
    made = []
    real = drawings.drawing

    def spy(*args):
        made.append((threading.current_thread().name, args[-1][:4]))
        return real(*args)

    monkeypatch.setattr(drawings, "drawing", spy)
    g = create(client, options={"first_player": 0})
    url = f"/api/games/{g['id']}/svg"
    t0, watch = g["seats"][0]["token"], g["watch_token"]
    first = client.get(url, params={"token": t0}).text
    assert client.get(url, params={"token": t0}).text == first  # kept: drawn once
    client.get(url, params={"token": watch})  # another audience
    client.get(url, params={"token": t0, "lang": "fr", "layout": "tall", "patterns": 1})
    assert len(made) == 3 and all(name != "MainThread" for name, _ in made)
    assert made[1][1] == (False, "en", None, "wide")
    first_moves(client, g, 1)  # a new version is drawn again
    assert client.get(url, params={"token": t0}).text != first and len(made) == 4


def test_drawings_per_client_per_minute_and_waiting_at_most(make_client):
    client = make_client(drawings_per_minute=2)
    g = create(client)
    url = f"/api/games/{g['id']}/svg"
    for _ in range(2):
        assert client.get(url, params={"token": g["watch_token"]}).status_code == 200
    res = client.get(url, params={"token": g["watch_token"]})
    assert res.status_code == 429 and int(res.headers["retry-after"]) > 0
    assert "too many requests" in res.json()["error"]
    # counted before the request is routed or read: beyond the rate, even a drawing of no
    # game, or with a malformed query, is refused at once, in the client's language
    res = client.get("/api/games/nosuchgame/svg?ply=-1", headers={"Accept-Language": "fr"})
    assert res.status_code == 429 and "adresse" in res.json()["error"]


def test_drawings_waiting_beyond_the_bound_are_refused(make_client, monkeypatch):
    client = make_client(drawings_queued=1)
    release = threading.Event()
    real = drawings.drawing

    def slow(*args):
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(drawings, "drawing", slow)
    g = create(client)
    url = f"/api/games/{g['id']}/svg"
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(client.get, url, params={"token": g["watch_token"]})
        end = time.time() + 10
        while client.app.state.lobby.drawings.waiting == 0 and time.time() < end:
            time.sleep(0.01)
        res = client.get(url, params={"token": g["seats"][0]["token"]})  # another drawing
        release.set()
        assert waiting.result().status_code == 200
    assert res.status_code == 429 and res.headers["retry-after"] == "2"
    assert "drawing too much" in res.json()["error"]


def test_rates_start_no_thread_per_request_and_forget_what_expired(monkeypatch):
    import limits.storage.memory

    from azul.server.errors import TooMany
    from azul.server.guards import Rates

    rates = Rates({"svg": 3})
    time.sleep(0.05)  # limits' first timer (10 ms) has run
    started = []
    monkeypatch.setattr(threading.Thread, "start", lambda self: started.append(self))
    for _ in range(3):
        rates.hit("svg", "10.0.0.1")
    with pytest.raises(TooMany):
        rates.hit("svg", "10.0.0.1")
    assert started == []  # limits' storage would start a timer thread here
    later = time.time() + 120  # the minute is over: the entries expired
    monkeypatch.setattr(limits.storage.memory.time, "time", lambda: later)
    monkeypatch.setattr(rates.limiter.storage, "swept", time.monotonic() - 2)
    rates.hit("svg", "10.0.0.2")  # a sweep, on this request
    events = rates.limiter.storage.events
    assert [len(e) for k, e in events.items() if "/10.0.0.1/" in k] == [0]
    rates.hit("svg", "10.0.0.1")  # allowed again
