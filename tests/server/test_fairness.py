"""Fair play against hostile clients: draws nobody can predict, no client-chosen resources,
bots that never play a stale move."""

import json
import random
import threading

import pytest

pytest.importorskip("fastapi")

import azul
from azul.core.errors import AzulError
from azul.core.records import final_state, parse_record
from azul.server import bots
from azul.server import table as table_module
from azul.server.settings import Settings
from tests.server.test_api import HUMANS, wait_for


@pytest.fixture
def client(make_client):
    return make_client()


def create(client, seats=HUMANS, game="pavilion", **body):
    res = client.post("/api/games", json={"game": game, "seats": seats, **body})
    assert res.status_code == 201, res.text
    return res.json()


def view(client, g, token):
    return client.get(f"/api/games/{g['id']}", params={"token": token}).json()


def first_moves(client, g, plies):
    """Each person plays their first legal move, ``plies`` times."""
    tokens = [s["token"] for s in g["seats"]]
    for _ in range(plies):
        v = view(client, g, g["watch_token"])
        token = tokens[v["to_move"]]
        legal = view(client, g, token)["legal"]
        res = client.post(
            f"/api/games/{g['id']}/moves", json={"token": token, "action": legal[0]["action"]}
        )
        assert res.status_code == 200, res.text


def seen_by_spectator(client, g, ply):
    """Everything a spectator can fetch about a game at this point."""
    v = view(client, g, g["watch_token"])
    del v["id"]
    svg = client.get(f"/api/games/{g['id']}/svg", params={"token": g["watch_token"]}).text
    old = client.get(
        f"/api/games/{g['id']}/svg", params={"token": g["watch_token"], "ply": ply}
    ).text
    record = client.get(f"/api/games/{g['id']}/record", params={"token": g["watch_token"]})
    return v, svg, old, record.text


def test_nothing_a_spectator_sees_tells_the_future_draws(client, monkeypatch):
    # Two games draw the same outcomes until a divergence point, then different ones. Up to
    # that point a spectator sees exactly the same in both: nothing shown depends on a draw
    # that has not happened yet (no seed, no generator state).
    script = {"common": 0}

    def draw(state):
        outcomes, weights = zip(*state.chance_outcomes(), strict=True)
        script["common"] += 1
        rng = (
            script["rng"] if script["common"] > script["until"] else random.Random(script["common"])
        )
        return rng.choices(outcomes, weights)[0]

    monkeypatch.setattr(table_module, "draw", draw)
    seen = []
    for future_seed in (1, 2):
        # the setup draws 10 supply tiles and 5 x 4 factory tiles: the same in both games; any
        # draw after those would differ
        script.update(common=0, until=30, rng=random.Random(future_seed))
        g = create(client, options={"first_player": 0})
        views = []
        for ply in range(6):
            views.append(seen_by_spectator(client, g, ply))
            first_moves(client, g, 1)
        seen.append(views)
        record = parse_record(views[-1][3].splitlines())
        assert record.seed is None and not record.seeded
    assert seen[0] == seen[1]
    assert "rng" not in seen[0][0][0]["position"] and not seen[0][0][0]["seeded"]


def test_unseeded_draws_come_from_the_operating_system_and_replay_from_the_record(client):
    g = create(client, [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}])
    done = wait_for(client, g["id"], g["watch_token"], lambda v: v["over"], timeout=120)
    text = client.get(f"/api/games/{g['id']}/record", params={"token": g["watch_token"]}).text
    record = parse_record(text.splitlines())
    assert record.seed is None and record.options["explicit_chance"] is True
    assert "chance" in text  # every draw is a line of the record
    assert final_state(record).scores() == done["scores"]  # replays without any seed


def test_a_seeded_game_says_so_everywhere_and_replays_its_deal(client):
    g = create(client, options={"first_player": 0}, seed=2**63 - 1, public=True)
    assert g["seeded"]
    assert view(client, g, g["watch_token"])["seeded"]
    assert [x["seeded"] for x in client.get("/api/games").json()] == [True]
    text = client.get(f"/api/games/{g['id']}/record", params={"token": g["watch_token"]}).text
    head = json.loads(text.splitlines()[0])
    assert head["seeded"] and head["seed"] == 2**63 - 1
    same = azul.load_game("pavilion", first_player=0).new_initial_state(2**63 - 1).to_json()
    position = view(client, g, g["watch_token"])["position"]
    assert position["factories"] == same["factories"] and position["supply"] == same["supply"]


@pytest.mark.parametrize("seed", [2**63, 2**64, -1, "7", 1.5, True])
def test_seeds_out_of_range_are_refused(client, seed):
    res = client.post("/api/games", json={"game": "pavilion", "seats": HUMANS, "seed": seed})
    assert res.status_code in (400, 422) and "seed" in res.json()["error"]


