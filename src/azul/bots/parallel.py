"""Root-parallel search: helper processes that each keep their own MCTS bot and tree.

Every move, each helper searches the same position until the shared deadline (or for its share
of the iterations) and sends back its root's statistics; the bot adds them to its own. Helpers
are started with the ``spawn`` method, so a script that makes a bot with ``workers`` > 1 must
guard its main code with ``if __name__ == "__main__":``.
"""

from __future__ import annotations

import multiprocessing
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from azul.core.api import State
from azul.core.errors import AzulError

RootStats = dict[int, tuple[int, float]]  # action -> (visits, total reward)


class Searcher(Protocol):
    """A bot that searches a position and gives its root's statistics (MCTSBot)."""

    def search(self, state: State, deadline: float | None, iterations: int | None) -> RootStats: ...


_BOT: Searcher | None = None  # the helper process's own bot


def _start(make: type[Searcher], options: dict[str, Any]) -> None:
    global _BOT
    _BOT = make(**options)


def _search(state: State, deadline: float | None, iterations: int | None) -> RootStats:
    if _BOT is None:
        raise RuntimeError("the helper process was started without a bot")
    return _BOT.search(state, deadline, iterations)


class Helpers:
    """One process per helper bot (so each keeps its tree between moves), each made by
    ``make(**options)``."""

    def __init__(self, make: type[Searcher], options: list[dict[str, Any]]):
        context = multiprocessing.get_context("spawn")
        self._pools = [
            ProcessPoolExecutor(1, mp_context=context, initializer=_start, initargs=(make, o))
            for o in options
        ]

    def search(
        self, state: State, deadline: float | None, iterations: list[int | None]
    ) -> list[Future[RootStats]]:
        """Start every helper on ``state``; the futures give their root statistics."""
        return [
            pool.submit(_search, state, deadline, n)
            for pool, n in zip(self._pools, iterations, strict=True)
        ]

    @staticmethod
    def results(futures: list[Future[RootStats]]) -> list[RootStats]:
        """Wait for every helper's statistics."""
        try:
            return [future.result() for future in futures]
        except BrokenProcessPool as e:
            raise AzulError(
                "an MCTS helper process stopped ({reason}); a script that makes a bot with"
                " workers > 1 needs an 'if __name__ == \"__main__\":' guard",
                reason=str(e),
            ) from None

    def close(self) -> None:
        for pool in self._pools:
            pool.shutdown(cancel_futures=True)
