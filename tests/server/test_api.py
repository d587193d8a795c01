"""The server's API: games, seats and tokens, moves, bots, undo, live updates, bad input."""

import time

import pytest

pytest.importorskip("fastapi")


def new_game(client, seats, game="pavilion", **options):
    options.setdefault("first_player", 0)
    res = client.post(
        "/api/games", json={"game": game, "options": options, "seats": seats, "seed": 7}
    )
    assert res.status_code == 201, res.text
    return res.json()


HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_two_people_play_with_their_tokens(client):
    g = new_game(client, HUMANS)
    t0, t1 = (s["token"] for s in g["seats"])
    v0 = client.get(f"/api/games/{g['id']}", params={"token": t0}).json()
    v1 = client.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    assert v0["you"] == 0 and v0["to_move"] == 0 and v0["legal"]
    assert v1["legal"] == []
    assert "rng" not in v0["position"]  # the generator's state would predict the draws
    move = v0["legal"][0]["move"]
    res = client.post(f"/api/games/{g['id']}/moves", json={"token": t0, "move": move})
    assert res.status_code == 200
    (entry,) = res.json()["log"]
    assert (entry["ply"], entry["seat"], entry["move"]) == (1, 0, move)
    assert entry["text"]["text"] and entry["text"]["fields"]  # the move in words
    v1 = client.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    action = v1["legal"][0]["action"]
    res = client.post(f"/api/games/{g['id']}/moves", json={"token": t1, "action": action})
    assert res.json()["to_move"] == 0


def test_bad_requests_get_clear_errors_and_change_nothing(client):
    g = new_game(client, HUMANS)
    gid = g["id"]
    t0, t1 = (s["token"] for s in g["seats"])
    before = client.get(f"/api/games/{gid}", params={"token": t0}).json()

    def post(body):
        return client.post(f"/api/games/{gid}/moves", json=body)

    res = post({"token": t1, "move": "F1:R"})
    assert res.status_code == 409 and "seat 0's turn" in res.json()["error"]
    res = post({"token": "nope", "move": "F1:R"})
    assert res.status_code == 403
    res = post({"token": t0, "move": "R@R3"})
    assert res.status_code == 400 and "take tiles" in res.json()["error"]
    res = post({"token": t0, "move": "hello"})
    assert res.status_code == 400 and "cannot read move" in res.json()["error"]
    res = post({"token": t0})
    assert res.status_code == 400 and "either 'action'" in res.json()["error"]
    res = post({"token": t0, "action": 99999})
    assert res.status_code == 400
    res = client.post(
        f"/api/games/{gid}/moves",
        content=b"{not json",
        headers={"content-type": "application/json"},
    )
    assert res.status_code == 422
    res = client.post(
        f"/api/games/{gid}/moves",
        content=b"x" * 20000,
        headers={"content-type": "application/json"},
    )
    assert res.status_code == 413
    assert client.get("/api/games/feedbeef", params={"token": t0}).status_code == 404
    watch = g["watch_token"]
    res = post({"token": watch, "move": before["legal"][0]["move"]})
    assert res.status_code == 403 and "spectator" in res.json()["error"]
    after = client.get(f"/api/games/{gid}", params={"token": t0}).json()
    assert after == before


@pytest.mark.parametrize(
    "body,status,message",
    [
        ({"game": "chess", "seats": []}, 422, "game must be one of 'pavilion', 'sintra'"),
        ({"game": "pavilion", "seats": [{"kind": "human"}] * 3}, 400, "2 players need 2 seats"),
        ({"game": "pavilion", "seats": [{"kind": "human"}]}, 422, "seats has too few items"),
        ({"game": "pavilion", "seats": [{"kind": "human"}] * 5}, 422, "seats has too many items"),
        (
            {"game": "pavilion", "seats": [{"kind": "human"}, {"kind": "robot"}]},
            422,
            "seats.1.kind must be one of 'human', 'open', 'bot'",
        ),
        (
            {"game": "pavilion", "seats": [{"kind": "human"}, {"kind": "bot", "bot": "deep"}]},
            422,
            "seats.1.bot must be one of 'random', 'greedy', 'heuristic', 'mcts-fast'",
        ),
        ({"game": "sintra", "options": {"side": "C"}, "seats": HUMANS}, 400, "side"),
    ],
)
def test_bad_new_games(client, body, status, message):
    res = client.post("/api/games", json=body)
    assert res.status_code == status and message in res.json()["error"]


