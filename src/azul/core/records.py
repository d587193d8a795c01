"""Game records: JSON lines, a header (game, options, seed) then one line per action.

A record holds enough to replay the identical game: with the state's own generator the seed gives
every draw; with ``explicit_chance`` the draws are lines of their own (player ``"chance"``).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from azul.core.api import CHANCE, Game, State
from azul.core.errors import AzulError, RecordError
from azul.core.registry import load_game

FORMAT = "azul-record"
VERSION = 1


@dataclass
class Record:
    """A game as its options, seed and actions (ids and notation)."""

    game: str
    options: dict[str, Any]
    seed: int | None  # None when every draw is a line of the record (explicit chance)
    actions: list[int] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)
    players: list[int] = field(default_factory=list)
    result: list[int] | None = None
    seeded: bool = True  # False: the draws were the operating system's, nobody could know them

    def to_lines(self) -> list[str]:
        header = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "options": self.options,
            "seed": self.seed,
            "seeded": self.seeded,
        }
        lines = [json.dumps(header)]
        for ply, (p, a, m) in enumerate(
            zip(self.players, self.actions, self.moves, strict=True), 1
        ):
            who: int | str = "chance" if p == CHANCE else p
            lines.append(json.dumps({"ply": ply, "player": who, "action": a, "move": m}))
        if self.result is not None:
            lines.append(json.dumps({"scores": self.result}))
        return lines

    def save(self, path: str | Path) -> None:
        Path(path).write_text("\n".join(self.to_lines()) + "\n", encoding="utf-8")


def record_of(state: State, seed: int) -> Record:
    """The record of ``state``'s game, started with ``seed``: its history replayed for the moves."""
    game = state.game
    replay = load_game(game.name, **game.options).new_initial_state(seed)
    rec = Record(game.name, dict(game.options), seed)
    for a in state.history():
        rec.players.append(replay.current_player())
        rec.moves.append(replay.action_to_string(a))
        rec.actions.append(a)
        replay.apply_action(a)
    if replay.is_terminal():
        rec.result = replay.scores()
    return rec


def load_record(path: str | Path) -> Record:
    """Read a record file, checking its shape; RecordError names the line that is wrong."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"cannot read {path}: {e.strerror}") from None
    return parse_record(text.splitlines())


def parse_record(lines: list[str]) -> Record:
    rows = []
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as e:
            raise RecordError(f"line {i}: not valid JSON ({e.msg})") from None
        if not isinstance(row, dict):
            raise RecordError(f"line {i}: expected a JSON object")
        rows.append((i, row))
    if not rows:
        raise RecordError("the record is empty")
    _, head = rows[0]
    if head.get("format") != FORMAT:
        raise RecordError(f"line 1: format is {head.get('format')!r}, expected {FORMAT!r}")
    if head.get("version") != VERSION:
        raise RecordError(f"line 1: version {head.get('version')!r} is not supported")
    options = head.get("options", {})
    if not isinstance(head.get("game"), str) or not isinstance(options, dict):
        raise RecordError("line 1: needs 'game' (text) and 'options' (an object)")
    seed = head.get("seed")
    if seed is None and options.get("explicit_chance") is True:
        pass  # every draw is a line of its own
    elif isinstance(seed, bool) or not isinstance(seed, int):
        raise RecordError(f"line 1: seed {seed!r} is not an integer")
    seeded = head.get("seeded", True)
    if not isinstance(seeded, bool):
        raise RecordError(f"line 1: seeded {seeded!r} is not true or false")
    rec = Record(head["game"], options, seed, seeded=seeded)
    for i, row in rows[1:]:
        if "scores" in row and "action" not in row:
            rec.result = row["scores"]
            continue
        a = row.get("action")
        if isinstance(a, bool) or not isinstance(a, int):
            raise RecordError(f"line {i}: 'action' {a!r} is not an integer")
        who = row.get("player")
        if who == "chance":
            who = CHANCE
        elif isinstance(who, bool) or not isinstance(who, int) or who < 0:
            raise RecordError(f"line {i}: 'player' {who!r} is not a seat number or 'chance'")
        rec.actions.append(a)
        rec.moves.append(str(row.get("move", "")))
        rec.players.append(who)
    return rec


def replay(rec: Record) -> Iterator[tuple[State, int | None]]:
    """Yield (state before the action, action) for each action, then (final state, None).

    Each yielded state is the live one: clone it to keep it. Raises RecordError where the
    record stops agreeing with the rules (an illegal action, or a move string that differs).
    """
    try:
        game: Game[Any] = load_game(rec.game, **rec.options)
        state = game.new_initial_state(rec.seed or 0)
    except AzulError as e:
        raise RecordError(f"header: {e}") from None
    for ply, a in enumerate(rec.actions, 1):
        yield state, a
        try:
            expected = state.action_to_string(a)
            if rec.moves[ply - 1] and rec.moves[ply - 1] != expected:
                raise RecordError(
                    f"ply {ply}: the record says {rec.moves[ply - 1]!r}, action {a} is {expected!r}"
                )
            state.apply_action(a)
        except AzulError as e:
            if isinstance(e, RecordError):
                raise
            raise RecordError(f"ply {ply}: {e}") from None
    yield state, None


def final_state(rec: Record) -> State:
    """Replay a whole record and return the final position."""
    for state, _ in replay(rec):  # noqa: B007 - the last one is the answer
        pass
    return state
