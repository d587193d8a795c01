# The MCTS search of ``azul.bots.mcts`` in C, for a game's compiled core: included at the end
# of ``azul/<game>/_core.pyx``, whose ``Core`` gives ``_legal``, ``_step``, ``_evaluate``,
# ``_features``, ``_returns``, ``_apply_chance``, ``chance_outcomes`` and ``clone``, and whose
# module defines ``MAXLEGAL``, ``MAXP`` and ``OVER`` (and includes ``_net.pxi``). Every step mirrors ``MCTSBot._iterate``, ``_widened``
# and ``_rewards`` in the same order, and draws from the bot's ``random.Random`` where they
# draw, so that both searches make the same decisions.

from libc.math cimport INFINITY, log, sqrt, tanh
from libc.string cimport memset

import time

cdef struct Child:
    int action
    int node


cdef struct Node:
    int visits
    int available
    double total
    int nchild, cap
    Child* children
    int16_t* ranked  # NULL until ranked: then the actions ranked, best first
    int nranked


cdef class Tree:
    """The nodes of an MCTS tree (``azul.bots.mcts.Node`` in C): node 0 is the root."""

    cdef Node* nodes
    cdef int n, cap

    def __cinit__(self):
        self.cap = 256
        self.nodes = <Node*>malloc(self.cap * sizeof(Node))
        if self.nodes == NULL:
            raise MemoryError()
        self._add()

    def __dealloc__(self):
        cdef int i
        if self.nodes != NULL:
            for i in range(self.n):
                free(self.nodes[i].children)
                free(self.nodes[i].ranked)
            free(self.nodes)

    cdef int _add(self) except -1:
        cdef Node* grown
        if self.n == self.cap:
            grown = <Node*>realloc(self.nodes, 2 * self.cap * sizeof(Node))
            if grown == NULL:
                raise MemoryError()
            self.nodes, self.cap = grown, 2 * self.cap
        memset(&self.nodes[self.n], 0, sizeof(Node))
        self.n += 1
        return self.n - 1

    cdef inline int _child(self, int node, int action) noexcept nogil:
        cdef Node* nd = &self.nodes[node]
        cdef int i
        for i in range(nd.nchild):
            if nd.children[i].action == action:
                return nd.children[i].node
        return -1

    cdef int _add_child(self, int node, int action) except -1:
        cdef int k = self._add()
        cdef Node* nd = &self.nodes[node]
        cdef Child* grown
        if nd.nchild == nd.cap:
            nd.cap = 4 if nd.cap == 0 else 2 * nd.cap
            grown = <Child*>realloc(nd.children, nd.cap * sizeof(Child))
            if grown == NULL:
                raise MemoryError()
            nd.children = grown
        nd.children[nd.nchild].action = action
        nd.children[nd.nchild].node = k
        nd.nchild += 1
        return k

    def child(self, int node, int action):
        """The child of ``node`` along ``action``, or -1."""
        return self._child(node, action)

    def stats(self, int node):
        """{action: (visits, total reward)} of the children of ``node``."""
        cdef Node* nd = &self.nodes[node]
        cdef Node* ch
        out = {}
        for i in range(nd.nchild):
            ch = &self.nodes[nd.children[i].node]
            out[nd.children[i].action] = (ch.visits, ch.total)
        return out

    def subtree(self, int node):
        """A new tree holding the subtree under ``node`` (its root), the rest dropped."""
        cdef Tree out = Tree()
        self._copy(node, out, 0)
        return out

    cdef int _copy(self, int node, Tree out, int into) except -1:
        cdef Node* src = &self.nodes[node]
        cdef int i, k
        out.nodes[into].visits = src.visits
        out.nodes[into].available = src.available
        out.nodes[into].total = src.total
        if src.ranked != NULL:
            out.nodes[into].ranked = <int16_t*>malloc(src.nranked * sizeof(int16_t))
            if out.nodes[into].ranked == NULL:
                raise MemoryError()
            memcpy(out.nodes[into].ranked, src.ranked, src.nranked * sizeof(int16_t))
            out.nodes[into].nranked = src.nranked
        for i in range(src.nchild):
            k = out._add_child(into, self.nodes[node].children[i].action)
            self._copy(self.nodes[node].children[i].node, out, k)
        return 0


cdef struct Params:
    double c, widen, scale, own
    double base[MAXP]
    NetC* leaf  # the value network at the leaves, or NULL: the hand evaluation
    NetC* rank  # the same for the widening's ranking


