"""The bot levels' measured strength, for people choosing an opponent: openskill ratings from a
round robin between the levels (``benchmarks/levels.py``), by game and number of players, as
shipped in ``levels.json`` with the command and the commit that measured them."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from azul.server.settings import LEVELS

PATH = Path(__file__).with_name("levels.json")
FORMAT = "azul-level-ratings"
SCALE = 40.0
"""Display rating = SCALE × mu, its interval SCALE × (mu ± 2 sigma): openskill's default
player (mu 25) shows as 1000."""


def display(mu: float, sigma: float) -> dict[str, int]:
    """A rating for people: the value and its interval of about 95%, as whole numbers."""
    return {
        "rating": round(SCALE * mu),
        "low": round(SCALE * (mu - 2 * sigma)),
        "high": round(SCALE * (mu + 2 * sigma)),
    }


@lru_cache(maxsize=4)
def load(path: Path) -> dict[str, Any]:
    """The ratings document at ``path``; an empty one when the file is absent."""
    if not path.is_file():
        return {"format": FORMAT, "version": 1, "games": {}}
    return dict(json.loads(path.read_text(encoding="utf-8")))


def of_game(game: str, path: Path | None = None) -> dict[int, dict[str, dict[str, int]]]:
    """The display ratings of the levels measured in ``game``, by number of players then
    level: {2: {"heuristic": {"rating": 1104, "low": 1020, "high": 1188, "games": 24}}}."""
    out: dict[int, dict[str, dict[str, int]]] = {}
    for players, entry in load(path or PATH)["games"].get(game, {}).items():
        out[int(players)] = {
            level: {**display(r["mu"], r["sigma"]), "games": int(r["games"])}
            for level, r in entry["levels"].items()
            if level in LEVELS  # a level the server no longer offers is left out
        }
    return out
