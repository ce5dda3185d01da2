"""The OpenSpiel bridge: the game registered with ``pyspiel`` as ``"atomic_africa"``.

Importing this module registers the game, so OpenSpiel's algorithms load it by name::

    import atomic_africa.env.open_spiel      # registers "atomic_africa"
    import pyspiel
    game = pyspiel.load_game("atomic_africa", {"scenario": "", "seed": 7})

It is a Python game over the native engine (:class:`atomic_africa.game.Game`); what OpenSpiel sees:

- **Chance** is OpenSpiel's *sampled stochastic* mode: the C core rolls its dice and shuffles its decks
  from the game's own stream, so no chance node is ever exposed. ``new_initial_state()`` draws each
  game's seed from the game's stream (parameter ``seed``); ``clone()`` copies a state exactly, its
  stream included (as OpenSpiel's ``random_sim_test`` requires: a clone and its original given the
  same action must agree), so a perfect-information search that clones (``MCTSBot``) plays one
  sampled future of the dice.
- **Information states**: as a string, player ``p``'s record of what it has seen: a 64-bit digest
  (CRC-32 and Adler-32) of its observation
  (:meth:`~atomic_africa.game.native.single.Game.observation`) each time it changes, and its own
  actions. The observation holds nothing ``p`` may not know, so neither does the record. As a tensor
  (fixed size, so a summary of the record, not all of it): ``p``'s current observation followed by
  how many times ``p`` has played each action id this game (``observation_size + num_actions``
  floats). The observation tensor is the 838 floats (default scenario) the gymnasium and PettingZoo
  adapters give.
- **Resampling**: ``state.resample_from_infostate(p, sampler)`` is a copy whose hidden part is drawn
  again for ``p`` by :meth:`~atomic_africa.game.native.single.Game.determinize` (the opponent's
  unseen cards, ``p``'s own deck order, future dice), seeded from one draw of ``sampler``; ``p``'s
  information state is unchanged. The opponent's record restarts at its observation in the new world
  (its past observations there are not known).
- **Returns**: +1 / -1 to the winner / loser, 0 each for a draw, at the end only. A game that reaches
  ``max_game_length`` decisions (default 1000; the longest of 4,000 random games had 320) ends there
  as a draw.

Game parameters: ``scenario`` (a packaged scenario's name or a file's path; ``""``: the default
battle), ``rules`` (a rules file's path; ``""``: the packaged rules), ``seed`` (non-negative int) and
``max_game_length``.
"""
from __future__ import annotations

import hashlib
import json
import zlib

import numpy as np

from .._optional import require
from .._seeding import seed_sequence
from .._validate import as_float, as_int
from ..game import Game, GameSpec

pyspiel = require("pyspiel", "open_spiel", "the OpenSpiel bridge")

__all__ = ["SHORT_NAME", "GAME_TYPE", "AtomicAfricaGame", "AtomicAfricaState", "DEFAULT_MAX_GAME_LENGTH",
           "OpenSpielISMCTSAgent", "load_game", "register"]

#: The name the game is registered under (``pyspiel.load_game(SHORT_NAME)``).
SHORT_NAME = "atomic_africa"
#: Decisions after which a game is stopped as a draw: over three times the longest random game seen.
DEFAULT_MAX_GAME_LENGTH = 1000
_PARAMS = {"scenario": "", "rules": "", "seed": 0, "max_game_length": DEFAULT_MAX_GAME_LENGTH}

#: The game's OpenSpiel type (sequential, sampled stochastic, imperfect information, zero sum).
GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Atomic Africa",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=2,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_PARAMS)


def _digest(obs: np.ndarray) -> str:
    # CRC-32 and Adler-32 side by side: 64 bits, the same in every process (so a serialized state's
    # records match), and several times cheaper than a cryptographic hash on every decision
    data = obs.tobytes()
    return f"{zlib.crc32(data):08x}{zlib.adler32(data):08x}"


