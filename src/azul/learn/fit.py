"""Fitting the value network: an MLP (ReLU hidden layers, one linear output: the seat's final
score in points) trained by Adam on the squared error, in numpy.

The inputs are multiplied by a per-feature ``scale`` (1 / the spread seen in the training
data, at most 1); the targets are standardised while training and the output layer is rescaled
to points at the end. After every epoch the whole state of the fit (weights, Adam's moments,
the generator, the curve) is written to a checkpoint, so a killed fit resumes at the next
epoch and ends exactly as an uninterrupted one. The epoch with the lowest held-out error is
the one kept (the held-out games are checked four times an epoch).
"""

from __future__ import annotations

import itertools
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from azul.learn.dataset import Samples

Layers = list[tuple[np.ndarray, np.ndarray]]  # (w (in, out), b (out,)) per layer
CHECKS = 4  # held-out checks per epoch: with few games the best point comes early


def feature_scale(x: np.ndarray) -> np.ndarray:
    """1 / the spread (standard deviation) of each feature, never above 1: 0/1 flags stay as
    they are, counts and scores get a spread of about 1 (1 where a feature never changes)."""
    sd = x.astype(np.float32).std(axis=0)
    return np.minimum(1, 1 / np.where(sd > 0, sd, 1)).astype(np.float32)


def initial(size: int, hidden: tuple[int, ...], rng: np.random.Generator) -> Layers:
    """He-initialised weights, zero biases."""
    sizes = [size, *hidden, 1]
    return [
        (
            (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32),
            np.zeros(b, np.float32),
        )
        for a, b in itertools.pairwise(sizes)
    ]


def forward(layers: Layers, x: np.ndarray) -> np.ndarray:
    """The network's outputs (one per row of ``x``, inputs already scaled)."""
    h = x
    for i, (w, b) in enumerate(layers):
        h = h @ w + b
        if i < len(layers) - 1:
            h = np.maximum(h, 0)
    return h[:, 0]


def gradients(layers: Layers, x: np.ndarray, y: np.ndarray) -> tuple[float, Layers]:
    """The mean squared error over a batch and its gradient for every layer."""
    acts = [x]
    for i, (w, b) in enumerate(layers):
        h = acts[-1] @ w + b
        acts.append(np.maximum(h, 0) if i < len(layers) - 1 else h)
    err = acts[-1][:, 0] - y
    d = (2 / len(y)) * err[:, None]
    grads: Layers = []
    for i in range(len(layers) - 1, -1, -1):
        w = layers[i][0]
        grads.append((acts[i].T @ d, d.sum(0)))
        if i:
            d = (d @ w.T) * (acts[i] > 0)
    return float((err**2).mean()), grads[::-1]


def predict(layers: Layers, scale: np.ndarray, x: np.ndarray, chunk: int = 8192) -> np.ndarray:
    """Outputs for raw observations ``x`` (any float type), in chunks to bound the memory."""
    parts = [
        forward(layers, x[i : i + chunk].astype(np.float32) * scale)
        for i in range(0, len(x), chunk)
    ]
    return np.concatenate(parts) if parts else np.zeros(0, np.float32)


def rmse(layers: Layers, scale: np.ndarray, data: Samples) -> float:
    """Root mean squared error in points."""
    return float(np.sqrt(np.mean((predict(layers, scale, data.x) - data.y) ** 2)))


def to_points(layers: Layers, mean: float, sd: float) -> Layers:
    """The layers with the output rescaled from standardised targets to points."""
    w, b = layers[-1]
    return [*layers[:-1], (w * sd, b * sd + mean)]


def half(layers: Layers) -> Layers:
    """The layers as they are stored (float16), read back as float32."""
    return [(w.astype(np.float16).astype(np.float32), b.astype(np.float16).astype(np.float32))
            for w, b in layers]  # fmt: skip


