"""Accuracy of the derivatives of the integrals of Bessel functions in x, against mpmath.

``it2j0y0`` and ``it2i0k0`` have ``(1 - J0(x))/x`` and ``(I0(x) - 1)/x`` as derivatives, with
a removable singularity at 0 where the subtraction cancels: the rules take their power
series for |x| < 2, and mpmath's references are the same functions as 1F2 series,
``x/4 1F2(1; 2, 2; -+x^2/4)``, free of the cancellation.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

# Both sides of |x| = 2, where the series hands over to the quotient.
POINTS = (0.0, 1e-300, 1e-30, 1e-8, 0.01, 0.5, 1.0, 1.999, 2.0, 2.001, 5.0, 20.0, 100.0)
NEGATIVE = (-1e-8, -0.5, -1.999, -2.001, -5.0)
POSITIVE_POINTS = tuple(x for x in POINTS if x > 0)


def _output(f, k):
    return lambda x: f(x)[k]


def _removable(sign):
    """(1 -+ J0)/x or (I0 - 1)/x and its derivative as 1F2 series (sign -1 for J, +1 for I)."""

    def first(x):
        return x / 4 * mpmath.hyp1f2(1, 2, 2, sign * x**2 / 4)

    def second(x):
        z = sign * x**2 / 4
        return mpmath.hyp1f2(1, 2, 2, z) / 4 + sign * x**2 / 32 * mpmath.hyp1f2(2, 3, 3, z)

    return first, second


def _row(name, f, mp1, mp2, points, ranges, rtol=(1e-13, 1e-12), why=""):
    return Sweep(
        name,
        f,
        None,
        points=points,
        ranges=ranges,
        per_decade=0.05,
        mp1=mp1,
        mp2=mp2,
        rtol=rtol,
        why=why,
    )


J_FIRST, J_SECOND = _removable(-1)
I_FIRST, I_SECOND = _removable(1)
UP_TO_J = ((1e-300, 1e3),)
# SciPy's j0, j1, y0, y1 lose relative accuracy like 1e-16 x (test_special_bessel.py).
J_RTOL = (1e-12, 1e-12)
J_WHY = "SciPy's own J0, Y0 are good to ~1e-16 x"
UP_TO_I = ((1e-300, 700.0),)
B = mpmath

ROWS = [
    _row(
        "itj0y0 (integral of J0)",
        _output(sc.itj0y0, 0),
        lambda x: B.besselj(0, x),
        lambda x: -B.besselj(1, x),
        (*POINTS, *NEGATIVE),
        UP_TO_J,
        J_RTOL,
        J_WHY,
    ),
    _row(
        "itj0y0 (integral of Y0)",
        _output(sc.itj0y0, 1),
        lambda x: B.bessely(0, x),
        lambda x: -B.bessely(1, x),
        POSITIVE_POINTS,
        UP_TO_J,
        J_RTOL,
        J_WHY,
    ),
    _row(
        "it2j0y0 (integral of (1 - J0)/t)",
        _output(sc.it2j0y0, 0),
        J_FIRST,
        J_SECOND,
        (*POINTS, *NEGATIVE),
        UP_TO_J,
        J_RTOL,
        J_WHY,
    ),
    _row(
        "it2j0y0 (integral of Y0/t)",
        _output(sc.it2j0y0, 1),
        lambda x: -B.bessely(0, x) / x,
        lambda x: B.bessely(1, x) / x + B.bessely(0, x) / x**2,
        POSITIVE_POINTS,
        UP_TO_J,
        J_RTOL,
        J_WHY,
    ),
    _row(
        "iti0k0 (integral of I0)",
        _output(sc.iti0k0, 0),
        lambda x: B.besseli(0, x),
        lambda x: B.besseli(1, x),
        (*POINTS, *NEGATIVE),
        UP_TO_I,
    ),
    _row(
        "iti0k0 (integral of K0)",
        _output(sc.iti0k0, 1),
        lambda x: B.besselk(0, x),
        lambda x: -B.besselk(1, x),
        POSITIVE_POINTS,
        UP_TO_I,
    ),
    _row(
        "it2i0k0 (integral of (I0 - 1)/t)",
        _output(sc.it2i0k0, 0),
        I_FIRST,
        I_SECOND,
        (*POINTS, *NEGATIVE),
        UP_TO_I,
    ),
    _row(
        "it2i0k0 (integral of K0/t)",
        _output(sc.it2i0k0, 1),
        lambda x: -B.besselk(0, x) / x,
        lambda x: B.besselk(1, x) / x + B.besselk(0, x) / x**2,
        POSITIVE_POINTS,
        UP_TO_I,
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_bessel_integral_accuracy(row):
    assert failures(row) == []
