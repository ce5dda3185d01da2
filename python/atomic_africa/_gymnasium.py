"""The Gymnasium id ``"AtomicAfrica-v0"``, registered on ``import atomic_africa`` when Gymnasium is installed.

Registration stores entry-point strings only, so the environment modules (and everything they import)
load when ``gymnasium.make`` first builds the environment. Gymnasium 1.x has no plugin entry points,
so the id can exist only once Gymnasium is imported: importing it here costs a few tens of ms, and only
where the ``gym`` extra is installed.
"""
from __future__ import annotations

__all__ = ["ENV_ID", "register"]

#: Gymnasium id of :class:`~atomic_africa.env.gymnasium_env.AtomicAfricaEnv` and its vector twin.
ENV_ID = "AtomicAfrica-v0"


def register() -> bool:
    """Register :data:`ENV_ID` with Gymnasium if it is installed (idempotent).

    Returns
    -------
    bool
        Whether the id is registered (False: Gymnasium is not installed).
    """
    try:
        import gymnasium
    except ImportError:  # the gym extra is not installed: nothing to register with
        return False
    if ENV_ID not in gymnasium.registry:
        gymnasium.register(id=ENV_ID, entry_point="atomic_africa.env.gymnasium_env:AtomicAfricaEnv",
                           vector_entry_point="atomic_africa.env.gymnasium_vector:AtomicAfricaVectorEnv")
    return True
