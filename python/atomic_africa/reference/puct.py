"""The pure-Python twin of the native batched PUCT search (``src/aa_core/csrc/aa_puct.c``), on the
reference engine's games: the same walks, draws, rows and floating-point operations in the same
order, so that for the same evaluator answers it makes the same decisions and visit counts, bit for
bit (tests/test_puct.py). Slow by design: it exists to judge the C search.
"""
from __future__ import annotations

import math

import numpy as np

from .. import _maths

__all__ = ["reference_puct"]

_LEAF, _PENDING, _EXPANDED = 0, 1, 2
_GREEDY_FIELDS = ("wound_value", "marker_value", "rally_value", "cover_value", "reserve_value")


class _Node:
    __slots__ = ("action", "player", "children", "n", "vl", "state", "row", "w", "prior")

    def __init__(self, action: int, player: int, prior: float):
        self.action, self.player, self.prior = action, player, prior
        self.children = {}   # action -> _Node
        self.n = self.vl = 0
        self.state, self.row = _LEAF, -1
        self.w = 0.0


def _unit(bg) -> float:
    return float(int(bg.random_raw()) >> 11) * (1.0 / 9007199254740992.0)


def _positive_unit(bg) -> float:
    u = _unit(bg)
    while u == 0.0:
        u = _unit(bg)
    return u


def _std_normal(bg) -> float:
    u1 = _positive_unit(bg)
    u2 = _unit(bg)
    _, c = _maths.sincos(6.283185307179586 * u2)
    return math.sqrt(-2.0 * _maths.log(u1)) * c


def _gamma(bg, a: float) -> float:
    boost = 1.0
    if a < 1.0:
        boost = _maths.exp(_maths.log(_positive_unit(bg)) / a)
        a += 1.0
    d = a - 1.0 / 3.0
    c = 1.0 / math.sqrt(9.0 * d)
    while True:
        while True:
            x = _std_normal(bg)
            v = 1.0 + c * x
            if not v <= 0.0:
                break
        v = v * v * v
        u = _positive_unit(bg)
        if _maths.log(u) < 0.5 * x * x + d - d * v + d * _maths.log(v):
            return d * v * boost


class _Tree:
    def __init__(self, game, bg):
        self.root_game, self.bg = game, bg
        self.forced = -1
        self.root = None
        self.started = 0
        self.walks = []   # (nodes, row or None, winner)
        if not game.is_over:
            legal = game.legal_actions()
            self.me = game.current_player
            self.forced = legal[0] if len(legal) == 1 else (-2 if legal else -1)


def _copy(tree: _Tree):
    g = tree.root_game.clone()
    g.determinize(tree.me, int(tree.bg.random_raw()))
    return g


class _Leaves:
    """What a row holds besides the evaluator's answer: the children a node gets (``width``) and the
    rollout outcome mixed into its value (``rollout``, ``rollout_weight``)."""

    def __init__(self, rollout, rollout_weight, width, agent_params):
        from .game.agents import DoctrineAgent, GreedyAgent, HeuristicAgent

        ap = agent_params or {}
        self.greedy = GreedyAgent(**{k: ap[k] for k in _GREEDY_FIELDS if k in ap})
        self.width, self.weight, self.rollout = width, rollout_weight, rollout
        self.agent = {"greedy": self.greedy, "heuristic": HeuristicAgent(),
                      "doctrine": DoctrineAgent(**{k: ap[k] for k in ("standoff_cm",) if k in ap}),
                      "random": None, "none": None}[rollout]

    def widest(self, g, legal: list) -> list:
        """The greedy agent's best ``width`` of ``legal`` (ascending; ties to the lowest id), ascending."""
        if self.width <= 0 or len(legal) <= 1:
            return legal
        from .game.agents.scoring import _View

        scores = self.greedy._scores(g, _View(g), legal)
        return sorted(sorted(legal, key=lambda a: (-scores[a], a))[:self.width])

    def outcome(self, g, player: int) -> float:
        """Play ``g`` out with the rollout agent (random: the game's own stream) and score it for ``player``."""
        while not g.is_over:
            if self.agent is not None:
                a = self.agent.act(g)
            else:
                legal = g.legal_actions()
                a = legal[int(np.random.Generator(g.src._bitgen).integers(len(legal)))] if len(legal) > 1 else legal[0]
            g.apply(a)
        w = g.s.winner
        return 0.0 if w < 0 else (1.0 if w == player else -1.0)

    def row(self, g, player: int, root: bool):
        """(observation, mask, kept, z) of the player to move in ``g`` (which the rollout then plays out)."""
        obs, mask = g.observation(player), g.action_mask()
        kept = self.widest(g, sorted(g.legal_actions()))
        z = 0.0
        if not root and self.rollout != "none" and self.weight > 0.0:
            z = self.outcome(g, player)
        return obs, mask, kept, z


