"""The installed version of cardodds, read once (``cardodds.__version__``).

A module of its own so that the package's ``__init__`` and the modules it imports (the Dask
backend compares it with the workers') read it without importing each other.
"""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("cardodds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"
