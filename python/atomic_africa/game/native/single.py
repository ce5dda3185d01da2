"""One game on the C core: :class:`Game`, the product's game (``atomic_africa.game.Game``).

A ``Game`` is a handle on one game's native state (``aa_core.single.Handle`` over a one-env
``aa_core.vbatch.Engine``): :meth:`Game.legal_actions`, :meth:`Game.apply`, :meth:`Game.observation`
and the native agents go straight into C. What Python code reads of a game (``s``, ``units``,
``events``, :meth:`Game.to_json`) is built from the native arrays and event records when it is
first read after a decision, and kept until the next one. The rules themselves live in the C core
only; the reference engine they are checked against (``atomic_africa.reference.game``) is never
imported here.
"""
from __future__ import annotations

import copy
import json
import weakref

import numpy as np

from aa_core import single as _single
from aa_core import vbatch as _k

from ..._seeding import seed_sequence
from ..._validate import as_int, shown
from ...rules import Rules
from ..events import EventLog
from ..outcome import GameResult, IllegalActionError
from ..reading import GameReading
from ..rng import RandomSource
from ..saved import FORMAT, SavedGameError, check_consistent, check_playable, check_replayed, read_saved_game
from ..schema import END_REASONS, SCALAR_COLUMN, UNIT_FIELDS, native_rows
from ..spec import GameSpec
from ..state import GameState, PlayerState, Stage, Unit
from .layout import decode_records
from .spec_file import spec_bytes

__all__ = ["Game", "pcg_words", "pcg_state"]

_S = SCALAR_COLUMN
_STAGE, _CUR, _WINNER = _S["stage"], _S["cur"], _S["winner"]
_OVER = Stage.OVER
_MASK64 = (1 << 64) - 1
# Per storage: (row, field, element) of each Python Unit field held natively.
_ROWS = {s: [(r, f.name, r - f.row if f.rows > 1 else None) for r, _, f in native_rows(s) if f.py_type is not None]
         for s in ("i8", "i32", "f64")}
_TYPES = {f.name: f.py_type for f in UNIT_FIELDS}
_NAME_BASE = next(f.row for f in UNIT_FIELDS if f.name == "name_base")
_NAME_DEPTH = next(f.row for f in UNIT_FIELDS if f.name == "name_depth")
_LISTS = {f.name: f.rows for f in UNIT_FIELDS if f.rows > 1}

# Per GameSpec: its native parameters and tables (computed once; a spec is immutable).
_PARAMS = weakref.WeakKeyDictionary()


def pcg_words(bitgen) -> np.ndarray:
    """The six native PCG64 words of numpy bit generator ``bitgen``: state hi, lo, increment hi, lo,
    has_uint32, the buffered uint32 (:data:`.snapshot.PCG_WORDS`)."""
    st = bitgen.state
    s, inc = int(st["state"]["state"]), int(st["state"]["inc"])
    return np.array([s >> 64, s & _MASK64, inc >> 64, inc & _MASK64, st["has_uint32"], st["uinteger"]],
                    dtype=np.uint64)


def pcg_state(words) -> dict:
    """numpy's ``PCG64.state`` dict of the six native words (inverse of :func:`pcg_words`)."""
    w = [int(x) for x in words]
    return {"bit_generator": "PCG64", "state": {"state": (w[0] << 64) | w[1], "inc": (w[2] << 64) | w[3]},
            "has_uint32": w[4], "uinteger": w[5]}


def _seed_words(seed: int) -> np.ndarray:
    return pcg_words(np.random.PCG64(seed_sequence(seed)))


def _native(spec: GameSpec) -> bytes:
    """The spec file of ``spec`` (the one transport of a battle into C), made once per spec."""
    got = _PARAMS.get(spec)
    if got is None:
        got = _PARAMS[spec] = spec_bytes(spec)
    return got


