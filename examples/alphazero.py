"""AlphaZero-style self-play: batched PUCT search guided by a policy-value network trained in torch.

Every iteration, ``--envs`` games of one :class:`~atomic_africa.game.native.vector.VectorGame` advance
``--steps`` decisions each; every decision is chosen by the native batched PUCT search
(:func:`atomic_africa.agents.puct.puct_search`, ``--simulations`` per decision, one network call per
wave across all games) with Dirichlet noise at the root. For the first ``--temperature-moves``
decisions of a game the move is drawn in proportion to the root's visit counts, then it is the most
visited. Each decision is kept as (observation, legal mask, visit distribution, player to move); when
its game ends, every decision of it is labelled with the outcome for its mover (+1, 0, -1; with
``--value-mix m``, ``(1 - m)`` of it plus ``m`` of the search's root value) and goes to a replay
buffer of the last ``--buffer`` decisions. Then the network takes ``--updates`` Adam steps
on minibatches of the buffer: cross-entropy of its masked policy against the visit distributions plus
the squared error of its value against the outcomes.

The network is the one :class:`atomic_africa.agents.network.MLPEvaluator` reads: an MLP trunk with
ReLU, a policy-logits head (masked softmax) and a tanh value head. It is exported to ``--out/alphazero.npz``
(:func:`atomic_africa.agents.network.save_mlp`), which :class:`atomic_africa.agents.puct.PUCTAgent`
plays without torch.

Every ``--eval-every`` iterations the network with search (``--eval-simulations``, no noise, most
visited move) plays
``--eval-games`` games against the native greedy agent, sides alternating and each game seed played
from both sides; the win share of decided games, the score and the Elo difference it implies go to
``--out/curve.csv`` against training wall time (the learning curve) and to TensorBoard
(``tensorboard --logdir runs/alphazero/tensorboard``; the ``tensorboard`` package is in the ``sb3``
extra) with the losses and the throughput. ``--final-games N`` ends the run with N games against
greedy and N against the native ``ismcts`` agent at the same number of simulations
(``--out/final.json``).

A run you can leave: every ``--checkpoint-every`` iterations and when it stops (``--minutes`` spent,
``--iterations`` reached) it writes ``--out/resume.pt``: the network, Adam's moments, the replay
buffer, the games in progress (the VectorGame's snapshot, which holds every env's agent stream the
search draws from) with their unlabelled decisions, the counters and the curve. The iteration's own
draws (the opening moves, the minibatches) come from numpy generators seeded from (``--seed``,
iteration), so ``--resume`` goes on to the same network bit for bit as a run never stopped (torch
on one thread, deterministic algorithms; ``tests/test_alphazero_example.py`` compares).
``--minutes`` counts the whole run's training time, resumed parts included; where a budget stops
depends on the machine's speed, ``--iterations`` does not.

Run it from the repository root::

    python examples/alphazero.py --out runs/alphazero --minutes 60
    python examples/alphazero.py --out runs/alphazero --smoke        # a few seconds: the suite's run

Its files (each written under a temporary name and renamed into place): ``alphazero.npz``,
``curve.csv`` (and with ``--plot`` ``curve.png``), ``resume.pt``, ``summary.json``, ``final.json`` and
``tensorboard/``.
"""
from __future__ import annotations

import argparse
import csv
import io
import json
import math
import os
import pickle
import sys
import time

import numpy as np

CHECKPOINT = "alphazero.npz"
RESUME = "resume.pt"
CURVE = "curve.csv"
CURVE_FIELDS = ("iteration", "wall_seconds", "games", "decisions", "eval_games", "wins", "draws", "losses",
                "win_share_decided", "score", "elo_vs_greedy")

#: Settings a resumed run must share with its checkpoint (the others only say how long to go on and
#: what to report).
TRAINING = ("scenario", "seed", "envs", "simulations", "wave", "c_puct", "rollout", "rollout_weight", "width",
            "steps", "temperature_moves",
            "dirichlet", "noise_fraction", "value_mix", "hidden", "lr", "weight_decay", "batch_size", "updates",
            "buffer", "torch_threads", "warm_games", "warm_updates")

