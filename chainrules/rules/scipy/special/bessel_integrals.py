"""Rules for integrals of Bessel functions: ``itj0y0 it2j0y0 iti0k0 it2i0k0 besselpoly``.

The integrals have their integrands as derivatives, e.g. ``itj0y0(x) = (int_0^x J0,
int_0^x Y0)`` has ``(j0(x), y0(x))``; the integrands ``(1 - J0(t))/t`` and ``(I0(t) - 1)/t``
take their limit 0 at 0 (their power series for |t| < 2).
``besselpoly(a, lmb, nu) = int_0^1 x^lmb J_nu(2 a x) dx`` has its
derivative in ``a`` from ``2 J_v' = J_{v-1} - J_{v+1}``; in ``lmb`` and ``nu``, the series of
the integral differentiated term by term on jets (``besselpoly_gradient``, a function with
rules, so second derivatives exist), accurate where SciPy's own series is (``a <= 8``).

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

from ....core.calls import call
from ....core.define import scalar_rule
from .bessel import near_zero
from .jets import (
    Jet,
    broadcast_jets,
    gradient_of,
    hessian_of,
    jet_power,
    jet_rgamma,
    jet_where,
    parameter_jets,
    sum_terms,
)
from .parameter_gradients import parameter_gradient_rules

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


def _besselpoly(a: Any, lmb: Any, nu: Any, order: int) -> Jet:
    """``int_0^1 x^lmb J_nu(2 a x) dx`` with its derivatives in ``lmb`` and ``nu``: the series
    ``sum_k (-1)^k a^(2k+nu) / (k! gamma(k+nu+1) (2k+nu+lmb+1))`` on jets, for ``a > 0``."""
    lam, nu_jet = parameter_jets(lmb, nu, order=order)
    lam, nu_jet, a = broadcast_jets(lam, nu_jet, np.asarray(a, dtype=float))
    positive = a > 0
    base = np.where(positive, a, 1.0)

    def term(k: int) -> Jet:
        power = jet_power(base, nu_jet + 2 * k) * jet_rgamma(nu_jet + (k + 1))
        return power / (nu_jet + lam + (2 * k + 1)) * ((-1) ** k / math.factorial(k))

    return jet_where(positive, sum_terms(term), Jet.nan(a.shape, 2, order))


def besselpoly_gradient(lmb: Any, nu: Any, a: Any) -> tuple[Any, Any]:
    """The derivatives of ``besselpoly(a, lmb, nu)`` in ``lmb`` and ``nu`` (parameters first).

    >>> [round(float(d), 10) for d in besselpoly_gradient(0.5, 1.5, 1.0)]  # mpmath.diff
    [-0.0723867201, -0.1902974631]
    """
    return gradient_of(_besselpoly(a, lmb, nu, 1))


def _besselpoly_slopes(lmb: Any, nu: Any, a: Any) -> tuple:
    # d/da B_p = d/dp (B(a, lmb+1, nu-1) - B(a, lmb+1, nu+1))
    up = np.add(lmb, 1)
    below = call(besselpoly_gradient, up, np.subtract(nu, 1), a)
    above = call(besselpoly_gradient, up, np.add(nu, 1), a)
    return ((below[0] - above[0], below[1] - above[1]),)


parameter_gradient_rules(
    sc.besselpoly,
    besselpoly_gradient,
    lambda lmb, nu, a: hessian_of(_besselpoly(a, lmb, nu, 2)),
    _besselpoly_slopes,
    lambda a, lmb, nu, y: (
        sc.besselpoly(a, np.add(lmb, 1), np.subtract(nu, 1))
        - sc.besselpoly(a, np.add(lmb, 1), np.add(nu, 1))
    ),
    positions=(1, 2),
)
