"""A batched Gymnasium environment: N games against bots stepped together.

    >>> import gymnasium, azul.interop.gym
    >>> envs = gymnasium.make_vec("azul/Sintra-v0", num_envs=64, opponents=["greedy"])
    >>> obs, info = envs.reset(seed=0)
    >>> obs, rewards, terminations, truncations, info = envs.step(actions)

Each game is the single-agent environment's (``azul.interop.gym``: the same options, rewards and
illegal-action rule), but the games write their observations, masks and rewards into arrays
made once, and nothing is wrapped. A game that ends starts again in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``): its row already shows the next game, so every mask in a returned
batch has a legal action; ``info["final_scores"]`` holds the scores of the games that ended
(``info["_final_scores"]`` says which rows). ``copy=False`` returns the arrays themselves,
which the next step overwrites.

With a compiled core (``Game.compiled()``) and random opponents, the games, the opponents,
chance, the observations and the masks all run in C (``azul.interop.episode.NativeEpisode``):
the same rules, but other random opponent moves than the Python path under the same seed.
Other opponents play on the public API's states (on the core where it is built);
``native=False`` keeps the Python engines for everything.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np
from gymnasium.error import ResetNeeded
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from azul.core.errors import IllegalMoveError, OptionError
from azul.interop import render
from azul.interop.episode import Episode, NativeEpisode, native_core, settings
from azul.interop.gym import spaces_of
from azul.interop.observation import named_views


class AzulVectorEnv(VectorEnv[dict[str, Any], np.ndarray, np.ndarray]):
    def __init__(
        self,
        num_envs: int = 8,
        game: str = "pavilion",
        opponents: list[str] | None = None,
        seat: int | str = 0,
        reward: str = "win",
        illegal: str = "lose",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        copy: bool = True,
        native: bool = True,
        **options: Any,
    ):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise OptionError(f"num_envs: {num_envs!r} is not a positive int")
        self.settings = settings(game, opponents, seat, reward, illegal, illegal_reward, options)
        if not native:  # the Python engine for everything
            self.settings = replace(self.settings, game=self.settings.game.on_python())
        render.check_mode(render_mode)
        self.metadata = {
            "render_modes": list(render.MODES),
            "autoreset_mode": AutoresetMode.SAME_STEP,
        }
        self.render_mode = render_mode
        self.num_envs, self.copy = num_envs, copy
        g = self.game = self.settings.game
        self.single_observation_space, self.single_action_space = spaces_of(g)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, *g.info.observation_shape), np.float32)
        self._mask = np.zeros((num_envs, g.info.num_distinct_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._ended = np.zeros(num_envs, np.bool_)
        self._scores = np.zeros((num_envs, g.info.num_players), np.float64)
        self._views = [named_views(g, row) for row in self._obs]
        self.core = native_core(self.settings) if native else None
        self.episodes: list[Episode] = []
        self.states: list[Any] = []  # azul.State, or the compiled core's states

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """New games; ``seed`` seeds every one of them (each its own generator)."""
        rngs = np.random.default_rng(seed).spawn(self.num_envs)
        if self.core is None:
            self.episodes = [Episode(self.settings, rng) for rng in rngs]
        else:
            self.episodes = [NativeEpisode(self.settings, rng, self.core) for rng in rngs]
        self.states = [e.reset() for e in self.episodes]
        for i in range(self.num_envs):
            self._write(i)
        seats = np.array([e.seat for e in self.episodes])
        return self._batch(), {"seat": seats}

    def _write(self, i: int) -> None:
        """Row ``i`` of the observations and masks, from its game."""
        state = self.states[i]
        if self.core is not None:
            state.observe(self.episodes[i].seat, self._obs[i])
            state.mask(self._mask[i])
            return
        self._obs[i].fill(0)
        self.game.observe(state, self.episodes[i].seat, self._views[i])
        mask = self._mask[i]
        mask.fill(0)
        if not state.is_terminal():
            mask[state.legal_actions()] = 1

    def _batch(self) -> dict[str, Any]:
        if self.copy:
            return {"observation": self._obs.copy(), "action_mask": self._mask.copy()}
        return {"observation": self._obs, "action_mask": self._mask}

    def step(
        self, actions: np.ndarray
    ) -> tuple[dict[str, Any], np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self.states:
            raise ResetNeeded("call reset() before step()")
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            raise OptionError(f"actions: expected shape ({self.num_envs},), not {actions.shape}")
        if actions.dtype.kind not in "iu":  # 3.7 is refused, never rounded to 3
            raise TypeError(f"actions: expected integer ids, not {actions.dtype} values")
        if self.settings.illegal == "raise":  # refuse the batch before any game moves
            for i, action in enumerate(actions.tolist()):
                if not 0 <= action < self._mask.shape[1] or not self._mask[i, action]:
                    raise IllegalMoveError(f"game {i}: action {action} is not legal there")
        ended, illegal = self._ended, []
        ended.fill(False)
        for i, action in enumerate(actions.tolist()):
            episode, state = self.episodes[i], self.states[i]
            reward, done, what = episode.step(state, int(action))
            self._rewards[i] = reward
            if done:
                ended[i] = True
                self._scores[i] = state.scores()
                if "illegal" in what:
                    illegal.append((i, what["illegal"]))
                self.states[i] = episode.reset()
            self._write(i)
        info: dict[str, Any] = {}
        if ended.any():
            info = {"final_scores": self._scores.copy(), "_final_scores": ended.copy()}
            if illegal:
                info["illegal"] = dict(illegal)
        rewards = self._rewards.copy() if self.copy else self._rewards
        terminations = ended.copy()
        return self._batch(), rewards, terminations, np.zeros(self.num_envs, np.bool_), info

    def render(self) -> tuple[Any, ...] | None:
        """Each game's table in the render mode (``azul.interop.render``)."""
        if self.render_mode is None or not self.states:
            return None
        states = [s.to_state() for s in self.states] if self.core else self.states
        return tuple(render.render(s, self.render_mode) for s in states)