def search(Core state, Tree tree, rng, double c, double widen, double scale, double own,
           base, deadline, iterations, Weights net=None, bint rank_by_net=False):
    """``MCTSBot.search`` on the compiled core: iterate from ``state`` on ``tree`` (root 0)
    until ``deadline`` (``time.time()``; at least one iteration) or for ``iterations``, drawing
    from ``rng`` (the bot's ``random.Random``) exactly where the Python search draws, so that
    both make the same decisions. With ``net`` the leaves are valued by that network instead of
    the hand evaluation (and the widening ranks by it too with ``rank_by_net``). Returns the
    number of iterations."""
    cdef Params prm
    cdef int n = 0, p
    prm.c, prm.widen, prm.scale, prm.own = c, widen, scale, own
    prm.leaf = prm.rank = NULL
    if net is not None:
        _fits(state, net)
        prm.leaf = &net.net
        prm.rank = prm.leaf if rank_by_net else NULL
    for p in range(state.r.players):
        prm.base[p] = base[p]
    while iterations is None or n < iterations:
        if deadline is not None and n and time.time() >= deadline:
            break
        _iterate(state, tree, rng, &prm)
        n += 1
    return n


def child_values(Core state, seeds):
    """The one-ply bots' loop in C (``HeuristicBot.analyse``): for each legal action, in the
    order of ``legal_actions()``, a copy of ``state`` whose draws follow that action's seed (as
    ``Bot.private_clone`` reseeds), the action played with its draws, and there the hand
    evaluation (``Core.evaluate``) of every seat. Games whose chance is implicit only: with
    explicit chance the bots settle the draws with their own generator, in Python."""
    cdef int legal[MAXLEGAL]
    cdef int n = state._legal(legal), i, p
    cdef Core child
    if state.r.explicit:
        raise AzulError("child_values: explicit draws are the bot's to settle")
    if len(seeds) != n:
        raise AzulError(f"child_values: {len(seeds)} seeds for {n} legal actions")
    out = []
    for i in range(n):
        child = state.clone()
        child.s.rng = <uint64_t>seeds[i]
        child._step(legal[i])
        out.append([child._evaluate(p) for p in range(state.r.players)])
    return out


cdef int _fits(Core state, Weights net) except -1:
    if net.net.nin != state.r.observation_size:
        raise AzulError(
            f"the network reads {net.net.nin} observation entries; this game has "
            f"{state.r.observation_size}"
        )
    return 0


def net_value(Core state, Weights net, int seat):
    """The network's value (points) of ``state`` for ``seat``, as the search's leaves see it
    (a residual network's with the hand evaluation added)."""
    _fits(state, net)
    if not 0 <= seat < state.r.players:
        raise AzulError(f"seat {seat} is not a seat of this game")
    return _leaf_value(state, &net.net, seat)


cdef double _leaf_value(Core s, NetC* net, int p) noexcept:
    """The value of ``s`` for ``p`` in points: the network's if there is one (a residual
    network's plus the hand evaluation's), else the hand evaluation's."""
    cdef Features obs
    if net == NULL:
        return s._evaluate(p)
    obs.n = 0
    s._features(p, &obs)
    if net.residual:
        return s._evaluate(p) + <double>net_forward(net, &obs)
    return net_forward(net, &obs)


cdef _settle(Core s, rng):
    """``settle_chance``: explicit draws by the bot's generator, as the Python search."""
    while s.s.dhead < s.s.dtail:
        outcomes, probs = zip(*s.chance_outcomes())
        s._apply_chance(rng.choices(outcomes, probs)[0])


