"""The ``azul`` command: play in the terminal, replay a record, show a position, benchmark."""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import json
import os
import shutil
import sys
import textwrap
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

import azul
from azul import i18n
from azul.core import ansi
from azul.core.errors import AzulError
from azul.core.records import load_record, record_of, replay
from azul.i18n import N_, _
from azul.i18n.arguments import VERSION, ArgumentParser
from azul.i18n.plain import markdown_to_text

DESCRIPTION = N_("Azul: Summer Pavilion and Stained Glass of Sintra: play, replay, bots, server.")


def _option(text: str) -> tuple[str, Any]:
    """``KEY=VALUE`` with VALUE read as JSON when it can be (1, true, null), else as text."""
    key, sep, value = text.partition("=")
    if not sep or not key:
        raise argparse.ArgumentTypeError(_("{text!r} is not KEY=VALUE").format(text=text))
    try:
        return key, json.loads(value)
    except json.JSONDecodeError:
        return key, value


def _options(args: argparse.Namespace) -> dict[str, Any]:
    """The game options given on the command line (-o, --players, --components)."""
    options = dict(args.option or [])
    if args.players is not None:
        options["players"] = args.players
    if args.components is not None:
        options["components"] = args.components
    return options


def _wrap(items: list[str]) -> str:
    return textwrap.fill("  ".join(items), width=100, subsequent_indent="  ")


# the prompt's commands: each one's English words (the first is its name) and what it does
COMMANDS = {
    "moves": (("moves", "m"), N_("list the legal moves")),
    "board": (("board", "b"), N_("show the position again")),
    "hint": (("hint",), N_("a bot's three best moves")),
    "undo": (("undo",), N_("take back your last move")),
    "rules": (("rules",), N_("a summary of the rules")),
    "save": (("save",), N_("save the game record to FILE")),
    "help": (("help", "h", "?"), N_("this help")),
    "quit": (("quit", "exit", "q"), N_("leave the game")),
}


def _command_words() -> dict[str, str]:
    """Each command's word in the current language (the English words work too)."""
    return {
        "moves": i18n.pgettext("command", "moves"),
        "board": i18n.pgettext("command", "board"),
        "hint": i18n.pgettext("command", "hint"),
        "undo": i18n.pgettext("command", "undo"),
        "rules": i18n.pgettext("command", "rules"),
        "save": i18n.pgettext("command", "save"),
        "help": i18n.pgettext("command", "help"),
        "quit": i18n.pgettext("command", "quit"),
    }