DEFAULTS = dict(envs=32, simulations=64, wave=8, c_puct=1.5, rollout="none", rollout_weight=0.0, width=0,
                steps=32, temperature_moves=20,
                dirichlet=0.3, noise_fraction=0.25, value_mix=0.0, hidden="256,256", lr=1e-3, weight_decay=1e-4,
                batch_size=256, updates=16, buffer=65536, checkpoint_every=10, eval_every=10,
                eval_games=64, final_games=0, minutes=60.0, iterations=0, warm_games=0, warm_updates=2000)
#: ``--smoke``: a run of a few seconds that still finishes games, trains, evaluates and checkpoints.
SMOKE = dict(envs=4, simulations=8, wave=4, c_puct=1.5, rollout="none", rollout_weight=0.0, width=0,
             steps=96, temperature_moves=8,
             dirichlet=0.3, noise_fraction=0.25, value_mix=0.0, hidden="32", lr=1e-3, weight_decay=1e-4,
             batch_size=32, updates=4, buffer=4096, checkpoint_every=1, eval_every=2,
             eval_games=4, final_games=0, minutes=5.0, iterations=3, warm_games=0, warm_updates=4)


# -- arguments ----------------------------------------------------------------------------------
def _positive(kind):
    def parse(text):
        try:
            x = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a {kind.__name__}, got {text!r}") from None
        if not x > 0 or (kind is float and not math.isfinite(x)):
            raise argparse.ArgumentTypeError(f"expected a number > 0, got {text!r}")
        return x
    parse.__name__ = kind.__name__
    return parse


def _nonnegative(kind):
    def parse(text):
        try:
            x = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected a {kind.__name__}, got {text!r}") from None
        if not x >= 0 or (kind is float and not math.isfinite(x)):
            raise argparse.ArgumentTypeError(f"expected a number >= 0, got {text!r}")
        return x
    parse.__name__ = kind.__name__
    return parse


def _fraction(text):
    x = _nonnegative(float)(text)
    if x > 1:
        raise argparse.ArgumentTypeError(f"expected a number in [0, 1], got {text!r}")
    return x


