"""Both games as PettingZoo AEC environments.

    >>> from azul.interop.pettingzoo import env
    >>> e = env("sintra", players=3, render_mode="ansi")
    >>> e.reset(seed=1)

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` from the
observing agent's seat (docs/observations.md). Rewards come at the end: +1 / -1 / 0 split as in
``State.returns()`` (winners share +1), or with ``reward="score"`` each agent's score minus the
best other score. Draws come from the game's own generator, seeded by ``reset(seed=...)``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

import azul
from azul.core.errors import OptionError
from azul.interop.observation import Observer, action_mask


class AzulEnv(AECEnv):
    metadata: ClassVar[dict] = {
        "render_modes": ["ansi"],
        "name": "azul_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game: str = "pavilion",
        render_mode: str | None = None,
        reward: str = "win",
        **options: Any,
    ):
        super().__init__()
        if reward not in ("win", "score"):
            raise OptionError(f"reward: {reward!r} is not 'win' or 'score'")
        if render_mode not in (None, "ansi"):
            raise OptionError(f"render_mode: {render_mode!r} is not None or 'ansi'")
        self.game = azul.load_game(game, **options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"azul_{game}_v0"}
        n = self.game.info.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.game.info.num_distinct_actions
        obs = spaces.Dict(
            {
                "observation": spaces.Box(
                    -np.inf, np.inf, self.game.info.observation_shape, np.float32
                ),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces = {a: obs for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observer = Observer(self.game)
        self._next_seed = 0
        self.state: azul.State | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is None:
            seed = self._next_seed
        self._next_seed = seed + 1
        self.state = self.game.new_initial_state(seed)
        self._settle(seed)
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.state.current_player()]
        for space in self.action_spaces.values():
            space.seed(seed)

    def _settle(self, seed: int) -> None:
        """Explicit-chance games: draws sampled from the env's own seeded generator."""
        if self.state.is_chance_node():
            rng = np.random.default_rng(seed)
            while self.state.is_chance_node():
                outcomes, probs = zip(*self.state.chance_outcomes(), strict=True)
                self.state.apply_action(int(rng.choice(outcomes, p=probs)))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self._observer.set_from(self.state, self._seat[agent]).copy()
        mask = np.zeros(self.game.info.num_distinct_actions, np.int8)
        if agent == self.agent_selection and not self.state.is_terminal():
            mask = action_mask(self.state)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.state.apply_action(int(action))  # raises IllegalMoveError on an illegal action
        self._settle(len(self.state.history()))
        if self.state.is_terminal():
            self.rewards = dict(zip(self.agents, self._final_rewards(), strict=True))
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[self.state.current_player()]
        self._accumulate_rewards()

    def _final_rewards(self) -> list[float]:
        if self.reward_kind == "win":
            return [float(r) for r in self.state.returns()]
        scores = self.state.scores()
        return [
            float(s - max(x for j, x in enumerate(scores) if j != i)) for i, s in enumerate(scores)
        ]

    def render(self) -> str | None:
        if self.render_mode == "ansi":
            return self.state.render()
        return None

    def close(self) -> None:
        pass


def env(game: str = "pavilion", **kwargs: Any) -> AzulEnv:
    """An AEC environment of ``game`` (options as for ``azul.load_game``)."""
    return AzulEnv(game, **kwargs)
