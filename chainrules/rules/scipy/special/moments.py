"""Means and covariances under an unnormalized density, by quadrature.

An integral ``I(p) = int w(t) exp(sum_i p_i g_i(t)) dt`` whose parameters enter its integrand
in an exponent (``t^(a-1)`` is ``exp((a - 1) log t)``) has the derivatives
``d log I / dp_i = E[g_i]`` and ``d2 log I / dp_i dp_j = Cov[g_i, g_j]`` under the density
proportional to the integrand: the shape derivatives of ``gammainc`` and ``betainc``, of
``hyperu`` and of the Struve functions are such moments. The covariances integrate products
of centred functions, so that a spread small beside the mean (a narrow tail far from 1) is not
the difference of two close numbers.

>>> import numpy as np
>>> total, means, covariances = moments(lambda t: np.exp(-t), (lambda t: t,), ((0, np.inf),), True)
>>> round(total, 12), [round(m, 12) for m in means], [round(c, 12) for c in covariances]
(1.0, [1.0], [1.0])
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["moments"]

_QUAD = {"epsabs": 0.0, "epsrel": 1e-12, "limit": 200}


def moments(
    weight: Callable[[Any], Any],
    gs: Sequence[Callable[[Any], Any]],
    pieces: Sequence[tuple[float, float]],
    second: bool,
) -> tuple[float, list[float], list[float]]:
    """The integral of the unnormalized density ``weight`` over the intervals ``pieces``
    (``(lo, hi)``, ends may be infinite), the means of each ``g`` under it, and, when
    ``second``, their covariances (upper triangle, row by row), by adaptive quadrature
    (relative tolerance 1e-12). Where the quadrature finds no mass (an integral of 0, the
    weight's peak far narrower than the interval: ``gammainc`` at a = x = 1e8), the means and
    covariances are NaN."""

    from scipy.integrate import quad as adaptive  # loaded when first needed (bessel_order._quad)

    def quad(h: Callable[[Any], Any]) -> float:
        return sum(adaptive(h, lo, hi, **_QUAD)[0] for lo, hi in pieces)

    def moment(g: Callable[[Any], Any]) -> float:
        return quad(lambda t: weight(t) * g(t)) / den

    def covariance(i: int, j: int) -> float:
        return quad(lambda t: weight(t) * (gs[i](t) - means[i]) * (gs[j](t) - means[j])) / den

    den = quad(weight)
    n = len(gs)
    if not 0 < den < math.inf:  # no mass found: a peak too narrow for the quadrature to meet
        return den, [math.nan] * n, [math.nan] * (n * (n + 1) // 2 if second else 0)
    means = [moment(g) for g in gs]
    if not second:
        return den, means, []
    return den, means, [covariance(i, j) for i in range(n) for j in range(i, n)]
