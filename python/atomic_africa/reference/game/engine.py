"""The reference engine: the full game (RULES.md sections 1-7) as a deterministic state machine in
plain Python, the one the C core is checked against (parity tests, golden traces, rule coverage).

The product plays :class:`atomic_africa.game.Game` (the C core); only tests, benchmarks and explicit
debugging options import this module. ``Game(scenario, seed)`` holds plain-data state
(:mod:`atomic_africa.game.state`), one randomness source (:mod:`atomic_africa.game.rng`) through which
every shuffle and die roll goes, an event log and the list of applied actions. Decisions are ints of a
fixed-size action space (:mod:`atomic_africa.game.actions`); between decisions the engine runs every
automatic step (reveals, rolls, fire resolution, Clean-up) itself. What both engines read of a state
in the same way (targets, descriptions, the outcome) is :class:`atomic_africa.game.reading.GameReading`.

The native engine (``aa_core``) is this class's twin: each phase method here (``_start_game``,
``_apply_action``, ``_begin_turn``, ``_resolve``, ``_cleanup``, ``_split_unit`` ...) has a native
function of the same name without the underscore, which names this method in its comment; both
draw, log and compute in the same order, so the two agree bit for bit.
"""
from __future__ import annotations

import copy
import json
import math

import numpy as np

from ... import batch
from ..._validate import as_int, shown
from ...dice import DIE_ATTRIBUTES, wounded_dice
from ...enums import Action, Posture
from ...fire import predominant_cover, range_band, resolve_fire, scatter
from ...rules import Rules
from ...scores import action_scores
from ...game.events import EventLog
from ...game.los import cover_at, los_blocked
from ...game.outcome import GameResult, IllegalActionError
from ...game.reading import GameReading
from ...game.rng import RandomSource, ScriptedSource, initial_source, source_from_dict
from ...game.saved import (FORMAT, SavedGameError, check_consistent, check_playable, check_replayed,
                           read_saved_game)
from ...game.schema import END_REASON, NO_LEGAL_CARD
from ...game.spec import GameSpec
from ...game.state import NO_CARD, GameState, PlayerState, Stage, Unit

__all__ = ["Game", "IllegalActionError", "GameResult"]

# Actions whose attack the activated unit aims at a declared enemy unit.
_FIRE = (Action.BASIC, Action.SPRINT, Action.DIG_IN, Action.MASS_FIRE, Action.SPLIT_FIRE,
         Action.HEAVY_WEAPON)
_OPTIONAL_TARGET = (Action.BASIC, Action.SPRINT, Action.DIG_IN)
_MOVING = (Action.BASIC, Action.SPRINT)


def _dist(ax: float, ay: float, bx: float, by: float) -> float:
    # sqrt of the sum of squares, not math.hypot: IEEE sqrt is correctly rounded everywhere, so the
    # native engine (aa_core.vgame, built with -ffp-contract=off) gets the same distances bit for bit.
    dx, dy = ax - bx, ay - by
    return math.sqrt(dx * dx + dy * dy)


