"""The run's self-play games on disk (one ``.npz`` per game) and the training samples made
from them: one sample per decision position and seat, the seat's observation and its final
score."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from azul.core.errors import AzulError

KEYS = ("obs", "mover", "scores")  # and "action" (the moves) and "seconds" (the time taken)
HAND = "hand"  # each seat's hand evaluation per position: games played before it may lack it


def generation_folder(run: Path, generation: int) -> Path:
    return run / f"gen-{generation:03d}"


def game_path(run: Path, generation: int, index: int) -> Path:
    return generation_folder(run, generation) / "games" / f"{index:05d}.npz"


def save_game(path: Path, arrays: dict[str, np.ndarray]) -> None:
    """Write one game whole or not at all (the temporary file is renamed at the end)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.stem + ".tmp.npz")
    np.savez_compressed(tmp, allow_pickle=False, **arrays)
    os.replace(tmp, path)


def load_game_file(path: Path) -> dict[str, np.ndarray]:
    try:
        with np.load(path, allow_pickle=False) as f:
            return {k: f[k] for k in (*KEYS, "action", HAND) if k in KEYS or k in f.files}
    except (OSError, KeyError, ValueError) as e:
        raise AzulError(f"{path} is not a self-play game ({e})") from None


def finished(run: Path, generation: int, games: int) -> list[int]:
    """The indices of the generation's games already on disk."""
    return [i for i in range(games) if game_path(run, generation, i).exists()]


@dataclass
class Samples:
    """Observations (float16, one row per position and seat) and their targets (float32):
    the final scores, or for a residual network the final score less the hand evaluation."""

    x: np.ndarray
    y: np.ndarray

    def __len__(self) -> int:
        return len(self.y)


def samples(paths: list[Path], residual: bool = False) -> Samples:
    """Every position of the games at ``paths`` from every seat, with that seat's score.

    ``residual``: the score less the seat's hand evaluation there, less the mean of that over
    the seats of the position. The search reads only each seat's lead over the others, which a
    correction common to every seat leaves unchanged, while it is most of the residual's spread
    (the hand evaluation gains on the final score as the game goes on): centred, the fit spends
    itself on the differences between seats. On 300 Summer Pavilion games the network learnt
    from the centred target won its gate against the hand evaluation, 29.5 of 40, where the one
    learnt from the plain residual lost it, 16 of 40."""
    xs, ys = [], []
    for path in paths:
        game = load_game_file(path)
        obs, scores = game["obs"], game["scores"].astype(np.float64)
        positions, seats = obs.shape[:2]
        xs.append(obs.reshape(positions * seats, -1))
        target = np.tile(scores, (positions, 1))
        if residual:
            if HAND not in game:
                raise AzulError(f"{path} has no hand values to train a residual network on")
            target = (target - game[HAND]).astype(np.float32)
            target -= target.mean(axis=1, keepdims=True)
        ys.append(target.reshape(-1).astype(np.float32))
    if not xs:
        raise AzulError("there are no games to train on")
    return Samples(np.concatenate(xs), np.concatenate(ys))


def split(
    run: Path,
    generations: list[int],
    games: int,
    holdout: float,
    seed: int,
    residual: bool = False,
) -> tuple[Samples, Samples]:
    """The samples of the window's games, a share ``holdout`` of the games held out (whole
    games, so that no position of a held-out game is trained on)."""
    paths = [game_path(run, g, i) for g in generations for i in range(games)]
    missing = [p for p in paths if not p.exists()]
    if missing:
        raise AzulError(f"{len(missing)} games of the window are missing, e.g. {missing[0]}")
    order = np.random.default_rng(seed).permutation(len(paths))
    held = max(1, round(holdout * len(paths))) if holdout else 0
    if held >= len(paths):
        raise AzulError("every game would be held out: play more games or hold out fewer")
    train = samples([paths[i] for i in sorted(order[held:])], residual)
    test = samples([paths[i] for i in sorted(order[:held])], residual) if held else train
    return train, test
