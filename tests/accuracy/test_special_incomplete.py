"""Accuracy of the incomplete gamma and beta functions' derivatives against mpmath.

Rows in ``x`` with the shape parameters at representative values, and rows in the shape
parameters, first and second derivatives (both by quadrature): small (0.1) and large (50)
shapes, x near 0 and 1. Each row states the relative accuracy reached through every
engine route (``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _p(a, x):
    return mpmath.gammainc(a, 0, x, regularized=True)


def _q(a, x):
    return mpmath.gammainc(a, x, mpmath.inf, regularized=True)


def _gamma_density(a, x):
    return mpmath.exp((a - 1) * mpmath.log(x) - x - mpmath.loggamma(a))


def _beta_density(a, b, x):
    return x ** (a - 1) * (1 - x) ** (b - 1) / mpmath.beta(a, b)


def _gammainc_row(a, kind):
    sign = 1 if kind == "gammainc" else -1
    function = sc.gammainc if kind == "gammainc" else sc.gammaincc
    return Sweep(
        f"{kind} (in x, a = {a})",
        lambda x: function(a, x),
        (lambda x: _p(a, x)) if kind == "gammainc" else (lambda x: _q(a, x)),
        points=(a, 1.0, 0.5 * a, 2.0 * a, 1e-300),
        ranges=((1e-300, 1e300),),
        # the second derivative vanishes at the mode a - 1, where its error is relative to 0
        rtol=(3e-15, 6e-14),
        mp1=lambda x: sign * _gamma_density(a, x),
        mp2=lambda x: sign * _gamma_density(a, x) * ((a - 1) / x - 1),
    )


def _betainc_row(a, b):
    return Sweep(
        f"betainc (in x, a = {a}, b = {b})",
        lambda x: sc.betainc(a, b, x),
        lambda x: mpmath.betainc(a, b, 0, x, regularized=True),
        points=(0.5, 0.25, 0.75, 1e-300, 1 - 1e-16),
        ranges=((1e-300, 0.5), (0.5, 1 - 1e-16)),
        # the density underflows below 1e-35 for a = 10: errors there are floored at tiny
        rtol=(7e-15, 4e-13),
        mp1=lambda x: _beta_density(a, b, x),
        mp2=lambda x: _beta_density(a, b, x) * ((a - 1) / x - (b - 1) / (1 - x)),
    )


ROWS = [
    _gammainc_row(0.5, "gammainc"),
    _gammainc_row(3.0, "gammainc"),
    _gammainc_row(100.0, "gammainc"),
    _gammainc_row(0.5, "gammaincc"),
    _gammainc_row(3.0, "gammaincc"),
    _betainc_row(2.0, 3.0),
    _betainc_row(0.5, 0.5),
    _betainc_row(10.0, 1.5),
]

# In the shape parameters: first derivatives by quadrature at relative tolerance 1e-12, second
# derivatives by quadratures of the log-moments given the tail, recorded through their own rule.
# The quadrature's own tolerance bounds the first; the second adds the rounding of the tail
# times (slope**2 + curvature of its logarithm). Measured: below 3e-13 on these rows.
_SHAPE_RTOL = (1e-12, 1e-11)
_WHY = "by quadrature (relative tolerance 1e-12)"


def _betainc_shape_row(which, fixed, x, points):
    name = "a" if which == 0 else "b"
    other = "b" if which == 0 else "a"

    def f(s):
        return sc.betainc(s, fixed, x) if which == 0 else sc.betainc(fixed, s, x)

    def mp(s):
        a, b = (s, fixed) if which == 0 else (fixed, s)
        return mpmath.betainc(a, b, 0, x, regularized=True)

    return Sweep(
        f"betainc (in {name}, {other} = {fixed}, x = {x})",
        f,
        mp,
        points=points,
        rtol=_SHAPE_RTOL,
        why=_WHY,
    )


PARAMETER_ROWS = [
    Sweep(
        "gammainc (in a, x = 2)",
        lambda a: sc.gammainc(a, 2.0),
        lambda a: _p(a, 2),
        points=(0.1, 0.5, 1.0, 2.0, 3.0, 10.0, 50.0),
        rtol=_SHAPE_RTOL,
        why=_WHY,
    ),
    Sweep(
        "gammaincc (in a, x = 8)",
        lambda a: sc.gammaincc(a, 8.0),
        lambda a: _q(a, 8),
        points=(0.1, 1.0, 5.0),
        rtol=_SHAPE_RTOL,
        why=_WHY,
    ),
    _betainc_shape_row(0, 3.0, 0.4, (0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0)),
    _betainc_shape_row(1, 2.0, 0.4, (0.1, 0.5, 1.0, 2.0, 5.0, 20.0, 50.0)),
    _betainc_shape_row(0, 0.5, 0.999, (0.1, 2.0, 50.0)),
    _betainc_shape_row(1, 0.1, 1e-3, (0.1, 2.0, 50.0)),
    _betainc_shape_row(0, 50.0, 1e-3, (0.1, 2.0)),
]


@pytest.mark.parametrize("row", ROWS + PARAMETER_ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
