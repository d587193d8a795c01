"""The batched environment as a Stable-Baselines3 ``VecEnv``: SB3's algorithms, and
sb3-contrib's ``MaskablePPO`` with its action masks, take it as it is.

    >>> from azul.interop.sb3 import AzulSB3VecEnv
    >>> from sb3_contrib import MaskablePPO
    >>> envs = AzulSB3VecEnv("sintra", num_envs=8, opponents=["random"], normalize=True)
    >>> MaskablePPO("MultiInputPolicy", envs).learn(100_000)

It wraps ``azul.interop.vector.AzulVectorEnv`` (the same options) and follows SB3's own
conventions: ``reset()`` returns the observations alone, ``step`` gives ``dones`` and a list
of infos, and the info of a game that ended holds its ``terminal_observation`` (the row
already shows the next game) with ``scores`` or, after an illegal action, ``illegal``.
``env_method("action_masks")`` gives each game's legal actions as booleans. Needs the ``rl``
extra (stable-baselines3, sb3-contrib and PyTorch).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env.base_vec_env import VecEnv, VecEnvIndices

from azul.interop.vector import AzulVectorEnv


class AzulSB3VecEnv(VecEnv):
    def __init__(self, game: str = "pavilion", num_envs: int = 8, **kwargs: Any):
        self.envs = AzulVectorEnv(num_envs, game, **kwargs)
        self.render_mode = self.envs.render_mode
        super().__init__(
            num_envs, self.envs.single_observation_space, self.envs.single_action_space
        )
        self._actions: np.ndarray | None = None
        size = self.envs.game.info.num_distinct_actions
        self._masks = np.zeros((num_envs, size), np.bool_)

    def reset(self) -> dict[str, np.ndarray]:
        """New games, seeded by ``seed()``'s first seed if it was called (else fresh)."""
        obs, info = self.envs.reset(seed=self._seeds[0])
        self._reset_seeds()
        self.reset_infos = [{"seat": int(seat)} for seat in info["seat"]]
        self._masks[:] = obs["action_mask"]
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions).reshape(self.num_envs)

    def step_wait(
        self,
    ) -> tuple[dict[str, np.ndarray], np.ndarray, np.ndarray, list[dict[str, Any]]]:
        if self._actions is None:
            raise RuntimeError("step_wait() without step_async()")
        obs, rewards, terminated, truncated, info = self.envs.step(self._actions)
        self._actions = None
        self._masks[:] = obs["action_mask"]
        dones = terminated | truncated
        infos: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            final = info["final_info"]
            infos[i] = {
                "terminal_observation": info["final_obs"][i],
                "TimeLimit.truncated": bool(truncated[i] and not terminated[i]),
            }
            if final["_scores"][i]:
                infos[i]["scores"] = final["scores"][i].tolist()
            if "_illegal" in final and final["_illegal"][i]:
                infos[i]["illegal"] = final["illegal"][i]
        return obs, rewards.astype(np.float32), dones, infos

    def action_masks(self) -> np.ndarray:
        """Each game's legal actions now, as booleans (one row per game)."""
        return self._masks.copy()

    def close(self) -> None:
        self.envs.close()

    def _indices(self, indices: VecEnvIndices) -> list[int]:
        return list(self._get_indices(indices))

    def get_attr(self, attr_name: str, indices: VecEnvIndices = None) -> list[Any]:
        """An attribute of the games, the same for every one of them (``render_mode``, the
        spaces, ``game``); ``action_masks`` is each game's own method."""
        rows = self._indices(indices)
        if attr_name == "action_masks":
            return [lambda i=i: self._masks[i].copy() for i in rows]
        value = getattr(self.envs, attr_name)  # AttributeError for what the games lack
        return [value for _ in rows]

    def set_attr(self, attr_name: str, value: Any, indices: VecEnvIndices = None) -> None:
        raise AttributeError(f"the games' {attr_name!r} cannot be set one by one")

    def env_method(
        self, method_name: str, *args: Any, indices: VecEnvIndices = None, **kwargs: Any
    ) -> list[Any]:
        return [method(*args, **kwargs) for method in self.get_attr(method_name, indices)]

    def env_is_wrapped(self, wrapper_class: type, indices: VecEnvIndices = None) -> list[bool]:
        return [False for _ in self._indices(indices)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        images = self.envs.render() if self.render_mode == "rgb_array" else None
        return list(images) if images is not None else [None] * self.num_envs
