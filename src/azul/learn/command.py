"""The training command, ``python -m azul.learn GAME`` and ``azul train GAME``: start a run, or
resume the run in its folder with the same command.

The arguments are defined here without importing numpy, so that ``azul --help`` works without
the train extra; the run itself is imported when the command runs.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import sys
from pathlib import Path
from typing import Any

from azul.core.errors import AzulError
from azul.extras import install

SETTINGS = (  # (flag, type, help): run settings stored in config.json; None: the stored value
    ("seed", int, "seed of the whole run (default 0)"),
    ("generations", int, "networks to train (default 20)"),
    ("games", int, "self-play games per generation (default 200)"),
    ("iterations", int, "MCTS iterations per move in self-play and gates (default 200)"),
    ("explore", int, "decisions per game drawn from the visit counts (default 20)"),
    ("window", int, "generations of games each network learns from (default 4)"),
    ("epochs", int, "epochs of each fit (default 20)"),
    ("batch", int, "minibatch size (default 256)"),
    ("lr", float, "Adam's learning rate (default 0.001)"),
    ("decay", float, "weight decay (default 0.0001)"),
    ("holdout", float, "share of the games held out to choose the epoch (default 0.1)"),
    ("gate_deals", int, "mirrored deals per gate match (default 20)"),
    ("accept", float, "win rate over the best network a candidate needs (default 0.55)"),
    (
        "hand_iterations",
        int,
        "the hand-evaluated opponent's iterations in gates (default: as many)",
    ),
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The command's arguments, on ``p``."""
    p.add_argument("game", help="the game, e.g. pavilion or sintra")
    p.add_argument("--players", type=int, help="number of players (default 2)")
    p.add_argument(
        "-o", "--option", action="append", metavar="KEY=VALUE", help="a game option (repeatable)"
    )
    p.add_argument("--hidden", help="hidden layer sizes, e.g. 64,64 (the default)")
    p.add_argument(
        "--residual",
        action=argparse.BooleanOptionalAction,
        help="networks learn corrections to the hand evaluation (the default for a new run)",
    )
    for name, kind, text in SETTINGS:
        p.add_argument("--" + name.replace("_", "-"), dest=name, type=kind, help=text)
    p.add_argument(
        "--dir",
        type=Path,
        help="the run's folder (default: the user data folder's runs/GAME-Np)",
    )
    p.add_argument("--backend", default="local", help="local (processes) or ray")
    p.add_argument("--workers", type=int, default=1, help="processes or Ray workers (default 1)")
    p.add_argument("--address", help="address of an existing Ray cluster")
    p.add_argument("--quiet", action="store_true", help="no progress bars")


def given(args: argparse.Namespace) -> dict[str, Any]:
    """The run settings named on the command line (the others come from a stored run or the
    defaults)."""
    out: dict[str, Any] = {"game": args.game}
    if args.players is not None:
        out["players"] = args.players
    if args.option:
        out["options"] = dict(_option(text) for text in args.option)
    if args.hidden is not None:
        try:
            out["hidden"] = [int(h) for h in args.hidden.split(",")]
        except ValueError:
            raise AzulError(f"--hidden {args.hidden!r} is not sizes like 64,64") from None
    if args.residual is not None:
        out["residual"] = args.residual
    for name, _, _ in SETTINGS:
        if getattr(args, name) is not None:
            out[name] = getattr(args, name)
    return out


def _option(text: str) -> tuple[str, Any]:
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise AzulError(f"game option {text!r} is not KEY=VALUE")
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def default_folder(game: str, players: int) -> Path:
    """``AZUL_DATA_DIR``/runs/GAME-Np, else the user data folder's."""
    if os.environ.get("AZUL_DATA_DIR"):
        base = Path(os.environ["AZUL_DATA_DIR"])
    else:
        try:
            from platformdirs import user_data_dir
        except ImportError:
            raise AzulError("without --dir, training needs platformdirs: the train extra") from None
        base = Path(user_data_dir("azul-games"))
    return base / "runs" / f"{game}-{players}p"


def run(args: argparse.Namespace) -> int:
    """Start or resume the run the arguments describe; prints where its files are."""
    try:
        from azul.learn import config as settings
        from azul.learn.run import Run
    except ImportError as e:
        raise AzulError(
            "training needs the train extra: {command} ({reason})",
            command=install("train"),
            reason=str(e),
        ) from None
    wanted = given(args)
    folder = args.dir or default_folder(args.game, wanted.get("players", 2))
    if folder.exists() and not folder.is_dir():
        raise AzulError(f"{folder} is not a folder")
    from azul.learn.workers import check

    check(args.backend, args.workers)
    config = settings.merge(folder, wanted)
    print(f"run folder: {folder}", flush=True)
    trainer = Run(folder, config, args.backend, args.workers, args.address, not args.quiet)
    curve = trainer.go()
    print(f"done: {len(curve)} generations; curve in {folder / 'curve.json'}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """``python -m azul.learn``."""
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m azul.learn", description=(__doc__ or "").splitlines()[0]
    )
    add_arguments(parser)
    args = parser.parse_args(argv)
    try:
        return run(args)
    except AzulError as e:
        print(f"azul.learn: error: {e}", file=sys.stderr)
        return 2


def reproduce(config: Any) -> str:
    """The command that trains the run of ``config`` (a ``Config``) from the start."""
    words = ["python", "-m", "azul.learn", config.game, "--players", str(config.players)]
    for key, value in sorted(config.options.items()):
        words += ["-o", f"{key}={json.dumps(value) if not isinstance(value, str) else value}"]
    words += ["--hidden", ",".join(map(str, config.hidden))]
    words += ["--residual" if config.residual else "--no-residual"]
    for name, _, _ in SETTINGS:
        if getattr(config, name) is not None:  # hand_iterations: None, as many as the network
            words += ["--" + name.replace("_", "-"), str(getattr(config, name))]
    return shlex.join(words)
