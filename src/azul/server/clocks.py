"""Time controls and the clocks the server keeps: what a game was created with, each seat's time
left, and when the person to move runs out. Arithmetic on the server's time alone (``now``);
the store keeps a clock as JSON, and the tables charge it after each move.

A clock runs only for a person to move: never for a bot, a seat a bot keeps, or chance (the
server draws at once). Deadlines are times of the server's clock, so a restart keeps every
seat's time left, and the time a server was down counts as time passing, as on a wall clock.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from typing import Any

from azul.core.errors import AzulError
from azul.i18n import N_

KINDS = ("untimed", "move", "game", "turn")
# the bounds of each kind's numbers, in the units a client sends them
BOUNDS = {
    "seconds": (5.0, 3600.0),  # move: seconds per move
    "reserve": (0.0, 7200.0),  # move: seconds over the whole game, spent past a move's seconds
    "minutes": (1.0, 600.0),  # game: minutes per game
    "increment": (0.0, 600.0),  # game: seconds added after each move
    "hours": (1.0, 336.0),  # turn: hours per move (two weeks at most)
}
FIELDS = {"untimed": (), "move": ("seconds", "reserve"), "game": ("minutes", "increment"),
          "turn": ("hours",)}  # fmt: skip
DEFAULTS = {"seconds": 60.0, "reserve": 0.0, "minutes": 10.0, "increment": 0.0, "hours": 24.0}
# the time controls a lobby offers, each with its words for people (a client may send any other)
PRESETS = (
    (N_("untimed"), {"kind": "untimed"}),
    (N_("1 minute a move, 3 minutes in reserve"), {"kind": "move", "seconds": 60, "reserve": 180}),
    (N_("5 minutes a game, 3 seconds a move"), {"kind": "game", "minutes": 5, "increment": 3}),
    (N_("15 minutes a game, 10 seconds a move"), {"kind": "game", "minutes": 15, "increment": 10}),
    (N_("turn-based: a day a move"), {"kind": "turn", "hours": 24}),
    (N_("turn-based: three days a move"), {"kind": "turn", "hours": 72}),
)
TIMEOUTS_TO_AWAY = 2  # timeouts in a row, after which a bot keeps the seat until its person is back


def now() -> float:
    """The server's time in seconds (``AZUL_CLOCK_SKEW`` seconds ahead, for an operator's
    tests of turn-based games; no client can set it)."""
    return time.time() + float(os.environ.get("AZUL_CLOCK_SKEW") or 0)


def stamp() -> str:
    """The server's time as a view's last field (JSON text): a client counts a clock down from
    it, whatever its own clock says."""
    return f'"now":{now():.3f}'


@dataclass(frozen=True)
class TimeControl:
    """How much time each person has: ``untimed``; ``move``, ``seconds`` per move plus a
    ``reserve`` for the whole game; ``game``, ``minutes`` for the whole game plus an
    ``increment`` after each move; ``turn``, ``hours`` per move. ``bot``: the level that plays
    the move of a person whose time ran out."""

    kind: str = "untimed"
    seconds: float = 0.0
    reserve: float = 0.0
    minutes: float = 0.0
    increment: float = 0.0
    hours: float = 0.0
    bot: str = "heuristic"

    @classmethod
    def parse(cls, doc: Any, bot: str = "heuristic") -> TimeControl:
        """A time control as a client sent it (None: untimed); an error names what is wrong."""
        if doc is None:
            return cls()
        if not isinstance(doc, dict):
            raise AzulError("clock: expected an object such as {{'kind': 'move', 'seconds': 60}}")
        kind = doc.get("kind", "untimed")
        if kind not in KINDS:
            raise AzulError("clock.kind: one of {kinds}", kinds=", ".join(KINDS))
        unknown = set(doc) - {"kind", "bot", *FIELDS[kind]}
        if unknown:
            raise AzulError(
                "clock: {kind} takes no {names}", kind=kind, names=", ".join(sorted(unknown))
            )
        values: dict[str, float] = {}
        for name in FIELDS[kind]:
            value = doc.get(name, DEFAULTS[name])
            low, high = BOUNDS[name]
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise AzulError("clock.{name}: expected a number", name=name)
            if not low <= value <= high:
                raise AzulError(
                    "clock.{name}: {value} is not in {low:g}..{high:g}",
                    name=name, value=value, low=low, high=high,
                )  # fmt: skip
            values[name] = float(value)
        return cls(kind, bot=doc.get("bot") or bot, **values)

    @property
    def timed(self) -> bool:
        return self.kind != "untimed"

    def to_json(self) -> dict[str, Any]:
        shown: dict[str, Any] = {"kind": self.kind, "bot": self.bot}
        shown.update({name: getattr(self, name) for name in FIELDS[self.kind]})
        return shown

    def start_left(self) -> float:
        """A seat's time left at the start: the reserve, or the whole game's."""
        return {"move": self.reserve, "game": 60 * self.minutes}.get(self.kind, 0.0)


@dataclass(frozen=True)
class Clock:
    """A game's clocks: each seat's time left (the reserve, or the game's time), how many
    timeouts in a row each seat has had, and whose clock runs since when."""

    control: TimeControl
    left: tuple[float, ...]
    timeouts: tuple[int, ...]
    seat: int | None = None  # the person whose clock runs
    since: float | None = None  # when it started (the server's time)

    @classmethod
    def new(cls, control: TimeControl, players: int) -> Clock:
        return cls(control, (control.start_left(),) * players, (0,) * players)

    def deadline(self) -> float | None:
        """When the running clock runs out (None if none runs)."""
        if self.seat is None or self.since is None:
            return None
        c, left = self.control, self.left[self.seat]
        if c.kind == "move":
            return self.since + c.seconds + left
        if c.kind == "game":
            return self.since + left
        return self.since + 3600 * c.hours

    def ran_out(self, seat: int, at: float) -> bool:
        """Whether ``seat``'s time is up at ``at``."""
        deadline = self.deadline()
        return self.seat == seat and deadline is not None and at >= deadline

    def moved(self, seat: int, at: float, timed_out: bool) -> Clock:
        """The clocks after ``seat`` moved at ``at`` (by the bot, when ``timed_out``): its
        time charged, its increment added, and no clock running until the next is started."""
        c, left = self.control, list(self.left)
        if self.seat == seat and self.since is not None:
            spent = max(0.0, at - self.since)
            if c.kind == "move":
                left[seat] = max(0.0, left[seat] - max(0.0, spent - c.seconds))
            elif c.kind == "game":
                left[seat] = max(0.0, left[seat] - spent) + c.increment
        timeouts = list(self.timeouts)
        timeouts[seat] = timeouts[seat] + 1 if timed_out else 0
        return replace(self, left=tuple(left), timeouts=tuple(timeouts), seat=None, since=None)

    def started(self, seat: int | None, at: float) -> Clock:
        """The clocks with ``seat``'s running from ``at`` (None: none runs)."""
        if seat is None or not self.control.timed:
            return replace(self, seat=None, since=None)
        return replace(self, seat=seat, since=at)

    def back(self, seat: int) -> Clock:
        """The clocks once ``seat``'s person took it back from the bot."""
        timeouts = list(self.timeouts)
        timeouts[seat] = 0
        return replace(self, timeouts=tuple(timeouts))

    def to_json(self) -> dict[str, Any]:
        """As stored, and as views show it (with the deadline)."""
        return {
            "control": self.control.to_json(),
            "left": [round(x, 3) for x in self.left],
            "timeouts": list(self.timeouts),
            "seat": self.seat,
            "since": self.since,
            "deadline": self.deadline(),
        }

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Clock:
        control = TimeControl.parse(
            {k: v for k, v in doc["control"].items() if k != "bot"}, doc["control"]["bot"]
        )
        return cls(control, tuple(doc["left"]), tuple(doc["timeouts"]), doc["seat"], doc["since"])
