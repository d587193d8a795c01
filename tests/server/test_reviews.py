"""Reviews of finished games through the API: refused while the game is played, made on the
bot processes, kept in the store, bounded against floods."""

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
