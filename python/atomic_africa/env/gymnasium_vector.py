"""Gymnasium vector environment over the native batched engine :class:`~atomic_africa.game.VectorGame`.

The batched twin of :class:`~atomic_africa.env.gymnasium_env.AtomicAfricaEnv`: ``num_envs`` games,
in each the learner plays side ``player`` against a built-in opponent whose decisions are made
inside :meth:`~AtomicAfricaVectorEnv.reset` / :meth:`~AtomicAfricaVectorEnv.step` until it is the
learner's turn again in every game. Per game the spaces, the observation (``observation(player)``,
float32, in the learner's ``view``: ``"relative"`` by default, or ``"absolute"``; actions and masks
in the same view, :class:`~atomic_africa.game.side_view.SideView`) and the reward (0 until the game
ends, then +1 / -1 / 0 for a win / loss / draw of the learner) are those of the single-agent
environment.

- Opponent: a built-in agent name (``"random"``, ``"heuristic"``, ``"greedy"``, ``"doctrine"``,
  ``"ismcts"``, the last with the ``search`` parameters) is played natively: one engine call
  (:meth:`VectorGame.opponent_turns`) plays all its decisions in every game until the learner is to
  move (its choices equal the Python agent's; the random and search agents' streams restart each game
  as ``RandomAgent(VectorGame.agent_seed(game_seed, opponent_side))``'s, as in the single-agent env).
  A callable ``opponent(observations, action_masks, envs) -> actions`` is a batched policy (e.g. a
  frozen network), called once per round of opponent decisions with the rows of the games where the
  opponent is to move only: ``envs`` (int64, (k,)) are those games' indices, ``observations``
  (float32, (k, obs_size)) and ``action_masks`` (bool, (k, num_actions)) their rows (seen by the
  opponent, in the opponent's own ``view`` of its side: with ``"relative"`` it sees the table from
  its own deployment edge and answers in that frame, so one network can play either side), and it
  returns k legal actions, one per row.
- Autoreset: :attr:`gymnasium.vector.AutoresetMode.SAME_STEP` (``metadata["autoreset_mode"]``). A
  game that ends during a step is replaced by the env's next game in that same step: the returned
  observation is the new game's first learner observation, and, as for Gymnasium's own vector envs,
  ``info["final_obs"]`` (object array, the finished game's learner observation at the envs that
  ended, ``None`` elsewhere; mask ``info["_final_obs"]``) and ``info["final_info"]`` (``winner``:
  0/1, -1 for a draw; the learner's ``player``; ``game_seed`` of the finished game with
  ``info_game_seed``; each with its ``_`` mask) describe the end.
- Action masks: ``info["action_mask"]`` (num_envs, num_actions) bool and
  :meth:`~AtomicAfricaVectorEnv.action_masks` (the convention of sb3-contrib's ``MaskablePPO``).
  Every info key ``k`` comes with the bool mask ``info["_k"]``, as Gymnasium's
  :class:`~gymnasium.vector.SyncVectorEnv` builds them.
- Seeds: env ``i``'s game ``k`` after ``reset(seed=s)`` is
  ``Game(scenario, VectorGame.episode_seed(s, i, k))`` (``info["game_index"]`` is ``k``; with
  ``info_game_seed=True``, ``info["game_seed"]`` is the game's seed, so any game can be replayed
  alone); ``reset()`` starts every env's next game. As in
  :class:`VectorGame`, a game over before its first decision is skipped (its ``k`` is not played).
  ``threads=k`` steps the games on ``k`` threads with the same results for every ``k``.
- Options (all off by default, as in the single-agent env): ``player="random"`` (env ``i``'s learner
  side drawn for each game from its seed, ``VectorGame.learner_side(game_seed)``: the single env's
  side for the same game; ``info["player"]`` (int8, per env) is the current game's side,
  ``info["final_info"]["player"]`` the finished game's); ``shaping=`` (potential-based reward shaping,
  :mod:`atomic_africa.env.shaping`, computed for all envs at once from the native state); and
  ``skip_forced=True`` (learner decisions with a single legal action played by the env in rounds
  over all envs, ``info["skipped"]`` (int64, per env) counting them); ``observation="compact"``
  (only the features not constant for the scenario); and ``scenario=`` a list of scenarios or a
  :class:`~atomic_africa.game.scenarios.ScenarioSampler` (each game's battle drawn from its seed,
  in the sampler's padded layout); ``info_game_seed=True`` (``info["game_seed"]`` and
  ``info["final_info"]["game_seed"]``: the seeds of the current and finished games).
- The game seed is hidden information: with the scenario it replays every draw, so it tells the
  opponent's hand and both decks' order (``docs/guide/information.md``); the info holds it only with
  ``info_game_seed=True``. ``game_index`` with the seed of the last seeded ``reset`` gives it too
  (:meth:`VectorGame.episode_seed`): keep that seed from a learner that must not know it.
- Cost: per decision about the raw engine's (``benchmarks/bench_adapters.py``): observations and
  masks are mapped in place (not at all for player 0 or the absolute view), and the engine checks
  the actions (every one before any game changes).
- An illegal learner action raises :class:`~atomic_africa.game.IllegalActionError` naming the env and
  the action, and changes nothing (a batch cannot end one game early and keep the others).
"""
from __future__ import annotations