def _widths(text):
    try:
        w = [int(t) for t in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected comma-separated layer widths, e.g. 256,256; got {text!r}") from None
    if not w or any(x < 1 or x > 4096 for x in w):
        raise argparse.ArgumentTypeError(f"expected 1 or more widths in 1..4096, got {text!r}")
    return ",".join(map(str, w))


def build_parser() -> argparse.ArgumentParser:
    from atomic_africa.agents.puct import PUCT_ROLLOUTS
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--out", default="runs/alphazero", help="output directory")
    p.add_argument("--resume", action="store_true", help="go on from --out/resume.pt (same settings)")
    p.add_argument("--smoke", action="store_true", help="tiny settings (a few seconds) for unset options")
    p.add_argument("--scenario", default=None, help="packaged scenario name or TOML path (default: the default battle)")
    p.add_argument("--seed", type=_nonnegative(int), default=0)
    p.add_argument("--minutes", type=_positive(float), help=f"training time budget, whole run [{DEFAULTS['minutes']}]")
    p.add_argument("--iterations", type=_nonnegative(int), help="stop after this many iterations (0: no limit) [0]")
    g = p.add_argument_group("self-play")
    g.add_argument("--envs", type=_positive(int), help=f"games played at once [{DEFAULTS['envs']}]")
    g.add_argument("--simulations", type=_positive(int),
                   help=f"PUCT simulations per decision [{DEFAULTS['simulations']}]")
    g.add_argument("--wave", type=_positive(int), help=f"leaves per tree per network call [{DEFAULTS['wave']}]")
    g.add_argument("--c-puct", type=_nonnegative(float), help=f"[{DEFAULTS['c_puct']}]")
    g.add_argument("--rollout", choices=PUCT_ROLLOUTS,
                   help="the agent that plays each new leaf out (AlphaGo's mixed value), in self-play and "
                        f"evaluations [{DEFAULTS['rollout']}]")
    g.add_argument("--rollout-weight", type=_fraction,
                   help=f"lambda: a leaf is worth (1 - lambda) x the network's value + lambda x its rollout's "
                        f"[{DEFAULTS['rollout_weight']}]")
    g.add_argument("--width", type=_nonnegative(int),
                   help=f"children per node: the greedy agent's best WIDTH actions (0: all) [{DEFAULTS['width']}]")
    g.add_argument("--steps", type=_positive(int), help=f"decisions per env per iteration [{DEFAULTS['steps']}]")
    g.add_argument("--temperature-moves", type=_nonnegative(int),
                   help=f"decisions of a game drawn from the visit counts [{DEFAULTS['temperature_moves']}]")
    g.add_argument("--dirichlet", type=_nonnegative(float),
                   help=f"root noise alpha (0: none) [{DEFAULTS['dirichlet']}]")
    g.add_argument("--noise-fraction", type=_fraction, help=f"[{DEFAULTS['noise_fraction']}]")
    t = p.add_argument_group("training")
    t.add_argument("--value-mix", type=_fraction,
                   help=f"value target: (1 - mix) x outcome + mix x the search's root value [{DEFAULTS['value_mix']}]")
    t.add_argument("--hidden", type=_widths, help=f"trunk widths [{DEFAULTS['hidden']}]")
    t.add_argument("--lr", type=_positive(float), help=f"Adam learning rate [{DEFAULTS['lr']}]")
    t.add_argument("--weight-decay", type=_nonnegative(float), help=f"AdamW weight decay [{DEFAULTS['weight_decay']}]")
    t.add_argument("--batch-size", type=_positive(int), help=f"[{DEFAULTS['batch_size']}]")
    t.add_argument("--updates", type=_nonnegative(int), help=f"gradient steps per iteration [{DEFAULTS['updates']}]")
    t.add_argument("--buffer", type=_positive(int), help=f"replay buffer decisions [{DEFAULTS['buffer']}]")
    t.add_argument("--warm-games", type=_nonnegative(int),
                   help="before self-play, games of the native greedy agent against itself whose moves (as "
                        "one-hot policies) and outcomes fill the buffer (0: start from scratch) "
                        f"[{DEFAULTS['warm_games']}]")
    t.add_argument("--warm-updates", type=_nonnegative(int),
                   help=f"gradient steps on those games before self-play [{DEFAULTS['warm_updates']}]")
    t.add_argument("--torch-threads", type=_positive(int), default=1, help="torch threads (1: bit-for-bit resume)")
    r = p.add_argument_group("checkpoints and evaluation")
    r.add_argument("--checkpoint-every", type=_positive(int), help=f"iterations [{DEFAULTS['checkpoint_every']}]")
    r.add_argument("--eval-every", type=_positive(int), help=f"iterations [{DEFAULTS['eval_every']}]")
    r.add_argument("--eval-games", type=_nonnegative(int),
                   help=f"games against greedy per evaluation (0: none) [{DEFAULTS['eval_games']}]")
    r.add_argument("--eval-simulations", type=_positive(int),
                   help="simulations per decision in evaluations, ours and ismcts's (default: --simulations)")
    r.add_argument("--plot", action="store_true", help="also draw the curve into --out/curve.png (extra plot)")
    r.add_argument("--final-games", type=_nonnegative(int),
                   help=f"games against greedy and against ismcts at the end [{DEFAULTS['final_games']}]")
    return p


def parse_args(argv=None) -> argparse.Namespace:
    parser = build_parser()
    args = parser.parse_args(argv)
    base = SMOKE if args.smoke else DEFAULTS
    for k, x in base.items():
        if getattr(args, k) is None:
            setattr(args, k, x)
    if args.eval_simulations is None:
        args.eval_simulations = args.simulations
    if args.wave > min(args.simulations, args.eval_simulations):
        parser.error(f"argument --wave: {args.wave} is more than --simulations {args.simulations} "
                     f"or --eval-simulations {args.eval_simulations}")
    if args.eval_games % 2 or args.final_games % 2:
        parser.error("arguments --eval-games and --final-games: expected even numbers (each seed from both sides)")
    args.parser = parser
    return args


# -- the network --------------------------------------------------------------------------------
def make_net(torch, obs_size: int, num_actions: int, hidden):
    nn = torch.nn

    class PolicyValueNet(nn.Module):
        """MLP trunk (ReLU), policy logits, tanh value: MLPEvaluator's architecture."""

        def __init__(self):
            super().__init__()
            sizes = [obs_size] + list(hidden)
            self.trunk = nn.ModuleList(nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:]))
            self.policy = nn.Linear(sizes[-1], num_actions)
            self.value = nn.Linear(sizes[-1], 1)

        def forward(self, x):
            for layer in self.trunk:
                x = torch.relu(layer(x))
            return self.policy(x), torch.tanh(self.value(x))[:, 0]

    return PolicyValueNet()


