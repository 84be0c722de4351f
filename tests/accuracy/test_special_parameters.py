"""Accuracy of the special functions' derivatives in their parameters, against mpmath.

Each row differentiates a function of one parameter (the others and the argument bound)
through the engines, first and second derivatives, and compares with mpmath's numerical
derivatives at 50 digits or more (``reference.measure``): at a few points per row, chosen where
the methods change (series, transformations, differential equation, recurrences, quadrature;
docs/special.md says which is used where). ``grid(row)`` spreads 9 points over each row's
interval: the grid docs/special.md states the measured worst errors over, which
``python tests/accuracy/test_special_parameters.py`` measures again (a few minutes). The
stated bounds are the worst measured over the points here, rounded up with a margin for other
CPUs and math libraries.
"""

from __future__ import annotations

from dataclasses import replace

import mpmath as M
import pytest
import scipy.special as sc
from reference import Sweep, failures, measure


def _bound(f, *before, after=()):
    """``f`` of one parameter, the arguments before and after it bound."""
    return lambda p: f(*before, p, *after)


def _wright(a, b, x, terms=80):
    x = M.mpf(x)
    return M.fsum(x**k / M.factorial(k) * M.rgamma(a * k + b) for k in range(terms))


def _besselpoly(a, lmb, nu, terms=60):
    a = M.mpf(a)
    term = lambda k: (-1) ** k * a ** (2 * k + nu) * M.rgamma(k + nu + 1) / M.factorial(k)
    return M.fsum(term(k) / (2 * k + nu + lmb + 1) for k in range(terms))


def _legendre(v, m, x):
    """P_v^m(x), -1 < x < 1, m >= 0, by mpmath's 2F1 (DLMF 14.3.1 differentiated m times)."""
    front = (1 - M.mpf(x) ** 2) ** (M.mpf(m) / 2) * M.rf(-v, m) * M.rf(v + 1, m)
    return front / (2**m * M.factorial(m)) * M.hyp2f1(m - v, m + v + 1, m + 1, (1 - M.mpf(x)) / 2)


def _row(name, f, mp, points, rtol):
    """A row whose derivatives are mpmath's numerical derivatives at 50 digits (25 digits or
    more here), not the reference's adaptive precision: mpmath's functions of a parameter are
    slow at the hundreds of digits it may climb to."""
    return Sweep(
        name,
        f,
        mp,
        points=points,
        rtol=rtol,
        mp1=lambda p: M.diff(mp, p),
        mp2=lambda p: M.diff(mp, p, 2),
    )


