"""Accuracy of the exponential integrals', dilogarithm's, zeta's and elliptic derivatives.

Each row states the relative accuracy of the first and second derivative reached through
every engine route (``reference.measure``), against mpmath; the docs' accuracy table is built
from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _spence(z):
    return mpmath.polylog(2, 1 - z)


def _spence1(z):
    # log(z) / (1 - z), through log1p near 1 where the quotient is 0 / 0
    return -1 if z == 1 else mpmath.log(z) / (1 - z)


def _spence2(z):
    if z == 1:
        return mpmath.mpf(1) / 2
    return (1 / z) / (1 - z) + mpmath.log(z) / (1 - z) ** 2


def _extra_digits(m):
    # the closed forms cancel -log10|m| digits near m = 0
    return mpmath.workdps(mpmath.mp.dps + max(0, int(-mpmath.log10(abs(m)))) + 10)


def _ellipk1(m):
    if m == 0:
        return mpmath.pi / 8
    with _extra_digits(m):
        k, e = mpmath.ellipk(m), mpmath.ellipe(m)
        return +((e / (1 - m) - k) / (2 * m))


def _ellipe1(m):
    if m == 0:
        return -mpmath.pi / 8
    with _extra_digits(m):
        return +((mpmath.ellipe(m) - mpmath.ellipk(m)) / (2 * m))


def _ellipk2(m):
    if m == 0:
        return 9 * mpmath.pi / 64
    with _extra_digits(m):
        e, k1 = mpmath.ellipe(m), _ellipk1(m)
        e1 = _ellipe1(m)
        return +((e1 / (1 - m) + e / (1 - m) ** 2 - k1) / (2 * m) - k1 / m)


def _ellipe2(m):
    if m == 0:
        return -3 * mpmath.pi / 64
    with _extra_digits(m):
        e1, k1 = _ellipe1(m), _ellipk1(m)
        return +((e1 - k1) / (2 * m) - e1 / m)


ROWS = [
    Sweep(
        "scipy.special.spence",
        sc.spence,
        _spence,
        rtol=(2e-15, 3e-15),
        points=(1.0, 1 - 1e-8, 1 + 1e-8, 0.75, 1.25, 0.5, 2.0, 1e-300),
        ranges=((1e-300, 1e300),),
        mp1=_spence1,
        mp2=_spence2,
    ),
    Sweep(
        "scipy.special.expi",
        sc.expi,
        mpmath.ei,
        rtol=(2e-15, 3e-15),
        points=(1.0, -1.0, 0.3725074107813666, 700.0, 709.0, -700.0),
        ranges=((-700.0, -1e-300), (1e-300, 700.0)),
        per_decade=1,
        mp1=lambda x: mpmath.exp(x) / x,
        mp2=lambda x: mpmath.exp(x) * (x - 1) / x**2,
    ),
    Sweep(
        "scipy.special.exp1",
        sc.exp1,
        mpmath.e1,
        rtol=(2e-15, 2e-15),
        points=(1.0, 700.0, 740.0),
        ranges=((1e-300, 700.0),),
        per_decade=1,
        mp1=lambda x: -mpmath.exp(-x) / x,
        mp2=lambda x: mpmath.exp(-x) * (x + 1) / x**2,
    ),
    Sweep(
        "expn (in x, n = 2)",
        lambda x: sc.expn(2, x),
        lambda x: mpmath.expint(2, x),
        points=(1.0, 0.5, 700.0, 1e-300),
        ranges=((1e-300, 700.0),),
        per_decade=1,
        rtol=(2e-14, 2e-15),
        mp1=lambda x: -mpmath.expint(1, x),
        mp2=lambda x: mpmath.exp(-x) / x,
    ),
    Sweep(
        "zeta (in q, s = 2)",
        lambda q: sc.zeta(2.0, q),
        lambda q: mpmath.zeta(2, q),
        points=(1.0, 0.5, 2.0, 1e-300),
        ranges=((1e-300, 1e300),),
        per_decade=0.3,
        rtol=(3e-15, 6e-15),
        mp1=lambda q: -2 * mpmath.zeta(3, q),
        mp2=lambda q: 6 * mpmath.zeta(4, q),
    ),
    Sweep(
        "zeta (in s, q = 0.5)",
        lambda s: sc.zeta(s, 0.5),
        lambda s: mpmath.zeta(s, 0.5),
        points=(2.0, 1.5, 1 + 1e-8, 10.0),
        ranges=((1.01, 60.0),),
        per_decade=2,
        rtol=(4e-15, 3e-15),
        mp1=lambda s: mpmath.zeta(s, 0.5, 1),
        mp2=lambda s: mpmath.zeta(s, 0.5, 2),
    ),
    Sweep(
        "scipy.special.zetac",
        sc.zetac,
        lambda s: mpmath.zeta(s) - 1,
        rtol=(5e-13, 8e-13),
        why=(
            "The derivative in s is an Euler-Maclaurin sum (reflected for s < -1), a few hundred "
            "roundings."
        ),
        points=(0.0, 2.0, -2.0, 1 + 1e-8, 1 - 1e-8, 0.5, -1.0, -0.5, 10.0, 50.0),
        ranges=((1.001, 60.0),),
        per_decade=2,
        mp1=lambda s: mpmath.zeta(s, derivative=1),
        mp2=lambda s: mpmath.zeta(s, derivative=2),
    ),
    Sweep(
        "scipy.special.ellipk",
        sc.ellipk,
        mpmath.ellipk,
        rtol=(5e-15, 2e-14),
        points=(0.0, 0.25, 0.24999, -0.25, 0.5, -1.0, 1 - 1e-8, -1e10),
        ranges=((-1e300, -1e-300), (1e-300, 1 - 1e-16)),
        per_decade=0.2,
        mp1=_ellipk1,
        mp2=_ellipk2,
    ),
    Sweep(
        "scipy.special.ellipe",
        sc.ellipe,
        mpmath.ellipe,
        rtol=(6e-15, 7e-14),
        points=(0.0, 0.25, 0.24999, -0.25, 0.5, -1.0, 1 - 1e-8, -1e10),
        ranges=((-1e300, -1e-300), (1e-300, 1 - 1e-16)),
        per_decade=0.2,
        mp1=_ellipe1,
        mp2=_ellipe2,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
