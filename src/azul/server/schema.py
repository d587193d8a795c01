"""The API's request and answer models, with the schema's constraints equal to the server's
checks (names, seats, levels, languages), and the setup answer (``/api/setup``)."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, field_serializer
from pydantic.config import JsonDict
from pydantic_core import PydanticCustomError

import azul
from azul import i18n
from azul.core.errors import AzulError
from azul.i18n import N_
from azul.server import ratings
from azul.server.clocks import BOUNDS, PRESETS
from azul.server.lobby import MAX_SEED, NAME_LENGTH, title
from azul.server.settings import DEFAULT_FILE, DEFAULT_LEVEL, LEVEL_NAMES, LEVELS
from azul.server.table import MOVE_LENGTH
from azul.server.tables import file_options


def _token() -> Any:
    return Field(max_length=64, description="a seat's or the spectators' secret token")


def _alternatives(names: list[str]) -> str:
    """``'a', 'b' or 'c'``, as pydantic names the values of a Literal."""
    quoted = [repr(n) for n in names]
    if len(quoted) < 2:
        return "".join(quoted)
    return f"{', '.join(quoted[:-1])} or {quoted[-1]}"


def _one_of(names: Callable[[], list[str]]) -> Callable[[Any], str]:
    """A check that a value is one of ``names()`` as they are when a request comes, refusing
    it as pydantic refuses a value outside a Literal."""

    def check(value: Any) -> str:
        known = names()
        if not isinstance(value, str) or value not in known:
            raise PydanticCustomError(
                "literal_error", "Input should be {expected}", {"expected": _alternatives(known)}
            )
        return value

    return check


def _listing(names: Callable[[], list[str]]) -> Callable[[JsonDict], None]:
    """The schema's list of the values ``names()`` when the schema is made."""

    def schema(field: JsonDict) -> None:
        field["enum"] = list(names())

    return schema


def _games() -> list[str]:
    return sorted(azul.GAMES)  # a game registered after the app is built is taken too


def _levels() -> list[str]:
    return list(LEVELS)


GameName = Annotated[
    str, BeforeValidator(_one_of(_games)), Field(json_schema_extra=_listing(_games))
]
Level = Annotated[
    str, BeforeValidator(_one_of(_levels)), Field(json_schema_extra=_listing(_levels))
]


def _languages() -> list[str]:
    return list(i18n.LANGUAGES)


Language = Annotated[
    str, BeforeValidator(_one_of(_languages)), Field(json_schema_extra=_listing(_languages))
]


def _seat_counts() -> tuple[int, int]:
    """The fewest and most seats a game of the server has, as the registry is now."""
    counts = set()
    for game in setup().games:
        players = [o for o in game.options if o.name == "players"]
        values = players[0].values if players else []
        counts |= {v.value for v in values if isinstance(v.value, int)} or {game.players}
    return min(counts), max(counts)


def _seat_count(seats: list[Any]) -> list[Any]:
    fewest, most = _seat_counts()
    if len(seats) < fewest:
        raise PydanticCustomError("too_short", "at least {n} seats", {"n": fewest})
    if len(seats) > most:
        raise PydanticCustomError("too_long", "at most {n} seats", {"n": most})
    return seats


def _seat_bounds(field: JsonDict) -> None:
    field["minItems"], field["maxItems"] = _seat_counts()


class SeatSpec(BaseModel):
    kind: Literal["human", "open", "bot"] = Field(
        description="'human' (an invite link), 'open' (anyone joins from the lobby) or 'bot'"
    )
    bot: Level | None = Field(None, description="the bot's level (default heuristic)")
    name: str | None = Field(None, max_length=NAME_LENGTH, description="the player's name")


def _bounded(name: str, description: str) -> Any:
    low, high = BOUNDS[name]
    return Field(None, ge=low, le=high, description=description)


