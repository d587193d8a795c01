"""Checks of the game options every game shares; a game adds its own after these."""

from __future__ import annotations

from typing import Any

from azul.core.errors import OptionError


def check_options(
    game: str,
    options: dict[str, Any],
    defaults: dict[str, Any],
    choices: dict[str, tuple[str, ...]],
    players: tuple[int, ...],
) -> dict[str, Any]:
    """Merge ``options`` over ``defaults`` and check the shared ones: players, score_floor,
    first_player, explicit_chance, and every option whose values ``choices`` lists."""
    unknown = sorted(set(options) - set(defaults))
    if unknown:
        raise OptionError(
            f"unknown option(s) {', '.join(unknown)} for {game}: known are {', '.join(defaults)}"
        )
    opts = {**defaults, **options}
    n = opts["players"]
    if isinstance(n, bool) or n not in players:
        raise OptionError(
            f"players: {n!r} is not {', '.join(map(str, players[:-1]))} or {players[-1]}"
        )
    floor = opts["score_floor"]
    if floor is not None and (isinstance(floor, bool) or not isinstance(floor, int)):
        raise OptionError(f"score_floor: {floor!r} is not an int or None")
    first = opts["first_player"]
    if first is not None and (
        isinstance(first, bool) or not isinstance(first, int) or not 0 <= first < n
    ):
        raise OptionError(f"first_player: {first!r} is not None or a seat 0..{n - 1}")
    if not isinstance(opts["explicit_chance"], bool):
        raise OptionError(f"explicit_chance: {opts['explicit_chance']!r} is not true or false")
    for key, allowed in choices.items():
        if opts[key] not in allowed:
            values = " or ".join(repr(v) for v in allowed)
            raise OptionError(f"{key}: {opts[key]!r} is not supported: use {values}")
    return opts
