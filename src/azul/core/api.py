"""The game-agnostic API, shaped like OpenSpiel's: a Game makes States; a State is played with ints.

Every bot, runner, server and adapter talks to games only through what is defined here: the
methods of ``Game`` and ``State`` and the ``Strategy`` a game gives its bots. A game is a package
that subclasses these (see ``azul.pavilion``), registered by name in ``azul.core.registry``.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Collection
from dataclasses import dataclass, field
from importlib.resources.abc import Traversable
from typing import Any, ClassVar, Generic, Self, TypeVar

from azul.core.errors import IllegalMoveError, Message, OptionError

S = TypeVar("S", bound="State")

Layout = list[tuple[str, tuple[int, ...]]]
"""The named pieces of a flat observation vector, in order, with their shapes."""
Target = dict[str, str]
"""An element of a drawing, as the ``data-`` attributes that select it."""

CHANCE = -1
"""``current_player()`` while a random draw is due (only with ``explicit_chance=True``)."""
TERMINAL = -4
"""``current_player()`` once the game is over."""


def observation_size(layout: Layout) -> int:
    """Length of the flat observation vector of a layout."""
    return sum(math.prod(shape) for _, shape in layout)


@dataclass(frozen=True)
class GameInfo:
    """The facts of one game with its options, fixed for every state it makes."""

    name: str
    num_players: int
    num_distinct_actions: int
    max_chance_outcomes: int
    max_game_length: int
    min_score: int | None
    max_score: int
    min_utility: float = -1.0
    max_utility: float = 1.0
    utility_sum: float = 0.0
    rules_version: str = "1"
    total_pieces: int = 0
    observation_shape: tuple[int, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)

    def score_bounds(self) -> tuple[float, float]:
        """The lowest and highest value a score shows in an observation: from ``min_score``,
        never above 0 (minus ``max_score`` where the game sets no lowest), to ``max_score``."""
        low = -self.max_score if self.min_score is None else min(0, self.min_score)
        return float(low), float(self.max_score)

    def value_bounds(self) -> tuple[float, float]:
        """Bounds of any entry of an observation: a 0/1 flag, a count of pieces (at most
        ``total_pieces``) or a score (``score_bounds``)."""
        return self.score_bounds()[0], float(max(self.max_score, self.total_pieces, 1))


@dataclass(frozen=True)
class SetupOption:
    """An option people choose when they set up a table: its name, a label and its values,
    each with a label, the default first. Labels are English messages the clients translate."""

    name: str
    label: str
    values: tuple[tuple[Any, str], ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "label": self.label,
            "values": [{"value": v, "label": label} for v, label in self.values],
        }


@dataclass(frozen=True)
class FileOption:
    """An option whose value is the path of a file, such as the printed values of one's copy;
    ``kind`` names what such a file holds. A server never opens a path a client sends: it
    offers, by name, the files of that kind its operator listed; ``label`` names the option for
    people choosing among them (an English message the clients translate)."""

    name: str
    kind: str
    label: str = ""


class Strategy(Generic[S]):
    """What a game knows about playing it well, for the bots: evaluations of a position in
    points for one seat, and an exact solver for the last decisions. A game gives its own
    (``Game.strategy()``); this base knows nothing beyond the score."""

    def evaluate(self, state: S, seat: int) -> float:
        """The position's worth to ``seat`` in points, as the heuristic bot's one ply weighs it:
        its score plus what it can expect (a game may take off what its opponents can)."""
        return float(state.scores()[seat])

    def evaluate_leaf(self, state: S, seat: int) -> float:
        """The evaluation for the leaves of a search: may be slower and better informed."""
        return self.evaluate(state, seat)

    def evaluate_children(self, state: S, seat: int, seeds: list[int]) -> list[float] | None:
        """``evaluate`` for ``seat`` of each legal action's outcome, in the order of
        ``legal_actions()``, each played on a copy reseeded with its seed (as the one-ply bots
        do): a game may work them out at once (in C on its compiled core). None (the default)
        where it cannot; the bot then plays each copy itself."""
        return None

    def value_weights(self, players: int) -> Traversable | None:
        """The file of the trained value network (``azul.learn.net``) that the search may use
        at its leaves instead of ``evaluate_leaf``, for games of ``players``; None where none
        ships (the default)."""
        return None

    def endgame_values(self, state: S, deadline: float | None = None) -> dict[int, float] | None:
        """The exact value of each legal action where a solver reaches the end of the game
        from ``state``; None outside its reach or once ``deadline`` (``time.time()``) passed."""
        return None

    def styles(self) -> tuple[str, ...]:
        """The names of the game's evaluation styles: other ways of valuing a position, each
        the judgement of one kind of player (Summer Pavilion's "builder" commits to stars), for
        sparring bots that play it (``evaluate_style``). None by default."""
        return ()

    def evaluate_style(self, style: str, state: S, seat: int) -> float:
        """The position's worth to ``seat`` in points as the player of ``style`` (one of
        ``styles()``) sees it; a style the game does not have raises OptionError."""
        raise style_error(state.game.name, style, self.styles())


class Presenter(Generic[S]):
    """How a game is shown to people, for the clients: the drawing of a position, what a person
    clicks on it to choose each action and where its pieces go, the action in words, what it
    earns, and the pieces' colours. A game gives its own (``Game.presenter()``), as it gives
    what bots know (``Game.strategy()``); the rules depend on neither. This base draws
    nothing and names an action by its notation."""

    def render_svg(
        self,
        state: S,
        patterns: bool = False,
        lang: str | None = None,
        seat: int | None = None,
        layout: str = "wide",
        names: list[str] | None = None,
    ) -> str:
        """The position drawn as an SVG document; ``patterns`` adds a pattern per colour
        (colour-blind mode); ``lang`` (en, fr, pt) the language of its words; ``seat`` the
        viewer, whose board is drawn large (None: a spectator); ``layout`` "wide" for a
        screen wider than tall, "tall" for a phone; ``names`` the players' names (default:
        "seat 0", "seat 1", ...)."""
        raise NotImplementedError(f"{state.game.name} has no drawing")

    def action_targets(self, state: S, action: int) -> list[Target]:
        """The drawing's elements a person clicks, in order, to choose a legal ``action``:
        each as the ``data-`` attributes it carries (``{"source": "F3", "color": "R"}``).
        Legal actions with the same targets are told apart by their ``action_details``."""
        return []

    def action_marks(self, state: S, action: int) -> list[Target]:
        """Where the pieces of ``action`` lie once it is played: the elements of the drawing
        after it (matched like targets) that show a player's last move."""
        return []

    def action_details(self, state: S, action: int) -> dict[str, Any]:
        """What tells this action apart from legal actions with the same targets, for a
        client to draw as a choice: ``{"pay": {"R": 2, "P": 1}}`` (the pieces paid),
        ``{"keep": {"G": 1}}`` (the pieces kept)."""
        return {}

    def describe_action(self, state: S, action: int) -> Message:
        """The action in words, as a message to translate: "takes {count} {color} from
        factory {factory}" with its fields (without the player's name)."""
        return Message("{move}", move=state.action_to_string(action))

    def palette(self) -> dict[str, dict[str, str]]:
        """The pieces' colours by letter, for clients drawing pieces beside the board:
        ``{"R": {"name": "red", "fill": "#c0392b", "ink": "#fff"}}``."""
        return {}

    def action_preview(self, state: S, action: int) -> dict[str, int]:
        """What the action earns at once, before any draw: ``{"points": 3}`` and the game's
        own items (bonus tiles owed, pieces broken)."""
        after = state.clone()
        seat = state.current_player()
        after.apply_action(action)
        return {"points": after.scores()[seat] - state.scores()[seat]}

    def action_previews(self, state: S, actions: list[int]) -> list[dict[str, int]]:
        """``action_preview`` of each of ``actions``, in one go: a game may work them out
        faster together (on its compiled core), as a client is sent every legal move's."""
        return [self.action_preview(state, a) for a in actions]


