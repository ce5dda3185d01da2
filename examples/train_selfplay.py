"""A reproducible self-play baseline: sb3-contrib ``MaskablePPO`` on the native vector env.

One policy learns both sides against a league of opponents: the four built-in agents (random,
heuristic, greedy, doctrine, played natively by the engine) and frozen snapshots of the learner
itself, taken every ``--snapshot-every`` steps. Each game draws its opponent when the opponent first
moves in it, by prioritised fictitious self-play (the opponents the learner beats about half the
time most often): the pool and the env's callable opponent are the library's
:mod:`atomic_africa.env.opponents` (``OpponentPool``, ``LeagueOpponent``). The learner's side:
``--sides random`` (default) draws it per game (the env's ``player="random"``), ``--sides split``
plays half the envs on each side. The reward is the game's +1 / -1 / 0 plus the env's
potential-based shaping (``--shaping`` scale, discount ``--gamma``; 0 turns it off). The defaults
are those of the trial runs: 3.5 M learner decisions, about 22 minutes at the ~2,700 decisions/s
measured on the default battle on a quiet 2-core machine (the network's updates are the cost: the
vector env with this league of opponents alone steps ~40,000 decisions/s); the whole run is one
process, the network on ``--torch-threads`` threads, the games on one.

A run you can leave: every ``--checkpoint-every`` steps, and when it stops (``--time-limit``,
``--stop-at``, the end), it writes a resume checkpoint into ``--out/resume`` at the start of a
rollout: the model with its Adam moments and last observations, the games being played (the
native engines' snapshots), the opponent pool with its snapshots and generator, the curve, and the
global random states sb3 and torch draw from. ``--resume`` (same settings; ``--timesteps`` may
grow) goes on from there and gives the run an uninterrupted one gives: the same policy bit for bit
on one torch thread (``tests/test_examples_train.py`` splits a short run in two and compares). A run
killed outright loses only the steps since its last checkpoint. TensorBoard event files (sb3's
losses, the rolling scores, the pool's draw probabilities, the evaluations) go to
``--out/tensorboard`` (``tensorboard --logdir runs/selfplay/tensorboard``; the ``tensorboard``
package is in the ``sb3`` extra).

Run it from the repository root::

    python examples/train_selfplay.py --out runs/selfplay --seed 0

It writes into ``--out`` (each file under a temporary name, renamed into place):

- ``selfplay_maskableppo.zip``: the final checkpoint (``MaskablePPO.load`` reads it; the Adam
  moments are dropped, which keeps it small: it is for playing, not for resuming training);
- ``curve.csv``: the training games, one row per rollout: timesteps, wall seconds, games, and the
  rolling score (win 1, draw 1/2, loss 0) of the sampled policy over the last ``--window`` games
  against each opponent kind and on each side;
- ``eval.csv``: every ``--eval-every`` steps and at the end, the deterministic policy (masked
  argmax, as the league plays it) in ``--eval-games`` games against each built-in agent, sides
  alternating, played by the league's own match code: wins, draws, losses and score per side;
- ``curve.png``: both curves;
- ``summary.json``: the settings, throughput, final rolling scores with 95 % intervals, the final
  evaluation, the pool.

Same ``--seed``, same run: the env games and opponents draw from streams derived from the seed, the
opponent choice and the frozen snapshots' sampling from a numpy generator seeded from it, and torch's
generator is seeded by sb3. On one torch thread (the default) two runs give the same checkpoint bit
for bit on the same machine and library versions; more threads may change the float summation order.
``--time-limit`` stops at the first rollout start once the wall-clock budget is spent (where it stops
then depends on the machine's speed, and the summary says so; ``--resume`` goes on from there).

``examples/selfplay_policy.py`` plays the checkpoint in ``atomic-africa league``.
"""
from __future__ import annotations

import argparse
import copy
import csv
import hashlib
import json
import os
import sys
import time
from collections import deque

import numpy as np

from selfplay_policy import action_logits, masked_argmax   # this directory is on the path (the script's own)

