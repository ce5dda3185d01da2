"""``python -m atomic_africa.cli``: the ``atomic-africa`` command line."""
import sys

from . import main

sys.exit(main())
