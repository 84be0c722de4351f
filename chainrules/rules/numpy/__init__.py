"""Rules for NumPy functions."""

from . import elementwise as elementwise