def wait_for(client, gid, token, until, timeout=60):
    end = time.time() + timeout
    while time.time() < end:
        view = client.get(f"/api/games/{gid}", params={"token": token}).json()
        if until(view):
            return view
        time.sleep(0.05)
    raise AssertionError("timed out waiting for the bots")


def test_bots_move_by_themselves(client):
    g = new_game(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], game="sintra", first_player=1
    )
    t0 = g["seats"][0]["token"]
    view = wait_for(client, g["id"], t0, lambda v: v["to_move"] == 0)
    assert view["log"][0]["seat"] == 1
    res = client.post(
        f"/api/games/{g['id']}/moves", json={"token": t0, "action": view["legal"][0]["action"]}
    )
    assert res.status_code == 200
    view = wait_for(client, g["id"], t0, lambda v: v["to_move"] == 0 and len(v["log"]) >= 3)
    assert [e["seat"] for e in view["log"][:3]] == [1, 0, 1]


def test_a_game_of_bots_is_played_to_the_end(client):
    g = new_game(
        client, [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}], game="sintra"
    )
    view = wait_for(client, g["id"], g["watch_token"], lambda v: v["over"], timeout=120)
    assert view["winners"]
    record = client.get(f"/api/games/{g['id']}/record", params={"token": g["watch_token"]})
    assert record.status_code == 200 and record.text.count("\n") == len(view["log"]) + 2


def test_undo_own_last_action_only(client):
    g = new_game(client, HUMANS)
    gid = g["id"]
    t0, t1 = (s["token"] for s in g["seats"])
    view = client.get(f"/api/games/{gid}", params={"token": t0}).json()
    assert not view["can_undo"]
    after = client.post(
        f"/api/games/{gid}/moves", json={"token": t0, "action": view["legal"][0]["action"]}
    ).json()
    assert after["can_undo"]
    res = client.post(f"/api/games/{gid}/undo", json={"token": t1})
    assert res.status_code == 409
    res = client.post(f"/api/games/{gid}/undo", json={"token": t0})
    assert res.status_code == 200 and res.json()["log"] == []
    assert res.json()["position"] == view["position"]


