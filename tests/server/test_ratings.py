"""The levels' ratings: the lobby's setup answer carries those of the shipped file, shown as
40 × mu with 40 × (mu ± 2 sigma), and the shipped file says what it rests on."""

import json

import pytest

pytest.importorskip("fastapi")

from azul.server import ratings, schema
from azul.server.settings import LEVELS


@pytest.fixture
def rated(tmp_path, monkeypatch):
    doc = {
        "format": ratings.FORMAT,
        "version": 1,
        "games": {
            "pavilion": {
                "2": {
                    "levels": {
                        "greedy": {"mu": 30.0, "sigma": 2.5, "games": 12},
                        "retired": {"mu": 20.0, "sigma": 2.5, "games": 12},  # not offered
                    }
                },
                "3": {"levels": {"random": {"mu": 10.0, "sigma": 1.0, "games": 6}}},
            }
        },
    }
    path = tmp_path / "levels.json"
    path.write_text(json.dumps(doc), encoding="utf-8")
    monkeypatch.setattr(ratings, "PATH", path)
    schema._setup_of.cache_clear()
    yield
    schema._setup_of.cache_clear()


def test_the_setup_answer_carries_each_games_ratings_by_players(client, rated):
    games = {g["name"]: g for g in client.get("/api/setup").json()["games"]}
    assert games["pavilion"]["ratings"] == {
        "2": {"greedy": {"rating": 1200, "low": 1000, "high": 1400, "games": 12}},
        "3": {"random": {"rating": 400, "low": 320, "high": 480, "games": 6}},
    }
    assert games["sintra"]["ratings"] == {}


def test_without_a_file_no_level_is_rated(tmp_path, monkeypatch):
    monkeypatch.setattr(ratings, "PATH", tmp_path / "absent.json")
    assert ratings.of_game("pavilion") == {}


def test_the_shipped_file_rates_known_levels_and_says_how():
    doc = json.loads(ratings.PATH.read_text(encoding="utf-8"))
    assert doc["format"] == ratings.FORMAT
    for game in ("pavilion", "sintra"):
        entry = doc["games"][game]["2"]
        assert entry["command"].startswith(f"python benchmarks/levels.py {game}")
        assert entry["commit"] and entry["games"] > 0
        assert set(entry["levels"]) <= set(LEVELS) and len(entry["levels"]) >= 2
        for level in entry["levels"].values():
            assert level["sigma"] > 0 and 0 < level["games"] <= entry["games"]
