"""States on a game's compiled core: the public ``State`` with its hot methods in C.

A game with a compiled core (``Game.compiled()``: a module with a ``Core`` class that plays the
rules on C arrays) declares a state class that subclasses both ``CompiledState`` and its Python
state class, adding only ``__slots__ = ("_core", "_py")``. Its legal actions, moves, chance
outcomes, copies, scores and history go to the core; everything else (the drawing, notation of
draws, JSON, descriptions, previews, the bots' evaluations) reads the Python state's fields, which
the first read fills from the core (``Core.to_state``) and the next action forgets: one
conversion per ply at most, and only where a cold path asks. The Python engine is the reference:
``azul.testing.differential`` checks a core against it step by step.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, ClassVar, Protocol, Self, cast

from azul.core.api import Game, State
from azul.core.errors import AzulError, IllegalMoveError
from azul.i18n import N_

PURE = "AZUL_PURE_PYTHON"  # set to 1: never use a compiled core
ENGINES = ("compiled", "python")


def pure() -> bool:
    """Whether ``AZUL_PURE_PYTHON`` asks for the Python engines only."""
    return os.environ.get(PURE, "") not in ("", "0")


def has_core(game: type[Game[Any]]) -> bool:
    """Whether the game class declares a compiled core (built or not): it overrides
    ``Game.compiled``."""
    return game.compiled.__func__ is not Game.compiled.__func__  # type: ignore[attr-defined]


def missing(game: type[Game[Any]]) -> str:
    """Why ``game.compiled()`` is None, an English message to translate."""
    if not has_core(game):
        return N_("this game has no compiled core yet")
    if pure():
        return N_("AZUL_PURE_PYTHON is set: the Python engine only")
    return N_("the compiled core is not built (it needs Cython and a C compiler at install)")


def import_core(module: str) -> Any:
    """The compiled module ``module`` (a game's own), or None where ``AZUL_PURE_PYTHON`` is
    set or it is not built: how a game's ``compiled()`` finds its core."""
    if pure():
        return None
    try:
        return importlib.import_module(module)
    except ImportError:
        return None


def _fields(reference: type) -> tuple[str, ...]:
    """The slots of a Python state class that hold its position (all but ``game``)."""
    names: list[str] = []
    for cls in reference.__mro__:
        for name in cls.__dict__.get("__slots__", ()):
            if name != "game" and name not in names:
                names.append(name)
    return tuple(names)


class Core(Protocol):
    """What a compiled state asks of its game's ``Core`` (see ``azul.native``)."""

    def current_player(self) -> int: ...
    def is_terminal(self) -> bool: ...
    def is_chance_node(self) -> bool: ...
    def legal_actions(self) -> list[int]: ...
    def apply_action(self, action: int) -> None: ...
    def chance_outcomes(self) -> list[tuple[int, float]]: ...
    def clone(self) -> Core: ...
    def reseed(self, seed: int) -> None: ...
    def draws(self) -> int: ...
    def scores(self) -> list[int]: ...
    def history(self) -> list[int]: ...
    def returns(self) -> list[float]: ...
    def to_state(self) -> Any: ...


_new = object.__new__
_MIXIN: tuple[str, ...] = ()  # no slots of its own, so that it mixes with a state's


class CompiledState(State):
    """The mixin of a game's compiled state class (see the module's description)."""

    __slots__ = _MIXIN  # the game's class adds "_core" and "_py"
    _core: Core  # the game's Core
    _py: State | None  # the Python state of this ply, once a cold path asked for it
    _reference: ClassVar[type[State]]  # the Python state class it subclasses
    _position: ClassVar[tuple[str, ...]]  # that class's position slots

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        reference = next(
            b for b in cls.__mro__[1:] if issubclass(b, State) and not issubclass(b, CompiledState)
        )
        cls._reference = reference
        cls._position = _fields(reference)

    @classmethod
    def wrap(cls, game: Any, core: Any, reference: State | None = None) -> Self:
        """The state of ``game`` on ``core`` (a ``Core``); ``reference`` is its Python state if
        one is at hand (it becomes the cache, and must not be changed afterwards)."""
        state = cls.__new__(cls)
        state.game = game
        state._core = core
        state._py = None
        if reference is not None:
            state._fill(reference)
        return state

    # -- the Python state, for the cold paths ----------------------------------------------
    def reference(self) -> Self:
        """This position as a state of the Python reference engine, equal to it until the next
        action: read it, never change it (``clone()`` it to play on)."""
        if self._py is None:
            self._fill(self._core.to_state())
        return cast(Self, self._py)

    def _fill(self, python: State) -> None:
        self._py = python
        for name in self._position:
            object.__setattr__(self, name, getattr(python, name))

    def _forget(self) -> None:
        """The core moved on: the Python fields describe the previous ply."""
        self._py = None
        for name in self._position:
            object.__delattr__(self, name)

    def __getattr__(self, name: str) -> Any:
        # only called for a field that is not filled: fill them all from the core
        if name in self._position:
            self.reference()
            return object.__getattribute__(self, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __reduce__(self) -> tuple[Any, ...]:
        return (_restore, (self.reference(),))

    # -- the hot methods, on the core --------------------------------------------------------
    def current_player(self) -> int:
        return self._core.current_player()

    def is_terminal(self) -> bool:
        return self._core.is_terminal()

    def is_chance_node(self) -> bool:
        return self._core.is_chance_node()

    def legal_actions(self) -> list[int]:
        return self._core.legal_actions()

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = self.check_action_type(action)
        try:
            self._core.apply_action(action)
        except OverflowError:  # beyond a C int: the reference engine says why it is illegal
            self.reference().clone().apply_action(action)
            raise IllegalMoveError(f"action {action} is not legal here") from None
        if self._py is not None:
            self._forget()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        try:
            return self._core.chance_outcomes()
        except AzulError:
            return self.reference().chance_outcomes()  # the reference engine's own error

    def clone(self) -> Self:
        state = _new(type(self))
        state.game = self.game
        state._core = self._core.clone()
        state._py = None
        return state

    def reseed(self, seed: int) -> None:
        self._core.reseed(seed)
        if self._py is not None:
            self._forget()

    def draws(self) -> int:
        return self._core.draws()

    def scores(self) -> list[int]:
        return self._core.scores()

    def history(self) -> list[int]:
        return self._core.history()

    def returns(self) -> list[float]:
        if not self._core.is_terminal():
            return [0.0] * self.num_players()
        return self._core.returns()


def _restore(python: State) -> State:
    """Unpickle a compiled state: the same position on this process's core."""
    state: State = python.game.on_engine(python)
    return state


def compiled_core(state: State) -> Any:
    """The ``Core`` a compiled state plays on, to read in C (an observation, a mask): never
    change it, ``clone()`` it to play on; None for a state of the Python engine."""
    return state._core if isinstance(state, CompiledState) else None


def children(state: State, seeds: list[int]) -> list[list[float]] | None:
    """The hand evaluation of every seat after each legal action, each on a copy reseeded with
    its seed, worked out in C (the core module's ``child_values``); None for a state of the
    Python engine or with explicit chance."""
    core = compiled_core(state)
    if core is None or state.game.options.get("explicit_chance"):
        return None
    rows: list[list[float]] = state.game.compiled().child_values(core, seeds)
    return rows


def core_of(state: State, core_class: Any) -> Any:
    """A ``Core`` (of ``core_class``) of ``state``'s position for a search to play on: a copy
    of the compiled state's own, or one converted from a Python state."""
    if isinstance(state, CompiledState) and type(state._core) is core_class:
        return state._core.clone()
    return core_class.from_state(state)
