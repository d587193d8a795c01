"""Storage, on SQLite and on a real PostgreSQL server: the same code for both."""

from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("sqlalchemy")
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from azul.server.app import create_app
from azul.server.store import CHANCE_SEAT, Seat, Stale, Store, StoredGame, engine_url, now
from tests.server.test_api import HUMANS, new_game

SEATS = [Seat(0, "human", "t0"), Seat(1, "bot", "t1", bot="greedy")]


def game(game_id, log=(), seeded=True, public=False, seats=SEATS):
    return StoredGame(
        game_id, "pavilion", {"players": 2}, 2**62 + 5, seeded, public, False, f"w-{game_id}",
        now(), list(seats), list(log), 0,
    )  # fmt: skip


def test_a_game_and_its_log_round_trip(database):
    store = Store(database)
    store.create(game("g1", log=[(CHANCE_SEAT, 3)], seeded=False))
    store.append("g1", 2, [(0, 5), (CHANCE_SEAT, 2)], version=0)
    store.append("g1", 4, [(1, 17)], version=1, finished=True)
    g = Store(database).load("g1")  # a second connection sees what was committed
    assert (g.game, g.options, g.seed, g.seeded, g.watch_token, g.finished) == (
        "pavilion",
        {"players": 2},
        2**62 + 5,  # seeds take 63 bits, on PostgreSQL too
        False,
        "w-g1",
        True,
    )
    assert g.seats == SEATS
    assert g.log == [(CHANCE_SEAT, 3), (0, 5), (CHANCE_SEAT, 2), (1, 17)] and g.version == 2
    assert store.load("nope") is None


def test_a_write_from_an_old_version_changes_nothing(database):
    store = Store(database)
    store.create(game("g2"))
    store.append("g2", 1, [(0, 9)], version=0)
    with pytest.raises(Stale):
        store.append("g2", 2, [(1, 10)], version=0)  # the game is at version 1 now
    with pytest.raises(Stale):
        store.truncate("g2", 1, version=5)
    assert store.load("g2").log == [(0, 9)]
    store.append("g2", 2, [(1, 11), (CHANCE_SEAT, 1)], version=1)
    store.truncate("g2", 2, version=2)  # undo
    g = store.load("g2")
    assert g.log == [(0, 9)] and g.version == 3


def test_the_lobby_lists_public_games_and_open_seats_are_claimed_once(database):
    store = Store(database)
    store.create(game("private"))
    store.create(game("public", public=True, seats=[Seat(0, "human", "a"), Seat(1, "open", "b")]))
    listed = store.list_public()
    assert [g.id for g in listed] == ["public"] and listed[0].log == []
    assert store.claim("public", 1, "Ana", "new-token")
    assert not store.claim("public", 1, "Bob", "other")  # taken
    assert not store.claim("public", 0, "Bob", "other")  # never open
    assert store.load("public").seats[1] == Seat(1, "human", "new-token", name="Ana")


