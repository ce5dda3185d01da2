"""Single-agent Gymnasium environment: the learner plays one side against a built-in opponent.

Observation: ``game.observation(learner)`` (float32 Box with per-feature bounds, documented in
``docs/observation.md``) in the learner's ``view``: ``"relative"`` (default: player 1's table turned
by 180 degrees so both sides see their own deployment at the bottom, action ids mapped to match;
:class:`~atomic_africa.game.side_view.SideView`) or ``"absolute"`` (the engine's frame). Action:
``Discrete(game.num_actions)`` in the same view; the legal ones are given as ``info["action_mask"]``
(bool) and by :meth:`AtomicAfricaEnv.action_masks` (the convention of sb3-contrib's ``MaskablePPO``). The opponent's decisions are made inside
``reset``/``step`` until it is the learner's turn again. Reward: 0 until the game ends, then +1 / -1
/ 0 for a win / loss / draw of the learner.

An illegal action does not raise by default (``illegal_action="lose"``): the episode ends
(``terminated``) with ``illegal_reward`` and ``info["illegal_action"] = True``, the game unchanged;
``illegal_action="raise"`` raises :class:`~atomic_africa.game.IllegalActionError` instead.

Seeds: ``reset(seed=s)`` plays ``Game(scenario, s)`` against the named opponent built with the seed
``VectorGame.agent_seed(s, opponent_side)`` (as the vector env's native opponent, so both play the
same games); ``reset()`` draws the next game seed from ``self.np_random`` (seeded by the last seeded
reset).
"""
from __future__ import annotations

from .._optional import require

require("gymnasium", "gym", "AtomicAfricaEnv")  # before the imports below: one line naming the extra

import gymnasium as gym  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from ..game import Game, GameSpec, IllegalActionError
from ..game.native_agents import agent_seed
from ..game.side_view import SideView
from ._common import ENV_ID, observation_box, text_render
from ..agents import make_agent

__all__ = ["AtomicAfricaEnv", "ENV_ID"]



class AtomicAfricaEnv(gym.Env):
    """The learner (``player``) against ``opponent`` (see the module notes).

    Parameters
    ----------
    scenario : Scenario, path, dict or None
        The scenario (the packaged default if ``None``).
    opponent : str or agent
        A built-in agent name (``random``, ``greedy``, ``doctrine``, ``heuristic``) or an object with
        ``act(game) -> int``; a name is rebuilt each episode with a seed from the episode seed.
    player : {0, 1}
        The learner's side.
    rules : Rules, optional
        Rules data; the packaged defaults if omitted.
    illegal_action : {"lose", "raise"}
        On an illegal learner action: end the episode with ``illegal_reward`` (``"lose"``), or raise
        :class:`~atomic_africa.game.IllegalActionError` (``"raise"``).
    illegal_reward : float
        Reward of the step that ends the episode on an illegal action.
    render_mode : {None, "ansi"}
        ``"ansi"``: :meth:`render` returns a text picture.
    view : {"relative", "absolute"}
        The frame of the learner's observations, masks and actions (see the module notes).

    Raises
    ------
    ValueError
        On an invalid ``player``, ``illegal_action``, ``render_mode``, ``view`` or opponent name.
    TypeError
        If ``opponent`` is neither a name nor an object with ``act``.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, scenario=None, opponent="random", player: int = 0, rules=None,
                 illegal_action: str = "lose", illegal_reward: float = -1.0, render_mode=None,
                 view: str = "relative"):
        if isinstance(player, bool) or player not in (0, 1):
            raise ValueError(f"player: {player!r} is not a player; allowed 0, 1")
        if illegal_action not in ("lose", "raise"):
            raise ValueError(f"illegal_action: {illegal_action!r}; allowed 'lose', 'raise'")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode: {render_mode!r} is not supported; allowed None, 'ansi'")
        if isinstance(opponent, str):
            make_agent(opponent)  # validates the name now
        elif not callable(getattr(opponent, "act", None)):
            raise TypeError(f"opponent: expected an agent name or an object with act(game), "
                            f"got {type(opponent).__name__}")
        self.game_spec = GameSpec.build(scenario, rules)
        self.player, self.opponent_spec = int(player), opponent
        self.illegal_action, self.illegal_reward = illegal_action, float(illegal_reward)
        self.render_mode = render_mode
        self.view = SideView(self.game_spec, view)
        self.observation_space = observation_box(self.game_spec)
        self.action_space = spaces.Discrete(self.game_spec.num_actions)
        self.game = None
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
            return np.zeros(self.game_spec.num_actions, dtype=bool)
        return self.view.action_mask(self.game.action_mask(), self.player)

    def _observation(self) -> np.ndarray:
        return self.view.observation(self.game.observation(self.player), self.player)

    def _info(self, **extra) -> dict:
        info = {"action_mask": self.action_masks(), "game_seed": self.game.seed}
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
            The learner's observation and info (``action_mask``, ``game_seed``, and ``winner``,
            ``reason`` if the game is already over).
        """
        super().reset(seed=seed)
        game_seed = int(seed) if seed is not None else int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game(self.game_spec, game_seed)
        if isinstance(self.opponent_spec, str):
            self.opponent = make_agent(self.opponent_spec, agent_seed(game_seed, 1 - self.player))
        else:
            self.opponent = self.opponent_spec
        self._opponent_moves()
        return self._observation(), self._info()

    def step(self, action):
        """Apply the learner's action, then the opponent's until the learner decides again.

        Parameters
        ----------
        action : int
            Action id.

        Returns
        -------
        (ndarray of float32, float, bool, bool, dict)
            Observation, reward (+1/-1/0 at the end, ``illegal_reward`` for an illegal action),
            terminated, truncated (always False) and info.

        Raises
        ------
        RuntimeError
            Before :meth:`reset` or after the episode has ended.
        IllegalActionError
            On an illegal action with ``illegal_action="raise"``.
        """
        if self.game is None:
            raise RuntimeError("step() called before reset()")
        if self.game.is_over:
            raise RuntimeError("step() called on a finished episode; call reset()")
        a = int(action)
        if not (0 <= a < self.game_spec.num_actions and self.action_masks()[a]):
            if self.illegal_action == "raise":
                self._raise_illegal(a)
            return self._observation(), self.illegal_reward, True, False, self._info(illegal_action=True)
        self.game.apply(self.view.action_to_engine(a, self.player))
        self._opponent_moves()
        return self._observation(), self._reward(), self.game.is_over, False, self._info()

    def _raise_illegal(self, a: int):
        """The engine's IllegalActionError (with its reason) for the learner's action ``a``."""
        if not 0 <= a < self.game_spec.num_actions:
            self.game.apply(a)  # out of range: the engine names the allowed ids
        e = self.view.action_to_engine(a, self.player)
        if e == a:
            self.game.apply(a)
        try:
            self.game.apply(e)
        except IllegalActionError as err:
            raise IllegalActionError(f"action {a} ({self.view.view} view of player {self.player}; "
                                     f"engine action {e}): {err}") from None

    def render(self):
        """The text picture of the game (``render_mode="ansi"``), else ``None``."""
        if self.render_mode is None or self.game is None:
            return None
        return text_render(self.game)

    def close(self):
        """Nothing to release."""
        pass

