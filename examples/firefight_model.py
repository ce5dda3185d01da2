"""A tiny agent-based firefight: each step every living squad fires at a random enemy, one fused call.

The pattern a Mesa (or hand-written) model uses: collect the step's attacks as plain lists, resolve
them all with one ``atomic_africa.batch.resolve_volley`` call (each target's markers capped once per
turn), then apply the results to the agents. Attack scores come from the squads' own rolls via
``batch.roll_dice`` and ``batch.action_scores``. Run: ``python examples/firefight_model.py``.
"""
from __future__ import annotations

import numpy as np

import atomic_africa as aa


def run(n_squads: int = 20, steps: int = 10, seed: int = 0, rules=None) -> dict:
    """Play ``steps`` steps of two sides of ``n_squads`` squads; returns the wounds each side took."""
    rng = np.random.default_rng(seed)
    side = np.repeat([0, 1], n_squads)
    wounds = np.zeros(2 * n_squads, dtype=np.int64)
    dice = np.tile([10, 10, 8], (2 * n_squads, 1))
    for _ in range(steps):
        alive = np.flatnonzero(wounds < 3)
        shooters = alive[rng.random(alive.size) < 0.5]
        if shooters.size == 0:
            continue
        enemies = [alive[side[alive] != side[s]] for s in shooters]
        keep = [i for i, e in enumerate(enemies) if e.size]
        shooters = shooters[keep]
        targets = [int(rng.choice(enemies[i])) for i in keep]
        if not targets:
            break
        attack = aa.batch.action_scores(aa.batch.roll_dice(dice[shooters], rng), aa.Posture.OFFENSIVE,
                                        aa.Action.BASIC).attacks[:, 0]
        defense = aa.batch.action_scores(aa.batch.roll_dice(dice, rng), aa.Posture.DEFENSIVE,
                                         aa.Action.BASIC).defense
        band = rng.integers(1, 6, shooters.size)
        _, w = aa.batch.resolve_volley(targets, attack.tolist(), band.tolist(), defense=defense.tolist(),
                                       armor=2, n_targets=2 * n_squads, rules=rules)
        wounds += w
    return {"side_0_wounds": int(wounds[:n_squads].sum()), "side_1_wounds": int(wounds[n_squads:].sum())}


if __name__ == "__main__":
    print(run())