from atomic_africa.env.opponents import BUILTINS, LeagueOpponent, OpponentPool

CHECKPOINT = "selfplay_maskableppo.zip"
RESUME_DIR = "resume"                      # the checkpoint to go on from: model (optimizer included) + state
CATEGORIES = BUILTINS + ("self",)          # snapshots are reported together as "self"
SIDES = (0, 1)


# -- the opponent pool --------------------------------------------------------------------------
class FrozenPolicy:
    """A snapshot of the learner's policy, sampling its masked action distribution (Gumbel-max with
    the pool's generator, so no global random state is touched)."""

    def __init__(self, policy, rng: np.random.Generator):
        self.policy = copy.deepcopy(policy).eval()
        for p in self.policy.parameters():
            p.requires_grad_(False)
        self.rng = rng

    def act(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        noise = self.rng.gumbel(size=action_masks.shape).astype(np.float32)
        scores = action_logits(self.policy, observations) + noise
        scores[~action_masks] = -np.inf
        return scores.argmax(axis=1)


# -- the env: the adapter(s), with every finished game's opponent, side and result ---------------
def _winner(info: dict) -> int:
    """The finished game's winner (0, 1; -1: a draw) from the adapter's per-game info."""
    return int(info["final_info"]["winner"])


def _league_vec_env_class():
    from stable_baselines3.common.vec_env import VecEnv

    class LeagueVecEnv(VecEnv):
        """The adapters' envs side by side (one adapter with ``player="random"``, or one per side),
        recording each finished game as ``(pool entry, learner side, score)`` in :attr:`finished`."""

        def __init__(self, parts, pool: OpponentPool):
            self.parts, self.pool = parts, pool          # [(sb3 adapter, LeagueOpponent)]
            self.games = [v.vector_env.vector_game for v, _ in parts]
            self.bounds = np.cumsum([0] + [v.num_envs for v, _ in parts])
            self.finished = []
            first = parts[0][0]
            self.render_mode = None
            super().__init__(int(self.bounds[-1]), first.observation_space, first.action_space)

        def reset(self):
            return np.concatenate([v.reset() for v, _ in self.parts])

        def step_async(self, actions):
            # the learner is to move in every game: its side and game index before the step
            self._before = [(vg.current_player.copy(), vg.episodes.copy()) for vg in self.games]
            for (v, _), lo, hi in zip(self.parts, self.bounds[:-1], self.bounds[1:]):
                v.step_async(actions[lo:hi])

        def step_wait(self):
            out = [v.step_wait() for v, _ in self.parts]
            for (sides, eps), ((_, opp), res) in zip(self._before, zip(self.parts, out)):
                done = np.flatnonzero(res[2])
                if len(done):
                    entries = opp.entry_of(done, eps[done])
                    for i, e in zip(done.tolist(), entries.tolist()):
                        w = _winner(res[3][i])
                        score = 0.5 if w < 0 else float(w == sides[i])
                        if e >= 0:
                            self.pool.record(e, score)
                        self.finished.append((e, int(sides[i]), score))
            obs, rew, dones = (np.concatenate([r[k] for r in out]) for k in range(3))
            return obs, rew, dones, [d for r in out for d in r[3]]

        def action_masks(self):
            return np.concatenate([np.stack(v.env_method("action_masks")) for v, _ in self.parts])

        def close(self):
            for v, _ in self.parts:
                v.close()

        def has_attr(self, attr_name):
            return attr_name == "action_masks" or hasattr(self.parts[0][0], attr_name)

        def get_attr(self, attr_name, indices=None):
            return [getattr(self, attr_name)] * len(list(self._get_indices(indices)))

        def set_attr(self, attr_name, value, indices=None):
            raise AttributeError(f"{attr_name}: LeagueVecEnv attributes are read-only")

        def env_method(self, method_name, *method_args, indices=None, **method_kwargs):
            if method_name != "action_masks":
                raise AttributeError(f"{method_name}: LeagueVecEnv only has action_masks")
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]

        def env_is_wrapped(self, wrapper_class, indices=None):
            return [False] * len(list(self._get_indices(indices)))

    return LeagueVecEnv