def test_live_updates_over_websocket(client):
    g = new_game(client, HUMANS)
    t0, t1 = (s["token"] for s in g["seats"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t1}") as ws:
        first = ws.receive_json()
        assert first["you"] == 1 and first["log"] == []
        v = client.get(f"/api/games/{g['id']}", params={"token": t0}).json()
        client.post(
            f"/api/games/{g['id']}/moves", json={"token": t0, "action": v["legal"][0]["action"]}
        )
        update = ws.receive_json()
        assert len(update["log"]) == 1 and update["to_move"] == 1 and update["legal"]


def test_live_views_carry_the_words_of_legal_moves_only_when_asked(client):
    g = new_game(client, HUMANS)
    gid = g["id"]
    t0, t1 = (s["token"] for s in g["seats"])
    http = client.get(f"/api/games/{gid}", params={"token": t0}).json()["legal"]
    assert http and all({"text", "preview", "details"} <= m.keys() for m in http)
    url = f"/api/games/{gid}/ws?token="
    with (
        client.websocket_connect(url + t0) as plain,
        client.websocket_connect(url + t0 + "&details=1") as rich,
        client.websocket_connect(url + t1 + "&details=1") as other,
        client.websocket_connect(url + g["watch_token"] + "&details=1") as watcher,
    ):
        first = plain.receive_json()["legal"]
        assert [m["action"] for m in first] == [m["action"] for m in http]
        assert all(m.keys() == {"action", "move", "targets"} for m in first)
        assert first == [{k: m[k] for k in ("action", "move", "targets")} for m in http]
        assert rich.receive_json()["legal"] == http
        # only the seat to move has legal moves, whatever it asked
        assert other.receive_json()["legal"] == [] and watcher.receive_json()["legal"] == []
        plain.send_json({"action": first[0]["action"]})
        assert plain.receive_json()["legal"] == [] and rich.receive_json()["legal"] == []
        assert watcher.receive_json()["legal"] == []
        assert all({"text", "preview"} <= m.keys() for m in other.receive_json()["legal"])


def test_the_log_of_live_views_follows_moves_and_undos(client):
    """A live view sends the log's moves after its first ``log_from``: after a move only the
    new one, after an undo the log again from where it changed; followed as the browser
    does, it is the HTTP view's whole log at every step."""
    g = new_game(client, HUMANS)
    gid = g["id"]
    t0, t1 = (s["token"] for s in g["seats"])
    log: list = []

    def follow(ws):
        nonlocal log
        message = ws.receive_json()
        log = log[: message["log_from"]] + message["log"]
        assert log == client.get(f"/api/games/{gid}", params={"token": t1}).json()["log"]
        return message

    with client.websocket_connect(f"/api/games/{gid}/ws?token={g['watch_token']}") as ws:
        assert follow(ws)["log"] == []
        legal = client.get(f"/api/games/{gid}", params={"token": t0}).json()["legal"]
        first, other = legal[0]["move"], legal[-1]["move"]
        client.post(f"/api/games/{gid}/moves", json={"token": t0, "move": first})
        assert [e["move"] for e in follow(ws)["log"]] == [first]
        client.post(f"/api/games/{gid}/undo", json={"token": t0})
        assert follow(ws)["log"] == [] and log == []
        client.post(f"/api/games/{gid}/moves", json={"token": t0, "move": other})
        assert [(e["ply"], e["move"]) for e in follow(ws)["log"]] == [(1, other)]
        reply = client.get(f"/api/games/{gid}", params={"token": t1}).json()["legal"][0]
        client.post(f"/api/games/{gid}/moves", json={"token": t1, "move": reply["move"]})
        message = follow(ws)
        assert message["log_from"] == 1 and len(message["log"]) == 1  # only the new move
        assert [(e["ply"], e["seat"], e["move"]) for e in log] == [
            (1, 0, other),
            (2, 1, reply["move"]),
        ]
    with client.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:
        message = ws.receive_json()  # a new connection is sent the whole log
        assert message["log_from"] == 0 and message["log"] == log


def test_svg_openapi_and_client_pages(client):
    g = new_game(client, HUMANS, game="sintra")
    res = client.get(f"/api/games/{g['id']}/svg", params={"token": g["watch_token"]})
    assert res.status_code == 200 and res.text.startswith("<svg")
    assert "/api/games/{game_id}/moves" in client.get("/openapi.json").json()["paths"]
    assert "Azul games" in client.get("/").text
    assert client.get("/static/app.js").status_code == 200


def test_moves_over_the_websocket_and_their_errors(client):
    g = new_game(client, HUMANS)
    t0, t1 = (s["token"] for s in g["seats"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t0}") as ws:
        first = ws.receive_json()
        ws.send_text("not json")
        assert "not JSON" in ws.receive_json()["error"]
        ws.send_json({"action": 10**6})
        assert "outside" in ws.receive_json()["error"]
        ws.send_json({"colour": "red"})
        assert "action" in ws.receive_json()["error"]
        ws.send_text("x" * 20000)
        assert "over" in ws.receive_json()["error"]
        ws.send_json({"move": first["legal"][0]["move"]})
        update = ws.receive_json()
        assert len(update["log"]) == 1 and update["to_move"] == 1
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t0}") as ws:
        ws.receive_json()
        ws.send_json({"action": first["legal"][0]["action"]})  # not seat 0's turn now
        assert "seat 1's turn" in ws.receive_json()["error"]
    view = client.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    assert len(view["log"]) == 1


def test_legal_moves_say_what_to_click(client):
    g = new_game(client, HUMANS)
    t0 = g["seats"][0]["token"]
    view = client.get(f"/api/games/{g['id']}", params={"token": t0}).json()
    svg = client.get(f"/api/games/{g['id']}/svg", params={"token": t0}).text
    for m in view["legal"]:  # a take: the factory or centre tiles of that colour
        source, color = m["move"].split(":")
        assert m["targets"] == [{"source": source, "color": color}]
        assert f'data-source="{source}" data-color="{color}"' in svg


def test_hints_replays_patterns_and_the_final_breakdown(client):
    g = new_game(client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], game="sintra")
    gid, t0 = g["id"], g["seats"][0]["token"]
    view = client.get(f"/api/games/{gid}", params={"token": t0}).json()
    hints = client.post(f"/api/games/{gid}/hint", json={"token": t0}).json()
    legal = {m["action"] for m in view["legal"]}
    assert 1 <= len(hints) <= 3 and all(h["action"] in legal for h in hints)
    assert hints[0]["behind"] == 0 and all(h["behind"] >= 0 for h in hints)
    moves = {m["action"]: m for m in view["legal"]}
    for h in hints:  # what a move earns at once is what the table's preview says
        assert h["earns"] == moves[h["action"]]["preview"]["points"]
        assert isinstance(h["sets_up"], float) and h["exact"] is False
    res = client.post(f"/api/games/{gid}/hint", json={"token": g["watch_token"]})
    assert res.status_code == 409
    plain = client.get(f"/api/games/{gid}/svg", params={"token": t0}).text
    patterned = client.get(f"/api/games/{gid}/svg", params={"token": t0, "patterns": 1}).text
    assert "azul-pat-" not in plain and "url(#azul-pat-" in patterned
    res = client.post(f"/api/games/{gid}/rematch", json={"token": t0})
    assert res.status_code == 409 and "not over" in res.json()["error"]
    while not view["over"]:  # seat 0 plays its first legal move each turn
        if view["legal"]:
            client.post(
                f"/api/games/{gid}/moves", json={"token": t0, "action": view["legal"][0]["action"]}
            )
        view = wait_for(client, gid, t0, lambda v: v["over"] or v["legal"], timeout=60)
    for seat, lines in enumerate(view["breakdown"]):
        assert sum(line["points"] for line in lines) == view["scores"][seat]
    plies = len(view["log"])
    start = client.get(f"/api/games/{gid}/svg", params={"token": t0, "ply": 0}).text
    end = client.get(f"/api/games/{gid}/svg", params={"token": t0, "ply": plies}).text
    assert (
        "Round 1 of 6" in start
        and end == client.get(f"/api/games/{gid}/svg", params={"token": t0}).text
    )
    res = client.get(f"/api/games/{gid}/svg", params={"token": t0, "ply": plies + 1})
    assert res.status_code == 400 and f"0..{plies}" in res.json()["error"]
    # a rematch: same game, options and seats, a new deal; everyone finds it in their view
    res = client.post(f"/api/games/{gid}/rematch", json={"token": g["watch_token"]})
    assert res.status_code == 403
    again = client.post(f"/api/games/{gid}/rematch", json={"token": t0}).json()
    assert client.post(f"/api/games/{gid}/rematch", json={"token": t0}).json() == again
    new = client.get(f"/api/games/{again['id']}", params={"token": again["token"]}).json()
    assert new["you"] == 0 and not new["over"] and new["seats"] == view["seats"]
    assert new["options"] == view["options"] and not new["seeded"]
    assert client.get(f"/api/games/{gid}", params={"token": t0}).json()["rematch"] == again
    watch = client.get(f"/api/games/{gid}", params={"token": g["watch_token"]}).json()
    assert watch["rematch"]["id"] == again["id"] and watch["rematch"]["token"] != again["token"]


