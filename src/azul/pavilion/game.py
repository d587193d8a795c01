"""The Summer Pavilion game object: options, facts (GameInfo) and the factories of states."""

from __future__ import annotations

from collections.abc import Collection
from functools import cache
from typing import Any

from azul.core.api import GameInfo, Layout, Presenter, SetupOption, Strategy, observation_size
from azul.core.compiled import import_core
from azul.core.dealt import DealtGame
from azul.core.errors import OptionError
from azul.core.options import check_options
from azul.i18n import N_, _
from azul.pavilion import data, observation
from azul.pavilion.actions import ActionSpace
from azul.pavilion.state import PavilionState
from azul.pavilion.tables import BOARD_TABLES, BoardTables

# Every row of the rules' "Project decisions" table is an option with the decided default.
# CHOICES lists the values a text option takes; rows the rules fix take only their one value.
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "board": "coloured",
    "score_floor": 1,
    "first_player": None,
    "explicit_chance": False,
    "no_token_start": "round_starter",
    "short_supply": "take_all",
    "round6_leftovers": "after_bonuses",
    "ties": "shared",
    "small_pass": "keep_all",
    "empty_hand": "auto_pass",
    "supply_refill": "every_turn",
    "draw_order": "supply_first",
}
CHOICES: dict[str, tuple[str, ...]] = {
    "no_token_start": ("round_starter",),  # rules 4.8
    "short_supply": ("take_all",),  # rules 5.7
    # rules 5.9 / 7.3: kept tiles cost 1 each after the end bonuses, or (as BGA) every tile
    # left at the round-6 pass is discarded at once
    "round6_leftovers": ("after_bonuses", "at_pass"),
    "ties": ("shared",),  # rules 7.4
    "small_pass": ("keep_all",),  # rules 5.8
    "empty_hand": ("auto_pass",),  # rules 5.8
    "supply_refill": ("every_turn",),  # rules 5.7
    "draw_order": ("supply_first",),  # rules 2
}
NOTATION_HELP = N_("""Colours: P purple, G green, O orange, Y yellow, B blue, R red.
Stars: C centre, P purple, O orange, R red, B blue, Y yellow, G green; spaces 1-6 clockwise.
  F3:R      take red from factory 3 (one wild comes along if the factory has any)
  C:Y       take yellow from the centre (C:P takes one wild when only wilds are left)
  R@R3      place a red tile on space 3 of the red star, paying 3 red
  R@R3+1    the same, paying 2 red and 1 wild
  Y@C4      place yellow on space 4 of the centre star
  pass      pass, keeping the whole hand (4 tiles or fewer)
  pass:PPGR pass, keeping 2 purple, 1 green and 1 red (the rest cost 1 point each);
            with more than 4 tiles keep any 0 to 4: pass:GR, or pass:- to keep none
  S:B       take a blue bonus tile from the supply
""")
_BOARD_ALIASES = {"coloured": "coloured", "colored": "coloured", "grey": "grey", "gray": "grey"}


def _check_options(options: dict[str, Any]) -> dict[str, Any]:
    opts = check_options("pavilion", options, DEFAULTS, CHOICES, tuple(data.FACTORIES))
    board = opts["board"]
    if not isinstance(board, str) or board.lower() not in _BOARD_ALIASES:
        raise OptionError(f"board: {board!r} is not 'coloured' or 'grey'")
    opts["board"] = _BOARD_ALIASES[board.lower()]
    return opts


@cache
def _action_space(factories: int) -> ActionSpace:
    return ActionSpace(factories)


