"""Summer Pavilion's states on its compiled core (``_core.pyx``, see ``azul.core.compiled``)."""

from __future__ import annotations

from azul.core.compiled import CompiledState
from azul.pavilion.state import PavilionState


class CompiledPavilionState(CompiledState, PavilionState):
    """A Summer Pavilion position played on the compiled core."""

    __slots__ = ("_core", "_py")