def test_a_database_of_the_first_release_is_brought_up_to_date(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_engine(url)
    with engine.begin() as db:
        for sql in (
            "CREATE TABLE games (id VARCHAR(32) PRIMARY KEY, game VARCHAR(32), options TEXT, "
            "seed INTEGER, watch_token VARCHAR(64) UNIQUE, created VARCHAR(40), version INTEGER)",
            "CREATE TABLE seats (game_id VARCHAR(32), seat INTEGER, kind VARCHAR(8), "
            "bot VARCHAR(200), token VARCHAR(64) UNIQUE, PRIMARY KEY (game_id, seat))",
            "CREATE TABLE moves (game_id VARCHAR(32), ply INTEGER, action INTEGER, "
            "seat INTEGER, PRIMARY KEY (game_id, ply))",
            "INSERT INTO games VALUES ('old', 'sintra', '{}', 7, 'w', '2026-01-01', 1)",
            "INSERT INTO seats VALUES ('old', 0, 'human', NULL, 't0')",
            "INSERT INTO moves VALUES ('old', 1, 4, 0)",
        ):
            db.execute(text(sql))
    g = Store(url).load("old")
    assert g.seeded and not g.public and not g.finished  # its draws came from its seed
    assert g.seats == [Seat(0, "human", "t0")] and g.log == [(0, 4)]


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


def two_servers(database):
    """Two server processes' applications on one database; the second misses the notices of
    the first one's writes (as when its listener's connection is lost)."""
    a = TestClient(create_app(database, ThreadPoolExecutor(1)))
    b = TestClient(create_app(database, ThreadPoolExecutor(1)))
    b.app.state.lobby.tables.notice = lambda *_: None
    return a, b


def test_a_move_chosen_on_a_view_another_process_changed_is_never_played(database):
    a, b = two_servers(database)
    with a, b:
        g = new_game(a, HUMANS)
        gid = g["id"]
        t0 = g["seats"][0]["token"]
        seen = b.get(f"/api/games/{gid}", params={"token": t0}).json()
        move = seen["legal"][0]["action"]
        a.post(f"/api/games/{gid}/moves", json={"token": t0, "action": move})
        a.post(f"/api/games/{gid}/undo", json={"token": t0})
        # b still holds the view from before; the store has moved on twice
        res = b.post(
            f"/api/games/{gid}/moves",
            json={"token": t0, "action": move, "version": seen["version"]},
        )
        assert res.status_code == 409 and res.json()["view"]["version"] == seen["version"] + 2
        assert a.get(f"/api/games/{gid}", params={"token": t0}).json()["log"] == []


def test_a_process_that_stopped_hearing_the_store_checks_before_it_serves_a_view(database):
    a, b = two_servers(database)
    with a, b:
        g = new_game(a, HUMANS)
        gid = g["id"]
        t0 = g["seats"][0]["token"]
        lobby = b.app.state.lobby
        seen = b.get(f"/api/games/{gid}", params={"token": t0}).json()
        lobby.tables.lost()  # the listener's connection is lost: what a writes now, b never hears
        moved = a.post(
            f"/api/games/{gid}/moves", json={"token": t0, "action": seen["legal"][0]["action"]}
        ).json()
        assert b.get(f"/api/games/{gid}", params={"token": t0}).json() == moved
        with b.websocket_connect(f"/api/games/{gid}/ws?token={t0}") as ws:
            assert ws.receive_json()["version"] == moved["version"]


def test_the_listener_tells_when_it_stops_and_starts_hearing_the_store(postgres_url):
    import time

    from sqlalchemy import create_engine

    from azul.server.store import engine_url

    app = create_app(postgres_url, ThreadPoolExecutor(1))
    lobby = app.state.lobby
    calls = []
    lost = lobby.tables.lost
    lobby.tables.lost = lambda: (calls.append("lost"), lost())
    with TestClient(app):
        end = time.time() + 30
        while not lobby.tables.listening:
            assert time.time() < end, "the listener did not start"
            time.sleep(0.05)
        epoch = lobby.tables.epoch
        with create_engine(engine_url(postgres_url)).begin() as db:  # its connection is cut
            db.execute(
                text(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                    "WHERE query LIKE 'LISTEN%' AND pid <> pg_backend_pid()"
                )
            )
        while not (calls and lobby.tables.listening and lobby.tables.epoch > epoch):
            assert time.time() < end, (calls, lobby.tables.listening, lobby.tables.epoch)
            time.sleep(0.05)


def test_the_migrations_make_the_tables_the_store_uses(database):
    from alembic.autogenerate import compare_metadata
    from alembic.migration import MigrationContext

    from azul.server.store import Base

    store = Store(database)
    with store.engine.connect() as db:
        context = MigrationContext.configure(db)
        assert context.get_current_revision() == "0005"
        assert compare_metadata(context, Base.metadata) == []


def test_a_database_made_before_migrations_is_brought_up_to_date(database):
    # the tables as the store made them itself before it used Alembic, with a game in them
    from azul.server.store import Base

    engine = create_engine(engine_url(database))
    Base.metadata.create_all(engine)
    with engine.begin() as db:
        db.execute(
            text(
                "INSERT INTO games (id, game, options, seed, seeded, public, finished, "
                "watch_token, created, version, bot_turn) VALUES ('old', 'sintra', '{}', "
                f"{2**62}, FALSE, TRUE, FALSE, 'w', '2026-01-01', 3, FALSE)"
            )
        )
        db.execute(
            text(
                "INSERT INTO seats (game_id, seat, kind, token, name) "
                "VALUES ('old', 0, 'human', 't0', 'Ana')"
            )
        )
    engine.dispose()
    store = Store(database)
    g = store.load("old")
    assert (g.seed, g.seeded, g.public, g.version) == (2**62, False, True, 3)
    assert g.seats == [Seat(0, "human", "t0", name="Ana")]
    with store.engine.connect() as db:
        assert db.execute(text("SELECT version_num FROM alembic_version")).scalar() == "0005"


def test_processes_started_together_on_an_empty_database_never_crash(postgres_url):
    import subprocess
    import sys

    from tests.server.conftest import empty

    opening = f"from azul.server.store import Store; Store({postgres_url!r})"
    for _ in range(6):
        empty(postgres_url)
        starters = [
            subprocess.Popen([sys.executable, "-c", opening], stderr=subprocess.PIPE, text=True)
            for _ in range(2)
        ]
        for proc in starters:
            _, errors = proc.communicate(timeout=120)
            assert proc.returncode == 0, errors
        Store(postgres_url).create(game("after"))  # the tables are there, once