class PavilionGame(DealtGame[PavilionState]):
    """Azul: Summer Pavilion with its options (see DEFAULTS and the rules' project decisions)."""

    name = "pavilion"
    title = N_("Summer Pavilion")
    players: int
    factories: int
    discard_at_last_pass: bool  # option round6_leftovers="at_pass"
    board: BoardTables  # the side's costs and payment tables
    actions: ActionSpace

    def __init__(self, **options: Any):
        self.options = _check_options(options)
        self.players = self.options["players"]
        self.factories = data.FACTORIES[self.players]
        self.explicit_chance = self.options["explicit_chance"]
        self.discard_at_last_pass = self.options["round6_leftovers"] == "at_pass"
        self.board = BOARD_TABLES[self.options["board"]]
        self.actions = _action_space(self.factories)
        self.info = GameInfo(
            name=self.name,
            num_players=self.players,
            num_distinct_actions=self.actions.size,
            max_chance_outcomes=max(data.NUM_COLORS, self.players),
            max_game_length=self._max_game_length(),
            min_score=self.options["score_floor"],
            max_score=self._max_score(),
            rules_version=data.RULES_VERSION,
            total_pieces=data.TOTAL_TILES,
            observation_shape=(observation_size(self.observation_layout()),),
            options=dict(self.options),
        )

    def _max_game_length(self) -> int:
        """Player decisions at most: every take moves a tile; per seat at most 42 placements,
        36 bonus picks (rules 7.5) and one pass per round; plus the draws when chance is
        explicit."""
        takes = data.ROUNDS * self.factories * data.TILES_PER_FACTORY
        turns = self.players * (data.NUM_SPACES + 36 + data.ROUNDS)
        draws = 0
        if self.explicit_chance:
            # setup, the factories each round, and at most 3 supply refills per placement
            draws = 1 + data.SUPPLY_SPACES + takes + self.players * data.NUM_SPACES * 3
        return takes + turns + draws

    @staticmethod
    def _max_score() -> int:
        """Start score, at most 6 per placement, every star and number bonus."""
        return (
            data.START_SCORE
            + 6 * data.NUM_SPACES
            + data.MULTICOLORED_STAR_BONUS
            + sum(data.STAR_BONUS_BY_COLOR.values())
            + sum(data.NUMBER_BONUS.values())
        )

    def _new_state(self, seed: int) -> PavilionState:
        return PavilionState(self, seed)

    @classmethod
    def compiled(cls) -> Any:
        return import_core("azul.pavilion._core")

    def compiled_state(self, core: Any, reference: PavilionState | None = None) -> PavilionState:
        from azul.pavilion.compiled import CompiledPavilionState

        return CompiledPavilionState.wrap(self, core, reference)

    def _read_position(self, doc: Any, seed: int | None) -> PavilionState:
        from azul.pavilion.position import state_from_json

        return state_from_json(self, doc, seed)

    @classmethod
    def setup_options(cls) -> list[SetupOption]:
        return [
            SetupOption("players", N_("Players"), tuple((n, str(n)) for n in data.FACTORIES)),
            SetupOption(
                "board", N_("Board"), (("coloured", N_("coloured side")), ("grey", N_("grey side")))
            ),
        ]

    def strategy(self) -> Strategy[PavilionState]:
        from azul.pavilion.strategy import PavilionStrategy

        return PavilionStrategy()

    def observation_layout(self) -> Layout:
        return observation.layout(self.players)

    def observation_bounds(self) -> dict[str, tuple[float, float]]:
        tiles = (0.0, float(data.TILES_PER_COLOR))  # a count of one colour
        counts = dict.fromkeys(("sources", "supply", "bag", "tower", "hands", "kept"), tiles)
        owed = (0.0, float(data.SUPPLY_SPACES))
        return counts | {"bonus_owed": owed, "scores": self.info.score_bounds()}

    def observe(self, state: PavilionState, seat: int, views: dict[str, Any]) -> None:
        observation.observe(state, seat, views)

    def notation_help(self) -> str:
        return _(NOTATION_HELP)

    def state_to_json(self, state: PavilionState) -> dict[str, Any]:
        from azul.pavilion.position import state_to_json

        return state_to_json(state)

    def render_text(
        self, state: PavilionState, color: bool = False, boards: Collection[int] | None = None
    ) -> str:
        from azul.pavilion.render import render_text

        return render_text(state, color, boards)

    def presenter(self) -> Presenter[PavilionState]:
        from azul.pavilion.draw import PavilionPresenter

        return PavilionPresenter(self)
