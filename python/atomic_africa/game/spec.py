"""GameSpec: what a game is, apart from how far one has got (OpenSpiel's ``Game`` beside ``State``).

A spec is the scenario and the rules plus everything derived from them that never changes during a
game: slot capacity, deck, fire-support assets, action space, terrain arrays at the start, the
direction and clock angle tables, the observation size and the units at set-up. It is built without
starting a game (no shuffle, no deal), is immutable and picklable, and is shared by
:class:`~atomic_africa.game.Game`, :class:`~atomic_africa.game.VectorGame`, the environments and the
agents: ``Game(spec, seed)`` and ``VectorGame(spec, n, seed)`` take one in place of a scenario.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from ..rules import Rules, resolve_rules
from .actions import ActionSpace
from .cards import Deck
from .los import TerrainArrays
from .observe import observation_size
from .scenario import Scenario, load_scenario
from .schema import setup_fields
from .state import Unit

__all__ = ["GameSpec", "slot_capacity"]

_PLAIN = setup_fields(own=False)


def slot_capacity(side, rules: Rules) -> int:
    """Most units a side can hold at once (its unit slots).

    Splits only cut units of ``>= split_min_figures`` into halves of ``>= split_min_figures // 2``,
    and merges never add units, so a side never holds more than its scenario units plus its
    figures divided by that half.
    """
    half = max(1, rules.cleanup.split_min_figures // 2)
    return len(side.units) + sum(u.figures for u in side.units) // half


def _clock(rules: Rules, turn: float) -> float:
    """Angle (radians, from +y) of a turn of ``turn`` radians on the Call for Fire clock."""
    cff = rules.call_for_fire
    return math.radians(cff.clock_zero_deg) + (turn if cff.clockwise else -turn)


@dataclass(frozen=True, eq=False)
class GameSpec:
    """The configuration of a game: scenario, rules and what is derived from them.

    Build one with :meth:`build`; the fields are read-only.

    Attributes
    ----------
    scenario : Scenario
    rules : Rules
    deck : Deck
        The order-card deck of the rules.
    C : int
        Unit slots per side (:func:`slot_capacity` of the larger side).
    assets : tuple of tuple
        Each side's off-board fire-support assets (scenario order).
    space : ActionSpace
        The fixed-size action space.
    terrain : TerrainArrays
        The terrain at the start of a game (every feature at its scenario cover).
    dir_angle : tuple of float
        Angle (radians, from +y, on the Call for Fire clock) of each action-space direction.
    clock_angle : tuple of float
        Angle of each face ``0..scatter_die`` of the scatter die (face ``scatter_die`` is 12 o'clock).
    observation_size : int
        Length of an observation vector.
    """

    scenario: Scenario
    rules: Rules
    deck: Deck
    C: int
    assets: tuple
    space: ActionSpace
    terrain: TerrainArrays
    dir_angle: tuple
    clock_angle: tuple
    observation_size: int

    @classmethod
    def build(cls, scenario=None, rules=None) -> GameSpec:
        """The spec of a scenario under some rules.

        Parameters
        ----------
        scenario : Scenario, path, dict, GameSpec or None
            As for :class:`~atomic_africa.game.Game` (``None``: the packaged default). A GameSpec
            is returned as it is (``rules`` must then be omitted or be its rules).
        rules : Rules, dict, path or None
            Rules data; the packaged defaults if omitted.

        Returns
        -------
        GameSpec

        Raises
        ------
        ValueError
            If ``scenario`` is a GameSpec and ``rules`` are other rules; errors of
            :func:`~atomic_africa.game.load_scenario` and :func:`~atomic_africa.rules.resolve_rules`.
        """
        if isinstance(scenario, GameSpec):
            if rules is not None and resolve_rules(rules) != scenario.rules:
                raise ValueError("rules: a GameSpec carries its own rules; omit rules or pass the same rules")
            return scenario
        sc: Scenario = load_scenario(scenario)
        r: Rules = resolve_rules(rules)
        deck = Deck(r)
        C = max(slot_capacity(side, r) for side in sc.sides)
        assets = tuple(tuple(side.fire_support) for side in sc.sides)
        m = r.movement
        space = ActionSpace(deck.size, C, max(len(a) for a in assets), m.directions,
                            len(m.distance_fractions), len(sc.terrain))
        terrain = TerrainArrays.from_scenario(sc, r, tuple(t.cover for t in sc.terrain))
        n = r.call_for_fire.scatter_die
        dir_angle = tuple(_clock(r, 2 * math.pi * d / m.directions) for d in range(m.directions))
        clock_angle = tuple(_clock(r, 2 * math.pi * (f % n) / n) for f in range(n + 1))
        spec = cls(sc, r, deck, C, assets, space, terrain, dir_angle, clock_angle, 0)
        object.__setattr__(spec, "observation_size", observation_size(spec))
        return spec

    @property
    def num_actions(self) -> int:
        """Size of the action space."""
        return self.space.n

    @property
    def initial_figures(self) -> list:
        """Figures per side at set-up."""
        return [sum(u.figures for u in side.units) for side in self.scenario.sides]

    def initial_units(self) -> list:
        """The ``2 * C`` unit slots at set-up, as new :class:`~atomic_africa.game.state.Unit` objects.

        Side ``p``'s ``k``-th scenario unit fills slot ``p * C + k``; the other slots are empty.

        Returns
        -------
        list of Unit
        """
        units = [Unit(uid=i, side=i // self.C) for i in range(2 * self.C)]
        for side, spec in enumerate(self.scenario.sides):
            for k, us in enumerate(spec.units):
                u = units[side * self.C + k]
                for f in _PLAIN:             # what a scenario gives as it is (schema Setup, not own)
                    setattr(u, f.name, getattr(us, f.name))
                hw = dict(us.heavy_weapon)
                u.alive, u.name, u.kind, u.dice = True, us.name, us.kind, list(us.dice)
                u.hw_dispersed, u.hw_dispersed_ap = "dispersed" in hw, hw.get("dispersed", 0)
                u.hw_point, u.hw_point_ap = "point" in hw, hw.get("point", 0)
                u.x, u.y = us.position
                u.clear_scratch()
        return units

    def fixed_hand_size(self, side: int):
        """Order cards ``side`` draws per Orders phase if that number is fixed for the battle, else None.

        Fixed: the side's scenario ``hand_size``, or its own (non-attached) units at set-up plus its
        Experience bonus under ``orders.hand_units = "setup"``. None under ``"turn"`` (the units on
        the table count: :meth:`hand_size`).
        """
        o, spec = self.rules.orders, self.scenario.sides[side]
        if spec.hand_size is not None:
            return spec.hand_size
        if o.hand_units != "setup":
            return None
        return self.hand_size(side, spec.units)

    def hand_size(self, side: int, units) -> int:
        """Order cards ``side`` draws with these units counted (RULES.md section 2).

        Parameters
        ----------
        side : int
            0 or 1.
        units : iterable
            The side's units that count (scenario units at set-up, or those on the table): own
            units, and attached ones only under ``orders.attached_add_cards``.

        Returns
        -------
        int
            The scenario's ``hand_size`` if the side has one, else the units counted plus the
            side's Experience bonus.
        """
        o, spec = self.rules.orders, self.scenario.sides[side]
        if spec.hand_size is not None:
            return spec.hand_size
        own = sum(1 for u in units if o.attached_add_cards or not u.attached)
        return own + o.experience_bonus[spec.experience]

    def __repr__(self):
        return (f"GameSpec({self.scenario.name!r}, slots={self.C}, actions={self.num_actions}, "
                f"observation_size={self.observation_size})")
