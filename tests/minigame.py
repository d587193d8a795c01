"""Mini draft: a tiny third game on the API, to prove that bots, matches, the server and the
research adapters work for any game without naming one.

Two players share a bag of 12 tiles, 4 in each of 3 colours. Two tiles are drawn into a market;
the players take one tile in turn, and a take scores as many points as tiles of that colour the
player then holds (1, 2, 3, 4). When the market is empty, two more are drawn. The game ends when
every tile is taken; the best score wins, ties shared.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from azul.core.api import GameInfo, Presenter, SetupOption, observation_size
from azul.core.dealt import DealtGame, DealtState
from azul.core.errors import IllegalMoveError, OptionError, PositionError
from azul.core.options import check_options
from azul.core.rng import next_weighted, seed_state
from azul.core.validate import fields, integer, seat

COLORS = "RGB"
PER_COLOR = 4
MARKET = 2
TAKE, OVER = 0, 1
DEFAULTS: dict[str, Any] = {
    "players": 2,
    "score_floor": None,
    "first_player": 0,
    "explicit_chance": False,
}


class Notation:
    """Action c takes colour c: ``take:R``."""

    size = len(COLORS)

    def to_string(self, action: int) -> str:
        if not 0 <= action < self.size:
            raise IllegalMoveError(f"action {action} is outside 0..{self.size - 1}")
        return f"take:{COLORS[action]}"

    def from_string(self, text: str) -> int:
        color = text.strip().upper().removeprefix("TAKE:") if isinstance(text, str) else ""
        if len(color) != 1 or color not in COLORS:
            raise IllegalMoveError(f"{text!r} is not a move: write take:R, take:G or take:B")
        return COLORS.index(color)


class MiniState(DealtState):
    KIND_NAMES = ("take", "over")
    OVER = OVER
    __slots__ = ("bag", "held", "market")

    def __init__(self, game: MiniGame, seed: int = 0, *, setup: bool = True):
        self.game = game
        self.final = None
        self.drawn = 0
        if not setup:
            return
        self.bag = [PER_COLOR] * len(COLORS)
        self.market = [0] * len(COLORS)
        self.held = [0] * (2 * len(COLORS))
        self.points = [0, 0]
        self.kind = TAKE
        self.player = game.options["first_player"]
        self.hist = []
        self._rng = seed_state(seed)
        self.deals = [MARKET] * MARKET
        if not game.explicit_chance:
            self._draw_all()

    def clone(self) -> MiniState:
        s = MiniState.__new__(MiniState)
        for name in ("bag", "market", "held", "points", "deals", "hist"):
            setattr(s, name, getattr(self, name)[:])
        for name in ("game", "final", "drawn", "kind", "player", "_rng"):
            setattr(s, name, getattr(self, name))
        return s

    def legal_actions(self) -> list[int]:
        if self.deals:
            return [c for c, _ in self.chance_outcomes()]
        return [] if self.kind == OVER else [c for c, k in enumerate(self.market) if k]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        total = sum(self.bag)
        return [(c, k / total) for c, k in enumerate(self.bag) if k]

    def count_pieces(self) -> int:
        return sum(self.bag) + sum(self.market) + sum(self.held)

    def _chance_string(self, outcome: int) -> str:
        if not 0 <= outcome < len(COLORS):
            raise IllegalMoveError(f"draw {outcome} is not a colour 0..2")
        return f"draw:{COLORS[outcome]}"

    def _move(self, action: int) -> None:
        if not self.market[action]:
            raise IllegalMoveError(f"the market has no {COLORS[action]} tile")
        p = self.player
        self.market[action] -= 1
        self.held[p * 3 + action] += 1
        self.points[p] += self.held[p * 3 + action]
        self.player = 1 - p
        if not any(self.market):
            if any(self.bag):
                self.deals = [MARKET] * MARKET
            else:
                self.kind = OVER
                self.final = tuple(((("play", "", s),)) for s in self.points)

    def _apply_chance(self, outcome: int) -> None:
        if not 0 <= outcome < len(COLORS) or not self.bag[outcome]:
            raise IllegalMoveError(f"draw {outcome}: the bag holds no tile of that colour")
        self.bag[outcome] -= 1
        self.market[outcome] += 1
        del self.deals[0]

    def _draw_all(self) -> None:
        while self.deals:
            self._rng, x = next_weighted(self._rng, self.bag)
            self._apply_chance(x)
            self.drawn += 1


class MiniGame(DealtGame[MiniState]):
    name = "mini"
    title = "Mini draft"

    def __init__(self, **options: Any):
        self.options = check_options(self.name, options, DEFAULTS, {}, (2,))
        if self.options["first_player"] is None:
            raise OptionError("first_player: the mini game starts with seat 0 or 1, not a draw")
        self.explicit_chance = self.options["explicit_chance"]
        self.actions = Notation()
        tiles = PER_COLOR * len(COLORS)
        self.info = GameInfo(
            name=self.name,
            num_players=2,
            num_distinct_actions=Notation.size,
            max_chance_outcomes=len(COLORS),
            max_game_length=tiles * (2 if self.explicit_chance else 1),
            min_score=0,
            max_score=1 + 2 + 3 + 4 + 1 + 2,  # six takes: four of one colour, two of another
            total_pieces=tiles,
            observation_shape=(observation_size(self.observation_layout()),),
            options=dict(self.options),
        )

    @classmethod
    def setup_options(cls) -> list[SetupOption]:
        return [SetupOption("players", "Players", ((2, "2"),))]

    def _new_state(self, seed: int) -> MiniState:
        return MiniState(self, seed)

    def state_to_json(self, state: MiniState) -> dict[str, Any]:
        return {
            "game": self.name,
            "options": dict(self.options),
            "bag": state.bag[:],
            "market": state.market[:],
            "held": [state.held[:3], state.held[3:]],
            "points": state.points[:],
            "to_move": state.player,
            "pending_draws": len(state.deals),
            "rng": state._rng,
            "history": state.hist[:],
        }

    def _read_position(self, doc: Any, seed: int | None) -> MiniState:
        known = {"game", "options", "bag", "market", "held", "points", "to_move"}
        doc = fields(doc, "", known | {"pending_draws", "rng", "history"}, {"rng", "history"})
        s = MiniState(self, setup=False)
        s.bag = [integer(k, f"bag[{c}]", 0, PER_COLOR) for c, k in enumerate(doc["bag"])]
        s.market = [integer(k, f"market[{c}]", 0, MARKET) for c, k in enumerate(doc["market"])]
        s.held = [integer(k, "held", 0, PER_COLOR) for row in doc["held"] for k in row]
        s.points = [integer(k, f"points[{p}]", 0) for p, k in enumerate(doc["points"])]
        s.player = seat(doc["to_move"], "to_move", 2)
        s.deals = [MARKET] * integer(doc["pending_draws"], "pending_draws", 0, MARKET)
        s.hist = [integer(a, "history", 0) for a in doc.get("history", [])]
        s._rng = seed_state(seed) if seed is not None else integer(doc.get("rng", 0), "rng", 0)
        if s.count_pieces() != self.info.total_pieces:
            raise PositionError(f"the position holds {s.count_pieces()} tiles, not 12")
        s.kind = OVER if not (any(s.bag) or any(s.market) or s.deals) else TAKE
        return s

    def observation_layout(self) -> list[tuple[str, tuple[int, ...]]]:
        return [("bag", (3,)), ("market", (3,)), ("held", (2, 3)), ("to_move", (2,))]

    def observe(self, state: MiniState, seat: int, views: dict[str, Any]) -> None:
        for c in range(3):
            views["bag"][c] = state.bag[c]
            views["market"][c] = state.market[c]
            for r in range(2):  # relative seats: the observer first
                views["held"][r][c] = state.held[(seat + r) % 2 * 3 + c]
        if state.kind != OVER and not state.deals:
            views["to_move"][(state.player - seat) % 2] = 1

    def notation_help(self) -> str:
        return "take:R, take:G or take:B takes a tile of that colour from the market\n"

    def render_text(
        self, state: MiniState, color: bool = False, boards: Collection[int] | None = None
    ) -> str:
        return f"market {state.market} held {state.held} points {state.points}"

    def presenter(self) -> MiniPresenter:
        return MiniPresenter()


class MiniPresenter(Presenter[MiniState]):
    """The market's tiles drawn in a row, each clicked to take it."""

    def render_svg(
        self,
        state: MiniState,
        patterns: bool = False,
        lang: str | None = None,
        seat: int | None = None,
        layout: str = "wide",
        names: list[str] | None = None,
    ) -> str:
        tiles = "".join(
            f'<rect data-color="{COLORS[c]}" x="{40 * i}" y="0" width="32" height="32"/>'
            for i, c in enumerate(c for c in range(3) for _ in range(state.market[c]))
        )
        return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 120 40">{tiles}</svg>'

    def action_targets(self, state: MiniState, action: int) -> list[dict[str, str]]:
        return [{"color": COLORS[action]}]
