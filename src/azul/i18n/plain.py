"""The rules summaries' Markdown as plain terminal text: headings underlined, paragraphs and
list items wrapped, emphasis and code marks removed."""

from __future__ import annotations

import re
import textwrap

_EMPHASIS = re.compile(r"(?<!\w)(\*\*|__|\*|_|`)(\S(?:.*?\S)?)\1(?!\w)")
_ITEM = re.compile(r"([-*+]|\d+\.)\s+(.*)")
_BEFORE_MARK = re.compile(r" (?=[;:!?»])")  # French spacing: kept together while wrapping


def _inline(text: str) -> str:
    return _BEFORE_MARK.sub("\u00a0", _EMPHASIS.sub(r"\2", text))


def _blocks(markdown: str) -> list[list[str]]:
    """Paragraphs, headings and list items, each as its lines (list continuation lines joined)."""
    blocks: list[list[str]] = []
    current: list[str] = []
    for line in markdown.splitlines():
        stripped = line.strip()
        item = _ITEM.fullmatch(stripped) and not line[0].isspace()
        if not stripped or item or stripped.startswith("#"):
            if current:
                blocks.append(current)
            current = [stripped] if stripped else []
            if stripped.startswith("#"):
                blocks.append(current)
                current = []
        else:
            current.append(stripped)
    if current:
        blocks.append(current)
    return blocks


def markdown_to_text(markdown: str, width: int = 80) -> str:
    """``markdown`` (headings, paragraphs, lists, emphasis) as text at most ``width`` wide."""
    out: list[str] = []
    previous_item = False
    for block in _blocks(markdown):
        text = _inline(" ".join(block))
        item = _ITEM.fullmatch(block[0])
        if out and not (item and previous_item):
            out.append("")
        if block[0].startswith("#"):
            level = len(block[0]) - len(block[0].lstrip("#"))
            title = text.lstrip("#").strip()
            out += [title, ("=" if level == 1 else "-") * len(title)]
        elif item:
            bullet = item.group(1) if item.group(1)[0].isdigit() else "-"
            body = _inline(" ".join([item.group(2), *block[1:]]))
            indent = " " * (len(bullet) + 3)
            out.append(
                textwrap.fill(body, width, initial_indent=f"  {bullet} ", subsequent_indent=indent)
            )
        else:
            out.append(textwrap.fill(text, width))
        previous_item = bool(item)
    return "\n".join(out).replace("\u00a0", " ")
