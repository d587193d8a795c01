"""The server takes every game of the registry, as it is when a request comes: a game registered
after the app is built, and a game without a rules summary."""

import json
from pathlib import Path

import pytest

pytest.importorskip("fastapi")

import azul


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


def test_the_setup_lists_every_game_with_its_title_options_and_the_levels(client, mini):
    """What the lobby is built from: the games in the order they were registered (the first is
    the default), a game registered after the app is built included."""
    setup = client.get("/api/setup").json()
    names = [g["name"] for g in setup["games"]]
    assert names == list(azul.GAMES) and names[-1] == "mini"
    for game in setup["games"]:
        cls = azul.GAMES[game["name"]]
        assert game["title"] == cls.title
        assert game["options"] == [o.to_json() for o in cls.setup_options()]
        assert game["players"] == azul.load_game(game["name"]).info.num_players
    mini_game = setup["games"][-1]
    assert mini_game["title"] == "Mini draft" and mini_game["players"] == 2
    assert mini_game["options"] == [
        {"name": "players", "label": "Players", "values": [{"value": 2, "label": "2"}]}
    ]
    levels = [level["name"] for level in setup["levels"]]
    assert {"random", "heuristic", "mcts"} <= set(levels)
    assert setup["default_level"] in levels
    assert all(level["label"] for level in setup["levels"])
    azul.GAMES.unregister("mini")
    assert "mini" not in [g["name"] for g in client.get("/api/setup").json()["games"]]


def test_the_setup_is_documented(client):
    paths = client.get("/openapi.json").json()["paths"]
    answers = paths["/api/setup"]["get"]["responses"]
    assert answers["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/Setup")
    assert "422" in answers


def test_every_setup_option_makes_a_game(client, mini):
    """Each value the lobby offers is accepted as an option of a new game, with as many seats
    as its players."""
    for game in client.get("/api/setup").json()["games"]:
        for option in game["options"]:
            for choice in option["values"]:
                options = {option["name"]: choice["value"]}
                players = options.get("players", game["players"])
                body = {"game": game["name"], "options": options, "seats": HUMANS[:1] * players}
                res = client.post("/api/games", json=body)
                assert res.status_code == 201, (body, res.text)


def test_views_and_the_lobby_give_the_games_title(client, mini):
    res = client.post("/api/games", json={"game": "mini", "seats": HUMANS, "public": True})
    game = res.json()
    view = client.get(f"/api/games/{game['id']}", params={"token": game["watch_token"]}).json()
    assert view["title"] == "Mini draft"
    (listed,) = client.get("/api/games").json()
    assert listed["game"] == "mini" and listed["title"] == "Mini draft"
    azul.GAMES.unregister("mini")  # a game no longer registered is listed by its name
    (listed,) = client.get("/api/games").json()
    assert listed["title"] == "mini"


def test_the_web_client_and_the_server_name_no_game():
    """The lobby, the table and the server learn the games from the registry: no file of
    theirs names one."""
    src = Path(azul.__file__).parent
    files = [p for p in (src / "web").rglob("*") if p.suffix in {".js", ".html", ".css"}]
    files += list((src / "server").rglob("*.py"))
    assert len(files) > 8
    for path in files:
        text = path.read_text(encoding="utf-8").lower()
        for name in ("pavilion", "sintra"):  # this package's games
            assert name not in text, f"{path.relative_to(src)} names the game {name!r}"


def test_the_server_names_no_games_option():
    # what the server knows of a game's options comes from the game's API (file_options,
    # setup_options); the players and how chance is drawn are the API's own options
    import ast
    from pathlib import Path

    import azul.server

    shared = {"players", "explicit_chance"}
    options = {key for name in azul.GAMES for key in azul.load_game(name).options} - shared
    assert {"components", "side", "board"} <= options  # the check looks for these too
    for path in Path(azul.server.__file__).parent.rglob("*.py"):
        words = {
            node.value
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, ast.Constant) and isinstance(node.value, str)
        }
        assert not words & options, (path.name, sorted(words & options))


def test_the_lobby_and_the_views_say_when_the_printed_values_are_provisional(make_client, tmp_path):
    """Sintra's shipped components file is provisional: the setup and a view of a game played
    with it carry the game's notice; a game with the operator's file of a real copy has none."""
    from azul.sintra import data
    from azul.sintra.game import PROVISIONAL_NOTICE

    mine = tmp_path / "mine.toml"
    shipped = data.SHIPPED.read_text(encoding="utf-8")
    real = shipped.replace(
        f'provenance = "{data.load_components().provenance}"', 'provenance = "my copy"'
    )
    assert real != shipped
    mine.write_text(real, encoding="utf-8")
    client = make_client(files={"components": {"mine": str(mine)}})
    games = {g["name"]: g for g in client.get("/api/setup").json()["games"]}
    assert {name: g["notice"] for name, g in games.items()} == {
        "pavilion": "",
        "sintra": PROVISIONAL_NOTICE,
    }
    # the lobby offers the operator's file by its name, after the game's own
    assert games["sintra"]["options"][-1] == {
        "name": "components",
        "label": "Printed values",
        "values": [
            {"value": "default", "label": "shipped with the game"},
            {"value": "mine", "label": "mine"},
        ],
    }
    assert games["sintra"]["notices"] == {"components": {"mine": ""}}  # a real copy's values
    assert str(tmp_path) not in json.dumps(games)
    assert [o["name"] for o in games["pavilion"]["options"]] == ["players", "board"]
    assert "provisional" in PROVISIONAL_NOTICE and "--components" in PROVISIONAL_NOTICE

    def notice(game, options):
        body = {"game": game, "seats": HUMANS, "options": options}
        made = client.post("/api/games", json=body).json()
        token = made["watch_token"]
        return client.get(f"/api/games/{made['id']}", params={"token": token}).json()["notice"]

    assert notice("sintra", {}) == PROVISIONAL_NOTICE
    assert notice("sintra", {"components": "default"}) == PROVISIONAL_NOTICE
    assert notice("sintra", {"components": "mine"}) == ""
    assert notice("pavilion", {}) == ""
