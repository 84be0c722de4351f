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


ROWS = [
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


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