def test_stats_count_the_moves_of_people(client):
    g = new_game(client, HUMANS)
    t0 = g["seats"][0]["token"]
    assert client.get("/api/stats").json()["moves"] == 0
    v = client.get(f"/api/games/{g['id']}", params={"token": t0}).json()
    client.post(
        f"/api/games/{g['id']}/moves", json={"token": t0, "action": v["legal"][0]["action"]}
    )
    stats = client.get("/api/stats").json()
    assert stats["moves"] == 1 and stats["move_ms"]["p50"] > 0


def test_errors_in_the_clients_language(client):
    g = new_game(client, HUMANS)
    t1 = g["seats"][1]["token"]
    res = client.post(
        f"/api/games/{g['id']}/moves",
        json={"token": t1, "move": "F1:R"},
        headers={"Accept-Language": "pt-BR,pt;q=0.9"},
    )
    assert res.status_code == 409 and res.json()["error"] == "é a vez do lugar 0, não do lugar 1"
    res = client.get("/api/games/nope", params={"token": "x", "lang": "fr"})
    assert res.json()["error"] == "il n'y a pas de partie 'nope'"
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t1}&lang=fr") as ws:
        ws.receive_json()
        ws.send_json({"move": "F1:R"})
        assert ws.receive_json()["error"] == "c'est au tour de la place 0, pas de la place 1"
    catalog = client.get("/api/i18n/pt").json()
    assert (
        catalog["messages"]["Confirm"] == "Confirmar" and "curinga" in catalog["rules"]["pavilion"]
    )
    assert client.get("/api/i18n/de").status_code == 404


