"""How Summer Pavilion is shown to people: the drawing (``svg``, with ``board``, ``table`` and
``parts``), what a person clicks for each action and where its tiles go (``targets``), and moves
in words (``describe``). ``PavilionGame.presenter()`` gives the presenter of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azul.core.api import Presenter, Target
from azul.core.errors import Message
from azul.pavilion import data
from azul.pavilion.state import PavilionState

if TYPE_CHECKING:
    from azul.pavilion.game import PavilionGame


class PavilionPresenter(Presenter[PavilionState]):
    def __init__(self, game: PavilionGame) -> None:
        self.game = game

    def render_svg(
        self,
        state: PavilionState,
        patterns: bool = False,
        lang: str | None = None,
        seat: int | None = None,
        layout: str = "wide",
        names: list[str] | None = None,
    ) -> str:
        from azul.pavilion.draw.svg import render_svg

        return render_svg(state, patterns, lang, seat, layout, names)

    def palette(self) -> dict[str, dict[str, str]]:
        from azul.pavilion.draw.parts import FILL, INK

        return {
            letter: {"name": data.COLORS[c], "fill": FILL[c], "ink": INK[c]}
            for c, letter in enumerate(data.COLOR_LETTERS)
        }

    def action_targets(self, state: PavilionState, action: int) -> list[Target]:
        from azul.pavilion.draw.targets import action_targets

        return action_targets(state, action)

    def action_marks(self, state: PavilionState, action: int) -> list[Target]:
        from azul.pavilion.draw.targets import action_marks

        return action_marks(state, action)

    def action_details(self, state: PavilionState, action: int) -> dict[str, Any]:
        from azul.pavilion.draw.targets import action_details

        return action_details(state, action)

    def describe_action(self, state: PavilionState, action: int) -> Message:
        from azul.pavilion.draw.describe import describe_action

        return describe_action(state, action)

    def action_preview(self, state: PavilionState, action: int) -> dict[str, int]:
        """Points (on a copy of the state), and the bonus tiles a placement earns or the tiles
        a pass sends to the tower."""
        if state.is_chance_node():
            return super().action_preview(state, action)
        from azul.pavilion.draw.targets import action_preview

        points = super().action_preview(state, action)["points"]
        return action_preview(state, action, points)

    def action_previews(self, state: PavilionState, actions: list[int]) -> list[dict[str, int]]:
        """As ``action_preview``, the points worked out on the compiled core where it is built
        (a copy and a move there cost a tenth of the Python engine's)."""
        compiled = None if state.is_chance_node() else self.game.compiled()
        if compiled is None:
            return super().action_previews(state, actions)
        from azul.core.compiled import core_of
        from azul.pavilion.draw.targets import action_preview

        start = core_of(state, compiled.Core)
        seat = state.current_player()
        before = start.scores()[seat]
        previews = []
        for a in actions:
            after = start.clone()
            after.apply_action(a)
            previews.append(action_preview(state, a, after.scores()[seat] - before))
        return previews
