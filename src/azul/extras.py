"""How to install an optional extra (``pyproject.toml``'s optional dependencies), in the form
that fits this copy of the package: from a clone, ``pip install -e '.[server]'``; from a wheel
or an index, ``pip install 'azul-games[server]'``."""

from __future__ import annotations

from pathlib import Path

import azul


def from_a_clone() -> bool:
    """Whether the package runs from a source tree (``src/azul`` beside ``pyproject.toml``)."""
    package = Path(azul.__file__).resolve().parent
    return package.parent.name == "src" and (package.parent.parent / "pyproject.toml").is_file()


def install(extra: str) -> str:
    """The command that installs ``extra`` here."""
    if from_a_clone():
        return f"pip install -e '.[{extra}]'"
    return f"pip install 'azul-games[{extra}]'"