BAD_TOKENS = ["é", "\u2603" * 30, "tok\x00en", " "]


@pytest.mark.parametrize("token", BAD_TOKENS)
def test_a_malformed_token_is_refused_on_every_route(client, token):
    g = new_game(client, HUMANS)
    gid = g["id"]
    before = client.get(f"/api/games/{gid}", params={"token": g["seats"][0]["token"]}).json()
    answers = [
        client.get(f"/api/games/{gid}", params={"token": token}),
        client.get(f"/api/games/{gid}/svg", params={"token": token}),
        client.get(f"/api/games/{gid}/record", params={"token": token}),
        client.post(f"/api/games/{gid}/moves", json={"token": token, "action": 0}),
        client.post(f"/api/games/{gid}/undo", json={"token": token}),
        client.post(f"/api/games/{gid}/hint", json={"token": token}),
        client.post(f"/api/games/{gid}/rematch", json={"token": token}),
    ]
    for res in answers:
        assert res.status_code == 403, (res.request.url, res.text)
        assert "token" in res.json()["error"]
    after = client.get(f"/api/games/{gid}", params={"token": g["seats"][0]["token"]}).json()
    assert after == before


def test_refused_live_connections_give_their_slot_back(client):
    from starlette.websockets import WebSocketDisconnect

    g = new_game(client, HUMANS)
    for _ in range(40):  # more than the 32 live connections an address may hold
        url = f"/api/games/{g['id']}/ws?token=%C3%A9"
        with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url):
            pass
        assert refused.value.code == 4403
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['watch_token']}") as ws:
        assert ws.receive_json()["id"] == g["id"]


def test_live_connections_during_a_database_outage_give_their_slot_back(client, caplog):
    from sqlalchemy.exc import OperationalError
    from starlette.websockets import WebSocketDisconnect

    g = new_game(client, HUMANS)
    lobby = client.app.state.lobby
    lobby.tables.kept.clear()  # the next connection loads the game from the store
    loads = lobby.store.load

    def down(game_id):
        raise OperationalError("SELECT", {}, ConnectionRefusedError("the database is down"))

    lobby.store.load = down
    try:
        for _ in range(40):
            url = f"/api/games/{g['id']}/ws?token={g['watch_token']}"
            with pytest.raises(WebSocketDisconnect) as refused, client.websocket_connect(url):
                pass
            assert refused.value.code == 1013  # try again later: the client comes back
            assert "database" in refused.value.reason
    finally:
        lobby.store.load = loads
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={g['watch_token']}") as ws:
        assert ws.receive_json()["id"] == g["id"]
    assert not [r for r in caplog.records if r.exc_info]  # an outage is no internal error
    assert sum("waits for the store" in r.getMessage() for r in caplog.records) == 40


def test_requests_during_a_database_outage_are_answered_503(client):
    from sqlalchemy.exc import OperationalError

    g = new_game(client, HUMANS)
    t0 = g["seats"][0]["token"]
    legal = client.get(f"/api/games/{g['id']}", params={"token": t0}).json()["legal"]
    lobby = client.app.state.lobby
    appends = lobby.store.append

    def down(*args):
        raise OperationalError("INSERT", {}, ConnectionRefusedError("the database is down"))

    lobby.store.append = down
    try:
        move = {"token": t0, "action": legal[0]["action"]}
        res = client.post(f"/api/games/{g['id']}/moves", json=move)
        assert res.status_code == 503 and int(res.headers["retry-after"]) > 0
        assert "nothing was done" in res.json()["error"]
        with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t0}") as ws:
            ws.receive_json()
            ws.send_json({"action": legal[0]["action"]})
            assert "nothing was done" in ws.receive_json()["error"]
    finally:
        lobby.store.append = appends
    res = client.post(f"/api/games/{g['id']}/moves", json=move)  # the move was never played
    assert res.status_code == 200 and len(res.json()["log"]) == 1


