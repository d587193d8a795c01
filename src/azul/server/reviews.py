"""Reviews of finished games (``azul.review``), made on the bot processes a few decisions at a
time behind the bots' moves, kept in the store so that a second visit costs nothing.

Reviews running at once are bounded in all (``reviews_running``) and per client address (one);
their parts wait in the hints' queue, whose bounds they share. A review's searches are seeded
by the game, so every process that makes it makes the same one.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import azul
from azul.bots.base import Limit
from azul.review import Decision, Review, review_decision, review_svg
from azul.server.errors import TooMany
from azul.server.settings import Settings
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
    """The reviews being made by this process, by game."""

    settings: Settings
    thinking: Thinking
    making: dict[str, Making] = field(default_factory=dict)

    def progress(self, game_id: str) -> dict[str, Any] | None:
        making = self.making.get(game_id)
        if making is None:
            return None
        return {"status": "running", "done": len(making.decisions), "total": making.total}

    def start(self, game_id: str, client: str, total: int) -> Making:
        """Book a new review; TooMany beyond the bounds."""
        if len(self.making) >= self.settings.reviews_running or any(
            m.client == client for m in self.making.values()
        ):
            raise TooMany(
                "the bots are busy: ask for the review again in {seconds} s",
                retry_after=RETRY_SECONDS,
                seconds=RETRY_SECONDS,
            )
        making = self.making[game_id] = Making(client, total)
        return making

    async def make(self, game_id: str, making: Making, job: tuple[Any, ...]) -> str | None:
        """Review the game part by part; its JSON text, or None if it failed."""
        game, options, seed, actions = job
        try:
            while len(making.decisions) < making.total:
                first = len(making.decisions)
                last = min(making.total, first + PART)
                args = (game, options, seed, actions, first, last)
                limits = (self.settings.review_iterations, self.settings.review_time)
                try:
                    part = await self.thinking.hint(
                        making.client, ("review", game_id, first), review_part, *args, *limits
                    )
                except TooMany:
                    await asyncio.sleep(RETRY_SECONDS)
                    continue
                making.decisions.extend(part)
            return json.dumps(self._finished(game, options, seed, making))
        except Exception:  # a broken pool, say: the next request starts again
            log.exception("the review of game %s failed", game_id)
            return None
        finally:
            self.making.pop(game_id, None)

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