class Fit:
    """The state of one fit, saved and loaded whole as a checkpoint."""

    def __init__(self, data: Samples, hidden: tuple[int, ...], seed: int, lr: float):
        self.rng = np.random.default_rng(seed)
        self.scale = feature_scale(data.x)
        self.mean, self.sd = float(data.y.mean()), float(max(data.y.std(), 1e-3))
        self.layers = initial(data.x.shape[1], hidden, self.rng)
        self.moments = [(np.zeros_like(w), np.zeros_like(b)) for w, b in self.layers] * 2
        self.steps, self.epoch, self.lr = 0, 0, lr
        self.best: tuple[float, Layers] = (float("inf"), self.layers)
        self.curve: list[dict[str, float]] = []

    def epoch_pass(
        self, data: Samples, batch: int, decay: float, check: Callable[[], None]
    ) -> float:
        """One pass over ``data`` in shuffled minibatches, calling ``check`` after every
        quarter of it; the mean training loss."""
        order = self.rng.permutation(len(data))
        starts = range(0, len(data), batch)
        quarters = {starts[(len(starts) * k) // CHECKS - 1] for k in range(1, CHECKS + 1)}
        total = 0.0
        for start in starts:
            rows = np.sort(order[start : start + batch])
            x = data.x[rows].astype(np.float32) * self.scale
            loss, grads = gradients(self.layers, x, (data.y[rows] - self.mean) / self.sd)
            total += loss * len(rows)
            self._adam(grads, decay)
            if start in quarters:
                check()
        self.epoch += 1
        return total / len(data)

    def _adam(self, grads: Layers, decay: float) -> None:
        self.steps += 1
        n = len(self.layers)
        for i, ((w, b), (gw, gb)) in enumerate(zip(self.layers, grads, strict=True)):
            new = []
            for k, (p, g) in enumerate(((w, gw + decay * w), (b, gb))):
                m = 0.9 * self.moments[i][k] + 0.1 * g
                v = 0.999 * self.moments[n + i][k] + 0.001 * g * g
                self.moments[i] = _put(self.moments[i], k, m)
                self.moments[n + i] = _put(self.moments[n + i], k, v)
                m_hat, v_hat = m / (1 - 0.9**self.steps), v / (1 - 0.999**self.steps)
                new.append((p - self.lr * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32))
            self.layers[i] = (new[0], new[1])

    def save(self, path: Path) -> None:
        """Write the checkpoint whole or not at all."""
        arrays: dict[str, Any] = {"scale": self.scale}
        for name, layers in (("layer", self.layers), ("best", self.best[1])):
            for i, (w, b) in enumerate(layers):
                arrays[f"{name}_w{i}"], arrays[f"{name}_b{i}"] = w, b
        for i, (a, b) in enumerate(self.moments):
            arrays[f"moment_a{i}"], arrays[f"moment_b{i}"] = a, b
        facts = {
            "mean": self.mean, "sd": self.sd, "steps": self.steps, "epoch": self.epoch,
            "lr": self.lr, "best_loss": self.best[0], "curve": self.curve,
            "rng": self.rng.bit_generator.state,
        }  # fmt: skip
        arrays["facts"] = np.array(json.dumps(facts))
        tmp = path.with_name(path.stem + ".tmp.npz")
        np.savez(tmp, **arrays)
        os.replace(tmp, path)

    def load(self, path: Path) -> None:
        with np.load(path, allow_pickle=False) as f:
            facts = json.loads(str(f["facts"]))
            n = len(self.layers)
            self.layers = [(f[f"layer_w{i}"], f[f"layer_b{i}"]) for i in range(n)]
            best = [(f[f"best_w{i}"], f[f"best_b{i}"]) for i in range(n)]
            self.moments = [(f[f"moment_a{i}"], f[f"moment_b{i}"]) for i in range(2 * n)]
            self.scale = f["scale"]
        self.mean, self.sd, self.steps = facts["mean"], facts["sd"], facts["steps"]
        self.epoch, self.lr, self.curve = facts["epoch"], facts["lr"], facts["curve"]
        self.best = (facts["best_loss"], best)
        self.rng.bit_generator.state = facts["rng"]


def _put(pair: tuple[np.ndarray, np.ndarray], k: int, value: np.ndarray) -> Any:
    return (value, pair[1]) if k == 0 else (pair[0], value)


def fit(
    train: Samples,
    test: Samples,
    settings: dict[str, Any],
    checkpoint: Path,
    tick: Callable[[str], None] = lambda what: None,
) -> tuple[Layers, np.ndarray, list[dict[str, float]]]:
    """Train on ``train``, keep the epoch of lowest error on ``test``; resumes from
    ``checkpoint`` if it exists. ``settings``: hidden, seed, lr, decay, batch, epochs.
    Returns the layers (outputs in points), the feature scale and the curve (one row per
    epoch: training and held-out errors in points)."""
    state = Fit(train, tuple(settings["hidden"]), settings["seed"], settings["lr"])
    if checkpoint.exists():
        state.load(checkpoint)
    held = float("inf")

    def check() -> None:
        nonlocal held
        held = rmse(to_points(state.layers, state.mean, state.sd), state.scale, test)
        if held < state.best[0]:
            state.best = (held, [(w.copy(), b.copy()) for w, b in state.layers])

    while state.epoch < settings["epochs"]:
        loss = state.epoch_pass(train, settings["batch"], settings["decay"], check)
        state.curve.append(
            {"epoch": state.epoch, "train_rmse": float(np.sqrt(loss)) * state.sd, "rmse": held}
        )
        state.save(checkpoint)
        tick("epoch")
    return to_points(state.best[1], state.mean, state.sd), state.scale, state.curve
