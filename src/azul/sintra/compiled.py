"""Sintra's states on its compiled core (``_core.pyx``, see ``azul.core.compiled``)."""

from __future__ import annotations

from azul.core.compiled import CompiledState
from azul.sintra.state import SintraState


class CompiledSintraState(CompiledState, SintraState):
    """A Stained Glass of Sintra position played on the compiled core."""

    __slots__ = ("_core", "_py")
