"""The learned agents: ``"puct"`` (a network plus its search) and ``"network"`` (the network alone).

Both read a policy-value network file (:mod:`.network`; default the packaged network) and the
absolute observation of the player to move, as the network was trained. :class:`Learned` carries what
they need (the network file and the PUCT search's parameters) and loads the network once;
:func:`learned_actions` plays them on many games of a :class:`~atomic_africa.game.VectorGame` at once:
one :func:`~.puct.puct_search` (``"puct"``) or one evaluator call (``"network"``) per step for every
game where the agent is to move. A ``"puct"`` game's search draws from its env's agent stream of the
side to move, so a batch's games depend only on their seeds, never on the other games of the batch.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from importlib import resources

import numpy as np

from .puct import PUCT_DEFAULTS, check_puct, puct_search

__all__ = ["LEARNED_AGENTS", "Learned", "check_learned", "learned_actions"]

#: The agents that read a network: the network plus its search, the network alone.
LEARNED_AGENTS = ("puct", "network")


@dataclass(frozen=True)
class Learned:
    """The learned agents' settings: the network file (None: the packaged network) and the PUCT
    search's parameters (:func:`~.puct.check_puct`, complete). Pickled with its network once loaded,
    so worker processes and Ray tasks get the weights with their batch, not the file's path."""

    network: str | None = None
    puct: dict = field(default_factory=lambda: dict(PUCT_DEFAULTS))

    def evaluator(self):
        """The network's evaluator, loaded on first use and kept (a league loads it once)."""
        got = self.__dict__.get("_evaluator")
        if got is None:
            from . import network as _network
            if self.network is None:
                packaged = resources.files("atomic_africa.data") / _network.DEFAULT_NETWORK
                if not packaged.is_file():
                    raise ValueError(f"network: the packaged network {str(packaged)!r} is not installed; name a "
                                     f"network file (network=..., --network FILE.npz)")
            got = _network.load_evaluator(self.network)
            object.__setattr__(self, "_evaluator", got)
        return got

    def identity(self) -> dict:
        """What a run's games depend on (for resumable runs): the network's path and the parameters."""
        return {"network": self.network, "puct": dict(self.puct)}


def check_learned(network=None, puct=None) -> Learned:
    """The learned agents' settings, checked.

    Parameters
    ----------
    network : str or PathLike, optional
        A network file (:func:`~.network.save_mlp`); None: the packaged network.
    puct : dict, optional
        Some of the PUCT search's parameters (:data:`~.puct.PUCT_DEFAULTS`: ``simulations``,
        ``wave``, ``c_puct``, ``dirichlet_alpha``, ``noise_fraction``, ``temperature``, ``rollout``,
        ``rollout_weight``, ``width``).

    Returns
    -------
    Learned

    Raises
    ------
    TypeError, ValueError
        ``network: ...`` for a path that is not a string or names no file, ``puct: ...`` naming the
        parameter and its allowed values.
    """
    if isinstance(network, Learned):
        return network
    if network is not None:
        if not isinstance(network, (str, os.PathLike)):
            raise TypeError(f"network: expected a path to a network file or None, got {type(network).__name__}")
        network = os.fspath(network)
        if not os.path.isfile(network):
            raise ValueError(f"network: no file {network!r}")
    if puct is None:
        puct = {}
    if not isinstance(puct, dict):
        raise TypeError(f"puct: expected a dict with some of {', '.join(PUCT_DEFAULTS)}, got {type(puct).__name__}")
    try:
        params = check_puct(**puct)
    except (TypeError, ValueError) as exc:
        raise type(exc)(f"puct: {exc}") from None
    return Learned(network, params)


def learned_actions(name: str, vg, learned: Learned, rows) -> tuple[np.ndarray, np.ndarray]:
    """The actions of learned agent ``name`` in the envs ``rows`` of ``vg`` (where it is to move).

    Parameters
    ----------
    name : {"puct", "network"}
    vg : VectorGame
    learned : Learned
    rows : array_like of bool, shape (num_envs,)

    Returns
    -------
    (env indices, their actions), int64 arrays.
    """
    idx = np.flatnonzero(rows)
    evaluator = learned.evaluator()
    if name == "puct":
        return idx, puct_search(vg, evaluator, envs=idx, **learned.puct).actions[idx]
    if name == "network":
        masks = vg.action_masks(envs=idx)
        priors, _ = evaluator(vg.observations(envs=idx), masks)
        return idx, np.argmax(np.where(masks, np.asarray(priors), -1.0), axis=1).astype(np.int64)
    raise ValueError(f"agent: {name!r} is not a learned agent; allowed: {', '.join(LEARNED_AGENTS)}")
