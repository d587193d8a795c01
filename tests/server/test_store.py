"""Storage, on SQLite and on a real PostgreSQL server: the same code for both."""

from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient

from azul.core.errors import AzulError
from azul.server.app import create_app
from azul.server.store import Store
from tests.server.test_api import HUMANS, new_game

SEATS = [{"kind": "human", "token": "t0"}, {"kind": "bot", "bot": "greedy", "token": "t1"}]


def test_a_game_and_its_moves_round_trip(database):
    store = Store(database)
    store.create("g1", "pavilion", {"players": 2}, 42, "w1", SEATS)
    for ply, action in enumerate([5, 17, 3], start=1):
        store.add_move("g1", ply, action, ply % 2)
    game = Store(database).load("g1")  # a second connection sees what was committed
    assert (game.game, game.options, game.seed, game.watch_token) == (
        "pavilion",
        {"players": 2},
        42,
        "w1",
    )
    assert [(s.seat, s.kind, s.bot, s.token) for s in game.seats] == [
        (0, "human", None, "t0"),
        (1, "bot", "greedy", "t1"),
    ]
    assert game.actions == [5, 17, 3] and game.version == 3
    assert [g["id"] for g in store.list_games()] == ["g1"]
    assert store.load("nope") is None


def test_a_ply_is_written_once_and_undo_removes_moves(database):
    store = Store(database)
    store.create("g2", "sintra", {}, 1, "w2", SEATS)
    store.add_move("g2", 1, 9, 0)
    with pytest.raises(AzulError, match="move 1 of game g2 was already played"):
        store.add_move("g2", 1, 10, 1)
    assert store.load("g2").actions == [9]  # the failed write changed nothing
    store.add_move("g2", 2, 11, 1)
    store.remove_moves_from("g2", 2)
    game = store.load("g2")
    assert game.actions == [9] and game.version == 3


def test_state_survives_a_new_server_on_the_same_database(database):
    with TestClient(create_app(database, ThreadPoolExecutor(1))) as c:
        g = new_game(c, HUMANS)
        t0, t1 = (s["token"] for s in g["seats"])
        for token in (t0, t1, t0):
            v = c.get(f"/api/games/{g['id']}", params={"token": token}).json()
            c.post(
                f"/api/games/{g['id']}/moves",
                json={"token": token, "action": v["legal"][-1]["action"]},
            )
        before = c.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    with TestClient(create_app(database, ThreadPoolExecutor(1))) as c:
        after = c.get(f"/api/games/{g['id']}", params={"token": t1}).json()
    assert after == before and len(after["log"]) == 3
