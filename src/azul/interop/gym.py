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
the action mask never pays; ``illegal="raise"`` raises instead.

``seat="random"`` draws the agent's seat at each reset (``info["seat"]``), for self-play and
training from every seat.
"""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded

import azul
from azul.bots.base import Bot
from azul.bots.spec import BotSpec
from azul.core.errors import IllegalMoveError, OptionError
from azul.interop import render
from azul.interop.observation import Observer, action_mask, bounds

REWARDS = ("win", "score", "score_change")
Observation = dict[str, np.ndarray]
Step = tuple[Observation, float, bool, bool, dict[str, Any]]


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
        **options: Any,
    ):
        self.metadata = {"render_modes": list(render.MODES), "render_fps": 1}
        self.game = azul.load_game(game, **options)
        n = self.game.info.num_players
        opponents = opponents or ["random"]
        self.specs = [BotSpec.parse(o) for o in opponents]
        if len(self.specs) not in (1, n - 1):
            raise OptionError(f"opponents: give 1 or {n - 1} bots, not {len(self.specs)}")
        for spec in self.specs:
            spec.make(0)
        if seat != "random" and (not isinstance(seat, int) or not 0 <= seat < n):
            raise OptionError(f"seat: {seat!r} is not a seat 0..{n - 1} or 'random'")
        if reward not in REWARDS:
            raise OptionError(f"reward: {reward!r} is not {', '.join(map(repr, REWARDS))}")
        if illegal not in ("lose", "raise"):
            raise OptionError(f"illegal: {illegal!r} is not 'lose' or 'raise'")
        render.check_mode(render_mode)
        self.random_seat = seat == "random"
        self.seat = 0 if isinstance(seat, str) else seat
        self.reward_kind, self.illegal = reward, illegal
        self.margin = 0.0  # the margin the rewards have paid so far (score_change)
        self.illegal_reward = (
            worst_reward(self.game, reward) if illegal_reward is None else illegal_reward
        )
        self.render_mode = render_mode
        size = self.game.info.num_distinct_actions
        self.observation_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    *bounds(self.game), self.game.info.observation_shape, np.float32
                ),
                "action_mask": spaces.MultiBinary(size),
            }
        )
        self.action_space = spaces.Discrete(size)
        self._observer = Observer(self.game)
        self.state: azul.State | None = None  # the episode's, once reset
        self.bots: dict[int, Bot] = {}

    def _playing(self) -> azul.State:
        if self.state is None:
            raise ResetNeeded("call reset() before step()")
        return self.state

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**31))
        self.state = self.game.new_initial_state(game_seed)
        n = self.game.info.num_players
        if self.random_seat:
            self.seat = int(self.np_random.integers(n))
        self.margin = 0.0
        others = [s for s in range(n) if s != self.seat]
        specs = self.specs * (n - 1) if len(self.specs) == 1 else self.specs
        self.bots = {s: spec.make(game_seed + s) for s, spec in zip(others, specs, strict=False)}
        self._advance()
        return self._obs(), {"seat": self.seat}

    def _advance(self) -> None:
        """Play chance and the bots until the agent decides or the game ends."""
        state = self._playing()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(self.np_random.choice(outcomes, p=probs)))
            elif state.current_player() != self.seat:
                state.apply_action(self.bots[state.current_player()].choose(state))
            else:
                return

    def _obs(self) -> Observation:
        state = self._playing()
        obs = self._observer.set_from(state, self.seat).copy()
        return {"observation": obs, "action_mask": action_mask(state)}

    def step(self, action: int | np.integer[Any]) -> Step:
        state = self._playing()
        try:
            state.apply_action(int(action))
        except IllegalMoveError as e:
            if self.illegal == "raise":
                raise
            return self._obs(), self.illegal_reward - self.margin, True, False, {"illegal": str(e)}
        self._advance()
        done = state.is_terminal()
        if self.reward_kind == "score_change":
            reward, self.margin = self._margin() - self.margin, self._margin()
        elif not done:
            reward = 0.0
        else:
            win = self.reward_kind == "win"
            reward = float(state.returns()[self.seat]) if win else self._margin()
        info = {"scores": state.scores()} if done else {}
        return self._obs(), reward, done, False, info

    def _margin(self) -> float:
        """The agent's score less the best other score."""
        scores = self._playing().scores()
        return float(scores[self.seat] - max(s for i, s in enumerate(scores) if i != self.seat))

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as every player sees it, in the render mode (``azul.interop.render``)."""
        return render.render(self.state, self.render_mode)


def worst_reward(game: azul.Game[Any], reward: str) -> float:
    """Less than or equal to any reward a finished game gives: a loss, or the lowest score
    less the highest (a game without a lowest score: minus the highest)."""
    if reward == "win":
        return game.info.min_utility  # "score" and "score_change" end at a margin
    info = game.info
    low = -info.max_score if info.min_score is None else info.min_score
    return float(low - info.max_score)


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
                kwargs={"game": game},
            )


def make(game: str = "pavilion", **kwargs: Any) -> AzulSingleAgentEnv:
    """The single-agent environment (options as for ``azul.load_game``, plus ``opponents``,
    ``seat``, ``reward``, ``illegal``, ``illegal_reward``, ``render_mode``)."""
    return AzulSingleAgentEnv(game, **kwargs)


register_envs()
