"""A short RLlib PPO self-play run on a local Ray: one masked policy plays both sides.

Needs the ``rllib`` extra and PyTorch (``pip install 'atomic-africa[rllib]' torch``). Run::

    python examples/rllib_ppo.py --iterations 3

Both sides of :class:`~atomic_africa.env.rllib.AtomicAfricaMultiAgentEnv` (``"player_0"``,
``"player_1"``, each in its side-relative view) map to one policy, ``"shared"``, an
``ActionMaskingTorchRLModule`` from RLlib's examples (it reads the ``"action_mask"`` part of the
observation and never samples an illegal action); ``--per-side`` trains one policy per side instead.
Each iteration prints the env steps sampled (both agents' decisions), the throughput (sampling and
learning) and the mean episode return per side over RLlib's window of recent episodes. A few
iterations are a smoke run of the pipeline, not a training run: ``examples/train_selfplay.py`` is
the sb3 baseline.
"""
from __future__ import annotations

import argparse
import importlib.util
import logging
import sys
import time


def build_config(args):
    """The PPOConfig: the env, the shared (or per-side) masked policy, a small local setup."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    from atomic_africa.env.rllib import AtomicAfricaMultiAgentEnv

    policies = ["player_0", "player_1"] if args.per_side else ["shared"]
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": [128, 128], "head_fcnet_hiddens": [64]})
    return (
        PPOConfig()
        .environment(AtomicAfricaMultiAgentEnv, env_config={"seed": args.seed})
        .multi_agent(policies=set(policies),
                     policy_mapping_fn=(lambda agent_id, episode, **kw: agent_id) if args.per_side
                     else (lambda agent_id, episode, **kw: "shared"))
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={p: module for p in policies}))
        .env_runners(num_env_runners=args.env_runners, num_envs_per_env_runner=args.envs_per_runner,
                     num_cpus_per_env_runner=1)
        .fault_tolerance(restart_failed_env_runners=False)  # a failing runner is an error to see here
        .learners(num_learners=0)
        .training(train_batch_size_per_learner=args.batch, minibatch_size=min(512, args.batch),
                  num_epochs=2, lr=3e-4, gamma=0.999)
        .debugging(seed=args.seed)
    )


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--iterations", type=int, default=3, help="training iterations (default 3)")
    p.add_argument("--env-runners", type=int, default=1, help="Ray env-runner actors (default 1)")
    p.add_argument("--envs-per-runner", type=int, default=8, help="envs in each runner (default 8)")
    p.add_argument("--batch", type=int, default=4000, help="env steps per iteration (default 4000)")
    p.add_argument("--cpus", type=int, default=2, help="CPUs given to the local Ray (default 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of the run (default 0)")
    p.add_argument("--per-side", action="store_true", help="one policy per side instead of a shared one")
    args = p.parse_args(argv)
    for name in ("iterations", "env_runners", "envs_per_runner", "batch", "cpus"):
        low = 0 if name == "env_runners" else 1
        if getattr(args, name) < low:
            p.error(f"--{name.replace('_', '-')}: {getattr(args, name)} is out of range; allowed >= {low}")
    try:  # a missing extra is one line naming it (MissingExtraError), never a traceback
        import atomic_africa.env.rllib  # noqa: F401
        if importlib.util.find_spec("torch") is None:
            raise ImportError("torch is not installed (needed for RLlib's PPO module): pip install torch")
        import ray
        import ray.rllib  # sets up its logger, whose level is then lowered with Ray's: their notices
        for name in ("ray", "ray.rllib"):  # are about their own API (deprecations), not this run
            logging.getLogger(name).setLevel(logging.ERROR)
        config = build_config(args)
    except ImportError as exc:
        p.exit(2, f"{p.prog}: error: {exc}\n")

    t_setup = time.perf_counter()
    ray.init(num_cpus=args.cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        algo = (getattr(config, "build_algo", None) or config.build)()  # build_algo: newer RLlib's name
        print(f"setup: {time.perf_counter() - t_setup:.1f} s (starting Ray, building the algorithm and its "
              f"env runners)", flush=True)
        start, steps = time.perf_counter(), 0
        for it in range(1, args.iterations + 1):
            t0 = time.perf_counter()
            result = algo.train()
            runners = result["env_runners"]
            new_steps = int(runners["num_env_steps_sampled_lifetime"]) - steps
            steps += new_steps
            sides = runners.get("agent_episode_returns_mean", {})
            side_text = ", ".join(f"{a} {sides[a]:+.2f}" for a in sorted(sides)) or "no episode finished yet"
            took = time.perf_counter() - t0
            print(f"iteration {it}: {new_steps} env steps in {took:.1f} s ({new_steps / took:.0f} steps/s); "
                  f"episodes {int(runners.get('num_episodes_lifetime', 0))}, mean length "
                  f"{runners.get('episode_len_mean', float('nan')):.0f}; return per side: {side_text}", flush=True)
        total = time.perf_counter() - start
        print(f"total: {steps} env steps in {total:.1f} s ({steps / total:.0f} env steps/s, sampling and "
              f"learning)")
        algo.stop()
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    finally:
        ray.shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
