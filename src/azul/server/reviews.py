"""Reviews of finished games (``azul.review``), made on the bot processes a few decisions at a
time behind the bots' moves, kept in the store so that a second visit costs nothing.

Reviews running at once are bounded in all (``reviews_running``) and per client address (one);
their parts wait in the hints' queue, whose bounds they share. With several processes, a review
is made by the one that claims it in the store; its searches are seeded by the game, so any
process that takes it over makes the same one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import azul
from azul.bots.base import Limit
from azul.review import Decision, Review, review_decision, review_svg
from azul.server.errors import TooMany
from azul.server.settings import Settings
from azul.server.store import OUTAGES
from azul.server.tables import Tables
from azul.server.thinking import RETRY_SECONDS, Thinking

log = logging.getLogger("azul.server")
PART = 8  # decisions reviewed by one job of the bot processes


def review_part(
    game: str,
    options: dict[str, Any],
    seed: int,
    actions: list[int],
    first: int,
    last: int,
    iterations: int | None,
    seconds: float | None,
) -> list[dict[str, Any]]:
    """In a worker process: the reviews of decisions ``first`` to ``last - 1`` (counted from 0,
    draws not counted) of the game, each with its best move's targets and words (to draw and
    say it)."""
    state = azul.load_game(game, **options).new_initial_state(seed)
    shown = state.game.presenter()
    limit = Limit(time=seconds, iterations=iterations)
    out: list[dict[str, Any]] = []
    decision = 0
    for ply, action in enumerate(actions, 1):
        if not state.is_chance_node():
            if decision >= last:
                break
            if decision >= first:
                d = review_decision(state, action, ply, seed, limit)
                targets = [dict(t) for t in shown.action_targets(state, d.best)]
                words = shown.describe_action(state, d.best).to_json()
                out.append({**d.to_json(), "targets": targets, "best_text": words})
            decision += 1
        state.apply_action(action)
    return out


@dataclass
class Making:
    """A review being made: the decisions done so far of ``total``."""

    client: str
    total: int
    decisions: list[dict[str, Any]] = field(default_factory=list)


@dataclass
class Reviews:
    """The reviews being made by this process, by game. A review is made by the one process
    that claims it in the store (``me``), for a lease renewed as its parts are done: the others
    tell its progress from the store, and take it over if the claim runs out."""

    settings: Settings
    thinking: Thinking
    tables: Tables
    me: str
    making: dict[str, Making] = field(default_factory=dict)

    async def progress(self, game_id: str) -> dict[str, Any] | None:
        """How far the game's review is, made here or by another process; None if nobody
        makes it."""
        making = self.making.get(game_id)
        if making is not None:
            done, total = len(making.decisions), making.total
        else:
            claim = await self.tables.io(self.tables.store.review_claim, game_id)
            if claim is None:
                return None
            done, total = claim
        return {"status": "running", "done": done, "total": total}

    async def begin(
        self, game_id: str, client: str, total: int, job: tuple[Any, ...]
    ) -> dict[str, Any]:
        """Begin the review of a game for ``client``; TooMany beyond the bounds. Its progress."""
        if len(self.making) >= self.settings.reviews_running or any(
            m.client == client for m in self.making.values()
        ):
            raise TooMany(
                "the bots are busy: ask for the review again in {seconds} s",
                retry_after=RETRY_SECONDS,
                seconds=RETRY_SECONDS,
            )
        making = self.making[game_id] = Making(client, total)
        if not await self._claim(game_id, making):  # another process began it meanwhile
            del self.making[game_id]
            return await self.progress(game_id) or {"status": "running", "done": 0, "total": total}
        self.tables.spawn(self.make(game_id, making, job))
        return {"status": "running", "done": 0, "total": total}

    async def _claim(self, game_id: str, making: Making) -> bool:
        lease = self.settings.bot_lease
        done = len(making.decisions)
        return await self.tables.io(
            self.tables.store.claim_review, game_id, self.me, lease, done, making.total
        )

    async def make(self, game_id: str, making: Making, job: tuple[Any, ...]) -> None:
        """Review the game part by part, renewing the claim, and keep the review; on a
        failure, the claim ends and the next request starts again."""
        game, options, seed, actions = job
        try:
            while len(making.decisions) < making.total:
                first = len(making.decisions)
                last = min(making.total, first + PART)
                args = (game, options, seed, actions, first, last)
                limits = (self.settings.review_iterations, self.settings.review_time)
                key = ("review", game_id, first)
                asked = self.thinking.hint(making.client, key, review_part, *args, *limits)
                try:
                    part = await self._renewing(game_id, making, asked)
                except TooMany:
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                if part is None:  # the claim ran out and another process took the review
                    return
                making.decisions.extend(part)
                if not await self._claim(game_id, making):  # renewed, with the progress
                    return
            text = json.dumps(self._finished(game, options, seed, making))
            await self.tables.io(self.tables.store.save_review, game_id, text)
        except Exception:  # a broken pool, say
            log.exception("the review of game %s failed", game_id)
            with contextlib.suppress(*OUTAGES):
                await self.tables.io(self.tables.store.unclaim_review, game_id, self.me)
        finally:
            self.making.pop(game_id, None)

    async def _renewing(
        self, game_id: str, making: Making, asked: Awaitable[list[dict[str, Any]]]
    ) -> list[dict[str, Any]] | None:
        """A part of the review, the claim renewed while it waits and thinks; None if the
        claim was lost."""
        part = asyncio.ensure_future(asked)
        while not (await asyncio.wait({part}, timeout=self.settings.bot_lease / 3))[0]:
            if not await self._claim(game_id, making):
                part.cancel()
                return None
        return part.result()

    def _finished(
        self, game: str, options: dict[str, Any], seed: int, making: Making
    ) -> dict[str, Any]:
        players = azul.load_game(game, **options).num_players()
        review = Review(
            game, players, seed, self.settings.review_iterations, self.settings.review_time
        )
        shown = {}  # by ply: how the best move is drawn and said
        for d in making.decisions:
            shown[d["ply"]] = {"targets": d.pop("targets"), "best_text": d.pop("best_text")}
            review.decisions.append(Decision(**d))
        doc = review.to_json()
        for d in doc["decisions"]:
            d.update(shown[d["ply"]])
        doc["svg"] = review_svg(review, width=360, height=160)
        return doc
