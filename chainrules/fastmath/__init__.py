"""chainrules.fastmath: fast approximate kernels, each with rules and an exact twin.

Each function computes the same mathematical function as its exact NumPy/SciPy twin
(``TWINS``), to a stated accuracy (``ACCURACY``, measured against the twin by the tests),
faster where a compiled kernel runs (numba, the ``fastmath`` extra). Their rrules and frules
(``chainrules.rules.fastmath``) are the twins' rules, evaluated on the fast output: the
derivative of the ideal function, with an error bounded by the primal's. AD engines never
look inside the kernels.

>>> import numpy as np
>>> from chainrules import fastmath
>>> float(fastmath.exp(np.float32(1.0)))
2.7182817459106445
"""

from . import exact as exact
from ._bits import COMPILED as COMPILED
from .accuracy import ACCURACY as ACCURACY
from .accuracy import TWINS as TWINS
from .accuracy import Accuracy as Accuracy
from .functions import *  # noqa: F403  the fast functions, as functions.__all__ names them
from .functions import __all__ as _FUNCTIONS_ALL

__all__ = ["ACCURACY", "COMPILED", "FUNCTIONS", "TWINS", "Accuracy", "exact", *_FUNCTIONS_ALL]

FUNCTIONS = tuple(TWINS)
"""Every public fast function."""
