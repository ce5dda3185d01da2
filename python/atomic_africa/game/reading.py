"""What both engines' ``Game`` read of a game in the same way: the spec's fields, the decision-stage
properties, the outcome, unit names, the targets a unit may take, action descriptions and the
reasons an action is illegal, all computed from the plain-data state ``self.s``
(:class:`~atomic_africa.game.state.GameState`).

:class:`GameReading` is the base of the product's :class:`~atomic_africa.game.Game` (on the C core,
whose ``s`` is built from the native arrays) and of the reference engine
(``atomic_africa.reference.game.Game``, whose rules call these helpers while they play); the rules
that change a state live in each engine, not here.
"""
from __future__ import annotations

import hashlib

import numpy as np

from .._validate import as_int, shown
from ..enums import Action, Posture, UnitKind
from .los import TerrainArrays, los_blocked
from .outcome import GameResult
from .spec import GameSpec
from .state import NO_CARD, Stage
from .._maths import sincos

__all__ = ["GameReading", "max_orders", "INFANTRY_ONLY"]

# Actions only infantry (light infantry included) may take.
INFANTRY_ONLY = (Action.DIG_IN, Action.MASS_FIRE, Action.SPLIT_FIRE, Action.CALL_FOR_FIRE)


def max_orders(n_suppressed: int, n_free: int, n_any: int, n_offensive: int) -> int:
    """Most units that can get a card: suppressed units need "any-unit" cards (defensive or Joker),
    the others take any card; offensive cards go only to unsuppressed units."""
    sup = min(n_suppressed, n_any)
    return sup + min(n_free, n_offensive + n_any - sup)


