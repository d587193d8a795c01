"""The value network: a small multilayer perceptron that predicts a seat's final score.

Its input is the game's observation for the seat evaluated (docs/observations.md, what
``Core.observe`` writes), multiplied entry by entry by ``scale``; its hidden layers are ReLU
units; its output is one float, the **predicted final score of that seat, in points**, so that
it stands in for the search's hand-written evaluation (``Strategy.evaluate_leaf``), which also
speaks in points.

A network is an ``.npz`` file (read without pickles) holding ``scale`` (one entry per
observation entry), ``w0, b0, w1, b1, ..., wK, bK`` (``w_i`` of shape (in, out), the last layer
with one output), every array stored as float16 and computed in float32, and ``meta``: a 0-d
string array of JSON with at least the keys of ``META_KEYS``. Arrays of other names are ignored,
so that a file may carry more (a policy head) for later readers. ``Net.value`` is the reference
forward pass; the compiled search runs the same one in C (``azul/core/_net.pxi``).

A **residual** network (meta ``"residual": true``; absent means false) predicts a correction
to the hand evaluation instead: its value is the hand evaluation's (``Core.evaluate``,
``Strategy.evaluate_leaf``) plus its output, so that a network that outputs 0 plays exactly as
the hand evaluation does.
"""

from __future__ import annotations

import itertools
import json
import os
import re
import zipfile
import zlib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import numpy as np

from azul.core.api import Game, State
from azul.core.errors import AzulError

META_KEYS = (
    "game",
    "players",
    "options",
    "observation_size",
    "generation",
    "command",
    "commit",
    "trained",
)
MAX_LAYERS = 8  # the compiled forward pass's limits (azul/core/_net.pxi)
MAX_WIDTH = 1024
_LAYER = re.compile(r"[wb](\d+)")

Layers = Sequence[tuple[np.ndarray, np.ndarray]]


class WeightsError(AzulError, ValueError):
    """A weights file that cannot be read, or that does not fit the game it is used for."""


@dataclass(eq=False)
class Net:
    """A value network in float32: ``scale`` and the layers' (w, b), with the file's ``meta``."""

    scale: np.ndarray
    layers: tuple[tuple[np.ndarray, np.ndarray], ...]
    meta: dict[str, Any]
    _compiled: dict[str, Any] = field(default_factory=dict, repr=False)

    @property
    def observation_size(self) -> int:
        return int(self.scale.shape[0])

    @property
    def hidden(self) -> tuple[int, ...]:
        """The widths of the hidden layers."""
        return tuple(int(w.shape[1]) for w, _ in self.layers[:-1])

    @property
    def residual(self) -> bool:
        """Whether the network's output is a correction added to the hand evaluation."""
        return bool(self.meta.get("residual", False))

    def value(self, obs: np.ndarray, hand: Any = None) -> np.ndarray:
        """The predicted final score (points) of the observations ``obs``: one observation
        (shape (size,)) gives a 0-d array, a batch (n, size) gives n values; float32. A
        residual network needs ``hand``, the hand evaluation of the same positions (one value
        per observation), and gives ``hand`` + its output, in float64 as the compiled search
        adds them."""
        out = self.forward(obs)
        if not self.residual:
            if hand is not None:
                raise WeightsError("this network is not residual: it takes no hand values")
            return out
        if hand is None:
            raise WeightsError("a residual network needs the hand evaluation's values (hand=)")
        hand = np.asarray(hand, np.float64)
        if hand.shape != out.shape:
            raise WeightsError(f"hand values of shape {hand.shape} for outputs of {out.shape}")
        total: np.ndarray = hand + out
        return total

    def forward(self, obs: np.ndarray) -> np.ndarray:
        """The network's own output for ``obs`` (float32), without any hand evaluation."""
        x = np.asarray(obs, np.float32) * self.scale
        for w, b in self.layers[:-1]:
            x = np.maximum(x @ w + b, np.float32(0))
        w, b = self.layers[-1]
        out: np.ndarray = (x @ w + b)[..., 0]
        return out

    def check(self, game: Game[Any]) -> None:
        """WeightsError unless this network was made for ``game``'s name, number of players
        and observation size."""
        size = game.info.observation_shape[0]
        if self.meta["game"] != game.name:
            raise WeightsError(f"the weights are for {self.meta['game']!r}, not {game.name!r}")
        if self.meta["players"] != game.num_players():
            raise WeightsError(
                f"the weights are for {self.meta['players']} players, not {game.num_players()}"
            )
        if self.observation_size != size:
            raise WeightsError(
                f"the weights read observations of {self.observation_size} entries; "
                f"{game.name} with {game.num_players()} players has {size}"
            )

    def evaluator(self, game: Game[Any]) -> Evaluator:
        """The network as a search evaluation of ``game``'s states: (state, seat) -> points."""
        self.check(game)
        return Evaluator(self, game)

    def __getstate__(self) -> dict[str, Any]:  # to helper processes: without the C arrays
        return {**self.__dict__, "_compiled": {}}

    def compiled(self, module: Any) -> Any:
        """The weights as C arrays for a compiled core's search (``module``: azul.native's),
        made once per core."""
        found = self._compiled.get(module.__name__)
        if found is None:
            c = np.ascontiguousarray  # any float arrays, as the C arrays want them
            found = module.Weights(
                c(self.scale, np.float32),
                [c(w, np.float32) for w, _ in self.layers],
                [c(b, np.float32) for _, b in self.layers],
                self.residual,
            )
            self._compiled[module.__name__] = found
        return found


