"""Monte Carlo tree search for any game on the API.

Open-loop search over information sets: every iteration starts from a private clone of the
position reseeded from the bot's generator, so unknown draws are sampled from public counts only
(never from the real generator). Tree nodes are keyed by action; an action's statistics are shared
by every sampled future in which it is legal, and exploration counts how often it was available
(single-observer ISMCTS). Leaves are scored by the game's search evaluation (for Summer Pavilion
one that plans the hand's placements), or by its trained value network (``eval``: ``auto`` uses
the network wherever one ships for the game and its number of players; ``weights`` gives one:
a file, or an ``azul.learn.net.Net``),
as each player's lead over the best other player, squashed into -1..1; finished games score
their result plus the margin. Progressive widening ranks a node's actions by the hand evaluation
(``rank="hand"``) or by the leaves' evaluation (``rank="leaf"``).
The tree is kept between moves when the game went on along it. Where the game has a compiled core
(``azul.native``), the search runs in C on it, drawing from the bot's generator at the
same points, so it makes the same decisions as the Python search, only faster (``native=False``
searches in Python). With ``workers`` > 1 the search
is root-parallel: helper processes search the same position with their own trees and seeds, and
the roots' statistics are added up. Where the game has an exact solver for the position (Summer
Pavilion: round 6's play phase; ``Strategy.endgame_values``), the bot plays the solver's ranking.
"""

from __future__ import annotations

import math
import time
import weakref
from typing import Any

from azul.bots.base import Bot, Candidate, Limit, ranked, settle_chance
from azul.bots.evaluation import Evaluation, check_eval, evaluator, load_weights, value_net
from azul.bots.parallel import Helpers, RootStats
from azul.core.api import Game, State
from azul.core.compiled import core_of
from azul.core.errors import AzulError, OptionError

RANKS = ("hand", "leaf")  # what progressive widening ranks by