class GameReading:
    """Read-only helpers of a game over ``self.s`` and ``self.spec`` (see the module docstring)."""

    @classmethod
    def replay(cls, scenario=None, seed: int = 0, actions=(), rules=None, source=None) -> GameReading:
        """A new game with ``actions`` applied in order.

        Parameters
        ----------
        scenario, seed, rules, source
            As in :class:`Game`.
        actions : iterable of int
            Action ids, e.g. another game's ``history``.

        Returns
        -------
        The same class as ``cls`` (the C core's ``Game`` or the reference's).

        Raises
        ------
        IllegalActionError
            If an action is not legal when it is applied.
        """
        g = cls(scenario, seed, rules, source)
        for a in actions:
            g.apply(a)
        return g

    def _setup(self, spec: GameSpec, seed):
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            raise TypeError(f"seed: expected a non-negative int, got {type(seed).__name__} {shown(seed)}")
        if int(seed) < 0:
            raise ValueError(f"seed: must be non-negative, got {seed!r}")
        self.spec, self.seed = spec, int(seed)
        # The spec's fields as plain attributes: the rules code reads them on every step.
        self.scenario, self.rules, self.deck, self.C = spec.scenario, spec.rules, spec.deck, spec.C
        self.assets, self.space = spec.assets, spec.space
        self._terrain_key, self._terrain = tuple(t.cover for t in spec.scenario.terrain), spec.terrain
        self._los_key = None
        self._los = None
        self._feature_los = {}

    @property
    def terrain(self) -> TerrainArrays:
        """The terrain as it stands: features' current cover (heavy weapons lower it, RULES.md
        section 4) and line-of-sight blocking."""
        key = tuple(self.s.feature_cover)
        if key != self._terrain_key:
            self._terrain_key = key
            self._terrain = TerrainArrays.from_scenario(self.scenario, self.rules, key)
        return self._terrain

    def check_invariants(self) -> None:
        """Raise AssertionError if a conservation law is broken (cards, figures, counters)."""
        s = self.s
        for p, pl in enumerate(s.players):
            on_units = [u.card for u in s.units if u.alive and u.side == p and u.card != NO_CARD]
            cards = pl.deck + pl.hand + pl.discard + on_units
            assert sorted(cards) == list(range(self.deck.size)), f"player {p}: cards {len(cards)}"
            alive = sum(u.figures for u in s.units if u.alive and u.side == p)
            assert alive + pl.removed_figures == self.initial_figures[p], f"player {p}: figures"
        for u in s.units:
            assert u.side == u.uid // self.C
            if u.alive:
                assert u.figures >= 1 and u.markers >= 0 and u.wounds >= 0 and u.turn_markers >= 0
                assert 0 <= u.x <= self.scenario.width_cm and 0 <= u.y <= self.scenario.height_cm
        for p in range(2):
            assert sum(u.commander for u in s.units if u.alive and u.side == p) <= 1

    def state_hash(self) -> str:
        """SHA-256 of ``to_json()`` (golden traces).

        Returns
        -------
        str
            64 hexadecimal digits.
        """
        return hashlib.sha256(self.to_json().encode()).hexdigest()

    @property
    def num_actions(self) -> int:
        """Size of the flat action space of this scenario."""
        return self.space.n

    @property
    def current_player(self) -> int:
        """Player (0 or 1) to decide next; -1 once the game is over."""
        return -1 if self.s.stage == Stage.OVER else self.s.current_player

    @property
    def stage(self) -> str:
        """Name of the current decision stage."""
        return Stage.NAMES[self.s.stage]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.s.stage == Stage.OVER

    @property
    def result(self) -> GameResult | None:
        """The :class:`GameResult` once the game is over, else ``None``."""
        if not self.is_over:
            return None
        return GameResult(None if self.s.winner < 0 else self.s.winner, self.s.reason,
                          tuple(self.figures(p) for p in range(2)))

    def returns(self) -> list:
        """Per-player returns.

        Returns
        -------
        list of int
            ``[+1, -1]`` or ``[-1, +1]`` once won, ``[0, 0]`` for a draw or while running.
        """
        if not self.is_over or self.s.winner < 0:
            return [0, 0]
        return [1 if p == self.s.winner else -1 for p in range(2)]

    @property
    def units(self) -> list:
        """The unit slots (plain dataclasses; do not mutate)."""
        return self.s.units

    def figures(self, side: int) -> int:
        """Figures remaining in the live units of one side.

        Parameters
        ----------
        side : int
            0 or 1 (any other value counts no unit: 0).

        Returns
        -------
        int
        """
        return sum(u.figures for u in self.s.units if u.alive and u.side == side)

    def describe_action(self, a: int) -> str:
        """Readable form of an action id, e.g. ``'ASSIGN QS -> Blue:1st Squad'``.

        Parameters
        ----------
        a : int
            An action id, ``0 <= a < num_actions``; unit names refer to the current state.

        Returns
        -------
        str
        """
        seg = self.space.decode(as_int(a, "a", lo=0, hi=self.space.n - 1))
        name = seg[0]
        if name == "ASSIGN":
            side = self.s.current_player
            return f"ASSIGN {self.deck.name(seg[1])} -> {self._uname(side * self.C + seg[2])}"
        if name in ("SELECT", "SPLIT"):
            return f"{name} {self._uname(self.s.current_player * self.C + seg[1])}"
        if name == "DECLARE":
            return f"DECLARE {seg[1].name} {seg[2].name}"
        if name == "TARGET":
            return f"TARGET {self._uname(seg[1])}"
        if name == "FEATURE":
            return f"TARGET feature {self.scenario.terrain[seg[1]].name}"
        if name == "ASSET":
            return f"ASSET {seg[1]}"
        if name == "MOVE":
            frac = self.rules.movement.distance_fractions[seg[2]]
            return f"MOVE direction {seg[1]} x {frac:g}"
        return name

    def preview_destination(self, a: int):
        """Where a MOVE/STAY (or sprint) action would put the deciding unit's Destination figure.

        Parameters
        ----------
        a : int
            An action id; meaningful during the move and sprint-move stages.

        Returns
        -------
        (float, float)
            The destination in cm (the unit's position for any other action).
        """
        s, seg = self.s, self.space.decode(as_int(a, "a", lo=0, hi=self.space.n - 1))
        u = s.units[s.decl_uid]
        if s.stage == Stage.SPRINT_MOVE and seg[0] == "MOVE":
            return self._clamp_step(u.dest_x, u.dest_y, self.spec.dir_angle[seg[1]], s.sprint_bonus[0])
        if s.stage == Stage.MOVE and seg[0] == "MOVE":
            frac = self.rules.movement.distance_fractions[seg[2]]
            return self._clamp_step(u.x, u.y, self.spec.dir_angle[seg[1]], frac * self._max_move(u))
        return (u.x, u.y)

    def _uname(self, uid: int) -> str:
        u = self.s.units[uid]
        return f"{self.scenario.sides[u.side].name}:{u.name or uid}"

    def _side_units(self, side):
        return [u for u in self.s.units[side * self.C:(side + 1) * self.C] if u.alive]

    def _is_vehicle(self, u) -> bool:
        return u.kind == UnitKind.VEHICLE

    def _increment(self, u) -> float:
        m = self.rules.movement
        return m.vehicle_increment_cm if self._is_vehicle(u) else m.increment_cm

    def _los_matrix(self):
        key = (tuple(self.s.feature_cover), tuple((u.alive, u.x, u.y) for u in self.s.units))
        if key != self._los_key:
            alive = [u for u in self.s.units if u.alive]
            pairs = [(a, b) for i, a in enumerate(alive) for b in alive[i + 1:]]
            n = len(self.s.units)
            los = np.ones((n, n), dtype=bool)
            if pairs:
                blocked = los_blocked([a.x for a, _ in pairs], [a.y for a, _ in pairs],
                                      [b.x for _, b in pairs], [b.y for _, b in pairs], self.terrain)
                for (a, b), bl in zip(pairs, blocked.tolist()):
                    los[a.uid, b.uid] = los[b.uid, a.uid] = not bl
            self._los_key, self._los = key, los
        return self._los

    def _suppressed(self, u) -> bool:
        return u.markers > 0

    def _fire_targets(self, u) -> list:
        los = self._los_matrix()
        need = self.rules.orders.fire_needs_los
        return [t.uid for t in self._side_units(1 - u.side) if not need or los[u.uid, t.uid]]

    def _hw_ap(self, u, t):
        """AP of u's heavy weapon against t, or None if t is not an eligible target type."""
        if self._is_vehicle(t):
            return u.hw_point_ap if u.hw_point else None
        return u.hw_dispersed_ap if u.hw_dispersed else None

    def _hw_targets(self, u) -> list:
        return [t for t in self._fire_targets(u) if self._hw_ap(u, self.s.units[t]) is not None]

    def _feature_targets(self, u) -> list:
        """Terrain features u's heavy weapon may aim at (RULES.md section 4): a point-target weapon,
        a feature with an armor value that still gives cover, in view if fire needs LOS."""
        if not u.hw_point:
            return []
        need = self.rules.orders.fire_needs_los
        return [f for f, t in enumerate(self.scenario.terrain)
                if t.armor and self.s.feature_cover[f] > 0 and (not need or self._sees_feature(u, f))]

    def _sees_feature(self, u, f) -> bool:
        """LOS from u's position to feature f's aim point; f itself does not block it."""
        key = (tuple(self.s.feature_cover), u.x, u.y, f)
        seen = self._feature_los.get(key)
        if seen is None:
            terrain = TerrainArrays.from_scenario(self.scenario, self.rules, key[0], skip=f)
            ax, ay = self.scenario.terrain[f].aim_point
            seen = self._feature_los[key] = not los_blocked([u.x], [u.y], [ax], [ay], terrain)[0]
        return bool(seen)

    def _target_feature(self, u):
        """The terrain feature u aims at, or None (feature f is stored as target 2 C + f)."""
        return u.target - 2 * self.C if u.target >= 2 * self.C else None

    def _rally_targets(self, u) -> list:
        los = self._los_matrix()
        out = []
        for t in self._side_units(u.side):
            if t.markers < 1:
                continue
            if t.uid == u.uid:
                out.append(t.uid)
            elif (u.markers < t.markers or u.commander) and (los[u.uid, t.uid] or u.comms):
                out.append(t.uid)
        return out

    def _cff_targets(self, u) -> list:
        los = self._los_matrix()
        return [t.uid for t in self._side_units(1 - u.side) if los[u.uid, t.uid]]

    def _special_ok(self, u, a) -> bool:
        # Light infantry is infantry (RULES.md sections 1 and 4): only vehicles are excluded.
        if a in INFANTRY_ONLY and self._is_vehicle(u):
            return False
        if a == Action.DIG_IN:
            return True
        if a == Action.MASS_FIRE:
            return bool(self._fire_targets(u))
        if a == Action.SPLIT_FIRE:
            return len(self._fire_targets(u)) >= 2
        if a == Action.HEAVY_WEAPON:
            return (u.hw_dispersed or u.hw_point) and bool(self._hw_targets(u) or self._feature_targets(u))
        if a == Action.RALLY:
            return bool(self._rally_targets(u))
        if a == Action.CALL_FOR_FIRE:
            return u.spotter and bool(self.assets[u.side]) and bool(self._cff_targets(u))
        if a == Action.SPRINT:
            return u.kind in (UnitKind.LIGHT_INFANTRY, UnitKind.VEHICLE)
        return a == Action.BASIC

    def _action_options(self, u) -> list:
        """Legal (action, posture) pairs for u's revealed card (RULES.md sections 2, 4, 6)."""
        card = u.card
        specials = [a for a in Action if a != Action.BASIC]
        if self.deck.is_joker(card):
            postures = [Posture.DEFENSIVE] if self._suppressed(u) else [Posture.OFFENSIVE, Posture.DEFENSIVE]
            acts = [a for a in Action if self._special_ok(u, a)]
            return [(a, p) for a in acts for p in postures]
        p = self.deck.posture(card)
        if self.deck.is_face(card):
            if u.confused:
                return [(Action.SPRINT if self._is_vehicle(u) else Action.DIG_IN, p)]
            return [(a, p) for a in specials if self._special_ok(u, a)]
        return [(Action.BASIC, p)]

    def hand_size(self, side: int) -> int:
        """Order cards ``side`` draws in each Orders phase (RULES.md section 2).

        The side's ``hand_size`` from the scenario if it has one; else its own (non-attached) units,
        counted at set-up (rules ``orders.hand_units = "setup"``, fixed for the battle) or on the
        table now (``"turn"``), plus its Experience bonus. Attached units count only if
        ``orders.attached_add_cards``.

        Parameters
        ----------
        side : int
            0 or 1.

        Returns
        -------
        int
        """
        side = as_int(side, "side", lo=0, hi=1)
        fixed = self.spec.fixed_hand_size(side)
        return fixed if fixed is not None else self.spec.hand_size(side, self._side_units(side))

    def feature_targets(self, uid: int) -> list:
        """Terrain features (scenario indices) the heavy weapon of unit ``uid`` may aim at now.

        Parameters
        ----------
        uid : int
            A unit slot, ``0 <= uid < 2 C``.

        Returns
        -------
        list of int
            Features with an armor value that still give cover, in view if fire needs LOS; empty if
            the unit has no point-target heavy weapon.
        """
        return self._feature_targets(self.s.units[as_int(uid, "uid", lo=0, hi=2 * self.C - 1)])

    def _own_ordered(self, side) -> list:
        return [u for u in self._side_units(side) if u.has_orders]

    def _orders_pairs(self, side) -> list:
        """Legal (card, unit) assignments of the Orders phase.

        RULES.md section 2. With ``orders.reserve_by_choice`` (the default) a player may leave any
        unit without orders, so every card legal for a unit still without orders may go to it (END
        ORDERS is legal beside them: :meth:`_legal`). Otherwise each unit that may legally take a card
        gets one: suppressed units take only defensive cards or Jokers ("any-unit" cards), so an
        assignment is legal only if the most units that can still be given orders drops by exactly
        one (giving the last defensive card to an unsuppressed unit must not strand a suppressed one).
        """
        hand = self.s.players[side].hand
        needy = [u for u in self._side_units(side) if u.card == NO_CARD and not u.acted]
        if self.rules.orders.reserve_by_choice:
            return [(c, u.uid) for u in needy for c in hand if self.deck.legal_for(c, self._suppressed(u))]
        n_sup = sum(1 for u in needy if self._suppressed(u))
        n_free = len(needy) - n_sup
        n_any = sum(1 for c in hand if self.deck.legal_for(c, True))
        n_off = len(hand) - n_any
        best = max_orders(n_sup, n_free, n_any, n_off)

        def keeps_best(sup: bool, any_card: bool) -> bool:
            return max_orders(n_sup - sup, n_free - (not sup), n_any - any_card,
                               n_off - (not any_card)) == best - 1

        # Legality depends only on (unit suppressed?, card playable by suppressed units?).
        ok = {(sup, any_card): (any_card or not sup) and keeps_best(sup, any_card)
              for sup in (False, True) for any_card in (False, True)}
        kinds = [(c, self.deck.legal_for(c, True)) for c in hand]
        out = []
        for u in needy:
            sup = self._suppressed(u)
            out.extend((c, u.uid) for c, any_card in kinds if ok[sup, any_card])
        return out

    def _why_illegal(self, a: int, legal: set) -> str:
        seg = self.space.decode(a)
        desc = self.describe_action(a)
        stage = Stage.NAMES[self.s.stage]
        expects = sorted({self.space.decode(x)[0] for x in legal})
        head = f"action {a} ({desc}) is illegal in stage {stage} for player {self.s.current_player}"
        if seg[0] not in expects:
            return f"{head}: this stage takes {', '.join(expects)} actions"
        s = self.s
        if seg[0] == "ASSIGN":
            card, uid = seg[1], s.current_player * self.C + seg[2]
            u = s.units[uid]
            if card not in s.players[s.current_player].hand:
                return f"{head}: card {self.deck.name(card)} is not in the player's hand/Reserve"
            if not u.alive:
                return f"{head}: unit slot {seg[2]} is empty"
            if u.card != NO_CARD:
                return f"{head}: the unit already has orders"
            if not self.deck.legal_for(card, self._suppressed(u)):
                return (f"{head}: the unit is suppressed ({u.markers} markers) and may only take "
                        f"Clubs, Spades or a Joker")
        if seg[0] == "SELECT":
            return f"{head}: that unit has no orders left (or the slot is empty)"
        if seg[0] == "DECLARE":
            opts = ", ".join(f"{x.name} {p.name}" for x, p in self._action_options(s.units[s.decl_uid]))
            return f"{head}: with card {self.deck.name(s.units[s.decl_uid].card)} the unit may declare: {opts}"
        if seg[0] == "TARGET":
            return f"{head}: not a legal target (wrong side, no line of sight or not eligible)"
        return f"{head}: not among the {len(legal)} legal actions"

    def _max_move(self, u) -> float:
        m = self.rules.movement
        value = m.sprint_card_value if u.action == Action.SPRINT else self.deck.move_value(u.card)
        return value * m.basic_move_per_value * self._increment(u)

    def _clamp_step(self, x, y, ang, dist):
        """End of a straight move from (x, y), shortened so that it stays on the table.

        The engines' own sine and cosine (:mod:`atomic_africa._maths`), not the C library's: the same
        bits on every platform, as the C core's ``aa_clamp_step``."""
        s, c = sincos(ang)
        return self._clamp_move(x, y, dist * s, dist * c)

    def _clamp_move(self, x, y, dx, dy):
        """End of the move (dx, dy) from (x, y), shortened so that it stays on the table."""
        t = 1.0
        W, H = self.scenario.width_cm, self.scenario.height_cm
        for p, d, hi in ((x, dx, W), (y, dy, H)):
            if d > 0 and p + d > hi:
                t = min(t, (hi - p) / d)
            elif d < 0 and p + d < 0:
                t = min(t, -p / d)
        t = max(t, 0.0)
        return min(max(x + t * dx, 0.0), W), min(max(y + t * dy, 0.0), H)
