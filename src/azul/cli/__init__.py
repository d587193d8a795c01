"""The ``azul`` command: play in the terminal, replay a record, show a position, benchmark,
run matches, train, serve.

``parser`` declares the arguments, ``commands`` carries them out, ``terminal`` is the game at
the prompt and ``scores`` explains the final scores.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Callable

from azul import i18n
from azul.cli.parser import build_parser
from azul.cli.scores import score_table
from azul.cli.terminal import play
from azul.core.errors import AzulError
from azul.i18n import _

__all__ = ["build_parser", "main", "play", "score_table"]


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
