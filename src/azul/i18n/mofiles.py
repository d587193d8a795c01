"""Compiling the catalogs with Babel: each ``locales/LANG/LC_MESSAGES/azul.po`` into ``azul.mo``
beside it, which the package reads at run time with the standard ``gettext`` module.

The build runs this when the package is built (``setup.py``: a wheel, or ``pip install -e .``),
and so does ``python -m azul.i18n`` after it updates the catalogs. It imports nothing of azul,
so that the build can load it from its file before the package is installed.
"""

from __future__ import annotations

import gettext
import io
import os
from pathlib import Path
from typing import Any

PATTERN = "locales/*/LC_MESSAGES/azul.po"  # relative to the azul.i18n package folder


def sources(package: Path) -> list[Path]:
    """Every catalog of the package folder ``package`` (``src/azul/i18n``)."""
    return sorted(package.glob(PATTERN))


def compiled(po: Path) -> bytes:
    """The ``.mo`` bytes of the catalog ``po``; its language is the name of its folder."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=po.parent.parent.name)
    out = io.BytesIO()
    write_mo(out, catalog)
    return out.getvalue()


VARYING = ("POT-Creation-Date:", "Generated-By:")


def messages(data: bytes) -> dict[Any, Any]:
    """What a compiled catalog holds, less the header lines that change with every compilation
    (the date, Babel's version)."""
    found = dict(gettext.GNUTranslations(io.BytesIO(data))._catalog)  # type: ignore[attr-defined]
    header = found.get("", "").splitlines()
    found[""] = [line for line in header if not line.startswith(VARYING)]
    return found


def _holds(mo: Path, data: bytes) -> bool:
    """Whether the file ``mo`` holds the messages of the compiled catalog ``data``."""
    try:
        return messages(mo.read_bytes()) == messages(data)
    except OSError:  # missing, or not a catalog
        return False


def current(po: Path, mo: Path) -> bool:
    """Whether ``mo`` holds what ``po`` compiles to."""
    return _holds(mo, compiled(po))


def write(po: Path, mo: Path) -> bool:
    """Compile ``po`` into ``mo``, replacing the file whole; False when it was already so."""
    data = compiled(po)
    if _holds(mo, data):
        return False
    mo.parent.mkdir(parents=True, exist_ok=True)
    partial = mo.with_name(f".{mo.name}.{os.getpid()}.tmp")
    partial.write_bytes(data)
    os.replace(partial, mo)  # a program reading the catalog meanwhile sees the old or the new
    return True
