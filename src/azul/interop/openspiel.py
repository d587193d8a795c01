"""Every game of ``azul.GAMES`` as an OpenSpiel (pyspiel) Python game named ``azul_<name>``.

    >>> from azul.interop import openspiel
    >>> openspiel.register()
    >>> game = pyspiel.load_game("azul_pavilion", {"players": 3, "board": "grey"})

A game's parameters are its options with their defaults, except ``explicit_chance``: every
random draw is an explicit chance node with exact probabilities. pyspiel has no None:
``first_player`` -1 stands for None (the first player drawn at random); any other option whose
default is None is left at None, as pyspiel could not give it a type (a text parameter holding
a number would not survive pyspiel's game string). Observations are the games' fixed-shape
vectors (docs/observations.md) and, as text, the public view from the observing player's seat.
The information state is that text and the history of actions (all public), as text only.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import pyspiel

import azul
from azul.core.api import CHANCE, TERMINAL
from azul.interop.observation import Observer

PREFIX = "azul_"
FIXED = "explicit_chance"  # the adapter's: every draw is a chance node
NO_SEAT = -1  # first_player: none, drawn at random


def parameters(name: str) -> dict[str, Any]:
    """The pyspiel parameters of the game ``name`` with their defaults: its options (see the
    module's notes)."""
    params: dict[str, Any] = {}
    for key, value in azul.load_game(name).options.items():
        if key == "first_player" and value is None:
            params[key] = NO_SEAT
        elif key != FIXED and value is not None:
            params[key] = value
    return params


def _options(params: dict[str, Any]) -> dict[str, Any]:
    """The azul game's options from pyspiel parameters."""
    options = dict(params)
    if options.get("first_player") == NO_SEAT:
        options["first_player"] = None
    return options


def _players(name: str) -> tuple[int, int]:
    """The fewest and most players the game ``name`` takes (its default, and 1..8 tried)."""
    allowed = [azul.load_game(name).info.num_players]
    for n in range(1, 9):
        try:
            azul.load_game(name, players=n)
        except azul.OptionError:
            continue
        allowed.append(n)
    return min(allowed), max(allowed)


def _game_type(name: str, params: dict[str, Any]) -> pyspiel.GameType:
    low, high = _players(name)
    return pyspiel.GameType(
        short_name=PREFIX + name,
        long_name=f"Azul ({name})",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.PERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=high,
        min_num_players=low,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params,
    )


class AzulSpielGame(pyspiel.Game):
    """A pyspiel game around an azul game (``.azul``) with explicit chance. ``register``
    makes a subclass per game, which sets the class variables."""

    name: ClassVar[str]
    game_type: ClassVar[pyspiel.GameType]
    defaults: ClassVar[dict[str, Any]]  # the parameters

    def __init__(self, params: dict[str, Any] | None = None):
        params = {**self.defaults, **(params or {})}
        self.azul = azul.load_game(self.name, explicit_chance=True, **_options(params))
        info = self.azul.info
        # OpenSpiel counts decisions, not chance nodes: the length without explicit draws
        decisions = azul.load_game(self.name, **_options(params)).info.max_game_length
        super().__init__(
            self.game_type,
            pyspiel.GameInfo(
                num_distinct_actions=info.num_distinct_actions,
                max_chance_outcomes=info.max_chance_outcomes,
                num_players=info.num_players,
                min_utility=info.min_utility,
                max_utility=info.max_utility,
                utility_sum=info.utility_sum,
                max_game_length=decisions,
            ),
            params,
        )

    def new_initial_state(self) -> AzulSpielState:
        return AzulSpielState(self, None)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> AzulObserver:
        if params:
            raise ValueError(f"observation parameters are not supported: {params}")
        if iig_obs_type is not None and iig_obs_type.perfect_recall:
            return AzulInfoStateObserver(self.azul)
        return AzulObserver(self.azul)


class _Position:
    """The azul state inside a pyspiel state. pyspiel copies a Python state's attributes with
    ``copy.deepcopy`` (here the engine's ``clone()``) and saves them by pickling; this one
    pickles as the game's JSON position, so a saved state does not depend on the package's
    version and is validated when it is loaded. A new game's state is dealt when first asked
    for: pyspiel's ``clone()`` makes a new initial state, then replaces its attributes."""

    __slots__ = ("game", "state")

    def __init__(self, state: azul.State | None, game: azul.Game[Any]):
        self.state = state
        self.game = game

    def dealt(self) -> azul.State:
        """The state, dealt now (seed 0, explicit chance) if it was not yet."""
        if self.state is None:
            self.state = self.game.new_initial_state(0)
        return self.state

    def __deepcopy__(self, memo: dict[int, Any]) -> _Position:
        return _Position(self.dealt().clone(), self.game)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return _position_from_json, (json.dumps(self.dealt().to_json()),)


def _position_from_json(text: str) -> _Position:
    state = azul.load_state(text)
    return _Position(state, state.game)


class AzulSpielState(pyspiel.State):
    """A pyspiel state around an azul state (``.azul``)."""

    def __init__(self, game: AzulSpielGame, inner: azul.State | None):
        super().__init__(game)
        self._position = _Position(inner, game.azul)  # None: a new game, dealt when used

    @property
    def azul(self) -> azul.State:
        """The azul state."""
        return self._position.state or self._position.dealt()

    def current_player(self) -> int:
        p = self.azul.current_player()
        if p == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        if p == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
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

    def __init__(self, game: azul.Game[Any]):
        self._observer = Observer(game)
        self.tensor = self._observer.tensor
        self.dict = self._observer.dict

    def set_from(self, state: AzulSpielState, player: int) -> None:
        self._observer.set_from(state.azul, player)

    def string_from(self, state: AzulSpielState, player: int) -> str:
        """What ``player`` may know of the position: its public view, as JSON text."""
        view = json.dumps(state.azul.public_view(player), sort_keys=True, separators=(",", ":"))
        return f"seat {player}\n{view}"


class AzulInfoStateObserver(AzulObserver):
    """The information state. Every draw and move is public and the position holds all that
    matters for the rest of the game, so the tensor is the observation tensor (what
    ``rl_environment`` and the learning algorithms read); the text adds the history of actions,
    which tells apart states of the same position."""

    def string_from(self, state: AzulSpielState, player: int) -> str:
        """The public view from ``player``'s seat and the actions so far."""
        history = " ".join(str(a) for a in state.history())
        return f"{super().string_from(state, player)}\nhistory {history}"


def register() -> None:
    """Make ``pyspiel.load_game("azul_<name>")`` work for every game of ``azul.GAMES``
    (idempotent: a game registered in azul later is added by calling it again)."""
    known = set(pyspiel.registered_names())
    for name in sorted(azul.GAMES):
        if PREFIX + name in known:
            continue
        params = parameters(name)
        game_type = _game_type(name, params)
        # a class, not a closure: pyspiel keeps it until after Python has shut down, and a
        # class (unlike a function object) is never freed then
        cls = type(
            f"AzulSpielGame_{name}",
            (AzulSpielGame,),
            {
                "__module__": __name__,
                "name": name,
                "game_type": game_type,
                "defaults": params,
            },
        )
        pyspiel.register_game(game_type, cls)


__all__ = [
    "AzulInfoStateObserver",
    "AzulObserver",
    "AzulSpielGame",
    "AzulSpielState",
    "parameters",
    "register",
]
