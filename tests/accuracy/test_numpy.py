"""Accuracy of NumPy's elementwise derivatives against mpmath: hard points and whole ranges.

One ``Sweep`` row per function and differentiable argument (the other bound at a
representative value), with mpmath's derivatives in closed form (exact at 50 digits, and fast
at huge arguments). Every route of the engines is checked: reverse, forward, and the second
derivative by reverse-over-reverse and forward-over-reverse.

Each row's stated ``rtol`` is its worst error measured over the row, times 10 and rounded up
(at least 1e-15): a few units in the last place, with a margin for other CPUs and libms.
"""

import math

import mpmath
import numpy as np
import pytest
from reference import Sweep, failures

# Both signs over the whole float range, or the positive half.
FULL = ((-1e300, -1e-300), (1e-300, 1e300))
POSITIVE = ((1e-300, 1e300),)
# The floats next to 1 and -1 (inside (-1, 1)), and the smallest normal float.
BELOW_ONE = 1 - 2.0**-53
ABOVE_ONE = 1 + 2.0**-52
TINY = 2.2250738585072014e-308
# Sparse in the swept ranges (every 10 decades); the hard points are listed one by one.
SPARSE = 0.1


def _inf_or(value):
    """``value()``, or +inf where mpmath divides by zero (a derivative at a pole, sqrt'(0))."""
    try:
        return value()
    except ZeroDivisionError:
        return mpmath.inf


def _sinc1(x):
    """sinc'(x), by its series near 0, where the closed form cancels even at 50 digits."""
    if abs(x) < mpmath.mpf("1e-3"):
        return sum(
            (-1) ** k
            * 2
            * k
            * mpmath.pi ** (2 * k)
            * x ** (2 * k - 1)
            / mpmath.factorial(2 * k + 1)
            for k in range(1, 12)
        )
    return (mpmath.cospi(x) - mpmath.sincpi(x)) / x


def _sinc2(x):
    if abs(x) < mpmath.mpf("1e-3"):
        return sum(
            (-1) ** k
            * 2
            * k
            * (2 * k - 1)
            * mpmath.pi ** (2 * k)
            * x ** (2 * k - 2)
            / mpmath.factorial(2 * k + 1)
            for k in range(1, 12)
        )
    return -mpmath.pi * mpmath.sinpi(x) / x - 2 * _sinc1(x) / x


def _sigmoid(x):
    return 1 / (1 + mpmath.exp(-x))


LN2 = mpmath.log(2)
LN10 = mpmath.log(10)