class ClockSpec(BaseModel):
    """A time control. When a person's time runs out, the bot ``bot`` plays their move and the
    log says so; after two timeouts in a row it keeps the seat until they take it back."""

    model_config = ConfigDict(extra="forbid")
    kind: Literal["untimed", "move", "game", "turn"] = Field(
        description="'move': seconds per move and a reserve for the game; 'game': minutes per "
        "game and an increment per move; 'turn': hours per move (turn-based play)"
    )
    seconds: float | None = _bounded("seconds", "move: seconds per move (default 60)")
    reserve: float | None = _bounded("reserve", "move: seconds for the whole game, spent "
                                     "once a move's own run out (default 0)")  # fmt: skip
    minutes: float | None = _bounded("minutes", "game: minutes per game (default 10)")
    increment: float | None = _bounded("increment", "game: seconds added after each move")
    hours: float | None = _bounded("hours", "turn: hours per move (default 24)")
    bot: Level | None = Field(None, description="the level that plays a move whose time ran "
                              "out (default heuristic)")  # fmt: skip


class NewGame(BaseModel):
    game: GameName = Field(description="the game")
    options: dict[str, Any] = Field(
        default_factory=dict, description="the game's options, e.g. {'players': 3}"
    )
    seats: Annotated[list[SeatSpec], AfterValidator(_seat_count)] = Field(
        description="one per player", json_schema_extra=_seat_bounds
    )
    seed: int | None = Field(
        None,
        ge=0,
        lt=MAX_SEED,
        strict=True,
        description="replay a deal: a seeded game's draws can be computed, and it says so",
    )
    public: bool = Field(False, description="listed in the lobby, to join or to watch")
    clock: ClockSpec | None = Field(None, description="the time control (none: untimed)")


class LiveMove(BaseModel):
    """A move sent over a live connection (its token names the seat)."""

    model_config = ConfigDict(extra="forbid")
    action: int | None = Field(None, strict=True, description="an action id")
    move: str | None = Field(
        None, max_length=MOVE_LENGTH, description="or the move in notation, 'F3:R'"
    )
    version: int | None = Field(
        None,
        ge=0,
        strict=True,
        description="the version of the view the move was chosen on: a move chosen on an older "
        "view is refused (409, with the view now), never played; without it, the move is "
        "judged on the game as it is",
    )


class Move(LiveMove):
    model_config = ConfigDict(extra="ignore")
    token: str = _token()


class Token(BaseModel):
    token: str = _token()


class Join(BaseModel):
    seat: int = Field(ge=0, lt=8, description="an open seat")
    name: str | None = Field(None, max_length=NAME_LENGTH, description="the player's name")


class SeatName(BaseModel):
    token: str = _token()
    name: str = Field(min_length=1, max_length=NAME_LENGTH, description="your name")


class Choice(BaseModel):
    value: bool | int | float | str | None = Field(description="the value sent in 'options'")
    label: str = Field(description="what people read: an English message to translate")


class ChoiceOption(BaseModel):
    name: str = Field(description="the option's key in 'options' of a new game")
    label: str = Field(description="what people read: an English message to translate")
    values: list[Choice] = Field(description="the values people choose from, the default first")


class LevelRating(BaseModel):
    rating: int = Field(description="the level's measured rating (openskill, 40 × mu)")
    low: int = Field(description="the low end of its interval of about 95%")
    high: int = Field(description="the high end")
    games: int = Field(description="the games it rests on")


class GameSetup(BaseModel):
    name: str = Field(description="the game, as named in a new game")
    title: str = Field(description="the game's name for people: an English message to translate")
    players: int = Field(description="the number of players when no option says otherwise")
    options: list[ChoiceOption] = Field(
        description="what people choose at setup, the number of players first; every other "
        "option keeps its default"
    )
    ratings: dict[int, dict[str, LevelRating]] = Field(
        default_factory=dict,
        description="the levels measured in this game, by number of players then level",
    )
    notice: str = Field(
        "",
        description="what people should know before they play it with its own files, such as "
        "printed values that are provisional: an English message to translate ('' for none)",
    )
    notices: dict[str, dict[str, str]] = Field(
        default_factory=dict,
        description="the notice in place of 'notice' while an option has a value, by option "
        "then value: for the files the server offers ('' for none)",
    )


class ReviewOut(BaseModel):
    status: Literal["none", "running", "done"] = Field(
        description="'none': not asked for yet; 'running': being made; 'done': here it is"
    )
    done: int | None = Field(None, description="while running: the decisions reviewed so far")
    total: int | None = Field(None, description="while running: the game's decisions")
    review: dict[str, Any] | None = Field(
        None,
        description="once done: the review (format 'azul-review': per decision the move, the "
        "best move, the points lost, the label, the mover's expected lead, the best move's "
        "targets and words; per seat a summary; 'svg': the evaluation graph)",
    )


