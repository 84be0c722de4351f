"""Accuracy of the distribution functions' derivatives in their argument, against mpmath.

Shape parameters at representative values; each row states the relative accuracy of the
first and second derivative reached through every engine route (``reference.measure``); the
docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _gamma_density(a, x):
    return mpmath.exp((a - 1) * mpmath.log(x) - x - mpmath.loggamma(a))


def _student(df, t):
    return (
        mpmath.gamma((df + 1) / 2)
        / (mpmath.sqrt(df * mpmath.pi) * mpmath.gamma(df / 2))
        * (1 + t * t / df) ** (-(df + 1) / 2)
    )


def _f_density(n, d, x):
    return mpmath.exp(
        n / 2 * mpmath.log(n / d * x) - mpmath.log(x) - (n + d) / 2 * mpmath.log1p(n / d * x)
    ) / mpmath.beta(n / 2, d / 2)


def _f_slope(n, d, x):
    # the logarithmic derivative of the F density
    return (n / 2 - 1) / x - (n + d) / 2 * n / (d + n * x)


def _poisson_term(k, m):
    return mpmath.exp(k * mpmath.log(m) - m - mpmath.loggamma(k + 1))


def _tukey_cdf(lmbda, x):
    # the root of Q(F) = x, Q(p) = (p**l - (1 - p)**l) / l, at 50 digits
    if x * lmbda >= 1:
        return mpmath.mpf(1)
    if x * lmbda <= -1:
        return mpmath.mpf(0)

    def quantile(p):
        return (p**lmbda - (1 - p) ** lmbda) / lmbda - x

    return mpmath.findroot(
        quantile, (mpmath.mpf(10) ** -60, 1 - mpmath.mpf(10) ** -60), solver="anderson"
    )


def _tukey_d1(lmbda, x):
    if abs(x * lmbda) >= 1:
        return mpmath.mpf(0)
    p = _tukey_cdf(lmbda, x)
    return 1 / (p ** (lmbda - 1) + (1 - p) ** (lmbda - 1))


def _tukey_d2(lmbda, x):
    if abs(x * lmbda) >= 1:
        return mpmath.mpf(0)
    p = _tukey_cdf(lmbda, x)
    slope = p ** (lmbda - 1) + (1 - p) ** (lmbda - 1)
    return -(lmbda - 1) * (p ** (lmbda - 2) - (1 - p) ** (lmbda - 2)) / slope**3


def _logistic_d1(x):
    e = mpmath.exp(-abs(x))
    return e / (1 + e) ** 2


def _logistic_d2(x):
    e = mpmath.exp(-abs(x))
    return -mpmath.sign(x) * e * (1 - e) / (1 + e) ** 3


BASIC = [
    Sweep(
        "chdtr (in x, v = 3)",
        lambda x: sc.chdtr(3.0, x),
        lambda x: mpmath.gammainc(1.5, 0, x / 2, regularized=True),
        rtol=(3e-15, 3e-15),
        points=(3.0, 2.0, 1e-300),
        skip=(1.0,),  # the mode, where the second derivative is 0
        ranges=((1e-300, 1e300),),
        mp1=lambda x: _gamma_density(1.5, x / 2) / 2,
        mp2=lambda x: _gamma_density(1.5, x / 2) / 4 * (0.5 / (x / 2) - 1),
    ),
    Sweep(
        "gdtr (in x, a = 2, b = 3)",
        lambda x: sc.gdtr(2.0, 3.0, x),
        lambda x: mpmath.gammainc(3, 0, 2 * x, regularized=True),
        # the second derivative vanishes at the mode x = 1, where its error is relative to 0
        rtol=(3e-15, 3e-14),
        points=(1.0, 0.5, 1e-300),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: 2 * _gamma_density(3, 2 * x),
        mp2=lambda x: 4 * _gamma_density(3, 2 * x) * (2 / (2 * x) - 1),
    ),
    Sweep(
        "stdtr (in t, df = 3)",
        lambda t: sc.stdtr(3.0, t),
        lambda t: (
            1 - mpmath.betainc(1.5, 0.5, 0, 3 / (3 + t * t), regularized=True) / 2
            if t > 0
            else mpmath.betainc(1.5, 0.5, 0, 3 / (3 + t * t), regularized=True) / 2
        ),
        rtol=(2e-13, 2e-13),
        why=(
            "Beyond |t| = 1e15 the density exp(-(df + 1)/2 log1p(t**2/df)) amplifies rounding "
            "in log space and its second derivative fails (t**2 overflows): not swept there."
        ),
        points=(0.0, 1.0, -1.0),
        ranges=((-1e15, -1e-300), (1e-300, 1e15)),
        per_decade=0.3,
        mp1=lambda t: _student(3, t),
        mp2=lambda t: -_student(3, t) * 4 * t / (3 + t * t),
    ),
]

# the second derivative is computed from F - 1/2, which SciPy's rounded F gives only to an
# absolute 1e-16: relative accuracy is lost for |x| below 1e-3 (a known gap, see the report)
TUKEY_CENTRE = (
    "Second derivative inaccurate for 0 < |x| < 1e-3 (it comes from F - 1/2, rounded in F): "
    "not swept there."
)
MORE = [
    Sweep(
        "fdtr (in x, dfn = 3, dfd = 5)",
        lambda x: sc.fdtr(3.0, 5.0, x),
        lambda x: mpmath.betainc(1.5, 2.5, 0, 3 * x / (3 * x + 5), regularized=True),
        points=(1.0, 0.5, 1e-300),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: _f_density(3, 5, x),
        mp2=lambda x: _f_density(3, 5, x) * _f_slope(3, 5, x),
        # the density's log-space form cancels xlogy terms of size 100s at huge x: 8.7e-14
        rtol=(1e-12, 1e-12),
    ),
    Sweep(
        "fdtrc (in x, dfn = 3, dfd = 5)",
        lambda x: sc.fdtrc(3.0, 5.0, x),
        lambda x: mpmath.betainc(2.5, 1.5, 0, 5 / (3 * x + 5), regularized=True),
        points=(1.0, 0.5, 1e-300),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: -_f_density(3, 5, x),
        mp2=lambda x: -_f_density(3, 5, x) * _f_slope(3, 5, x),
        rtol=(1e-12, 1e-12),
    ),
    Sweep(
        "pdtr (in m, k = 2)",
        lambda m: sc.pdtr(2.0, m),
        lambda m: mpmath.gammainc(3, m, regularized=True),
        points=(1.0, 2.0, 3.0),
        skip=(2.0,),
        ranges=((1e-300, 1e300),),
        mp1=lambda m: -_poisson_term(2, m),
        mp2=lambda m: -_poisson_term(2, m) * (2 / m - 1),
        rtol=(2e-15, 2e-15),
    ),
    Sweep(
        "pdtrc (in m, k = 2)",
        lambda m: sc.pdtrc(2.0, m),
        lambda m: mpmath.gammainc(3, 0, m, regularized=True),
        points=(1.0, 3.0),
        ranges=((1e-300, 1e300),),
        mp1=lambda m: _poisson_term(2, m),
        mp2=lambda m: _poisson_term(2, m) * (2 / m - 1),
        rtol=(2e-15, 2e-15),
    ),
    Sweep(
        "tklmbda (in x, lmbda = 0)",
        lambda x: sc.tklmbda(x, 0.0),
        lambda x: 1 / (1 + mpmath.exp(-x)),
        points=(0.0, 1.0, -1.0),
        ranges=((-1e300, -1e-3), (1e-3, 1e300)),
        per_decade=0.3,
        rtol=(1e-14, 2e-12),
        why=TUKEY_CENTRE,
        mp1=_logistic_d1,
        mp2=_logistic_d2,
    ),
    Sweep(
        "tklmbda (in x, lmbda = 0.5)",
        lambda x: sc.tklmbda(x, 0.5),
        lambda x: _tukey_cdf(0.5, x),
        points=(0.0, 1.0, -1.0, 1.999, -1.999, 3.0, -3.0),
        ranges=((-1.99, -1e-3), (1e-3, 1.99)),
        per_decade=0.3,
        # SciPy's tklmbda itself is accurate to 3e-9 at x = -1.999 (the density follows it)
        rtol=(2e-8, 1e-10),
        why=TUKEY_CENTRE + " Near the end of the support SciPy's value is accurate to 3e-9.",
        mp1=lambda x: _tukey_d1(0.5, x),
        mp2=lambda x: _tukey_d2(0.5, x),
    ),
]

ROWS = BASIC + MORE


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
