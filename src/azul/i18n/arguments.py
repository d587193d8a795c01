"""argparse in the current language: a parser whose own words (the usage line, the section
titles, the help and version options, its error messages) come from the project's catalogs.

argparse looks its words up with ``gettext.gettext``, in the process's global gettext domain.
Rather than change that domain or argparse's module for the whole process, this parser
translates what argparse produces: it gives the usage prefix and the titles itself, and its
``error`` reads the English message back against the templates below and says it again in the
current language.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Iterable
from functools import cache
from typing import Any, NoReturn

from azul.i18n import N_, _

HELP = N_("show this help message and exit")
VERSION = N_("show program's version number and exit")

# argparse's error messages that the command can show, as argparse writes them
ERRORS = (
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("unrecognized arguments: %s"),
    N_("expected one argument"),
    N_("invalid %(type)s value: %(value)r"),
)

_FIELD = re.compile(r"%(?:\((\w+)\))?[sdr]")


@cache
def _pattern(template: str) -> re.Pattern[str]:
    """A template as a regular expression whose groups are its fields, in order."""
    parts = _FIELD.split(template)  # text, name or None, text, ...
    regex = (re.escape(part) if i % 2 == 0 else "(.+?)" for i, part in enumerate(parts))
    return re.compile("".join(regex), re.DOTALL)


def translate_error(message: str) -> str:
    """argparse's English error ``message`` in the current language; a message that is not
    one of argparse's (already translated by the command) is left as it is."""
    for template in ERRORS:
        found = _pattern(template).fullmatch(message)
        if found is not None:
            fields = list(zip(_FIELD.findall(template), found.groups(), strict=True))
            return _fill(_(template), fields)
    return message


def _fill(text: str, fields: list[tuple[str, str]]) -> str:
    """``text`` with its fields replaced by the values read from the English message."""
    # "argument X: message" holds another of argparse's messages
    named = {name: translate_error(v) if name == "message" else v for name, v in fields if name}
    positional = iter(value for name, value in fields if not name)
    return _FIELD.sub(lambda field: named[field[1]] if field[1] else next(positional), text)


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help formatter, with the usage prefix in the current language."""

    def add_usage(
        self,
        usage: str | None,
        actions: Iterable[argparse.Action],
        groups: Iterable[argparse._MutuallyExclusiveGroup],
        prefix: str | None = None,
    ) -> None:
        super().add_usage(usage, actions, groups, _("usage: ") if prefix is None else prefix)


class ArgumentParser(argparse.ArgumentParser):
    """``argparse.ArgumentParser`` speaking the current language (its sub-command parsers
    too); the messages of the program's own arguments are translated by the program."""

    def __init__(self, prog: str | None = None, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", HelpFormatter)
        add_help = kwargs.pop("add_help", True)
        super().__init__(prog, add_help=False, **kwargs)
        self._positionals.title = _("positional arguments")
        self._optionals.title = _("options")
        if add_help:
            dash = "-" if "-" in self.prefix_chars else self.prefix_chars[0]
            help_ = _(HELP)
            self.add_argument(
                dash + "h", dash * 2 + "help", action="help", default=argparse.SUPPRESS, help=help_
            )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        text = _("%(prog)s: error: %(message)s\n")
        self.exit(2, text % {"prog": self.prog, "message": translate_error(message)})