@pytest.mark.parametrize(
    "message,expected",
    [
        ("[1, 2]", 'a message is {"action": id}'),
        ("7", 'a message is {"action": id}'),
        ('"F1:R"', 'a message is {"action": id}'),
        ("null", 'a message is {"action": id}'),
        ('{"action": {"a": [1, {"b": 2}]}}', "action must be a whole number"),
        ('{"action": [3]}', "action must be a whole number"),
        ('{"action": true}', "action must be a whole number"),
        ('{"action": 1.5}', "action must be a whole number"),
        ('{"move": {"source": "F1"}}', "move must be text"),
        ('{"move": ["F1:R"]}', "move must be text"),
        ('{"move": "' + "F1:R" * 1000 + '"}', "move is too long"),
        ('{"action": 1, "colour": "red"}', 'a message is {"action": id}'),
        ("[" * 5000 + "]" * 5000, "not JSON"),
        ("{'action': 1}", "not JSON"),
    ],
)
def test_live_messages_of_any_shape_get_a_clear_error(client, message, expected):
    g = new_game(client, HUMANS)
    t0 = g["seats"][0]["token"]
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t0}") as ws:
        first = ws.receive_json()
        ws.send_text(message)
        assert expected in ws.receive_json()["error"]
        ws.send_json({"action": first["legal"][0]["action"]})  # the connection still plays
        assert len(ws.receive_json()["log"]) == 1


def test_the_service_checks_a_moves_types_itself(client):
    import asyncio

    from azul.core.errors import IllegalMoveError

    g = new_game(client, HUMANS)
    lobby = client.app.state.lobby
    t0 = g["seats"][0]["token"]
    for action, move, problem in [
        (True, None, "whole number"),
        ("3", None, "whole number"),
        (None, 3, "at most 64"),
        (None, "F1:R" * 20, "at most 64"),
    ]:
        with pytest.raises(IllegalMoveError, match=problem):
            asyncio.run(lobby.play(g["id"], t0, action, move))


def test_an_internal_error_is_json_logged_once_and_the_connection_lives_on(tmp_path, caplog):
    import threading
    from concurrent.futures import ThreadPoolExecutor

    import httpx
    import uvicorn

    from azul.server.app import create_app
    from tests.server.test_restart import free_port

    app = create_app(f"sqlite:///{tmp_path / 'g.db'}", ThreadPoolExecutor(1))

    async def broken(game_id, token):
        raise RuntimeError("a bug")

    app.state.lobby.view = broken
    port = free_port()
    config = uvicorn.Config(app, port=port, log_config=None, lifespan="on")
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run)
    thread.start()
    try:
        end = time.time() + 30
        while not server.started and time.time() < end:
            time.sleep(0.05)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as http:
            res = http.get("/api/games/0123456789abcdef", params={"token": "x", "lang": "fr"})
            assert res.status_code == 500
            assert res.json() == {"error": "erreur interne : le serveur n'a pas pu répondre"}
            again = http.get("/api/games")
            assert again.status_code == 200
            used = [
                r.extensions["network_stream"].get_extra_info("client_addr") for r in (res, again)
            ]
            assert used[0] == used[1]  # the same connection
    finally:
        server.should_exit = True
        thread.join(timeout=30)
    tracebacks = [r for r in caplog.records if r.exc_info]
    assert len(tracebacks) == 1 and "a bug" in caplog.text


def test_a_move_chosen_on_an_older_view_is_refused_with_the_view_now(client):
    g = new_game(client, HUMANS)
    gid = g["id"]
    t0, t1 = (s["token"] for s in g["seats"])
    seen = client.get(f"/api/games/{gid}", params={"token": t0}).json()
    first = seen["legal"][0]
    res = client.post(
        f"/api/games/{gid}/moves",
        json={"token": t0, "action": first["action"], "version": seen["version"]},
    )
    assert res.status_code == 200 and res.json()["version"] == seen["version"] + 1
    undone = client.post(f"/api/games/{gid}/undo", json={"token": t0}).json()
    # the move chosen on the view before the undo names a version that is gone
    res = client.post(
        f"/api/games/{gid}/moves",
        json={"token": t0, "action": first["action"], "version": seen["version"]},
    )
    assert res.status_code == 409 and "not played" in res.json()["error"]
    assert res.json()["view"] == undone
    for version in (-1, "3", True):
        res = client.post(
            f"/api/games/{gid}/moves", json={"token": t0, "action": 0, "version": version}
        )
        assert res.status_code == 422
    assert client.get(f"/api/games/{gid}", params={"token": t1}).json()["log"] == []
    # without a version, the move is judged on the game as it is
    res = client.post(f"/api/games/{gid}/moves", json={"token": t0, "action": first["action"]})
    assert res.status_code == 200 and len(res.json()["log"]) == 1