def masked_logits(torch, logits, masks):
    # a large finite fill, not -inf: a row without legal actions (never searched) must not give NaN
    return logits.masked_fill(~masks, -1e9)


class Evaluator:
    """The search's evaluator: the torch network on one batch of leaves, counting the rows."""

    def __init__(self, torch, net):
        self.torch, self.net, self.rows, self.calls = torch, net, 0, 0

    def __call__(self, observations, masks):
        torch = self.torch
        with torch.no_grad():
            logits, values = self.net(torch.from_numpy(np.ascontiguousarray(observations, dtype=np.float32)))
            priors = torch.softmax(masked_logits(torch, logits, torch.from_numpy(np.asarray(masks, dtype=bool))), 1)
        self.rows += len(observations)
        self.calls += 1
        return priors.numpy(), values.numpy()


def export(net, path: str, meta: dict) -> None:
    """Write the network as MLPEvaluator reads it (W of shape (in, out)); save_mlp writes atomically."""
    from atomic_africa.agents.network import save_mlp

    def wb(layer):
        return (layer.weight.detach().numpy().T.copy(), layer.bias.detach().numpy().copy())
    save_mlp(path, hidden=[wb(layer) for layer in net.trunk], policy=wb(net.policy), value=wb(net.value), meta=meta)


# -- the replay buffer --------------------------------------------------------------------------
class ReplayBuffer:
    """The last ``capacity`` labelled decisions, in a ring."""

    def __init__(self, capacity: int, obs_size: int, num_actions: int):
        self.capacity, self.size, self.head = capacity, 0, 0
        self.obs = np.zeros((capacity, obs_size), np.float32)
        self.masks = np.zeros((capacity, num_actions), bool)
        self.policy = np.zeros((capacity, num_actions), np.float32)
        self.value = np.zeros(capacity, np.float32)

    def add(self, obs, masks, policy, value) -> None:
        for k in range(len(obs)):           # a game is a few hundred rows: the loop is not the cost
            i = self.head
            self.obs[i], self.masks[i], self.policy[i], self.value[i] = obs[k], masks[k], policy[k], value[k]
            self.head = (i + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)

    def sample(self, rng, n: int):
        idx = rng.integers(0, self.size, n)
        return self.obs[idx], self.masks[idx], self.policy[idx], self.value[idx]

    def state_bytes(self) -> bytes:
        # most of an observation, a mask and a visit distribution is zero: compressed, it is small
        f = io.BytesIO()
        n = self.size
        np.savez_compressed(f, obs=self.obs[:n], masks=np.packbits(self.masks[:n], axis=1),
                            policy=self.policy[:n], value=self.value[:n], head=np.int64(self.head))
        return f.getvalue()

    def load_bytes(self, data: bytes) -> None:
        with np.load(io.BytesIO(data)) as z:
            n = len(z["value"])
            self.obs[:n], self.policy[:n], self.value[:n] = z["obs"], z["policy"], z["value"]
            self.masks[:n] = np.unpackbits(z["masks"], axis=1, count=self.masks.shape[1]).astype(bool)
            self.size, self.head = n, int(z["head"])


# -- games ------------------------------------------------------------------------------------
def _sample_rows(rng, policy):
    """One action per row drawn in proportion to the row (``u`` in (0, 1]: never a zero entry)."""
    c = np.cumsum(policy, axis=1, dtype=np.float64)
    u = (1.0 - rng.random(len(policy))) * c[:, -1]
    return np.minimum(np.argmax(c >= u[:, None], axis=1), policy.shape[1] - 1)