class Evaluator:
    """``Net.value`` on the observation of a state, for the Python search's leaves."""

    def __init__(self, net: Net, game: Game[Any]):
        from azul.interop.observation import Observer

        self.net = net
        self.observer = Observer(game)
        self.hand = game.strategy().evaluate_leaf if net.residual else None

    def __call__(self, state: State, seat: int) -> float:
        out = float(self.net.forward(self.observer.set_from(state, seat)))
        return out if self.hand is None else self.hand(state, seat) + out


def save(
    path: str | os.PathLike[str], layers: Layers, scale: np.ndarray, meta: dict[str, Any]
) -> None:
    """Write a network to ``path`` (an .npz file, replaced whole): float16 arrays and the
    ``meta`` JSON. The network is checked as ``load`` checks it; nothing is written if it is
    wrong."""
    arrays: dict[str, Any] = {"scale": np.asarray(scale, np.float16)}
    for i, (w, b) in enumerate(layers):
        arrays[f"w{i}"] = np.asarray(w, np.float16)
        arrays[f"b{i}"] = np.asarray(b, np.float16)
    try:
        arrays["meta"] = np.array(json.dumps(meta, sort_keys=True))
    except (TypeError, ValueError) as e:
        raise WeightsError(f"{path}: the meta cannot be written as JSON ({e})") from None
    _net(arrays, str(path))  # raises WeightsError before anything is written
    target = Path(path)
    part = target.with_name(target.name + ".part")
    with open(part, "wb") as f:
        np.savez_compressed(f, **arrays)
    os.replace(part, target)


def load(source: str | os.PathLike[str] | IO[bytes], game: Game[Any] | None = None) -> Net:
    """The network in ``source`` (a path or a binary file), checked whole; with ``game``, also
    checked to fit it (``Net.check``). WeightsError names what is wrong."""
    where = getattr(source, "name", source)
    try:
        found = np.load(source, allow_pickle=False)
    except FileNotFoundError:
        raise WeightsError(f"{where}: no such weights file") from None
    except (OSError, ValueError, EOFError, zipfile.BadZipFile) as e:
        raise WeightsError(f"{where}: not a weights file ({e})") from None
    if not isinstance(found, np.lib.npyio.NpzFile):
        raise WeightsError(f"{where}: not a weights file (a .npy array, not an .npz)")
    try:
        with found:
            arrays = {name: found[name] for name in found.files}
    except (OSError, ValueError, EOFError, zipfile.BadZipFile, zlib.error) as e:
        raise WeightsError(f"{where}: a damaged weights file ({e})") from None
    net = _net(arrays, str(where))
    if game is not None:
        net.check(game)
    return net


def _net(arrays: dict[str, np.ndarray], where: str) -> Net:
    """The network of a file's arrays, every array and the meta checked."""
    for name in ("scale", "meta", "w0", "b0"):
        if name not in arrays:
            raise WeightsError(f"{where}: the array {name!r} is missing")
    meta = _meta(arrays["meta"], where)
    numbers = sorted({int(m.group(1)) for k in arrays if (m := _LAYER.fullmatch(k))})
    if numbers != list(range(len(numbers))):
        raise WeightsError(f"{where}: the layers are not numbered 0 to {len(numbers) - 1}")
    layers = []
    for i in numbers:
        for name in (f"w{i}", f"b{i}"):
            if name not in arrays:
                raise WeightsError(f"{where}: the array {name!r} is missing")
        layers.append((_floats(arrays, f"w{i}", where), _floats(arrays, f"b{i}", where)))
    scale = _floats(arrays, "scale", where)
    _check_shapes(scale, layers, where)
    if meta["observation_size"] != scale.shape[0]:
        raise WeightsError(
            f"{where}: meta says {meta['observation_size']} observation entries, "
            f"scale has {scale.shape[0]}"
        )
    return Net(scale, tuple(layers), meta)