class HintOut(BaseModel):
    action: int = Field(description="the move's action id, as in the view's legal moves")
    move: str = Field(description="the move in the game's notation")
    behind: float = Field(
        description="the points it gives up against the best hint (0 for the best), from the "
        "search's values, or the endgame solver's exact ones"
    )
    earns: int = Field(description="the points it scores at once")
    sets_up: float = Field(
        description="what it adds to the player's prospects besides those points, in points "
        "by the game's evaluation"
    )
    exact: bool = Field(description="'behind' comes from the endgame solver: exact")


class LevelChoice(BaseModel):
    name: str = Field(description="the level, as named in a bot seat")
    label: str = Field(description="what people read: an English message to translate")


class ClockChoice(BaseModel):
    label: str = Field(description="what people read: an English message to translate")
    clock: ClockSpec = Field(description="the time control, as a new game's 'clock'")

    @field_serializer("clock")
    def _given(self, clock: ClockSpec) -> dict[str, Any]:
        return clock.model_dump(exclude_none=True)  # only the fields the control has


class Setup(BaseModel):
    games: list[GameSetup] = Field(description="every game of the server, the default first")
    levels: list[LevelChoice] = Field(description="the bots' levels, weakest first")
    default_level: str = Field(description="the level of a bot seat that names none")
    clocks: list[ClockChoice] = Field(description="the time controls a lobby offers, untimed first")


@lru_cache(maxsize=64)
def _notice(game: str, option: str, path: str) -> str | None:
    """The notice of a game played with the file at ``path`` (None if it cannot be read: the
    game made with it names the problem), read once: ``/api/setup`` is anyone's to ask."""
    try:
        return azul.load_game(game, **{option: path}).notice()
    except AzulError:
        return None


# the label of the game's own file among the files a server offers (``Settings.files``)
OWN_FILE = N_("shipped with the game")


def setup(files: dict[str, dict[str, str]] | None = None) -> Setup:
    """What a client offers when people set up a table, from the registry as it is now (in the
    order the games were registered: the first is the default). A file option is a choice
    when the server offers ``files`` of its kind: the game's own file first, then the
    operator's by name (never their paths)."""
    found = _setup_of(tuple((name, azul.GAMES[name]) for name in azul.GAMES))
    if not files:
        return found
    games = []
    for game in found.games:
        choices = []
        notices = {}
        for option in file_options(game.name):
            offered = files.get(option.kind, {})
            if not offered:
                continue
            values = [Choice(value=DEFAULT_FILE, label=OWN_FILE)]
            values += [Choice(value=name, label=name) for name in offered]
            choices.append(
                ChoiceOption(name=option.name, label=option.label or option.name, values=values)
            )
            notices[option.name] = {
                name: notice
                for name, path in offered.items()
                if (notice := _notice(game.name, option.name, path)) is not None
            }
        update = {"options": game.options + choices, "notices": notices}
        games.append(game.model_copy(update=update))
    return found.model_copy(update={"games": games})


@lru_cache(maxsize=8)
def _setup_of(games: tuple[tuple[str, type[azul.Game[Any]]], ...]) -> Setup:
    """The setup answer for these registered games, made once (making a game to learn its
    default number of players costs a fraction of a millisecond)."""
    found = []
    for name, game in games:
        options = [ChoiceOption(**o.to_json()) for o in game.setup_options()]
        made = game()
        players = made.info.num_players
        rated = {
            n: {level: LevelRating(**r) for level, r in by_level.items()}
            for n, by_level in ratings.of_game(name).items()
        }
        found.append(
            GameSetup(
                name=name,
                title=title(name),
                players=players,
                options=options,
                ratings=rated,
                notice=made.notice(),
            )
        )
    levels = [LevelChoice(name=n, label=LEVEL_NAMES.get(n, n)) for n in LEVELS]
    offered = [ClockChoice(label=label, clock=ClockSpec(**clock)) for label, clock in PRESETS]
    return Setup(games=found, levels=levels, default_level=DEFAULT_LEVEL, clocks=offered)


class Refused(BaseModel):
    """A move refused because it was chosen on an older view: the view now comes with it."""

    error: str = Field(description="what is wrong, in the client's language")
    view: dict[str, Any] | None = Field(
        None, description="the game now, when the move named an older version of its view"
    )