class Node:
    __slots__ = ("available", "children", "order", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.order: dict[int, int] | None = None  # rank of each action by the evaluation
        self.visits = 0
        self.total = 0.0  # sum of rewards for the player who chose the action leading here
        self.available = 0  # times the action leading here was legal when its parent was visited


class MCTSBot(Bot):
    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int | None = 1000,
        time: float | None = None,
        c: float = 0.7,
        scale: float = 15.0,
        reuse: bool = True,
        widen: float = 1.5,
        own: float = 0.0,
        workers: int = 1,
        endgame: bool = True,
        native: bool = True,
        eval: str = "auto",
        weights: Any = None,
        rank: str = "hand",
    ):
        super().__init__(seed)
        if iterations is None and time is None:
            raise AzulError("mcts needs an iteration or a time limit")
        if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
            raise AzulError(f"mcts workers {workers!r} is not a positive integer")
        self.eval = check_eval(eval)  # what values the leaves: evaluation.EVALS
        if rank not in RANKS:
            raise OptionError(f"mcts rank {rank!r} is not one of {', '.join(RANKS)}")
        self.rank = rank
        if weights is not None and eval == "hand":
            raise OptionError(f"mcts eval={eval} takes no weights: they are a learned evaluation")
        self.weights = weights  # an explicit network: its file (read and checked now) or a Net
        self._weights = None if weights is None else load_weights(weights)
        self._leaf: tuple[tuple[str, int], Any, Evaluation] | None = None  # by game
        self.default = Limit(time=time, iterations=iterations)
        self.c = c
        self.scale = scale
        self.reuse = reuse
        self.widen = widen
        self.own = own  # weight of the bot's own gain in the reward, against the lead
        self.endgame = endgame  # play the game's endgame solver where it applies
        self.native = native  # search on the game's compiled core where there is one
        self._base: list[float] = []
        self._tree: tuple[State, Any] | None = None  # a Node, or a compiled core's Tree
        self.workers = workers  # processes searching each move (root-parallel), this one included
        self._pool: Helpers | None = None
        self._finalizer: weakref.finalize[[], MCTSBot] | None = None

    # -- search ---------------------------------------------------------------------------
    def analyse(self, state: State, limit: Limit | None = None) -> list[Candidate]:
        self._check(state)
        legal = state.legal_actions()
        if len(legal) == 1:  # a forced move needs no search; the tree is kept for later
            return [Candidate(legal[0], state.action_to_string(legal[0]), 0.0, 0)]
        limit = limit or self.default
        start = time.time()
        deadline = None if limit.time is None else start + limit.time
        if self.endgame:  # the solver may take half of the time; the search, what is left
            half = None if limit.time is None else start + limit.time / 2
            values = state.game.strategy().endgame_values(state, half)
            if values is not None:
                return ranked(state, values, self.rng)
        shares = _split(limit.iterations, self.workers)
        pending = self._helpers().search(state, deadline, shares[1:]) if self.workers > 1 else []
        stats = self.search(state, deadline, shares[0])
        for helper in Helpers.results(pending):  # root-parallel: add up the roots' statistics
            for a, (visits, total) in helper.items():
                v, t = stats.get(a, (0, 0.0))
                stats[a] = (v + visits, t + total)

        def count(a: int) -> int:
            return stats[a][0] if a in stats else 0

        def mean(a: int) -> float:
            return stats[a][1] / stats[a][0] if count(a) else 0.0

        order = sorted(legal, key=lambda a: (count(a), mean(a)), reverse=True)
        return [Candidate(a, state.action_to_string(a), mean(a), count(a)) for a in order]

    def search(self, state: State, deadline: float | None, iterations: int | None) -> RootStats:
        """Search ``state`` until ``deadline`` (``time.time()``; at least one iteration) or
        for ``iterations``; the root's (visits, total reward) per action searched."""
        net, evaluate = self._leaves(state.game)
        self._base = [evaluate(state, p) for p in range(state.num_players())]
        module = state.game.compiled() if self.native else None
        if module is not None:
            return self._search_compiled(module, state, deadline, iterations, net)
        rank = evaluate if self.rank == "leaf" else evaluator(state, search=True)
        root = self._reused_root(state)
        n = 0
        while iterations is None or n < iterations:
            if deadline is not None and n and time.time() >= deadline:
                break
            self._iterate(state, root, evaluate, rank)
            n += 1
        if self.reuse:
            self._tree = (state.clone(), root)
        return {a: (child.visits, child.total) for a, child in root.children.items()}

    def leaf_network(self, game: Game[Any]) -> Any:
        """The value network (``azul.learn.net.Net``) at this bot's leaves in ``game``, or None
        for the hand evaluation."""
        return self._leaves(game)[0]

    def leaf_evaluation(self, game: Game[Any]) -> Evaluation:
        """What values this bot's leaves in ``game``: each seat's worth in points."""
        return self._leaves(game)[1]

    def _leaves(self, game: Game[Any]) -> tuple[Any, Evaluation]:
        """The network at the leaves in ``game`` (or None) and the leaves' evaluation."""
        key = (game.name, game.num_players())
        if self._leaf is None or self._leaf[0] != key:
            net = value_net(game, self.eval, self._weights)
            leaf = game.strategy().evaluate_leaf if net is None else net.evaluator(game)
            self._leaf = (key, net, leaf)
        return self._leaf[1], self._leaf[2]

    def _search_compiled(
        self,
        module: Any,
        state: State,
        deadline: float | None,
        iterations: int | None,
        net: Any,
    ) -> RootStats:
        """``search`` in C on the game's compiled core (``module``: ``Game.compiled()``)."""
        kept = self._kept_path(state)
        tree = module.Tree()
        if kept is not None:
            old, moves = kept
            node = 0
            for a in moves:
                node = old.child(node, a)
                if node < 0:
                    break
            else:
                tree = old if not moves else old.subtree(node)
        core = core_of(state, module.Core)
        weights = None if net is None else net.compiled(module)
        module.search(
            core, tree, self.rng, self.c, self.widen, self.scale, self.own, self._base,
            deadline, iterations, weights, self.rank == "leaf",
        )  # fmt: skip
        if self.reuse:
            self._tree = (state.clone(), tree)
        stats: RootStats = tree.stats(0)
        return stats

    def _helpers(self) -> Helpers:
        if self._pool is None:
            tuning = dict(
                c=self.c,
                scale=self.scale,
                reuse=self.reuse,
                widen=self.widen,
                own=self.own,
                native=self.native,
                eval=self.eval,
                weights=self.weights,
                rank=self.rank,
            )  # helpers never reach the endgame solver: the main process answers first
            limit = dict(iterations=self.default.iterations, time=self.default.time)
            options = [
                {**tuning, **limit, "seed": self.seed * 7919 + k} for k in range(1, self.workers)
            ]
            self._pool = Helpers(MCTSBot, options)
            self._finalizer = weakref.finalize(self, self._pool.close)
        return self._pool

    def close(self) -> None:
        """Stop the helper processes (they start again if the bot searches again)."""
        if self._finalizer is not None:
            self._finalizer()  # Helpers.close, once
        self._pool = self._finalizer = None

    def _iterate(
        self, root_state: State, root: Node, evaluate: Evaluation, rank: Evaluation
    ) -> None:
        s = self.private_clone(root_state)
        node = root
        path: list[tuple[Node, int]] = []  # (node, player who chose the action into it)
        while True:
            settle_chance(s, self.rng)
            if s.is_terminal():
                rewards = self._terminal_rewards(s)
                break
            p = s.current_player()
            legal = s.legal_actions()
            if node.visits and self.widen:
                legal = self._widened(node, s, legal, rank)
            fresh = [a for a in legal if a not in node.children]
            if fresh:
                a = fresh[0] if node.order is not None else self.rng.choice(fresh)
                node.children[a] = Node()
                for b in legal:
                    if b in node.children:
                        node.children[b].available += 1
                child = node.children[a]
                s.apply_action(a)
                path.append((child, p))
                settle_chance(s, self.rng)
                rewards = (
                    self._terminal_rewards(s)
                    if s.is_terminal()
                    else self._leaf_rewards(s, evaluate)
                )
                break
            best, best_value = legal[0], -math.inf
            for b in legal:
                ch = node.children[b]
                ch.available += 1
                value = ch.total / ch.visits + self.c * math.sqrt(
                    math.log(ch.available) / ch.visits
                )
                if value > best_value:
                    best, best_value = b, value
            node = node.children[best]
            s.apply_action(best)
            path.append((node, p))
        for n, p in path:
            n.visits += 1
            n.total += rewards[p]

    def _widened(self, node: Node, s: State, legal: list[int], evaluate: Evaluation) -> list[int]:
        """Progressive widening: on its second visit a node ranks its actions by one ply of
        the evaluation; then only the best 1 + widen * sqrt(visits) of them are searched."""
        if node.order is None:
            p = s.current_player()
            values = {}
            for a in legal:
                child = s.clone()
                child.apply_action(a)
                settle_chance(child, self.rng)
                values[a] = evaluate(child, p)
            ranked = sorted(legal, key=lambda a: -values[a])
            node.order = {a: i for i, a in enumerate(ranked)}
        k = 1 + int(self.widen * math.sqrt(node.visits))
        order = node.order
        known = sorted((a for a in legal if a in order), key=order.__getitem__)
        return known[:k] + [a for a in legal if a not in order][: max(0, k - len(known))]

    def _leaf_rewards(self, s: State, evaluate: Evaluation) -> list[float]:
        return self._rewards([evaluate(s, p) for p in range(s.num_players())], None)

    def _rewards(self, values: list[float], result: list[float] | None) -> list[float]:
        """Each player's reward: the lead over the best other player (and the result, when the
        game is over), mixed with ``own`` times the player's gain since the search began."""
        n = len(values)
        rewards = []
        for p in range(n):
            lead = math.tanh((values[p] - max(values[q] for q in range(n) if q != p)) / self.scale)
            if result is not None:
                lead = 0.5 * result[p] + 0.5 * lead
            gain = math.tanh((values[p] - self._base[p]) / self.scale) if self.own else 0.0
            rewards.append((1 - self.own) * lead + self.own * gain)
        return rewards

    def _terminal_rewards(self, s: State) -> list[float]:
        return self._rewards([float(x) for x in s.scores()], s.returns())

    # -- tree reuse -------------------------------------------------------------------------
    def _reused_root(self, state: State) -> Node:
        """The subtree for ``state`` if the game went on from the last searched position along
        actions the tree knows; else a fresh root."""
        kept = self._kept_path(state)
        if kept is None:
            return Node()
        node: Node = kept[0]
        for a in kept[1]:
            child = node.children.get(a)
            if child is None:
                return Node()
            node = child
        return node

    def _kept_path(self, state: State) -> tuple[Any, list[int]] | None:
        """The kept tree's root and the moves (draws left out) from its position to
        ``state``, if the game went on from the last searched position; else None."""
        if not self.reuse or self._tree is None:
            return None
        old_state, old_root = self._tree
        self._tree = None
        old, new = old_state.history(), state.history()
        if len(new) < len(old) or new[: len(old)] != old or old_state.game.info != state.game.info:
            return None
        walker = old_state.clone()
        moves = []
        for a in new[len(old) :]:
            if not walker.is_chance_node():  # chance is not part of an open-loop tree
                moves.append(a)
            walker.apply_action(a)
        return old_root, moves


def _split(iterations: int | None, workers: int) -> list[int | None]:
    """Each process's share of an iteration limit (the first ones take the remainder)."""
    if iterations is None:
        return [None] * workers
    return [iterations // workers + (k < iterations % workers) for k in range(workers)]
