"""The training curve: one row per generation, read from the run's folder (games, positions,
games per hour, the fit's errors, the gates' win rates with their intervals), and its plot."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from azul.learn import dataset
from azul.learn.config import Config


def rows(run: Path, config: Config) -> list[dict[str, Any]]:
    """A row for every generation with games or a network on disk."""
    out = []
    for g in range(config.generations + 1):
        row: dict[str, Any] = {"generation": g}
        row.update(_games(run, g, config.games))
        folder = dataset.generation_folder(run, g)
        if (folder / "weights.npz").exists():
            with np.load(folder / "weights.npz", allow_pickle=False) as f:
                trained = json.loads(str(f["meta"]))["trained"]
            row["rmse"] = trained["rmse"]
            if "hand_rmse" in trained:
                row["hand_rmse"] = trained["hand_rmse"]
            row["samples"] = trained["samples"]
        if (folder / "gate.json").exists():
            row["gate"] = json.loads((folder / "gate.json").read_text(encoding="utf-8"))
        if len(row) > 1:
            out.append(row)
    return out


def _games(run: Path, g: int, games: int) -> dict[str, Any]:
    paths = [dataset.game_path(run, g, i) for i in dataset.finished(run, g, games)]
    if not paths:
        return {}
    positions, seconds = 0, 0.0
    for path in paths:
        with np.load(path, allow_pickle=False) as f:
            positions += len(f["mover"])
            seconds += float(f["seconds"]) if "seconds" in f else 0.0
    row: dict[str, Any] = {"games": len(paths), "positions": positions}
    if seconds:
        row["games_per_hour"] = round(3600 * len(paths) / seconds, 1)
    return row


def plot(path: Path, curve: list[dict[str, Any]]) -> bool:
    """Draw the held-out error and the gates' win rates by generation (needs matplotlib, the
    plot extra); whether a plot was written."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    fig, (error, wins) = plt.subplots(1, 2, figsize=(10, 4))
    fitted = [r for r in curve if "rmse" in r]
    error.plot([r["generation"] for r in fitted], [r["rmse"] for r in fitted], marker="o",
               label="network")  # fmt: skip
    hand = [r for r in fitted if "hand_rmse" in r]
    if hand:
        x, y = [r["generation"] for r in hand], [r["hand_rmse"] for r in hand]
        error.plot(x, y, marker="x", linestyle="--", label="hand evaluation alone")
        error.legend()
    error.set(xlabel="generation", ylabel="held-out error (points)", title="value network")
    for name in ("hand", "previous"):
        gated = [r for r in curve if name in r.get("gate", {})]
        if gated:
            x = [r["generation"] for r in gated]
            y = [r["gate"][name]["win_rate"] for r in gated]
            low = [v - r["gate"][name]["low"] for v, r in zip(y, gated, strict=True)]
            high = [r["gate"][name]["high"] - v for v, r in zip(y, gated, strict=True)]
            wins.errorbar(x, y, yerr=[low, high], marker="o", capsize=3, label=f"vs {name}")
    wins.axhline(0.5, color="grey", linewidth=0.8)
    wins.set(xlabel="generation", ylabel="win rate (95% interval)", ylim=(0, 1), title="gates")
    wins.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return True
