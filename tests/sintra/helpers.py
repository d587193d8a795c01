"""Small Sintra positions for rule tests: name what matters, the bag takes the rest.

Letters: P pink, O orange, Y yellow, B blue, W white (the shipped components). By default slot k
holds strip k on side a, empty. The shipped strips, spaces 1-5:
  side a: 1 PPOOB  2 YYBBP  3 WWPPY  4 OOBBY  5 BBPPW  6 PPBBY  7 YYPPW  8 WWYYO
  side b: 1 OOYYW  2 BBWWO  3 PPYYO  4 YYWWB  5 WWOOP  6 OOWWB  7 BBOOP  8 **PYW (jokers)
Window values 1 1 2 2 3 3 4 4; broken-glass track 0 -1 -2 -3 -5 -8 -11 -14 -18.
"""

from __future__ import annotations

from typing import Any

import azul

NAMES = {"P": "pink", "O": "orange", "Y": "yellow", "B": "blue", "W": "white"}


def counts(letters: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for ch in letters:
        out[NAMES[ch]] = out.get(NAMES[ch], 0) + 1
    return out


def strip(number: int, side: str = "a", pieces: str = ".....") -> dict:
    """A strip spec: pieces as 5 letters, '.' for an empty space."""
    return {
        "strip": number,
        "side": side,
        "pieces": [None if ch == "." else NAMES[ch] for ch in pieces],
    }


def player(
    strips: dict[int, Any] | None = None,
    windows: dict[int, str] | None = None,
    glazier: int = 1,
    track: int = 0,
    score: int = 0,
    lost: int = 0,
) -> dict:
    """A player: ``strips`` maps slot (1-8) to a strip spec or None (removed); ``windows`` maps
    slot to 1 or 2 letters (top, bottom)."""
    slots = [strip(k) for k in range(1, 9)]
    for slot, spec in (strips or {}).items():
        slots[slot - 1] = spec
    wins = [[None, None] for _ in range(8)]
    for slot, letters in (windows or {}).items():
        for i, ch in enumerate(letters):
            wins[slot - 1][i] = NAMES[ch]
    return {
        "score": score,
        "lost": lost,
        "track": track,
        "glazier": glazier,
        "strips": slots,
        "windows": wins,
    }


def position(
    players: list[dict] | None = None,
    side: str = "A",
    round: int = 1,
    decision: str = "play",
    to_move: int = 0,
    start_player: int = 0,
    tile: int | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    tower: str = "",
    indicator: str = "YPOYBW",
    keep_strip: int | None = None,
    explicit_chance: bool = False,
    score_floor: int | None = None,
) -> dict:
    players = players or [player(), player()]
    n = len(players)
    nf = {2: 5, 3: 7, 4: 9}[n]
    factories = (factories or []) + [""] * (nf - len(factories or []))
    ind = [None if i < round - 1 else NAMES[ch] for i, ch in enumerate(indicator)]
    doc = {
        "format": "azul-position",
        "version": 1,
        "game": "sintra",
        "options": {
            "players": n,
            "side": side,
            "score_floor": score_floor,
            "explicit_chance": explicit_chance,
        },
        "round": round,
        "decision": decision,
        "to_move": to_move,
        "start_player": start_player,
        "tile": tile,
        "keep_strip": keep_strip,
        "factories": [counts(f) for f in factories],
        "centre": counts(centre),
        "tower": counts(tower),
        "bag": {},
        "indicator": ind,
        "players": players,
        "pending_draws": [],
        "rng": 99,
    }
    used = {name: 0 for name in NAMES.values()}
    for part in [*doc["factories"], doc["centre"], doc["tower"]]:
        for name, k in part.items():
            used[name] += k
    for name in ind:
        if name:
            used[name] += 1
    for pl in players:
        for st in pl["strips"]:
            for name in (st or {"pieces": []})["pieces"]:
                if name:
                    used[name] += 1
        for win in pl["windows"]:
            for name in win:
                if name:
                    used[name] += 1
    doc["bag"] = {name: 20 - k for name, k in used.items()}
    return doc


def load(**kwargs: Any) -> azul.State:
    return azul.load_state(position(**kwargs))


def moves(state: azul.State) -> list[str]:
    return [state.action_to_string(a) for a in state.legal_actions()]


def me(state: azul.State, seat: int = 0) -> dict:
    return state.to_json()["players"][seat]
