"""Rules for the Struve functions ``struve modstruve`` and their integrals.

``2 H_v' = H_{v-1} -+ H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))`` (DLMF 11.4.23,
11.4.25), with ``H_v' = H_{v-1} - v H_v / x`` (11.4.24) for ``|x| >= 1``, where the first
form cancels, and the power series differentiated term by term for ``|x| < 1``. In the order
``v``: the series on jets for ``x <= 8`` (``L`` everywhere), beyond ``Y_v + K_v`` with ``K_v``
by the log-moments of its integral (DLMF 11.5.2); ``struve_dv``, ``modstruve_dv`` are
functions with rules, so second derivatives exist.
The integrals ``itstruve0 it2struve0 itmodstruve0`` have their integrands as derivatives;
``H0(t)/t`` takes its limit ``2/pi`` at 0 (its power series for |t| < 1).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.itstruve0, 1.0)
>>> bool(pullback(1.0)[1] == sc.struve(0, 1.0))
True
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import scalar_rule
from .bessel import near_zero, power_series
from .bessel_order import bessel_order_jet
from .jets import (
    Jet,
    broadcast_jets,
    gradient_of,
    hessian_of,
    jet_exp,
    jet_gammaln,
    jet_power,
    jet_rgamma,
    jet_where,
    parameter_jets,
    sum_terms,
)
from .moments import moments
from .parameter_gradients import parameter_derivative_rules

_SQRT_PI = np.sqrt(np.pi)

# ---- Struve functions -----------------------------------------------------------------------

# Series terms enough for |x| < 1 to double precision.
_TERMS = 16


def _struve_term(v: Any, x: Any) -> Any:
    """(x/2)^v / (sqrt(pi) gamma(v + 3/2)), the term that the Struve recurrences add to Bessel's.

    Exactly 0 at the poles of gamma, also where (x/2)^v overflows.
    """
    reciprocal = sc.rgamma(np.add(v, 1.5))
    pole = reciprocal == 0
    return np.where(pole, 0.0, np.power(np.where(pole, 2.0, x) / 2, v) * reciprocal / _SQRT_PI)


def _slope_series(v: Any, x: Any, sign: float) -> Any:
    """H_v'(x) (sign -1) or L_v'(x) (sign +1) from the power series, for |x| < 1.

    H_v(x) = sum_k (-1)^k (x/2)^(2k+v+1) / (gamma(k + 3/2) gamma(k + v + 3/2)) (DLMF 11.2.1),
    differentiated term by term: (x/2)^v times a series in (x/2)^2, so that a derivative too
    large for a float comes out as the infinity of its sign. At v = -1 the first term vanishes
    and (x/2)^(-1) is taken into the series, which is then finite at 0.
    """
    coefficients = [
        sign**k * (k + np.add(v, 1) / 2) * sc.rgamma(np.add(v, k + 1.5)) / math.gamma(k + 1.5)
        for k in range(_TERMS)
    ]
    half = x / 2
    minus_one = np.equal(v, -1)
    general = np.power(np.where(minus_one, 1.0, half), v) * power_series(half, coefficients)
    at_minus_one = power_series(half, coefficients[1:], power=1)
    return np.where(minus_one, at_minus_one, general)


def _struve_slope(v: Any, x: Any, y: Any) -> Any:
    # From |x| = 1 on, 2 H_v' = H_{v-1} - H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))
    # (DLMF 11.4.23) cancels its last two terms to O(x^(v-2)) out of O(x^v), while
    # H_v' = H_{v-1} - v H_v / x (DLMF 11.4.24) keeps the digits; closer to 0 both cancel or
    # overflow, and the series is taken.
    small = np.abs(x) < 1
    far = np.where(small, 1.0, x)
    outer = sc.struve(np.subtract(v, 1), far) - np.multiply(v, y) / far
    return np.where(small, _slope_series(v, np.where(small, x, 0.5), -1.0), outer)


def _modstruve_slope(v: Any, x: Any, y: Any) -> Any:
    # 2 L_v' = L_{v-1} + L_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2)) (DLMF 11.4.25) does not
    # cancel where L grows like exp(x); closer to 0 than 1, the series.
    small = np.abs(x) < 1
    far = np.where(small, 1.0, x)
    outer = sc.modstruve(np.subtract(v, 1), far) + sc.modstruve(np.add(v, 1), far)
    outer = (outer + _struve_term(v, far)) / 2
    return np.where(small, _slope_series(v, np.where(small, x, 0.5), 1.0), outer)


# ---- the order: series and integrals on jets ------------------------------------------------

# H_v's series cancels like J_v's: beyond x = 8 (terms e^8 = 3e3 times the sum) it is
# Y_v + K_v, with K_v an integral that does not oscillate.
_SERIES_END = 8.0


def _series(v: Jet, x: Any, sign: float) -> Jet:
    """sum_k sign^k (x/2)^(2k+v+1) / (gamma(k + 3/2) gamma(k + v + 3/2)) (DLMF 11.2.1, 11.2.2)
    on jets, for x > 0."""
    half = x / 2
    log_half = np.log(half)

    def term(k: int) -> Jet:
        if np.all(v.value + k + 1.5 >= 1):
            # in logarithms, where (x/2)^(2k) would overflow before 1/gamma shrinks it
            log = (v + (2 * k + 1)) * log_half - jet_gammaln(v + (k + 1.5))
            return jet_exp(log - math.lgamma(k + 1.5)) * sign**k
        # 1/gamma(k + 3/2) below the floats' range of gamma: a term the sum cannot settle
        # without (v = -1e300) is 0, not an OverflowError
        scale = sign**k / math.gamma(k + 1.5) if k < 170 else sign**k * sc.rgamma(k + 1.5)
        return jet_power(half, v + (2 * k + 1)) * jet_rgamma(v + (k + 1.5)) * scale

    return sum_terms(term)


def _log_struve_k_integral(v: float, x: float, second: bool) -> tuple[float, float, float]:
    """log of int_0^inf exp(-x t) (1 + t^2)^(v - 1/2) dt and its first two derivatives in v:
    the mean and variance of log(1 + t^2) under the integrand (s = x t)."""
    phi = lambda s: -s + (v - 0.5) * np.log1p((s / x) ** 2)
    # the integrand's peak, for v > 1/2 away from 0: where 1 = (2v - 1) s / (x^2 + s^2)
    peak = 0.0
    if v > 0.5:
        disc = (v - 0.5) ** 2 - x * x
        peak = (v - 0.5) + np.sqrt(disc) if disc > 0 else 0.0
    top = phi(peak)
    weight = lambda s: np.exp(phi(s) - top)
    g = lambda s: np.log1p((s / x) ** 2)
    pieces = ((0.0, peak), (peak, np.inf)) if peak > 0 else ((0.0, np.inf),)
    total, means, covariances = moments(weight, (g,), pieces, second)
    return top + np.log(total / x), means[0], covariances[0] if second else np.nan


def _struve_k(v: Jet, x: Any) -> Jet:
    """K_v = H_v - Y_v = 2 (x/2)^v / (sqrt(pi) gamma(v + 1/2)) int_0^inf exp(-x t) (1 + t^2)^(v-1/2)
    dt (DLMF 11.5.2), on jets, x > 0."""
    second = v.order >= 2
    shape = x.shape
    found = np.full((3, *shape), np.nan)
    for index in np.ndindex(shape):
        found[(slice(None), *index)] = _log_struve_k_integral(
            float(v.value[index]), float(x[index]), second
        )
    log_integral = v.chain(*found)
    front = jet_power(x / 2, v) * jet_rgamma(v + 0.5) * (2 / _SQRT_PI)
    return front * jet_exp(log_integral)


def _struve_order(v: Any, x: Any, order: int, modified: bool) -> Jet:
    """H_v(x) (or L_v(x)) with its derivatives in v, for x > 0 (NaN at x < 0; at 0, 0 where
    v > -1)."""
    (nu,) = parameter_jets(v, order=order)
    nu, x = broadcast_jets(nu, np.asarray(x, dtype=float))
    positive = x > 0
    series_side = positive & (x <= _SERIES_END) if not modified else positive
    inner = np.where(series_side, x, 1.0)
    value = _series(nu, inner, 1.0 if modified else -1.0)
    outer = positive & ~series_side
    if np.any(outer):
        far = np.where(outer, x, _SERIES_END + 1)
        value = jet_where(outer, bessel_order_jet("yv", nu, far) + _struve_k(nu, far), value)
    zero = Jet.constant(np.zeros(x.shape), 1, order)
    at_zero = (x == 0) & (nu.value > -1)
    return jet_where(positive, value, jet_where(at_zero, zero, Jet.nan(x.shape, 1, order)))


def struve_dv(v: Any, x: Any) -> Any:
    """The derivative of ``struve(v, x)`` in ``v``, for real ``x >= 0``.

    >>> round(float(struve_dv(0.0, 1.0)), 10)  # mpmath.diff
    -0.3706970537
    """
    return gradient_of(_struve_order(v, x, 1, False))[0]


def modstruve_dv(v: Any, x: Any) -> Any:
    """The derivative of ``modstruve(v, x)`` in ``v``, for real ``x >= 0``."""
    return gradient_of(_struve_order(v, x, 1, True))[0]


def _term_dv(v: Any, x: Any) -> Any:
    """d/dv of (x/2)^v / (sqrt(pi) gamma(v + 3/2)): ``log(x/2)`` and ``-digamma`` of it (at a
    pole of gamma, (x/2)^v (-1)^n n! / sqrt(pi))."""
    s = np.add(v, 1.5)
    pole = (s <= 0) & (s == np.floor(s))
    n = np.where(pole, -s, 0.0)
    slope = np.where(
        pole, (-1.0) ** n * sc.gamma(n + 1), -sc.rgamma(s) * sc.digamma(np.where(pole, 0.5, s))
    )
    return np.power(x / 2, v) * (np.log(x / 2) * sc.rgamma(s) + slope) / _SQRT_PI


def _order_slope(dv: Any, sign: float) -> Any:
    # d/dx of H_v' = (H_(v-1) - H_(v+1) + term) / 2 (DLMF 11.4.23), L likewise with +, in v
    def struve_dv_slope(v: Any, x: Any, y: Any) -> Any:
        below = call(dv, np.subtract(v, 1), x)
        above = call(dv, np.add(v, 1), x)
        return (below + sign * above + _term_dv(v, x)) / 2

    return struve_dv_slope


parameter_derivative_rules(
    sc.struve,
    struve_dv,
    lambda v, x: hessian_of(_struve_order(v, x, 2, False))[0],
    _order_slope(struve_dv, -1.0),
    _struve_slope,
)
parameter_derivative_rules(
    sc.modstruve,
    modstruve_dv,
    lambda v, x: hessian_of(_struve_order(v, x, 2, True))[0],
    _order_slope(modstruve_dv, 1.0),
    _modstruve_slope,
)

# ---- integrals of Struve functions -------------------------------------------------------

# H0(x)/x = sum_k (-1)^k x^(2k) / (2^(2k+1) gamma(k + 3/2)^2), 2/pi at 0.
_H0_OVER_X = tuple((-1) ** k / (2 ** (2 * k + 1) * math.gamma(k + 1.5) ** 2) for k in range(_TERMS))


def _h0_over_x(x: Any) -> Any:
    return near_zero(x, 1.0, _H0_OVER_X, lambda t: sc.struve(0, t) / t)


scalar_rule(sc.itstruve0, lambda x, y: sc.struve(0, x))
scalar_rule(sc.it2struve0, lambda x, y: -_h0_over_x(x))
scalar_rule(sc.itmodstruve0, lambda x, y: sc.modstruve(0, x))