def shipped_weights(folder: Traversable, players: int) -> Traversable | None:
    """``folder/<players>p.npz`` if it is a file, else None: where a game keeps the value
    networks it ships (``Strategy.value_weights``)."""
    found = folder.joinpath(f"{players}p.npz")
    return found if found.is_file() else None


def style_error(game: str, style: str, styles: tuple[str, ...]) -> OptionError:
    """The error for an evaluation style that ``game`` does not have, naming those it has."""
    if not styles:
        return OptionError(
            "{game} has no {style!r} style of play: it has no evaluation styles",
            game=game,
            style=style,
        )
    return OptionError(
        "{game} has no {style!r} style of play: its styles are {styles}",
        game=game,
        style=style,
        styles=", ".join(styles),
    )


class Game(Generic[S]):
    """A game with its options, making states of type ``S``. Subclasses set ``name``, ``info``
    and ``options`` and implement the methods that raise NotImplementedError; the others have
    defaults a game may refine."""

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    """The game's name for people, an English message the clients translate."""
    info: GameInfo
    options: dict[str, Any]
    _engine: str | None = None  # "compiled" or "python"; None: compiled wherever it is built

    def new_initial_state(self, seed: int = 0) -> S:
        """A fresh game; every random draw comes from ``seed`` unless chance is explicit."""
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"seed: {seed!r} is not an int")
        compiled = self._core()
        if compiled is not None:
            return self.compiled_state(compiled.Core.new(self, seed))
        return self._new_state(seed)

    def state_from_json(self, doc: dict[str, Any] | str, seed: int | None = None) -> S:
        """Load a position document (dict or JSON text), validating all of it. ``seed``
        replaces the stored generator state."""
        from azul.core.validate import parse

        return self.on_engine(self._read_position(parse(doc), seed))

    # -- the engine: the compiled core where it is built, else the Python reference --------
    @classmethod
    def compiled(cls) -> Any:
        """The game's compiled core: a module with ``Core`` (the rules on C arrays:
        ``Core.new(game, seed)``, ``Core.from_state``, ``to_state`` and the state's hot
        methods), and ``Tree`` and ``search`` for the MCTS bot. None where the game has none,
        it is not built, or ``AZUL_PURE_PYTHON`` is set (the default: none)."""
        return None

    def compiled_state(self, core: Any, reference: S | None = None) -> S:
        """The state of this game on ``core`` (a ``Core`` of ``compiled()``); ``reference``
        is its Python state where one is at hand. Games with a core implement it."""
        raise NotImplementedError

    @property
    def engine(self) -> str:
        """The engine of this game's states: "compiled" or "python" (the reference)."""
        return "python" if self._core() is None else "compiled"

    def use_engine(self, engine: str | None) -> None:
        """Play on ``engine``: "compiled" (an OptionError where the core is not built),
        "python", or None: the compiled core wherever it is built."""
        from azul.core.compiled import ENGINES, missing

        if engine is not None and engine not in ENGINES:
            raise OptionError(
                f"engine: {engine!r} is not one of {', '.join(repr(e) for e in ENGINES)}"
            )
        if engine == "compiled" and self.compiled() is None:
            raise OptionError(f"engine: 'compiled': {self.name}: {missing(type(self))}")
        self._engine = engine

    def on_python(self) -> Self:
        """This game with its options on the Python reference engine."""
        game = copy.copy(self)
        game._engine = "python"
        return game

    def on_engine(self, state: S) -> S:
        """``state``, a Python state of this game, on this game's engine."""
        from azul.core.compiled import CompiledState

        compiled = self._core()
        if compiled is None or isinstance(state, CompiledState):
            return state
        return self.compiled_state(compiled.Core.from_state(state), state)

    def _core(self) -> Any:
        return None if self._engine == "python" else self.compiled()

    def _new_state(self, seed: int) -> S:
        raise NotImplementedError

    def _read_position(self, doc: Any, seed: int | None) -> S:
        raise NotImplementedError

    def state_to_json(self, state: S) -> dict[str, Any]:
        """The position document of ``state`` (see ``State.to_json``)."""
        raise NotImplementedError

    def public_view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of ``state`` (see ``State.public_view``)."""
        raise NotImplementedError

    @classmethod
    def setup_options(cls) -> list[SetupOption]:
        """What people choose when they set up a table (the number of players first); every
        other option keeps its default."""
        return []

    @classmethod
    def file_options(cls) -> tuple[FileOption, ...]:
        """The options whose value is a file's path (None: the game's own file)."""
        return ()

    def notice(self) -> str:
        """What people should know before they play with these options, such as printed values
        that are not the real ones: an English message the clients translate ("" for none)."""
        return ""

    def strategy(self) -> Strategy[S]:
        """The game's knowledge for bots (evaluations, endgame solver)."""
        return Strategy()

    def presenter(self) -> Presenter[S]:
        """How the game is shown to people (drawing, click targets, moves in words)."""
        return Presenter()

    def observation_layout(self) -> Layout:
        """The named pieces of the flat observation vector, in order, with their shapes."""
        raise NotImplementedError

    def observation_bounds(self) -> dict[str, tuple[float, float]]:
        """The lowest and highest value of each piece of the observation layout whose entries
        are not 0/1 flags (counts, scores), by name. This default knows no piece: it gives each
        the bounds of any score and any count of pieces (``GameInfo``)."""
        return dict.fromkeys(
            (name for name, _ in self.observation_layout()), self.info.value_bounds()
        )

    def observe(self, state: S, seat: int, views: dict[str, Any]) -> None:
        """Fill zeroed arrays shaped as in ``observation_layout`` (numpy arrays or anything
        indexed the same way) with what ``seat`` sees: the tensor of its public view."""
        raise NotImplementedError

    def notation_help(self) -> str:
        """A short description of the move notation, with examples, for people."""
        raise NotImplementedError

    def render_text(
        self, state: S, color: bool = False, boards: Collection[int] | None = None
    ) -> str:
        """See ``State.render``."""
        raise NotImplementedError

    @classmethod
    def rules_summary(cls, lang: str) -> str | None:
        """The game's short rules for people in ``lang`` (Markdown), if it has them."""
        from azul.i18n import rules

        return rules(cls.name, lang)

    def num_distinct_actions(self) -> int:
        return self.info.num_distinct_actions

    def num_players(self) -> int:
        return self.info.num_players

    def __deepcopy__(self, memo: dict[int, Any]) -> Game[S]:
        return self  # a game never changes after it is made: copies of states share it

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.name!r}, {opts})"


