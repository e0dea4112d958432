"""cardodds: odds you can trust, with their uncertainty, for Känä, Kanalje and Polish Canasta."""

from importlib.metadata import PackageNotFoundError, version as _version

try:
    __version__ = _version("cardodds")
except PackageNotFoundError:  # pragma: no cover - running from a source tree
    __version__ = "0.0.0+unknown"

from .stats import Estimate, paired_difference  # noqa: E402

__all__ = ["Estimate", "__version__", "paired_difference"]