def test_a_live_move_names_its_view_too(client):
    g = new_game(client, HUMANS)
    t0, t1 = (s["token"] for s in g["seats"])
    with client.websocket_connect(f"/api/games/{g['id']}/ws?token={t0}") as ws:
        first = ws.receive_json()
        ws.send_json({"action": first["legal"][0]["action"], "version": first["version"] + 5})
        refused = ws.receive_json()
        assert "not played" in refused["error"]
        assert refused["view"] == {k: v for k, v in first.items() if k != "log_from"}
        ws.send_json({"action": first["legal"][0]["action"], "version": first["version"]})
        assert ws.receive_json()["version"] == first["version"] + 1
    view = client.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    assert len(view["log"]) == 1


def test_a_database_outage_is_not_a_bot_failure(client, caplog):
    from sqlalchemy.exc import OperationalError

    lobby = client.app.state.lobby
    claim = lobby.store.claim_bot
    outages = []

    def flaky(*args):
        if len(outages) < 4:  # more outages than the failures after which a bot plays at random
            outages.append(args)
            raise OperationalError("UPDATE", {}, ConnectionRefusedError("the database is down"))
        return claim(*args)

    lobby.store.claim_bot = flaky
    turns = lobby.bots.turns
    tried = []

    async def bot_turns(table, failures):
        tried.append(failures)
        return await turns(table, failures)

    lobby.bots.turns = bot_turns
    g = new_game(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], game="sintra", first_player=1
    )
    view = wait_for(client, g["id"], g["seats"][0]["token"], lambda v: v["to_move"] == 0)
    assert len(outages) == 4 and view["log"][0]["seat"] == 1
    assert tried == [0] * 5  # the bot thought each time: never counted as failing
    assert not [r for r in caplog.records if "bot turn failed" in r.getMessage()]


def test_the_schema_says_what_the_server_takes(client):
    schema = client.get("/openapi.json").json()
    models = schema["components"]["schemas"]
    assert models["SeatSpec"]["properties"]["name"]["anyOf"][0]["maxLength"] == 24
    seats = models["NewGame"]["properties"]["seats"]
    assert (seats["minItems"], seats["maxItems"]) == (2, 4)  # both games seat 2 to 4
    (lang,) = [
        p for p in schema["paths"]["/api/games/{game_id}/svg"]["get"]["parameters"]
        if p["name"] == "lang"
    ]  # fmt: skip
    assert lang["schema"]["enum"] == ["en", "fr", "pt"]
    g = new_game(client, HUMANS)
    res = client.get(f"/api/games/{g['id']}/svg", params={"token": g["watch_token"], "lang": "de"})
    assert res.status_code == 422 and "'en', 'fr', 'pt'" in res.json()["error"]
    name = "x" * 25  # one over the limit: refused as the schema says
    seats = [{"kind": "human", "name": name}, {"kind": "human"}]
    res = client.post("/api/games", json={"game": "pavilion", "seats": seats})
    assert res.status_code == 422
    for path in ("undo", "hint", "rematch"):
        assert "400" in schema["paths"][f"/api/games/{{game_id}}/{path}"]["post"]["responses"]


def test_the_schemas_links_lead_to_moves_undo_hints_and_rematches(client):
    paths = client.get("/openapi.json").json()["paths"]
    reached = set()
    for path in paths.values():
        for operation in path.values():
            for response in operation["responses"].values():
                reached |= {link["operationId"] for link in response.get("links", {}).values()}
    assert {"post_move", "post_undo", "post_hint", "rematch", "get_game", "join"} <= reached
    view = paths["/api/games/{game_id}"]["get"]["responses"]["200"]["links"]["PostMove"]
    assert view["requestBody"] == {
        "token": "$request.query.token",
        "action": "$response.body#/legal/0/action",
        "version": "$response.body#/version",
    }


def test_a_method_not_allowed_says_which_are(client):
    res = client.delete("/api/games")
    assert res.status_code == 405 and set(res.headers["allow"].split(", ")) == {"GET", "POST"}
    assert "DELETE" in res.json()["error"]