class _Core:
    """A state's native game and both players' records; OpenSpiel's ``clone`` deep-copies a Python
    state's attributes, and this is the only one (:meth:`__deepcopy__` copies it cheaply).

    OpenSpiel's clone makes a fresh initial state and then copies the attributes over it, so the
    native game is built on first use (``game``), never for a state about to be overwritten.
    """

    __slots__ = ("spec", "max_length", "seed", "_game", "records", "last", "decisions", "counts")

    def __init__(self, spec: GameSpec, max_length: int, seed: int = 0, game: Game | None = None):
        self.spec, self.max_length, self.seed = spec, max_length, seed
        self._game = game
        self.records = self.last = None
        self.decisions = 0
        self.counts = np.zeros((2, spec.space.n), np.float32)   # each player's actions, by id
        if game is not None:
            self._start()

    def _start(self):
        self.last = [_digest(self._game.observation(p)) for p in (0, 1)]
        self.records = list(self.last)

    @property
    def game(self) -> Game:
        if self._game is None:
            self._game = Game(self.spec, self.seed)
            self._start()
        return self._game

    def __deepcopy__(self, memo):
        new = _Core.__new__(_Core)
        new.spec, new.max_length, new.seed, new.decisions = self.spec, self.max_length, self.seed, self.decisions
        game = self.game
        new._game = game.fork()       # the state without the event log: the rules never read it
        new.records, new.last = list(self.records), list(self.last)
        new.counts = self.counts.copy()
        return new

    def __getstate__(self):
        self.game     # noqa: B018 - built before it is saved
        return {k: getattr(self, k) for k in self.__slots__}

    def __setstate__(self, d):
        for k, v in d.items():
            setattr(self, k, v)

    def apply(self, action: int) -> None:
        game = self.game
        actor = game.current_player
        game.apply(action)
        self.decisions += 1
        self.records[actor] += f" a{action}"
        self.counts[actor, action] += 1
        for p in (0, 1):
            d = _digest(game.observation(p))
            if d != self.last[p]:
                self.last[p] = d
                self.records[p] += " " + d

    @property
    def over(self) -> bool:
        return self.game.is_over or self.decisions >= self.max_length


class AtomicAfricaGame(pyspiel.Game):
    """Atomic Africa as an OpenSpiel game (registered as :data:`SHORT_NAME`).

    Parameters
    ----------
    params : dict, optional
        Some of ``scenario`` (str: a packaged scenario's name or a file's path, ``""`` the default),
        ``rules`` (str: a rules file's path, ``""`` the packaged rules), ``seed`` (int >= 0: the stream
        the games' seeds are drawn from) and ``max_game_length`` (int >= 1).
    spec : GameSpec, optional
        The battle itself (then ``scenario`` and ``rules`` must be empty): how a league agent gets
        the bridge of the game it plays.

    Raises
    ------
    TypeError, ValueError
        On an unknown parameter or a bad value (named); the scenario's and rules' own errors.
    """

    def __init__(self, params=None, spec: GameSpec | None = None):
        params = dict(params or {})
        unknown = sorted(k for k in params if k not in _PARAMS)
        if unknown:
            raise ValueError(f"params: unknown parameter {unknown[0]!r}; allowed {', '.join(_PARAMS)}")
        full = {**_PARAMS, **params}
        for key in ("scenario", "rules"):
            if not isinstance(full[key], str):
                raise TypeError(f"params.{key}: expected a str (a name or path; \"\" the default), got "
                                f"{type(full[key]).__name__}")
        seed = as_int(full["seed"], "params.seed", lo=0)
        self.max_length = as_int(full["max_game_length"], "params.max_game_length", lo=1)
        own_spec = spec is not None
        if spec is None:
            spec = GameSpec.build(full["scenario"] or None, full["rules"] or None)
        elif full["scenario"] or full["rules"]:
            raise ValueError("params: give scenario and rules, or a spec, not both")
        self.spec = spec
        self._params, self._own_spec = params, own_spec
        self._rng = np.random.Generator(np.random.PCG64(seed))
        info = pyspiel.GameInfo(num_distinct_actions=spec.space.n, max_chance_outcomes=0, num_players=2,
                                min_utility=-1.0, max_utility=1.0, utility_sum=0.0,
                                max_game_length=self.max_length)
        super().__init__(GAME_TYPE, info, full)

    def __reduce__(self):
        # pyspiel pickles a game as its serialization, which a sampled-stochastic Python game cannot
        # give (no GetRNGState): the parameters, the spec given and the seed stream's state instead.
        # This is how alpha_zero's worker processes receive the game.
        return _unpickle_game, (self._params, self.spec if self._own_spec else None,
                                self._rng.bit_generator.state)

    def new_initial_state(self, game: Game | None = None):
        """A new game, its seed drawn from this game's stream; or the bridge state of ``game`` (a
        running :class:`~atomic_africa.game.Game` of this game's spec, copied), whose records start
        at its current observations."""
        if game is None:
            return AtomicAfricaState(self, _Core(self.spec, self.max_length, int(self._rng.integers(2**63))))
        if game.spec != self.spec:
            raise ValueError("game: its scenario or rules are not this bridge's (build the bridge with "
                             "AtomicAfricaGame(spec=game.spec))")
        return AtomicAfricaState(self, _Core(self.spec, self.max_length, game=game.fork()))

    def make_py_observer(self, iig_obs_type=None, params=None):
        """The observer of observations (default) or, with ``perfect_recall``, of information states."""
        if params:
            raise ValueError(f"params: the observer takes no parameters, got {sorted(params)}")
        recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return _Observer(self.spec.observation_size, self.spec.space.n, recall)


