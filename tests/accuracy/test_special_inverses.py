"""Accuracy of the inverse distribution functions' derivatives in the probability, against mpmath.

Each inverse ``x(p)`` solves ``F(x) = p``; its reference derivatives are those of the inverse
of mpmath's ``F``: the root ``x*`` of ``F(x) = p`` at 50 digits (from SciPy's result), then
``1 / F'(x*)`` and ``-F''(x*) / F'(x*)**3``. So an inaccurate SciPy root shows as an error of
the derivative. Other arguments at representative values, a few probabilities each (the
inverses are costly to evaluate); where the solved-for argument is a shape parameter, the
rule's partials are quadratures, not differentiable again, and the second derivative is not
checked. Each row states the relative accuracy reached through every engine route
(``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from reference import Sweep, exact_derivative, failures

from chainrules.engines import reverse

PROBABILITIES = (1e-10, 0.01, 0.3, 0.5, 0.9, 0.999)
QUADRATURE = "The rule's partial in the solved-for shape parameter is a quadrature (thunked)."


def _root(forward, inverse, p):
    return mpmath.findroot(lambda x: forward(x) - p, mpmath.mpf(float(inverse(float(p)))))


def _d1(forward, inverse):
    def first(p):
        return 1 / exact_derivative(forward, _root(forward, inverse, p), 1)

    return first


def _d2(forward, inverse):
    def second(p):
        x = _root(forward, inverse, p)
        return -exact_derivative(forward, x, 2) / exact_derivative(forward, x, 1) ** 3

    return second


def _row(name, inverse, forward, order, points=PROBABILITIES, rtol=(1e-12, 1e-11), why=""):
    return Sweep(
        name,
        inverse,
        lambda p: _root(forward, inverse, p),
        points=points,
        order=order,
        rtol=rtol,
        mp1=_d1(forward, inverse),
        mp2=_d2(forward, inverse),
        why=why or ("" if order == 2 else QUADRATURE),
    )


def _betainc(a, b, x):
    return mpmath.betainc(a, b, 0, x, regularized=True)


def _gammainc(a, x):
    return mpmath.gammainc(a, 0, x, regularized=True)


def _gammaincc(a, x):
    return mpmath.gammainc(a, x, mpmath.inf, regularized=True)


ROWS = [
    # in the argument of the law: the solved partial is a density, differentiable again
    _row(
        "gdtrix (in p, a = 2, b = 3)",
        lambda p: sc.gdtrix(2.0, 3.0, p),
        lambda x: _gammainc(3, 2 * x),
        2,
    ),
    _row("chdtri (in p, v = 3)", lambda p: sc.chdtri(3.0, p), lambda x: _gammaincc(1.5, x / 2), 2),
    _row("pdtri (in p, k = 2)", lambda p: sc.pdtri(2, p), lambda m: _gammaincc(3, m), 2),
    _row(
        "fdtri (in p, dfn = 3, dfd = 5)",
        lambda p: sc.fdtri(3.0, 5.0, p),
        lambda x: _betainc(1.5, 2.5, 3 * x / (3 * x + 5)),
        2,
        # SciPy 1.16's fdtri is accurate only to about 1e-7 at p = 1e-10 (1.17's to 1e-12): the
        # derivative at its result inherits that; the bound holds on every supported SciPy
        rtol=(1e-6, 1e-6),
    ),
    _row(
        "stdtrit (in p, df = 3)",
        lambda p: sc.stdtrit(3.0, p),
        lambda t: (
            1 - _betainc(1.5, 0.5, 3 / (3 + t * t)) / 2
            if t > 0
            else _betainc(1.5, 0.5, 3 / (3 + t * t)) / 2
        ),
        2,
        rtol=(1e-9, 1e-9),  # SciPy 1.16's stdtrit: 7e-11 at p = 0.01
        # at p = 1/2 the second derivative is exactly 0, and SciPy 1.16's stdtrit(3, 0.5) is not
        # exactly 0: the relative error there would measure the rounding of t = 0
        points=tuple(p for p in PROBABILITIES if p != 0.5),
    ),
    _row(
        "bdtri (in y, k = 3, n = 10)",
        lambda y: sc.bdtri(3, 10, y),
        lambda p: _betainc(7, 4, 1 - p),
        2,
    ),
    _row(
        "nbdtri (in y, k = 3, n = 5)", lambda y: sc.nbdtri(3, 5, y), lambda p: _betainc(5, 4, p), 2
    ),
    _row(
        "kolmogi (in p)", sc.kolmogi, lambda x: 1 - mpmath.jtheta(4, 0, mpmath.exp(-2 * x * x)), 2
    ),
    # in a shape parameter or a count: the solved partial is a quadrature
    _row(
        "gdtria (in p, b = 3, x = 2)",
        lambda p: sc.gdtria(p, 3.0, 2.0),
        lambda a: _gammainc(3, 2 * a),
        1,
    ),
    _row(
        "gdtrib (in p, a = 2, x = 2)",
        lambda p: sc.gdtrib(2.0, p, 2.0),
        lambda b: _gammainc(b, 4),
        1,
    ),
    _row(
        "chdtriv (in p, x = 2)",
        lambda p: sc.chdtriv(p, 2.0),
        lambda v: _gammainc(v / 2, 1),
        1,
        rtol=(5e-10, 5e-10),  # SciPy 1.16's chdtriv: 3e-11 at p = 1e-10
    ),
    _row(
        "pdtrik (in p, m = 3)",
        lambda p: sc.pdtrik(p, 3.0),
        lambda k: _gammaincc(k + 1, 3),
        1,
        points=(0.1, 0.3, 0.5, 0.9, 0.999),  # below pdtr(0, 3) = 0.0498 there is no solution
        rtol=(5e-10, 5e-10),  # SciPy 1.16's pdtrik: 5e-11 at p = 0.9
    ),
    _row(
        "btdtria (in p, b = 3, x = 0.4)",
        lambda p: sc.btdtria(p, 3.0, 0.4),
        lambda a: _betainc(a, 3, 0.4),
        1,
        rtol=(5e-10, 5e-10),  # SciPy 1.16's btdtria: 4e-11
    ),
    _row(
        "btdtrib (in p, a = 2, x = 0.4)",
        lambda p: sc.btdtrib(2.0, p, 0.4),
        lambda b: _betainc(2, b, 0.4),
        1,
        rtol=(1e-10, 1e-10),  # SciPy 1.16's btdtrib: 5e-12
    ),
    _row(
        "bdtrik (in y, n = 10, p = 0.3)",
        lambda y: sc.bdtrik(y, 10.0, 0.3),
        lambda k: _betainc(10 - k, k + 1, 0.7),
        1,
        points=(0.05, 0.3, 0.5, 0.9, 0.999),  # below bdtr(0, 10, 0.3) = 0.028, no solution
        rtol=(1e-9, 0),
        why=QUADRATURE + " It reaches 8e-11 (at y = 0.999), the accuracy of the quadrature.",
    ),
    _row(
        "bdtrin (in y, k = 3, p = 0.3)",
        lambda y: sc.bdtrin(3.0, y, 0.3),
        lambda n: _betainc(n - 3, 4, 0.7),
        1,
        rtol=(4e-9, 0),
        why=QUADRATURE + " It reaches 4e-10 (at y = 1e-10), the accuracy of the quadrature.",
    ),
    _row(
        "nbdtrik (in y, n = 5, p = 0.6)",
        lambda y: sc.nbdtrik(y, 5.0, 0.6),
        lambda k: _betainc(5, k + 1, 0.6),
        1,
        points=(0.1, 0.3, 0.5, 0.9, 0.999),  # below nbdtr(0, 5, 0.6) = 0.078, no solution
        rtol=(1e-10, 0),
    ),
    _row(
        "nbdtrin (in y, k = 3, p = 0.6)",
        lambda y: sc.nbdtrin(3.0, y, 0.6),
        lambda n: _betainc(n, 4, 0.6),
        1,
    ),
    _row(
        "fdtridfd (in p, dfn = 3, x = 1.5)",
        lambda p: sc.fdtridfd(3.0, p, 1.5),
        lambda d: _betainc(1.5, d / 2, 4.5 / (4.5 + d)),
        1,
        # beyond fdtr(3, inf, 1.5) = chdtr(3, 4.5) = 0.788 there is no solution
        points=(1e-10, 0.01, 0.3, 0.5, 0.7),
        rtol=(3e-5, 0),
        why=QUADRATURE
        + " At p = 1e-10 (dfd = 7.5e-12) the quadrature of betainc's derivative in b is"
        + " accurate to 2e-6.",
    ),
    _row(
        "stdtridf (in p, t = 1.5)",
        lambda p: sc.stdtridf(p, 1.5),
        lambda df: 1 - _betainc(df / 2, 0.5, df / (df + 2.25)) / 2,
        1,
        points=(0.8, 0.9, 0.92),
        rtol=(1e-11, 0),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []


# Where SciPy's result is not a solution (no solution in its search range: it returns an end
# of the range or a sentinel), every derivative is NaN, not a number of no meaning.
NO_SOLUTION = [
    ("pdtrik", lambda p: sc.pdtrik(p, 3.0), 0.01),  # pdtr(0, 3) = 0.0498 > p: k = 0 returned
    ("bdtrik", lambda y: sc.bdtrik(y, 10.0, 0.3), 0.01),
    ("nbdtrik", lambda y: sc.nbdtrik(y, 5.0, 0.6), 0.01),
    ("fdtridfd", lambda p: sc.fdtridfd(3.0, p, 1.5), 0.9),  # dfd = 1e100 returned
]


@pytest.mark.parametrize(("name", "inverse", "p"), NO_SOLUTION, ids=[n for n, *_ in NO_SOLUTION])
def test_no_solution_is_nan(name, inverse, p):
    assert np.isnan(float(reverse.grad(inverse)(p)))


def test_end_of_domain_is_infinite():
    # gdtrix(a, b, 0) = 0, where the density vanishes (b > 1): dx/dp is infinite
    assert float(reverse.grad(lambda p: sc.gdtrix(2.0, 3.0, p))(0.0)) == np.inf
