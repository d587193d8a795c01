"""What the operator of a server decides: limits, the bot levels offered, the component sets.

Clients only ever name a bot level or a component set from these lists; they never choose a
path, a number of processes or a thinking time.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from azul.core.errors import AzulError, OptionError
from azul.i18n import N_

# The bot levels, as bot specs: {time} is the level's seconds per move, capped by bot_time.
LEVELS: dict[str, tuple[str, float]] = {
    "random": ("random", 0.0),
    "greedy": ("greedy", 0.0),
    "heuristic": ("heuristic", 0.0),
    "mcts-fast": ("mcts:time={time},iterations={iterations}", 0.2),
    "mcts": ("mcts:time={time},iterations={iterations},scale=30,c=0.35", 0.5),
    "mcts-strong": ("mcts:time={time},iterations={iterations},scale=30,c=0.35", 1.0),
}
# what players call each level (the browser client uses the same words)
LEVEL_NAMES = {
    "random": N_("random bot"),
    "greedy": N_("greedy bot"),
    "heuristic": N_("heuristic bot"),
    "mcts-fast": N_("MCTS bot, quick"),
    "mcts": N_("MCTS bot"),
    "mcts-strong": N_("MCTS bot, strong"),
}
DEFAULT_LEVEL = "heuristic"  # a bot seat that names no level
DEFAULT_FILE = "default"  # the name of each file option's own file, offered by every server


@dataclass(frozen=True)
class Settings:
    """Limits with defaults for a small public server; ``azul serve --limit KEY=VALUE``."""

    max_body: int = 16 * 1024  # bytes of a request body or WebSocket message
    bot_time: float = 1.0  # most seconds a bot level thinks per move
    bot_iterations: int | None = None  # most search iterations per move (None: time only)
    bot_processes: int = 2  # processes where bots think (hints: one fewer, of lower priority)
    creates_per_minute: int = 20  # new games and seats joined, per client address
    hints_per_minute: int = 120  # per client address (a household shares one address)
    hints_per_game: int = 30  # per game and minute, asked with a seat's token
    hints_queued: int = 8  # hints waiting for their process at most (then 429)
    hints_per_client: int = 2  # hints from one address waiting or thinking at most
    reviews_per_minute: int = 120  # review requests (asked, then looked at), per client address
    reviews_running: int = 2  # reviews being made at once (then 429); one per address
    review_iterations: int = 2000  # search iterations per decision of a review
    review_time: float = 2.0  # most seconds of search per decision of a review
    drawings_per_minute: int = 600  # SVG drawings asked for, per client address (a fast game
    # against bots asks for two a second; the drawings are cached and their queue bounded)
    drawing_processes: int = 1  # processes where drawings are made
    drawings_queued: int = 16  # drawings waiting to be made at most (then 429)
    drawings_kept: int = 256  # drawings kept for the next client who asks
    sockets_per_game: int = 64  # live connections to one game
    sockets_per_client: int = 32  # live connections from one address
    idle_seconds: float = 600.0  # a table nobody watches leaves memory after this
    bot_lease: float = 20.0  # seconds a process's claim on a bot turn lasts unless renewed
    bot_sweep: float = 5.0  # seconds between looks for bot turns no process holds
    max_tables: int = 5000  # tables kept in memory at most (the idle ones go first)
    lobby_games: int = 50  # games listed in the lobby
    max_connections: int = 1000  # open connections of all kinds at once (then 503)
    connections_per_client: int = 64  # open connections from one address, of all kinds
    read_seconds: float = 10.0  # to send a whole request, headers and body (then 408)
    # the files offered for games' file options (``Game.file_options``): by kind, then name
    files: dict[str, dict[str, str]] = field(default_factory=dict)

    def with_limits(self, pairs: list[tuple[str, Any]]) -> Settings:
        """These settings with some limits changed, checked: OptionError names a bad one."""
        known = {f.name: f for f in dataclasses.fields(self) if f.name != "files"}
        changes: dict[str, Any] = {}
        for key, value in pairs:
            if key not in known:
                raise OptionError(
                    "unknown limit {key!r}: use one of {names}", key=key, names=", ".join(known)
                )
            default = getattr(Settings(), key)
            if value is None and key == "bot_iterations":
                changes[key] = None
                continue
            wanted = float if isinstance(default, float) else int
            if isinstance(value, bool) or not isinstance(value, int | float) or value <= 0:
                raise OptionError(
                    "limit {key}: {value!r} is not a positive number", key=key, value=value
                )
            changes[key] = wanted(value)
        return dataclasses.replace(self, **changes)

    def with_files(self, kind: str, pairs: list[tuple[str, str]]) -> Settings:
        """These settings with more files of a kind to offer, by name: each file must exist."""
        offered = dict(self.files.get(kind, {}))
        for name, path in pairs:
            if not Path(path).is_file():
                raise OptionError(
                    "{kind} {name}: {path} is not a file", kind=kind, name=name, path=path
                )
            offered[name] = str(Path(path).resolve())
        return dataclasses.replace(self, files={**self.files, kind: offered})

    def level(self, name: str) -> str:
        """The bot spec of a level, within the caps."""
        if name not in LEVELS:
            raise AzulError(
                "unknown bot level {level!r}: use one of {levels}",
                level=name,
                levels=", ".join(LEVELS),
            )
        spec, seconds = LEVELS[name]
        iterations = "null" if self.bot_iterations is None else self.bot_iterations
        return spec.format(time=min(seconds, self.bot_time), iterations=iterations)

    def file(self, kind: str, name: Any) -> str | None:
        """The path of the file of ``kind`` a client names (None: the game's own file)."""
        offered: dict[str, str | None] = {DEFAULT_FILE: None, **self.files.get(kind, {})}
        if not isinstance(name, str) or name not in offered:
            raise AzulError(
                "unknown {kind} {name!r}: this server has {names}",
                kind=kind,
                name=name if isinstance(name, str) else str(type(name).__name__),
                names=", ".join(offered),
            )
        return offered[name]
