"""Game review: every decision of a game weighed against the best move, as chess players review
theirs after a game.

For each decision the MCTS searches the position from a seed of its own (so a review is the same
under the same seed and iterations, whatever else ran before). The move played is weighed against
the search's best move in points:

- where the game's endgame solver reaches the end (Summer Pavilion's round 6 play phase), by its
  exact values: the points each move ends the game with;
- else by the search's values read back in points, ``scale * atanh(value)`` (a search value is a
  mean of ``tanh(lead / scale)``, the lead being the mover's over the best other player). A move
  the search hardly visited is valued by a search of the position it led to: that position's best
  value, negated when the other player of a 2-player game moves next; with 3 or 4 players the
  evaluation's lead at that position.

The solver has the time limit per decision, or ``SOLVER_SECONDS`` without one; when it runs
out, the search's values stand in. A decision with one legal move is forced: it loses nothing
and is not searched. Labels (``LABELS``) go by the points lost.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from typing import Any

from azul.bots.base import Limit, settle_chance
from azul.bots.mcts import MCTSBot
from azul.core.api import State
from azul.core.errors import AzulError
from azul.core.records import Record, replay
from azul.i18n import N_

ITERATIONS = 2000  # the default search per decision
SCALE = 30.0  # the search's tuning: the server's mcts levels
C = 0.35
SOLVER_SECONDS = 5.0  # the endgame solver's time per decision without a time limit (then the
# search's values stand in)
MIN_VISITS = 20  # a played move visited fewer times is valued by a search of its own
CLAMP = 0.999  # values this close to +-1 read as this, so that atanh stays finite
LABELS = (("blunder", 10.0), ("mistake", 5.0), ("inaccuracy", 2.0))
"""A decision's label by the points it lost: at least 10 a blunder, 5 a mistake, 2 an
inaccuracy; less than 2 points is no label."""
WORDS = {"inaccuracy": N_("inaccuracy"), "mistake": N_("mistake"), "blunder": N_("blunder")}
"""Each label in words, for the catalogs (``_(WORDS[label])`` is the label in a language)."""


@dataclass(frozen=True)
class Decision:
    """One decision. ``ply``: its line in the record (1 is the first action, draws counted);
    ``lead``: the mover's expected final lead over the best other player before the move, in
    points (None for a forced move); ``loss``: the points the move played gave up against
    ``best`` (0 when it was the best); ``exact``: the endgame solver's values, not the search's."""

    ply: int
    seat: int
    action: int
    move: str
    best: int
    best_move: str
    loss: float
    lead: float | None
    exact: bool
    forced: bool
    label: str | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Player:
    """One seat's summary: its decisions (forced ones not counted), the average points lost per
    decision and the count of each label."""

    seat: int
    decisions: int
    average_loss: float
    inaccuracies: int
    mistakes: int
    blunders: int

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class Review:
    """A whole game's review, with the settings that reproduce it."""

    game: str
    players: int
    seed: int
    iterations: int | None
    time: float | None
    decisions: list[Decision] = field(default_factory=list)

    @property
    def summary(self) -> list[Player]:
        """Per seat: its decisions, average loss and labels."""
        out = []
        for seat in range(self.players):
            mine = [d for d in self.decisions if d.seat == seat and not d.forced]
            labels = [d.label for d in mine]
            average = sum(d.loss for d in mine) / len(mine) if mine else 0.0
            out.append(
                Player(
                    seat,
                    len(mine),
                    round(average, 2),
                    labels.count("inaccuracy"),
                    labels.count("mistake"),
                    labels.count("blunder"),
                )
            )
        return out

    def margins(self, seat: int) -> list[tuple[int, float]]:
        """(ply, ``seat``'s expected final lead) at the decisions that say it: its own, and with
        2 players the other's too, negated."""
        points = []
        for d in self.decisions:
            if d.lead is None:
                continue
            if d.seat == seat:
                points.append((d.ply, d.lead))
            elif self.players == 2:
                points.append((d.ply, -d.lead))
        return points

    def to_json(self) -> dict[str, Any]:
        return {
            "format": "azul-review",
            "version": 1,
            "game": self.game,
            "players": self.players,
            "seed": self.seed,
            "iterations": self.iterations,
            "time": self.time,
            "thresholds": {name: points for name, points in LABELS},
            "summary": [p.to_json() for p in self.summary],
            "decisions": [d.to_json() for d in self.decisions],
        }


