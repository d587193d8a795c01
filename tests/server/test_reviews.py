"""Reviews of finished games through the API: refused while the game is played, made on the
bot processes, kept in the store, bounded against floods."""

import threading
import time

from azul.core.records import parse_record
from azul.review import review_record
from tests.server.test_api import new_game, wait_for

BOTS = [{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}]
LIMITS = {"review_iterations": 40}  # light searches: the bookkeeping is under test


def finished(client, game="sintra", seats=BOTS):
    g = new_game(client, seats, game=game)
    wait_for(client, g["id"], g["watch_token"], lambda v: v["over"], timeout=120)
    return g


def reviewed(client, gid, token, timeout=120):
    end = time.time() + timeout
    while time.time() < end:
        res = client.get(f"/api/games/{gid}/review", params={"token": token})
        assert res.status_code == 200, res.text
        if res.json()["status"] == "done":
            return res.json()["review"]
        time.sleep(0.2)
    raise AssertionError("the review was not made in time")


def test_a_finished_games_review_is_made_once_and_kept(make_client):
    client = make_client(**LIMITS)
    g = finished(client)
    gid, watch = g["id"], g["watch_token"]
    assert client.get(f"/api/games/{gid}/review", params={"token": watch}).json() == {
        "status": "none", "done": None, "total": None, "review": None,
    }  # fmt: skip
    started = client.post(f"/api/games/{gid}/review", json={"token": watch}).json()
    assert started["status"] in ("running", "done")
    review = reviewed(client, gid, watch)
    record = client.get(f"/api/games/{gid}/record", params={"token": watch}).text
    rec = parse_record(record.splitlines())
    # the same review as the Python API's under the server's settings
    alone = review_record(rec, seed=rec.seed, iterations=LIMITS["review_iterations"],
                          time_per_move=2.0).to_json()  # fmt: skip
    assert [d["loss"] for d in review["decisions"]] == [d["loss"] for d in alone["decisions"]]
    assert review["summary"] == alone["summary"]
    assert review["svg"].startswith("<svg") and all(d["targets"] for d in review["decisions"])
    # asked again, it is the stored one at once
    again = client.post(f"/api/games/{gid}/review", json={"token": watch}).json()
    assert again == {"status": "done", "done": None, "total": None, "review": review}


def test_no_review_while_the_game_is_played_and_none_for_strangers(client):
    g = new_game(client, [{"kind": "human"}, {"kind": "bot", "bot": "random"}], game="sintra")
    res = client.post(f"/api/games/{g['id']}/review", json={"token": g["seats"][0]["token"]})
    assert res.status_code == 409 and "once it is over" in res.json()["error"]
    res = client.get(f"/api/games/{g['id']}/review", params={"token": "x" * 20})
    assert res.status_code == 403
    res = client.get("/api/games/nosuchgame/review", params={"token": "x" * 20})
    assert res.status_code == 404


def test_reviews_are_bounded_per_address_and_in_all(make_client):
    client = make_client(review_iterations=5000, review_time=5.0, reviews_running=1)
    games = [finished(client, seats=[{"kind": "bot", "bot": "random"}] * 2) for _ in range(2)]
    first = client.post(
        f"/api/games/{games[0]['id']}/review", json={"token": games[0]["watch_token"]}
    )
    assert first.status_code == 200 and first.json()["status"] == "running"
    second = client.post(
        f"/api/games/{games[1]['id']}/review", json={"token": games[1]["watch_token"]}
    )
    assert second.status_code == 429 and "Retry-After" in second.headers
    # a flood of requests from one address meets its rate
    limited = make_client(reviews_per_minute=5, review_iterations=40)
    g = finished(limited)
    codes = [
        limited.get(f"/api/games/{g['id']}/review", params={"token": g["watch_token"]}).status_code
        for _ in range(8)
    ]
    assert codes[:5] == [200] * 5 and set(codes[5:]) == {429}


def test_two_processes_make_a_review_once_between_them(database, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from azul.server import reviews
    from azul.server.app import create_app
    from azul.server.settings import Settings

    gate, parts, real = threading.Event(), [], reviews.review_part

    def held(*args):  # the first process's parts wait until the second one has asked
        parts.append(args[4])
        assert gate.wait(60)
        return real(*args)

    monkeypatch.setattr(reviews, "review_part", held)
    a = TestClient(create_app(database, ThreadPoolExecutor(2), Settings(**LIMITS)))
    b = TestClient(create_app(database, ThreadPoolExecutor(2), Settings(**LIMITS)))
    with a, b:
        g = finished(a)
        gid, watch = g["id"], g["watch_token"]
        total = a.post(f"/api/games/{gid}/review", json={"token": watch}).json()["total"]
        # the second process tells the first one's progress, and begins no review of its own
        asked = b.post(f"/api/games/{gid}/review", json={"token": watch}).json()
        assert asked == {"status": "running", "done": 0, "total": total, "review": None}
        assert b.app.state.lobby.reviews.making == {}
        gate.set()
        made = reviewed(a, gid, watch)
        assert reviewed(b, gid, watch) == made
    assert sorted(parts) == list(range(0, total, reviews.PART))  # each part once


def test_a_review_claim_is_held_by_one_process_until_it_runs_out(database):
    from azul.server.store import Store
    from tests.server.test_store import game

    store = Store(database)
    store.create(game("r1"))
    assert store.review_claim("r1") is None
    assert store.claim_review("r1", "a", 30, 0, 40)
    assert not store.claim_review("r1", "b", 30, 0, 40)
    assert store.claim_review("r1", "a", 30, 8, 40)  # renewed, with its progress
    assert store.review_claim("r1") == (8, 40)
    store.unclaim_review("r1", "b")  # not b's to end
    assert store.review_claim("r1") == (8, 40)
    assert store.claim_review("r1", "a", 0.05, 16, 40)
    time.sleep(0.1)  # a stopped renewing: its claim ran out
    assert store.review_claim("r1") is None
    assert store.claim_review("r1", "b", 30, 0, 40)
    assert not store.claim_review("r1", "a", 30, 24, 40)  # a cannot take it back
    store.save_review("r1", "{}")
    assert store.review_claim("r1") is None and store.review("r1") == "{}"
    assert store.claim_review("r1", "c", 30, 0, 40)
    store.release(["c"])  # a process that stops ends its claims
    assert store.review_claim("r1") is None