class State:
    """One position of a game. Subclasses implement the rules; shared conveniences live here."""

    __slots__ = ()
    game: Game[Any]

    # -- to be implemented by each game -------------------------------------------------
    def current_player(self) -> int:
        """The seat to decide, or CHANCE while a draw is due, or TERMINAL."""
        raise NotImplementedError

    def decision(self) -> str:
        """What is decided now, as a word clients translate: the game's kind of decision
        (its default "move"), "chance" or "over"."""
        player = self.current_player()
        return "chance" if player == CHANCE else "over" if player == TERMINAL else "move"

    def legal_actions(self) -> list[int]:
        """The legal action ids, sorted (the outcomes at a chance node)."""
        raise NotImplementedError

    def apply_action(self, action: int) -> None:
        """Apply a legal action; anything else raises IllegalMoveError and changes nothing."""
        raise NotImplementedError

    def chance_outcomes(self) -> list[tuple[int, float]]:
        """At a chance node: each outcome with its probability (they sum to 1)."""
        raise NotImplementedError

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def string_to_action(self, text: str) -> int:
        raise NotImplementedError

    def clone(self) -> Self:
        """An independent copy (cheap: a few list copies)."""
        raise NotImplementedError

    def reference(self) -> Self:
        """This position as a state of the game's Python reference engine: the state itself,
        or, for a state on a compiled core, its Python twin until the next action (read it;
        ``clone()`` it to play on). For code that works on the Python engine's fields."""
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        """``copy.deepcopy`` is ``clone()``: the game is shared, being immutable (frameworks
        that copy states by deepcopy, OpenSpiel's Python games among them, copy them fast)."""
        return self.clone()

    def reseed(self, seed: int) -> None:
        """Replace the state's own generator, so that its future draws follow ``seed``: how a
        search samples futures without knowing the real ones (a game without hidden draws
        does nothing)."""
        raise NotImplementedError

    def draws(self) -> int:
        """How many random draws this state resolved since it was made or loaded (its own
        generator's and explicit chance outcomes alike): along one line of play, equal counts
        mean nothing was drawn in between (a move cannot be taken back across a draw)."""
        raise NotImplementedError

    def scores(self) -> list[int]:
        raise NotImplementedError

    def history(self) -> list[int]:
        """Every action applied since the start, chance outcomes included when explicit."""
        raise NotImplementedError

    def count_pieces(self) -> int:
        """Every tile or piece in the game, wherever it lies (equals ``info.total_pieces``)."""
        raise NotImplementedError

    # -- provided by the game, so that the rules module knows nothing of views ----------------
    def to_json(self) -> dict[str, Any]:
        """The whole position as a JSON-ready dict (see the game's position format), the
        generator's state included: for saving and analysis, not for players."""
        return self.game.state_to_json(self)

    def public_view(self, seat: int | None = None) -> dict[str, Any]:
        """What ``seat`` (None: a spectator) may know of the position, as a JSON-ready dict in
        the shape of ``to_json``: never anything that predicts a future draw."""
        return self.game.public_view(self, seat)

    def render(self, color: bool = False, boards: Collection[int] | None = None) -> str:
        """The position as text for a terminal; ``color`` paints the pieces (ANSI); ``boards``
        the seats whose boards are drawn (default: all), the others shown by their line of
        score and marks alone."""
        return self.game.render_text(self, color, boards)

    def _repr_svg_(self) -> str:  # Jupyter shows a state as its drawing
        return self.game.presenter().render_svg(self)

    def score_breakdown(self) -> list[list[dict[str, Any]]] | None:
        """Once the game is scored: each seat's final score as items, in the order the rules
        score them (``item``: play, star, number, leftovers, broken, ornaments, windows;
        ``detail``: which one; ``points``). None before the end, and for finished positions
        loaded from a document, which do not keep it."""
        return None

    # -- shared -------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def num_players(self) -> int:
        return self.game.info.num_players

    def legal_actions_mask(self) -> list[int]:
        """1 for each legal action id, 0 elsewhere, over the whole action space."""
        mask = [0] * self.game.info.num_distinct_actions
        if not self.is_chance_node():
            for a in self.legal_actions():
                mask[a] = 1
        return mask

    def returns(self) -> list[float]:
        """Zero-sum result: the k winners share +1, the others share -1; all 0 before the end
        and when every player wins."""
        n = self.num_players()
        winners = self.winners()
        k = len(winners)
        if not k or k == n:
            return [0.0] * n
        return [1.0 / k if p in winners else -1.0 / (n - k) for p in range(n)]

    def winners(self) -> list[int]:
        """Seats that win once the game is over: the best score, ties shared. A game with a
        tie-break overrides this."""
        if not self.is_terminal():
            return []
        scores = self.scores()
        return [i for i, s in enumerate(scores) if s == max(scores)]

    def apply_string(self, text: str) -> int:
        """Parse a move in the game's notation, apply it and return its action id."""
        action = self.string_to_action(text)
        self.apply_action(action)
        return action

    def check_action_type(self, action: Any) -> int:
        """Reject anything that is not an int action id with a clear message."""
        if isinstance(action, bool) or not isinstance(action, int):
            raise IllegalMoveError(f"an action is an int, not {type(action).__name__}")
        return action

    def __str__(self) -> str:
        return self.render()
