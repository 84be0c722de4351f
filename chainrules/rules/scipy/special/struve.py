"""Rules for the Struve functions ``struve modstruve`` and their integrals.

``2 H_v' = H_{v-1} -+ H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))`` (DLMF 11.4.23,
11.4.25); the derivative in the order ``v`` has no closed form (``NotImplementedTangent``).
The integrals ``itstruve0 it2struve0 itmodstruve0`` have their integrands as derivatives;
``H0(t)/t`` takes its limit ``2/pi`` at 0.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.itstruve0, 1.0)
>>> bool(pullback(1.0)[1] == sc.struve(0, 1.0))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented
from .bessel import over_x

_SQRT_PI = np.sqrt(np.pi)

# ---- Struve functions -----------------------------------------------------------------------


def _struve_term(v: Any, x: Any) -> Any:
    """(x/2)^v / (sqrt(pi) gamma(v + 3/2)), the term that the Struve recurrences add to Bessel's."""
    return np.power(x / 2, v) * sc.rgamma(np.add(v, 1.5)) / _SQRT_PI


_STRUVE_ORDER = not_implemented(
    "derivative of a Struve function in the order v: no closed form, not implemented"
)
parametric_rule(
    sc.struve,
    _STRUVE_ORDER,
    lambda v, x, y: (
        (sc.struve(np.subtract(v, 1), x) - sc.struve(np.add(v, 1), x) + _struve_term(v, x)) / 2
    ),
)
parametric_rule(
    sc.modstruve,
    _STRUVE_ORDER,
    lambda v, x, y: (
        (sc.modstruve(np.subtract(v, 1), x) + sc.modstruve(np.add(v, 1), x) + _struve_term(v, x))
        / 2
    ),
)

# ---- integrals of Struve functions -------------------------------------------------------

scalar_rule(sc.itstruve0, lambda x, y: sc.struve(0, x))
scalar_rule(sc.it2struve0, lambda x, y: -over_x(x, sc.struve(0, x), 2 / np.pi))
scalar_rule(sc.itmodstruve0, lambda x, y: sc.modstruve(0, x))
