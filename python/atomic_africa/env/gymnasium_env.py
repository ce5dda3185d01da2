"""Single-agent Gymnasium environment: the learner plays one side against a built-in opponent.

Observation: ``game.observation(learner)`` (float32 Box with per-feature bounds, documented in
``docs/observation.md``) in the learner's ``view``: ``"relative"`` (default: player 1's table turned
by 180 degrees so both sides see their own deployment at the bottom, action ids mapped to match;
:class:`~atomic_africa.game.side_view.SideView`) or ``"absolute"`` (the engine's frame). Action:
``Discrete(game.num_actions)`` in the same view; the legal ones are given as ``info["action_mask"]``
(bool) and by :meth:`AtomicAfricaEnv.action_masks` (the convention of sb3-contrib's
``MaskablePPO``). The opponent's decisions are made inside ``reset``/``step`` until it is the
learner's turn again. Reward: 0 until the game ends, then +1 / -1
/ 0 for a win / loss / draw of the learner.

An illegal action does not raise by default (``illegal_action="lose"``): the episode ends
(``terminated``) with ``illegal_reward`` and ``info["illegal_action"] = True``, the game unchanged;
``illegal_action="raise"`` raises :class:`~atomic_africa.game.IllegalActionError` instead.

Options (all off by default; module :mod:`.shaping` and the class notes): ``player="random"`` (the
learner's side drawn per game from its seed), ``shaping=`` (potential-based reward shaping),
``skip_forced=True`` (decisions with a single legal action played by the env),
``info_game_seed=True`` (``info["game_seed"]``: the game's seed).

The game's seed is hidden information: with the scenario it replays every draw, so it tells the
opponent's hand and the order of both decks (``docs/guide/information.md``). The info holds it only
when asked for (``info_game_seed=True``: to replay a game, or key logs by it), never by default.

Seeds: ``reset(seed=s)`` plays ``Game(scenario, s)`` against the named opponent built with the seed
``VectorGame.agent_seed(s, opponent_side)`` (as the vector env's native opponent, so both play the
same games); ``reset()`` draws the next game seed from ``self.np_random`` (seeded by the last seeded
reset).
"""
from __future__ import annotations

from .._optional import require

require("gymnasium", "gym", "AtomicAfricaEnv")  # before the imports below: one line naming the extra

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from ..game import Game, IllegalActionError
from ..game.native.agent_args import agent_seed, learner_side
from ..game.side_view import SideView
from ._common import (ENV_ID, Battles, action_id, check_flag, check_player, check_reward, observation_box,
                      observation_columns, text_render)
from ..agents import make_agent
from ..agents.search import check_search
from .shaping import game_totals, potentials, shaping_config, start_figures

__all__ = ["AtomicAfricaEnv", "ENV_ID"]



