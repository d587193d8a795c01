"""One seat's game against bots, as the Gymnasium environments play it: the setup, chance and the
bots between the agent's turns, and the rewards (``azul.interop.gym`` describes them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
from gymnasium.error import ResetNeeded

import azul
from azul.bots.base import Bot
from azul.bots.spec import BotSpec
from azul.core.errors import IllegalMoveError, OptionError

REWARDS = ("win", "score", "score_change")


def action_id(action: Any) -> int:
    """An action as an int: an int, a numpy integer or a one-element integer array. Anything
    else (a float such as 3.7, a bool, text) is refused, never rounded: TypeError."""
    if isinstance(action, np.ndarray) and action.size == 1 and action.dtype.kind in "iu":
        action = action.reshape(()).item()
    if isinstance(action, np.integer):
        action = int(action)
    if isinstance(action, bool) or not isinstance(action, int):
        raise TypeError(f"an action is an integer id, not {action!r} ({type(action).__name__})")
    return action


def check_flag(name: str, value: Any) -> None:
    """OptionError unless ``value`` is a bool."""
    if not isinstance(value, bool):
        raise OptionError(f"{name}: {value!r} is not True or False")


@dataclass(frozen=True)
class Settings:
    """What every episode of an environment shares, checked once."""

    game: azul.Game[Any]
    opponents: list[BotSpec]  # one per other seat
    seat: int | None  # None: drawn at each reset
    reward: str
    illegal: str  # "lose" or "raise"
    illegal_reward: float


def settings(
    game: str,
    opponents: list[str] | None,
    seat: int | str,
    reward: str,
    illegal: str,
    illegal_reward: float | None,
    options: dict[str, Any],
) -> Settings:
    """The settings of an environment; OptionError naming what is wrong."""
    loaded = azul.load_game(game, **options)
    n = loaded.info.num_players
    specs = [BotSpec.parse(o) for o in opponents or ["random"]]
    if len(specs) not in (1, n - 1):
        raise OptionError(f"opponents: give 1 or {n - 1} bots, not {len(specs)}")
    for spec in specs:
        spec.make(0)
    if seat != "random" and (isinstance(seat, bool) or not isinstance(seat, int)):
        raise OptionError(f"seat: {seat!r} is not a seat 0..{n - 1} or 'random'")
    if isinstance(seat, int) and not 0 <= seat < n:
        raise OptionError(f"seat: {seat!r} is not a seat 0..{n - 1} or 'random'")
    if reward not in REWARDS:
        raise OptionError(f"reward: {reward!r} is not {', '.join(map(repr, REWARDS))}")
    if illegal not in ("lose", "raise"):
        raise OptionError(f"illegal: {illegal!r} is not 'lose' or 'raise'")
    return Settings(
        game=loaded,
        opponents=specs * (n - 1) if len(specs) == 1 else specs,
        seat=seat if isinstance(seat, int) else None,
        reward=reward,
        illegal=illegal,
        illegal_reward=worst_reward(loaded, reward) if illegal_reward is None else illegal_reward,
    )


def worst_reward(game: azul.Game[Any], reward: str) -> float:
    """Less than or equal to any reward a finished game gives: a loss, or the lowest score
    less the highest (a game without a lowest score: minus the highest)."""
    if reward == "win":
        return game.info.min_utility  # "score" and "score_change" end at a margin
    info = game.info
    low = -info.max_score if info.min_score is None else info.min_score
    return float(low - info.max_score)


class Episode:
    """The game of one environment: ``reset`` deals a new one, ``step`` plays the agent's
    action and everything up to its next decision."""

    def __init__(self, settings: Settings, rng: np.random.Generator):
        self.settings = settings
        self.rng = rng  # the deals, the seat, explicit draws
        self.state: azul.State | None = None
        self.seat = settings.seat or 0
        self.bots: dict[int, Bot] = {}
        self.margin = 0.0  # the margin the rewards have paid so far (score_change)
        self.over = False  # the episode ended (the game did, or an illegal action ended it)

    def reset(self) -> azul.State:
        s = self.settings
        game_seed = int(self.rng.integers(2**31))
        self.state = self._new_state(game_seed)
        n = s.game.info.num_players
        self.seat = int(self.rng.integers(n)) if s.seat is None else s.seat
        self.margin = 0.0
        self.over = False
        self._seat_opponents(game_seed)
        self._advance(self.state)
        return self.state

    def _new_state(self, game_seed: int) -> Any:
        return self.settings.game.new_initial_state(game_seed)

    def _seat_opponents(self, game_seed: int) -> None:
        """The bots in the seats other than the agent's, each seeded from the game's seed."""
        others = [q for q in range(self.settings.game.info.num_players) if q != self.seat]
        self.bots = {
            q: spec.make(game_seed + q)
            for q, spec in zip(others, self.settings.opponents, strict=True)
        }

    def _advance(self, state: azul.State) -> None:
        """Play chance and the bots until the agent decides or the game ends."""
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(self.rng.choice(outcomes, p=probs)))
            elif state.current_player() != self.seat:
                state.apply_action(self.bots[state.current_player()].choose(state))
            else:
                return

    def step(self, state: azul.State, action: int) -> tuple[float, bool, dict[str, Any]]:
        """(reward, whether the game is over, info) after the agent plays ``action``. An
        episode that ended, however it ended, takes no further step: ResetNeeded."""
        s = self.settings
        if self.over:
            raise ResetNeeded("the episode is over: call reset() before step()")
        try:
            state.apply_action(action)
        except IllegalMoveError as e:
            if s.illegal == "raise":
                raise
            self.over = True
            return s.illegal_reward - self.margin, True, {"illegal": str(e)}
        self._advance(state)
        done = self.over = state.is_terminal()
        if s.reward == "score_change":
            margin = self._margin(state)
            reward, self.margin = margin - self.margin, margin
        elif not done:
            reward = 0.0
        else:
            win = s.reward == "win"
            reward = float(state.returns()[self.seat]) if win else self._margin(state)
        return reward, done, {"scores": state.scores()} if done else {}

    def _margin(self, state: azul.State) -> float:
        """The agent's score less the best other score."""
        scores = state.scores()
        return float(scores[self.seat] - max(x for q, x in enumerate(scores) if q != self.seat))


class NativeEpisode(Episode):
    """An episode on the game's compiled core (``Game.compiled()``) against uniformly random
    opponents, who play in C with chance, from a generator seeded by the episode's."""

    def __init__(self, settings: Settings, rng: np.random.Generator, core: Any):
        super().__init__(settings, rng)
        self.core = core
        self.side = 0  # the seed of the opponents' and chance's generator in C

    def _new_state(self, game_seed: int) -> Any:
        return self.core.new(self.settings.game, game_seed)

    def _seat_opponents(self, game_seed: int) -> None:
        self.side = int(self.rng.integers(2**63))

    def _advance(self, state: Any) -> None:
        self.side = state.advance(self.seat, self.side)


def native_core(settings: Settings) -> Any:
    """The game's compiled core if it has one and every opponent is the random bot (so that
    they can play in C), else None."""
    if any(spec.name != "random" for spec in settings.opponents):
        return None
    game = settings.game
    return game.compiled().Core if game.engine == "compiled" else None