def label(loss: float) -> str | None:
    """The label of a decision that lost ``loss`` points (``LABELS``)."""
    for name, points in LABELS:
        if loss >= points:
            return name
    return None


def review_record(
    rec: Record,
    seed: int = 0,
    iterations: int | None = ITERATIONS,
    time_per_move: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of a recorded game (``azul.core.records``)."""
    decisions = sum(1 for p in rec.players if p >= 0)
    return review_moves(_moves(rec), decisions, seed, iterations, time_per_move, progress)


def review_moves(
    moves: Iterable[tuple[State, int]],
    total: int | None = None,
    seed: int = 0,
    iterations: int | None = ITERATIONS,
    time_per_move: float | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """The review of ``moves``: (position, action played) pairs, draws at chance nodes included
    (they are skipped). ``progress(done, total)`` is called after each decision; ``total`` is
    the number of decisions, when known."""
    if iterations is None and time_per_move is None:
        raise AzulError("a review needs an iteration or a time limit per decision")
    limit = Limit(time=time_per_move, iterations=iterations)  # checks both
    out: Review | None = None
    done = 0
    for ply, (state, action) in enumerate(moves, 1):
        if out is None:
            out = Review(state.game.name, state.num_players(), seed, iterations, time_per_move)
        if state.is_chance_node():
            continue
        out.decisions.append(review_decision(state, action, ply, seed, limit))
        done += 1
        if progress is not None:
            progress(done, total or done)
    if out is None:
        raise AzulError("there is no move to review")
    return out


def _moves(rec: Record) -> Iterator[tuple[State, int]]:
    for state, action in replay(rec):
        if action is not None:
            yield state, action


def review_decision(state: State, action: int, ply: int, seed: int, limit: Limit) -> Decision:
    """The review of one decision: ``action`` played in ``state`` at ``ply``."""
    seat = state.current_player()
    legal = state.legal_actions()
    if action not in legal:
        raise AzulError(f"ply {ply}: action {action} is not legal here")
    move = state.action_to_string(action)

    def decided(best: int, loss: float, lead: float | None, exact: bool) -> Decision:
        loss = round(max(0.0, loss), 1) if best != action else 0.0
        return Decision(
            ply, seat, action, move, best, state.action_to_string(best), loss,
            lead, exact, len(legal) == 1, label(loss),
        )  # fmt: skip

    if len(legal) == 1:
        return decided(action, 0.0, None, False)
    bot = _searcher(seed, ply)
    deadline = time.time() + (SOLVER_SECONDS if limit.time is None else limit.time)
    position = state.clone()
    candidates = bot.analyse(position, limit)
    lead = _points(candidates[0].value)
    exact = state.game.strategy().endgame_values(state.clone(), deadline)
    if exact is not None:  # the solver's points at the end: the played move wins ties
        best = max(legal, key=lambda a: (exact[a], a == action))
        return decided(best, exact[best] - exact[action], round(lead, 1), True)
    best = candidates[0].action
    played = next(c for c in candidates if c.action == action)
    if played.visits >= MIN_VISITS:
        value = _points(played.value)
    else:
        value = _value_after(state, action, seat, bot, limit)
    return decided(best, lead - value, round(lead, 1), False)


def _searcher(seed: int, ply: int) -> MCTSBot:
    """The decision's own search, seeded from the review's seed and the ply."""
    own = random.Random(f"review {seed} {ply}").getrandbits(63)
    return MCTSBot(seed=own, iterations=ITERATIONS, scale=SCALE, c=C, reuse=False, endgame=False)


def _value_after(state: State, action: int, seat: int, bot: MCTSBot, limit: Limit) -> float:
    """``seat``'s expected lead in points once ``action`` is played (module description)."""
    after = bot.private_clone(state)
    after.apply_action(action)
    settle_chance(after, bot.rng)
    n = after.num_players()
    if after.is_terminal():
        scores = after.scores()
        return float(scores[seat] - max(s for q, s in enumerate(scores) if q != seat))
    mover = after.current_player()
    if mover == seat or n == 2:
        value = _points(bot.analyse(after, limit)[0].value)
        return value if mover == seat else -value
    evaluate = bot.leaf_evaluation(after.game)
    values = [evaluate(after, p) for p in range(n)]
    return values[seat] - max(v for q, v in enumerate(values) if q != seat)


def _points(value: float) -> float:
    """A search value read back as a lead in points."""
    return SCALE * math.atanh(max(-CLAMP, min(CLAMP, value)))