def _part_seed(seed: int, part: int) -> int:
    return int(np.random.SeedSequence(seed, spawn_key=(part,)).generate_state(1, np.uint64)[0] >> 1)


def make_league_env(num_envs: int, pool: OpponentPool, seed: int, sides: str = "random", scenario=None,
                    **env_kwargs):
    """The training env and its side mode: ``"random"`` (one adapter, ``player="random"``: a side
    drawn per game) or ``"split"`` (half the envs on each side)."""
    from atomic_africa.env.sb3 import AtomicAfricaSB3VecEnv

    def part(n, player, k):
        opp = LeagueOpponent(pool)
        venv = AtomicAfricaSB3VecEnv(num_envs=n, scenario=scenario, opponent=opp, player=player,
                                     seed=_part_seed(seed, k), **env_kwargs)
        opp.bind(venv.vector_env.vector_game, venv.vector_env.view)
        return venv, opp

    if sides == "random":
        parts = [part(num_envs, "random", 0)]
    elif sides == "split":
        if num_envs < 2 or num_envs % 2:
            raise ValueError(f"num_envs: {num_envs}; with sides='split' an even number >= 2")
        parts = [part(num_envs // 2, 0, 0), part(num_envs // 2, 1, 1)]
    else:
        raise ValueError(f"sides: {sides!r}; allowed 'random', 'split'")
    return _league_vec_env_class()(parts, pool), sides


# -- the learning curve -------------------------------------------------------------------------
def _curve_columns():
    return (["timesteps", "wall_seconds", "games"] + [f"score_{c}" for c in CATEGORIES]
            + [f"games_{c}" for c in CATEGORIES] + [f"score_side{s}" for s in SIDES])


class Curve:
    """Rolling scores over the last ``window`` games of each opponent category and each side."""

    def __init__(self, window: int):
        self.by_cat = {c: deque(maxlen=window) for c in CATEGORIES}
        self.by_side = {s: deque(maxlen=window) for s in SIDES}
        self.total = {c: 0 for c in CATEGORIES}
        self.games = 0
        self.rows = []

    def add(self, pool: OpponentPool, finished) -> None:
        for entry, side, score in finished:
            self.games += 1
            self.by_side[side].append(score)
            if entry >= 0:
                c = pool.category(entry)
                self.by_cat[c].append(score)
                self.total[c] += 1

    def row(self, timesteps: int, wall: float) -> dict:
        def mean(d):
            return round(float(np.mean(d)), 4) if d else ""

        r = {"timesteps": timesteps, "wall_seconds": round(wall, 2), "games": self.games}
        r.update({f"score_{c}": mean(self.by_cat[c]) for c in CATEGORIES})
        r.update({f"games_{c}": self.total[c] for c in CATEGORIES})
        r.update({f"score_side{s}": mean(self.by_side[s]) for s in SIDES})
        self.rows.append(r)
        return r


def plot_curve(rows, eval_rows, out_dir: str) -> None:
    """curve.png: the training games' rolling scores and (right) the evaluations' scores."""
    from atomic_africa._plotting import canvas_figure, save_figure
    fig = canvas_figure((12, 4.5), 100, "the learning curve", layout="constrained")
    ax, ax2 = fig.subplots(1, 2, sharey=True)
    for name in BUILTINS:
        pts = [(r["timesteps"], r["score"]) for r in eval_rows
               if r["opponent"] == name and r["side"] == "both"]
        if pts:
            ax2.plot(*zip(*pts), "o-", label=f"vs {name}")
    ax2.set_xlabel("learner steps")
    ax2.set_title("evaluation: argmax policy, league matches")
    ax2.grid(alpha=0.3)
    ax2.legend(loc="upper left", fontsize=8)
    t = [r["timesteps"] for r in rows]
    for key, label, style in ([(f"score_{c}", f"vs {c}", "-") for c in CATEGORIES]
                              + [(f"score_side{s}", f"as player {s}", ":") for s in SIDES]):
        pts = [(x, r[key]) for x, r in zip(t, rows) if r[key] != ""]
        if pts:
            ax.plot(*zip(*pts), style, label=label)
    ax.set_xlabel("learner steps")
    ax.set_ylabel("rolling score (win 1, draw 1/2)")
    ax.set_ylim(0, 1)
    ax.grid(alpha=0.3)
    ax.legend(loc="upper left", fontsize=8, ncol=2)
    ax.set_title("training games (sampled policy)")
    save_figure(fig, os.path.join(out_dir, "curve.png"), dpi=100)


# -- evaluation: the deterministic policy in the league's own matches ----------------------------
EVAL_COLUMNS = ("timesteps", "wall_seconds", "opponent", "side", "games", "wins", "draws", "losses", "score")


def evaluate(sb3_policy, games: int, seed: int, scenario=None) -> list:
    """Rows of :data:`EVAL_COLUMNS` (without the first two): the policy's masked argmax against each
    built-in agent, ``games`` games each, sides alternating, played by the league's match code
    (:func:`atomic_africa.league.external.play_external`), so the figures are those ``atomic-africa
    league`` measures, on the same games at every evaluation."""
    from atomic_africa.league.entrants import Entrant
    from atomic_africa.league.external import play_external
    learner = Entrant("learner", lambda obs, masks: masked_argmax(sb3_policy, obs, masks))
    rows = []
    for name in BUILTINS:
        records = play_external((learner, Entrant(name)), games, seed, scenario=scenario)
        for side in ("0", "1", "both"):
            rs = [r for r in records if side == "both" or r["a_side"] == int(side)]
            w = sum(r["a_score"] == 1 for r in rs)
            d = sum(r["a_score"] == 0 for r in rs)
            rows.append({"opponent": name, "side": side, "games": len(rs), "wins": w, "draws": d,
                         "losses": len(rs) - w - d, "score": round((w + d / 2) / len(rs), 4) if rs else ""})
    return rows


def write_table(rows, columns, path: str) -> None:
    from atomic_africa._atomic_write import replaced_atomically
    with replaced_atomically(path) as tmp, open(tmp, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(columns))
        w.writeheader()
        w.writerows(rows)


def _league_callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class LeagueCallback(BaseCallback):
        """Each rollout: the curve row, a snapshot into the pool when due, TensorBoard scalars; at the
        start of a rollout (a clean point: the last update done, the next rollout not begun) the
        resume checkpoint when due, and the stop asked for by ``--stop-at`` or ``--time-limit``."""

        def __init__(self, env, pool, curve, args, state=None):
            super().__init__()
            self.env, self.pool, self.curve, self.args = env, pool, curve, args
            self.time_limit = args.time_limit * 60
            self.next_snapshot, self.next_eval = args.snapshot_every, args.eval_every
            self.next_checkpoint = args.checkpoint_every
            self.eval_rows = []
            self.wall_before = 0.0          # wall seconds of the parts of the run before a resume
            self.started_at = None          # timesteps at the start of this process's part
            if state is not None:
                for k in ("next_snapshot", "next_eval", "next_checkpoint", "eval_rows", "wall_before"):
                    setattr(self, k, state[k])
            self.start = time.perf_counter()
            self.stopped_early = self.stopping = False

        def state(self) -> dict:
            return {"next_snapshot": self.next_snapshot, "next_eval": self.next_eval,
                    "next_checkpoint": self.next_checkpoint, "eval_rows": list(self.eval_rows),
                    "wall_before": self.wall()}

        def wall(self) -> float:
            return self.wall_before + time.perf_counter() - self.start

        def evaluate(self) -> None:
            wall = round(self.wall(), 2)
            rows = evaluate(self.model.policy, self.args.eval_games, self.args.seed, self.args.scenario)
            for r in rows:
                self.eval_rows.append({"timesteps": self.num_timesteps, "wall_seconds": wall, **r})
                if r["side"] == "both" and r["score"] != "":
                    self.logger.record(f"eval/score_vs_{r['opponent']}", r["score"])
            write_table(self.eval_rows, EVAL_COLUMNS, os.path.join(self.args.out, "eval.csv"))

        def _on_training_start(self) -> None:
            self.started_at = self.num_timesteps

        def _on_rollout_start(self) -> None:
            if self.num_timesteps == self.started_at:
                return                       # this part's first rollout: nothing new to keep
            a = self.args
            stop = bool(a.stop_at and self.num_timesteps >= a.stop_at) or bool(
                self.time_limit and self.wall() - self.wall_before > self.time_limit)
            if stop or (a.checkpoint_every and self.num_timesteps >= self.next_checkpoint):
                while a.checkpoint_every and self.next_checkpoint <= self.num_timesteps:
                    self.next_checkpoint += a.checkpoint_every
                save_resume(self.model, self.env, self.pool, self.curve, self, a)
            if stop:
                self.stopped_early = self.stopping = True

        def _on_step(self) -> bool:
            return not self.stopping         # the step taken since the checkpoint is not kept

        def _on_rollout_end(self) -> None:
            self.curve.add(self.pool, self.env.finished)
            self.env.finished.clear()
            row = self.curve.row(self.num_timesteps, self.wall())
            write_table(self.curve.rows, _curve_columns(), os.path.join(self.args.out, "curve.csv"))
            for k, v in row.items():
                if k.startswith(("score_", "games")) and v != "":
                    self.logger.record(f"league/{k}", v)
            for name, p in zip(self.pool.names, self.pool.probabilities()):
                if p > 0:
                    self.logger.record(f"pool/p_{name}", float(p))
            if self.args.snapshot_every and self.num_timesteps >= self.next_snapshot:
                snapshot = FrozenPolicy(self.model.policy, self.pool.rng)
                self.pool.add_snapshot(snapshot, f"self@{self.num_timesteps}")
                self.next_snapshot += self.args.snapshot_every
            if self.args.eval_every and self.num_timesteps >= self.next_eval:
                self.evaluate()
                self.next_eval += self.args.eval_every

    return LeagueCallback


# -- resuming -----------------------------------------------------------------------------------
#: The options a resumed run may change (the others must be those of the checkpoint).
RESUMABLE_CHANGES = ("timesteps", "time_limit", "stop_at", "resume", "checkpoint_every", "tensorboard")


def _settings(args) -> dict:
    return {k: (v if k != "scenario" or v is None or isinstance(v, str) else v.to_dict())
            for k, v in vars(args).items() if k not in RESUMABLE_CHANGES}


def save_resume(model, env, pool, curve, callback, args) -> None:
    """The resume checkpoint in ``--out/resume``: the model with its optimizer state and last
    observations (``model.zip``), and everything else a run needs to go on exactly as if it had not
    stopped (``state.pkl``): the games being played (the native engines' state), the opponent pool
    with its snapshots and its generator, the curve, the callback's schedule and the global random
    states sb3 and torch draw from (PyTorch's generator for the policy's samples, numpy's for the
    minibatches)."""
    import pickle
    import random

    import torch
    from atomic_africa._atomic_write import replaced_atomically
    folder = os.path.join(args.out, RESUME_DIR)
    os.makedirs(folder, exist_ok=True)
    state = {"timesteps": int(model.num_timesteps), "settings": _settings(args),
             "parts": env.parts, "finished": list(env.finished), "pool": pool, "curve": curve,
             "callback": callback.state(),
             "rng": {"torch": torch.get_rng_state(), "numpy": np.random.get_state(), "python": random.getstate()}}
    with replaced_atomically(os.path.join(folder, "model.zip")) as tmp:
        model.save(tmp)
    with replaced_atomically(os.path.join(folder, "state.pkl")) as tmp, open(tmp, "wb") as f:
        pickle.dump(state, f, protocol=pickle.HIGHEST_PROTOCOL)


def load_resume(args):
    """(model, env, pool, curve, callback state) from ``--out/resume``, the random states restored.

    Raises
    ------
    FileNotFoundError
        If there is no checkpoint.
    ValueError
        If a setting other than :data:`RESUMABLE_CHANGES` differs from the checkpoint's, or the two
        files are not of the same moment.
    """
    import pickle
    import random

    import torch
    from sb3_contrib import MaskablePPO
    folder = os.path.join(args.out, RESUME_DIR)
    path = os.path.join(folder, "state.pkl")
    if not os.path.exists(path):
        raise FileNotFoundError(f"--resume: no checkpoint in {folder} (a run writes one every "
                                f"--checkpoint-every steps and when it stops)")
    with open(path, "rb") as f:
        state = pickle.load(f)
    old, new = state["settings"], _settings(args)
    changed = sorted(k for k in set(old) | set(new) if old.get(k) != new.get(k))
    if changed:
        raise ValueError(f"--resume: {', '.join('--' + k.replace('_', '-') for k in changed)} differ(s) from "
                         f"the checkpoint's; only {', '.join('--' + k.replace('_', '-') for k in RESUMABLE_CHANGES)} "
                         f"may change")
    env = _league_vec_env_class()(state["parts"], state["pool"])
    env.finished = state["finished"]
    model = MaskablePPO.load(os.path.join(folder, "model.zip"), env=env, device="cpu", force_reset=False)
    if model.num_timesteps != state["timesteps"]:
        raise ValueError(f"--resume: {folder}: model.zip ({model.num_timesteps} steps) and state.pkl "
                         f"({state['timesteps']}) are not of the same moment")
    torch.set_rng_state(state["rng"]["torch"])
    np.random.set_state(state["rng"]["numpy"])
    random.setstate(state["rng"]["python"])
    return model, env, state["pool"], state["curve"], state["callback"]


def tensorboard_logger(model, args) -> None:
    """With ``--tensorboard`` (default ``--out/tensorboard``): sb3's losses and our league scalars as
    TensorBoard event files (a resumed run appends to the same folder)."""
    if not args.tensorboard:
        return
    try:
        import tensorboard  # noqa: F401  (sb3's writer needs it)
    except ImportError:
        raise SystemExit("train_selfplay.py: error: --tensorboard needs the tensorboard package: "
                         "pip install 'atomic-africa[sb3]' (or --tensorboard '' to turn it off)") from None
    from stable_baselines3.common.logger import configure
    model.set_logger(configure(os.path.join(args.out, args.tensorboard), ["tensorboard"]))


# -- training -----------------------------------------------------------------------------------
def build_model(env, args):
    import torch
    from sb3_contrib import MaskablePPO
    policy_kwargs = dict(net_arch=dict(pi=list(args.pi), vf=list(args.vf)), activation_fn=torch.nn.Tanh)
    return MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size,
                       n_epochs=args.n_epochs, learning_rate=args.lr, gamma=args.gamma,
                       gae_lambda=args.gae_lambda, clip_range=args.clip, ent_coef=args.ent_coef,
                       policy_kwargs=policy_kwargs, seed=args.seed, device="cpu", verbose=0)


def save_checkpoint(model, path: str) -> None:
    """Save ``model`` for playing: without the last rollout's observations, and a fresh optimizer in
    place of the Adam moments (together 3/4 of the size)."""
    from atomic_africa._atomic_write import replaced_atomically
    pol = model.policy
    pol.optimizer = pol.optimizer_class(pol.parameters(), lr=model.lr_schedule(1.0), **pol.optimizer_kwargs)
    with replaced_atomically(path) as tmp:
        model.save(tmp, exclude=["_last_obs", "_last_original_obs", "_last_episode_starts"])


def _versions() -> dict:
    import sb3_contrib
    import stable_baselines3
    import torch
    import atomic_africa
    return {"atomic_africa": atomic_africa.__version__, "torch": torch.__version__,
            "stable_baselines3": stable_baselines3.__version__, "sb3_contrib": sb3_contrib.__version__,
            "numpy": np.__version__}


def env_options(args) -> dict:
    """The vector env's keywords: ``--env-kwargs`` and the trainer options asked for (the shaping's
    discount is the learner's, as potential-based shaping needs to leave the optimal policy alone)."""
    options = json.loads(args.env_kwargs)
    if args.shaping:
        options["shaping"] = {"scale": args.shaping, "gamma": args.gamma}
    if args.skip_forced:
        options["skip_forced"] = True
    return options


def train(args) -> dict:
    """Train as ``args`` says (see :func:`parse_args`); returns the summary (also written to --out)."""
    import torch
    from atomic_africa._atomic_write import replaced_atomically
    from atomic_africa.selfplay import wilson_interval

    torch.set_num_threads(args.torch_threads)
    os.makedirs(args.out, exist_ok=True)
    if args.resume:
        model, env, pool, curve, cb_state = load_resume(args)
        sides = args.sides
    else:
        rng = np.random.default_rng(np.random.SeedSequence(args.seed, spawn_key=(1000,)))
        pool = OpponentPool(rng, self_share=args.self_share, pool_size=args.pool_size)
        env, sides = make_league_env(args.num_envs, pool, args.seed, args.sides, args.scenario,
                                     **env_options(args))
        model = build_model(env, args)
        curve, cb_state = Curve(args.window), None
    tensorboard_logger(model, args)
    callback = _league_callback_class()(env, pool, curve, args, cb_state)
    model.learn(total_timesteps=max(0, args.timesteps - model.num_timesteps), callback=callback,
                reset_num_timesteps=not args.resume)
    wall = callback.wall()
    if callback.stopping:
        # stopped at a rollout's start: the run is the resume checkpoint's (its one extra env step dropped)
        model.num_timesteps = callback.num_timesteps - env.num_envs
        env.finished.clear()
    elif not curve.rows or curve.rows[-1]["timesteps"] != model.num_timesteps:
        curve.add(pool, env.finished)
        env.finished.clear()
        curve.row(model.num_timesteps, wall)
    if not callback.stopping:
        save_resume(model, env, pool, curve, callback, args)     # --resume with more --timesteps goes on
    write_table(curve.rows, _curve_columns(), os.path.join(args.out, "curve.csv"))
    evaluated = callback.eval_rows and callback.eval_rows[-1]["timesteps"] == model.num_timesteps
    if args.eval_games and not evaluated and not callback.stopping:
        callback.evaluate()                 # the final policy's figures
        model.logger.dump(model.num_timesteps)
    plot_curve(curve.rows, callback.eval_rows, args.out)
    ckpt = os.path.join(args.out, CHECKPOINT)
    save_checkpoint(model, ckpt)
    with open(ckpt, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()

    final = {}
    for c, d in list(curve.by_cat.items()) + [(f"side{s}", d) for s, d in curve.by_side.items()]:
        n = len(d)
        wins = sum(1 for x in d if x == 1.0)
        lo, hi = wilson_interval(wins, n) if n else (None, None)
        final[c] = {"games": n, "score": float(np.mean(d)) if n else None, "wins": wins,
                    "draws": sum(1 for x in d if x == 0.5), "win_rate_95": [lo, hi]}
    summary = {
        "settings": {k: (v if k != "scenario" or v is None or isinstance(v, str) else v.name)
                     for k, v in vars(args).items()}, "sides_mode": sides, "resumed": bool(args.resume),
        "timesteps": int(model.num_timesteps), "wall_seconds": round(wall, 1),
        "learner_steps_per_second": round(model.num_timesteps / wall, 1),
        "games": curve.games, "stopped_early": callback.stopped_early,
        "final_rolling": final, "pool": pool.names,
        "final_evaluation": [r for r in callback.eval_rows if r["timesteps"] == model.num_timesteps],
        "parameters": int(sum(p.numel() for p in model.policy.parameters())),
        "checkpoint": {"file": CHECKPOINT, "bytes": os.path.getsize(ckpt), "sha256": digest},
        "versions": _versions()}
    with replaced_atomically(os.path.join(args.out, "summary.json")) as tmp, open(tmp, "w") as f:
        json.dump(summary, f, indent=2)
    env.close()
    return summary


def _ints(text: str) -> list:
    return [int(x) for x in text.split(",") if x.strip()]


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    p.add_argument("--out", required=True, help="output directory")
    p.add_argument("--timesteps", type=int, default=3_500_000, help="learner decisions to train on")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--n-steps", type=int, default=128, help="rollout length per env")
    p.add_argument("--batch-size", type=int, default=1024)
    p.add_argument("--n-epochs", type=int, default=4)
    p.add_argument("--lr", type=float, default=5e-4)
    p.add_argument("--gamma", type=float, default=0.999)
    p.add_argument("--gae-lambda", type=float, default=0.95)
    p.add_argument("--clip", type=float, default=0.2)
    p.add_argument("--ent-coef", type=float, default=0.003)
    p.add_argument("--pi", type=_ints, default=[48], help="policy hidden layers, e.g. 64,64")
    p.add_argument("--vf", type=_ints, default=[24], help="value hidden layers")
    p.add_argument("--torch-threads", type=int, default=1)
    p.add_argument("--sides", choices=("random", "split"), default="random",
                   help="learner side: drawn per game ('random') or half the envs each ('split')")
    p.add_argument("--snapshot-every", type=int, default=131_072,
                   help="steps between pool snapshots (0: none)")
    p.add_argument("--pool-size", type=int, default=6, help="newest snapshots in the pool")
    p.add_argument("--self-share", type=float, default=0.3, help="share of games against snapshots")
    p.add_argument("--window", type=int, default=200, help="games in each rolling score")
    p.add_argument("--eval-every", type=int, default=131_072,
                   help="steps between evaluations (0: final only)")
    p.add_argument("--eval-games", type=int, default=64,
                   help="games against each built-in agent per evaluation, sides alternating (0: none)")
    p.add_argument("--time-limit", type=float, default=0,
                   help="minutes (0: none): stop at the next rollout's start, with a resume checkpoint")
    p.add_argument("--stop-at", type=int, default=0,
                   help="stop at the first rollout start at or after this many steps, with a resume "
                        "checkpoint, as an interrupted run (0: run to --timesteps)")
    p.add_argument("--checkpoint-every", type=int, default=131_072,
                   help="steps between resume checkpoints in --out/resume (0: only at the end)")
    p.add_argument("--resume", action="store_true",
                   help="go on from --out/resume (same settings; --timesteps, --time-limit, --stop-at, "
                        "--checkpoint-every and --tensorboard may change): the run an uninterrupted one gives")
    p.add_argument("--tensorboard", default="tensorboard", metavar="DIR",
                   help="TensorBoard event files under --out/DIR ('' for none)")
    p.add_argument("--scenario", default=None, help="scenario file (default: the packaged default)")
    p.add_argument("--shaping", type=float, default=1.0,
                   help="scale of the env's potential-based reward shaping, discount --gamma (0: off)")
    p.add_argument("--skip-forced", action="store_true", help="the env plays decisions with one legal action")
    p.add_argument("--env-kwargs", default="{}", help="more JSON keywords for AtomicAfricaVectorEnv")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse_args(argv)
    try:
        summary = train(args)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    fin = summary["final_rolling"]
    print(f"{summary['timesteps']} steps in {summary['wall_seconds']} s "
          f"({summary['learner_steps_per_second']} steps/s), {summary['games']} games, "
          f"sides: {summary['sides_mode']}")
    print("rolling score: " + ", ".join(f"{k} {v['score']:.3f} ({v['games']})" for k, v in fin.items()
                                        if v["score"] is not None))
    print(f"checkpoint: {os.path.join(args.out, CHECKPOINT)} ({summary['checkpoint']['bytes']} bytes)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