EXPONENTIALS = [
    Sweep(
        "numpy.exp",
        np.exp,
        mpmath.exp,
        rtol=(2e-15, 2e-15),
        points=(0.0, 1.0, -1.0, 709.0, 709.78, 710.0, -708.0, -745.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.exp,
        mp2=mpmath.exp,
    ),
    Sweep(
        "numpy.exp2",
        np.exp2,
        lambda x: 2**x,
        rtol=(2e-15, 2e-15),
        points=(0.0, 1.0, -1.0, 1023.5, 1024.0, -1022.0, -1074.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 2**x * LN2,
        mp2=lambda x: 2**x * LN2**2,
    ),
    Sweep(
        "numpy.expm1",
        np.expm1,
        mpmath.expm1,
        rtol=(2e-15, 2e-15),
        points=(0.0, 1e-10, -1e-10, 1.0, -1.0, -37.0, -40.0, -50.0, -800.0, 709.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.exp,
        mp2=mpmath.exp,
    ),
    Sweep(
        "numpy.log",
        np.log,
        mpmath.log,
        rtol=(2e-15, 3e-15),
        points=(1.0, ABOVE_ONE, BELOW_ONE, TINY, 1.7976931348623157e308),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / x,
        mp2=lambda x: -1 / x**2,
    ),
    Sweep(
        "numpy.log2",
        np.log2,
        lambda x: mpmath.log(x, 2),
        rtol=(2e-15, 2e-15),
        points=(1.0, 2.0, TINY, 1.7976931348623157e308),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (x * LN2),
        mp2=lambda x: -1 / (x**2 * LN2),
    ),
    Sweep(
        "numpy.log10",
        np.log10,
        mpmath.log10,
        rtol=(2e-15, 3e-15),
        points=(1.0, 10.0, TINY, 1.7976931348623157e308),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (x * LN10),
        mp2=lambda x: -1 / (x**2 * LN10),
    ),
    Sweep(
        "numpy.log1p",
        np.log1p,
        mpmath.log1p,
        rtol=(2e-15, 3e-15),
        points=(0.0, -1 + 2.0**-52, -1 + 1e-8, -0.5, 1.0),
        ranges=((-BELOW_ONE, -1e-300), (1e-300, 1e300)),
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 + x),
        mp2=lambda x: -1 / (1 + x) ** 2,
    ),
]

POWERS = [
    Sweep(
        "numpy.sqrt",
        np.sqrt,
        mpmath.sqrt,
        rtol=(2e-15, 5e-15),
        points=(0.0, 1.0, TINY, 1.7976931348623157e308),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: _inf_or(lambda: 1 / (2 * mpmath.sqrt(x))),
        mp2=lambda x: -_inf_or(lambda: 1 / (4 * x * mpmath.sqrt(x))),
    ),
    Sweep(
        "numpy.cbrt",
        np.cbrt,
        mpmath.cbrt,
        rtol=(4e-15, 9e-15),
        points=(1.0, -1.0, TINY, -TINY, 1.7976931348623157e308),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: abs(x) ** (-mpmath.mpf(2) / 3) / 3,
        mp2=lambda x: -2 * mpmath.sign(x) * abs(x) ** (-mpmath.mpf(5) / 3) / 9,
    ),
    Sweep(
        "numpy.square",
        np.square,
        lambda x: x * x,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 1e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 2 * x,
        mp2=lambda x: mpmath.mpf(2),
    ),
    Sweep(
        "numpy.reciprocal",
        np.reciprocal,
        lambda x: 1 / x,
        rtol=(3e-15, 4e-15),
        points=(1.0, -1.0, 1e-154, 1e-155, 1e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -1 / x**2,
        mp2=lambda x: 2 / x**3,
    ),
]

TRIGONOMETRIC = [
    Sweep(
        "numpy.sin",
        np.sin,
        mpmath.sin,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.cos,
        mp2=lambda x: -mpmath.sin(x),
    ),
    Sweep(
        "numpy.cos",
        np.cos,
        mpmath.cos,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -mpmath.sin(x),
        mp2=lambda x: -mpmath.cos(x),
    ),
    Sweep(
        "numpy.tan",
        np.tan,
        mpmath.tan,
        rtol=(2e-15, 4e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, -math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.cos(x) ** 2,
        mp2=lambda x: 2 * mpmath.tan(x) / mpmath.cos(x) ** 2,
    ),
    Sweep(
        "numpy.arcsin",
        np.arcsin,
        mpmath.asin,
        rtol=(2e-15, 3e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=((-BELOW_ONE, -1e-300), (1e-300, BELOW_ONE)),
        per_decade=SPARSE,
        mp1=lambda x: _inf_or(lambda: 1 / mpmath.sqrt(1 - x * x)),
        mp2=lambda x: mpmath.sign(x) * _inf_or(lambda: abs(x) / (1 - x * x) ** 1.5),
    ),
    Sweep(
        "numpy.arccos",
        np.arccos,
        mpmath.acos,
        rtol=(2e-15, 3e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=((-BELOW_ONE, -1e-300), (1e-300, BELOW_ONE)),
        per_decade=SPARSE,
        mp1=lambda x: -_inf_or(lambda: 1 / mpmath.sqrt(1 - x * x)),
        mp2=lambda x: -mpmath.sign(x) * _inf_or(lambda: abs(x) / (1 - x * x) ** 1.5),
    ),
    Sweep(
        "numpy.arctan",
        np.arctan,
        mpmath.atan,
        rtol=(3e-15, 4e-15),
        points=(0.0, 1.0, -1.0, 1.5e154, 1e155, 1e200),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 + x * x),
        mp2=lambda x: -2 * x / (1 + x * x) ** 2,
    ),
]

HYPERBOLIC = [
    Sweep(
        "numpy.sinh",
        np.sinh,
        mpmath.sinh,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 710.0, 711.0, -711.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.cosh,
        mp2=mpmath.sinh,
    ),
    Sweep(
        "numpy.cosh",
        np.cosh,
        mpmath.cosh,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 710.0, 711.0, -711.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.sinh,
        mp2=mpmath.cosh,
    ),
    Sweep(
        "numpy.tanh",
        np.tanh,
        mpmath.tanh,
        rtol=(5e-15, 9e-15),
        points=(0.0, 1.0, -1.0, 5.0, 19.0, 20.0, -20.0, 40.0, 354.0, 355.0, 356.0, 360.0, 700.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.cosh(x) ** 2,
        mp2=lambda x: -2 * mpmath.tanh(x) / mpmath.cosh(x) ** 2,
    ),
    Sweep(
        "numpy.arcsinh",
        np.arcsinh,
        mpmath.asinh,
        rtol=(1e-15, 3e-15),
        points=(0.0, 1.0, -1.0, 1e154, 1e155, -1e200),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.sqrt(1 + x * x),
        mp2=lambda x: -x / (1 + x * x) ** 1.5,
    ),
    Sweep(
        "numpy.arccosh",
        np.arccosh,
        mpmath.acosh,
        rtol=(3e-15, 7e-15),
        points=(ABOVE_ONE, 1 + 1e-8, 2.0, 1e154, 1e155),
        ranges=((ABOVE_ONE, 1e300),),
        per_decade=SPARSE,
        mp1=lambda x: _inf_or(lambda: 1 / mpmath.sqrt(x * x - 1)),
        mp2=lambda x: -_inf_or(lambda: x / (x * x - 1) ** 1.5),
    ),
    Sweep(
        "numpy.arctanh",
        np.arctanh,
        mpmath.atanh,
        rtol=(1e-15, 1e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=((-BELOW_ONE, -1e-300), (1e-300, BELOW_ONE)),
        per_decade=SPARSE,
        mp1=lambda x: _inf_or(lambda: 1 / (1 - x * x)),
        mp2=lambda x: mpmath.sign(x) * _inf_or(lambda: 2 * abs(x) / (1 - x * x) ** 2),
    ),
]

LINEAR_AND_SPECIAL = [
    *(
        Sweep(
            f"numpy.{f.__name__}",
            f,
            lambda x, c=c: c * x,
            points=(0.0, 1.0, -1.0),
            ranges=FULL,
            per_decade=0.1,
            rtol=(1e-15, 1e-15),
            mp1=lambda x, c=c: c,
            mp2=lambda x: mpmath.mpf(0),
        )
        for f, c in [
            (np.deg2rad, mpmath.pi / 180),
            (np.radians, mpmath.pi / 180),
            (np.rad2deg, 180 / mpmath.pi),
            (np.degrees, 180 / mpmath.pi),
            (np.negative, mpmath.mpf(-1)),
            (np.positive, mpmath.mpf(1)),
        ]
    ),
    *(
        Sweep(
            f"numpy.{f.__name__}",
            f,
            abs,
            points=(1.0, -1.0, TINY, -TINY),
            ranges=FULL,
            per_decade=0.1,
            rtol=(1e-15, 1e-15),
            mp1=mpmath.sign,
            mp2=lambda x: mpmath.mpf(0),
            why="0 is left out: abs is not differentiable there (its subgradient there is 0)",
        )
        for f in (np.abs, np.fabs)
    ),
    Sweep(
        "numpy.sinc",
        np.sinc,
        mpmath.sincpi,
        rtol=(2e-15, 9e-15),
        points=(
            *(0.0, 1e-9, -1e-9, 1e-5, 0.1, 0.25, 0.3999, 0.4, 0.4001, -0.4, 0.5, 0.75, 1.0, -1.0),
            *(1.5, 2.0, 3.0, 10.25, 1e10 + 0.5, 2.0**52 + 1, 2.0**53, 1e300, -1e300),
        ),
        ranges=FULL,
        mp1=_sinc1,
        mp2=_sinc2,
        per_decade=SPARSE,
    ),
    Sweep(
        "numpy.i0",
        np.i0,
        lambda x: mpmath.besseli(0, x),
        rtol=(5e-15, 9e-15),
        points=(0.0, 1.0, -1.0, 700.0, 709.0),
        ranges=((-709.0, -1e-300), (1e-300, 709.0)),
        per_decade=SPARSE,
        mp1=lambda x: mpmath.besseli(1, x),
        mp2=lambda x: mpmath.besseli(0, x) - (mpmath.besseli(1, x) / x if x else mpmath.mpf(0.5)),
        why="swept to 709: beyond, numpy.i0 itself overflows (exp(x) times a series), as"
        " scipy's i1 does, though I0 and I1 are finite up to 713.9",
    ),
]

UNARY = EXPONENTIALS + POWERS + TRIGONOMETRIC + HYPERBOLIC + LINEAR_AND_SPECIAL


def _power_rows(power):
    """x**p in the base (p fixed: fractional, negative, integral) and in the exponent."""
    name = f"numpy.{power.__name__}"
    rows = [
        Sweep(
            f"{name} (in x, p = {p})",
            lambda x, p=p: power(x, p),
            lambda x, p=p: x**p,
            points=(1.0, TINY, 1.7976931348623157e308, *((-1.0, -2.5) if p == 3.0 else ())),
            ranges=FULL if p == 3.0 else POSITIVE,
            per_decade=SPARSE,
            rtol=(3e-15, 5e-15),
            mp1=lambda x, p=p: p * x ** (p - 1),
            mp2=lambda x, p=p: p * (p - 1) * x ** (p - 2),
        )
        for p in (2.5, -1.5, 3.0)
    ]
    rows += [
        Sweep(
            f"{name} (in p, x = {x})",
            lambda p, x=x: power(x, p),
            lambda p, x=x: mpmath.mpf(x) ** p,
            points=(0.0, 1.0, -1.0, 700.0, 1e3, -1e3),
            ranges=((-1e5, -1e-300), (1e-300, 1e5)),
            per_decade=SPARSE,
            rtol=(2e-15, 3e-15),
            mp1=lambda p, x=x: mpmath.mpf(x) ** p * mpmath.log(x),
            mp2=lambda p, x=x: mpmath.mpf(x) ** p * mpmath.log(x) ** 2,
            why="swept to |p| = 1e5: beyond 1100, x**p and its derivatives are 0 or inf",
        )
        for x in (2.5, 0.5)
    ]
    return rows


BINARY = [
    *_power_rows(np.power),
    *_power_rows(np.float_power),
    Sweep(
        "numpy.divide (in x1, x2 = 1.5)",
        lambda x: np.divide(x, 1.5),
        lambda x: x / mpmath.mpf(1.5),
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0),
        ranges=FULL,
        per_decade=0.1,
        mp1=lambda x: 1 / mpmath.mpf(1.5),
        mp2=lambda x: mpmath.mpf(0),
    ),
    Sweep(
        "numpy.divide (in x2, x1 = 1.5)",
        lambda x: np.divide(1.5, x),
        lambda x: mpmath.mpf(1.5) / x,
        rtol=(2e-15, 2e-15),
        points=(1.0, -1.0, 1e-154, 1e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -1.5 / x**2,
        mp2=lambda x: 3 / x**3,
    ),
    Sweep(
        "numpy.arctan2 (in x1, x2 = 1)",
        lambda x: np.arctan2(x, 1.0),
        lambda x: mpmath.atan2(x, 1),
        rtol=(1e-14, 1e-14),
        points=(0.0, 1.0, -1.0, 1.5e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 + x * x),
        mp2=lambda x: -2 * x / (1 + x * x) ** 2,
    ),
    Sweep(
        "numpy.arctan2 (in x2, x1 = 1)",
        lambda x: np.arctan2(1.0, x),
        lambda x: mpmath.atan2(1, x),
        rtol=(1e-14, 1e-14),
        points=(0.0, 1.0, -1.0, 1.5e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -1 / (1 + x * x),
        mp2=lambda x: 2 * x / (1 + x * x) ** 2,
    ),
    Sweep(
        "numpy.hypot (in x1, x2 = 1)",
        lambda x: np.hypot(x, 1.0),
        lambda x: mpmath.hypot(x, 1),
        rtol=(1e-14, 1e-14),
        points=(0.0, 1.0, -1.0, 1e8, 1e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: x / mpmath.sqrt(1 + x * x),
        mp2=lambda x: 1 / (1 + x * x) ** 1.5,
    ),
    Sweep(
        "numpy.logaddexp (in x1, x2 = 0)",
        lambda x: np.logaddexp(x, 0.0),
        lambda x: mpmath.log(1 + mpmath.exp(x)),
        rtol=(1e-14, 1e-14),
        points=(0.0, 1.0, -1.0, 20.0, 37.0, 40.0, 700.0, -745.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=_sigmoid,
        mp2=lambda x: _sigmoid(x) * _sigmoid(-x),
    ),
    Sweep(
        "numpy.logaddexp2 (in x1, x2 = 0)",
        lambda x: np.logaddexp2(x, 0.0),
        lambda x: mpmath.log(1 + 2**x, 2),
        # (x1 - x2) ln 2 is rounded: its relative error, |x| ln 2 eps, is 8e-14 at 1000
        rtol=(1e-15, 5e-13),
        points=(0.0, 1.0, -1.0, 20.0, 54.0, 60.0, 1000.0, -1074.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: _sigmoid(x * LN2),
        mp2=lambda x: LN2 * _sigmoid(x * LN2) * _sigmoid(-x * LN2),
    ),
    Sweep(
        "numpy.ldexp (in x1, x2 = 3)",
        lambda x: np.ldexp(x, 3),
        lambda x: 8 * x,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0),
        ranges=FULL,
        per_decade=0.1,
        mp1=lambda x: mpmath.mpf(8),
        mp2=lambda x: mpmath.mpf(0),
    ),
]

ROWS = UNARY + BINARY

# The sweeps reach the overflow and underflow of every function on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
