"""A single-agent Gymnasium environment: one seat against bots.

    >>> from azul.interop.gym import make
    >>> e = make("pavilion", opponents=["greedy"])
    >>> obs, info = e.reset(seed=0)

or through Gymnasium's registry, which importing this module fills (``env_id``):

    >>> import gymnasium, azul.interop.gym
    >>> e = gymnasium.make("azul/Pavilion-v0", opponents=["greedy"], players=3)

Observations are ``{"observation": float32 vector, "action_mask": 0/1 vector}``. Rewards:

- ``reward="win"``: at the end, the agent's share of ``returns()`` (+1 win, -1 loss, 0 shared);
- ``reward="score"``: at the end, its margin: its score minus the best other score;
- ``reward="score_change"``: at each step, the change of that margin since its previous step
  (from 0), so an episode's rewards add up to the final margin.

An illegal action ends the episode (``info["illegal"]`` says why) so that the episode's rewards
add up to ``illegal_reward``: by default worse than any game can end, -1 for ``"win"`` and for
the others the lowest score the game allows less the highest (``GameInfo``), so that ignoring
the action mask never pays; ``illegal="raise"`` raises instead. An episode that ended, by the
game's end or an illegal action, shows no legal action and takes no further step
(``ResetNeeded``). Actions are integer ids: anything else, such as 3.7, is refused with
TypeError, never rounded.

``seat="random"`` draws the agent's seat at each reset (``info["seat"]``), for self-play and
training from every seat. ``normalize=True`` divides each entry of the observations by its
bound (``azul.interop.observation.normalizer``), so that every entry lies in [-1, 1].
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

import azul
from azul.interop import render
from azul.interop.episode import Episode, action_id, check_flag, settings, worst_reward
from azul.interop.observation import Observer, action_mask, bounds, normalized_bounds

Observation = dict[str, np.ndarray]
Step = tuple[Observation, float, bool, bool, dict[str, Any]]


def observation_box(game: azul.Game[Any], normalize: bool = False) -> spaces.Box:
    """The space of one seat's observation vectors: finite bounds (``bounds``), or entry by
    entry within [-1, 1] for normalised observations."""
    if normalize:
        return spaces.Box(*normalized_bounds(game), dtype=np.float32)
    return spaces.Box(*bounds(game), game.info.observation_shape, np.float32)


def spaces_of(game: azul.Game[Any], normalize: bool = False) -> tuple[spaces.Dict, spaces.Discrete]:
    """One seat's observation space (``observation_box`` and the mask) and action space."""
    size = game.info.num_distinct_actions
    observation = observation_box(game, normalize)
    return (
        spaces.Dict({"observation": observation, "action_mask": spaces.MultiBinary(size)}),
        spaces.Discrete(size),
    )


# gymnasium types a Dict space's elements as dict[str, Space], hence dict[str, Any] here
class AzulSingleAgentEnv(gym.Env[dict[str, Any], np.int64]):
    def __init__(
        self,
        game: str = "pavilion",
        opponents: list[str] | None = None,
        seat: int | str = 0,
        reward: str = "win",
        illegal: str = "lose",
        illegal_reward: float | None = None,
        render_mode: str | None = None,
        normalize: bool = False,
        **options: Any,
    ):
        self.metadata = {"render_modes": list(render.MODES), "render_fps": 1}
        self.settings = settings(game, opponents, seat, reward, illegal, illegal_reward, options)
        render.check_mode(render_mode)
        self.render_mode = render_mode
        self.game = self.settings.game
        check_flag("normalize", normalize)
        self.observation_space, self.action_space = spaces_of(self.game, normalize)
        self._observer = Observer(self.game, normalize)
        self._episode: Episode | None = None
        self.state: azul.State | None = None  # the episode's, once reset

    @property
    def seat(self) -> int:
        """The agent's seat in this episode."""
        return self._playing()[0].seat

    def _playing(self) -> tuple[Episode, azul.State]:
        if self._episode is None or self.state is None:
            raise ResetNeeded("call reset() before step()")
        return self._episode, self.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        self._episode = Episode(self.settings, self.np_random)
        self.state = self._episode.reset()
        return self._obs(), {"seat": self._episode.seat}

    def _obs(self) -> Observation:
        episode, state = self._playing()
        obs = self._observer.set_from(state, episode.seat).copy()
        return {"observation": obs, "action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self) -> np.ndarray:
        """The agent's legal actions now, as booleans (what sb3-contrib's MaskablePPO asks
        for); none once the episode is over, however it ended."""
        episode, state = self._playing()
        if episode.over:
            return np.zeros(self.game.info.num_distinct_actions, np.bool_)
        return action_mask(state).astype(np.bool_)

    def step(self, action: int | np.integer[Any]) -> Step:
        episode, state = self._playing()
        reward, done, info = episode.step(state, action_id(action))
        return self._obs(), reward, done, False, info

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as every player sees it, in the render mode (``azul.interop.render``)."""
        return render.render(self.state, self.render_mode)


def env_id(game: str) -> str:
    """The Gymnasium id of ``game``: ``azul/Pavilion-v0`` for ``pavilion``."""
    return f"azul/{game.capitalize()}-v0"


def register_envs() -> None:
    """Register every game of ``azul.GAMES`` with Gymnasium (done on import; call it again
    for games registered in azul later)."""
    for game in sorted(azul.GAMES):
        if env_id(game) not in gym.registry:
            gym.register(
                id=env_id(game),
                entry_point="azul.interop.gym:AzulSingleAgentEnv",
                vector_entry_point="azul.interop.vector:AzulVectorEnv",
                kwargs={"game": game},
            )


def make(game: str = "pavilion", **kwargs: Any) -> AzulSingleAgentEnv:
    """The single-agent environment (options as for ``azul.load_game``, plus ``opponents``,
    ``seat``, ``reward``, ``illegal``, ``illegal_reward``, ``render_mode``, ``normalize``)."""
    return AzulSingleAgentEnv(game, **kwargs)


register_envs()

__all__ = [
    "AzulSingleAgentEnv",
    "env_id",
    "make",
    "observation_box",
    "register_envs",
    "spaces_of",
    "worst_reward",
]