def self_play(run, iteration: int) -> dict:
    """``--steps`` searched decisions in every env; finished games go to the buffer."""
    from atomic_africa.agents.puct import puct_search
    a, vg = run.args, run.vg
    rng = np.random.default_rng([a.seed, iteration, 0])
    games = decisions = 0
    outcomes = []
    for _ in range(a.steps):
        obs, masks, cur = vg.observations(), vg.action_masks(), vg.current_player
        res = puct_search(vg, run.evaluator, simulations=a.simulations, wave=a.wave, c_puct=a.c_puct,
                          rollout=a.rollout, rollout_weight=a.rollout_weight, width=a.width,
                          dirichlet_alpha=a.dirichlet, noise_fraction=a.noise_fraction, temperature=0.0)
        actions = np.asarray(res.actions, dtype=np.int64).copy()
        early = np.flatnonzero(run.moves < a.temperature_moves)
        if early.size:
            actions[early] = _sample_rows(rng, res.policy[early])
        for i in range(vg.num_envs):
            run.pending[i].append((obs[i], masks[i], res.policy[i].copy(), int(cur[i]), float(res.value[i])))
        _, rewards, term, _, info = vg.step(actions, observe=False)
        run.moves += 1
        decisions += vg.num_envs
        for i in np.flatnonzero(term).tolist():
            rows = run.pending[i]
            z = np.array([rewards[i, r[3]] for r in rows], np.float32)
            if a.value_mix:
                z = ((1 - a.value_mix) * z + a.value_mix * np.array([r[4] for r in rows])).astype(np.float32)
            run.buffer.add(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]),
                           np.stack([r[2] for r in rows]), z)
            outcomes.append(int(info["winner"][i]))
            run.pending[i], run.moves[i] = [], 0
            games += 1
    return {"games": games, "decisions": decisions, "outcomes": outcomes}


def warm_start(run) -> dict:
    """``--warm-games`` games of greedy against greedy into the buffer (the move played as a one-hot
    policy, the outcome for the mover), then ``--warm-updates`` gradient steps on them: the network
    starts from the greedy agent's choices instead of from nothing (as AlphaGo started from expert
    moves), and self-play improves on it."""
    from atomic_africa.agents.native import agent_params
    from atomic_africa.game.native.vector import VectorGame
    a = run.args
    base = int(np.random.default_rng([a.seed, 0, 3]).integers(0, 2**62))
    n = a.warm_games
    vg = VectorGame.from_games(a.scenario, [base + k for k in range(n)])
    vg.agent_params = agent_params()
    pending = [[] for _ in range(n)]
    active = vg.action_masks().any(axis=1)
    decisions = 0
    while active.any():
        obs, masks, cur = vg.observations(), vg.action_masks(), vg.current_player
        actions = vg.agent_actions("greedy", active=active)
        for i in np.flatnonzero(active).tolist():
            pending[i].append((obs[i], masks[i], int(actions[i]), int(cur[i])))
        _, rewards, term, _, _ = vg.step(actions, active=active, observe=False)
        decisions += int(active.sum())
        for i in np.flatnonzero(term & active).tolist():
            rows = pending[i]
            policy = np.zeros((len(rows), vg.num_actions), np.float32)
            policy[np.arange(len(rows)), [r[2] for r in rows]] = 1.0
            run.buffer.add(np.stack([r[0] for r in rows]), np.stack([r[1] for r in rows]), policy,
                           np.array([rewards[i, r[3]] for r in rows], np.float32))
            pending[i] = []
        active &= ~term
    losses = fit(run, a.warm_updates, [a.seed, 0, 4]) if a.warm_updates else {}
    return {"games": n, "decisions": decisions, **losses}


def train_step(run, iteration: int) -> dict:
    return fit(run, run.args.updates, [run.args.seed, iteration, 1])


def fit(run, updates: int, seed) -> dict:
    """``updates`` gradient steps on minibatches of the buffer drawn by a generator seeded ``seed``."""
    torch, a = run.torch, run.args
    if run.buffer.size < a.batch_size or updates == 0:
        return {}
    rng = np.random.default_rng(seed)
    run.net.train()
    tot = {"policy_loss": 0.0, "value_loss": 0.0}
    for _ in range(updates):
        obs, masks, pi, z = (torch.from_numpy(x) for x in run.buffer.sample(rng, a.batch_size))
        logits, v = run.net(obs)
        logp = torch.log_softmax(masked_logits(torch, logits, masks), 1)
        lp = -(pi * logp).sum(1).mean()
        lv = torch.mean((v - z) ** 2)
        run.opt.zero_grad(set_to_none=True)
        (lp + lv).backward()
        run.opt.step()
        run.updates_done += 1
        tot["policy_loss"] += float(lp.detach()) / updates
        tot["value_loss"] += float(lv.detach()) / updates
    run.net.eval()
    return tot


