"""Rules for SciPy's convenience functions: powers, logarithms, degree trigonometry, Huber losses.

Also the Lambert W and Wright omega functions, whose derivatives are functions of their
outputs. Removable points are exact: ``exprel'(0) = 1/2`` (a Taylor series near 0, where the
closed form cancels), ``huber`` and ``pseudo_huber`` at ``delta = 0`` or ``r = 0``.
``scipy.special`` computes on NumPy arrays only.

The Dirichlet kernel ``diric`` has its derivative from the quotient rule, 0 at its extrema
``+-1``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.exprel, 0.0)
>>> float(pullback(1.0)[1])
0.5
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from ...._compat import scipy_lambertw_ufunc
from ....core.define import scalar_rule
from ....core.dtypes import is_complex
from ....core.namespace import is_numpy
from ....core.parametric import parametric_rule

_DEGREE = math.pi / 180


def _exprel_derivative(x: Any, y: Any) -> Any:
    """d/dx (exp(x) - 1) / x = (exp(x) - y) / x; sum_n n x**(n-1) / (n+1)! for |x| < 1/2."""
    small = np.abs(x) < 0.5
    safe = np.where(small, 1.0, x)
    closed = (np.exp(safe) - sc.exprel(safe)) / safe
    series = 0.0 * x
    term = 0.5 + 0.0 * x  # n x**(n-1) / (n+1)! at n = 1
    for n in range(1, 20):
        series = series + term
        term = term * x * (n + 1) / (n * (n + 2))
    return np.where(small, series, closed)


def _huber_ddelta(delta: Any, r: Any, y: Any) -> Any:
    return np.where(np.abs(r) <= delta, 0.0 * r, np.abs(r) - delta)


def _huber_dr(delta: Any, r: Any, y: Any) -> Any:
    return np.where(np.abs(r) <= delta, r, delta * np.sign(r))


def _pseudo_huber_root(delta: Any, r: Any) -> Any:
    return np.hypot(delta, r)  # sqrt(delta**2 + r**2) without the squares' overflow


def _pseudo_huber_ddelta(delta: Any, r: Any, y: Any) -> Any:
    # 2 delta (s - 1) - r**2 / (delta s) with s = t / delta, t = sqrt(delta**2 + r**2),
    # rewritten without dividing by delta: r**4 / (t (t + delta)**2), and taken as
    # u**2 r (r / t) with u = r / (t + delta), whose factors neither overflow nor underflow
    # where r**4 or t**3 would (|u| and |r / t| are at most 1).
    t = _pseudo_huber_root(delta, r)
    zero = np.equal(r, 0)
    t_safe = np.where(zero, 1.0, t)
    u = r / (t_safe + delta)
    return np.where(zero, 0.0, u * u * r * (r / t_safe))


def _pseudo_huber_dr(delta: Any, r: Any, y: Any) -> Any:
    t = _pseudo_huber_root(delta, r)
    return np.where(t == 0, 0.0 * t, r * (delta / np.where(t == 0, 1.0, t)))


# ---- powers and logarithms ------------------------------------------------------------------


def _powm1_dx(x: Any, p: Any) -> Any:
    """p x**(p - 1), and 0 where the power is 0 or p is (p = inf at x < 1, -inf at x > 1,
    where x**p - 1 is flat at -1, and p = 0, where it is flat at 0: not inf * 0)."""
    with np.errstate(divide="ignore"):  # x = 0, p < 1: inf, the derivative's limit
        power = np.power(x, np.subtract(p, 1))
    flat = np.equal(power, 0) | np.equal(p, 0)
    return np.where(flat, 0.0, p * np.where(flat, 1.0, power))


scalar_rule(sc.cbrt, lambda x, y: np.reciprocal(3 * y * y))
scalar_rule(sc.exp2, lambda x, y: y * math.log(2))
scalar_rule(sc.exp10, lambda x, y: y * math.log(10))
scalar_rule(sc.expm1, lambda x, y: np.exp(x))  # not y + 1, which is 0 once y rounds to -1
scalar_rule(sc.log1p, lambda x, y: np.reciprocal(1 + x))
scalar_rule(sc.cosm1, lambda x, y: -np.sin(x))
scalar_rule(sc.exprel, _exprel_derivative)
scalar_rule(
    sc.powm1,
    lambda x, p, y: _powm1_dx(x, p),
    lambda x, p, y: sc.xlogy(y + 1, x),
)

# ---- trigonometry in degrees ----------------------------------------------------------------

scalar_rule(sc.sindg, lambda x, y: _DEGREE * sc.cosdg(x))
scalar_rule(sc.cosdg, lambda x, y: -_DEGREE * sc.sindg(x))
scalar_rule(sc.tandg, lambda x, y: _DEGREE * (1 + y * y))
scalar_rule(sc.cotdg, lambda x, y: -_DEGREE * (1 + y * y))
scalar_rule(
    sc.radian,
    lambda d, m, s, y: _DEGREE + 0.0 * y,
    lambda d, m, s, y: _DEGREE / 60 + 0.0 * y,
    lambda d, m, s, y: _DEGREE / 3600 + 0.0 * y,
)

# ---- Huber losses ---------------------------------------------------------------------------

scalar_rule(sc.huber, _huber_ddelta, _huber_dr)
scalar_rule(sc.pseudo_huber, _pseudo_huber_ddelta, _pseudo_huber_dr)

# ---- Lambert W and Wright omega: derivatives from the outputs -------------------------------


def _wrightomega_derivative(z: Any, y: Any) -> Any:
    # y / (1 + y), as 1 - 1 / (1 + y) for y > 1: the quotient's derivative
    # (y' (1 + y) - y y') / (1 + y)**2 cancels to 0 at large y
    if is_complex(z):
        return y / (1 + y)
    large = y > 1
    y_small = np.where(large, 1.0, y)
    return np.where(large, 1 - 1 / (1 + np.where(large, y, 2.0)), y_small / (1 + y_small))


scalar_rule(sc.wrightomega, _wrightomega_derivative)


def _lambertw_derivative(z: Any, *rest: Any) -> Any:
    """W'(z) = 1 / (exp(W) (1 + W)), from the output W (the last argument)."""
    w = rest[-1]
    return np.reciprocal(np.exp(w) * (1 + w))


