"""What each ``azul`` command does, given its parsed arguments; each returns the exit status."""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import socket
import sys
from pathlib import Path
from typing import Any

import azul
from azul import i18n, review
from azul.cli.review import review_text
from azul.cli.scores import outcome
from azul.cli.terminal import play, rules_text, wrap
from azul.core import ansi
from azul.core.errors import AzulError
from azul.core.records import load_record, replay
from azul.extras import install
from azul.i18n import _


def game_options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line (-o, --players, --components)."""
    options = dict(args.option or [])
    if args.players is not None:
        options["players"] = args.players
    if args.components is not None:
        options["components"] = args.components
    return options


def cmd_play(args: argparse.Namespace) -> int:
    game = azul.load_game(args.game, **game_options(args))
    n = game.info.num_players
    humans = {args.seat} if not args.hotseat else set(range(n))
    if not args.hotseat and not 0 <= args.seat < n:
        raise AzulError(
            _("--seat {seat} is not a seat 0..{last}").format(seat=args.seat, last=n - 1)
        )
    from azul.bots.spec import BotSpec

    spec = BotSpec.parse(args.opponent)
    bots = {s: spec.make(args.seed + s) for s in range(n) if s not in humans}
    state = game.new_initial_state(args.seed)
    color = {"always": True, "never": False}.get(args.color, ansi.wanted())
    play(state, humans, bots, args.seed, save=args.save, color=color)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    rec = load_record(args.file)
    interactive = sys.stdin.isatty() and not args.all
    for state, action in replay(rec):
        print(state.render())
        if action is None:
            break
        print(f"\n--> {state.action_to_string(action)}\n")
        if interactive and input(_("[Enter] next, q quit") + " ").strip().lower() == "q":
            return 0
    print(outcome(state))
    return 0


def cmd_analyse(args: argparse.Namespace) -> int:
    rec = load_record(args.file)
    if args.iterations is not None and args.iterations < 1:
        raise AzulError(_("--iterations must be a positive number"))

    def progress(done: int, total: int) -> None:
        if sys.stderr.isatty():
            line = _("reviewing: move {done} of {total}").format(done=done, total=total)
            print("\r" + line, end="", file=sys.stderr, flush=True)

    result = review.review_record(rec, args.seed, args.iterations, args.time, progress)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if args.svg:
        _write(args.svg, review.review_svg(result))
    if args.json:
        text = json.dumps(result.to_json(), indent=1) + "\n"
        if args.json == "-":
            sys.stdout.write(text)
            return 0
        _write(args.json, text)
    color = {"always": True, "never": False}.get(args.color, ansi.wanted())
    print(review_text(result, color))
    return 0


def _write(path: str, text: str) -> None:
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as e:
        raise AzulError(_("cannot write {file}: {reason}").format(file=path, reason=e)) from None


def cmd_show(args: argparse.Namespace) -> int:
    try:
        doc = json.loads(Path(args.file).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise AzulError(
            _("cannot read {file}: {reason}").format(file=args.file, reason=e)
        ) from None
    state = azul.load_state(doc, seed=0)
    print(state.render())
    if not state.is_terminal():
        moves = wrap([state.action_to_string(a) for a in state.legal_actions()])
        print("\n" + _("legal moves: {moves}").format(moves=moves))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(rules_text(args.game))
    return 0


def cmd_train(args: argparse.Namespace) -> int:
    from azul.learn import command

    return command.run(args)


def cmd_bench(args: argparse.Namespace) -> int:
    from azul import native
    from azul.bench import bench, compare

    names = [args.game] if args.game else sorted(azul.GAMES)
    options = game_options(args)
    for name in names:
        game = azul.load_game(name, **options)
        print(f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})")
        played = game.on_python() if args.compare else game  # compare: the reference first
        print("  " + _("engine: {engine}").format(engine=played.engine))
        result = bench(played, games=args.games, seed=args.seed)
        print("\n".join("  " + line for line in result.lines()))
        if args.compare:
            module = game.compiled()
            if module is None:
                print("  " + _(native.missing(name)))
                continue
            paired = compare(game, module, result, seed=args.seed)
            print("\n".join("  " + line for line in paired.lines()))
    return 0


def _need_arena() -> None:
    """Matches and tournaments show a progress bar (tqdm) and ratings (openskill), which the
    core install does without."""
    if any(importlib.util.find_spec(name) is None for name in ("tqdm", "openskill")):
        raise AzulError(
            "matches and tournaments need the arena extra: {command}", command=install("arena")
        )


def cmd_match(args: argparse.Namespace) -> int:
    _need_arena()
    from azul.arena import tournament
    from azul.arena.stats import table
    from azul.bots import Limit
    from azul.bots.spec import BotSpec

    if args.plot:
        try:
            import matplotlib  # noqa: F401
        except ImportError:
            raise AzulError(
                _("--plot needs matplotlib: {command}").format(command=install("plot"))
            ) from None
    bots = [BotSpec.parse(b) for b in args.bots]
    for spec in bots:  # fail early on an unknown bot or option
        spec.make(0)
    limit = None
    if args.time is not None or args.iterations is not None:
        limit = Limit(time=args.time, iterations=args.iterations)
    options = game_options(args)
    players = options.pop("players", None) or 2
    azul.load_game(args.game, players=players, **options)  # fail early on bad options
    if args.command == "match":
        if len(bots) != 2:
            raise AzulError(_("a match is between two bots: use 'azul tournament' for more"))
        jobs = tournament.match_jobs(
            args.game, options, bots, players, args.games, args.seed, limit
        )
    else:
        if len(bots) < 2:
            raise AzulError(_("a tournament needs at least two bots"))
        jobs = tournament.tournament_jobs(
            args.game, options, bots, players, args.games, args.seed, limit
        )
    results, stats = tournament.run(
        jobs, args.backend, args.workers, args.address, progress=not args.quiet
    )
    print(table(stats))
    folder = tournament.fresh_folder(args.out, f"{args.command}-{args.game}")
    files = tournament.write(folder, results, stats, plot=args.plot)
    done = i18n.ngettext(
        "{games} game; results in {folder}: {files} and the record in records/",
        "{games} games; results in {folder}: {files} and the records in records/",
        len(results),
    )
    names = ", ".join(f.name for f in files)
    print(done.format(games=len(results), folder=f"{folder}/", files=names))
    return 0


def _port_free(host: str, port: int) -> None:
    """AzulError naming ``--port`` when the address is taken (uvicorn would print only its
    errno and exit)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds
        try:
            probe.bind((host, port))
        except OSError as e:
            raise AzulError(
                _(
                    "cannot serve at {host}:{port} ({reason}): is another server running "
                    "there? Choose another port with --port"
                ).format(host=host, port=port, reason=e.strerror or e)
            ) from None


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from azul.server.app import (
            SERVE_ENVIRONMENT,
            create_app,
            serve_environment,
            settle_collector,
        )
        from azul.server.connections import GuardedHttp, GuardedWebSockets
        from azul.server.replies import hide_tokens
        from azul.server.settings import Settings
    except ImportError:
        raise AzulError(
            _("the server needs its extra: {command}").format(command=install("server"))
        ) from None
    settings = (
        Settings().with_limits(args.limit or []).with_files("components", args.components or [])
    )
    if args.workers < 1:
        raise AzulError(_("--workers: {n} is not a positive number").format(n=args.workers))
    if args.workers > 1 and not (args.database or "").startswith(("postgresql:", "postgres:")):
        raise AzulError(
            _(
                "--workers {n}: several processes need PostgreSQL (--database "
                "postgresql://...); SQLite serves one process"
            ).format(n=args.workers)
        )
    _port_free(args.host, args.port)
    app = create_app(args.database, settings=settings)
    url = f"http://{args.host}:{args.port}/"
    where = app.state.lobby.store.url
    serving = _("Azul games at {url}  (games kept in {where})").format(url=url, where=where)
    hide_tokens()
    target: Any = app
    if args.workers > 1:  # each worker process makes its own application from these
        os.environ[SERVE_ENVIRONMENT] = serve_environment(args.database, settings)
        target = "azul.server.app:from_environment"
    settle_collector()
    options = {
        "factory": args.workers > 1,
        "workers": args.workers,
        "host": args.host,
        "port": args.port,
        "log_level": "warning",
        "timeout_graceful_shutdown": 5,
        "ws_max_size": settings.max_body,
        "http": GuardedHttp,  # caps per address, read timeouts, JSON 503 (server.connections)
        "ws": GuardedWebSockets,
        "ws_per_message_deflate": False,
    }
    if args.workers > 1:  # uvicorn's supervisor binds the port and starts the workers
        print(serving, flush=True)
        uvicorn.run(target, **options)
    else:
        _run(uvicorn, uvicorn.Config(target, **options), serving)
    return 0


def _run(uvicorn: Any, config: Any, serving: str) -> None:
    """Serve until stopped, saying ``serving`` once the server listens."""

    class Server(uvicorn.Server):  # type: ignore[misc]
        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if self.started:
                print(serving, flush=True)

    server = Server(config)
    server.run()
    if not server.started:
        raise AzulError(_("the server did not start (its errors are above)"))
