"""The native engine's Python face: :class:`VectorGame` and what it hands the kernel.

- :mod:`.vector`: :class:`VectorGame`, many games stepped together by ``aa_core.vgame``.
- :mod:`.params`: the kernel's ``Params`` from a :class:`~atomic_africa.game.GameSpec`.
- :mod:`.layout`: unit templates in, event records out, read from :mod:`atomic_africa.game.schema`.
- :mod:`.agent_args`: the native agents' codes, parameters and seeds, checked.
- :mod:`.snapshot`: a pickled VectorGame's arrays, checked before the kernel sees them.
- :mod:`.spec_file`: spec files for the C API (``atomic-africa compile``, ``aa_spec_load``), and the
  generator of the loader's field tables and the embedded default battle.
- :mod:`.schema_c`: the generator of ``src/aa_core/csrc/aa_schema.h``, ``src/aa_core/vgame_schema.pxi``
  and ``src/aa_core/csrc/aa_hidden.h``.
"""
from .vector import DECISION_TRIES, VectorGame

__all__ = ["VectorGame", "DECISION_TRIES"]
