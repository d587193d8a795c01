"""The project's exceptions: every error a caller can meet is one of these.

A message may be a template with named fields (``IllegalMoveError("{where} has no {color}
tile", where=..., color=Word("red"))``): ``str(error)`` is the English text, and
``error.translate(gettext)`` the same message in another language, game words (``Word``)
included. Such templates are collected into the translation catalogs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Word(str):
    """A game word inside an error (a colour, a star): translated with the message."""

    __slots__ = ()


class Message:
    """A sentence for people, to translate: a template with named fields, game words (``Word``)
    among them. ``to_json()`` gives it to clients that translate it themselves."""

    __slots__ = ("fields", "template")

    def __init__(self, template: str, **fields: Any):
        self.template = template
        self.fields = fields

    def translate(self, gettext: Callable[[str], str]) -> str:
        values = {k: gettext(v) if isinstance(v, Word) else v for k, v in self.fields.items()}
        return gettext(self.template).format(**values)

    def to_json(self) -> dict[str, Any]:
        """``{"text": template, "fields": {...}, "words": [fields that are game words]}``."""
        return {
            "text": self.template,
            "fields": dict(self.fields),
            "words": [k for k, v in self.fields.items() if isinstance(v, Word)],
        }

    def __str__(self) -> str:
        return self.translate(lambda text: text)

    def __repr__(self) -> str:
        return f"Message({str(self)!r})"


class AzulError(Exception):
    """Base class of every error raised by the project."""

    def __init__(self, message: str = "", **fields: Any):
        super().__init__(message)
        self.message = message
        self.fields = fields

    def translate(self, gettext: Callable[[str], str]) -> str:
        """The message in the language of ``gettext``."""
        if not self.fields:
            return gettext(self.message)
        values = {
            k: gettext(v)
            if isinstance(v, Word)
            else v.translate(gettext)
            if isinstance(v, AzulError)
            else v
            for k, v in self.fields.items()
        }
        return gettext(self.message).format(**values)

    def __str__(self) -> str:
        return self.translate(lambda text: text)

    def __reduce__(self) -> tuple[Any, ...]:  # errors cross process pools with their fields
        return (_rebuild, (type(self), self.message, self.fields))


def _rebuild(kind: type[AzulError], message: str, fields: dict[str, Any]) -> AzulError:
    return kind(message, **fields)


class IllegalMoveError(AzulError, ValueError):
    """An action that is not legal in this position, or a move string that cannot be read."""


class PositionError(AzulError, ValueError):
    """A position document that is malformed or describes an impossible position."""


class OptionError(AzulError, ValueError):
    """An unknown game, an unknown option or an option with a bad value."""


class RecordError(AzulError, ValueError):
    """A game record that cannot be read or does not replay."""
