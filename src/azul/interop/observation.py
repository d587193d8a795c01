"""Observations as numpy arrays: one flat float32 vector per seat, with named views into it."""

from __future__ import annotations

from typing import Any

import numpy as np

from azul.core.api import Game, State
from azul.core.compiled import compiled_core


class Observer:
    """A reusable observation buffer for one game: ``tensor`` (flat) and ``dict`` (named views
    sharing its memory), filled by ``set_from(state, seat)``; ``normalize``: each entry divided
    by its bound (``normalizer``)."""

    def __init__(self, game: Game[Any], normalize: bool = False):
        self.game = game
        self.tensor = np.zeros(game.info.observation_shape, np.float32)
        self.dict = named_views(game, self.tensor)
        self.scale = normalizer(game) if normalize else None

    def set_from(self, state: State, seat: int) -> np.ndarray:
        core = compiled_core(state)
        if core is not None:  # the same observation, written in C
            core.observe(seat, self.tensor)
        else:
            self.tensor.fill(0)
            self.game.observe(state, seat, self.dict)
        if self.scale is not None:
            self.tensor *= self.scale
        return self.tensor


def named_views(game: Game[Any], flat: np.ndarray) -> dict[str, np.ndarray]:
    """The pieces of the game's observation layout as views into ``flat``, one observation."""
    views, i = {}, 0
    for name, shape in game.observation_layout():
        size = int(np.prod(shape))
        views[name] = flat[i : i + size].reshape(shape)
        i += size
    return views


def bounds(game: Game[Any]) -> tuple[float, float]:
    """Bounds of every entry of the game's observations: entries are 0/1 flags, counts of
    pieces (at most ``total_pieces``) and scores (``min_score`` to ``max_score``; a game
    without a lowest score is taken to go no lower than minus its highest)."""
    return game.info.value_bounds()


def entry_bounds(game: Game[Any]) -> tuple[np.ndarray, np.ndarray]:
    """Each entry's lowest and highest value: its piece's ``game.observation_bounds()``, and 0
    and 1 for the pieces that are flags (not named there)."""
    named = game.observation_bounds()
    low, high = [], []
    for name, shape in game.observation_layout():
        lo, hi = named.get(name, (0.0, 1.0))
        size = int(np.prod(shape))
        low.append(np.full(size, lo, np.float32))
        high.append(np.full(size, hi, np.float32))
    return np.concatenate(low), np.concatenate(high)


def normalizer(game: Game[Any]) -> np.ndarray:
    """What normalised observations multiply each entry by: 1 / its largest magnitude, so that
    every entry lies in [-1, 1] (in [0, 1] where it cannot be negative)."""
    low, high = entry_bounds(game)
    largest = np.maximum(np.maximum(np.abs(low), np.abs(high)), 1)
    return np.asarray(1 / largest, np.float32)


def normalized_bounds(game: Game[Any]) -> tuple[np.ndarray, np.ndarray]:
    """The bounds of the normalised observations, entry by entry."""
    low, high = entry_bounds(game)
    scale = normalizer(game)
    return low * scale, high * scale


def observation(state: State, seat: int) -> np.ndarray:
    """The flat observation of ``state`` seen by ``seat`` (a new array)."""
    return Observer(state.game).set_from(state, seat).copy()


def observation_dict(state: State, seat: int) -> dict[str, np.ndarray]:
    """The same observation as named arrays."""
    obs = Observer(state.game)
    obs.set_from(state, seat)
    return {k: v.copy() for k, v in obs.dict.items()}


def action_mask(state: State) -> np.ndarray:
    """1 for each legal action over the fixed action space (int8; zeros at chance and the end)."""
    mask = np.zeros(state.game.info.num_distinct_actions, np.int8)
    core = compiled_core(state)
    if core is not None:
        core.mask(mask)
    elif not state.is_chance_node() and not state.is_terminal():
        mask[state.legal_actions()] = 1
    return mask
