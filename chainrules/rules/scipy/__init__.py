"""Rules for SciPy functions."""

from . import special as special
