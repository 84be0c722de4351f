"""Rules for integrals of Bessel functions: ``itj0y0 it2j0y0 iti0k0 it2i0k0 besselpoly``.

The integrals have their integrands as derivatives, e.g. ``itj0y0(x) = (int_0^x J0,
int_0^x Y0)`` has ``(j0(x), y0(x))``; the integrands ``(1 - J0(t))/t`` and ``(I0(t) - 1)/t``
take their limit 0 at 0 (their power series for |t| < 2).
``besselpoly(a, lmb, nu) = int_0^1 x^lmb J_nu(2 a x) dx`` has its
derivative in ``a`` from ``2 J_v' = J_{v-1} - J_{v+1}``; in ``lmb`` and ``nu`` it has no closed
form (``NotImplementedTangent``).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.itj0y0, 1.0)
>>> bool(pullback((1.0, 0.0))[1] == sc.j0(1.0))
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented
from .bessel import near_zero

_NO_FORMULA = "no closed form, not implemented"

# ---- integrals of J0, Y0, I0, K0 ----------------------------------------------------------

# (1 - J0(x))/x and (I0(x) - 1)/x = sum_{k>=1} (-+1)^(k+1) x^(2k-1) / (4^k k!^2): below
# |x| = 2 the subtraction would cancel (and the quotient's derivatives cancel again).
_TERMS = 14
_ONE_MINUS_J0 = tuple(
    (-1) ** (k + 1) / (4**k * math.factorial(k) ** 2) for k in range(1, _TERMS + 1)
)
_I0_MINUS_ONE = tuple(1 / (4**k * math.factorial(k) ** 2) for k in range(1, _TERMS + 1))


def _one_minus_j0_over_x(x: Any) -> Any:
    return near_zero(x, 2.0, _ONE_MINUS_J0, lambda t: (1 - sc.j0(t)) / t, power=1)


def _i0_minus_one_over_x(x: Any) -> Any:
    return near_zero(x, 2.0, _I0_MINUS_ONE, lambda t: (sc.i0(t) - 1) / t, power=1)


scalar_rule(sc.itj0y0, (lambda x, y: sc.j0(x),), (lambda x, y: sc.y0(x),))
scalar_rule(
    sc.it2j0y0,
    (lambda x, y: _one_minus_j0_over_x(x),),
    (lambda x, y: -sc.y0(x) / x,),
)
scalar_rule(sc.iti0k0, (lambda x, y: sc.i0(x),), (lambda x, y: sc.k0(x),))
scalar_rule(
    sc.it2i0k0,
    (lambda x, y: _i0_minus_one_over_x(x),),
    (lambda x, y: -sc.k0(x) / x,),
)

# ---- the Bessel polynomial integral -----------------------------------------------------

parametric_rule(
    sc.besselpoly,
    lambda a, lmb, nu, y: (
        sc.besselpoly(a, np.add(lmb, 1), np.subtract(nu, 1))
        - sc.besselpoly(a, np.add(lmb, 1), np.add(nu, 1))
    ),
    not_implemented(f"derivative of besselpoly in lmb: {_NO_FORMULA}"),
    not_implemented(f"derivative of besselpoly in nu: {_NO_FORMULA}"),
)
