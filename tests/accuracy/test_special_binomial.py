"""Accuracy of the binomial distribution functions' derivatives in p, against mpmath.

The counts ``k`` and ``n`` are integers (no tangent) at representative values; each row states
the relative accuracy of the first and second derivative reached through every engine route
(``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _beta_density(a, b, p):
    return mpmath.exp(
        (a - 1) * mpmath.log(p) + (b - 1) * mpmath.log1p(-p) - mpmath.log(mpmath.beta(a, b))
    )


def _beta_slope(a, b, p):
    # the logarithmic derivative of the beta density
    return (a - 1) / p - (b - 1) / (1 - p)


def _row(name, f, mp, a, b, sign, points):
    return Sweep(
        name,
        f,
        mp,
        points=points,
        ranges=((1e-300, 0.5), (0.5, 1 - 1e-15)),
        mp1=lambda p: sign * _beta_density(a, b, p),
        mp2=lambda p: sign * _beta_density(a, b, p) * _beta_slope(a, b, p),
        # the second derivative reaches 1.9e-13 where it is subnormal (p = 7e-159)
        rtol=(1e-12, 2e-12),
    )


# the mode of p**3 (1 - p)**6, where the second derivative is 0, is p = 1/3
POINTS = (0.5, 0.25, 1e-300, 1 - 1e-8, 0.999)
ROWS = [
    _row(
        "bdtr (in p, k = 3, n = 10)",
        lambda p: sc.bdtr(3, 10, p),
        lambda p: mpmath.betainc(7, 4, 0, 1 - p, regularized=True),
        4,
        7,
        -1,
        POINTS,
    ),
    _row(
        "bdtrc (in p, k = 3, n = 10)",
        lambda p: sc.bdtrc(3, 10, p),
        lambda p: mpmath.betainc(4, 7, 0, p, regularized=True),
        4,
        7,
        1,
        POINTS,
    ),
    _row(
        "nbdtr (in p, k = 3, n = 5)",
        lambda p: sc.nbdtr(3, 5, p),
        lambda p: mpmath.betainc(5, 4, 0, p, regularized=True),
        5,
        4,
        1,
        POINTS,
    ),
    _row(
        "nbdtrc (in p, k = 3, n = 5)",
        lambda p: sc.nbdtrc(3, 5, p),
        lambda p: mpmath.betainc(5, 4, p, 1, regularized=True),
        5,
        4,
        -1,
        POINTS,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
