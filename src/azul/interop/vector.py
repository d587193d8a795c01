"""A batched Gymnasium environment: N games against bots stepped together.

    >>> import gymnasium, azul.interop.gym
    >>> envs = gymnasium.make_vec("azul/Sintra-v0", num_envs=64, opponents=["greedy"])
    >>> obs, info = envs.reset(seed=0)
    >>> obs, rewards, terminations, truncations, info = envs.step(actions)

Each game is the single-agent environment's (``azul.interop.gym``: the same options, rewards and
illegal-action rule), but the games write their observations, masks and rewards into arrays
made once, and nothing is wrapped. A game that ends starts again in the same step (Gymnasium's
``AutoresetMode.SAME_STEP``, declared in ``metadata``): its row already shows the next game, so
every mask in a returned batch has a legal action. Where Gymnasium's own vector environments
put them, ``info`` then holds what the games that ended left: ``final_obs`` (an object array,
the ended games' last observations, all-zero masks), ``final_info`` (their infos as arrays:
``scores``, and ``illegal`` for a game an illegal action ended), the new games' ``seat``, each
key with its ``_key`` mask of the rows it holds. ``copy=False`` returns the arrays themselves,
which the next step overwrites, and ``normalize=True`` scales the observations as the single
environment's.

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
from azul.interop.episode import Episode, NativeEpisode, check_flag, native_core, settings
from azul.interop.gym import spaces_of
from azul.interop.observation import named_views, normalizer


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
        normalize: bool = False,
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
        check_flag("normalize", normalize)
        self.scale = normalizer(g) if normalize else None
        self.single_observation_space, self.single_action_space = spaces_of(g, normalize)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._obs = np.zeros((num_envs, *g.info.observation_shape), np.float32)
        self._mask = np.zeros((num_envs, g.info.num_distinct_actions), np.int8)
        self._rewards = np.zeros(num_envs, np.float64)
        self._ended = np.zeros(num_envs, np.bool_)
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
        return self._batch(), {"seat": seats, "_seat": np.ones(self.num_envs, np.bool_)}

    def _write(self, i: int) -> None:
        """Row ``i`` of the observations and masks, from its game (no legal action once its
        episode is over)."""
        state, episode = self.states[i], self.episodes[i]
        mask = self._mask[i]
        if self.core is not None:
            state.observe(episode.seat, self._obs[i])
            state.mask(mask)
        else:
            self._obs[i].fill(0)
            self.game.observe(state, episode.seat, self._views[i])
            mask.fill(0)
            if not state.is_terminal():
                mask[state.legal_actions()] = 1
        if episode.over:
            mask.fill(0)
        if self.scale is not None:
            self._obs[i] *= self.scale

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
        n = self.num_envs
        ended = self._ended
        ended.fill(False)
        final_obs = np.full(n, None, object)
        scores = np.zeros((n, self.game.info.num_players), np.float64)
        finished = np.zeros(n, np.bool_)  # ended by the game's end, not by an illegal action
        illegal = np.full(n, None, object)
        for i, action in enumerate(actions.tolist()):
            episode, state = self.episodes[i], self.states[i]
            reward, done, what = episode.step(state, int(action))
            self._rewards[i] = reward
            if done:
                ended[i] = True
                self._write(i)
                final_obs[i] = {
                    "observation": self._obs[i].copy(),
                    "action_mask": self._mask[i].copy(),
                }
                if "illegal" in what:
                    illegal[i] = what["illegal"]
                else:
                    scores[i], finished[i] = what["scores"], True
                self.states[i] = episode.reset()
            self._write(i)
        info: dict[str, Any] = {}
        if ended.any():
            final_info: dict[str, Any] = {"scores": scores, "_scores": finished}
            if not finished[ended].all():
                final_info |= {"illegal": illegal, "_illegal": ended & ~finished}
            seats = np.array([e.seat for e in self.episodes])
            info = {
                "final_obs": final_obs,
                "_final_obs": ended.copy(),
                "final_info": final_info,
                "_final_info": ended.copy(),
                "seat": seats,
                "_seat": ended.copy(),
            }
        rewards = self._rewards.copy() if self.copy else self._rewards
        return self._batch(), rewards, ended.copy(), np.zeros(n, np.bool_), info

    def render(self) -> tuple[Any, ...] | None:
        """Each game's table in the render mode (``azul.interop.render``)."""
        if self.render_mode is None or not self.states:
            return None
        states = [s.to_state() for s in self.states] if self.core else self.states
        return tuple(render.render(s, self.render_mode) for s in states)
