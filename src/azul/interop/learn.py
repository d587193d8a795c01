"""Learned baselines: a small numpy policy network per game, trained by imitating a teacher bot.

The policy maps a seat's observation (docs/observations.md) to one logit per action through one
hidden layer; illegal actions are masked. Training plays the teacher against itself, records
every decision (observation, legal actions, the teacher's choice) and fits the network by
cross-entropy with Adam. The trained weights for two-player games with default options ship
with the package (``azul/interop/policies/<game>.npz``) and play as the ``policy`` bot.

Reproduce a shipped policy and its training curve with one command:

    python -m azul.interop.learn sintra      # or pavilion; --help for the settings
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from azul import load_game
from azul.bots import make
from azul.bots.base import Bot, Candidate, Limit, ranked
from azul.core.api import CHANCE, State
from azul.core.errors import AzulError
from azul.interop.observation import Observer

SHIPPED = "policies"  # the package folder of the trained policies
TEACHER_GAMES = {"pavilion": 1500, "sintra": 3000}  # the shipped policies' self-play games


@dataclass
class Policy:
    """One hidden layer of ReLU units: ``logits = relu(((x - mean) / std) @ w1 + b1) @ w2 + b2``."""

    game: str
    players: int
    mean: np.ndarray
    std: np.ndarray
    w1: np.ndarray
    b1: np.ndarray
    w2: np.ndarray
    b2: np.ndarray

    @classmethod
    def initial(
        cls, game: str, players: int, x: np.ndarray, actions: int, hidden: int, seed: int
    ) -> Policy:
        """Random weights (He initialisation), inputs standardised by the statistics of ``x``."""
        rng = np.random.default_rng(seed)
        size = x.shape[1]
        return cls(
            game,
            players,
            x.mean(axis=0).astype(np.float32),
            np.maximum(x.std(axis=0), 1e-3).astype(np.float32),
            (rng.standard_normal((size, hidden)) * np.sqrt(2 / size)).astype(np.float32),
            np.zeros(hidden, np.float32),
            (rng.standard_normal((hidden, actions)) * np.sqrt(1 / hidden)).astype(np.float32),
            np.zeros(actions, np.float32),
        )

    def logits(self, x: np.ndarray) -> np.ndarray:
        """Logits of every action for one observation or a batch of them."""
        hidden = np.maximum((x - self.mean) / self.std @ self.w1 + self.b1, 0)
        return hidden @ self.w2 + self.b2  # type: ignore[no-any-return]

    def save(self, path: str | Path) -> None:
        """Write the policy to ``path`` (``.npz``; the weight matrices as float16, to be small)."""
        arrays = {k: getattr(self, k) for k in ("mean", "std", "b1", "b2")}
        arrays.update(w1=self.w1.astype(np.float16), w2=self.w2.astype(np.float16))
        np.savez_compressed(path, game=self.game, players=self.players, **arrays)

    @classmethod
    def load(cls, path: Any) -> Policy:
        """A policy from an ``.npz`` file written by ``save`` (no pickled objects are read)."""
        names = ("mean", "std", "w1", "b1", "w2", "b2")
        try:
            with np.load(path, allow_pickle=False) as f:
                arrays = {k: f[k].astype(np.float32) for k in names}
                policy = cls(str(f["game"]), int(f["players"]), **arrays)
        except (OSError, KeyError, ValueError, TypeError) as e:
            raise AzulError(f"not a policy file ({e})") from None
        size, hidden = policy.w1.shape if policy.w1.ndim == 2 else (0, 0)
        shapes = [p.shape for p in (policy.mean, policy.std, policy.b1, policy.w2, policy.b2)]
        actions = policy.b2.shape[0] if policy.b2.ndim == 1 else 0
        if shapes != [(size,), (size,), (hidden,), (hidden, actions), (actions,)]:
            raise AzulError("not a policy file (the layers' shapes do not fit together)")
        return policy


def shipped(game: str) -> Policy:
    """The trained policy that ships with the package for ``game`` (two players)."""
    source = resources.files("azul.interop").joinpath(SHIPPED, f"{game}.npz")
    if not source.is_file():
        raise AzulError(f"no trained policy ships for {game!r}")
    with source.open("rb") as f:
        return Policy.load(f)


class PolicyBot(Bot):
    """Plays the action of highest logit among the legal ones (``temperature`` > 0 samples the
    softmax instead). Without ``policy``, the shipped one for the state's game."""

    name = "policy"

    def __init__(self, seed: int = 0, temperature: float = 0.0, policy: Policy | None = None):
        super().__init__(seed)
        if not isinstance(temperature, int | float) or temperature < 0:
            raise AzulError(f"temperature {temperature!r} is not a number ≥ 0")
        self.temperature = float(temperature)
        self.policy = policy
        self._observer: Observer | None = None

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        self._check(state)
        game = state.game
        if self.policy is None:
            self.policy = shipped(game.name)
        if self._observer is None or self._observer.game is not game:
            self._observer = Observer(game)
        if (self.policy.game, self.policy.players) != (game.name, game.num_players()):
            raise AzulError(
                f"the policy plays {self.policy.players}-player {self.policy.game}, "
                f"not {game.num_players()}-player {game.name}"
            )
        if self._observer.tensor.shape != self.policy.mean.shape:
            raise AzulError("the policy was trained on observations of other game options")
        legal = state.legal_actions()
        logits = self.policy.logits(self._observer.set_from(state, state.current_player()))[legal]
        if self.temperature > 0:  # Gumbel noise: the first of the ranking samples the softmax
            u = np.array([self.rng.random() for _ in legal])
            logits = logits / self.temperature - np.log(-np.log(np.clip(u, 1e-12, 1 - 1e-12)))
        return ranked(state, dict(zip(legal, map(float, logits), strict=True)), self.rng)