def _meta(array: np.ndarray, where: str) -> dict[str, Any]:
    if array.shape != () or array.dtype.kind != "U":
        raise WeightsError(f"{where}: 'meta' is not a string of JSON")
    try:
        meta = json.loads(str(array))
    except json.JSONDecodeError as e:
        raise WeightsError(f"{where}: 'meta' is not JSON ({e})") from None
    if not isinstance(meta, dict):
        raise WeightsError(f"{where}: 'meta' is not a JSON object")
    missing = [k for k in META_KEYS if k not in meta]
    if missing:
        raise WeightsError(f"{where}: 'meta' lacks {', '.join(missing)}")
    for key in ("players", "observation_size"):
        if isinstance(meta[key], bool) or not isinstance(meta[key], int) or meta[key] < 1:
            raise WeightsError(f"{where}: meta {key} {meta[key]!r} is not a positive integer")
    if not isinstance(meta["game"], str):
        raise WeightsError(f"{where}: meta game {meta['game']!r} is not a name")
    if not isinstance(meta.get("residual", False), bool):
        raise WeightsError(f"{where}: meta residual {meta['residual']!r} is not true or false")
    return meta


def _floats(arrays: dict[str, np.ndarray], name: str, where: str) -> np.ndarray:
    array = arrays[name]
    if array.dtype.kind != "f":
        raise WeightsError(f"{where}: {name!r} holds {array.dtype}, not floats")
    out = np.ascontiguousarray(array, np.float32)
    if not np.isfinite(out).all():
        raise WeightsError(f"{where}: {name!r} holds a value that is not finite")
    return out


def _check_shapes(
    scale: np.ndarray, layers: list[tuple[np.ndarray, np.ndarray]], where: str
) -> None:
    if scale.ndim != 1 or scale.shape[0] == 0:
        raise WeightsError(f"{where}: 'scale' has shape {scale.shape}, not (observation size,)")
    if len(layers) > MAX_LAYERS:
        raise WeightsError(f"{where}: {len(layers)} layers, more than {MAX_LAYERS}")
    width = scale.shape[0]
    for i, (w, b) in enumerate(layers):
        last = i == len(layers) - 1
        if w.ndim != 2 or w.shape[0] != width:
            raise WeightsError(f"{where}: 'w{i}' has shape {w.shape}; its rows should be {width}")
        if b.shape != (w.shape[1],):
            raise WeightsError(f"{where}: 'b{i}' has shape {b.shape}, not ({w.shape[1]},)")
        if last and w.shape[1] != 1:
            raise WeightsError(f"{where}: the last layer has {w.shape[1]} outputs, not 1")
        if not last and not 1 <= w.shape[1] <= MAX_WIDTH:
            raise WeightsError(f"{where}: 'w{i}' has {w.shape[1]} units, more than {MAX_WIDTH}")
        width = w.shape[1]


def random_net(game: Game[Any], hidden: Sequence[int] = (64,), seed: int = 0, **meta: Any) -> Net:
    """A network of random weights for ``game`` (He initialisation, scale 1/8; its output in
    points is meaningless): for tests and speed measurements, never to play."""
    rng = np.random.default_rng(seed)
    size = game.info.observation_shape[0]
    widths = [size, *hidden, 1]
    layers = []
    for n_in, n_out in itertools.pairwise(widths):
        w = rng.standard_normal((n_in, n_out)) * np.sqrt(2 / n_in)
        b = rng.standard_normal(n_out) * 0.1
        layers.append((w.astype(np.float32), b.astype(np.float32)))
    info = {
        "game": game.name,
        "players": game.num_players(),
        "options": {},
        "observation_size": size,
        "generation": 0,
        "command": "random_net",
        "commit": "",
        "trained": "never: random weights",
    }
    return Net(np.full(size, 0.125, np.float32), tuple(layers), {**info, **meta})
