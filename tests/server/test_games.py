"""The server takes every game of the registry, as it is when a request comes: a game registered
after the app is built, and a game without a rules summary."""

from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")
from fastapi.testclient import TestClient

import azul
from azul.server.app import create_app


@pytest.fixture
def client(tmp_path):
    app = create_app(f"sqlite:///{tmp_path / 'games.db'}", ThreadPoolExecutor(2))
    with TestClient(app) as c:
        yield c


@pytest.fixture
def mini():
    azul.GAMES.register("mini", "tests.minigame:MiniGame")
    yield
    azul.GAMES.unregister("mini")


HUMANS = [{"kind": "human"}, {"kind": "human"}]


def test_a_game_registered_after_the_app_is_built(client, mini):
    res = client.post("/api/games", json={"game": "mini", "seats": HUMANS})
    assert res.status_code == 201, res.text
    game = res.json()
    view = client.get(f"/api/games/{game['id']}", params={"token": game["watch_token"]}).json()
    assert view["game"] == "mini" and "rng" not in view["position"]
    res = client.post("/api/games", json={"game": "chess", "seats": HUMANS})
    assert res.status_code == 422
    assert res.json()["error"] == "game must be one of 'mini', 'pavilion', 'sintra'"


def test_an_unregistered_game_is_refused_with_the_known_ones(client, mini):
    azul.GAMES.unregister("mini")
    res = client.post("/api/games", json={"game": "mini", "seats": HUMANS})
    assert res.status_code == 422
    assert res.json()["error"] == "game must be one of 'pavilion', 'sintra'"
    res = client.post("/api/games", json={"game": 3, "seats": HUMANS})
    assert res.status_code == 422 and res.json()["error"].startswith("game must be one of")


def test_the_schema_lists_the_games_and_levels(client):
    schema = client.get("/openapi.json").json()["components"]["schemas"]
    assert schema["NewGame"]["properties"]["game"]["enum"] == sorted(azul.GAMES)
    bot = schema["SeatSpec"]["properties"]["bot"]["anyOf"]
    assert {"random", "heuristic", "mcts"} <= set(next(b for b in bot if "enum" in b)["enum"])


def test_the_rules_leave_out_a_game_without_them(client, mini):
    res = client.get("/api/i18n/fr")
    assert res.status_code == 200
    rules = res.json()["rules"]
    assert "mini" not in rules and {"pavilion", "sintra"} <= set(rules)
    assert all(isinstance(text, str) and text for text in rules.values())
