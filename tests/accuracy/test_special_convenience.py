"""Accuracy of SciPy's convenience functions' derivatives against mpmath.

Each row states the relative accuracy of the first and second derivative reached through
every engine route (``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

WIDE = ((-1e300, -1e-300), (1e-300, 1e300))


def _cbrt(x):
    return mpmath.sign(x) * mpmath.cbrt(abs(x))


def _exprel(x):
    return mpmath.expm1(x) / x if x else mpmath.mpf(1)


def _lambertw1(z):
    w = mpmath.lambertw(z)
    return 1 / (mpmath.exp(w) * (1 + w))


def _lambertw2(z):
    w = mpmath.lambertw(z)
    return -(_lambertw1(z) ** 2) * (2 + w) / (1 + w)


def _omega(x):
    if x < 600:
        return mpmath.lambertw(mpmath.exp(x))
    # W(exp(x)) without exp(x): w = x - log(w), a contraction for large x
    w = x
    for _ in range(60):
        w = x - mpmath.log(w)
    return w


ROWS = [
    Sweep(
        "scipy.special.expm1",
        sc.expm1,
        mpmath.expm1,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 709.0, -745.0),
        ranges=((-1e300, -1e-300), (1e-300, 709.0)),
        mp1=mpmath.exp,
        mp2=mpmath.exp,
    ),
    Sweep(
        "scipy.special.log1p",
        sc.log1p,
        mpmath.log1p,
        rtol=(2e-15, 3e-15),
        points=(0.0, 1.0, -0.5, -1 + 1e-16),
        ranges=((-1 + 1e-16, -1e-300), (1e-300, 1e300)),
        mp1=lambda x: 1 / (1 + x),
        mp2=lambda x: -1 / (1 + x) ** 2,
    ),
    Sweep(
        "scipy.special.cosm1",
        sc.cosm1,
        lambda x: mpmath.cos(x) - 1,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 3.141592653589793),
        ranges=((-1e3, -1e-300), (1e-300, 1e3)),
        mp1=lambda x: -mpmath.sin(x),
        mp2=lambda x: -mpmath.cos(x),
    ),
    Sweep(
        "scipy.special.exprel",
        sc.exprel,
        _exprel,
        rtol=(3e-15, 2e-14),
        points=(0.0, 0.5, -0.5, 0.49999, 1.0, 700.0),
        ranges=((-700.0, -1e-300), (1e-300, 700.0)),
        per_decade=0.3,
    ),
    Sweep(
        "scipy.special.cbrt",
        sc.cbrt,
        _cbrt,
        rtol=(4e-15, 1e-14),
        points=(1.0, -1.0, 8.0),
        ranges=WIDE,
        mp1=lambda x: _cbrt(x) / (3 * x),
        mp2=lambda x: -2 * _cbrt(x) / (9 * x * x),
    ),
    Sweep(
        "scipy.special.exp2",
        sc.exp2,
        lambda x: mpmath.mpf(2) ** x,
        rtol=(2e-15, 3e-15),
        points=(0.0, 1.0, -1.0, 1023.0, -1074.0),
        ranges=((-1074.0, -1e-300), (1e-300, 1023.0)),
        mp1=lambda x: mpmath.mpf(2) ** x * mpmath.log(2),
        mp2=lambda x: mpmath.mpf(2) ** x * mpmath.log(2) ** 2,
    ),
    Sweep(
        "scipy.special.exp10",
        sc.exp10,
        lambda x: mpmath.mpf(10) ** x,
        rtol=(2e-15, 4e-15),
        points=(0.0, 1.0, -1.0, 300.0, -300.0),
        ranges=((-300.0, -1e-300), (1e-300, 300.0)),
        mp1=lambda x: mpmath.mpf(10) ** x * mpmath.log(10),
        mp2=lambda x: mpmath.mpf(10) ** x * mpmath.log(10) ** 2,
    ),
    Sweep(
        "scipy.special.sindg",
        sc.sindg,
        lambda x: mpmath.sin(mpmath.radians(x)),
        rtol=(2e-15, 3e-15),
        points=(0.0, 90.0, 180.0, 45.0, -90.0),
        ranges=((-1e4, -1e-300), (1e-300, 1e4)),
        per_decade=0.3,
    ),
    Sweep(
        "scipy.special.cosdg",
        sc.cosdg,
        lambda x: mpmath.cos(mpmath.radians(x)),
        rtol=(2e-15, 3e-15),
        points=(0.0, 90.0, 180.0, 45.0, -90.0),
        ranges=((-1e4, -1e-300), (1e-300, 1e4)),
        per_decade=0.3,
    ),
    Sweep(
        "scipy.special.lambertw (branch 0)",
        lambda z: sc.lambertw(z).real,
        mpmath.lambertw,
        rtol=(6e-13, 6e-13),
        why=(
            "W' = 1 / (exp(W) (1 + W)) amplifies W's rounding W-fold (up to 700) at huge z. "
            "SciPy's lambertw itself loses accuracy near the branch point -1/e (1 + W is 19% "
            "off at the nearest float), so the sweep stops at -0.36."
        ),
        points=(0.0, 1.0, -0.36, -0.2, 1e300),
        ranges=((-0.36, -1e-300), (1e-300, 1e300)),
        per_decade=0.5,
        mp1=_lambertw1,
        mp2=_lambertw2,
    ),
    Sweep(
        "scipy.special.wrightomega",
        sc.wrightomega,
        _omega,
        rtol=(2e-15, 4e-15),
        points=(0.0, 1.0, -1.0, -700.0, 700.0),
        ranges=((-700.0, -1e-300), (1e-300, 1e300)),
        per_decade=0.5,
        mp1=lambda x: _omega(x) / (1 + _omega(x)),
        mp2=lambda x: _omega(x) / (1 + _omega(x)) ** 3,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