class Game(GameReading):
    """One game of Atomic Africa, played by the C core.

    Parameters
    ----------
    scenario : Scenario, path, dict, GameSpec or None
        The scenario (``None``: the packaged default), or a :class:`~atomic_africa.game.GameSpec`
        (scenario and rules already resolved; games built from one spec share it).
    seed : int
        Seed of the game's randomness source (deck shuffles, dice, scatter, confusion directions).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    source : RandomSource, optional
        Replaces the seeded source: the game draws from its current state. (Scripted sources are the
        reference engine's, ``atomic_africa.reference.game.Game``: the C core draws from a PCG64
        stream only.)

    Attributes
    ----------
    spec : GameSpec
        The game's configuration; ``scenario``, ``rules``, ``deck``, ``C`` (slots per side),
        ``assets`` and ``space`` are its fields.
    current_player : int
        Player (0 or 1) to decide next; -1 once the game is over.
    is_over : bool
    result : GameResult or None
    events : EventLog
        The event log (a list of dicts), both players' hidden cards included; ``events(player=p)``
        is player ``p``'s view of it (what it may know: :func:`~atomic_africa.game.events.player_view`).
    history : list of int
        Actions applied so far (replay with :meth:`replay`).
    s : GameState
        The state as plain data, built from the native arrays (a copy: changing it changes nothing).
    """

    def __init__(self, scenario=None, seed: int = 0, rules: Rules | None = None, source=None):
        self._setup(GameSpec.build(scenario, rules), seed)
        if source is not None and not isinstance(source, RandomSource):
            raise TypeError(f"source: expected a RandomSource (the C core draws from a PCG64 stream; a "
                            f"ScriptedSource needs the reference engine atomic_africa.reference.game.Game), "
                            f"got {type(source).__name__}")
        self._bind()
        if source is None:
            self._src_seed, words = self.seed, _seed_words(self.seed)
        else:
            self._src_seed, words = source.seed, pcg_words(source._bitgen)
        self._arrays["rng"][0] = words
        self._arrays["game_seed"][0] = self.seed & _MASK64
        self.history = []
        self._events, self._ev_pos = EventLog(), 0
        self.initial_figures = self.spec.initial_figures
        self._h.start()
        self._changed()

    def _bind(self):
        """The one-env Engine (event records kept) and the handle on its game."""
        self._engine = _k.Engine(_native(self.spec), 1, True)
        self._arrays = self._engine.arrays
        self._scalars = self._arrays["scalars"][0]
        self._h = _single.Handle(self._engine)
        self._agent_params = None

    def _changed(self):
        self._s = None

    # ------------------------------------------------------------------ state views
    @property
    def s(self) -> GameState:
        """The state as plain data (:class:`~atomic_africa.game.state.GameState`), built from the native
        arrays once per decision."""
        if self._s is None:
            self._s = self._state()
        return self._s

    def _state(self) -> GameState:
        a = self._arrays
        sc = a["scalars"][0].tolist()
        S = {name: sc[i] for name, i in _S.items()}
        units = self._units()
        piles, counts = a["piles"][0], a["counts"][0]
        players = []
        for p in range(2):
            c = counts[p].tolist()
            players.append(PlayerState(
                deck=piles[p, 0, :c[0]].tolist(), hand=piles[p, 1, :c[1]].tolist(),
                discard=piles[p, 2, :c[2]].tolist(), removed_figures=c[3],
                hidden_discards=S[f"hidden{p}"], reserve_no_any=bool(S[f"noany{p}"])))
        npend = S["npend"]
        pending = [S["pend0"], S["pend1"]][:npend]
        bonus = a["sprint_bonus"][0, :npend].tolist() if S["stage"] == Stage.SPRINT_MOVE else []
        winner = S["winner"]
        return GameState(
            turn=S["turn"], stage=S["stage"], current_player=S["cur"], first_player=S["first"],
            activating=S["activating"], next_activating=S["next_act"], phase=S["phase"], act_uid=S["act"],
            react_uid=S["react"], decl_uid=S["decl"], pending=pending, sprint_bonus=bonus, step=S["step"],
            winner=winner, reason=END_REASONS[S["reason"]].text if winner != -2 else "", units=units,
            players=players, feature_cover=a["fcover"][0, :len(self.scenario.terrain)].tolist())

    def _units(self) -> list:
        a = self._arrays
        cols = {}
        for storage, key in (("i8", "unit_i8"), ("i32", "unit_i32"), ("f64", "unit_f64")):
            rows = a[key][0].tolist()
            for r, name, k in _ROWS[storage]:
                if k is None:
                    cols[name] = rows[r]
                else:
                    cols.setdefault(name, [None] * _LISTS[name])[k] = rows[r]
        base, depth = a["unit_i32"][0, _NAME_BASE].tolist(), a["unit_i32"][0, _NAME_DEPTH].tolist()
        sides = self.scenario.sides
        out = []
        for uid in range(2 * self.C):
            kw = {}
            for name, col in cols.items():
                t = _TYPES[name]
                if name in _LISTS:
                    kw[name] = [int(c[uid]) for c in col]
                else:
                    kw[name] = t(col[uid])
            side = uid // self.C
            name = sides[side].units[base[uid]].name + "/b" * depth[uid] if base[uid] >= 0 else ""
            out.append(Unit(uid=uid, side=side, name=name, **kw))
        return out

    @property
    def units(self) -> list:
        """The unit slots (plain dataclasses, built from the native state; do not mutate)."""
        return self.s.units

    @property
    def events(self) -> EventLog:
        """The event log (:class:`~atomic_africa.game.events.EventLog`): call it with ``player=p`` for
        that player's view."""
        size = self._h.records_size()
        if size > self._ev_pos:
            new = decode_records(self._h.records_from(self._ev_pos), self.scenario, self.deck, self.C, self.seed)
            self._events.extend(new)
            self._ev_pos = size
        return self._events

    @property
    def src(self) -> RandomSource:
        """The game's randomness source as it stands (a copy of the native stream's state)."""
        src = RandomSource.__new__(RandomSource)
        src.seed = self._src_seed
        src._bitgen = np.random.PCG64()
        src._bitgen.state = pcg_state(self._arrays["rng"][0])
        return src

    # ------------------------------------------------------------------ decisions
    @property
    def current_player(self) -> int:
        """Player (0 or 1) to decide next; -1 once the game is over."""
        return self._h.cur

    @property
    def stage(self) -> str:
        """Name of the current decision stage."""
        return Stage.NAMES[self._scalars[_STAGE]]

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self._h.over

    def legal_actions(self) -> list:
        """Sorted legal action ids for the current player.

        Returns
        -------
        list of int
            Empty once the game is over.
        """
        return self._h.legal()

    def _legal(self) -> set:
        return set(self._h.legal())

    def action_mask(self) -> np.ndarray:
        """The legal actions as a mask.

        Returns
        -------
        ndarray of bool, shape (num_actions,)
            True at the legal action ids (all False once over).
        """
        mask = np.zeros(self.space.n, dtype=np.uint8)
        self._h.mask(mask)
        return mask.view(bool)

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
        if type(action) is not int:
            if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
                raise TypeError(f"action: expected an int action id, got {type(action).__name__} {shown(action)}")
            action = int(action)
        if not -2**31 <= action < 2**31 or not self._h.try_apply(action):
            raise IllegalActionError(self._refusal(action))
        self.history.append(action)
        self._s = None

    def _refusal(self, a: int) -> str:
        if self.is_over:
            return f"action {a}: the game is over ({self.s.reason})"
        if not 0 <= a < self.space.n:
            return f"action {a}: out of range; allowed 0..{self.space.n - 1}"
        return self._why_illegal(a, self._legal())

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
        if isinstance(player, (bool, np.bool_)) or not isinstance(player, (int, np.integer)):
            raise TypeError(f"player: expected 0 or 1, got {type(player).__name__} {shown(player)}")
        if player not in (0, 1):
            raise ValueError(f"player: {shown(player)} is not a player; allowed 0, 1")
        out = np.zeros(self.spec.observation_size, dtype=np.float32)
        self._h.observe(int(player), out)
        return out

    def result_code(self):
        """``(winner, reason index)`` from the native scalars (``winner`` -2 while running, -1 a draw)."""
        return int(self._scalars[_WINNER]), int(self._scalars[_S["reason"]])

    @property
    def result(self) -> GameResult | None:
        """The :class:`GameResult` once the game is over, else ``None``."""
        if not self.is_over:
            return None
        w, r = self.result_code()
        return GameResult(None if w < 0 else w, END_REASONS[r].text, tuple(self.figures(p) for p in range(2)))

    def returns(self) -> list:
        """Per-player returns.

        Returns
        -------
        list of int
            ``[+1, -1]`` or ``[-1, +1]`` once won, ``[0, 0]`` for a draw or while running.
        """
        w = int(self._scalars[_WINNER])
        if not self.is_over or w < 0:
            return [0, 0]
        return [1 if p == w else -1 for p in range(2)]

    # ------------------------------------------------------------------ native agents
    def agent_action(self, kind: int, words: np.ndarray, params: dict) -> int:
        """The action native agent ``kind`` (``aa_core.vgame.AGENT_KINDS``) plays now, drawing from the
        PCG64 words ``words`` (updated in place), with the agent parameters ``params``; -1 if none."""
        if params is not self._agent_params:     # an agent's parameters: set once, not per decision
            self._h.set_agent_params(params)
            self._agent_params = params
        return self._h.agent_action(kind, words)

    # ------------------------------------------------------------------ construction / serialising
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

        The history is replayed on the C core from the saved source's start; the document is refused
        unless the replay reaches its state, source and events.

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
            contradict each other (a winner while the game runs); the source is a script (the
            reference engine's); or the history, replayed from the saved source's start, does not
            lead to the saved state (the first field that disagrees is named).
        ScenarioError, RulesError
            If the saved scenario or rules are malformed (named).
        TypeError
            If ``text`` is not a str or bytes.
        """
        d, spec = read_saved_game(text)
        check_consistent(d)
        src = d["source"]
        if src["kind"] != "random":
            raise SavedGameError("text.source: a scripted source (tests) is the reference engine's; the C core "
                                 "replays a game from a random source only (atomic_africa.reference.game.Game "
                                 "loads this text)")
        saved = cls.__new__(cls)     # the saved state as it reads: its conservation laws
        saved._setup(spec, d["seed"])
        saved.initial_figures = list(d["initial_figures"])
        saved._s = GameState.from_dict(d["state"])
        try:
            saved.check_invariants()
        except AssertionError as e:
            raise SavedGameError(f"text.state: breaks a conservation law of the game ({e})") from None
        origin = f"text.source.seed {src['seed']}"
        g = cls(spec, d["seed"], source=RandomSource(src["seed"]))
        for i, a in enumerate(d["history"]):
            try:
                g.apply(a)
            except IllegalActionError as e:
                raise SavedGameError(f"text.history[{i}]: action {a} is not legal when the history is replayed "
                                     f"from {origin} ({e})") from None
        check_replayed(d, json.loads(g.to_json()), origin)
        return check_playable(g)

    def _copy_state(self) -> dict:
        return {k: a.copy() for k, a in self._arrays.items() if k != "los"}

    def clone(self) -> Game:
        """An independent copy (rules, scenario and terrain are immutable and shared).

        Returns
        -------
        Game
        """
        new = Game.__new__(Game)
        new.__setstate__(self.__getstate__())
        return new

    def fork(self) -> Game:
        """A copy of the current state without its event log and history (cheaper than :meth:`clone`):
        to look one decision ahead. Its events and history start empty.

        Returns
        -------
        Game
        """
        new = Game.__new__(Game)
        new.__setstate__({"spec": self.spec, "seed": self.seed, "src_seed": self._src_seed, "history": [],
                          "initial_figures": list(self.initial_figures), "events": [],
                          "arrays": self._copy_state()})
        return new

    def __getstate__(self):
        events = copy.deepcopy(list(self.events))
        return {"spec": self.spec, "seed": self.seed, "src_seed": self._src_seed, "history": list(self.history),
                "initial_figures": list(self.initial_figures), "events": events, "arrays": self._copy_state()}

    def __setstate__(self, d):
        self._setup(d["spec"], d["seed"])
        self._bind()
        self._engine.load(d["arrays"])
        self._src_seed = d["src_seed"]
        self.history = list(d["history"])
        self.initial_figures = list(d["initial_figures"])
        self._events, self._ev_pos = EventLog(d["events"]), 0
        self._h.touched()
        self._changed()

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
        seed = as_int(seed, "seed", lo=0, hi=2**64 - 1)
        self._arrays["rng"][0] = _seed_words(seed)
        self._src_seed = seed

    def determinize(self, player: int, seed: int) -> None:
        """Resample, in place, everything hidden from ``player``, consistently with what it has seen
        (the native ``aa_determinize``; see the reference engine's ``Game.determinize`` for the
        procedure, draw for draw the same).

        The game is reseeded with ``seed`` (future dice are hidden too), then the player's own deck is
        put in a fresh order and the opponent's unseen cards are dealt again from one shuffled pool.
        ``observation(player)`` is unchanged, and so are the legal actions when ``player`` is to move.
        The event log is left as it was: read it through ``events(player=...)``.

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
        self._h.determinize(p)
        self._changed()

    def __repr__(self):
        return (f"Game({self.scenario.name!r}, seed={self.seed}, turn={int(self._scalars[_S['turn']])}, "
                f"stage={self.stage})")
