"""The bot processes' order: bots' moves ahead of hints, hints bounded in all, per address and
per game (a hint asked for twice is thought once), and a hint over a bound refused with 429."""

from __future__ import annotations

import asyncio
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

pytest.importorskip("fastapi")

from azul.server import service
from azul.server.store import Store
from azul.server.thinking import Thinking
from tests.server.test_fairness import create


class Gate:
    """Jobs that record their start and wait until released."""

    def __init__(self) -> None:
        self.started: list[str] = []
        self.release = threading.Event()

    def job(self, name: str) -> str:
        self.started.append(name)
        self.release.wait(10)
        return name


async def started(gate: Gate, n: int) -> None:
    for _ in range(1000):
        if len(gate.started) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{n} jobs did not start: {gate.started}")


def test_a_bot_goes_ahead_of_waiting_hints():
    gate = Gate()

    async def scenario() -> list[str]:
        with ThreadPoolExecutor(2) as pool:
            thinking = Thinking(lambda: pool, slots=2, hints_queued=8, hints_per_client=8)
            first = asyncio.ensure_future(thinking.hint("a", 1, gate.job, "hint 1"))
            second = asyncio.ensure_future(thinking.hint("b", 2, gate.job, "hint 2"))
            await started(gate, 1)
            await asyncio.sleep(0.1)
            assert gate.started == ["hint 1"]  # hints hold one of the two slots at most
            bot = asyncio.ensure_future(thinking.bot(gate.job, "bot"))
            await started(gate, 2)
            gate.release.set()
            await asyncio.gather(first, second, bot)
            return gate.started

    assert asyncio.run(scenario()) == ["hint 1", "bot", "hint 2"]


def test_hints_are_bounded_in_all_per_address_and_shared_per_game():
    gate = Gate()

    async def scenario() -> list[str]:
        with ThreadPoolExecutor(2) as pool:
            thinking = Thinking(lambda: pool, slots=2, hints_queued=2, hints_per_client=1)
            jobs = [asyncio.ensure_future(thinking.hint("a", "g1", gate.job, "g1"))]
            await started(gate, 1)
            jobs.append(asyncio.ensure_future(thinking.hint("z", "g1", gate.job, "again")))
            for client, key in [("a", "g2"), ("b", "g3"), ("c", "g4"), ("d", "g5")]:
                jobs.append(asyncio.ensure_future(thinking.hint(client, key, gate.job, key)))
                await asyncio.sleep(0)  # each asks in turn
            await asyncio.sleep(0.05)
            gate.release.set()
            answers = await asyncio.gather(*jobs, return_exceptions=True)
            return [a if isinstance(a, str) else type(a).__name__ for a in answers]

    answers = asyncio.run(scenario())
    # g1 asked twice is one job; "a" has one already; b and c wait; d finds the queue full
    assert answers == ["g1", "g1", "TooMany", "g3", "g4", "TooMany"]
    assert gate.started == ["g1", "g3", "g4"]


def test_a_hint_over_the_bound_is_a_429_with_retry_after(make_client, monkeypatch):
    client = make_client(hints_per_client=1)
    release = threading.Event()
    real = service.hint

    def slow(*args):
        release.wait(10)
        return real(*args)

    monkeypatch.setattr(service, "hint", slow)
    g = create(client, options={"first_player": 0})
    h = create(client, options={"first_player": 0})
    lobby = client.app.state.lobby
    with ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(
            client.post, f"/api/games/{g['id']}/hint", json={"token": g["seats"][0]["token"]}
        )
        end = time.time() + 10
        while not lobby.bots.thinking.by_client and time.time() < end:
            time.sleep(0.01)
        res = client.post(f"/api/games/{h['id']}/hint", json={"token": h["seats"][0]["token"]})
        release.set()
        assert waiting.result().status_code == 200
    assert res.status_code == 429 and res.headers["retry-after"] == "5"
    assert "the bots are busy" in res.json()["error"]


def test_hints_think_in_their_own_pool_and_bots_in_theirs():
    def where(name: str) -> str:
        return f"{name} in {threading.current_thread().name.split('_')[0]}"

    async def scenario() -> list[str]:
        with (
            ThreadPoolExecutor(2, thread_name_prefix="bots") as bots,
            ThreadPoolExecutor(1, thread_name_prefix="hints") as hints,
        ):
            thinking = Thinking(lambda: bots, 2, 8, 8, hint_pool=lambda: hints)
            return list(
                await asyncio.gather(
                    thinking.hint("a", 1, where, "hint"), thinking.bot(where, "bot")
                )
            )

    assert asyncio.run(scenario()) == ["hint in hints", "bot in bots"]


def test_the_servers_hints_think_in_a_process_of_lower_priority(tmp_path):
    lobby = service.Lobby(Store(f"sqlite:///{tmp_path / 'games.db'}"))
    try:
        hints = lobby.bots._hint_pool()
        assert hints is not lobby.bots._pool()
        lower = min(19, os.nice(0) + 10)  # niceness stops at 19
        assert hints.submit(os.nice, 0).result(timeout=60) == lower
    finally:
        lobby.close()
