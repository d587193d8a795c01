"""Time controls: the clocks' arithmetic worked out by hand, and through the API a person whose
time runs out, the bot that plays for them, the seat it keeps and its person taking it back."""

import pytest

from azul.core.errors import AzulError
from azul.server import clocks
from azul.server.clocks import Clock, TimeControl

HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_move_clock_spends_the_reserve_only_past_the_moves_seconds():
    control = TimeControl.parse({"kind": "move", "seconds": 30, "reserve": 60})
    clock = Clock.new(control, 2).started(0, 100.0)
    assert clock.deadline() == 100 + 30 + 60
    clock = clock.moved(0, 140.0, timed_out=False)  # 40 s: 10 past the 30, from the reserve
    assert clock.left == (50.0, 60.0) and clock.deadline() is None
    clock = clock.started(1, 140.0).moved(1, 150.0, timed_out=False)  # in time: none spent
    assert clock.left == (50.0, 60.0)
    clock = clock.started(0, 200.0)
    assert clock.deadline() == 200 + 30 + 50
    assert not clock.ran_out(0, 279.9) and clock.ran_out(0, 280.0) and not clock.ran_out(1, 999)


def test_a_game_clock_adds_its_increment_and_a_turn_clock_counts_hours():
    control = TimeControl.parse({"kind": "game", "minutes": 1, "increment": 5})
    clock = Clock.new(control, 3).started(2, 0.0).moved(2, 20.0, timed_out=False)
    assert clock.left == (60.0, 60.0, 60 - 20 + 5)
    assert clock.started(2, 30.0).deadline() == 30 + 45
    turn = Clock.new(TimeControl.parse({"kind": "turn", "hours": 24}), 2).started(1, 0.0)
    assert turn.deadline() == 86400
    # timeouts count in a row, and a move in time (or the person back) ends the run
    turn = turn.moved(1, 9e4, timed_out=True).moved(1, 1e5, timed_out=True)
    assert turn.timeouts == (0, 2)
    assert turn.back(1).timeouts == (0, 0) and turn.moved(1, 2e5, False).timeouts == (0, 0)
    again = Clock.from_json(turn.to_json())
    assert again == turn


@pytest.mark.parametrize(
    "doc, error",
    [
        ({"kind": "blitz"}, "clock.kind: one of untimed, move, game, turn"),
        ({"kind": "move", "seconds": 1}, r"clock.seconds: 1 is not in 5..3600"),
        ({"kind": "move", "hours": 2}, "move takes no hours"),
        ({"kind": "turn", "hours": "a day"}, "clock.hours: expected a number"),
        ("60", "expected an object"),
    ],
)
def test_a_bad_time_control_is_named(doc, error):
    with pytest.raises(AzulError, match=error):
        TimeControl.parse(doc)


@pytest.fixture
def fake_time(monkeypatch):
    """The server's clock, moved by the test."""
    now = [1000.0]
    monkeypatch.setattr(clocks, "now", lambda: now[0])
    return now


def timed_game(client, clock):
    res = client.post(
        "/api/games",
        json={"game": "sintra", "options": {"first_player": 0}, "seats": HUMANS, "clock": clock},
    )
    assert res.status_code == 201, res.text
    g = res.json()
    return g["id"], [s["token"] for s in g["seats"]]


def view(client, gid, token):
    return client.get(f"/api/games/{gid}", params={"token": token}).json()


def move(client, gid, token):
    action = view(client, gid, token)["legal"][0]["action"]
    return client.post(f"/api/games/{gid}/moves", json={"token": token, "action": action})


def played_by_bot(client, gid, token, count):
    from tests.server.test_api import wait_for

    return wait_for(client, gid, token, lambda v: sum(1 for e in v["log"] if "by" in e) >= count)


def test_a_person_out_of_time_is_played_for_then_kept_for_until_back(client, fake_time):
    gid, tokens = timed_game(client, {"kind": "move", "seconds": 5})
    first = view(client, gid, tokens[0])
    assert first["clock"]["control"] == {"kind": "move", "seconds": 5.0, "reserve": 0.0,
                                         "bot": "heuristic"}  # fmt: skip
    assert first["clock"]["deadline"] == 1005 and first["now"] == 1000
    fake_time[0] = 1006.0  # seat 0 let its time run out: its move is refused, the bot plays it
    late = move(client, gid, tokens[0])
    assert late.status_code == 409 and "time ran out" in late.json()["error"]
    v = played_by_bot(client, gid, tokens[0], 1)
    assert v["log"][-1]["seat"] == 0 and v["log"][-1]["by"] == "timeout"
    assert v["clock"]["seat"] == v["to_move"] and v["clock"]["since"] == 1006
    # undo is not offered in a timed game: it would give the time back
    assert client.post(f"/api/games/{gid}/undo", json={"token": tokens[0]}).status_code == 409
    while view(client, gid, tokens[0])["to_move"] != 0:  # the others move in time
        fake_time[0] += 1
        to_move = view(client, gid, tokens[0])["to_move"]
        assert move(client, gid, tokens[to_move]).status_code == 200
    fake_time[0] += 6  # a second timeout in a row: the bot keeps the seat
    assert move(client, gid, tokens[0]).status_code == 409
    v = played_by_bot(client, gid, tokens[0], 2)
    assert v["seats"][0]["away"] and v["clock"]["timeouts"][0] == 2
    turn = view(client, gid, tokens[1])
    if turn["to_move"] == 1:
        assert move(client, gid, tokens[1]).status_code == 200
    # seat 0's moves are now the bot's at once, without waiting for a clock
    v = played_by_bot(client, gid, tokens[0], 3)
    assert v["log"][-1]["by"] == "away" and v["legal"] == []
    back = client.post(f"/api/games/{gid}/back", json={"token": tokens[0]})
    assert back.status_code == 200, back.text
    mine = back.json()
    assert not mine["seats"][0]["away"] and mine["clock"]["timeouts"][0] == 0
    again = client.post(f"/api/games/{gid}/back", json={"token": tokens[0]})
    assert again.status_code == 409 and "no bot keeps your seat" in again.json()["error"]


def test_a_restart_keeps_every_seats_time_left(make_client, fake_time, tmp_path):
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from azul.server.app import create_app

    url = f"sqlite:///{tmp_path / 'clocks.db'}"
    with TestClient(create_app(url, ThreadPoolExecutor(1))) as a:
        gid, tokens = timed_game(a, {"kind": "game", "minutes": 2, "increment": 3})
        fake_time[0] = 1030.0
        assert move(a, gid, tokens[0]).status_code == 200
        before = view(a, gid, tokens[1])["clock"]
    assert before["left"][0] == 120 - 30 + 3
    with TestClient(create_app(url, ThreadPoolExecutor(1))) as b:
        assert view(b, gid, tokens[1])["clock"] == before


def test_a_time_control_out_of_bounds_is_refused_before_anything_is_made(client):
    res = client.post(
        "/api/games",
        json={"game": "sintra", "seats": HUMANS, "clock": {"kind": "move", "seconds": 0.5}},
    )
    assert res.status_code in (400, 422) and "seconds" in res.text
    res = client.post(
        "/api/games",
        json={"game": "sintra", "seats": HUMANS, "clock": {"kind": "turn", "bot": "nobody"}},
    )
    assert res.status_code in (400, 422) and "bot" in res.text
    assert client.get("/api/games").json() == []
