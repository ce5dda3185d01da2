"""``python -m atomic_africa``: the ``atomic-africa`` command line."""
import sys

from .cli import main

sys.exit(main())
