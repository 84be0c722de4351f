"""chainrules.fastmath: fast approximate kernels, each with rules and an exact twin.

Each function computes the same mathematical function as its exact NumPy/SciPy twin
(``TWINS``), to a stated accuracy (``ACCURACY``, measured against the twin by the tests),
faster where a compiled kernel runs (numba, the ``fastmath`` extra). Whether the kernel or the
twin runs for a dtype is this machine's choice (``choice``: calibrated once per CPU, or
chosen by the user). Their rrules and frules
(``chainrules.rules.fastmath``) are the twins' rules, evaluated on the fast output: the
derivative of the ideal function, with an error bounded by the primal's. AD engines never
look inside the kernels.

>>> import numpy as np
>>> from chainrules import fastmath
>>> round(float(fastmath.exp(np.float32(1.0))), 6)  # within 2 ulps of e in float32
2.718282
"""

from . import choice as choice
from . import exact as exact
from ._bits import COMPILED as COMPILED
from .accuracy import ACCURACY as ACCURACY
from .accuracy import TWINS as TWINS
from .accuracy import Accuracy as Accuracy
from .functions import erf as erf
from .functions import exp as exp
from .functions import exp2 as exp2
from .functions import expm1 as expm1
from .functions import gelu as gelu
from .functions import log as log
from .functions import log1p as log1p
from .functions import log2 as log2
from .functions import log_softmax as log_softmax
from .functions import logsumexp as logsumexp
from .functions import pow as pow
from .functions import rsqrt as rsqrt
from .functions import sigmoid as sigmoid
from .functions import softmax as softmax
from .functions import softplus as softplus
from .functions import sqrt as sqrt
from .functions import tanh as tanh

__all__ = [
    "ACCURACY",
    "COMPILED",
    "FUNCTIONS",
    "TWINS",
    "Accuracy",
    "choice",
    "exact",
    "erf",
    "exp",
    "exp2",
    "expm1",
    "gelu",
    "log",
    "log1p",
    "log2",
    "log_softmax",
    "logsumexp",
    "pow",
    "rsqrt",
    "sigmoid",
    "softmax",
    "softplus",
    "sqrt",
    "tanh",
]

FUNCTIONS = tuple(TWINS)
"""Every public fast function."""
