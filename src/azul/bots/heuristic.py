"""The heuristic bot: one ply of look-ahead scored by the game's evaluation (what strong players
value: adjacency and structures, star and number bonuses, not over-drafting; in Sintra window
chains, glazier tempo and avoiding broken glass)."""

from __future__ import annotations

from azul.bots.base import Bot, Candidate, Limit, order, ranked, settle_chance
from azul.bots.evaluation import Evaluation, evaluator
from azul.core.api import State


class HeuristicBot(Bot):
    name = "heuristic"

    def evaluation(self, state: State) -> Evaluation:
        """The evaluation that scores each action's outcome."""
        return evaluator(state)

    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        return ranked(state, self.values(state), self.rng)

    def choose(self, state: State, limit: Limit | None = None) -> int:
        return order(self.values(state), self.rng)[0]  # analyse's first, without notation

    def values(self, state: State) -> dict[int, float]:
        """Each legal action's value: the evaluation of its outcome for the player to move."""
        self._check(state)
        me = state.current_player()
        legal = state.legal_actions()
        own = type(self).evaluation is HeuristicBot.evaluation  # the game's own evaluation
        if own and not state.game.options.get("explicit_chance"):
            # the same seeds as private_clone's, in order: implicit chance draws no more
            seeds = [self.rng.getrandbits(63) for _ in legal]
            found = state.game.strategy().evaluate_children(state, me, seeds)
            if found is not None:
                return dict(zip(legal, found, strict=True))
            return self._one_by_one(state, me, legal, seeds)
        return self._one_by_one(state, me, legal, None)

    def _one_by_one(
        self, state: State, me: int, legal: list[int], seeds: list[int] | None
    ) -> dict[int, float]:
        """Each action played on its own copy, its draws settled, then evaluated; ``seeds``:
        the copies' seeds if they were drawn already."""
        evaluate = self.evaluation(state)
        values = {}
        for i, a in enumerate(legal):
            child = state.clone()
            child.reseed(self.rng.getrandbits(63) if seeds is None else seeds[i])
            child.apply_action(a)
            settle_chance(child, self.rng)
            values[a] = evaluate(child, me)
        return values
