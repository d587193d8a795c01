"""How Sintra is shown to people: the drawing (``svg``, with ``board``, ``table`` and
``parts``), what a person clicks for each action and where its pieces go (``targets``), and
moves in words and what they earn (``describe``). ``SintraGame.presenter()`` gives the presenter
of a game."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from azul.core.api import Presenter, Target
from azul.core.errors import Message
from azul.sintra.state import SintraState

if TYPE_CHECKING:
    from azul.sintra.game import SintraGame


class SintraPresenter(Presenter[SintraState]):
    def __init__(self, game: SintraGame) -> None:
        self.game = game

    def render_svg(
        self,
        state: SintraState,
        patterns: bool = False,
        lang: str | None = None,
        seat: int | None = None,
        layout: str = "wide",
        names: list[str] | None = None,
    ) -> str:
        from azul.sintra.draw.svg import render_svg

        return render_svg(state, patterns, lang, seat, layout, names)

    def palette(self) -> dict[str, dict[str, str]]:
        from azul.sintra.draw.parts import FILL, INK

        c = self.game.components
        return {
            letter: {"name": c.colors[i], "fill": FILL[i], "ink": INK[i]}
            for i, letter in enumerate(c.letters)
        }

    def action_targets(self, state: SintraState, action: int) -> list[Target]:
        from azul.sintra.draw.targets import action_targets

        return action_targets(state, action)

    def action_marks(self, state: SintraState, action: int) -> list[Target]:
        from azul.sintra.draw.targets import action_marks

        return action_marks(state, action)

    def action_details(self, state: SintraState, action: int) -> dict[str, Any]:
        from azul.sintra.draw.targets import action_details

        return action_details(state, action)

    def describe_action(self, state: SintraState, action: int) -> Message:
        from azul.sintra.draw.describe import describe_action

        return describe_action(state, action)

    def action_preview(self, state: SintraState, action: int) -> dict[str, int]:
        from azul.sintra.draw.describe import action_preview

        return action_preview(state, action)
