"""Keep the catalogs up to date with the sources, with Babel:

    python -m azul.i18n            # extract every message, write azul.pot, update each .po,
                                   # and compile each .po into its azul.mo
    python -m azul.i18n --check    # exit 1 if a catalog is out of date (tests run this)

Messages are found in the Python sources (``_``, ``N_``, ``ngettext``, ``pgettext``, and
``tr``/``ntr`` in the drawings), in the browser client's script (``t``) and in its page (the text
of ``data-i18n`` elements and the titles of ``data-i18n-title`` ones). New messages reach every
``.po`` file empty, for a translator to fill; run it again once they are filled, so that the
compiled ``.mo`` files (which the program reads, and which the build also makes) follow.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import re
import sys
from collections.abc import Iterator
from html.parser import HTMLParser
from typing import Any, BinaryIO

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.pofile import read_po, write_po

from azul.i18n import DEFAULT, HERE, LANGUAGES, LOCALES, mo_path, mofiles, po_path

SOURCES = HERE.parent  # src/azul
METHODS = [
    ("i18n/__main__.py", "ignore"),
    ("**.py", "python"),
    ("web/**.js", "javascript"),
    ("web/**.html", "azul.i18n.__main__:extract_html"),
]
ERRORS = (
    "AzulError",
    "IllegalMoveError",
    "OptionError",
    "Conflict",
    "Forbidden",
    "NotFound",
    "Outdated",
    "Stale",
    "TooLarge",
    "TooMany",
    "Invalid",
    "Message",
)
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "N_": None,
    "t": None,
    "tr": None,
    "ntr": (1, 2),
    **dict.fromkeys(ERRORS),
}
OPTIONS = {"web/**.js": {"parse_template_string": True}}


class _Page(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.found: list[tuple[int, str]] = []
        self.open: list[str] = []  # tags of data-i18n elements being read
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = dict(attrs)
        title = names.get("title")
        if "data-i18n-title" in names and title:
            self.found.append((self.getpos()[0], title))
        if "data-i18n" in names:
            self.open.append(tag)
            self.text = []

    def handle_data(self, data: str) -> None:
        if self.open:
            self.text.append(data)

    def handle_endtag(self, tag: str) -> None:
        if self.open and self.open[-1] == tag:
            self.open.pop()
            self.found.append((self.getpos()[0], re.sub(r"\s+", " ", "".join(self.text)).strip()))


def extract_html(
    fileobj: BinaryIO, keywords: Any, comment_tags: Any, options: Any
) -> Iterator[tuple[int, None, str, list[str]]]:
    """Babel extraction method for the client's page."""
    page = _Page()
    page.feed(fileobj.read().decode("utf-8"))
    for line, text in page.found:
        yield line, None, text, []


def template() -> Catalog:
    """Every message of the sources, as a Babel catalog."""
    pot = Catalog(project="azul-games", domain="azul", charset="utf-8")
    found = extract_from_dir(
        str(SOURCES), METHODS, OPTIONS, keywords=KEYWORDS, comment_tags=("TRANSLATORS:",)
    )
    # Babel notes every f-string it skips: those are messages for developers (malformed
    # positions, records, misuse of the API), which stay in English
    with contextlib.redirect_stderr(io.StringIO()):
        for path, line, message, comments, context in found:
            where = [(f"src/azul/{path}", line)]
            pot.add(message, None, where, auto_comments=comments, context=context)
    return pot


def _dump(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, omit_header=True, sort_output=True, width=100, no_location=True)
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Update the translation catalogs.")
    parser.add_argument("--check", action="store_true", help="only report stale catalogs")
    args = parser.parse_args(argv)
    pot = template()
    stale = []
    files = {LOCALES / "azul.pot": _dump(pot)}
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        path = po_path(lang)
        if path.exists():
            with open(path, "rb") as f:
                catalog = read_po(f, locale=lang)
        else:
            catalog = Catalog(locale=lang, domain="azul", charset="utf-8")
        catalog.update(pot, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        files[path] = _dump(catalog)
    for path, content in files.items():
        if not path.exists() or path.read_bytes() != content:
            stale.append(path)
            if not args.check:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_bytes(content)
    for lang in LANGUAGES:
        if lang == DEFAULT:
            continue
        po, mo = po_path(lang), mo_path(lang)
        if args.check:
            if po not in stale and not mofiles.current(po, mo):
                stale.append(mo)
        elif mofiles.write(po, mo):
            stale.append(mo)
    for path in stale:
        print(f"{'stale' if args.check else 'updated'}: {path.relative_to(SOURCES.parent.parent)}")
    return 1 if stale and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
