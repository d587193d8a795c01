"""Both games as OpenSpiel (pyspiel) Python games.

    >>> from azul.interop import openspiel
    >>> openspiel.register()
    >>> game = pyspiel.load_game("azul_pavilion", {"players": 3, "board": "grey"})

Every random draw is an explicit chance node with exact probabilities; observations are the
games' fixed-shape vectors (docs/observations.md) from the observing player's seat.
"""

from __future__ import annotations

from typing import Any

import pyspiel

import azul
from azul.core.api import CHANCE, TERMINAL
from azul.interop.observation import Observer

# OpenSpiel name -> (game, parameters with their defaults). first_player -1 draws the first
# player at random (a chance node).
PARAMETERS: dict[str, tuple[str, dict[str, Any]]] = {
    "azul_pavilion": ("pavilion", {"players": 2, "board": "coloured", "first_player": -1}),
    "azul_sintra": ("sintra", {"players": 2, "side": "A", "first_player": -1}),
}


def _game_type(short_name: str, params: dict[str, Any]) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"Azul ({PARAMETERS[short_name][0]})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class AzulSpielGame(pyspiel.Game):
    """A pyspiel game around an azul game with explicit chance."""

    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None):
        name, defaults = PARAMETERS[self.short_name]
        params = {**defaults, **(params or {})}
        options = {k: v for k, v in params.items() if k != "first_player"}
        if params["first_player"] >= 0:
            options["first_player"] = params["first_player"]
        self.azul = azul.load_game(name, explicit_chance=True, **options)
        info = self.azul.info
        super().__init__(
            _game_type(self.short_name, defaults),
            pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=info.max_chance_outcomes,
                num_players=info.num_players,
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=info.utility_sum,
                max_game_length=info.max_game_length,
            ),
            params,
        )

    def new_initial_state(self) -> AzulSpielState:
        return AzulSpielState(self, self.azul.new_initial_state(0))

    def make_py_observer(self, iig_obs_type=None, params=None) -> AzulObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        return AzulObserver(self.azul)


class PavilionSpielGame(AzulSpielGame):
    short_name = "azul_pavilion"


class SintraSpielGame(AzulSpielGame):
    short_name = "azul_sintra"


class AzulSpielState(pyspiel.State):
    """A pyspiel state around an azul state (``.azul``)."""

    def __init__(self, game: AzulSpielGame, inner: azul.State):
        super().__init__(game)
        self.azul = inner

    def current_player(self) -> int:
        p = self.azul.current_player()
        if p == CHANCE:
            return pyspiel.PlayerId.CHANCE
        if p == TERMINAL:
            return pyspiel.PlayerId.TERMINAL
        return p

    def _legal_actions(self, player: int) -> list[int]:
        return self.azul.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self.azul.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        self.azul.apply_action(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        return self.azul.action_to_string(int(action))

    def is_terminal(self) -> bool:
        return self.azul.is_terminal()

    def returns(self) -> list[float]:
        return self.azul.returns()

    def __str__(self) -> str:
        return self.azul.render()


class AzulObserver:
    """The PyObserver interface: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, game: azul.Game):
        self._observer = Observer(game)
        self.tensor = self._observer.tensor
        self.dict = self._observer.dict

    def set_from(self, state: AzulSpielState, player: int) -> None:
        self._observer.set_from(state.azul, player)

    def string_from(self, state: AzulSpielState, player: int) -> str:
        return f"seat {player}\n{state.azul.render()}"


def register() -> None:
    """Make ``pyspiel.load_game("azul_pavilion")`` and ``"azul_sintra"`` work (idempotent)."""
    for cls in (PavilionSpielGame, SintraSpielGame):
        if cls.short_name not in pyspiel.registered_names():
            pyspiel.register_game(_game_type(cls.short_name, PARAMETERS[cls.short_name][1]), cls)


__all__ = ["AzulObserver", "AzulSpielGame", "AzulSpielState", "register"]
