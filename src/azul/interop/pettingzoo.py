"""Both games as PettingZoo AEC environments.

    >>> from azul.interop.pettingzoo import env
    >>> e = env("sintra", players=3, render_mode="ansi")
    >>> e.reset(seed=1)

Observations are ``{"observation": float32 vector, "action_mask": int8 vector}`` from the
observing agent's seat (docs/observations.md). Rewards come at the end: +1 / -1 / 0 split as in
``State.returns()`` (winners share +1), or with ``reward="score"`` each agent's score minus the
best other score. Draws come from the game's own generator, or with ``explicit_chance=True`` from
the environment's; both are seeded by ``reset(seed=...)``, and from fresh entropy without a seed.
The azul state of the episode is ``game_state`` (``state()`` is PettingZoo's global state).
``normalize=True`` scales the observations as the Gymnasium environments do.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.error import ResetNeeded
from pettingzoo import AECEnv

import azul
from azul.core.errors import IllegalMoveError, OptionError
from azul.interop import render
from azul.interop.episode import check_flag
from azul.interop.gym import observation_box
from azul.interop.observation import Observer, action_mask

# gymnasium types a Dict space's elements as dict[str, Space], hence dict[str, Any] here;
# an action is an id, None for an agent that is done
Action = int | np.integer[Any] | None


class AzulEnv(AECEnv[str, dict[str, Any], Action]):
    def __init__(
        self,
        game: str = "pavilion",
        render_mode: str | None = None,
        reward: str = "win",
        normalize: bool = False,
        **options: Any,
    ):
        super().__init__()
        check_flag("normalize", normalize)
        if reward not in ("win", "score"):
            raise OptionError(f"reward: {reward!r} is not 'win' or 'score'")
        render.check_mode(render_mode)
        self.game = azul.load_game(game, **options)
        self.reward_kind = reward
        self.render_mode = render_mode
        self.metadata = {
            "render_modes": list(render.MODES),
            "render_fps": 1,
            "name": f"azul_{game}_v0",
            "is_parallelizable": False,
        }
        n = self.game.info.num_players
        self.possible_agents = [f"player_{i}" for i in range(n)]
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        size = self.game.info.num_distinct_actions
        obs = spaces.Dict(
            {
                "observation": observation_box(self.game, normalize),
                "action_mask": spaces.Box(0, 1, (size,), np.int8),
            }
        )
        self.observation_spaces: dict[str, spaces.Space[dict[str, Any]]] = {
            a: obs for a in self.possible_agents
        }
        self.action_spaces = {a: spaces.Discrete(size) for a in self.possible_agents}
        self._observer = Observer(self.game, normalize)
        self._rng = np.random.default_rng()  # the deal and explicit draws; reset() seeds it
        self._game_state: azul.State | None = None

    @property
    def game_state(self) -> azul.State:
        """The azul state of the episode (after ``reset()``)."""
        if self._game_state is None:
            raise ResetNeeded("call reset() first")
        return self._game_state

    def observation_space(self, agent: str) -> spaces.Space[dict[str, Any]]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Action]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        self._rng = np.random.default_rng(seed)
        self._game_state = self.game.new_initial_state(int(self._rng.integers(2**63)))
        self._settle()
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_state.current_player()]
        for space in self.action_spaces.values():
            space.seed(int(self._rng.integers(2**31)))

    def _settle(self) -> None:
        """Explicit-chance games: draws sampled from the environment's generator, which no
        agent sees (its state is not in the history)."""
        state = self.game_state
        while state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(self._rng.choice(outcomes, p=probs)))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        obs = self._observer.set_from(state, self._seat[agent]).copy()
        mask = np.zeros(self.game.info.num_distinct_actions, np.int8)
        if agent == self.agent_selection and not state.is_terminal():
            mask = action_mask(state)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalMoveError("an action is an int, not None (the agent is not done)")
        self._cumulative_rewards[agent] = 0.0
        state = self.game_state
        state.apply_action(int(action))  # raises IllegalMoveError on an illegal action
        self._settle()
        if state.is_terminal():
            self.rewards = dict(zip(self.agents, self._final_rewards(), strict=True))
            self.terminations = {a: True for a in self.agents}
        else:
            self.agent_selection = self.possible_agents[state.current_player()]
        self._accumulate_rewards()

    def _final_rewards(self) -> list[float]:
        if self.reward_kind == "win":
            return [float(r) for r in self.game_state.returns()]
        scores = self.game_state.scores()
        return [
            float(s - max(x for j, x in enumerate(scores) if j != i)) for i, s in enumerate(scores)
        ]

    def render(self) -> str | np.ndarray[Any, Any] | None:
        """The table as every player sees it, in the render mode (``azul.interop.render``)."""
        return render.render(self._game_state, self.render_mode)

    def close(self) -> None:
        pass


def env(game: str = "pavilion", **kwargs: Any) -> AzulEnv:
    """An AEC environment of ``game`` (options as for ``azul.load_game``)."""
    return AzulEnv(game, **kwargs)
