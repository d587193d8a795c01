"""Small Summer Pavilion positions for rule tests: name what matters, the bag takes the rest."""

from __future__ import annotations

from typing import Any

import azul
from azul.pavilion import data


def counts(letters: str) -> dict[str, int]:
    """'PPGR' -> {'purple': 2, 'green': 1, 'red': 1}."""
    out: dict[str, int] = {}
    for ch in letters:
        name = data.COLORS[data.COLOR_LETTERS.index(ch)]
        out[name] = out.get(name, 0) + 1
    return out


def board(*cells: str) -> dict[str, str]:
    """board('R1=R', 'C2=Y') -> {'R1': 'red', 'C2': 'yellow'}; 'R1' alone: the star's colour."""
    out = {}
    for cell in cells:
        code, _, letter = cell.partition("=")
        if not letter:
            letter = data.COLOR_LETTERS[data.STAR_COLOR[data.STAR_LETTERS.index(code[0])]]
        out[code] = data.COLORS[data.COLOR_LETTERS.index(letter)]
    return out


def position(
    players: int = 2,
    board_side: str = "coloured",
    round: int = 1,
    decision: str = "place",
    to_move: int = 0,
    start_player: int = 0,
    token: int | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    supply: str = "PPGGOOYBBR",
    tower: str = "",
    bag: str | None = None,
    hands: list[str] | None = None,
    kept: list[str] | None = None,
    boards: list[dict] | None = None,
    scores: list[int] | None = None,
    passed: list[bool] | None = None,
    bonus_owed: int = 0,
    explicit_chance: bool = False,
    score_floor: int | None = 1,
    pending_draws: list[str] | None = None,
    round6_leftovers: str = "after_bonuses",
) -> dict[str, Any]:
    """A position document; unless ``bag`` is given, every tile not named lies in the bag."""
    nf = data.FACTORIES[players]
    factories = (factories or []) + [""] * (nf - len(factories or []))
    hands = (hands or []) + [""] * (players - len(hands or []))
    kept = (kept or []) + [""] * (players - len(kept or []))
    boards = (boards or []) + [{}] * (players - len(boards or []))
    doc = {
        "format": "azul-position",
        "version": 1,
        "game": "pavilion",
        "options": {
            "players": players,
            "board": board_side,
            "score_floor": score_floor,
            "first_player": None,
            "explicit_chance": explicit_chance,
            "round6_leftovers": round6_leftovers,
        },
        "round": round,
        "decision": decision,
        "to_move": to_move,
        "start_player": start_player,
        "token": token,
        "bonus_owed": bonus_owed,
        "factories": [counts(f) for f in factories],
        "centre": counts(centre),
        "supply": counts(supply),
        "tower": counts(tower),
        "bag": {},
        "players": [
            {
                "score": (scores or [5] * players)[p],
                "hand": counts(hands[p]),
                "kept": counts(kept[p]),
                "passed": (passed or [False] * players)[p],
                "board": boards[p],
            }
            for p in range(players)
        ],
        "pending_draws": pending_draws or [],
        "rng": 12345,
    }
    if bag is not None:
        doc["bag"] = counts(bag)
    else:
        used = {c: 0 for c in data.COLORS}
        for part in (
            doc["factories"]
            + [doc["centre"], doc["supply"], doc["tower"]]
            + [pl["hand"] for pl in doc["players"]]
            + [pl["kept"] for pl in doc["players"]]
        ):
            for name, n in part.items():
                used[name] += n
        for pl in doc["players"]:
            for name in pl["board"].values():
                used[name] += 1
        doc["bag"] = {c: data.TILES_PER_COLOR - n for c, n in used.items()}
    return doc


def load(**kwargs: Any) -> azul.State:
    doc = position(**kwargs)
    return azul.load_state(doc)


def moves(state: azul.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]
