"""Rules for the Struve functions ``struve modstruve`` and their integrals.

``2 H_v' = H_{v-1} -+ H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))`` (DLMF 11.4.23,
11.4.25), with ``H_v' = H_{v-1} - v H_v / x`` (11.4.24) for ``|x| >= 1``, where the first
form cancels, and the power series differentiated term by term for ``|x| < 1``; the
derivative in the order ``v`` has no closed form (``NotImplementedTangent``).
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

from ....core.define import scalar_rule
from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented
from .bessel import near_zero, power_series

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


_STRUVE_ORDER = not_implemented(
    "derivative of a Struve function in the order v: no closed form, not implemented"
)
parametric_rule(sc.struve, _STRUVE_ORDER, _struve_slope)
parametric_rule(sc.modstruve, _STRUVE_ORDER, _modstruve_slope)

# ---- integrals of Struve functions -------------------------------------------------------

# H0(x)/x = sum_k (-1)^k x^(2k) / (2^(2k+1) gamma(k + 3/2)^2), 2/pi at 0.
_H0_OVER_X = tuple((-1) ** k / (2 ** (2 * k + 1) * math.gamma(k + 1.5) ** 2) for k in range(_TERMS))


def _h0_over_x(x: Any) -> Any:
    return near_zero(x, 1.0, _H0_OVER_X, lambda t: sc.struve(0, t) / t)


scalar_rule(sc.itstruve0, lambda x, y: sc.struve(0, x))
scalar_rule(sc.it2struve0, lambda x, y: -_h0_over_x(x))
scalar_rule(sc.itmodstruve0, lambda x, y: sc.modstruve(0, x))