def reference_puct(games, bit_generators, evaluator, *, simulations, wave, c_puct, dirichlet_alpha, noise_fraction,
                   temperature, rollout="none", rollout_weight=0.0, width=0, agent_params=None):
    """Search each running game of ``games`` (reference-engine games) for its player to move.

    ``bit_generators[i]`` (a numpy ``PCG64``) is tree i's stream and is advanced. ``rollout`` names the
    rollout agent (``"none"`` or one of ``ROLLOUT_AGENTS``), ``agent_params`` the greedy and doctrine
    agents' values (a dict of ``AGENT_PARAM_FIELDS``; None: those agents' own defaults). Returns
    ``(actions, policy, value, evaluations, waves)`` as the native search's ``aa_core.puct.run``.
    """
    leaves = _Leaves(rollout, rollout_weight, width, agent_params)
    trees = [_Tree(g, bg) for g, bg in zip(games, bit_generators)]
    n_actions = games[0].num_actions
    evaluations = waves = 0
    while True:
        rows = []   # (tree, node, player, observation, mask, kept, z)
        while True:
            walked = 0
            for t in trees:
                t.walks = []
                if t.forced != -2:
                    continue
                if t.root is None:
                    t.root = _Node(-1, -1, 0.0)
                    g = _copy(t)
                    t.root.state, t.root.row = _PENDING, len(rows)
                    rows.append((t, t.root, g.current_player, *leaves.row(g, g.current_player, True)))
                    continue
                k = min(wave, simulations - t.started)
                for _ in range(k):
                    _walk(t, rows, c_puct, leaves)
                t.started += k
                walked += k
            if rows or walked == 0:
                break
            _backup(trees, [])
        if not rows:
            break
        evaluations += len(rows)
        waves += 1
        obs = np.stack([r[3] for r in rows]).astype(np.float32)
        masks = np.stack([r[4] for r in rows]).astype(bool)
        priors, values = evaluator(obs, masks)
        priors = np.asarray(priors, dtype=np.float32).reshape(len(rows), n_actions)
        values = np.asarray(values, dtype=np.float32).reshape(len(rows))
        for r, (t, node, player, _, _, legal, _) in enumerate(rows):
            s = 0.0
            for a in legal:
                s += float(priors[r, a])
            m = len(legal)
            for a in legal:
                node.children[int(a)] = _Node(int(a), player, float(priors[r, a]) / s if s > 0.0 else 1.0 / m)
            node.state = _EXPANDED
            if node is t.root and dirichlet_alpha > 0.0 and noise_fraction > 0.0:
                ids = sorted(node.children)
                noise = [_gamma(t.bg, dirichlet_alpha) for _ in ids]
                gsum = 0.0
                for x in noise:
                    gsum += x
                if gsum > 0.0:
                    for a, x in zip(ids, noise):
                        c = node.children[a]
                        c.prior = (1.0 - noise_fraction) * c.prior + noise_fraction * (x / gsum)
        mixed = []
        for i in range(len(rows)):
            v = float(values[i])
            if leaves.rollout != "none" and leaves.weight > 0.0:
                v = (1.0 - leaves.weight) * v + leaves.weight * rows[i][6]
            mixed.append((rows[i][2], v))
        _backup(trees, mixed)
    actions = np.full(len(trees), -1, dtype=np.intc)
    policy = np.zeros((len(trees), n_actions), dtype=np.float32)
    value = np.zeros(len(trees), dtype=np.float32)
    for i, t in enumerate(trees):
        if t.forced != -2:
            actions[i] = t.forced if t.forced >= 0 else -1
            if t.forced >= 0:
                policy[i, t.forced] = 1.0
            continue
        kids = [t.root.children[a] for a in sorted(t.root.children)]
        total = 0.0
        for c in kids:
            total += float(c.n)
        # C sums the root's W in its child-list order (newest first: descending ids)
        root_w = 0.0
        for c in reversed(kids):
            root_w += c.w
        best = max(kids, key=lambda c: (c.n, -c.action))
        for c in kids:
            policy[i, c.action] = np.float32(float(c.n) / total)
        value[i] = np.float32(root_w / total)
        a = best.action
        if temperature > 0.0:
            def weight(n):
                if n == 0:
                    return 0.0
                return float(n) if temperature == 1.0 else _maths.exp(_maths.log(float(n)) / temperature)
            wsum = 0.0
            for c in kids:
                wsum += weight(c.n)
            u = _unit(t.bg) * wsum
            acc, a = 0.0, -1
            for c in kids:
                w = weight(c.n)
                acc += w
                if w > 0.0 and u < acc:
                    a = c.action
                    break
            if a < 0:
                a = max(c.action for c in kids if c.n > 0)
        actions[i] = a
    return actions, policy, value, evaluations, waves


def _walk(t: _Tree, rows: list, c_puct: float, leaves: _Leaves) -> None:
    g = _copy(t)
    node, path = t.root, [t.root]
    row, winner = None, -1
    while True:
        if g.is_over:
            winner = g.s.winner
            break
        if node.state == _PENDING:
            row = node.row
            break
        if node.state == _LEAF:
            node.state, node.row = _PENDING, len(rows)
            p = g.current_player
            rows.append((t, node, p, *leaves.row(g, p, False)))
            row = node.row
            break
        legal = leaves.widest(g, sorted(g.legal_actions()))
        m = len(legal)
        for a in legal:
            if a not in node.children:
                node.children[a] = _Node(a, g.current_player, 1.0 / m)
        nsum = 0.0
        for a in legal:
            c = node.children[a]
            nsum += float(c.n + c.vl)
        nsum = math.sqrt(1.0 + nsum)
        best, best_score = None, 0.0
        for a in legal:
            c = node.children[a]
            q = (c.w - float(c.vl)) / float(c.n + c.vl) if c.n + c.vl > 0 else 0.0
            score = q + c_puct * c.prior * nsum / float(1 + c.n + c.vl)
            if best is None or score > best_score:
                best, best_score = c, score
        best.vl += 1
        g.apply(best.action)
        node = best
        path.append(node)
    t.walks.append((path, row, winner))


def _backup(trees, answers) -> None:
    for t in trees:
        for path, row, winner in t.walks:
            for n in path[1:]:
                if row is not None:
                    player, v = answers[row]
                    val = v if n.player == player else -v
                else:
                    val = 0.0 if winner < 0 else (1.0 if n.player == winner else -1.0)
                n.vl -= 1
                n.n += 1
                n.w += val
        t.walks = []