class AtomicAfricaEnv(gym.Env):
    """The learner (``player``) against ``opponent`` (see the module notes).

    Parameters
    ----------
    scenario : Scenario, path, dict, None, list or ScenarioSampler
        The scenario (the packaged default if ``None``); a list of scenarios or a
        :class:`~atomic_africa.game.scenarios.ScenarioSampler`: a battle drawn per episode from the
        game seed (``sampler.pick(game_seed)``), observations and action ids in the sampler's padded
        layout (fixed slot counts for every battle; ``game_spec`` is the current battle's).
    opponent : str or agent
        A built-in agent name (``random``, ``greedy``, ``doctrine``, ``heuristic``, ``ismcts``) or an
        object with ``act(game) -> int``; a name is rebuilt each episode with a seed from the episode
        seed.
    player : {0, 1, "random"}
        The learner's side; ``"random"``: drawn for each game from its seed,
        ``VectorGame.learner_side(game_seed)`` (as the vector env, so one policy learns both sides);
        ``info["player"]`` and ``player`` give the current game's side.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    illegal_action : {"lose", "raise"}
        On an illegal learner action: end the episode with ``illegal_reward`` (``"lose"``), or raise
        :class:`~atomic_africa.game.IllegalActionError` (``"raise"``).
    illegal_reward : float
        Reward of the step that ends the episode on an illegal action: a finite real number (a
        string, NaN or an infinity raises, naming it).
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns a text picture.
    view : {"relative", "absolute"}
        The frame of the learner's observations, masks and actions (see the module notes).
    shaping : None, True, dict or RewardShaping
        Potential-based reward shaping (:mod:`atomic_africa.env.shaping`): each step's reward gets
        ``gamma * Phi(s') - Phi(s)`` added (``Phi`` = 0 once the game is over, also after an illegal
        action). ``None`` (default): the game's reward only.
    skip_forced : bool
        ``True``: a learner decision with a single legal action is played by the env (the opponent
        moving on as usual) until the learner has a choice or the game ends, in ``reset`` too; a
        step's reward (and shaping terms) include those of its skipped decisions, and
        ``info["skipped"]`` counts them.
    observation : {"full", "compact"}
        ``"compact"``: only the features not constant for the scenario
        (:func:`~atomic_africa.game.observation_spec.compact_indices`); ``"full"``: all of them.
    info_game_seed : bool
        ``True``: every info holds ``game_seed``, the current game's seed. Off by default: the seed
        replays the game's draws, the opponent's hidden cards included (see the module notes).
    search : dict, optional
        Search parameters of an ``"ismcts"`` opponent (some of ``simulations``, ``exploration``,
        ``rollout``, ``rollout_depth``: :class:`~atomic_africa.agents.ISMCTSAgent`'s keyword arguments);
        its defaults otherwise. The search sees only the opponent's information set.

    Raises
    ------
    ValueError
        On an invalid ``player``, ``illegal_action``, ``render_mode``, ``view``, ``shaping``,
        ``observation`` value, opponent name or search parameter.
    TypeError
        If ``opponent`` is neither a name nor an object with ``act``, ``skip_forced`` or
        ``info_game_seed`` is not a bool or ``shaping`` not one of the accepted types.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, scenario=None, opponent="random", player: int = 0, rules=None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0, render_mode=None,
                 view: str = "relative", shaping=None, skip_forced: bool = False, observation: str = "full",
                 info_game_seed: bool = False, search=None):
        player = check_player(player)
        if not isinstance(skip_forced, (bool, np.bool_)):
            raise TypeError(f"skip_forced: expected a bool, got {type(skip_forced).__name__} {skip_forced!r}")
        self.info_game_seed = check_flag(info_game_seed, "info_game_seed")
        shaping = shaping_config(shaping)
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action: {illegal_action!r}; allowed 'lose', 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: {render_mode!r} is not supported; allowed None, 'ansi'")
        self.search = check_search(search)
        if isinstance(opponent, str):
            make_agent(opponent, search=self.search)  # validates the name now
        elif not callable(getattr(opponent, "act", None)):
            raise TypeError(f"opponent: expected an agent name or an object with act(game), "
                            f"got {type(opponent).__name__}")
        self.battles = Battles(scenario, rules)
        self.game_spec = self.battles.spec         # the current episode's (one battle: always the same)
        layout = self.battles.layout
        self.opponent_spec = opponent
        # player="random": the side is drawn in reset; self.player is the current game's side
        self.random_player = player == "random"
        self.player = None if self.random_player else int(player)
        self.shaping, self.skip_forced = shaping, bool(skip_forced)
        self._start_figures = start_figures(self.game_spec) if shaping is not None else None
        self._num_actions = layout.num_actions
        self._phi = 0.0         # Phi of the current state (0 without shaping), kept by reset and step
        self.illegal_action, self.illegal_reward = illegal_action, check_reward(illegal_reward, "illegal_reward")
        self.render_mode = render_mode
        self.view = SideView(layout, view)
        self._columns = observation_columns(layout, observation)
        self.observation = observation
        self.observation_space = observation_box(layout, self._columns)
        self.action_space = spaces.Discrete(layout.num_actions)
        self.game = None
        self._kept_mask = None    # (game, decisions, the mask the last info gave)
        self.opponent = None

    # -- helpers --------------------------------------------------------------------------------
    def action_masks(self) -> np.ndarray:
        """The learner's legal actions as a mask.

        Returns
        -------
        ndarray of bool, shape (num_actions,)
            All False before :meth:`reset` and once the episode is over.
        """
        if self.game is None or self.game.is_over:
            return np.zeros(self._num_actions, dtype=bool)
        return self.view.action_mask(self.battles.mask(self.game.action_mask()), self.player)

    def _learner_mask(self) -> np.ndarray:
        """action_masks() of the state the last info described (kept from it: the same decision), else
        computed now."""
        kept = self._kept_mask
        if kept is not None and kept[0] is self.game and kept[1] == len(self.game.history):
            return kept[2]
        return self.action_masks()

    def _observation(self) -> np.ndarray:
        obs = self.view.observation(self.battles.observation(self.game.observation(self.player)), self.player)
        return obs if self._columns is None else obs[self._columns]

    def _apply(self, a: int) -> None:
        """The learner's action ``a`` (in its view) in the game."""
        if self.battles.sampler is None:
            return self.view.apply(self.game, a, self.player)
        e = self.battles.to_engine(self.view.action_to_engine(a, self.player)) if 0 <= a < self._num_actions else -1
        if e < 0:
            raise IllegalActionError(f"action {a}: not an action of this battle ({self.view.view} view of "
                                     f"player {self.player}); allowed 0..{self._num_actions - 1} where legal")
        self.game.apply(e)

    def _info(self, **extra) -> dict:
        mask = self.action_masks()
        self._kept_mask = (self.game, len(self.game.history), mask.copy())   # the caller may write to its own
        info = {"action_mask": mask, "player": self.player}
        if self.info_game_seed:
            info["game_seed"] = self.game.seed
        if self.game.is_over:
            r = self.game.result
            info["winner"] = -1 if r.winner is None else r.winner
            info["reason"] = r.reason
        info.update(extra)
        return info

    def _opponent_moves(self):
        g = self.game
        while not g.is_over and g.current_player != self.player:
            g.apply(self.opponent.act(g))

    def _reward(self) -> float:
        return float(self.game.returns()[self.player]) if self.game.is_over else 0.0

    # -- options: shaping, skipping forced decisions -------------------------------------------
    def _potential(self) -> float:
        """Phi of the current state for the learner (0 when shaping is off or the game is over)."""
        if self.shaping is None or self.game.is_over:
            return 0.0
        return float(potentials(game_totals(self.game), self._start_figures, self.player, self.shaping))

    def _shaped(self, phi_before: float) -> float:
        """The shaping term ``gamma * Phi(now) - phi_before`` of the transition just played;
        ``self._phi`` becomes Phi(now), the next transition's ``phi_before``."""
        if self.shaping is None:
            return 0.0
        self._phi = self._potential()
        return self.shaping.gamma * self._phi - phi_before

    def _skip_forced_decisions(self, reward: float) -> tuple:
        """With ``skip_forced``: play the learner's single-legal-action decisions (and the opponent's
        turns after them) until it has a choice or the game ends; returns (``reward`` plus theirs,
        decisions played). Added term by term in the vector env's order: the same floats."""
        skipped = 0
        while self.skip_forced and not self.game.is_over:
            legal = self.game.legal_actions()
            if len(legal) != 1:
                break
            phi = self._phi
            self.game.apply(legal[0])
            self._opponent_moves()
            reward += self._reward()
            reward += self._shaped(phi)
            skipped += 1
        return reward, skipped

    def _skip_info(self, skipped: int) -> dict:
        return {"skipped": skipped} if self.skip_forced else {}

    # -- Gymnasium API --------------------------------------------------------------------------
    def reset(self, *, seed=None, options=None):
        """Start an episode; the opponent moves until it is the learner's turn.

        Parameters
        ----------
        seed : int, optional
            Game seed (non-negative); drawn from the environment's generator if omitted.
        options : dict, optional
            Ignored.

        Returns
        -------
        (ndarray of float32, dict)
            The learner's observation and info (``action_mask``, ``player``, ``game_seed`` with
            ``info_game_seed``, ``skipped`` with ``skip_forced``, and ``winner``, ``reason`` if the game
            is already over).
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.game_spec = self.battles.start(game_seed)
        if self.shaping is not None:
            self._start_figures = start_figures(self.game_spec)
        self.game = Game(self.game_spec, game_seed)
        if self.random_player:
            self.player = learner_side(game_seed)
        if isinstance(self.opponent_spec, str):
            self.opponent = make_agent(self.opponent_spec, agent_seed(game_seed, 1 - self.player), search=self.search)
        else:
            self.opponent = self.opponent_spec
        self._opponent_moves()
        self._phi = self._potential()
        _, skipped = self._skip_forced_decisions(0.0)    # before the first observation: nothing to reward
        return self._observation(), self._info(**self._skip_info(skipped))

    def step(self, action):
        """Apply the learner's action, then the opponent's until the learner decides again.

        Parameters
        ----------
        action : int
            Action id (a numpy integer, or an integer array of one element, is taken too).

        Returns
        -------
        (ndarray of float32, float, bool, bool, dict)
            Observation, reward (+1/-1/0 at the end, ``illegal_reward`` for an illegal action; plus
            the shaping terms with ``shaping``), terminated, truncated (always False) and info
            (``action_mask``, ``player``, ``game_seed`` with ``info_game_seed``, ``skipped`` with
            ``skip_forced``, and
            ``winner``, ``reason`` at the end).

        Raises
        ------
        RuntimeError
            Before :meth:`reset` or after the episode has ended.
        TypeError, ValueError
            If ``action`` is not one integer action id (None, a float, an array of several).
        IllegalActionError
            On an illegal action with ``illegal_action="raise"``.
        """
        if self.game is None:
            raise RuntimeError("step() called before reset()")
        if self.game.is_over:
            raise RuntimeError("step() called on a finished episode; call reset()")
        a = action_id(action, self._num_actions)
        if not (0 <= a < self._num_actions and self._learner_mask()[a]):
            if self.illegal_action == "raise":
                self._apply(a)   # raises IllegalActionError with the reason
            reward = self.illegal_reward - self._phi   # the episode ends: Phi(terminal) = 0
            return self._observation(), reward, True, False, self._info(illegal_action=True, **self._skip_info(0))
        phi = self._phi
        self._apply(a)
        self._opponent_moves()
        reward = self._reward()
        reward += self._shaped(phi)
        reward, skipped = self._skip_forced_decisions(reward)
        return self._observation(), reward, self.game.is_over, False, self._info(**self._skip_info(skipped))

    def render(self):
        """The text picture of the game (``render_mode="ansi"``), else ``None``."""
        if self.render_mode is None or self.game is None:
            return None
        return text_render(self.game)

    def close(self):
        """Nothing to release."""
        pass

