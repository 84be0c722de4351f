"""Accuracy of the Kolmogorov-Smirnov distribution functions' derivatives, against mpmath.

``smirnov``'s ``n`` is an integer (no tangent) at representative values; each row states the
relative accuracy of the first and second derivative reached through every engine route
(``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _kolmogorov(x):
    # 1 - K(x): the alternating series for large x, Jacobi's transform of it for small x
    if x > 1:
        return 2 * mpmath.nsum(
            lambda k: (-1) ** (k - 1) * mpmath.exp(-2 * k * k * x * x), [1, mpmath.inf]
        )
    inner = mpmath.nsum(
        lambda k: mpmath.exp(-((2 * k - 1) ** 2) * mpmath.pi**2 / (8 * x * x)), [1, mpmath.inf]
    )
    return 1 - mpmath.sqrt(2 * mpmath.pi) / x * inner


def _smirnov(n, d):
    # the exact one-sided survival function (Birnbaum and Tingey), a finite sum
    total = 0
    for j in range(int(mpmath.floor(n * (1 - d))) + 1):
        total += (
            mpmath.binomial(n, j)
            * (1 - d - mpmath.mpf(j) / n) ** (n - j)
            * (d + mpmath.mpf(j) / n) ** (j - 1)
        )
    return d * total


def _smirnov_slope(n, d):
    # the derivative of _smirnov's sum term by term: its j = 0 term is (1 - d)^n, and each
    # other's derivative is factored so that nothing cancels at tiny d (the sum's 1/d parts do,
    # 300 digits at d = 1e-300, which mpmath.diff found by raising its precision: 11x the time);
    # the sum stops where 1 - d - j/n reaches 0, decided without forming 1 - d
    total = -n * (1 - d) ** (n - 1)
    for j in range(1, n):
        if n - j <= n * d:
            break
        a, b = mpmath.mpf(n - j) / n - d, d + mpmath.mpf(j) / n
        total += (
            mpmath.binomial(n, j)
            * a ** (n - j - 1)
            * b ** (j - 2)
            * (a * b - d * (n - j) * b + d * (j - 1) * a)
        )
    return total


SMIRNOV_SECOND = (
    "SciPy's smirnov density _smirnovp has no derivative rule: the second derivative raises "
    "NoRuleError."
)


def _kolmogorov_derivative(x, order):
    # the two series differentiated term by term; 40 terms are exact to 50 digits for x >= 1e-3
    if x > 1:
        terms = (
            (-1) ** (k - 1)
            * mpmath.diff(lambda t, k=k: 2 * mpmath.exp(-2 * k * k * t * t), x, order)
            for k in range(1, 41)
        )
        return mpmath.fsum(terms)

    def jacobi(k):
        a = (2 * k - 1) ** 2 * mpmath.pi**2 / 8
        return -mpmath.sqrt(2 * mpmath.pi) * mpmath.diff(
            lambda t: mpmath.exp(-a / (t * t)) / t, x, order
        )

    return mpmath.fsum(jacobi(k) for k in range(1, 41))


ROWS = [
    Sweep(
        "kolmogorov (in x)",
        sc.kolmogorov,
        _kolmogorov,
        points=(1.0, 0.5, 0.1, 2.0, 5.0),
        ranges=((1e-3, 30.0),),
        per_decade=3,
        rtol=(4e-13, 4e-13),
        mp1=lambda x: _kolmogorov_derivative(x, 1),
        mp2=lambda x: _kolmogorov_derivative(x, 2),
    ),
    Sweep(
        "smirnov (in d, n = 5)",
        lambda d: sc.smirnov(5, d),
        lambda d: _smirnov(5, d),
        mp1=lambda d: _smirnov_slope(5, d),
        points=(0.1, 0.3, 0.5, 0.7, 0.9, 0.99),
        ranges=((1e-300, 0.19),),
        per_decade=0.3,
        order=1,
        why=SMIRNOV_SECOND,
    ),
    Sweep(
        "smirnov (in d, n = 100)",
        lambda d: sc.smirnov(100, d),
        lambda d: _smirnov(100, d),
        mp1=lambda d: _smirnov_slope(100, d),
        points=(0.1, 0.3, 0.5, 0.7, 0.9),
        ranges=((1e-300, 0.0095),),
        per_decade=0.3,
        order=1,
        why=SMIRNOV_SECOND,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