import numbers

from .._optional import require

require("gymnasium", "gym", "AtomicAfricaVectorEnv")  # before the imports below: one line naming the extra

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from .._seeding import seed_sequence
from ._common import check_flag, check_player, observation_box, observation_columns, sampler_of
from ..agents.native import agent_params
from ..agents.search import search_overrides
from ..game import IllegalActionError
from ..game.actions import legal_ids_text
from ..game.native.agent_args import AGENT_KINDS
from ..game.side_view import SideView
from ..game.native.mixed import MixedVectorGame
from ..game.native.vector import VectorGame
from .shaping import potentials, shaping_config, start_figures

__all__ = ["AtomicAfricaVectorEnv"]


def _single_legal(masks):
    """(first legal action, True where it is the only one) per row of ``masks`` (rows with a legal
    action). Two forward argmax passes, the first action hidden for the second (and put back): a
    fifth of the time of counting over the ~1,300 actions or of a reversed argmax."""
    rows = np.arange(masks.shape[0])
    first = masks.argmax(axis=1)
    masks[rows, first] = False
    only = ~masks[rows, masks.argmax(axis=1)]
    masks[rows, first] = True
    return first, only


class _StepOutcome:
    """What one reset/step gathers over its rounds, per env: the learner's reward, its games that
    ended (final observation, winner, the learner's side) and the decisions skipped."""

    __slots__ = ("n", "reward", "ended", "_final_obs", "_winners", "_final_players", "_skipped")

    def __init__(self, n: int):
        self.n = n
        self.reward = np.zeros(n, dtype=np.float64)
        self.ended = np.zeros(n, dtype=bool)
        self._final_obs = self._winners = self._final_players = None     # made at the first end
        self._skipped = None        # made when first read (skip_forced)

    @property
    def skipped(self):
        if self._skipped is None:
            self._skipped = np.zeros(self.n, dtype=np.int64)
        return self._skipped

    @skipped.setter
    def skipped(self, value):
        self._skipped = value

    @property
    def final_obs(self):
        if self._final_obs is None:
            self._final_obs = np.empty(self.n, dtype=object)     # all None
        return self._final_obs

    @property
    def winners(self):
        """int8: the finished games' winners (0, 1, -1 for a draw), 0 where no game ended."""
        if self._winners is None:
            self._winners = np.zeros(self.n, dtype=np.int8)
        return self._winners

    @property
    def final_players(self):
        if self._final_players is None:
            self._final_players = np.zeros(self.n, dtype=np.int8)
        return self._final_players