# (name, function of the parameter, mpmath's twin, points, first and second bounds)
ROWS = [
    # 2F1: the series (z = 0.3), Pfaff's side (z = -5), the differential equation (z = 0.95),
    # Gauss's sum (z = 1)
    _row(
        "hyp2f1 (in a, b = 1, c = 1.5, z = 0.3)",
        lambda a: sc.hyp2f1(a, 1.0, 1.5, 0.3),
        lambda a: M.hyp2f1(a, 1, 1.5, 0.3),
        (-2.5, 0.5, 3.0),
        (5e-15, 5e-15),
    ),
    _row(
        "hyp2f1 (in a, b = 1, c = 1.5, z = -5)",
        lambda a: sc.hyp2f1(a, 1.0, 1.5, -5.0),
        lambda a: M.hyp2f1(a, 1, 1.5, -5),
        (0.5, 2.0),
        (5e-12, 5e-12),
    ),
    _row(
        "hyp2f1 (in b, a = 0.5, c = 1.5, z = 0.95)",
        lambda b: sc.hyp2f1(0.5, b, 1.5, 0.95),
        lambda b: M.hyp2f1(0.5, b, 1.5, 0.95),
        (0.3, 1.0, 2.5),
        (1e-10, 1e-10),
    ),
    _row(
        "hyp2f1 (in c, a = 0.5, b = 0.5, z = 0.999)",
        lambda c: sc.hyp2f1(0.5, 0.5, c, 0.999),
        lambda c: M.hyp2f1(0.5, 0.5, c, 0.999),
        (1.0, 2.5),
        (1e-10, 1e-10),
    ),
    _row(
        "hyp2f1 (in c, a = 0.3, b = 0.6, z = 1)",
        lambda c: sc.hyp2f1(0.3, 0.6, c, 1.0),
        lambda c: M.hyp2f1(0.3, 0.6, c, 1),
        (1.5, 4.0),
        (1e-12, 1e-12),
    ),
    # 1F1: the series, Kummer's side
    _row(
        "hyp1f1 (in a, b = 1.5, x = 3)",
        lambda a: sc.hyp1f1(a, 1.5, 3.0),
        lambda a: M.hyp1f1(a, 1.5, 3),
        (-2.0, 0.5, 4.0),
        (5e-15, 5e-15),
    ),
    _row(
        "hyp1f1 (in b, a = 0.7, x = -12)",
        lambda b: sc.hyp1f1(0.7, b, -12.0),
        lambda b: M.hyp1f1(0.7, b, -12),
        (0.6, 2.2),
        (5e-15, 5e-15),
    ),
    # 0F1: the series, and J's order derivative below z = -30
    _row(
        "hyp0f1 (in v, z = 3)",
        lambda v: sc.hyp0f1(v, 3.0),
        lambda v: M.hyp0f1(v, 3),
        (0.5, 2.5),
        (5e-15, 5e-15),
    ),
    _row(
        "hyp0f1 (in v, z = -50)",
        lambda v: sc.hyp0f1(v, -50.0),
        lambda v: M.hyp0f1(v, -50),
        (0.5, 2.5),
        (1e-11, 1e-11),
    ),
    # U: the integral at a >= 1, the recurrence below
    _row(
        "hyperu (in a, b = 1.5, x = 1)",
        lambda a: sc.hyperu(a, 1.5, 1.0),
        lambda a: M.hyperu(a, 1.5, 1),
        (-2.5, 0.5, 3.0),
        (1e-12, 1e-12),
    ),
    _row(
        "hyperu (in b, a = 0.5, x = 0.3)",
        lambda b: sc.hyperu(0.5, b, 0.3),
        lambda b: M.hyperu(0.5, b, 0.3),
        (0.2, 2.5),
        (1e-12, 1e-12),
    ),
    _row(
        "wright_bessel (in a, b = 1, x = 2)",
        lambda a: sc.wright_bessel(a, 1.0, 2.0),
        lambda a: _wright(a, 1, 2),
        (0.2, 1.5),
        (1e-14, 1e-14),
    ),
    _row(
        "log_wright_bessel (in b, a = 0.5, x = 10)",
        lambda b: sc.log_wright_bessel(0.5, b, 10.0),
        lambda b: M.log(_wright(0.5, b, 10)),
        (0.5, 2.0),
        (1e-14, 5e-14),
    ),
    # Struve: the series (x <= 8), Y + K beyond; modified: the series
    _row(
        "struve (in v, x = 3)",
        lambda v: sc.struve(v, 3.0),
        lambda v: M.struveh(v, 3),
        (-1.7, 0.5, 2.5),
        (5e-14, 5e-14),
    ),
    _row(
        "struve (in v, x = 20)",
        lambda v: sc.struve(v, 20.0),
        lambda v: M.struveh(v, 20),
        (0.5, 2.5),
        (1e-12, 1e-12),
    ),
    _row(
        "modstruve (in v, x = 30)",
        lambda v: sc.modstruve(v, 30.0),
        lambda v: M.struvel(v, 30),
        (-0.7, 1.5),
        (2e-12, 2e-12),
    ),
    # Legendre: 2F1 at small degrees, the recurrence in the degree above
    _row(
        "lpmv (in v, m = 0, x = 0.3)",
        lambda v: sc.lpmv(0, v, 0.3),
        lambda v: _legendre(v, 0, 0.3),
        (0.5, 12.3),
        (1e-13, 1e-13),
    ),
    _row(
        "lpmv (in v, m = 2, x = -0.6)",
        lambda v: sc.lpmv(2, v, -0.6),
        lambda v: _legendre(v, 2, -0.6),
        (2.5, 7.2),
        (1e-10, 1e-10),
    ),
    _row(
        "besselpoly (in lmb, a = 2, nu = 1.5)",
        lambda lmb: sc.besselpoly(2.0, lmb, 1.5),
        lambda lmb: _besselpoly(2, lmb, 1.5),
        (0.0, 2.5),
        (5e-14, 5e-14),
    ),
    _row(
        "besselpoly (in nu, a = 2, lmb = 0.5)",
        lambda nu: sc.besselpoly(2.0, 0.5, nu),
        lambda nu: _besselpoly(2, 0.5, nu),
        (0.3, 2.5),
        (5e-14, 5e-14),
    ),
    # orthogonal polynomials: recurrences on jets; 2F1 and 1F1 at degrees not integers
    _row(
        "eval_jacobi (in alpha, n = 12, beta = 1.5, x = 0.3)",
        _bound(sc.eval_jacobi, 12, after=(1.5, 0.3)),
        lambda a: M.jacobi(12, a, 1.5, 0.3),
        (-0.4, 1.8),
        (2e-13, 2e-13),
    ),
    _row(
        "eval_jacobi (in beta, n = 2.5, alpha = 0.5, x = 0.3)",
        _bound(sc.eval_jacobi, 2.5, 0.5, after=(0.3,)),
        lambda b: M.jacobi(2.5, 0.5, b, 0.3),
        (0.5, 1.5),
        (2e-13, 2e-13),
    ),
    _row(
        "eval_gegenbauer (in alpha, n = 7, x = -0.6)",
        _bound(sc.eval_gegenbauer, 7, after=(-0.6,)),
        lambda a: M.gegenbauer(7, a, -0.6),
        (0.2, 1.8),
        (2e-12, 2e-12),
    ),
    _row(
        "eval_sh_jacobi (in p, n = 5, q = 0.7, x = 0.8)",
        _bound(sc.eval_sh_jacobi, 5, after=(0.7, 0.8)),
        lambda p: M.jacobi(5, p - 0.7, -0.3, 0.6) / M.binomial(9 + p, 5),
        (1.2, 3.0),
        (2e-13, 2e-13),
    ),
    _row(
        "eval_genlaguerre (in alpha, n = 4.7, x = 6)",
        _bound(sc.eval_genlaguerre, 4.7, after=(6.0,)),
        lambda a: M.laguerre(4.7, a, 6),
        (-0.4, 1.5),
        (5e-12, 5e-12),
    ),
    # Bessel orders (first derivatives over more points in test_special_bessel_order.py): the
    # series (x <= 4), quadrature beyond, Chebyshev interpolation at complex z (not here: a row
    # is a real function)
    _row(
        "jv (in v, x = 1)",
        lambda v: sc.jv(v, 1.0),
        lambda v: M.besselj(v, 1),
        (-1.7, 0.5, 2.5),
        (1e-12, 1e-12),
    ),
    _row(
        "yv (in v, x = 7)",
        lambda v: sc.yv(v, 7.0),
        lambda v: M.bessely(v, 7),
        (0.3, 2.5),
        (1e-11, 1e-11),
    ),
    _row(
        "kv (in v, x = 5)",
        lambda v: sc.kv(v, 5.0),
        lambda v: M.besselk(v, 5),
        (0.3, 2.5),
        (1e-11, 1e-11),
    ),
    # parabolic cylinder: D's integral (v < 0) and recurrence (v >= 0), V's and W's series
    _row(
        "pbdv (in v, x = 1.2)",
        lambda v: sc.pbdv(v, 1.2)[0],
        lambda v: M.pcfd(v, 1.2),
        (-1.7, 0.3, 3.5),
        (1e-12, 1e-12),
    ),
    _row(
        "pbdv (in v, x = -3)",
        lambda v: sc.pbdv(v, -3.0)[0],
        lambda v: M.pcfd(v, -3),
        (-0.5, 4.2),
        (1e-11, 1e-11),
    ),
    _row(
        "pbvv (in v, x = 2)",
        lambda v: sc.pbvv(v, 2.0)[0],
        lambda v: M.pcfv(-v - 0.5, 2),
        (-1.7, 2.5),
        (5e-13, 5e-13),
    ),
    _row(
        "pbwa (in a, x = 2.5)",
        lambda a: sc.pbwa(a, 2.5)[0],
        lambda a: M.pcfw(a, 2.5),
        (-1.7, 2.5),
        (1e-11, 1e-11),
    ),
]


def grid(row: Sweep, count: int = 9) -> Sweep:
    """``row`` at ``count`` points evenly spread between its first and last points: the grid
    docs/special.md states the measured worst errors over."""
    lo, hi = min(row.points), max(row.points)
    points = tuple(float(lo + (hi - lo) * k / (count - 1)) for k in range(count))
    return replace(row, points=points)


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_parameter_accuracy(row):
    assert failures(row) == []


if __name__ == "__main__":
    for row in ROWS:
        worst = measure(grid(row))
        print(
            f"{row.name}: first {worst.first:.1e} at {worst.first_at}, "
            f"second {worst.second:.1e} at {worst.second_at}"
        )
