"""Rules for Python's scalar functions: ``math`` and ``operator``."""

from . import math as math
from . import operator as operator
