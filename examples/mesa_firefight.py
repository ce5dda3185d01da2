"""A Mesa model of a firefight: squads are Mesa agents, each step's fire is one ``resolve_volley`` call.

Two lines of squads face each other across a table. In each step every squad that is not pinned
(two or more suppression markers) picks the nearest living enemy (the agent's own ``step``); the
model then rolls every squad's dice at once (``batch.roll_dice`` with the model's seeded
``model.rng``, wound shifts by ``batch.wounded_dice``), scores the shooters' Attack and the targets'
Defense by Table 5 (``batch.action_scores``), bands the distances (``batch.range_band``) and
resolves all the attacks of the step in one fused ``batch.resolve_volley`` call, each target's new
markers capped once. A squad whose wounds shift a die below the ladder is shattered and leaves the
model; each step a squad sheds one marker. A ``DataCollector`` records each side's living squads,
wounds and markers as a pandas table.

Needs the ``mesa`` extra (``pip install 'atomic-africa[mesa]'``). Run:
``python examples/mesa_firefight.py``. The same seed gives the same battle: every draw comes from
``model.rng`` (a numpy Generator Mesa seeds from ``rng=``), in a fixed order of the agents.
"""
from __future__ import annotations

import mesa
import numpy as np

import atomic_africa as aa

#: Markers at which a squad is pinned (does not fire this step).
PINNED = 2


class Squad(mesa.Agent):
    """One squad: its side, position on the table (cm), dice before wounds, wounds and markers."""

    def __init__(self, model, side: int, xy, dice, cover: aa.Cover):
        super().__init__(model)
        self.side = side
        self.xy = np.asarray(xy, dtype=float)
        self.dice = tuple(int(d) for d in dice)
        self.cover = int(cover)
        self.wounds = 0
        self.markers = 0
        self.target = None

    def step(self):
        """Declare this step's target: the nearest living enemy (None if pinned or none is left)."""
        self.target = None
        if self.markers >= PINNED:
            return
        enemies = [a for a in self.model.squads() if a.side != self.side]
        if enemies:
            # min() keeps the first of equally near enemies: ids order them, so ties never depend on a set's order
            self.target = min(enemies, key=lambda a: float(np.hypot(*(a.xy - self.xy))))


class Firefight(mesa.Model):
    """``n_squads`` squads a side, ``depth_cm`` apart, ``armor`` each; ``seed`` sets every draw.

    Parameters
    ----------
    n_squads : int
        Squads per side.
    seed : int
        Seeds ``model.rng`` (Mesa's numpy Generator), the only source of randomness.
    depth_cm : float
        Distance between the two lines; squads are spread 10 cm apart along them.
    armor : int
        Every squad's printed armor.
    rules : Rules, optional
    """

    def __init__(self, n_squads: int = 10, seed: int = 0, depth_cm: float = 60.0, armor: int = 2, rules=None):
        super().__init__(rng=seed)
        self.armor = armor
        self.rules = aa.Rules.default() if rules is None else rules
        ladder = [int(d) for d in aa.Die]
        for side in (0, 1):
            for i in range(n_squads):
                dice = self.rng.choice(ladder[-3:], size=3)          # d8..d12: regulars to veterans
                cover = aa.Cover(int(self.rng.integers(0, 3)))
                Squad(self, side, (10.0 * i, depth_cm * side), dice, cover)
        self.volleys = 0   # resolve_volley calls made (one per step with any fire)
        self.datacollector = mesa.DataCollector(model_reporters={
            "alive_0": lambda m: sum(a.side == 0 for a in m.squads()),
            "alive_1": lambda m: sum(a.side == 1 for a in m.squads()),
            "wounds_0": lambda m: sum(a.wounds for a in m.squads() if a.side == 0),
            "wounds_1": lambda m: sum(a.wounds for a in m.squads() if a.side == 1),
            "markers": lambda m: sum(a.markers for a in m.squads()),
        })
        self.datacollector.collect(self)

    def squads(self) -> list:
        """Living squads in id order (a fixed order, so the draws do not depend on set iteration)."""
        return sorted(self.agents, key=lambda a: a.unique_id)

    def step(self):
        squads = self.squads()
        for a in squads:
            a.step()
        shooters = [a for a in squads if a.target is not None]
        if shooters:
            self._fire(squads, shooters)
        for a in self.squads():
            a.markers = max(0, a.markers - 1)
        self.datacollector.collect(self)
        if len({a.side for a in self.squads()}) < 2:
            self.running = False

    def _fire(self, squads, shooters):
        index = {a.unique_id: i for i, a in enumerate(squads)}
        dice, _ = aa.batch.wounded_dice([a.dice for a in squads], [a.wounds for a in squads], rules=self.rules)
        # Every squad rolls: shooters for their Attack, everyone for a Defense (a target's own roll).
        faces = aa.batch.roll_dice(dice, rng=self.rng)
        attack = aa.batch.action_scores(faces, aa.Posture.OFFENSIVE, aa.Action.BASIC, rules=self.rules).attacks[:, 0]
        defense = aa.batch.action_scores(faces, aa.Posture.DEFENSIVE, aa.Action.BASIC, rules=self.rules).defense
        who = [index[a.unique_id] for a in shooters]
        targets = [index[a.target.unique_id] for a in shooters]
        band = aa.batch.range_band([float(np.hypot(*(a.target.xy - a.xy))) for a in shooters], rules=self.rules)
        markers, wounds = aa.batch.resolve_volley(
            targets, attack[who].tolist(), band.tolist(), defense=defense.tolist(), armor=self.armor,
            cover=[a.cover for a in squads], already=[a.markers for a in squads], n_targets=len(squads),
            rules=self.rules)
        self.volleys += 1
        for a, m, w in zip(squads, markers.tolist(), wounds.tolist()):
            a.markers += m
            a.wounds += w
        _, shattered = aa.batch.wounded_dice([a.dice for a in squads], [a.wounds for a in squads], rules=self.rules)
        for a, gone in zip(squads, shattered.tolist()):
            if gone:
                a.remove()


def run(n_squads: int = 10, steps: int = 20, seed: int = 0):
    """Run a Firefight for up to ``steps`` steps; returns the DataCollector's model table (pandas)."""
    model = Firefight(n_squads=n_squads, seed=seed)
    for _ in range(steps):
        if not model.running:
            break
        model.step()
    return model.datacollector.get_model_vars_dataframe()


if __name__ == "__main__":
    print(run().to_string())
