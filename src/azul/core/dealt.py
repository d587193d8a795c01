"""What the games' states share: random draws kept as a queue of pending deals, a seeded
generator that resolves them unless chance is explicit, and the checked path of apply_action."""

from __future__ import annotations

from typing import Any, ClassVar, Protocol, TypeVar

from azul.core.api import CHANCE, TERMINAL, Game, State
from azul.core.errors import IllegalMoveError
from azul.core.rng import seed_state

ScoreLines = tuple[tuple[tuple[str, str, int], ...], ...]
"""A final score breakdown: per seat, (item, detail, points) in the order of scoring."""


class Notation(Protocol):
    """A game's action space: its size and the notation of each id."""

    size: int

    def to_string(self, action: int) -> str: ...

    def from_string(self, text: str) -> int: ...


D = TypeVar("D", bound="DealtState")


class DealtGame(Game[D]):
    """A game whose states are DealtStates: it knows its notation and whether chance is
    explicit."""

    actions: Notation
    explicit_chance: bool

    def public_view(self, state: D, seat: int | None) -> dict[str, Any]:
        """The position without the generator's state (``"rng"``), which would predict every
        draw: all else is public in a game whose only secret is the bag's order (its contents
        follow from what everyone has seen)."""
        doc = self.state_to_json(state)
        doc.pop("rng", None)
        return doc


class DealtState(State):
    """A state with ``deals`` (pending draws), ``kind`` (the decision), ``player``, ``points``,
    ``hist``, ``drawn``, ``final`` and ``_rng`` slots. Subclasses give the rules: ``_move``,
    ``_apply_chance``, ``_draw_all``, ``_chance_string`` and ``chance_outcomes``."""

    __slots__ = ("_rng", "deals", "drawn", "final", "game", "hist", "kind", "player", "points")
    KIND_NAMES: ClassVar[tuple[str, ...]]
    OVER: ClassVar[int]

    game: DealtGame[Any]
    deals: list[Any]
    kind: int
    player: int
    points: list[int]
    hist: list[int]
    drawn: int
    final: ScoreLines | None
    _rng: int

    def current_player(self) -> int:
        if self.deals:
            return CHANCE
        if self.kind == self.OVER:
            return TERMINAL
        return self.player

    def decision(self) -> str:
        """What is decided now: one of the game's decision kinds, 'chance' or 'over'."""
        return "chance" if self.deals else self.KIND_NAMES[self.kind]

    def reseed(self, seed: int) -> None:
        self._rng = seed_state(seed)

    def draws(self) -> int:
        return self.drawn

    def score_breakdown(self) -> list[list[dict[str, Any]]] | None:
        if self.final is None:
            return None
        return [
            [{"item": item, "detail": detail, "points": points} for item, detail, points in lines]
            for lines in self.final
        ]

    def scores(self) -> list[int]:
        return self.points[:]

    def history(self) -> list[int]:
        return self.hist[:]

    def action_to_string(self, action: int) -> str:
        action = self.check_action_type(action)
        if self.is_chance_node():  # (not ``self.deals``: a compiled state answers in C)
            return self._chance_string(action)
        return self.game.actions.to_string(action)

    def string_to_action(self, text: str) -> int:
        if self.is_chance_node():
            outcomes = {self._chance_string(a).lower(): a for a, _ in self.chance_outcomes()}
            key = text.strip().lower() if isinstance(text, str) else text
            if key not in outcomes:
                raise IllegalMoveError(
                    f"{text!r} is not an outcome of this draw: {', '.join(sorted(outcomes))}"
                )
            return outcomes[key]
        return self.game.actions.from_string(text)

    def apply_action(self, action: int) -> None:
        """Apply a legal action; an illegal one raises IllegalMoveError and changes nothing."""
        action = self.check_action_type(action)
        if self.deals:
            self._apply_chance(action)
            self.drawn += 1
            self.hist.append(action)
            return
        if self.kind == self.OVER:
            raise IllegalMoveError("the game is over")
        size = self.game.actions.size
        if not 0 <= action < size:
            raise IllegalMoveError(
                "action {action} is outside 0..{last}", action=action, last=size - 1
            )
        self._move(action)
        self.hist.append(action)
        if self.deals and not self.game.explicit_chance:
            self._draw_all()

    # -- given by each game ---------------------------------------------------------------
    def _move(self, action: int) -> None:
        """Check and apply a player's action (an id within the action space)."""
        raise NotImplementedError

    def _apply_chance(self, outcome: int) -> None:
        raise NotImplementedError

    def _draw_all(self) -> None:
        raise NotImplementedError

    def _chance_string(self, outcome: int) -> str:
        raise NotImplementedError
