"""The Stained Glass of Sintra game object: options, component data, facts and states."""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from azul.core.api import (
    FileOption,
    GameInfo,
    Layout,
    Presenter,
    SetupOption,
    Strategy,
    observation_size,
)
from azul.core.compiled import import_core
from azul.core.dealt import DealtGame
from azul.core.errors import OptionError
from azul.core.options import check_options
from azul.i18n import N_, _
from azul.sintra import data, observation
from azul.sintra.actions import ActionSpace
from azul.sintra.state import SintraState

# Every row of the rules' "Project decisions" table that is a game option, with its default;
# CHOICES lists the values of the rows the rules fix.
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "side": "A",
    "score_floor": None,
    "first_player": None,
    "explicit_chance": False,
    "components": None,
    "no_tile_start": "previous_starter",
    "joker_allocation": "colors_first",
    "keep_piece": "choose_when_mixed",
    "draw_order": "factories_in_order",
    "side_b_color": "best",
    "glass_lost": "events_and_track",
}
CHOICES: dict[str, tuple[str, ...]] = {
    "no_tile_start": ("previous_starter",),  # rules 4.5
    "joker_allocation": ("colors_first",),  # rules 3.2
    "keep_piece": ("choose_when_mixed",),  # rules 3.3b
    "draw_order": ("factories_in_order",),  # rules 4.4
    "side_b_color": ("best",),  # rules 5.3
    "glass_lost": ("events_and_track",),  # rules 5.4
}


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    opts = check_options("sintra", options, DEFAULTS, CHOICES, tuple(data.FACTORIES))
    side = opts["side"]
    if not isinstance(side, str) or side.upper() not in data.SIDES:
        raise OptionError(f"side: {side!r} is not 'A' or 'B'")
    opts["side"] = side.upper()
    if opts["components"] is not None and not isinstance(opts["components"], str):
        raise OptionError(f"components: {opts['components']!r} is not a file path")
    return opts


# shown in the lobby and at the table while the shipped, provisional printed values are in play
PROVISIONAL_NOTICE = N_(
    "Some printed values of this game (window values, the broken-glass track, the ornaments, "
    "the strips) are provisional: the project's own, not read off a physical copy. If you own "
    "the game, write your copy's values in a components file (the shape of components.toml) "
    "and play it with azul play --components FILE, or have the server's operator offer it "
    "with azul serve --components NAME=FILE."
)

NOTATION_HELP = N_("""Colours by letter ({letters}); strips 1-8 from left to right.
  F3:{a}>4      take every {na} piece of factory 3 (the rest go to the centre) and place
              them on strip 4 (the glazier's strip or one to its right)
  C:{b}>2       the same from the centre (the first to do so takes the starting-player tile
              and moves one space down the broken-glass track)
  F1:{a}>break  every piece breaks: only when no reachable strip can take one
  back        move the glazier back to the leftmost remaining strip
  keep:{b}      after completing a strip of several colours, the piece kept for the window
""")