@pytest.mark.parametrize(
    "components,message",
    [
        ("/etc/passwd", "unknown components '/etc/passwd'"),
        ("/dev/zero", "unknown components"),
        ("../../../../etc/hosts.toml", "unknown components"),
        ("a\x00b", "unknown components"),
        (7, "unknown components"),
    ],
)
def test_no_client_string_is_opened_as_a_path(client, components, message):
    body = {"game": "sintra", "seats": HUMANS, "options": {"components": components}}
    res = client.post("/api/games", json=body)
    assert res.status_code == 400 and message in res.json()["error"]
    assert "this server has default" in res.json()["error"]


def test_component_sets_are_named_by_the_operator(make_client, tmp_path):
    from azul.sintra import data

    mine = tmp_path / "mine.toml"
    mine.write_bytes(data.SHIPPED.read_bytes())
    client = make_client(files={"components": {"mine": str(mine)}})
    g = create(client, game="sintra", options={"components": "mine"})
    v = view(client, g, g["watch_token"])
    assert v["options"]["components"] == "mine"  # the name, never the operator's path
    assert str(tmp_path) not in json.dumps(v)
    assert create(client, game="sintra")["id"]  # the shipped set by default


@pytest.mark.parametrize(
    "bot",
    ["mcts:workers=6", "mcts:time=15,iterations=null", "mcts:iterations=50,scale=abc", "x" * 300,
     "heur\x00istic"],
)  # fmt: skip
def test_bots_are_levels_from_the_server_list(client, bot):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
    res = client.post("/api/games", json={"game": "pavilion", "seats": seats})
    assert res.status_code == 422 and res.json()["error"] == (
        "seats.1.bot must be one of 'random', 'greedy', 'heuristic', 'mcts-fast', 'mcts', "
        "'mcts-strong'"
    )
    with pytest.raises(AzulError, match="unknown bot level 'deep': use one of random, greedy"):
        Settings().level("deep")


def test_levels_stay_within_the_operators_caps():
    capped = Settings(bot_time=0.3, bot_iterations=200)
    assert capped.level("mcts-strong") == "mcts:time=0.3,iterations=200,scale=30,c=0.35"
    assert capped.level("mcts-fast") == "mcts:time=0.2,iterations=200"
    assert "workers" not in Settings().level("mcts-strong")


def test_a_bot_answer_to_an_undone_position_is_not_played(client, monkeypatch):
    # seat 0 moves; while the bot thinks, seat 0 takes the move back and plays another one.
    # The answer the bot found for the first position must not be played in the second.
    thought = []
    real = bots.think
    first = threading.Event()

    def slow_think(game, options, seed, actions, bot, bot_seed):
        if not thought:
            first.wait(10)  # the first answer arrives after the undo and the new move
        action = real(game, options, seed, actions, bot, bot_seed)
        thought.append((list(actions), action))
        return action

    monkeypatch.setattr(bots, "think", slow_think)
    g = create(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], options={"first_player": 0}
    )
    t0 = g["seats"][0]["token"]
    legal = view(client, g, t0)["legal"]
    post = lambda a: client.post(f"/api/games/{g['id']}/moves", json={"token": t0, "action": a})  # noqa: E731
    assert post(legal[0]["action"]).status_code == 200
    assert client.post(f"/api/games/{g['id']}/undo", json={"token": t0}).status_code == 200
    assert post(legal[-1]["action"]).status_code == 200
    first.set()
    done = wait_for(client, g["id"], t0, lambda v: v["to_move"] == 0 and len(v["log"]) == 2)
    record = parse_record(
        client.get(f"/api/games/{g['id']}/record", params={"token": t0}).text.splitlines()
    )
    bot_answer = record.actions[-1]
    before_answer = record.actions[:-1]
    assert (before_answer, bot_answer) in thought  # thought out for the position it was played in
    assert thought[0][0] != before_answer  # the first, stale answer was dropped
    assert done["log"][0]["move"] == legal[-1]["move"]


def test_a_failing_bot_is_retried_and_never_leaves_the_game_stuck(client, monkeypatch, caplog):
    calls = []

    def broken(*args):
        calls.append(args)
        raise RuntimeError("the bot crashed")

    monkeypatch.setattr(bots, "think", broken)
    g = create(
        client, [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], options={"first_player": 1}
    )
    t0 = g["seats"][0]["token"]
    v = wait_for(client, g["id"], t0, lambda v: v["to_move"] == 0, timeout=30)
    assert len(v["log"]) == 1 and len(calls) == 3  # three tries, then a random legal move
    assert "bot turn failed" in caplog.text and "the bot crashed" in caplog.text
