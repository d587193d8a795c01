"""The generations loop of a training run, resumable at any point.

Generation 0's games are played by the compiled MCTS on the hand evaluation. Then, for each
generation g = 1, 2, ...: a candidate network is trained on the games of the last ``window``
generations, gated against the current best (the network that plays the games) and against the
hand evaluation, and becomes the best if it wins at least ``accept`` of its gate against it;
then the best plays generation g's games.

Everything lands in the run's folder as soon as it is done: each game (gen-NNN/games), each
epoch's checkpoint, each gate game (gen-NNN/gate-*.jsonl), each network (gen-NNN/weights.npz).
Every game and every gate game is a function of its seed, so after a kill the same command
skips what is on disk and continues with exactly what an uninterrupted run would have done.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from azul import load_game
from azul.core.errors import AzulError
from azul.learn import dataset, fit, gate, net, selfplay, workers
from azul.learn.command import reproduce
from azul.learn.config import Config, write_json
from azul.learn.curve import plot, rows

HAND = 0  # the "best" generation before any network: the hand evaluation
Tick = Callable[[str], None]


def derive(*keys: int) -> int:
    """A 31-bit seed for one purpose of the run (numpy's SeedSequence of the keys)."""
    return int(np.random.SeedSequence(list(keys)).generate_state(1)[0] >> 1)


class Run:
    """One run in ``folder``: ``go()`` plays, trains and gates until the last generation."""

    def __init__(
        self,
        folder: Path,
        config: Config,
        backend: str = "local",
        workers: int = 1,
        address: str | None = None,
        progress: bool = True,
        tick: Tick = lambda what: None,
    ):
        workers_check(backend, workers)
        self.folder, self.config = folder, config
        self.backend, self.workers, self.address = backend, workers, address
        self.progress, self.tick = progress, tick
        self.options = config.game_options()
        self.size = load_game(config.game, **self.options).info.observation_shape[0]

    def go(self) -> list[dict[str, Any]]:
        """Continue the run to its end; the training curve (one row per generation)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        best = HAND
        self._games(0, best)
        for g in range(1, self.config.generations + 1):
            self._note(g, "fit", best)
            self._fit(g)
            self._note(g, "gate", best)
            if self._gate(g, best):
                best = g
            if g < self.config.generations:
                self._games(g, best)
        self._note(self.config.generations, "done", best)
        curve = rows(self.folder, self.config)
        write_json(self.folder / "curve.json", curve)
        plot(self.folder / "curve.png", curve)
        return curve

    def weights(self, g: int) -> Path:
        return dataset.generation_folder(self.folder, g) / "weights.npz"

    def _note(self, g: int, phase: str, best: int) -> None:
        write_json(
            self.folder / "progress.json",
            {"generation": g, "phase": phase, "best": best, "updated": time.time()},
        )

    # -- self-play -----------------------------------------------------------------------
    def _games(self, g: int, best: int) -> None:
        self._note(g, "games", best)
        c = self.config
        weights = None if best == HAND else str(self.weights(best))
        todo = [
            (i, self._job(g, i, weights))
            for i in range(c.games)
            if not dataset.game_path(self.folder, g, i).exists()
        ]
        bar = self._bar(f"generation {g} self-play", c.games, c.games - len(todo))

        def done(i: int, arrays: dict[str, np.ndarray]) -> None:
            dataset.save_game(dataset.game_path(self.folder, g, i), arrays)
            bar.update(1)
            self.tick("game")

        try:
            workers.run(timed_play, todo, done, self.backend, self.workers, self.address)
        finally:
            bar.close()

    def _job(self, g: int, i: int, weights: str | None) -> selfplay.Job:
        """The job of generation ``g``'s game ``i``, played on ``weights``."""
        c = self.config
        options = tuple(sorted(self.options.items()))
        return selfplay.Job(c.game, options, derive(c.seed, g, 0, i), c.iterations, c.explore,
                            weights)  # fmt: skip

    def _hand_values(self, g: int) -> None:
        """Give generation ``g``'s games recorded without hand values their values (and their
        moves, if they lack them too), by replaying each game (each file rewritten whole)."""
        for i in range(self.config.games):
            path = dataset.game_path(self.folder, g, i)
            if not path.exists():
                continue
            with np.load(path, allow_pickle=False) as f:
                if dataset.HAND in f.files:
                    continue
                arrays = {k: f[k] for k in f.files}
            job = self._job(g, i, None)
            arrays.setdefault("action", selfplay.moves(job, arrays))  # kept from now on
            arrays[dataset.HAND] = selfplay.replay_hand(job, arrays)
            dataset.save_game(path, arrays)

    # -- training ------------------------------------------------------------------------
    def _fit(self, g: int) -> None:
        path = self.weights(g)
        if path.exists():
            return
        c = self.config
        window = list(range(max(0, g - c.window), g))
        if c.residual:
            for old in window:
                self._hand_values(old)
        train, test = dataset.split(self.folder, window, c.games, c.holdout, derive(c.seed, g, 1),
                                    c.residual)  # fmt: skip
        folder = dataset.generation_folder(self.folder, g)
        folder.mkdir(parents=True, exist_ok=True)
        settings = {
            "hidden": c.hidden, "seed": derive(c.seed, g, 2), "lr": c.lr, "decay": c.decay,
            "batch": c.batch, "epochs": c.epochs,
        }  # fmt: skip
        layers, scale, curve = fit.fit(train, test, settings, folder / "fit-state.npz", self.tick)
        stored = fit.half(layers)
        trained = {
            "generations": window, "games": len(window) * c.games, "samples": len(train),
            "held_out_samples": len(test), "epochs": curve,
            "rmse": fit.rmse(stored, scale.astype(np.float16).astype(np.float32), test),
        }  # fmt: skip
        if c.residual:  # the held-out error of no correction: the hand evaluation's own
            trained["hand_rmse"] = float(np.sqrt(np.mean(test.y.astype(np.float64) ** 2)))
        meta = {
            "game": c.game, "players": c.players, "options": self.options,
            "observation_size": self.size, "generation": g, "command": reproduce(c),
            "commit": commit(), "trained": trained, "residual": c.residual,
        }  # fmt: skip
        net.save(path, layers, scale, meta)

    # -- gates ---------------------------------------------------------------------------
    def _gate(self, g: int, best: int) -> bool:
        """Gate candidate ``g``; whether it replaces ``best``."""
        c = self.config
        versus = {"hand": None} if best == HAND else {"previous": best, "hand": None}
        results = {}
        for name, opponent in versus.items():
            weights = None if opponent is None else str(self.weights(opponent))
            results[name] = self._match(g, name, weights)
        summary: dict[str, Any] = {name: gate.summary(games) for name, games in results.items()}
        against = summary["previous" if best != HAND else "hand"]
        accepted = bool(against["win_rate"] >= c.accept)
        summary["accepted"] = accepted
        summary["best_before"] = best
        write_json(dataset.generation_folder(self.folder, g) / "gate.json", summary)
        return accepted

    def _match(self, g: int, name: str, opponent: str | None) -> list[dict[str, Any]]:
        c = self.config
        path = dataset.generation_folder(self.folder, g) / f"gate-{name}.jsonl"
        games = gate.jobs(c.game, self.options, str(self.weights(g)), opponent, c.gate_deals,
                          derive(c.seed, g, 3), c.iterations, c.hand_iterations)  # fmt: skip
        found = read_lines(path)
        if path.exists():  # rewritten without a line a kill cut short, so appends start clean
            tmp = path.with_name(path.name + ".tmp")
            tmp.write_text("".join(json.dumps(r) + "\n" for r in found.values()), encoding="utf-8")
            tmp.replace(path)
        todo = [(i, job) for i, job in enumerate(games) if i not in found]
        bar = self._bar(f"generation {g} gate vs {name}", len(games), len(games) - len(todo))

        def done(i: int, result: dict[str, Any]) -> None:
            with path.open("a", encoding="utf-8") as f:
                f.write(json.dumps({"index": i, **result}) + "\n")
            found[i] = result
            bar.update(1)
            self.tick("gate game")

        try:
            workers.run(gate.play, todo, done, self.backend, self.workers, self.address)
        finally:
            bar.close()
        return [found[i] for i in range(len(games))]

    def _bar(self, what: str, total: int, initial: int) -> Any:
        from tqdm import tqdm

        return tqdm(total=total, initial=initial, desc=what, unit="game", disable=not self.progress)


def workers_check(backend: str, count: int) -> None:
    workers.check(backend, count)


def timed_play(job: selfplay.Job) -> dict[str, np.ndarray]:
    """A self-play game with the seconds it took (``seconds``, for the games per hour)."""
    start = time.perf_counter()
    arrays = selfplay.play(job)
    arrays["seconds"] = np.array(time.perf_counter() - start)
    return arrays


def read_lines(path: Path) -> dict[int, dict[str, Any]]:
    """The gate games already played (a line cut short by a kill is dropped)."""
    found: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return found
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            doc = json.loads(line)
        except json.JSONDecodeError:
            continue
        found[int(doc["index"])] = doc
    return found


def commit() -> str:
    """The commit of the source tree this package runs from, or "unknown"."""
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"],
            cwd=Path(__file__).parent,
            capture_output=True,
            text=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return "unknown"
    return out.stdout.strip() if out.returncode == 0 else "unknown"


def check_folder(folder: Path) -> None:
    if folder.exists() and not folder.is_dir():
        raise AzulError(f"{folder} is not a folder")