class SintraGame(DealtGame[SintraState]):
    """Azul: Stained Glass of Sintra with its options and component data."""

    name = "sintra"
    title = N_("Stained Glass of Sintra")
    components: data.Components  # the printed values of this copy
    players: int
    factories: int
    window_values: tuple[int, ...]  # by window, on the chosen palace side
    actions: ActionSpace
    accept: list[list[int]]  # see data.accept_table

    def __init__(self, **options: Any):
        self.options = _check_options(options)
        self.components = data.load_components(self.options["components"])
        self.players = self.options["players"]
        self.factories = data.FACTORIES[self.players]
        self.explicit_chance = self.options["explicit_chance"]
        self.window_values = self.components.window_values[self.options["side"]]
        self.actions = ActionSpace(self.factories, self.components)
        self.accept = data.accept_table(self.components)
        self.info = GameInfo(
            name=self.name,
            num_players=self.players,
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(data.SLOTS, self.players, data.NUM_COLORS),
            max_game_length=self._max_game_length(),
            min_score=self.options["score_floor"],
            max_score=self._max_score(),
            rules_version=data.RULES_VERSION,
            total_pieces=data.TOTAL_PIECES,
            observation_shape=(observation_size(self.observation_layout()),),
            options=dict(self.options),
        )

    def _max_game_length(self) -> int:
        """Every play moves at least one piece off the table, and at most one 'back' and one
        'keep' follow each; plus the draws when chance is explicit."""
        takes = data.ROUNDS * self.factories * data.PIECES_PER_FACTORY
        moves = 3 * takes
        draws = 0
        if self.explicit_chance:
            draws = 1 + self.players * 2 * data.SLOTS + data.ROUNDS + takes
        return moves + draws

    def _max_score(self) -> int:
        """A generous bound: every piece that enters scores a strip's colour bonus and all
        windows, plus the largest end bonus."""
        takes = data.ROUNDS * self.factories * data.PIECES_PER_FACTORY
        values = self.components.window_values
        per_window = sum(max(a, b) for a, b in zip(values["A"], values["B"], strict=True))
        end = max(40, data.SLOTS * data.FRAMES * data.SLOTS)
        return takes * (data.SPACES + per_window) + end

    def _new_state(self, seed: int) -> SintraState:
        return SintraState(self, seed)

    @classmethod
    def compiled(cls) -> Any:
        return import_core("azul.sintra._core")

    def compiled_state(self, core: Any, reference: SintraState | None = None) -> SintraState:
        from azul.sintra.compiled import CompiledSintraState

        return CompiledSintraState.wrap(self, core, reference)

    @classmethod
    def setup_options(cls) -> list[SetupOption]:
        return [
            SetupOption("players", N_("Players"), tuple((n, str(n)) for n in data.FACTORIES)),
            SetupOption(
                "side",
                N_("Palace"),
                (("A", N_("side A (ornaments)")), ("B", N_("side B (windows × colour)"))),
            ),
        ]

    @classmethod
    def file_options(cls) -> tuple[FileOption, ...]:
        # components.toml's format
        return (FileOption("components", "components", N_("Printed values")),)

    def notice(self) -> str:
        return PROVISIONAL_NOTICE if self.components.provisional else ""

    def strategy(self) -> Strategy[SintraState]:
        from azul.sintra.strategy import SintraStrategy

        return SintraStrategy()

    def observation_layout(self) -> Layout:
        return observation.layout(self.players, self.factories, len(self.components.track))

    def observation_bounds(self) -> dict[str, tuple[float, float]]:
        pieces = (0.0, float(data.PIECES_PER_COLOR))  # a count of one colour
        counts = dict.fromkeys(("sources", "bag", "tower"), pieces)
        lost = (0.0, float(self.info.max_score))
        return counts | {"scores": self.info.score_bounds(), "lost": lost}

    def observe(self, state: SintraState, seat: int, views: dict[str, Any]) -> None:
        observation.observe(state, seat, views)

    def notation_help(self) -> str:
        c = self.components
        names = [_(n) for n in c.colors]
        letters = ", ".join(f"{x} {n}" for x, n in zip(c.letters, names, strict=True))
        return _(NOTATION_HELP).format(
            letters=letters, a=c.letters[0], na=_(c.colors[0]), b=c.letters[2]
        )

    def _read_position(self, doc: Any, seed: int | None) -> SintraState:
        from azul.sintra.position import state_from_json

        return state_from_json(self, doc, seed)

    def state_to_json(self, state: SintraState) -> dict[str, Any]:
        from azul.sintra.position import state_to_json

        return state_to_json(state)

    def render_text(
        self, state: SintraState, color: bool = False, boards: Collection[int] | None = None
    ) -> str:
        from azul.sintra.render import render_text

        return render_text(state, color, boards)

    def presenter(self) -> Presenter[SintraState]:
        from azul.sintra.draw import SintraPresenter

        return SintraPresenter(self)
