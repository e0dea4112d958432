"""cardodds: odds you can trust, with their uncertainty, for Känä, Kanalje and Polish Canasta."""

from ._backend import backend
from ._version import __version__
from .stats import Estimate, paired_difference

__all__ = ["Estimate", "__version__", "backend", "paired_difference"]
