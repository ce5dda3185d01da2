"""The native engine's Python face: :class:`VectorGame` and what it hands the kernel.

- :mod:`.vector`: :class:`VectorGame`, many games stepped together by ``aa_core.vgame``.
- :mod:`.params_schema`: the one declaration of the C core's ``aa_params`` (sections, tables) and of the
  native agents' options; :mod:`.params_c` renders ``src/aa_core/csrc/aa_params.h`` and
  ``src/aa_core/vgame_params.pxi`` from it.
- :mod:`.params`: the values of ``aa_params`` from a :class:`~atomic_africa.game.GameSpec`, which
  :mod:`.spec_file` writes as the spec file that carries them into C (``aa_spec_load``).
- :mod:`.layout`: unit templates in, event records out, read from :mod:`atomic_africa.game.schema`.
- :mod:`.agent_args`: the native agents' codes, parameters and seeds, checked.
- :mod:`.snapshot`: a pickled VectorGame's arrays, checked before the kernel sees them.
- :mod:`.spec_file`: spec files, the one transport of a battle into C (``VectorGame``'s engine, the C
  API, ``atomic-africa compile``), and the generator of the loader's field tables and the embedded
  default battle.
- :mod:`.schema_c`: the generator of ``src/aa_core/csrc/aa_schema.h``, ``src/aa_core/vgame_schema.pxi``
  and ``src/aa_core/csrc/aa_hidden.h``.
"""
from .vector import DECISION_TRIES, VectorGame

__all__ = ["VectorGame", "DECISION_TRIES"]