# ---- training ------------------------------------------------------------------------------


@dataclass
class Decisions:
    """The teacher's decisions: observations, legal-action masks and the actions chosen."""

    x: np.ndarray  # (n, observation size) float32
    mask: np.ndarray  # (n, actions) bool
    y: np.ndarray  # (n,) int

    def __len__(self) -> int:
        return len(self.y)

    def take(self, rows: np.ndarray) -> Decisions:
        return Decisions(self.x[rows], self.mask[rows], self.y[rows])


def _play(
    state: State,
    bots: list[Bot],
    chance: random.Random,
    seen: Callable[[State, int], None] | None = None,
) -> State:
    """Play ``state`` to its end, draws from ``chance``; ``seen(state, action)`` hears each
    decision before it is applied."""
    while not state.is_terminal():
        p = state.current_player()
        if p == CHANCE:
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(chance.choices(outcomes, probs)[0])
            continue
        action = bots[p].choose(state)
        if seen:
            seen(state, action)
        state.apply_action(action)
    return state


def _play_and_record(job: tuple[str, int, str, int]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One game of the teacher against itself from ``seed``: every decision it made."""
    game_name, players, teacher, seed = job
    game = load_game(game_name, players=players)
    observer = Observer(game)
    xs, masks, ys = [], [], []

    def record(state: State, action: int) -> None:
        xs.append(observer.set_from(state, state.current_player()).copy())
        mask = np.zeros(game.info.num_distinct_actions, bool)
        mask[state.legal_actions()] = True
        masks.append(np.packbits(mask))
        ys.append(action)

    bots = [make(teacher, seed=seed * 7919 + i) for i in range(players)]
    _play(game.new_initial_state(seed), bots, random.Random(seed), record)
    return np.array(xs), np.array(masks), np.array(ys)


def collect(
    game: str, teacher: str, games: int, seed: int, workers: int, players: int = 2
) -> Decisions:
    """The decisions of ``games`` self-play games of ``teacher`` (seeds ``seed`` onwards)."""
    actions = load_game(game, players=players).info.num_distinct_actions
    jobs = [(game, players, teacher, seed + i) for i in range(games)]
    with ProcessPoolExecutor(workers) as pool:
        parts = list(_progress(pool.map(_play_and_record, jobs), games, f"{teacher} self-play"))
    x = np.concatenate([p[0] for p in parts])
    mask = np.unpackbits(np.concatenate([p[1] for p in parts]), axis=1)[:, :actions].astype(bool)
    return Decisions(x, mask, np.concatenate([p[2] for p in parts]))


def _progress(items: Any, total: int, what: str) -> Any:
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm comes with the arena extra
        return items
    return tqdm(items, total=total, desc=what, unit="game")


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    z = np.where(mask, logits, -np.inf)
    z = np.exp(z - z.max(axis=1, keepdims=True))
    return z / z.sum(axis=1, keepdims=True)  # type: ignore[no-any-return]


def loss_and_agreement(policy: Policy, data: Decisions) -> tuple[float, float]:
    """Cross-entropy of the teacher's actions and how often the policy's first choice is the
    teacher's."""
    logits = policy.logits(data.x)
    p = _masked_softmax(logits, data.mask)
    rows = np.arange(len(data))
    loss = float(-np.log(p[rows, data.y] + 1e-12).mean())
    agree = float((np.where(data.mask, logits, -np.inf).argmax(axis=1) == data.y).mean())
    return loss, agree


def gradients(policy: Policy, part: Decisions) -> dict[str, np.ndarray]:
    """Gradients of the mean cross-entropy of the teacher's actions over ``part``."""
    z = (part.x - policy.mean) / policy.std
    pre = z @ policy.w1 + policy.b1
    hidden = np.maximum(pre, 0)
    p = _masked_softmax(hidden @ policy.w2 + policy.b2, part.mask)
    p[np.arange(len(part)), part.y] -= 1  # d loss / d logits
    p /= len(part)
    d_hidden = (p @ policy.w2.T) * (pre > 0)
    return {"w1": z.T @ d_hidden, "b1": d_hidden.sum(0), "w2": hidden.T @ p, "b2": p.sum(0)}


def fit_epoch(
    policy: Policy, data: Decisions, adam: dict[str, Any], rng: np.random.Generator, batch: int
) -> None:
    """One pass over ``data`` in shuffled minibatches: Adam with weight decay."""
    order = rng.permutation(len(data))
    for start in range(0, len(data), batch):
        grads = gradients(policy, data.take(order[start : start + batch]))
        adam["t"] += 1
        for k, g in grads.items():
            g = g + adam["decay"] * getattr(policy, k)
            adam["m" + k] = 0.9 * adam.get("m" + k, 0) + 0.1 * g
            adam["v" + k] = 0.999 * adam.get("v" + k, 0) + 0.001 * g * g
            m = adam["m" + k] / (1 - 0.9 ** adam["t"])
            v = adam["v" + k] / (1 - 0.999 ** adam["t"])
            setattr(policy, k, getattr(policy, k) - adam["lr"] * m / (np.sqrt(v) + 1e-8))


def duel(policy: Policy, opponent: str, games: int, seed: int) -> dict[str, float]:
    """The policy against ``opponent`` over ``games`` games, its seat moving on each game and
    each deal played from every seat: its mean share of wins (a shared win counts 1/k) and its
    mean score less the best other."""
    wins, margin = 0.0, 0.0
    game = load_game(policy.game, players=policy.players)
    for i in range(games):
        me, deal = i % policy.players, seed + i // policy.players
        bots = [make(opponent, seed=seed + i) for _ in range(policy.players)]
        bots[me] = PolicyBot(seed=seed + i, policy=policy)
        end = _play(game.new_initial_state(deal), bots, random.Random(deal))
        wins += 1 / len(end.winners()) if me in end.winners() else 0
        scores = end.scores()
        margin += scores[me] - max(s for seat, s in enumerate(scores) if seat != me)
    return {"win_rate": wins / games, "margin": margin / games}


def train(args: argparse.Namespace) -> tuple[Policy, list[dict[str, float]]]:
    """Collect the teacher's decisions, then fit the policy epoch by epoch; the curve has one
    row per epoch (losses, agreement with the teacher, and a duel against ``args.against``).
    Returns the policy of the epoch with the lowest loss on the held-out decisions (early
    stopping: later epochs fit the training decisions better and the others worse)."""
    start = time.perf_counter()
    data = collect(args.game, args.teacher, args.games, args.seed, args.workers, args.players)
    rng = np.random.default_rng(args.seed)
    order = rng.permutation(len(data))
    held = max(1, len(data) // 10)
    test, fit = data.take(order[:held]), data.take(order[held:])
    seen = fit.take(np.arange(held))  # as many training decisions as held out, to compare
    actions = data.mask.shape[1]
    policy = Policy.initial(args.game, args.players, fit.x, actions, args.hidden, args.seed)
    adam: dict[str, Any] = {"t": 0, "lr": args.lr, "decay": args.decay}
    curve: list[dict[str, float]] = []
    best = (np.inf, policy)
    print(f"{len(data)} decisions from {args.games} games ({time.perf_counter() - start:.0f} s)")
    for epoch in range(args.epochs + 1):
        if epoch:
            fit_epoch(policy, fit, adam, rng, args.batch)
        row: dict[str, float] = {"epoch": epoch}
        row["train_loss"], row["train_agreement"] = loss_and_agreement(policy, seen)
        row["loss"], row["agreement"] = loss_and_agreement(policy, test)
        if row["loss"] < best[0]:
            best = (row["loss"], replace(policy))  # the arrays are replaced, never changed
        if args.eval_games and (epoch % args.eval_every == 0 or epoch == args.epochs):
            duel_row = duel(policy, args.against, args.eval_games, 10**6 + args.seed)
            row[f"win_rate_vs_{args.against}"] = duel_row["win_rate"]
            row[f"margin_vs_{args.against}"] = duel_row["margin"]
        row["seconds"] = round(time.perf_counter() - start, 1)
        curve.append(row)
        print(json.dumps({k: round(v, 4) for k, v in row.items()}), flush=True)
    return best[1], curve


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m azul.interop.learn", description=__doc__.splitlines()[0]
    )
    parser.add_argument("game", choices=["pavilion", "sintra"])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--teacher", default="heuristic", help="the bot imitated")
    parser.add_argument(
        "--games",
        type=int,
        help="self-play games of the teacher (default: "
        + ", ".join(f"{k} for {g}" for g, k in TEACHER_GAMES.items())
        + ")",
    )
    parser.add_argument("--epochs", type=int, default=30)
    parser.add_argument("--hidden", type=int, default=128, help="hidden units")
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--decay", type=float, default=1e-4, help="weight decay")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=2, help="processes for self-play")
    parser.add_argument("--against", default="greedy", help="the curve's duel opponent")
    parser.add_argument("--eval-games", type=int, default=100, help="games per duel (0: none)")
    parser.add_argument("--eval-every", type=int, default=5, help="epochs between duels")
    parser.add_argument("--out", type=Path, default=Path("."), help="folder for the results")
    args = parser.parse_args(argv)
    args.games = TEACHER_GAMES[args.game] if args.games is None else args.games
    if args.games < 1 or args.epochs < 0 or args.hidden < 1 or args.batch < 1:
        parser.error("--games, --hidden and --batch must be positive, --epochs at least 0")
    policy, curve = train(args)
    args.out.mkdir(parents=True, exist_ok=True)
    policy.save(args.out / f"{args.game}.npz")
    settings = {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()}
    chosen = min(curve, key=lambda row: row["loss"])["epoch"]
    text = json.dumps({"settings": settings, "chosen_epoch": chosen, "curve": curve}, indent=1)
    (args.out / f"{args.game}-curve.json").write_text(text + "\n", encoding="utf-8")
    print(f"wrote {args.out / (args.game + '.npz')} (epoch {chosen}) and {args.game}-curve.json")


if __name__ == "__main__":
    main()