class AtomicAfricaState(pyspiel.State):
    """One game of :class:`AtomicAfricaGame` (made by its ``new_initial_state``).

    ``state.game`` is the native :class:`~atomic_africa.game.Game` (read it; apply actions through
    the state, which keeps the players' records).
    """

    def __init__(self, game: AtomicAfricaGame, core: _Core):
        super().__init__(game)
        self.core = core

    @property
    def game(self) -> Game:
        """The native game (a live handle: do not apply actions to it directly)."""
        return self.core.game

    def current_player(self):
        if self.core.over:
            return pyspiel.PlayerId.TERMINAL
        return self.core.game.current_player

    def is_terminal(self):
        return self.core.over

    def _legal_actions(self, player):
        if self.core.over or player != self.core.game.current_player:
            return []
        return self.core.game.legal_actions()

    def _apply_action(self, action):
        self.core.apply(int(action))

    def _action_to_string(self, player, action):
        try:
            text = self.core.game.describe_action(int(action))
        except (ValueError, IndexError):     # an id that means nothing here: the id alone says it
            return str(action)
        return f"{action}: {text}"

    def returns(self):
        g = self.core.game
        if not g.is_over:
            return [0.0, 0.0]
        return [float(r) for r in g.returns()]

    def resample_from_infostate(self, player_id, probability_sampler):
        """A copy in which what ``player_id`` cannot see is drawn again
        (:meth:`~atomic_africa.game.native.single.Game.determinize`), seeded from one draw of
        ``probability_sampler`` (a callable giving a float in [0, 1)).

        ``player_id``'s information state (and observation, and legal actions when it is to move) is
        the same in the copy; the opponent's record restarts at its observation there.
        """
        p = as_int(player_id, "player_id", lo=0, hi=1)
        seed = int(float(probability_sampler()) * 2.0**53)
        new = self.clone()
        core = new.core
        core.game.determinize(p, seed)
        other = 1 - p
        core.last[other] = _digest(core.game.observation(other))
        core.records[other] = "resampled " + core.last[other]
        return new

    def information_record(self, player: int) -> str:
        """Player ``player``'s record (the information state string)."""
        return f"p{player}: " + self.core.records[player]

    def __str__(self):
        g = self.core.game
        full = json.dumps([g.s.to_dict(), g.src.to_dict()], sort_keys=True)
        return (f"turn {g.s.turn} {g.stage} player {g.current_player} decisions {self.core.decisions} "
                f"state {hashlib.sha256(full.encode()).hexdigest()[:32]}")