class AtomicAfricaVectorEnv(VectorEnv):
    """``num_envs`` games of the learner (``player``) against ``opponent`` (see the module notes).

    Parameters
    ----------
    num_envs : int
        Number of games stepped together (>= 1).
    scenario : Scenario, path, dict, None, list or ScenarioSampler
        The scenario (the packaged default if ``None``); a list or a
        :class:`~atomic_africa.game.scenarios.ScenarioSampler`: each game's battle drawn from its
        seed, observations and action ids in the sampler's padded layout, played by a
        :class:`~atomic_africa.game.native.mixed.MixedVectorGame` (one native engine of every map).
    player : {0, 1, "random"}
        The learner's side in every game; ``"random"``: drawn for each game from its seed (see the
        module notes; ``players`` holds the current sides).
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    opponent : str or callable
        A built-in agent name (``"random"``, ``"heuristic"``, ``"greedy"``, ``"doctrine"``, ``"ismcts"``,
        played natively with the Python agents' default parameters, ``search`` for ``"ismcts"``), or a
        callable
        ``opponent(observations, action_masks, envs) -> actions`` given only the games where the
        opponent is to move: arrays of shapes (k, obs_size), (k, num_actions), (k,), returning (k,)
        integer actions.
    threads : int
        Threads of the native engine (>= 1; results are the same for every value).
    render_mode : None
        No rendering (the text picture is per game: replay the game's seed with a ``Game``).
    view : {"relative", "absolute"}
        The frame of observations, masks and actions of the learner and of a callable opponent.
    shaping : None, True, dict or RewardShaping
        Potential-based reward shaping, as in the single-agent env (the same rewards for the same game).
    skip_forced : bool
        Play the learner's single-legal-action decisions in the env, as in the single-agent env.
    observation : {"full", "compact"}
        ``"compact"``: only the features not constant for the scenario, for the learner and a
        callable opponent alike (as in the single-agent env).
    info_game_seed : bool
        ``True``: the info holds ``game_seed`` (uint64, per env: the current games' seeds) and
        ``final_info["game_seed"]`` (the finished games'). Off by default: a seed replays its game's
        draws, the opponent's hidden cards included.
    search : dict, optional
        Search parameters of an ``"ismcts"`` opponent (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``, as :class:`~atomic_africa.agents.ISMCTSAgent` takes them; it
        plays as the single-agent env's ``ISMCTSAgent`` with these parameters); its defaults otherwise.

    Attributes
    ----------
    vector_game : VectorGame
        The engine holding the games (its events, clones, ...).
    players : ndarray of int8, shape (num_envs,)
        The learner's side in each env's current game (None before :meth:`reset`).
    single_observation_space, single_action_space : gymnasium.Space
        One game's spaces (those of :class:`~atomic_africa.env.gymnasium_env.AtomicAfricaEnv`).
    observation_space, action_space : gymnasium.Space
        Batched: ``Box`` of shape (num_envs, obs_size) and ``MultiDiscrete([num_actions] * num_envs)``.

    Raises
    ------
    ValueError
        On an invalid ``num_envs``, ``player``, ``threads``, ``render_mode``, ``view``, ``shaping``,
        opponent name or search parameter.
    TypeError
        On a non-integer ``num_envs``/``threads``, an opponent neither an agent name nor callable, a
        non-bool ``skip_forced`` or ``info_game_seed`` or a ``shaping`` of another type.
    """

    metadata = {"render_modes": [], "autoreset_mode": AutoresetMode.SAME_STEP}

    def __init__(self, num_envs: int = 1, scenario=None, player: int = 0, rules=None,
                 opponent="random", threads: int = 1, render_mode=None, view: str = "relative",
                 shaping=None, skip_forced: bool = False, observation: str = "full", info_game_seed: bool = False,
                 search=None):
        if isinstance(num_envs, (bool, np.bool_)) or not isinstance(num_envs, numbers.Integral):
            raise TypeError(f"num_envs: expected a positive int, got {type(num_envs).__name__} {num_envs!r}")
        if num_envs < 1:
            raise ValueError(f"num_envs: {num_envs} is out of range; allowed >= 1")
        player = check_player(player)
        if not isinstance(skip_forced, (bool, np.bool_)):
            raise TypeError(f"skip_forced: expected a bool, got {type(skip_forced).__name__} {skip_forced!r}")
        info_game_seed = check_flag(info_game_seed, "info_game_seed")
        shaping = shaping_config(shaping)
        overrides = search_overrides(search)
        allowed = ", ".join(repr(k) for k in AGENT_KINDS)
        if isinstance(opponent, str):
            if opponent.strip().lower() not in AGENT_KINDS:
                raise ValueError(f"opponent: {opponent!r} is not a built-in agent; allowed {allowed} or a "
                                 f"callable (observations, action_masks, envs) -> actions")
            opponent = opponent.strip().lower()
        elif not callable(opponent):
            raise TypeError(f"opponent: expected an agent name ({allowed}) or a callable (observations, "
                            f"action_masks, envs) -> actions, got {type(opponent).__name__}")
        if render_mode is not None:
            raise ValueError(f"render_mode: {render_mode!r} is not supported; allowed None")
        self.num_envs, self.opponent = int(num_envs), opponent
        self.info_game_seed = info_game_seed
        self.player = player        # 0, 1 or "random"
        self.render_mode = None
        # The engine's game seed until the first seeded reset comes from fresh entropy, as the
        # single-agent env's does.
        entropy = int(seed_sequence(None).generate_state(1, np.uint64)[0])
        sampler = sampler_of(scenario, rules)
        self.vector_game = (VectorGame(scenario, self.num_envs, entropy, rules=rules, threads=threads)
                            if sampler is None else MixedVectorGame(sampler, self.num_envs, entropy, threads=threads))
        self._mixed = sampler is not None
        vg = self.vector_game
        vg.agent_params = agent_params(overrides)
        # the native opponent's code in every game, converted once
        self._opponent_kinds = (np.full(self.num_envs, AGENT_KINDS[opponent], dtype=np.int8)
                                if isinstance(opponent, str) else None)
        self.view = SideView(vg.spec, view)
        self._columns = observation_columns(vg.spec, observation)
        self.observation = observation
        self.single_observation_space = observation_box(vg.spec, self._columns)
        self.single_action_space = spaces.Discrete(vg.num_actions)
        self.observation_space = batch_space(self.single_observation_space, self.num_envs)
        self.action_space = batch_space(self.single_action_space, self.num_envs)
        self._ones = np.ones(self.num_envs, dtype=bool)
        self._masks = None      # learner's masks after the last reset/step; None before reset
        self._mask_out = None   # an adapter's buffer the engine writes the masks into (None: new arrays)
        self._seeds = None      # game seeds of the current games
        # options: opponent_turns' learner argument, the sides of the current games, shaping, skipping
        self._learner_arg = "random" if player == "random" else self.player
        self.players = None
        self.shaping, self.skip_forced = shaping, bool(skip_forced)
        self._start_figures = (start_figures(vg.spec) if shaping is not None and sampler is None else None)
        self._rows = np.arange(self.num_envs)
        self._phi = None        # with shaping: Phi of every game's current state (set by reset)
        # the learner's frame is the engine's (absolute view, or player 0's relative view): no mapping
        self._engine_frame = view == "absolute" or self.player == 0

    # -- properties -----------------------------------------------------------------------------
    @property
    def threads(self) -> int:
        """Threads of the native engine (settable; results do not depend on it)."""
        return self.vector_game.threads

    @threads.setter
    def threads(self, k: int) -> None:
        self.vector_game.threads = k

    @property
    def scenario(self):
        """The scenario of every game."""
        return self.vector_game.scenario

    @property
    def rules(self):
        """The rules of every game."""
        return self.vector_game.rules

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions in every game.

        Returns
        -------
        ndarray of bool, shape (num_envs, num_actions)
            All False before :meth:`reset`.
        """
        if self._masks is None:
            return np.zeros((self.num_envs, self.vector_game.num_actions), dtype=bool)
        return self._masks.copy()

    # -- opponent -------------------------------------------------------------------------------
    def _callable_turns(self, need: np.ndarray):
        """The callable opponent decides in the games ``need`` (those where it is to move), one
        engine step; returns the step's outputs."""
        vg, view = self.vector_game, self.view
        envs = np.flatnonzero(need)
        side = vg.current_player[envs]
        acts = np.asarray(self.opponent(self._select(view.observation(vg.observations(envs=envs), side)),
                                        view.action_mask(vg.action_masks(envs=envs), side), envs))
        if acts.shape != envs.shape or acts.dtype.kind not in "iu":
            raise ValueError(f"opponent: returned {acts.dtype} array of shape {acts.shape}; expected "
                             f"integer actions of shape {envs.shape} (one per game it was given)")
        full = np.zeros(self.num_envs, dtype=np.int64)
        ok = (acts >= 0) & (acts < vg.num_actions)
        # out-of-range ids go to the engine unmapped, which rejects them naming the allowed range
        full[envs] = np.where(ok, view.action_to_engine(np.where(ok, acts, 0), side), acts)
        return vg.step(full, active=need, observe=False)

    def _advance(self, out, info, strict_end: bool, active=None, observe: bool = True):
        """After the learner's step (or a reset): play the opponent until the learner is to move in
        every (active) game, adding its rewards and ends to ``out``; ``strict_end``: no game may end
        (a reset's opening moves). Returns the learner's observations (None with ``observe=False``)."""
        vg = self.vector_game
        while True:
            sides = self.players       # the sides of the games being played (a new game may change it)
            if isinstance(self.opponent, str):
                try:
                    obs, r, t, _, info = vg.opponent_turns(self._opponent_kinds, self._learner_arg, active,
                                                           observe=observe)
                except RuntimeError as e:   # a second end in one env: the learner never decided
                    raise RuntimeError(f"{e} (learner: player {self.player})") from None
            else:
                need = np.asarray(info["current_player"]) != sides
                if not need.any():
                    return vg.observations() if observe else None   # the learner is to move everywhere
                _, r, t, _, info = self._callable_turns(need)
            self._add_rewards(out, r, sides)
            self._end(out, t, info, sides, strict_end)
            if isinstance(self.opponent, str):
                return obs

    def _learner_step(self, out, actions, active, strict_end: bool, observe: bool = True):
        """The learner's ``actions`` (engine ids) in the games ``active`` (None: all), then :meth:`_advance`."""
        _, rew, term, _, info = self.vector_game.step(actions, active=active, observe=False)
        return self._after_learner(out, rew, term, info, active, strict_end, observe)

    def _after_learner(self, out, rew, term, info, active, strict_end: bool, observe: bool = True):
        sides = self.players
        self._add_rewards(out, rew, sides)
        self._end(out, term, info, sides, strict_end)
        return self._advance(out, info, strict_end, active, observe)

    def _add_rewards(self, out, rew, sides):
        """Add each game's learner reward of an engine call's (num_envs, 2) rewards to ``out``."""
        if self.player == "random":
            out.reward += rew[self._rows, sides]
        else:
            out.reward += rew[:, self.player]

    def _end(self, out, term, info, sides, strict_end: bool):
        """The games ``term`` ended (their learner was ``sides``): keep their ends in ``out``; with
        ``player="random"`` their new games' sides replace theirs in ``players``."""
        # np.count_nonzero: a C call, where ndarray.any() goes through numpy's Python wrapper (twice
        # a step)
        if not np.count_nonzero(term):
            return
        twice = term if strict_end else term & out.ended
        if np.count_nonzero(twice):
            # the learner had no decision in a whole game: its episode would be empty
            raise RuntimeError(self._no_decision_message(twice, sides))
        out.ended |= term
        fo = info["final_observation"]     # the engine's fresh (2, obs_size) arrays
        idx = np.flatnonzero(term)
        rows = idx.tolist()
        learners = sides[idx].tolist() if self.player == "random" else [self.player] * len(rows)
        final_obs = out.final_obs
        if self._engine_frame:          # nothing to map: each learner's row as it is
            for i, p in zip(rows, learners):
                final_obs[i] = fo[i][p] if self._columns is None else fo[i][p][self._columns]
        else:                           # one mapping for all of them
            finals = np.stack([fo[i][p] for i, p in zip(rows, learners)])
            finals = self._select(self.view.observation(finals, sides[idx], copy=False))
            for j, i in enumerate(rows):
                final_obs[i] = finals[j]
        np.copyto(out.winners, info["winner"], where=term)
        np.copyto(out.final_players, sides, where=term)
        if self.player == "random":
            self.players = np.where(term, self.vector_game.learner_sides, sides)

    def _no_decision_message(self, envs, sides) -> str:
        idx = np.flatnonzero(envs).tolist()
        who = ", ".join(f"player {int(sides[i])}" for i in idx) if self.player == "random" else f"player {self.player}"
        return (f"env(s) {idx}: a game ended before {who} had a decision; the learner "
                f"must decide at least once per game")

    # -- options: shaping, skipping forced decisions (all envs at once) -------------------------
    def _current_sides(self) -> np.ndarray:
        if self.player == "random":
            return self.vector_game.learner_sides
        return np.full(self.num_envs, self.player, dtype=np.int8)

    def _potentials(self):
        """Phi of every game's current state for its learner (None when shaping is off)."""
        if self.shaping is None:
            return None
        start = self.vector_game.start_figures() if self._mixed else self._start_figures
        return potentials(self.vector_game.side_totals(), start, self.players, self.shaping)

    def _add_shaping(self, out, phi_before, acted, ended_before):
        """Add ``gamma * Phi(now) - phi_before`` (Phi = 0 for a game that ended since) to the games
        ``acted`` whose episode had not ended before (a new game's skipped opening decisions come
        before its first observation, as in the single env's reset). ``self._phi`` becomes Phi(now):
        the next round's ``phi_before``."""
        if self.shaping is None:
            return
        phi = self._phi = self._potentials()
        now_ended = out.ended & ~ended_before
        term = np.where(now_ended, 0.0, self.shaping.gamma * phi) - phi_before
        out.reward += np.where(acted & ~ended_before, term, 0.0)

    def _skip_forced_rounds(self, out, obs, strict_end: bool):
        """With ``skip_forced``: rounds over all envs in which every learner decision with a single
        legal action is played (one batched step), until none is left. Returns (obs, masks)."""
        vg = self.vector_game
        masks = self._fresh_masks()
        if not self.skip_forced:
            return obs, masks
        first, forced = _single_legal(masks)
        played = np.zeros_like(forced)
        while forced.any():
            phi = self._phi
            ended_before = out.ended.copy()
            self._learner_step(out, first, forced, strict_end, observe=False)
            out.skipped += forced
            self._add_shaping(out, phi, forced, ended_before)
            played |= forced
            # only the envs just played can have a forced decision now: their masks alone are new
            envs = np.flatnonzero(forced)
            masks[envs] = vg.action_masks(envs=envs)
            first[envs], forced[envs] = _single_legal(masks[envs])
        envs = np.flatnonzero(played)
        if envs.size:      # the other envs' observations are unchanged
            obs[envs] = vg.observations(envs=envs)
        return obs, masks

    def _fresh_masks(self) -> np.ndarray:
        """The engine's masks of every game: a new array, or written into ``_mask_out`` (a buffer
        an adapter keeps from step to step, e.g. the SB3 adapter's: overwritten at every step)."""
        out = self._mask_out
        if out is None:
            return self.vector_game.action_masks()
        if self._mixed:
            np.copyto(out, self.vector_game.action_masks())
            return out
        return self.vector_game.action_masks(out=out)

    def _keep(self, masks) -> None:
        """After a reset or step: the learner's masks (the engine's fresh ones, mapped in place:
        shared with info, copied by action_masks()) and the current games' seeds."""
        self._masks = masks if self._engine_frame else self.view.action_mask(masks, self.players, copy=False)
        self._seeds = self.vector_game.episode_seeds

    def _info(self, out=None, finished_seeds=None) -> dict:
        vg = self.vector_game
        ones = self._ones
        info = {"action_mask": self._masks, "_action_mask": ones.copy()}
        if self.info_game_seed:
            info["game_seed"], info["_game_seed"] = self._seeds.copy(), ones.copy()
        info.update({"game_index": vg.episodes, "_game_index": ones.copy(),
                     "player": self.players.copy(), "_player": ones.copy()})
        if self.skip_forced:
            info["skipped"], info["_skipped"] = out.skipped, ones.copy()
        ended = None if out is None else out.ended
        if ended is not None and np.count_nonzero(ended):
            info["final_obs"], info["_final_obs"] = out.final_obs, ended.copy()
            final = {"winner": out.winners, "_winner": ended.copy()}     # 0 where no game ended
            if self.info_game_seed:
                zero_seeds = np.zeros(self.num_envs, dtype=np.uint64)
                zero_seeds[ended] = finished_seeds[ended]
                final["game_seed"], final["_game_seed"] = zero_seeds, ended.copy()
            final["player"], final["_player"] = out.final_players, ended.copy()
            info["final_info"] = final
            info["_final_info"] = ended.copy()
        return info

    def _observed(self, obs):
        """The engine's fresh observations of every learner, in the learner's view (in place)."""
        obs = obs if self._engine_frame else self.view.observation(obs, self.players, copy=False)
        return self._select(obs)

    def _select(self, obs):
        """``observation="compact"``: the columns handed out (a copy); else ``obs`` itself."""
        return obs if self._columns is None else obs[:, self._columns]

    # -- Gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Start a game in every env; the opponent moves until it is the learner's turn in each.

        Parameters
        ----------
        seed : int, optional
            With a seed, env ``i`` plays ``Game(scenario, VectorGame.episode_seed(seed, i, 0))`` and
            each game's opponent stream comes from its game seed; without, every env starts its next
            game.
        options : dict, optional
            Unused; a partial reset (``"reset_mask"``) is not supported.

        Returns
        -------
        (ndarray of float32, dict)
            Observations (num_envs, obs_size) and info (``action_mask``, ``game_seed`` with
            ``info_game_seed``, ``game_index`` (k: the env's game k since the last seeded reset;
            games over before any decision are skipped), ``player``, ``skipped`` with ``skip_forced``,
            with their ``_`` masks).

        Raises
        ------
        ValueError
            On ``options["reset_mask"]`` or an invalid seed.
        """
        if options and "reset_mask" in options:
            raise ValueError("options: 'reset_mask' (partial reset) is not supported; games are "
                             "replaced automatically when they end (same-step autoreset)")
        super().reset(seed=seed)
        _, info = self.vector_game.reset(seed=seed)
        self.players = self._current_sides()
        out = _StepOutcome(self.num_envs)
        obs = self._advance(out, info, strict_end=True)
        self._phi = self._potentials()
        obs, masks = self._skip_forced_rounds(out, obs, strict_end=True)
        self._keep(masks)
        return self._observed(obs), self._info(out)

    def step(self, actions):
        """Apply the learner's action in every game, then the opponent's until the learner decides
        again in each (games that end are replaced in the same step).

        Parameters
        ----------
        actions : array-like of int, shape (num_envs,)
            One legal action per game.

        Returns
        -------
        (ndarray of float32, ndarray of float64, ndarray of bool, ndarray of bool, dict)
            Observations (num_envs, obs_size), rewards (+1 / -1 / 0 at the end of a game, else 0;
            plus the shaping terms with ``shaping``), terminated, truncated (always False) and info
            (see the module notes).

        Raises
        ------
        RuntimeError
            Before :meth:`reset`.
        ValueError, TypeError
            If ``actions`` has the wrong shape or is not integer.
        IllegalActionError
            If an action is illegal in its game (nothing changes in any game).
        """
        obs, out, finished_seeds = self._learner_turn(actions)
        truncated = np.zeros(self.num_envs, dtype=bool)
        return obs, out.reward, out.ended, truncated, self._info(out, finished_seeds)

    def _learner_turn(self, actions, waiting=None):
        """The learner's ``actions`` in every game but ``waiting`` (bool (num_envs,), or None; their
        actions are ignored and those games do not change), then the opponent's turns, then (with
        ``skip_forced``) the learner's forced decisions. Returns the learner's observations in its
        view, the step's :class:`_StepOutcome` and the seeds of the games played at the start; the
        masks and seeds are kept (:meth:`_keep`)."""
        if self._masks is None:
            raise RuntimeError("step() called before reset()")
        a = self._action_array(actions)
        if waiting is not None and not self._engine_frame:
            a = np.where(waiting, 0, a)     # any id in range to map: not played
        # ids to map must be in range (named in the learner's view); the engine checks the others
        if not self._engine_frame and (a.min() < 0 or a.max() >= self.vector_game.num_actions):
            raise self._illegal(a, waiting)
        finished_seeds = self._seeds
        out = _StepOutcome(self.num_envs)
        phi = self._phi
        engine_actions = a if self._engine_frame else self.view.action_to_engine(a, self.players)
        try:
            # the engine checks every (active) action before it changes any game
            _, rew, term, _, info = self.vector_game.step(
                engine_actions, active=None if waiting is None else ~waiting, observe=False)
        except IllegalActionError:
            raise self._illegal(a, waiting) from None
        # the opponent has nothing to play in the waiting games: their learner is to move
        obs = self._after_learner(out, rew, term, info, None, strict_end=False)
        if self.shaping is not None:
            self._add_shaping(out, phi, self._ones if waiting is None else ~waiting,
                              np.zeros(self.num_envs, dtype=bool))
        obs, masks = self._skip_forced_rounds(out, obs, strict_end=False)
        self._keep(masks)
        return self._observed(obs), out, finished_seeds

    def _action_array(self, actions) -> np.ndarray:
        """``actions`` as a C-contiguous int64 array of shape (num_envs,) (itself if it is one)."""
        a = actions
        if not (type(a) is np.ndarray and a.dtype == np.int64 and a.shape == self._rows.shape
                and a.flags.c_contiguous):
            a = np.asarray(actions)
            if a.shape != (self.num_envs,):
                raise ValueError(f"actions: expected shape ({self.num_envs},), got {a.shape}")
            if a.dtype.kind not in "iu":
                raise TypeError(f"actions: expected integer action ids, got dtype {a.dtype}")
            a = np.ascontiguousarray(a, dtype=np.int64)
        return a

    def _illegal(self, a: np.ndarray, ignore=None) -> IllegalActionError:
        """The error for the first out-of-range or illegal action of ``a`` (checked against the
        learner's masks), named in the learner's view; envs where ``ignore`` is True are skipped."""
        n = self.vector_game.num_actions
        inside = (a >= 0) & (a < n)
        legal = inside.copy()
        legal[inside] = self._masks[np.flatnonzero(inside), a[inside]]
        if ignore is not None:
            legal |= ignore
        i = int(np.flatnonzero(~legal)[0])
        if not inside[i]:
            return IllegalActionError(f"actions[{i}]: action {a[i]} is out of range in env {i}; "
                                      f"allowed 0..{n - 1}")
        shown = legal_ids_text(self._masks[i])
        return IllegalActionError(f"actions[{i}]: action {a[i]} is not legal in env {i} "
                                  f"({self.view.view} view of player {self.players[i]}); legal: {shown}")

    def close_extras(self, **kwargs):
        """Nothing to release."""
        pass
