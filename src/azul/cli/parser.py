"""The ``azul`` command's arguments: one function per command adds its parser."""

from __future__ import annotations

import argparse
import json
from typing import Any

import azul
from azul import i18n, review
from azul.cli import commands
from azul.i18n import N_, _
from azul.i18n.arguments import VERSION, ArgumentParser

DESCRIPTION = N_("Azul: Summer Pavilion and Stained Glass of Sintra: play, replay, bots, server.")

Commands = Any  # argparse's subparsers action, whose class is private


def key_value(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it can be (1, true, null), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(_("{text!r} is not KEY=VALUE").format(text=text))
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def named_file(text: str) -> tuple[str, str]:
    """``NAME=FILE``."""
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(_("{text!r} is not NAME=FILE").format(text=text))
    return name, path


def _game_arguments(p: argparse.ArgumentParser, game_required: bool = True) -> None:
    """The game and its options, as ``commands.game_options`` reads them."""
    p.add_argument(
        "game",
        choices=sorted(azul.GAMES),
        nargs=None if game_required else "?",
        help=_("the game"),
    )
    p.add_argument(
        "--players",
        type=int,
        default=None if game_required else 2,
        help=_("number of players, 2-4 (default 2)"),
    )
    p.add_argument(
        "-o",
        "--option",
        type=key_value,
        action="append",
        metavar="KEY=VALUE",
        help=_("a game option, e.g. -o board=grey (repeatable)"),
    )
    p.add_argument(
        "--components",
        metavar="FILE",
        help=_("the printed values of your copy (games with a components file: sintra)"),
    )


def _add_play(sub: Commands) -> None:
    p = sub.add_parser("play", help=_("play a game in the terminal"))
    _game_arguments(p)
    p.add_argument("--seat", type=int, default=0, help=_("your seat (default 0)"))
    p.add_argument(
        "--hotseat", action="store_true", help=_("every seat is a person at this terminal")
    )
    p.add_argument(
        "--opponent",
        default="heuristic",
        help=_("bot for the other seats, e.g. random, greedy, mcts:time=0.5 (default heuristic)"),
    )
    p.add_argument("--seed", type=int, default=0, help=_("seed of the deal and the bots"))
    p.add_argument("--save", metavar="FILE", help=_("save the game record here at the end"))
    p.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help=_("coloured pieces (default: when the output is a terminal and NO_COLOR is unset)"),
    )
    p.set_defaults(func=commands.cmd_play)


def _add_records(sub: Commands) -> None:
    """replay, show and rules: reading what is already written."""
    p = sub.add_parser("replay", help=_("step through a recorded game"))
    p.add_argument("file", help=_("a record (.jsonl) saved by 'azul play --save'"))
    p.add_argument("--all", action="store_true", help=_("print every step without waiting"))
    p.set_defaults(func=commands.cmd_replay)

    p = sub.add_parser("analyse", help=_("review a recorded game: each move against the best"))
    p.add_argument("file", help=_("a record (.jsonl) saved by 'azul play --save'"))
    p.add_argument("--seed", type=int, default=0, help=_("seed of the review's searches"))
    p.add_argument(
        "--iterations",
        type=int,
        default=review.ITERATIONS,
        help=_("search iterations per move (default {n})").format(n=review.ITERATIONS),
    )
    p.add_argument("--time", type=float, help=_("seconds of search per move, at most"))
    p.add_argument("--json", metavar="FILE", help=_("write the review as JSON here (- for stdout)"))
    p.add_argument("--svg", metavar="FILE", help=_("write the evaluation graph as SVG here"))
    p.add_argument(
        "--color",
        choices=["auto", "always", "never"],
        default="auto",
        help=_("coloured labels (default: when the output is a terminal and NO_COLOR is unset)"),
    )
    p.set_defaults(func=commands.cmd_analyse)

    p = sub.add_parser("show", help=_("print a position document and its legal moves"))
    p.add_argument("file", help=_("a position (.json)"))
    p.set_defaults(func=commands.cmd_show)

    p = sub.add_parser("rules", help=_("a summary of a game's rules"))
    p.add_argument("game", choices=sorted(azul.GAMES), help=_("the game"))
    p.set_defaults(func=commands.cmd_rules)


