"""Accuracy of the logistic and entropy functions' derivatives against mpmath.

Each row states the relative accuracy of the first and second derivative reached through
every engine route (``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

WIDE = ((-1e300, -1e-300), (1e-300, 1e300))


def _expit(x):
    return 1 / (1 + mpmath.exp(-x))


def _expit1(x):
    return _expit(x) * _expit(-x)


def _expit2(x):
    # expit(-x) - expit(x) = -tanh(x/2), which does not cancel at tiny x
    return -_expit1(x) * mpmath.tanh(x / 2)


ROWS = [
    Sweep(
        "scipy.special.expit",
        sc.expit,
        _expit,
        rtol=(3e-15, 4e-15),
        points=(0.0, 1.0, -1.0, 36.0, 40.0, 700.0, 709.0, 745.0, -40.0, -745.0),
        ranges=WIDE,
        mp1=_expit1,
        mp2=_expit2,
    ),
    Sweep(
        "scipy.special.log_expit",
        sc.log_expit,
        lambda x: -mpmath.log1p(mpmath.exp(-x)),
        rtol=(2e-15, 3e-15),
        points=(0.0, 1.0, -1.0, 40.0, 745.0, -40.0, -745.0),
        ranges=WIDE,
        mp1=lambda x: _expit(-x),
        mp2=lambda x: -_expit1(x),
    ),
    Sweep(
        "scipy.special.softplus",
        sc.softplus,
        lambda x: mpmath.log1p(mpmath.exp(x)),
        rtol=(2e-15, 2e-15),
        points=(0.0, 1.0, -1.0, 40.0, 745.0, -40.0, -745.0),
        ranges=WIDE,
        mp1=_expit,
        mp2=lambda x: _expit(x) * _expit(-x),
    ),
    Sweep(
        "scipy.special.logit",
        sc.logit,
        lambda p: mpmath.log(p / (1 - p)),
        rtol=(2e-15, 2e-15),
        points=(0.5, 0.25, 0.75, 1e-300, 1 - 1e-16, 1 - 2**-53, 0.5 + 2**-53),
        ranges=((1e-300, 1 - 1e-16),),
        mp1=lambda p: 1 / (p * (1 - p)),
        mp2=lambda p: (2 * p - 1) / (p * (1 - p)) ** 2,
    ),
    Sweep(
        "scipy.special.entr",
        sc.entr,
        lambda x: -x * mpmath.log(x),
        rtol=(2e-15, 1e-15),
        points=(1.0, 0.5, 2.0),  # not 1/e, the derivative's zero
        ranges=((1e-300, 1e300),),
        mp1=lambda x: -mpmath.log(x) - 1,
        mp2=lambda x: -1 / x,
    ),
    Sweep(
        "xlogy (in y, x = 1.5)",
        lambda y: sc.xlogy(1.5, y),
        lambda y: 1.5 * mpmath.log(y),
        rtol=(2e-15, 2e-15),
        points=(1.0, 0.5, 2.0),
        ranges=((1e-300, 1e300),),
        mp1=lambda y: 1.5 / y,
        mp2=lambda y: -1.5 / y**2,
    ),
    Sweep(
        "xlogy (in x, y = 3)",
        lambda x: sc.xlogy(x, 3.0),
        lambda x: x * mpmath.log(3),
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0),
        ranges=WIDE,
        mp1=lambda x: mpmath.log(3),
        mp2=lambda x: 0,
    ),
    Sweep(
        "xlog1py (in y, x = 1.5)",
        lambda y: sc.xlog1py(1.5, y),
        lambda y: 1.5 * mpmath.log1p(y),
        rtol=(2e-15, 3e-15),
        points=(0.0, -0.5, 1.0, -1 + 1e-16),
        ranges=((-1 + 1e-16, -1e-300), (1e-300, 1e300)),
        mp1=lambda y: 1.5 / (1 + y),
        mp2=lambda y: -1.5 / (1 + y) ** 2,
    ),
    Sweep(
        "rel_entr (in x, y = 0.5)",
        lambda x: sc.rel_entr(x, 0.5),
        lambda x: x * mpmath.log(x / 0.5),
        rtol=(2e-15, 1e-15),
        points=(0.5, 1.0, 2.0),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: mpmath.log(2 * x) + 1,
        mp2=lambda x: 1 / x,
    ),
    Sweep(
        "rel_entr (in y, x = 0.5)",
        lambda y: sc.rel_entr(0.5, y),
        lambda y: 0.5 * mpmath.log(0.5 / y),
        rtol=(1e-15, 2e-15),
        points=(0.5, 1.0, 2.0),
        ranges=((1e-300, 1e300),),
        mp1=lambda y: -0.5 / y,
        mp2=lambda y: 0.5 / y**2,
    ),
    Sweep(
        "kl_div (in x, y = 0.5)",
        lambda x: sc.kl_div(x, 0.5),
        lambda x: x * mpmath.log(x / 0.5) - x + 0.5,
        rtol=(2e-15, 1e-15),
        points=(0.5, 1.0, 2.0),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: mpmath.log(2 * x),
        mp2=lambda x: 1 / x,
    ),
    Sweep(
        "boxcox (in x, lmbda = 0.5)",
        lambda x: sc.boxcox(x, 0.5),
        lambda x: (mpmath.sqrt(x) - 1) / 0.5,
        rtol=(2e-15, 2e-15),
        points=(1.0, 0.5, 2.0),
        ranges=((1e-300, 1e300),),
        per_decade=0.2,
        mp1=lambda x: 1 / mpmath.sqrt(x),
        mp2=lambda x: -0.5 * x**-1.5,
    ),
    Sweep(
        "boxcox (in lmbda, x = 2)",
        lambda lmbda: sc.boxcox(2.0, lmbda),
        lambda lmbda: mpmath.expm1(lmbda * mpmath.log(2)) / lmbda if lmbda else mpmath.log(2),
        rtol=(2e-14, 2e-14),
        points=(0.0, 1e-10, -1e-10, 0.5, 1.0, -1.0),
        ranges=((-100.0, -1e-300), (1e-300, 100.0)),
        per_decade=0.2,
    ),
    Sweep(
        "boxcox1p (in x, lmbda = 0.5)",
        lambda x: sc.boxcox1p(x, 0.5),
        lambda x: (mpmath.sqrt(1 + x) - 1) / 0.5,
        rtol=(2e-15, 2e-15),
        points=(0.0, 0.5, -0.5, -1 + 1e-16),
        ranges=((-1 + 1e-16, -1e-300), (1e-300, 1e300)),
        per_decade=0.2,
        mp1=lambda x: 1 / mpmath.sqrt(1 + x),
        mp2=lambda x: -0.5 * (1 + x) ** -1.5,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