parametric_rule(sc.lambertw, _lambertw_derivative, None, None, keywords=("k", "tol"), required=1)
# sc.lambertw is a Python wrapper around this ufunc (as zeta is around _zeta). A rule on the
# ufunc lets engines, whose arrays dispatch ufuncs, differentiate the pullback again. It is
# private to SciPy, hence the fallback.
lambertw_ufunc = scipy_lambertw_ufunc()
if lambertw_ufunc is not None:
    parametric_rule(lambertw_ufunc, _lambertw_derivative, None, None)

# ---- the Dirichlet kernel ----------------------------------------------------------------


def _diric_partial(x: Any, n: Any, y: Any) -> Any:
    # At multiples of 2 pi, diric is +-1, an extremum: the derivative is 0.
    half = np.sin(x / 2)
    at_pole = half == 0
    numerator = np.cos(np.multiply(n, x) / 2) - y * np.cos(x / 2)
    return np.where(at_pole, 0.0, numerator / (2 * np.where(at_pole, 1.0, half)))


def _diric_forward(x: Any, n: Any) -> Any:
    # sc.diric converts its input to NumPy; an engine's arrays take the same formula in ufuncs.
    if is_numpy(x):
        return sc.diric(x, n)
    half = np.sin(x / 2)
    at_pole = half == 0
    ratio = np.sin(np.multiply(n, x) / 2) / (np.multiply(n, np.where(at_pole, 1.0, half)))
    return np.where(at_pole, 1.0, ratio)


parametric_rule(sc.diric, _diric_partial, None, forward=_diric_forward)