class Game(GameReading):
    """One game of Atomic Africa.

    Parameters
    ----------
    scenario : Scenario, path, dict, GameSpec or None
        The scenario (``None``: the packaged default), or a :class:`~atomic_africa.game.GameSpec`
        (scenario and rules already resolved; games built from one spec share it).
    seed : int
        Seed of the game's randomness source (deck shuffles, dice, scatter, confusion directions).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    source : RandomSource or ScriptedSource, optional
        Replaces the seeded source (tests script decks and dice with :class:`ScriptedSource`).

    Attributes
    ----------
    spec : GameSpec
        The game's configuration; ``scenario``, ``rules``, ``deck``, ``C`` (slots per side),
        ``assets`` and ``space`` are its fields.
    events : EventLog
        The event log (a list of dicts), both players' hidden cards included; ``events(player=p)``
        is player ``p``'s view of it (what it may know: :func:`~atomic_africa.game.events.player_view`).
    history : list of int
        Actions applied so far (replay with :meth:`replay`).

    Notes
    -----
    ``current_player``, ``is_over``, ``result`` and the other read-only views are
    :class:`~atomic_africa.game.reading.GameReading`'s, shared with the product's ``Game``.
    """

    def __init__(self, scenario=None, seed: int = 0, rules: Rules | None = None, source=None):
        self._setup(GameSpec.build(scenario, rules), seed)
        if source is not None and not isinstance(source, (RandomSource, ScriptedSource)):
            raise TypeError(f"source: expected RandomSource or ScriptedSource, got {type(source).__name__}")
        self.src = source if source is not None else RandomSource(self.seed)
        self.s = GameState()
        self.events = EventLog()
        self.history = []
        self._start_game()

    # ------------------------------------------------------------------ construction / serialising
    def _start_game(self):
        s, sc = self.s, self.scenario
        s.units = self.spec.initial_units()
        s.players = [PlayerState() for _ in range(2)]
        s.feature_cover = [t.cover for t in sc.terrain]
        self.initial_figures = self.spec.initial_figures
        self.events.add("setup", 0, scenario=sc.name, seed=self.seed, slots=self.C)
        for p in range(2):
            s.players[p].deck = self.src.shuffle(list(range(self.deck.size)))
            self.events.add("shuffle", 0, player=p, deck=list(s.players[p].deck))
        self._begin_turn()

    def to_json(self) -> str:
        """The whole game (scenario, rules, state, randomness state, events, history) as JSON.

        Returns
        -------
        str
            Read back with :meth:`from_json`.
        """
        return json.dumps({
            "format": FORMAT, "scenario": self.scenario.to_dict(), "rules": self.rules.to_dict(),
            "seed": self.seed, "initial_figures": self.initial_figures, "state": self.s.to_dict(),
            "source": self.src.to_dict(), "events": self.events, "history": self.history,
        }, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Game:
        """Rebuild a game from :meth:`to_json`'s output (exact round trip).

        Parameters
        ----------
        text : str
            JSON written by :meth:`to_json`.

        Returns
        -------
        Game

        Raises
        ------
        SavedGameError
            A ValueError: ``text`` is too long or too deeply nested (limits in
            :mod:`atomic_africa.game.saved`), not JSON, not a game of this format, or a field is
            missing, of the wrong type or does not fit the saved scenario and rules (named); fields
            contradict each other (a winner while the game runs); or the history, replayed from the
            saved source's start, does not lead to the saved state (the first field that disagrees
            is named).
        ScenarioError, RulesError
            If the saved scenario or rules are malformed (named).
        TypeError
            If ``text`` is not a str or bytes.

        Notes
        -----
        The replay costs as much as playing the game's decisions again (about 0.2 s for a whole
        default battle): what is loaded is a state the game's rules reach.
        """
        d, spec = read_saved_game(text)
        check_consistent(d)
        g = cls.__new__(cls)
        g._setup(spec, d["seed"])
        g.initial_figures = list(d["initial_figures"])
        g.s = GameState.from_dict(d["state"])       # every field checked by read_saved_game
        g.src = source_from_dict(d["source"])
        g.events = EventLog(d["events"])
        g.history = list(d["history"])
        check_playable(g)
        cls._check_history(d, spec)
        return g

    @classmethod
    def _check_history(cls, d: dict, spec: GameSpec) -> None:
        """Replay a checked saved game's history from its source's start; refuse the document
        (:func:`.saved.check_replayed`) unless the replay reproduces its state, source and events."""
        src = d["source"]
        origin = (f"text.source.seed {src['seed']}" if src["kind"] == "random"
                  else "the start of text.source's script")
        g = cls(spec, d["seed"], source=initial_source(src, d["events"]))
        for i, a in enumerate(d["history"]):
            try:
                g.apply(a)
            except IllegalActionError as e:
                raise SavedGameError(f"text.history[{i}]: action {a} is not legal when the history is replayed "
                                     f"from {origin} ({e})") from None
            except RuntimeError as e:      # a scripted source that does not replay
                raise SavedGameError(f"text.source: the script does not replay text.history (at "
                                     f"text.history[{i}]: {e})") from None
        check_replayed(d, json.loads(g.to_json()), origin)

    def clone(self) -> Game:
        """An independent copy (rules, scenario and terrain are immutable and shared).

        Returns
        -------
        Game
        """
        memo = {id(self.spec): self.spec, id(self.rules): self.rules, id(self.scenario): self.scenario,
                id(self._terrain): self._terrain, id(self.space): self.space, id(self.deck): self.deck,
                id(self.assets): self.assets}
        return copy.deepcopy(self, memo)

    def reseed(self, seed: int) -> None:
        """Give the game a new chance stream: future dice and shuffles come from
        ``RandomSource(seed)`` (the C API's ``aa_game_reseed``).

        Parameters
        ----------
        seed : int
            Non-negative.

        Raises
        ------
        TypeError, ValueError
            If ``seed`` is not a non-negative int (the game is unchanged).
        """
        self.src = RandomSource(as_int(seed, "seed", lo=0, hi=2**64 - 1))

    def determinize(self, player: int, seed: int) -> None:
        """Resample, in place, everything hidden from ``player``, consistently with what it has seen:
        a state it cannot tell from the true one (OpenSpiel's ``ResampleFromInfostate``).

        The game is reseeded with ``seed`` (future dice are hidden too), then the player's own deck is
        put in a fresh order and the opponent's unseen cards (its deck, its Reserve, its face-down
        order cards, the face-down bottom of its discard pile) are dealt again from one shuffled pool.
        Each pool is listed in card order before it is shuffled, so the result depends only on what
        ``player`` may know and on ``seed``. A face-down card given to a suppressed unit stays one a
        suppressed unit may take; a Reserve known to hold none gets none; a Reserve the opponent must
        pick from for a suppressed unit keeps a legal card. ``observation(player)`` is unchanged, and
        so are the legal actions when ``player`` is to move. The event log is left as it was: read it
        through ``events(player=...)``. The native engine's ``aa_determinize`` is this function, draw
        for draw.

        Parameters
        ----------
        player : {0, 1}
        seed : int
            Non-negative: the new chance stream.

        Raises
        ------
        TypeError, ValueError
            On a bad ``player`` or ``seed`` (the game is unchanged).
        """
        p = as_int(player, "player", lo=0, hi=1)
        self.reseed(seed)
        q, s = 1 - p, self.s
        own = s.players[p]
        own.deck = self.src.shuffle(sorted(own.deck))
        pl = s.players[q]
        face_down = [u for u in s.units[q * self.C:(q + 1) * self.C]
                     if u.alive and u.card != NO_CARD and not u.revealed]
        h = pl.hidden_discards
        pool = self.src.shuffle(sorted(pl.deck + pl.hand + pl.discard[:h] + [u.card for u in face_down]))

        def take(any_=None):
            # the first card left that fits (None: any card), else the first card left
            return pool.pop(next((i for i, c in enumerate(pool)
                                  if any_ is None or self.deck.legal_for(c, True) == any_), 0))

        for u in face_down:
            u.card = take(True if u.orders_suppressed else None)
        need_any = (s.stage == Stage.RESERVE_PICK and s.current_player == q
                    and self._suppressed(s.units[s.decl_uid]))
        pl.hand = [take(True if need_any and i == 0 else (False if pl.reserve_no_any else None))
                   for i in range(len(pl.hand))]
        pl.discard[:h] = [take() for _ in range(h)]
        pl.deck = [take() for _ in range(len(pl.deck))]

    def __getstate__(self):
        d = dict(self.__dict__)
        d["_los_key"] = d["_los"] = d["_terrain_key"] = d["_terrain"] = None
        d["_feature_los"] = {}
        return d

    # ------------------------------------------------------------------ public decision API
    def legal_actions(self) -> list:
        """Sorted legal action ids for the current player.

        Returns
        -------
        list of int
            Empty once the game is over.
        """
        return sorted(self._legal())

    def action_mask(self) -> np.ndarray:
        """The legal actions as a mask.

        Returns
        -------
        ndarray of bool, shape (num_actions,)
            True at the legal action ids (all False once over).
        """
        mask = np.zeros(self.space.n, dtype=bool)
        legal = self._legal()
        if legal:
            mask[np.fromiter(legal, dtype=np.int64)] = True
        return mask

    def apply(self, action) -> None:
        """Apply one decision of the current player.

        Parameters
        ----------
        action : int
            An action id of :meth:`legal_actions`.

        Raises
        ------
        TypeError
            If ``action`` is not an integer.
        IllegalActionError
            If the action is out of range, not legal now or the game is over; nothing changes.
        """
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise TypeError(f"action: expected an int action id, got {type(action).__name__} {shown(action)}")
        a = int(action)
        if self.is_over:
            raise IllegalActionError(f"action {a}: the game is over ({self.s.reason})")
        if not 0 <= a < self.space.n:
            raise IllegalActionError(f"action {a}: out of range; allowed 0..{self.space.n - 1}")
        legal = self._legal()
        if a not in legal:
            raise IllegalActionError(self._why_illegal(a, legal))
        self.history.append(a)
        self._apply_action(a)

    def observation(self, player: int) -> np.ndarray:
        """What ``player`` may see (opponent's face-down cards hidden).

        Parameters
        ----------
        player : int
            0 or 1.

        Returns
        -------
        ndarray of float32
            Flat observation vector.

        Raises
        ------
        TypeError
            If ``player`` is not an integer.
        ValueError
            If ``player`` is not 0 or 1.
        """
        from .observe import observe
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise TypeError(f"player: expected 0 or 1, got {type(player).__name__} {shown(player)}")
        if player not in (0, 1):
            raise ValueError(f"player: {shown(player)} is not a player; allowed 0, 1")
        return observe(self, player)

    # ------------------------------------------------------------------ helpers
    def _ev(self, type_, **kw):
        self.events.add(type_, self.s.turn, **kw)

    # ------------------------------------------------------------------ legal actions
    def _legal(self) -> set:
        s, sp = self.s, self.space
        st = s.stage
        C = self.C
        if st == Stage.OVER:
            return set()
        if st == Stage.ORDERS:
            pairs = self._orders_pairs(s.current_player)
            out = {sp.assign(c, uid % C) for c, uid in pairs}
            # The Reserve by choice (RULES.md section 2): the player may stop assigning at any time.
            if not out or self.rules.orders.reserve_by_choice:
                out.add(sp.end_orders)
            return out
        if st in (Stage.ACTIVATE, Stage.REACT):
            return {sp.select(u.uid % C) for u in self._own_ordered(s.current_player)}
        u = s.units[s.decl_uid] if s.decl_uid >= 0 else None
        if st == Stage.RESERVE_PICK:
            sup = self._suppressed(u)
            return {sp.assign(c, u.uid % C) for c in s.players[u.side].hand if self.deck.legal_for(c, sup)}
        if st == Stage.DECLARE_ACTION:
            return {sp.declare(a, p) for a, p in self._action_options(u)}
        if st == Stage.DECLARE_ASSET:
            return {sp.asset(k) for k in range(len(self.assets[u.side]))}
        if st == Stage.DECLARE_TARGET:
            a = u.action
            if a == Action.HEAVY_WEAPON:
                ts = self._hw_targets(u)
            elif a == Action.RALLY:
                ts = self._rally_targets(u)
            elif a == Action.CALL_FOR_FIRE:
                ts = self._cff_targets(u)
            else:
                ts = self._fire_targets(u)
            out = {sp.target(t) for t in ts}
            if a == Action.HEAVY_WEAPON:
                out |= {sp.feature(f) for f in self._feature_targets(u)}
            if a in _OPTIONAL_TARGET:
                out.add(sp.no_target)
            return out
        if st == Stage.DECLARE_TARGET2:
            return {sp.target(t) for t in self._fire_targets(u) if t != u.target}
        if st == Stage.MOVE:
            if self._max_move(u) <= 0:
                return {sp.stay}
            return set(range(sp.base["MOVE"], sp.base["MOVE"] + sp.size["MOVE"])) | {sp.stay}
        if st == Stage.SPRINT_MOVE:
            full = sp.n_fracs - 1
            return {sp.move(d, full) for d in range(sp.directions)}
        if st == Stage.SPLIT:
            return {sp.split(u.uid % C) for u in self._splittable(s.current_player)} | {sp.end_splits}
        raise AssertionError(f"unknown stage {st}")  # pragma: no cover

    # ------------------------------------------------------------------ dispatch
    def _apply_action(self, a: int):
        s, seg = self.s, self.space.decode(a)
        st = s.stage
        name = seg[0]
        if st == Stage.ORDERS:
            if name == "END_ORDERS":
                self._note_reserve(s.current_player)
                self._ev("orders_done", player=s.current_player, reserve=len(s.players[s.current_player].hand))
                s.step += 1
                self._orders_next()
            else:
                self._assign(seg[1], s.current_player * self.C + seg[2])
                if not self._orders_pairs(s.current_player):
                    self._note_reserve(s.current_player)
                    self._ev("orders_done", player=s.current_player,
                             reserve=len(s.players[s.current_player].hand))
                    s.step += 1
                    self._orders_next()
        elif st == Stage.ACTIVATE:
            u = s.units[s.current_player * self.C + seg[1]]
            s.act_uid = u.uid
            u.revealed = True
            self._ev("activate", player=u.side, unit=u.uid, card=self.deck.name(u.card))
            self._begin_declare(u)
        elif st == Stage.REACT:
            u = s.units[s.current_player * self.C + seg[1]]
            s.react_uid = u.uid
            u.revealed = True
            self._ev("react", player=u.side, unit=u.uid, card=self.deck.name(u.card))
            self._begin_declare(u)
        elif st == Stage.RESERVE_PICK:
            u = s.units[s.decl_uid]
            s.players[u.side].hand.remove(seg[1])
            u.card, u.revealed = seg[1], True
            s.react_uid = u.uid
            self._ev("reserve_card", player=u.side, unit=u.uid, card=self.deck.name(u.card))
            self._begin_declare(u)
        elif st == Stage.DECLARE_ACTION:
            self._set_action(s.units[s.decl_uid], seg[1], seg[2])
        elif st == Stage.DECLARE_ASSET:
            u = s.units[s.decl_uid]
            u.asset = seg[1]
            s.stage = Stage.DECLARE_TARGET
        elif st == Stage.DECLARE_TARGET:
            u = s.units[s.decl_uid]
            u.target = -1 if name == "NO_TARGET" else seg[1] if name == "TARGET" else 2 * self.C + seg[1]
            if u.action == Action.CALL_FOR_FIRE:
                t = s.units[u.target]
                u.aim_x, u.aim_y = t.x, t.y
            if u.action == Action.SPLIT_FIRE:
                s.stage = Stage.DECLARE_TARGET2
            else:
                self._after_targets(u)
        elif st == Stage.DECLARE_TARGET2:
            u = s.units[s.decl_uid]
            u.target2 = seg[1]
            self._after_targets(u)
        elif st == Stage.MOVE:
            u = s.units[s.decl_uid]
            if name == "STAY":
                u.dest_x, u.dest_y = u.x, u.y
            else:
                frac = self.rules.movement.distance_fractions[seg[2]]
                self._place_destination(u, self.spec.dir_angle[seg[1]], frac * self._max_move(u))
            s.pending.pop(0)
            self._next_move()
        elif st == Stage.SPRINT_MOVE:
            u = s.units[s.decl_uid]
            self._sprint_displace(u, self.spec.dir_angle[seg[1]], s.sprint_bonus[0])
            s.pending.pop(0)
            s.sprint_bonus.pop(0)
            self._next_sprint()
        elif st == Stage.SPLIT:
            if name == "END_SPLITS":
                s.step += 1
                self._splits_next()
            else:
                self._split_unit(s.units[s.current_player * self.C + seg[1]], voluntary=True)
                if not self._splittable(s.current_player):
                    s.step += 1
                    self._splits_next()

    # ------------------------------------------------------------------ orders phase
    def _draw(self, p: int):
        pl = self.s.players[p]
        if not pl.deck:
            if not pl.discard:
                return None
            pl.deck = self.src.shuffle(pl.discard)
            pl.discard = []
            pl.hidden_discards = 0
            self._ev("reshuffle", player=p, deck=list(pl.deck))
        return pl.deck.pop()

    def _begin_turn(self):
        s, o = self.s, self.rules.orders
        s.turn += 1
        s.first_player = (s.turn - 1) % 2 if o.first_player_alternates else 0
        s.next_activating = s.first_player
        for p in range(2):
            n = self.hand_size(p)
            drawn = []
            for _ in range(n):
                c = self._draw(p)
                if c is None:
                    break
                drawn.append(c)
            s.players[p].hand.extend(drawn)
            self._ev("draw", player=p, cards=drawn)
        s.stage = Stage.ORDERS
        s.step = 0
        self._orders_next()

    def _next_player_with(self, has_work, stage, on_skip=None) -> bool:
        """Give ``stage`` to the first player (in turn order, from ``s.step``) for whom
        ``has_work(p)``; False once both players are done."""
        s = self.s
        while s.step < 2:
            p = s.first_player if s.step == 0 else 1 - s.first_player
            if has_work(p):
                s.stage, s.current_player = stage, p
                return True
            if on_skip is not None:
                on_skip(p)
            s.step += 1
        return False

    def _orders_next(self):
        s = self.s
        if not self._next_player_with(
                self._orders_pairs, Stage.ORDERS,
                lambda p: (self._note_reserve(p),
                           self._ev("orders_done", player=p, reserve=len(s.players[p].hand)))):
            self._next_activation()

    def _note_reserve(self, p: int):
        """When player p's Orders end with no legal assignment left, a unit still without orders that
        is suppressed shows that p's Reserve holds no card a suppressed unit may take."""
        pl = self.s.players[p]
        if not pl.hand or self._orders_pairs(p):
            return
        if any(not u.has_orders and not u.acted and self._suppressed(u) for u in self._side_units(p)):
            pl.reserve_no_any = True

    def _discard_hidden(self, p: int, cards):
        """Cards discarded face down go under the face-up ones, after the older face-down cards, so the
        opponent knows which discards it has seen (``hidden_discards`` of them lie at the bottom)."""
        pl = self.s.players[p]
        h = pl.hidden_discards
        pl.discard[h:h] = cards
        pl.hidden_discards = h + len(cards)

    def _discard_card(self, u):
        """Unit u's card to the discard pile, face down if it was never revealed."""
        if u.revealed:
            self.s.players[u.side].discard.append(u.card)
        else:
            self._discard_hidden(u.side, [u.card])

    def _assign(self, card: int, uid: int):
        u = self.s.units[uid]
        self.s.players[u.side].hand.remove(card)
        u.card, u.revealed = card, False
        u.orders_suppressed = self._suppressed(u)
        self._ev("assign", player=u.side, unit=uid, card=self.deck.name(card))

    # ------------------------------------------------------------------ activation phases
    def _next_activation(self):
        s = self.s
        sides = [p for p in range(2) if self._own_ordered(p)]
        if not sides:
            self._cleanup()
            return
        p = s.next_activating if s.next_activating in sides else sides[0]
        s.activating = p
        s.phase += 1
        s.act_uid = s.react_uid = s.decl_uid = -1
        s.stage, s.current_player = Stage.ACTIVATE, p

    def _begin_declare(self, u):
        s = self.s
        s.decl_uid = u.uid
        opts = self._action_options(u)
        if len(opts) == 1:
            self._set_action(u, *opts[0])
        else:
            s.stage, s.current_player = Stage.DECLARE_ACTION, u.side

    def _set_action(self, u, action, posture):
        s = self.s
        u.action, u.posture = int(action), int(posture)
        self._ev("declare", unit=u.uid, action=Action(action).name, posture=Posture(posture).name,
                 confused=u.confused)
        s.current_player = u.side
        if action in _OPTIONAL_TARGET and not self._fire_targets(u):
            u.target = -1
            self._after_targets(u)
        elif action == Action.CALL_FOR_FIRE and len(self.assets[u.side]) > 1:
            s.stage = Stage.DECLARE_ASSET
        else:
            if action == Action.CALL_FOR_FIRE:
                u.asset = 0
            s.stage = Stage.DECLARE_TARGET

    def _after_targets(self, u):
        s = self.s
        self._ev("targets", unit=u.uid, target=u.target, target2=u.target2, asset=u.asset)
        if u.uid == s.act_uid:
            self._begin_reaction()
        else:
            self._begin_movement()

    def _begin_reaction(self):
        s = self.s
        q = 1 - s.activating
        if self._own_ordered(q):
            s.stage, s.current_player = Stage.REACT, q
            return
        a = s.units[s.act_uid]
        t = s.units[a.target] if a.action in _FIRE and 0 <= a.target < 2 * self.C else None
        # No ordered unit is left to answer with, so the target is without orders: it never got a
        # card, or it has acted and spent it (RULES.md section 6, ``orders.spent_units_react``).
        if t is None or not t.alive or (t.acted and not self.rules.orders.spent_units_react):
            self._ev("no_reaction", player=q)
            self._begin_movement()
            return
        if t.card != NO_CARD:   # the spent card is played out: face up to the discard pile
            self._discard_card(t)
            t.card, t.revealed = NO_CARD, False
        sup = self._suppressed(t)
        if any(self.deck.legal_for(c, sup) for c in s.players[q].hand):
            s.decl_uid = t.uid
            s.stage, s.current_player = Stage.RESERVE_PICK, q
            return
        if s.players[q].hand:   # a suppressed unit confused with cards in the Reserve: none of them legal
            s.players[q].reserve_no_any = True
        self._confused_draw(t)

    def _confused_draw(self, t):
        """RULES.md section 6: draw, show and discard illegal cards until a legal one comes.

        It stops only when no legal card is left in the deck and the discard pile together. The cards
        shown go to the discard pile when the draw ends, so a reshuffle during the draw (the deck ran
        out) never brings them back to be shown again.
        """
        s = self.s
        pl = s.players[t.side]
        sup = self._suppressed(t)
        shown = []
        while any(self.deck.legal_for(c, sup) for c in pl.deck + pl.discard):
            c = self._draw(t.side)
            if self.deck.legal_for(c, sup):
                pl.discard.extend(shown)
                t.card, t.revealed, t.confused = c, True, True
                s.react_uid = t.uid
                self._ev("confused", player=t.side, unit=t.uid, card=self.deck.name(c))
                self._begin_declare(t)
                return
            shown.append(c)
            self._ev("confused_draw", player=t.side, unit=t.uid, card=self.deck.name(c), legal=False)
        pl.discard.extend(shown)
        self._ev("no_reaction", player=t.side, unit=t.uid, reason=NO_LEGAL_CARD)
        self._begin_movement()

    # ------------------------------------------------------------------ movement
    def _place_destination(self, u, ang, dist):
        u.dest_x, u.dest_y = self._clamp_step(u.x, u.y, ang, dist)
        u.moves = True
        self._ev("move", unit=u.uid, start=[u.x, u.y], dest=[u.dest_x, u.dest_y],
                 in_transit=[(u.x + u.dest_x) / 2, (u.y + u.dest_y) / 2])

    def _begin_movement(self):
        s = self.s
        s.pending = []
        for uid in (s.act_uid, s.react_uid):
            if uid < 0:
                continue
            u = s.units[uid]
            u.dest_x, u.dest_y, u.moves = u.x, u.y, False
            if u.action in _MOVING:
                s.pending.append(uid)
        self._next_move()

    def _next_move(self):
        s = self.s
        while s.pending:
            u = s.units[s.pending[0]]
            if u.confused:
                face = self.src.roll(self.rules.call_for_fire.scatter_die)
                self._ev("confused_direction", unit=u.uid, face=face)
                self._place_destination(u, self.spec.clock_angle[face], self._max_move(u))
                s.pending.pop(0)
                continue
            s.decl_uid = u.uid
            s.stage, s.current_player = Stage.MOVE, u.side
            return
        self._resolve()

    # ------------------------------------------------------------------ action resolution
    def _points(self, u):
        """Start, In-transit and Destination points of u in this Activation phase."""
        if u.uid in (self.s.act_uid, self.s.react_uid) and u.moves:
            return ((u.x, u.y), ((u.x + u.dest_x) / 2, (u.y + u.dest_y) / 2), (u.dest_x, u.dest_y))
        p = (u.x, u.y)
        return (p, p, p)

    def _roll_unit(self, u, posture, action, event):
        dice, shattered = wounded_dice(u.dice, u.wounds, self._is_vehicle(u), self.rules)
        faces = self.src.roll_many([int(d) for d in dice])
        sc = action_scores(faces, posture, action, self.rules)
        self._ev(event, unit=u.uid, dice=[int(d) for d in dice], faces=faces, shattered=shattered,
                 action=Action(action).name, posture=Posture(posture).name,
                 attacks=list(sc.attacks), defense=sc.defense, rally=sc.rally, spotting=sc.spotting,
                 sprint_bonus=sc.sprint_bonus)
        return sc

    def _resolve(self):
        s, rules = self.s, self.rules
        parts = [s.units[uid] for uid in (s.act_uid, s.react_uid) if uid >= 0]
        scores = {u.uid: self._roll_unit(u, u.posture, u.action, "roll") for u in parts}
        attacks = []  # (source, target uid, attack, band, ap); source = uid or -1 - asset
        on_features = []  # (source uid, feature, attack, band, ap)
        for u in parts:
            sc, a = scores[u.uid], u.action
            f = self._target_feature(u)
            if f is not None:
                fx, fy = self.scenario.terrain[f].aim_point
                pa = self._points(u)[1]
                on_features.append((u.uid, f, sc.attacks[0], range_band(_dist(pa[0], pa[1], fx, fy), rules),
                                    u.hw_point_ap))
            elif a in _FIRE and u.target >= 0:
                band = self._band(u, s.units[u.target])
                if a == Action.MASS_FIRE:
                    attacks += [(u.uid, u.target, x, band, 0) for x in sc.attacks]
                elif a == Action.SPLIT_FIRE:
                    attacks.append((u.uid, u.target, sc.attacks[-1], band, 0))
                    attacks.append((u.uid, u.target2, sc.attacks[0],
                                    self._band(u, s.units[u.target2]), 0))
                elif a == Action.HEAVY_WEAPON:
                    attacks.append((u.uid, u.target, sc.attacks[0], band,
                                    self._hw_ap(u, s.units[u.target])))
                else:
                    attacks.append((u.uid, u.target, sc.attacks[0], band, 0))
            elif a == Action.CALL_FOR_FIRE:
                attacks += self._call_for_fire(u, sc)
        # Rally is judged against the markers before this phase's fire (simultaneous resolution).
        rallies = [self._rally(u, scores[u.uid]) for u in parts if u.action == Action.RALLY]
        self._fire(attacks, scores)
        self._fire_on_features(on_features)
        for t, ok in rallies:
            if ok:
                s.units[t].markers = max(0, s.units[t].markers - rules.rally.markers_removed)
        # Sprint displacement comes after all fire (RULES.md section 4).
        s.pending, s.sprint_bonus = [], []
        for u in parts:
            if u.action == Action.SPRINT:
                m = rules.movement
                inc = m.vehicle_sprint_increment_cm if self._is_vehicle(u) else m.sprint_increment_cm
                s.pending.append(u.uid)
                s.sprint_bonus.append(scores[u.uid].sprint_bonus * inc)
        self._next_sprint()

    def _band(self, a, b) -> int:
        pa, pb = self._points(a)[1], self._points(b)[1]
        return range_band(_dist(pa[0], pa[1], pb[0], pb[1]), self.rules)

    def _call_for_fire(self, u, sc):
        s, cff = self.s, self.rules.call_for_fire
        asset = self.assets[u.side][u.asset]
        clock, dist = self.src.roll_many([cff.scatter_die, cff.scatter_die])
        sca = scatter(clock, dist, sc.spotting, self.rules)
        ix, iy = u.aim_x + sca.dx, u.aim_y + sca.dy
        self._ev("scatter", unit=u.uid, asset=asset.name, aim=[u.aim_x, u.aim_y], clock=clock,
                 distance=dist, spotting=sc.spotting, direct_hit=bool(sca.direct_hit), impact=[ix, iy])
        faces = self.src.roll_many(list(asset.dice))
        ssc = action_scores(faces, Posture[cff.support_posture.upper()],
                            Action[cff.support_action.upper()], self.rules)
        attack = ssc.attacks[-1]
        self._ev("support_roll", unit=u.uid, asset=asset.name, dice=list(asset.dice), faces=faces,
                 attack=attack)
        out = []
        r2 = asset.blast_radius_cm * asset.blast_radius_cm
        for t in s.units:
            if not t.alive or (t.side == u.side and not cff.blast_hits_friends):
                continue
            if any((p[0] - ix) * (p[0] - ix) + (p[1] - iy) * (p[1] - iy) <= r2 for p in self._points(t)):
                out.append((-1 - u.asset, t.uid, attack, cff.support_range_band, asset.ap))
        return out

    def _rally(self, u, sc):
        s, rr = self.s, self.rules.rally
        t = s.units[u.target]
        if t.uid == u.uid:
            rng, los = rr.self_range, True
        else:
            pa, pb = self._points(u)[1], self._points(t)[1]
            rng = range_band(_dist(pa[0], pa[1], pb[0], pb[1]), self.rules)
            los = not los_blocked([pa[0]], [pa[1]], [pb[0]], [pb[1]], self.terrain)[0]
            if not los and u.comms:
                rng += rr.comms_range_penalty
        ok = (los or u.comms) and sc.rally > rng + t.markers
        self._ev("rally", unit=u.uid, target=t.uid, rally=sc.rally, range=rng, markers=t.markers,
                 los=bool(los), success=bool(ok))
        return t.uid, ok

    def _fire(self, attacks, scores):
        if not attacks:
            return
        s, rules = self.s, self.rules
        targets = sorted({a[1] for a in attacks})
        index = {t: i for i, t in enumerate(targets)}
        defense = []
        for t in targets:
            if t in scores:
                defense.append(scores[t].defense)
            else:
                u = s.units[t]
                sc = self._roll_unit(u, Posture[rules.orders.bystander_posture.upper()], Action.BASIC,
                                     "bystander_roll")
                defense.append(sc.defense)
        pts = [p for t in targets for p in self._points(s.units[t])]
        cov = cover_at([p[0] for p in pts], [p[1] for p in pts], self.terrain).tolist()
        cover = [int(predominant_cover(*cov[3 * i:3 * i + 3])) for i in range(len(targets))]
        vehicle = [self._is_vehicle(s.units[t]) for t in targets]
        armor = [s.units[t].armor for t in targets]
        for src, t, att, band, ap in attacks:
            i = index[t]
            r = resolve_fire(att, band, defense[i], armor[i], cover[i], ap, vehicle[i], rules)
            self._ev("fire", source=src, target=t, attack=att, range=band, defense=defense[i],
                     armor=armor[i], cover=cover[i], ap=ap, markers=r.markers, wounds=r.wounds)
        markers, wounds = batch.resolve_volley(
            [index[a[1]] for a in attacks], [a[2] for a in attacks], [a[3] for a in attacks],
            ap=[a[4] for a in attacks], defense=defense, armor=armor, cover=cover, vehicle=vehicle,
            already=[s.units[t].turn_markers for t in targets], n_targets=len(targets), rules=rules)
        for i, t in enumerate(targets):
            u = s.units[t]
            m, w = int(markers[i]), int(wounds[i])
            u.markers += m
            u.turn_markers += m
            u.wounds += w
            self._ev("fire_result", target=t, markers=m, wounds=w, total_markers=u.markers,
                     total_wounds=u.wounds, cover=cover[i])

    def _fire_on_features(self, attacks):
        """Heavy weapons against terrain features (RULES.md section 4): Defense ``feature_defense``
        against the feature's armor (AP applies, no cover bonus); each wound lowers its cover. After
        the units' fire, whose cover was judged before (simultaneous resolution)."""
        s, fr = self.s, self.rules.fire
        for src, f, att, band, ap in attacks:
            feat = self.scenario.terrain[f]
            r = resolve_fire(att, band, fr.feature_defense, feat.armor, 0, ap, False, self.rules)
            before = s.feature_cover[f]
            s.feature_cover[f] = max(0, before - r.wounds * fr.feature_cover_per_wound)
            self._ev("feature_fire", source=src, feature=f, name=feat.name, attack=att, range=band,
                     defense=fr.feature_defense, armor=feat.armor, ap=ap, wounds=r.wounds,
                     cover=[before, s.feature_cover[f]])

    def _next_sprint(self):
        s = self.s
        while s.pending:
            u = s.units[s.pending[0]]
            if u.confused:
                face = self.src.roll(self.rules.call_for_fire.scatter_die)
                self._ev("confused_direction", unit=u.uid, face=face, sprint=True)
                self._sprint_displace(u, self.spec.clock_angle[face], s.sprint_bonus[0])
                s.pending.pop(0)
                s.sprint_bonus.pop(0)
                continue
            s.decl_uid = u.uid
            s.stage, s.current_player = Stage.SPRINT_MOVE, u.side
            return
        self._finish_phase()

    def _sprint_displace(self, u, ang, dist):
        u.dest_x, u.dest_y = self._clamp_step(u.dest_x, u.dest_y, ang, dist)
        u.moves = True
        self._ev("sprint", unit=u.uid, distance=dist, dest=[u.dest_x, u.dest_y])

    def _finish_phase(self):
        s, m = self.s, self.rules.movement
        parts = [s.units[uid] for uid in (s.act_uid, s.react_uid) if uid >= 0]
        for u in parts:
            if u.moves:
                self._ev("complete_move", unit=u.uid, start=[u.x, u.y], dest=[u.dest_x, u.dest_y])
                u.x, u.y = u.dest_x, u.dest_y
        # Merging (RULES.md section 5): a moved unit whose Destination touches a friendly unit.
        for u in parts:
            if not (u.alive and u.moves):
                continue
            best, best_d = None, None
            for t in self._side_units(u.side):
                if t.uid == u.uid or not self._may_merge(u, t):
                    continue
                d = _dist(t.x, t.y, u.x, u.y)
                if d <= m.merge_contact_cm and (best_d is None or d < best_d):
                    best, best_d = t, d
            if best is not None:
                self._merge(u, best)
        # Joker: its player seizes the initiative for the next Activation phase.
        jokers = [u.side for u in parts if u.card != NO_CARD and self.deck.is_joker(u.card)]
        if self.rules.orders.joker_takes_initiative and len(set(jokers)) == 1:
            s.next_activating = jokers[0]
            self._ev("initiative", player=jokers[0])
        else:
            s.next_activating = 1 - s.activating
        for u in parts:
            u.acted = True
            u.clear_scratch()
        s.pending, s.sprint_bonus = [], []
        self._next_activation()

    def _may_merge(self, u, t) -> bool:
        m = self.rules.movement
        if (self._is_vehicle(u) or self._is_vehicle(t)) and not m.vehicles_merge:
            return False
        return t.kind == u.kind or not m.merge_same_kind_only

    def _merge(self, u, t):
        """u joins t: figures, markers and wounds add up; u's played card goes to the discard."""
        self._ev("merge", unit=u.uid, from_name=u.name, into=t.uid, figures=[u.figures, t.figures],
                 markers=[u.markers, t.markers], wounds=[u.wounds, t.wounds])
        t.figures += u.figures
        t.markers += u.markers
        t.wounds += u.wounds
        t.turn_markers += u.turn_markers
        t.commander = t.commander or u.commander
        if u.card != NO_CARD:
            self._discard_card(u)
        self._free_slot(u)

    def _free_slot(self, u):
        uid, side = u.uid, u.side
        self.s.units[uid] = Unit(uid=uid, side=side)

    # ------------------------------------------------------------------ clean-up
    def _shattered_unit(self, u) -> bool:
        attr = self.rules.dice.wound_shift_vehicle if self._is_vehicle(u) else self.rules.dice.wound_shift_infantry
        if self.rules.cleanup.shattered_split_die == "morale" and attr != "morale":
            return False
        return wounded_dice(u.dice, u.wounds, self._is_vehicle(u), self.rules)[1]

    def _splittable(self, side) -> list:
        # a split needs a free slot for the new half: without one it would change nothing and stay legal
        # (every legal action makes progress); the slot capacity (spec.slot_capacity) always leaves one
        units = self._side_units(side)
        if len(units) >= self.spec.C:
            return []
        n = self.rules.cleanup.split_min_figures
        return [u for u in units if u.figures >= n and not u.split_done]

    def _cleanup(self):
        s = self.s
        s.act_uid = s.react_uid = s.decl_uid = -1
        n = self.rules.cleanup.split_min_figures
        for u in list(s.units):
            if u.alive and self._shattered_unit(u):
                if u.figures < n:
                    self._remove_unit(u)
                else:
                    self._split_unit(u, voluntary=False)
        s.step = 0
        self._splits_next()

    def _splits_next(self):
        if not self._next_player_with(self._splittable, Stage.SPLIT):
            self._cleanup_rest()

    def _remove_unit(self, u):
        pl = self.s.players[u.side]
        pl.removed_figures += u.figures
        if u.card != NO_CARD:
            self._discard_card(u)
        self._ev("removed", unit=u.uid, name=u.name, side=u.side, figures=u.figures)
        self._free_slot(u)

    def _split_unit(self, u, voluntary: bool):
        """Clean-up splitting: halves as equal as possible, markers and wounds divided evenly."""
        s, cu = self.s, self.rules.cleanup
        free = next((t for t in s.units[u.side * self.C:(u.side + 1) * self.C] if not t.alive), None)
        if free is None:  # pragma: no cover - the slot capacity bound rules this out
            raise AssertionError("no free unit slot for a split")

        def halves(n):
            big = (n + 1) // 2 if cu.odd_to_larger_half else n // 2
            return big, n - big

        fig_big, fig_small = (u.figures + 1) // 2, u.figures // 2
        mk, wd, tm = halves(u.markers), halves(u.wounds), halves(u.turn_markers)
        new = copy.copy(u)
        new.uid, new.dice = free.uid, list(u.dice)
        new.name = f"{u.name}/b"
        new.commander = False
        new.card, new.revealed, new.orders_suppressed = NO_CARD, False, False
        new.figures, new.markers, new.wounds, new.turn_markers = fig_small, mk[1], wd[1], tm[1]
        u.figures, u.markers, u.wounds, u.turn_markers = fig_big, mk[0], wd[0], tm[0]
        cx, cy = self.scenario.width_cm / 2, self.scenario.height_cm / 2
        # towards the middle (+x from the middle itself): a unit vector by a correctly rounded sqrt, not
        # an angle through atan2, sin and cos (the C library's differ between platforms)
        ex, ey = cx - u.x, cy - u.y
        if ex != 0.0 or ey != 0.0:
            r = math.sqrt(ex * ex + ey * ey)
            ex, ey = ex / r, ey / r
        else:
            ex, ey = 1.0, 0.0
        new.x, new.y = self._clamp_move(u.x, u.y, cu.split_offset_cm * ex, cu.split_offset_cm * ey)
        u.split_done = new.split_done = True
        new.clear_scratch()
        s.units[free.uid] = new
        self._ev("split", unit=u.uid, new_unit=new.uid, voluntary=voluntary,
                 figures=[u.figures, new.figures], markers=[u.markers, new.markers],
                 wounds=[u.wounds, new.wounds])

    def _cleanup_rest(self):
        s, cu = self.s, self.rules.cleanup
        # Morale: a roll of the (shifted) Morale die above the number of markers removes one.
        for u in s.units:
            if u.alive and u.markers > 0:
                dice, _ = wounded_dice(u.dice, u.wounds, self._is_vehicle(u), self.rules)
                die = int(dice[DIE_ATTRIBUTES.index("morale")])
                face = self.src.roll(die)
                ok = face > u.markers
                self._ev("morale", unit=u.uid, die=die, face=face, markers=u.markers, success=ok)
                if ok:
                    u.markers = max(0, u.markers - cu.morale_markers_removed)
        # Unused (and played) order cards go to the discard pile.
        for p, pl in enumerate(s.players):
            self._ev("discard", player=p, reserve=len(pl.hand))
            self._discard_hidden(p, pl.hand)   # the Reserve goes face down
            pl.hand = []
            pl.reserve_no_any = False
        for u in s.units:
            if u.alive:
                if u.card != NO_CARD:
                    self._discard_card(u)
                u.card, u.revealed, u.acted, u.split_done, u.turn_markers = NO_CARD, False, False, False, 0
                u.orders_suppressed = False
                u.clear_scratch()
        self._ev("turn_end", figures=[self.figures(0), self.figures(1)],
                 units=[len(self._side_units(0)), len(self._side_units(1))])
        # Victory.
        alive = [len(self._side_units(p)) for p in range(2)]
        if alive[0] == 0 or alive[1] == 0:
            winner = -1 if alive[0] == alive[1] else (0 if alive[1] == 0 else 1)
            self._game_over(winner, END_REASON["NO_UNITS"])
        elif s.turn >= self.scenario.turns:
            f = [self.figures(0), self.figures(1)]
            winner = -1 if f[0] == f[1] else (0 if f[0] > f[1] else 1)
            self._game_over(winner, END_REASON["MORE_FIGURES" if winner >= 0 else "EQUAL_FIGURES"])
        else:
            self._begin_turn()

    def _game_over(self, winner, reason):
        s = self.s
        s.winner, s.reason = winner, reason
        s.stage, s.current_player = Stage.OVER, -1
        self._ev("game_over", winner=winner, reason=reason,
                 figures=[self.figures(0), self.figures(1)])
