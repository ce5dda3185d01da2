"""The package version, in one place: pyproject.toml reads it from here and ``__version__`` is it."""
__version__ = "0.1.0"