def _add_matches(sub: Commands) -> None:
    for command, what in (
        ("match", N_("two bots play each other")),
        ("tournament", N_("every pair of bots plays a match")),
    ):
        p = sub.add_parser(command, help=_(what))
        _game_arguments(p)
        p.add_argument(
            "bots",
            nargs="+",
            metavar="BOT",
            help=_("a bot name with options, e.g. greedy or mcts:iterations=500"),
        )
        p.add_argument(
            "--games",
            type=int,
            default=20,
            help=_("games per match, rounded up to whole mirrored deals (default 20)"),
        )
        p.add_argument("--seed", type=int, default=0, help=_("seed of the first deal"))
        p.add_argument("--time", type=float, help=_("seconds per move for every bot"))
        p.add_argument("--iterations", type=int, help=_("iterations per move (search bots)"))
        p.add_argument("--backend", choices=["local", "ray"], default="local")
        p.add_argument("--workers", type=int, default=1, help=_("processes or Ray workers"))
        p.add_argument("--address", help=_("address of an existing Ray cluster"))
        p.add_argument(
            "--out",
            default="azul-results",
            metavar="FOLDER",
            help=_(
                "where results go: each run writes to a new folder in it, numbered and named "
                "after the command and the game, e.g. 003-match-sintra (default azul-results)"
            ),
        )
        p.add_argument("--plot", action="store_true", help=_("also write scores.png"))
        p.add_argument("--quiet", action="store_true", help=_("no progress bar"))
        p.set_defaults(func=commands.cmd_match)


def _add_serve(sub: Commands) -> None:
    p = sub.add_parser("serve", help=_("start the game server for the browser"))
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--database", help=_("an SQLAlchemy URL (default: SQLite in the user data dir)"))
    p.add_argument(
        "--workers",
        type=int,
        default=1,
        help=_("server processes sharing the port (above 1: PostgreSQL only; default 1)"),
    )
    p.add_argument(
        "--limit",
        type=key_value,
        action="append",
        metavar="KEY=VALUE",
        help=_("change a limit, e.g. --limit bot_time=2 (repeatable; see docs/server.md)"),
    )
    p.add_argument(
        "--components",
        type=named_file,
        action="append",
        metavar="NAME=FILE",
        help=_("offer a components file to players under a name (repeatable)"),
    )
    p.set_defaults(func=commands.cmd_serve)


def _add_engine(sub: Commands) -> None:
    """bench and train: the engine's speed and the bots' learning."""
    p = sub.add_parser("bench", help=_("measure the engine's speed on random games"))
    _game_arguments(p, game_required=False)
    p.add_argument("--games", type=int, default=300, help=_("games to play (default 300)"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--compare",
        action="store_true",
        help=_("also the game's compiled core, on the same games (azul.native)"),
    )
    p.set_defaults(func=commands.cmd_bench)

    from azul.learn import command as learn  # its arguments, without numpy

    p = sub.add_parser("train", help=_("learn a value network for the MCTS bot by self-play"))
    learn.add_arguments(p)
    p.set_defaults(func=commands.cmd_train)


def build_parser() -> ArgumentParser:
    parser = ArgumentParser(prog="azul", description=_(DESCRIPTION))
    parser.add_argument(
        "--version", action="version", version=f"azul {azul.__version__}", help=_(VERSION)
    )
    parser.add_argument(
        "--lang",
        choices=sorted(i18n.LANGUAGES),
        help=_("language of the command and the terminal game, remembered (default: the locale)"),
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for add in (_add_play, _add_records, _add_matches, _add_serve, _add_engine):
        add(sub)
    return parser
