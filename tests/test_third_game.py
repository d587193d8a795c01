"""A third game (tests/minigame.py) runs through everything that is not a game package: the
conformance kit, every bot, a match, the server and the research adapters. Nothing outside the
game packages names a game or imports one."""

import ast
import time
from pathlib import Path

import pytest

import azul
from azul import bots
from azul.arena.match import play_game
from azul.bots.spec import BotSpec
from azul.testing import check_game

SRC = Path(azul.__file__).parent
GAME_PACKAGES = ("pavilion", "sintra")


@pytest.fixture(autouse=True)
def mini():
    azul.GAMES.register("mini", "tests.minigame:MiniGame")
    yield
    azul.GAMES.unregister("mini")


@pytest.mark.parametrize("explicit", [False, True])
def test_the_conformance_kit(explicit):
    check_game(azul.load_game("mini", explicit_chance=explicit), games=10)


def test_the_registry_loads_it_by_name_and_from_a_position():
    state = azul.load_game("mini").new_initial_state(3)
    assert "mini" in azul.GAMES and "mini" in list(azul.GAMES)
    assert azul.load_state(state.to_json()).to_json() == state.to_json()
    assert "rng" not in state.public_view(0)


STYLED = {
    "builder",
    "bigpile",
}  # bots that play a game's evaluation style, which the mini game has not


@pytest.mark.parametrize("name", sorted(set(bots.BOTS) - STYLED))
def test_every_bot_plays_it_to_the_end(name):
    options = {"iterations": 60} if name == "mcts" else {}
    bot = bots.make(name, seed=2, **options)
    state = azul.load_game("mini").new_initial_state(4)
    while not state.is_terminal():
        state.apply_action(bot.choose(state))
    assert sum(state.scores()) >= 2 * 6  # each of the 12 takes scores at least 1


@pytest.mark.parametrize("name", sorted(STYLED))
def test_a_bot_of_a_style_refuses_it_naming_the_styles_it_has(name):
    state = azul.load_game("mini").new_initial_state(4)
    with pytest.raises(
        azul.OptionError, match=f"mini has no {bots.BOTS[name].style!r} style of play: it has no"
    ):
        bots.make(name, seed=2).choose(state)


def test_a_match():
    result = play_game("mini", {}, [BotSpec("greedy"), BotSpec("random")], seed=5)
    assert len(result.scores) == 2 and result.winners
    assert result.record().game == "mini"


@pytest.fixture
def client(tmp_path):
    pytest.importorskip("fastapi")
    from concurrent.futures import ThreadPoolExecutor

    from fastapi.testclient import TestClient

    from azul.server.app import create_app

    with TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", ThreadPoolExecutor(2))) as c:
        yield c


def test_the_server(client):
    seats = [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]
    res = client.post("/api/games", json={"game": "mini", "options": {}, "seats": seats})
    assert res.status_code == 201, res.text
    game = res.json()
    gid, token = game["id"], game["seats"][0]["token"]
    deadline = time.monotonic() + 60
    while True:
        view = client.get(f"/api/games/{gid}", params={"token": token}).json()
        if view["over"]:
            break
        assert time.monotonic() < deadline, "the game did not finish"
        if view["to_move"] == 0 and view["legal"]:
            move = view["legal"][0]["move"]
            res = client.post(f"/api/games/{gid}/moves", json={"token": token, "move": move})
            assert res.status_code == 200, res.text
        else:
            time.sleep(0.02)
    assert "rng" not in view["position"]
    assert sum(view["scores"]) >= 12
    svg = client.get(f"/api/games/{gid}/svg", params={"token": token})
    assert svg.status_code == 200 and svg.text.startswith("<svg")


def test_openspiel():
    pyspiel = pytest.importorskip("pyspiel")
    from azul.interop import openspiel

    openspiel.register()
    pyspiel.random_sim_test(
        pyspiel.load_game("azul_mini"), num_sims=3, serialize=True, verbose=False
    )


def test_pettingzoo():
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test

    from azul.interop.pettingzoo import env

    api_test(env("mini"), num_cycles=50)


def test_gymnasium():
    pytest.importorskip("gymnasium")
    from gymnasium.utils.env_checker import check_env

    from azul.interop.gym import make

    check_env(make("mini", opponents=["greedy"]), skip_render_check=True)


def _outside_the_games():
    for path in sorted(SRC.rglob("*.py")):
        parts = path.relative_to(SRC).parts
        if parts[0] not in GAME_PACKAGES:
            yield path


def test_nothing_outside_a_game_imports_one():
    games = {f"azul.{name}" for name in GAME_PACKAGES}
    found = []
    for path in _outside_the_games():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            found += [
                f"{path.name}: {n}"
                for n in names
                if any(n == g or n.startswith(g + ".") for g in games)
            ]
    assert not found


def test_no_game_package_imports_the_layers_above_it():
    above = ("azul.bots", "azul.arena", "azul.server", "azul.interop", "azul.cli")
    found = []
    for name in GAME_PACKAGES:
        for path in sorted((SRC / name).rglob("*.py")):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(above):
                    found.append(f"{name}/{path.name}: {node.module}")
    assert not found
