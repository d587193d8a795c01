"""Translations of everything the clients and the ``azul`` command say to people.

Catalogs are gettext ``.po`` files under ``locales/`` (one per language), kept up to date with
Babel (``python -m azul.i18n``). Building the package compiles each one into an ``azul.mo``
beside it (``setup.py``), which is read here with the standard ``gettext`` module alone. Move
notation and the JSON formats are not translated.
"""

from __future__ import annotations

import gettext as _gettext
import json
import locale
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path

LANGUAGES = {"en": "English", "fr": "Français", "pt": "Português"}
DEFAULT = "en"
HERE = Path(__file__).resolve().parent
LOCALES = HERE / "locales"
DOMAIN = "azul"

_current = DEFAULT


class CatalogMissing(RuntimeError):
    """A language's compiled catalog is not there: a source tree that was never built."""


def po_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def mo_path(lang: str) -> Path:
    return LOCALES / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"


@cache
def translations(lang: str) -> _gettext.NullTranslations:
    """The compiled catalog of ``lang``; English (the source language) has none."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return _gettext.NullTranslations()
    try:
        with mo_path(lang).open("rb") as f:
            return _gettext.GNUTranslations(f)
    except FileNotFoundError:
        raise CatalogMissing(
            f"no compiled catalog for {lang!r}: {mo_path(lang)} is missing. Building the "
            "package makes it: in a source tree, run 'pip install -e .' (or 'python -m "
            "azul.i18n', which needs Babel)"
        ) from None


@cache
def catalog(lang: str) -> dict[str, str]:
    """Every translated message of ``lang``, msgid to text (for the browser client); words
    with a context (the terminal's commands) and plural messages are left out."""
    if lang == DEFAULT or lang not in LANGUAGES:
        return {}
    # in a compiled catalog, a context is joined to its msgid by EOT, plural forms are keyed by
    # (msgid, n), and "" holds the header
    messages = translations(lang)._catalog  # type: ignore[attr-defined]
    return {
        msgid: text
        for msgid, text in messages.items()
        if isinstance(msgid, str) and msgid and "\x04" not in msgid
    }


def rules(game: str, lang: str) -> str | None:
    """The short rules summary of ``game`` in ``lang`` (Markdown); None for a game without
    one."""
    lang = lang if lang in LANGUAGES else DEFAULT
    path = HERE / "rules" / f"{game}.{lang}.md"
    return path.read_text(encoding="utf-8") if path.is_file() else None


def supported(tag: str | None) -> str | None:
    """The supported language of a tag like ``fr_FR.UTF-8``, ``pt-BR`` or ``en``."""
    if not tag:
        return None
    code = tag.replace("-", "_").split("_")[0].split(".")[0].lower()
    return code if code in LANGUAGES else None


def config_dir() -> Path:
    """The folder of the command's settings: ``AZUL_CONFIG_DIR``, else ``azul-games`` in the
    user's configuration folder (``XDG_CONFIG_HOME``, else ``~/.config``)."""
    if os.environ.get("AZUL_CONFIG_DIR"):
        return Path(os.environ["AZUL_CONFIG_DIR"])
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "azul-games"


def settings_file() -> Path:
    return config_dir() / "settings.json"


def remembered() -> str | None:
    try:
        return supported(json.loads(settings_file().read_text()).get("language"))
    except (OSError, ValueError, AttributeError):
        return None


def remember(lang: str) -> None:
    """Keep the user's choice of language for the next runs of the ``azul`` command."""
    path = settings_file()
    try:
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            data = {}
    except (OSError, ValueError):
        data = {}
    data["language"] = lang
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2) + "\n")


def detect() -> str:
    """The terminal's language: ``AZUL_LANG``, then the remembered choice, then the locale."""
    for tag in (os.environ.get("AZUL_LANG"), remembered()):
        lang = supported(tag)
        if lang:
            return lang
    for var in ("LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        if os.environ.get(var):
            return supported(os.environ[var].split(":")[0]) or DEFAULT
    try:
        return supported(locale.getlocale()[0]) or DEFAULT
    except ValueError:
        return DEFAULT


def use(lang: str) -> None:
    """Make ``lang`` the language of ``_`` (the terminal and the command)."""
    global _current
    _current = lang if lang in LANGUAGES else DEFAULT


def current() -> str:
    return _current


def _(message: str) -> str:
    """``message`` in the current language."""
    return translations(_current).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """``singular`` or ``plural`` as ``n`` needs, in the current language."""
    return translations(_current).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the current language, as meant in ``context`` (e.g. a command word)."""
    return translations(_current).pgettext(context, message)


def in_language(lang: str) -> Callable[[str], str]:
    """A ``gettext`` for one language, whatever the current one (server drawings)."""
    return translations(lang if lang in LANGUAGES else DEFAULT).gettext


def ngettext_in(lang: str) -> Callable[[str, str, int], str]:
    """An ``ngettext`` for one language, whatever the current one (server drawings)."""
    return translations(lang if lang in LANGUAGES else DEFAULT).ngettext


def N_(message: str) -> str:
    """Marks a message for the catalog without translating it here (tables of names)."""
    return message