class _Observer:
    """OpenSpiel's ``PyObserver``: observations (tensor and digest string) or information states (the
    record as a string; the observation and the player's action counts as a tensor)."""

    def __init__(self, size: int, n_actions: int, recall: bool):
        self.recall, self.size = recall, size
        self.tensor = np.zeros(size + (n_actions if recall else 0), np.float32)
        self.dict = {"observation": self.tensor[:size]}
        if recall:
            self.dict["action_counts"] = self.tensor[size:]

    def set_from(self, state, player):
        self.tensor[:self.size] = state.core.game.observation(player)
        if self.recall:
            self.tensor[self.size:] = state.core.counts[player]

    def string_from(self, state, player):
        if self.recall:
            return state.information_record(player)
        return f"p{player}: " + _digest(state.core.game.observation(player))


class OpenSpielISMCTSAgent:
    """OpenSpiel's own ``ISMCTSBot`` as an agent of this package: ``act(game) -> int`` (the league's
    ``"openspiel-ismcts"``).

    Each decision runs the bot, unchanged, on the bridge state of ``game`` (a copy): single-observer
    ISMCTS keyed by information-state strings, UCT, one random rollout to the end of the game per
    simulation (``RandomRolloutEvaluator``), every legal action considered, the most visited action
    played. Worlds are drawn by :meth:`AtomicAfricaState.resample_from_infostate` from the agent's
    own stream, so a game between seeded agents is reproducible.

    Parameters
    ----------
    seed : int
        The agent's streams (the bot's ``RandomState`` and the resampling draws) come from
        ``SeedSequence(seed)`` (``seed >= 0``).
    simulations : int
        Simulations per decision (``>= 1``), as the native ``"ismcts"`` agent's.
    exploration : float
        The native agent's UCT constant (``>= 0``) for rewards in [0, 1]; the bot's ``uct_c`` is twice
        it, as OpenSpiel's returns span [-1, 1].

    Raises
    ------
    TypeError, ValueError
        On an argument outside those values.
    """

    name = "openspiel-ismcts"

    def __init__(self, seed: int = 0, simulations: int = 200, exploration: float = 0.7):
        self.simulations = as_int(simulations, "simulations", lo=1)
        self.exploration = as_float(exploration, "exploration", lo=0.0)
        bot_seed, draw_seed = seed_sequence(as_int(seed, "seed", lo=0)).spawn(2)
        # OpenSpiel's bots take a legacy RandomState: seeded here, never the global one
        self._random_state = np.random.RandomState(np.random.MT19937(bot_seed))
        self._draws = np.random.Generator(np.random.PCG64(draw_seed))
        self._bots = {}     # per spec: (bridge game, bot)

    def _bot(self, spec: GameSpec):
        got = self._bots.get(spec)
        if got is None:
            from open_spiel.python.algorithms import ismcts, mcts
            bridge = AtomicAfricaGame(spec=spec)
            bot = ismcts.ISMCTSBot(bridge, mcts.RandomRolloutEvaluator(1, self._random_state),
                                   2.0 * self.exploration, self.simulations, random_state=self._random_state)
            bot.set_resampler(lambda state, player: state.resample_from_infostate(player, self._draws.random))
            got = self._bots[spec] = (bridge, bot)
        return got

    def act(self, game) -> int:
        """The bot's action for the player to move in ``game`` (an :class:`~atomic_africa.game.Game`)."""
        bridge, bot = self._bot(game.spec)
        return int(bot.step(bridge.new_initial_state(game)))


def _unpickle_game(params, spec, rng_state):
    game = AtomicAfricaGame(params, spec)
    game._rng.bit_generator.state = rng_state
    return game


def load_game(scenario: str = "", *, rules: str = "", seed: int = 0,
              max_game_length: int = DEFAULT_MAX_GAME_LENGTH):
    """``pyspiel.load_game("atomic_africa", {...})`` with these parameters (see :class:`AtomicAfricaGame`)."""
    return pyspiel.load_game(SHORT_NAME, {"scenario": scenario, "rules": rules, "seed": seed,
                                          "max_game_length": max_game_length})


def register() -> None:
    """Register the game with ``pyspiel`` (done on import; a second call does nothing)."""
    if SHORT_NAME not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, AtomicAfricaGame)


register()
