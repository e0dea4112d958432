"""cardodds: odds you can trust, with their uncertainty, for Känä, Kanalje and Polish Canasta."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("cardodds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

from ._backend import backend  # noqa: E402
from .stats import Estimate, paired_difference  # noqa: E402

__all__ = ["Estimate", "__version__", "backend", "paired_difference"]