def _fold(word: str) -> str:
    """``word`` in lower case without accents, so that 'regles' is 'règles'."""
    decomposed = unicodedata.normalize("NFD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _command(line: str) -> tuple[str | None, str]:
    """The command typed in ``line`` (in English or in the current language) and its argument;
    None when ``line`` is not a command. Only 'save' takes an argument."""
    word, _sep, arg = line.strip().partition(" ")
    arg = arg.strip()
    local = _command_words()
    for name, (english, _what) in COMMANDS.items():
        if _fold(word) in {*english, _fold(local[name])} and bool(arg) == (name == "save"):
            return name, arg
    return None, ""


def _help() -> str:
    local = _command_words()
    rows = []
    for name, (_english, what) in COMMANDS.items():
        words = local[name] if local[name] == name else f"{local[name]} ({name})"
        rows.append((words + " " + _("FILE") if name == "save" else words, _(what)))
    width = max(len(words) for words, _what in rows)
    lines = [f"  {words:<{width}}  {what}" for words, what in rows]
    return "\n".join([_("Commands: a move in the notation below, or"), *lines, ""])


def _rules_text(game: str) -> str:
    width = min(shutil.get_terminal_size().columns, 100) - 1
    text = azul.GAMES[game].rules_summary(i18n.current())
    if text is None:
        return _("{game} has no rules summary").format(game=game)
    return markdown_to_text(text, width)


def play(
    state: azul.State,
    humans: set[int],
    bots: dict[int, Any],
    seed: int,
    ask: Callable[[str], str] = input,
    say: Callable[[str], None] = print,
    save: str | None = None,
    color: bool = False,
) -> azul.State:
    """Play to the end: humans type moves, bots choose theirs. Moves are applied to ``state``;
    after an undo the game goes on in a copy. Returns the final state."""
    game = state.game
    # the position before each of the humans' moves, and who moved, for undo: your last move
    # and the bots' replies since, as long as nothing was drawn and no other person moved (the
    # browser's undo is the same)
    before: list[tuple[int, azul.State]] = []
    say(state.render(color))
    while not state.is_terminal():
        seat = state.current_player()
        if seat not in humans:
            action = bots[seat].choose(state)
            move = state.action_to_string(action)
            say(_("seat {seat} plays {move}").format(seat=seat, move=move))
            state.apply_action(action)
            if state.current_player() in humans or state.is_terminal():
                say(state.render(color))
            continue
        try:
            prompt = _("seat {seat}, your move ({decision})> ")
            line = ask(prompt.format(seat=seat, decision=_(state.decision()))).strip()
        except (EOFError, KeyboardInterrupt):
            say("\n" + _("leaving the game"))
            break
        if not line:
            continue
        command, arg = _command(line)
        if command == "quit":
            break
        if command == "help":
            say(_help() + game.notation_help())
            continue
        if command == "moves":
            say(_wrap([state.action_to_string(a) for a in state.legal_actions()]))
            continue
        if command == "board":
            say(state.render(color))
            continue
        if command == "hint":
            from azul.bots import hints

            best = hints(state, seed + len(state.history()))
            say(_("hint: {moves}").format(moves=", ".join(c.move for c in best)))
            continue
        if command == "undo":
            if not any(mover == seat for mover, _position in before):
                say(_("nothing to undo: you have not moved yet"))
            elif before[-1][0] != seat:
                say(_("cannot undo: another person has moved since your last move"))
            elif before[-1][1].draws() != state.draws():
                say(_("cannot undo: pieces were drawn since your last move"))
            else:
                state = before.pop()[1]
                say(_("took back your last move") + "\n" + state.render(color))
            continue
        if command == "rules":
            say(_rules_text(game.name))
            continue
        if command == "save":
            _save(state, seed, arg, say)
            continue
        copy = state.clone()
        try:
            state.apply_string(line)
        except AzulError as e:
            words = _command_words()
            hint = _("type '{moves}' for the legal moves, '{help}' for the notation")
            hint = hint.format(moves=words["moves"], help=words["help"])
            say(_("not legal: {reason}").format(reason=e.translate(_)) + f"  ({hint})")
            continue
        before.append((seat, copy))
        say(state.render(color))
    if state.is_terminal():
        say(_outcome(state))
    if save:
        _save(state, seed, save, say)
    return state


def _save(state: azul.State, seed: int, path: str, say: Callable[[str], None]) -> None:
    try:
        record_of(state, seed).save(path)
    except OSError as e:
        say(_("cannot save to {path}: {reason}").format(path=path, reason=e.strerror))
        return
    say(_("record saved to {path}").format(path=path))


def cmd_play(args: argparse.Namespace) -> int:
    game = azul.load_game(args.game, **_options(args))
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
    print(_outcome(state))
    return 0


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
        moves = _wrap([state.action_to_string(a) for a in state.legal_actions()])
        print("\n" + _("legal moves: {moves}").format(moves=moves))
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    print(_rules_text(args.game))
    return 0


# the items of the final scores, in the order the rules score them
ITEMS = ("play", "star", "number", "leftovers", "broken", "ornaments", "windows")


def _row_label(item: str, detail: str) -> tuple[str, bool]:
    """A final-score item's row label, and whether its detail names the row (a star, a number)
    or only explains the points (how many pieces, which track space)."""
    if item == "star":
        return f"{_('star')}: {_(detail)}", True
    if item == "number":
        return f"{_('all spaces')} {detail}", True
    labels = {
        "play": N_("during the game"),
        "leftovers": N_("leftover pieces"),
        "broken": N_("broken glass"),
        "ornaments": N_("ornaments"),
        "windows": N_("windows"),
    }
    return _(labels.get(item, item)), False


def score_table(state: azul.State) -> str | None:
    """The final scores explained, a row per item and a column per seat (as in the browser);
    None when the state does not keep its breakdown."""
    breakdown = state.score_breakdown()
    if breakdown is None:
        return None
    rows: dict[str, list[str]] = {}
    entries = sorted(  # whichever seat has the item
        ((line, seat) for seat, items in enumerate(breakdown) for line in items),
        key=lambda entry: ITEMS.index(entry[0]["item"]) if entry[0]["item"] in ITEMS else 99,
    )
    for line, seat in entries:
        label, names = _row_label(line["item"], line["detail"])
        cells = rows.setdefault(label, [""] * len(breakdown))
        points, detail = line["points"], line["detail"]
        cells[seat] = str(points) if names or not detail else f"{points} ({detail})"
    head = [f"{_('seat')} {seat}" for seat in range(len(breakdown))]
    total = [str(score) for score in state.scores()]
    table = [["", *head], *([label, *cells] for label, cells in rows.items()), [_("total"), *total]]
    widths = [max(len(row[i]) for row in table) for i in range(len(head) + 1)]
    lines = []
    for label, *cells in table:
        cells = [cell.rjust(width) for cell, width in zip(cells, widths[1:], strict=True)]
        lines.append("  ".join([label.ljust(widths[0]), *cells]))
    lines.insert(-1, "-" * len(lines[0]))
    return "\n".join(lines)


def _outcome(state: azul.State) -> str:
    """The final scores, explained; or, for an unfinished game, the scores so far."""
    scores = ", ".join(
        _("seat {seat}: {score}").format(seat=i, score=s) for i, s in enumerate(state.scores())
    )
    if not state.is_terminal():
        return _("the game is unfinished; scores so far: {scores}").format(scores=scores)
    final = _("final scores: {scores}").format(scores=scores)
    table = score_table(state)
    return final if table is None else table + "\n" + final


def cmd_train(args: argparse.Namespace) -> int:
    from azul.learn import command

    return command.run(args)


def cmd_bench(args: argparse.Namespace) -> int:
    from azul import native
    from azul.bench import bench, compare

    names = [args.game] if args.game else sorted(azul.GAMES)
    options = _options(args)
    for name in names:
        game = azul.load_game(name, **options)
        print(f"{name} ({', '.join(f'{k}={v}' for k, v in options.items())})")
        result = bench(game, games=args.games, seed=args.seed)
        print("\n".join("  " + line for line in result.lines()))
        if args.compare:
            module = native.module(name)
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
            "matches and tournaments need the arena extra: pip install 'azul-games[arena]'"
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
            raise AzulError(_("--plot needs matplotlib: pip install -e '.[plot]'")) from None
    bots = [BotSpec.parse(b) for b in args.bots]
    for spec in bots:  # fail early on an unknown bot or option
        spec.make(0)
    limit = None
    if args.time is not None or args.iterations is not None:
        limit = Limit(time=args.time, iterations=args.iterations)
    options = _options(args)
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


def cmd_serve(args: argparse.Namespace) -> int:
    try:
        import uvicorn

        from azul.server.app import (
            SERVE_ENVIRONMENT,
            create_app,
            hide_tokens,
            serve_environment,
            settle_collector,
        )
        from azul.server.connections import GuardedHttp, GuardedWebSockets
        from azul.server.settings import Settings
    except ImportError:
        raise AzulError(_("the server needs its extra: pip install -e '.[server]'")) from None
    settings = Settings().with_limits(args.limit or []).with_components(args.components or [])
    if args.workers < 1:
        raise AzulError(_("--workers: {n} is not a positive number").format(n=args.workers))
    if args.workers > 1 and not (args.database or "").startswith(("postgresql:", "postgres:")):
        raise AzulError(
            _(
                "--workers {n}: several processes need PostgreSQL (--database "
                "postgresql://...); SQLite serves one process"
            ).format(n=args.workers)
        )
    app = create_app(args.database, settings=settings)
    url = f"http://{args.host}:{args.port}/"
    where = app.state.lobby.store.url
    print(
        _("Azul games at {url}  (games kept in {where})").format(url=url, where=where), flush=True
    )
    hide_tokens()
    target: Any = app
    if args.workers > 1:  # each worker process makes its own application from these
        os.environ[SERVE_ENVIRONMENT] = serve_environment(args.database, settings)
        target = "azul.server.app:from_environment"
    settle_collector()
    uvicorn.run(
        target,
        factory=args.workers > 1,
        workers=args.workers,
        host=args.host,
        port=args.port,
        log_level="warning",
        timeout_graceful_shutdown=5,
        ws_max_size=settings.max_body,
        http=GuardedHttp,  # caps per address, read timeouts, JSON 503 (server.connections)
        ws=GuardedWebSockets,
        ws_per_message_deflate=False,
    )
    return 0


def _named_file(text: str) -> tuple[str, str]:
    """``NAME=FILE``."""
    name, sep, path = text.partition("=")
    if not sep or not name or not path:
        raise argparse.ArgumentTypeError(_("{text!r} is not NAME=FILE").format(text=text))
    return name, path


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

    def game_args(p: argparse.ArgumentParser, game_required: bool = True) -> None:
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
            type=_option,
            action="append",
            metavar="KEY=VALUE",
            help=_("a game option, e.g. -o board=grey (repeatable)"),
        )
        p.add_argument(
            "--components",
            metavar="FILE",
            help=_("the printed values of your copy (games with a components file: sintra)"),
        )

    p = sub.add_parser("play", help=_("play a game in the terminal"))
    game_args(p)
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
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("replay", help=_("step through a recorded game"))
    p.add_argument("file", help=_("a record (.jsonl) saved by 'azul play --save'"))
    p.add_argument("--all", action="store_true", help=_("print every step without waiting"))
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("show", help=_("print a position document and its legal moves"))
    p.add_argument("file", help=_("a position (.json)"))
    p.set_defaults(func=cmd_show)

    for command, what in (
        ("match", N_("two bots play each other")),
        ("tournament", N_("every pair of bots plays a match")),
    ):
        p = sub.add_parser(command, help=_(what))
        game_args(p)
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
        p.set_defaults(func=cmd_match)

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
        type=_option,
        action="append",
        metavar="KEY=VALUE",
        help=_("change a limit, e.g. --limit bot_time=2 (repeatable; see the README)"),
    )
    p.add_argument(
        "--components",
        type=_named_file,
        action="append",
        metavar="NAME=FILE",
        help=_("offer a components file to players under a name (repeatable)"),
    )
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("rules", help=_("a summary of a game's rules"))
    p.add_argument("game", choices=sorted(azul.GAMES), help=_("the game"))
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser("bench", help=_("measure the engine's speed on random games"))
    game_args(p, game_required=False)
    p.add_argument("--games", type=int, default=300, help=_("games to play (default 300)"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--compare",
        action="store_true",
        help=_("also the game's compiled core, on the same games (azul.native)"),
    )
    p.set_defaults(func=cmd_bench)

    from azul.learn import command as learn  # its arguments, without numpy

    p = sub.add_parser("train", help=_("learn a value network for the MCTS bot by self-play"))
    learn.add_arguments(p)
    p.set_defaults(func=cmd_train)
    return parser


def _language(argv: list[str]) -> None:
    """Choose the language before the parser is built, so that its help is translated too: a
    --lang given here (and remembered), else the detected one. A bad --lang is left for the
    full parser to refuse, in the detected language."""
    finder = argparse.ArgumentParser(add_help=False, exit_on_error=False)
    finder.add_argument("--lang", nargs="?")
    try:
        lang = finder.parse_known_args(argv)[0].lang
    except argparse.ArgumentError:
        lang = None
    if lang is not None and i18n.supported(lang) == lang:
        with contextlib.suppress(OSError):  # a read-only home still gets the language now
            i18n.remember(lang)
        i18n.use(lang)
    else:
        i18n.use(i18n.detect())


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    _language(argv)
    try:
        i18n.translations(i18n.current())
    except i18n.CatalogMissing as e:  # a source tree that was never built
        print(f"azul: error: {e}", file=sys.stderr)
        return 2
    args = build_parser().parse_args(argv)
    command: Callable[[argparse.Namespace], int] = args.func
    try:
        return command(args)
    except AzulError as e:
        print(_("azul: error: {message}").format(message=e.translate(_)), file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away, e.g. '| head'
        sys.stderr.close()
        return 0


if __name__ == "__main__":
    sys.exit(main())
