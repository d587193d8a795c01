"""The settings of a training run, checked once and stored in the run's folder (config.json).

A run is resumed with the settings it was started with: settings given again must agree with the
stored ones (``merge``), so that a resumed run is the run that was started.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from azul import load_game
from azul.core.errors import AzulError, OptionError

CONFIG = "config.json"


@dataclass(frozen=True)
class Config:
    """What a run plays, trains and gates (every count per generation)."""

    game: str
    players: int = 2
    options: dict[str, Any] = field(default_factory=dict)  # other game options
    seed: int = 0
    generations: int = 20  # generation 0 plays on the hand evaluation, then one network each
    games: int = 200  # self-play games per generation
    iterations: int = 200  # MCTS iterations per move, self-play and gates
    explore: int = 20  # decisions of each game drawn from the visit counts
    window: int = 4  # the generations of games a network is trained on
    hidden: tuple[int, ...] = (64, 64)  # ReLU units per hidden layer
    epochs: int = 20
    batch: int = 256
    lr: float = 1e-3
    decay: float = 1e-4  # weight decay
    holdout: float = 0.1  # share of the games held out to choose the epoch
    gate_deals: int = 20  # mirrored deals per gate match (each played from every seat)
    accept: float = 0.55  # win rate over the current best a candidate needs to replace it
    residual: bool = True  # the networks learn corrections to the hand evaluation
    # the hand-evaluated opponent's iterations in gates (None: ``iterations``): more where a
    # network slows the search, so that the gate against the hand evaluation is at equal time
    hand_iterations: int | None = None

    def __post_init__(self) -> None:
        _positive(self, "players", "generations", "games", "iterations", "window", "epochs")
        _positive(self, "batch", "gate_deals")
        _at_least_zero(self, "seed", "explore")
        if not self.hidden or any(_bad_int(h) or h < 1 for h in self.hidden):
            raise OptionError(f"hidden {list(self.hidden)!r} is not a list of positive sizes")
        for name, low, high in (("lr", 0, 1), ("decay", 0, 1), ("holdout", 0, 0.5)):
            value = getattr(self, name)
            if not isinstance(value, int | float) or not low <= value < high or value != value:
                raise OptionError(f"{name} {value!r} is not a number in [{low}, {high})")
        if not isinstance(self.accept, int | float) or not 0 <= self.accept <= 1:
            raise OptionError(f"accept {self.accept!r} is not a win rate between 0 and 1")
        if not isinstance(self.residual, bool):
            raise OptionError(f"residual {self.residual!r} is not true or false")
        if self.hand_iterations is not None and (
            _bad_int(self.hand_iterations) or self.hand_iterations < 1
        ):
            raise OptionError(f"hand_iterations {self.hand_iterations!r} is not a positive integer")
        if self.lr == 0:
            raise OptionError("lr 0 would never change the network")
        load_game(self.game, players=self.players, **self.options)  # names a bad game or option

    def game_options(self) -> dict[str, Any]:
        return {"players": self.players, **self.options}

    def to_json(self) -> dict[str, Any]:
        doc = asdict(self)
        doc["hidden"] = list(self.hidden)
        return doc

    @classmethod
    def from_json(cls, doc: dict[str, Any]) -> Config:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(doc) - known)
        if unknown:
            raise OptionError(f"unknown run settings: {', '.join(unknown)}")
        doc = dict(doc)
        if "hidden" in doc:
            if not isinstance(doc["hidden"], list | tuple):
                raise OptionError(f"hidden {doc['hidden']!r} is not a list of positive sizes")
            doc["hidden"] = tuple(doc["hidden"])
        return cls(**doc)


def _bad_int(value: Any) -> bool:
    return isinstance(value, bool) or not isinstance(value, int)


def _positive(config: Config, *names: str) -> None:
    for name in names:
        value = getattr(config, name)
        if _bad_int(value) or value < 1:
            raise OptionError(f"{name} {value!r} is not a positive integer")


def _at_least_zero(config: Config, *names: str) -> None:
    for name in names:
        value = getattr(config, name)
        if _bad_int(value) or value < 0:
            raise OptionError(f"{name} {value!r} is not an integer ≥ 0")


def merge(folder: Path, given: dict[str, Any]) -> Config:
    """The run's settings: those stored in ``folder`` (a run being resumed), which the
    ``given`` ones must agree with, or a new run's from ``given`` (stored now)."""
    path = folder / CONFIG
    if not path.exists():
        config = Config.from_json(given)
        folder.mkdir(parents=True, exist_ok=True)
        write_json(path, config.to_json())
        return config
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(doc, dict):  # runs stored before residual networks resume as they were
            doc.setdefault("residual", False)
        stored = Config.from_json(doc)
    except (OSError, ValueError) as e:
        raise AzulError(f"{path} is not a run's settings ({e})") from None
    wanted = Config.from_json({**stored.to_json(), **given}).to_json()
    differ = [k for k, v in stored.to_json().items() if wanted[k] != v]
    if differ:
        shown = ", ".join(f"{k}={stored.to_json()[k]!r} (given {wanted[k]!r})" for k in differ)
        advice = "resume it with its own settings or start another run in another folder"
        raise OptionError(f"the run in {folder} was started with {shown}: {advice}")
    return stored


def write_json(path: Path, doc: Any) -> None:
    """Write ``doc`` to ``path`` whole or not at all (a killed run leaves no half file)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    tmp.replace(path)
