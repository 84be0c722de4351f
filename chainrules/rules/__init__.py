"""The rule library, one module per category and library; importing it registers every rule."""

from . import fastmath as fastmath
from . import numpy as numpy
from . import python as python
from . import scipy as scipy