cdef _iterate(Core root_state, Tree tree, rng, Params* prm):
    cdef Core s = root_state.clone()
    cdef int legal[MAXLEGAL]
    cdef int fresh[MAXLEGAL]
    cdef int path_node[4096]
    cdef int path_player[4096]
    cdef double rewards[MAXP]
    cdef int node = 0, depth = 0, nl, nf, i, k, a, best, p, leaf = 0
    cdef double value, best_value
    cdef Node* ch
    s.s.rng = rng.getrandbits(63)  # Bot.private_clone
    while True:
        if s.r.explicit:
            _settle(s, rng)
        if s.s.kind == OVER:
            leaf = 2
            break
        p = s.s.player
        nl = s._legal(legal)
        if tree.nodes[node].visits and prm.widen:
            nl = _widened(tree, node, s, legal, nl, rng, prm)
        nf = 0
        for i in range(nl):
            if tree._child(node, legal[i]) < 0:
                fresh[nf] = legal[i]
                nf += 1
        if nf:
            if tree.nodes[node].ranked != NULL:
                a = fresh[0]
            else:
                a = rng.choice([fresh[i] for i in range(nf)])
            k = tree._add_child(node, a)
            for i in range(nl):
                best = tree._child(node, legal[i])
                if best >= 0:
                    tree.nodes[best].available += 1
            s._step(a)
            path_node[depth], path_player[depth] = k, p
            depth += 1
            if s.r.explicit:
                _settle(s, rng)
            leaf = 2 if s.s.kind == OVER else 1
            break
        best, best_value = legal[0], -INFINITY
        for i in range(nl):
            ch = &tree.nodes[tree._child(node, legal[i])]
            ch.available += 1
            value = ch.total / ch.visits + prm.c * sqrt(log(<double>ch.available) / ch.visits)
            if value > best_value:
                best, best_value = legal[i], value
        node = tree._child(node, best)
        s._step(best)
        if depth == 4096:
            raise AzulError("the search went deeper than the compiled core allows")
        path_node[depth], path_player[depth] = node, p
        depth += 1
    _rewards(s, prm, leaf == 2, rewards)
    for i in range(depth):
        tree.nodes[path_node[i]].visits += 1
        tree.nodes[path_node[i]].total += rewards[path_player[i]]


cdef int _widened(Tree tree, int node, Core s, int* legal, int nl, rng, Params* prm) except -1:
    """Progressive widening as ``MCTSBot._widened``: rank once by one ply of the evaluation,
    then keep the best 1 + widen * sqrt(visits); ``legal`` is rewritten, its length returned."""
    cdef Node* nd = &tree.nodes[node]
    cdef double values[MAXLEGAL]
    cdef int order[MAXLEGAL]
    cdef int known[MAXLEGAL]
    cdef int unknown[MAXLEGAL]
    cdef int rank[MAXLEGAL]
    cdef int rank_of[MAXLEGAL]
    cdef int i, j, a, p, nk = 0, nu = 0, k, out = 0
    cdef Core child
    if nd.ranked == NULL:
        p = s.s.player
        for i in range(nl):
            child = s.clone()
            child._step(legal[i])
            if s.r.explicit:
                _settle(child, rng)
            values[i] = _leaf_value(child, prm.rank, p)
        for i in range(nl):  # a stable sort, best value first (sorted(key=-value))
            j = i
            while j > 0 and -values[order[j - 1]] > -values[i]:
                order[j] = order[j - 1]
                j -= 1
            order[j] = i
        nd = &tree.nodes[node]
        nd.ranked = <int16_t*>malloc(nl * sizeof(int16_t))
        if nd.ranked == NULL:
            raise MemoryError()
        for i in range(nl):
            nd.ranked[i] = legal[order[i]]
        nd.nranked = nl
    k = 1 + <int>(prm.widen * sqrt(<double>nd.visits))
    for i in range(nl):
        a = legal[i]
        rank[i] = -1
        for j in range(nd.nranked):
            if nd.ranked[j] == a:
                rank[i] = j
                break
        if rank[i] >= 0:
            j = nk  # insert by rank
            while j > 0 and rank_of[j - 1] > rank[i]:
                known[j], rank_of[j] = known[j - 1], rank_of[j - 1]
                j -= 1
            known[j], rank_of[j] = a, rank[i]
            nk += 1
        else:
            unknown[nu] = a
            nu += 1
    for i in range(min(k, nk)):
        legal[out] = known[i]
        out += 1
    for i in range(min(nu, max(0, k - nk))):
        legal[out] = unknown[i]
        out += 1
    return out


cdef void _rewards(Core s, Params* prm, bint over, double* rewards) noexcept:
    """``MCTSBot._rewards`` of a leaf (the evaluation) or of the end (scores and result)."""
    cdef int n = s.r.players, p, q
    cdef double values[MAXP]
    cdef double result[MAXP]
    cdef double other, lead, gain
    for p in range(n):
        values[p] = <double>s.s.points[p] if over else _leaf_value(s, prm.leaf, p)
    if over:
        s._returns(result)
    for p in range(n):
        other = -INFINITY
        for q in range(n):
            if q != p and values[q] > other:
                other = values[q]
        lead = tanh((values[p] - other) / prm.scale)
        if over:
            lead = 0.5 * result[p] + 0.5 * lead
        gain = tanh((values[p] - prm.base[p]) / prm.scale) if prm.own else 0.0
        rewards[p] = (1 - prm.own) * lead + prm.own * gain