def match(run, opponent: str, games: int, seed: int) -> dict:
    """The network with search against a native agent: game seed ``k`` twice, ours as side 0 and 1
    (the game seeds derive from ``--seed`` and ``seed``).

    The search draws (its ties, nothing else at temperature 0 without noise) from each env's stream,
    so the result depends only on ``seed`` and the network."""
    from atomic_africa.agents.native import agent_params
    from atomic_africa.agents.puct import puct_search
    from atomic_africa.game.native.vector import VectorGame
    a = run.args
    base = int(np.random.default_rng([a.seed, seed, 2]).integers(0, 2**62))
    vg = VectorGame.from_games(a.scenario, [base + k // 2 for k in range(games)])
    params = agent_params()
    params["simulations"] = float(a.eval_simulations)     # ismcts at equal simulations
    vg.agent_params = params
    ours = np.arange(games) % 2
    active = vg.action_masks().any(axis=1)
    result = {"wins": 0, "draws": 0, "losses": 0}
    while active.any():
        cur = vg.current_player
        mine, theirs = active & (cur == ours), active & (cur != ours)
        actions = np.full(games, -1, np.int64)
        if mine.any():
            res = puct_search(vg, run.evaluator, np.flatnonzero(mine), simulations=a.eval_simulations,
                              wave=a.wave, c_puct=a.c_puct, dirichlet_alpha=0.0, temperature=0.0,
                              rollout=a.rollout, rollout_weight=a.rollout_weight, width=a.width)
            actions[mine] = np.asarray(res.actions)[mine]
        if theirs.any():
            actions[theirs] = vg.agent_actions(opponent, active=theirs)[theirs]
        _, _, term, _, info = vg.step(actions, active=active, observe=False)
        for i in np.flatnonzero(term & active).tolist():
            w = int(info["winner"][i])
            result["draws" if w < 0 else "wins" if w == ours[i] else "losses"] += 1
        active &= ~term
    n, decided = games, result["wins"] + result["losses"]
    result["games"] = n
    result["win_share_decided"] = round(result["wins"] / decided, 4) if decided else None   # None: all drawn
    result["score"] = (result["wins"] + 0.5 * result["draws"]) / n
    s = min(max(result["score"], 0.5 / n), 1 - 0.5 / n)
    result["elo"] = 400 * math.log10(s / (1 - s))
    return result


# -- the run ------------------------------------------------------------------------------------
class Run:
    """Everything a checkpoint holds, and the live objects built from it."""


def _settings(args) -> dict:
    return {k: getattr(args, k) for k in TRAINING}


def _write_bytes(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def save_resume(run) -> None:
    torch = run.torch
    state = {"settings": _settings(run.args), "iteration": run.iteration, "elapsed": run.elapsed,
             "games": run.games, "decisions": run.decisions, "curve": run.curve, "updates_done": run.updates_done,
             "net": run.net.state_dict(), "opt": run.opt.state_dict(), "torch_rng": torch.get_rng_state(),
             "buffer": run.buffer.state_bytes(), "vg": pickle.dumps(run.vg), "moves": run.moves,
             "pending": run.pending}
    f = io.BytesIO()
    torch.save(state, f)
    _write_bytes(os.path.join(run.args.out, RESUME), f.getvalue())


def write_curve(run) -> None:
    f = io.StringIO()
    w = csv.DictWriter(f, fieldnames=CURVE_FIELDS, lineterminator="\n")
    w.writeheader()
    w.writerows(run.curve)
    _write_bytes(os.path.join(run.args.out, CURVE), f.getvalue().encode())


def plot_curve(run) -> None:
    """The learning curve: Elo against greedy (from each evaluation's score) over training minutes."""
    from atomic_africa._plotting import canvas_figure, save_figure
    fig = canvas_figure((6.4, 3.6), 100, "--plot", layout="constrained")
    ax = fig.add_subplot()
    ax.plot([r["wall_seconds"] / 60 for r in run.curve], [r["elo_vs_greedy"] for r in run.curve], marker="o")
    ax.axhline(0.0, color="grey", lw=0.8)
    ax.axhline(400 * math.log10(0.7 / 0.3), color="grey", lw=0.8, ls="--")    # a score of 70 %
    ax.set_xlabel("training time (min)")
    ax.set_ylabel("Elo vs greedy")
    ax.set_title(f"network + PUCT ({run.args.eval_simulations} simulations) against greedy, "
                 f"{run.args.eval_games} games each")
    save_figure(fig, os.path.join(run.args.out, "curve.png"))


def setup(args):
    from atomic_africa._optional import require
    torch = require("torch", "rllib", "examples/alphazero.py")
    from atomic_africa.game.native.vector import VectorGame
    torch.set_num_threads(args.torch_threads)
    torch.use_deterministic_algorithms(True)
    try:
        os.makedirs(args.out, exist_ok=True)
    except OSError as e:
        args.parser.error(f"argument --out: cannot make the directory {args.out!r} ({e.strerror or e})")
    run = Run()
    run.args, run.torch = args, torch
    resume_path = os.path.join(args.out, RESUME)
    state = None
    if args.resume:
        if not os.path.exists(resume_path):
            args.parser.error(f"argument --resume: no checkpoint {resume_path}")
        try:
            state = torch.load(resume_path, weights_only=False)
            state["settings"]
        except Exception as e:      # a truncated or foreign file: any of pickle's or torch's errors
            args.parser.error(f"argument --resume: cannot read {resume_path} as this script's checkpoint "
                              f"({type(e).__name__}: {e})")
        for k in TRAINING:
            # A checkpoint older than a setting was played with that setting's default.
            x = state["settings"].get(k, DEFAULTS.get(k))
            if getattr(args, k) != x:
                flag = "--" + k.replace("_", "-")
                args.parser.error(f"argument {flag}: {getattr(args, k)!r} differs from the checkpoint's {x!r}")
    torch.manual_seed(args.seed)
    try:
        run.vg = VectorGame(args.scenario, num_envs=args.envs, seed=args.seed)
    except (ValueError, TypeError, OSError) as e:
        args.parser.error(f"argument --scenario: {e}")
    hidden = [int(x) for x in args.hidden.split(",")]
    run.net = make_net(torch, run.vg.observation_size, run.vg.num_actions, hidden)
    run.net.eval()
    run.opt = torch.optim.AdamW(run.net.parameters(), lr=args.lr, weight_decay=args.weight_decay)
    run.buffer = ReplayBuffer(args.buffer, run.vg.observation_size, run.vg.num_actions)
    run.evaluator = Evaluator(torch, run.net)
    run.iteration, run.elapsed, run.games, run.decisions, run.curve, run.updates_done = 0, 0.0, 0, 0, [], 0
    run.moves = np.zeros(args.envs, np.int64)
    run.pending = [[] for _ in range(args.envs)]
    if state is not None:
        run.net.load_state_dict(state["net"])
        run.opt.load_state_dict(state["opt"])
        torch.set_rng_state(state["torch_rng"])
        run.buffer.load_bytes(state["buffer"])
        run.vg = pickle.loads(state["vg"])
        for k in ("iteration", "elapsed", "games", "decisions", "curve", "moves", "pending", "updates_done"):
            setattr(run, k, state[k])
    return run


def train(args) -> dict:
    run = setup(args)
    from atomic_africa._optional import require
    require("tensorboard", "sb3", "TensorBoard logs")     # torch's writer needs the package
    from torch.utils.tensorboard import SummaryWriter
    writer = SummaryWriter(os.path.join(args.out, "tensorboard"), purge_step=run.iteration + 1)
    meta = {"scenario": args.scenario, "hidden": args.hidden, "simulations": args.eval_simulations,
            "seed": args.seed, "trained_by": "examples/alphazero.py"}
    start, start_elapsed, resumed = time.perf_counter(), run.elapsed, args.resume
    rows0, t_search = run.evaluator.rows, 0.0
    if args.warm_games and run.iteration == 0 and not resumed:   # part of the training time
        w = warm_start(run)
        run.decisions += w["decisions"]
        for k in ("policy_loss", "value_loss"):
            if k in w:
                writer.add_scalar(f"warm/{k}", w[k], 0)
        print(f"warm start: {w['games']} greedy games, {w['decisions']} decisions, "
              f"{time.perf_counter() - start:.1f} s", flush=True)
    while True:
        run.elapsed = start_elapsed + time.perf_counter() - start
        if (args.iterations and run.iteration >= args.iterations) or run.elapsed >= args.minutes * 60:
            break
        it = run.iteration + 1
        t0 = time.perf_counter()
        sp = self_play(run, it)
        t1 = time.perf_counter()
        losses = train_step(run, it)
        t2 = time.perf_counter()
        run.iteration, run.games, run.decisions = it, run.games + sp["games"], run.decisions + sp["decisions"]
        t_search += t1 - t0
        writer.add_scalar("selfplay/games_per_s", sp["games"] / (t1 - t0), it)
        writer.add_scalar("selfplay/decisions_per_s", sp["decisions"] / (t1 - t0), it)
        writer.add_scalar("selfplay/games", run.games, it)
        writer.add_scalar("train/seconds", t2 - t1, it)
        for k, x in losses.items():
            writer.add_scalar(f"train/{k}", x, it)
        if args.eval_games and it % args.eval_every == 0:
            r = match(run, "greedy", args.eval_games, 0)     # the same games each time: the curve's steps are the net's
            run.elapsed = start_elapsed + time.perf_counter() - start
            run.curve.append({"iteration": it, "wall_seconds": round(run.elapsed, 1), "games": run.games,
                              "decisions": run.decisions, "eval_games": r["games"], "wins": r["wins"],
                              "draws": r["draws"], "losses": r["losses"],
                              "win_share_decided": r["win_share_decided"], "score": round(r["score"], 4),
                              "elo_vs_greedy": round(r["elo"], 1)})
            if r["win_share_decided"] is not None:
                writer.add_scalar("eval/win_share_vs_greedy", r["win_share_decided"], it)
            writer.add_scalar("eval/elo_vs_greedy", r["elo"], it)
            print(f"iteration {it}: {run.elapsed:7.1f} s, {run.games} games, vs greedy "
                  f"{r['wins']}-{r['draws']}-{r['losses']} (Elo {r['elo']:+.0f})", flush=True)
            write_curve(run)
        if it % args.checkpoint_every == 0:
            save_resume(run)
            export(run.net, os.path.join(args.out, CHECKPOINT), meta)
    run.elapsed = start_elapsed + time.perf_counter() - start
    save_resume(run)
    export(run.net, os.path.join(args.out, CHECKPOINT), meta)
    write_curve(run)
    if args.plot and run.curve:
        plot_curve(run)
    summary = {"settings": _settings(args), "iteration": run.iteration, "wall_seconds": round(run.elapsed, 1),
               "games": run.games, "decisions": run.decisions, "updates": run.updates_done, "resumed": resumed,
               "evaluator_rows_per_s_this_part": round((run.evaluator.rows - rows0) / max(t_search, 1e-9), 1),
               "curve_last": run.curve[-1] if run.curve else None}
    if args.final_games:
        final = {opp: match(run, opp, args.final_games, 1 + k) for k, opp in enumerate(("greedy", "ismcts"))}
        _write_bytes(os.path.join(args.out, "final.json"), json.dumps(final, indent=2).encode())
        summary["final"] = final
        for opp, r in final.items():
            if r["win_share_decided"] is not None:
                writer.add_scalar(f"final/win_share_vs_{opp}", r["win_share_decided"], run.iteration)
    writer.close()
    _write_bytes(os.path.join(args.out, "summary.json"), json.dumps(summary, indent=2).encode())
    return summary


def main(argv=None) -> int:
    args = parse_args(argv)
    summary = train(args)
    print(json.dumps({k: summary[k] for k in ("iteration", "wall_seconds", "games", "decisions")}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
