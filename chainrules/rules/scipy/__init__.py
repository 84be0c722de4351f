"""Rules for SciPy functions."""

from . import linalg as linalg
from . import special as special
