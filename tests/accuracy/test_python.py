"""Accuracy of the derivatives of Python's math functions and operators against mpmath.

One ``Sweep`` row per function and differentiable argument (the other bound at a
representative value), with mpmath's derivatives in closed form. ``math`` raises
OverflowError where a result overflows (``math.exp(710)``) and ValueError outside a domain,
so the ranges stop there; NumPy's functions, which return inf instead, are swept to 1e300 in
``test_numpy.py``. The functions are applied through ``call``, as a user applies a routine
that cannot take an engine's tracked values: their rules then serve every engine and order.

Each row's stated ``rtol`` is its worst error measured over the row, times 10 and rounded up
(at least 1e-15): a few units in the last place, with a margin for other CPUs and libms.
"""

import math
import operator

import mpmath
import pytest
from reference import Sweep, failures

from chainrules.core.calls import call

FULL = ((-1e300, -1e-300), (1e-300, 1e300))
POSITIVE = ((1e-300, 1e300),)
BELOW_ONE = 1 - 2.0**-53
ABOVE_ONE = 1 + 2.0**-52
TINY = 2.2250738585072014e-308
HUGE = 1.7976931348623157e308
SPARSE = 0.1
INSIDE_ONE = ((-BELOW_ONE, -1e-300), (1e-300, BELOW_ONE))
OVERFLOWS = "the range stops where math raises OverflowError"


def _inf_or(value):
    """``value()``, or +inf where mpmath divides by zero (a derivative at a pole)."""
    try:
        return value()
    except ZeroDivisionError:
        return mpmath.inf


LN2 = mpmath.log(2)
LN10 = mpmath.log(10)
ZERO = mpmath.mpf(0)

EXPONENTIALS = [
    Sweep(
        "math.exp",
        lambda x: call(math.exp, x),
        mpmath.exp,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 709.78, -708.0, -745.0),
        ranges=((-1e300, -1e-300), (1e-300, 709.0)),
        per_decade=SPARSE,
        mp1=mpmath.exp,
        mp2=mpmath.exp,
        why=OVERFLOWS,
    ),
    Sweep(
        "math.exp2",
        lambda x: call(math.exp2, x),
        lambda x: 2**x,
        rtol=(2e-15, 2e-15),
        points=(0.0, 1.0, -1.0, 1023.9, -1022.0, -1074.0),
        ranges=((-1e300, -1e-300), (1e-300, 1023.0)),
        per_decade=SPARSE,
        mp1=lambda x: 2**x * LN2,
        mp2=lambda x: 2**x * LN2**2,
        why=OVERFLOWS,
    ),
    Sweep(
        "math.expm1",
        lambda x: call(math.expm1, x),
        mpmath.expm1,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1e-10, -1e-10, 1.0, -1.0, -37.0, -40.0, -50.0, -800.0, 709.0),
        ranges=((-1e300, -1e-300), (1e-300, 709.0)),
        per_decade=SPARSE,
        mp1=mpmath.exp,
        mp2=mpmath.exp,
        why=OVERFLOWS,
    ),
    Sweep(
        "math.log",
        lambda x: call(math.log, x),
        mpmath.log,
        rtol=(2e-15, 3e-15),
        points=(1.0, ABOVE_ONE, BELOW_ONE, TINY, HUGE),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / x,
        mp2=lambda x: -1 / x**2,
    ),
    Sweep(
        "math.log (in x, base 10)",
        lambda x: call(math.log, x, 10.0),
        mpmath.log10,
        rtol=(2e-15, 3e-15),
        points=(1.0, 10.0, TINY, HUGE),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (x * LN10),
        mp2=lambda x: -1 / (x**2 * LN10),
    ),
    Sweep(
        "math.log (in base, x = 2.5)",
        lambda b: call(math.log, 2.5, b),
        lambda b: mpmath.log(2.5) / mpmath.log(b),
        rtol=(4e-15, 6e-15),
        points=(0.5, 2.0, 1 + 1e-8, 1 - 1e-8, ABOVE_ONE, BELOW_ONE, 1e-150, HUGE),
        ranges=((1e-150, 0.999), (1.001, 1e300)),
        per_decade=SPARSE,
        mp1=lambda b: -mpmath.log(2.5) / (b * mpmath.log(b) ** 2),
        mp2=lambda b: mpmath.log(2.5) * (mpmath.log(b) + 2) / (b**2 * mpmath.log(b) ** 3),
        why="from base 1e-150 up: below, the second derivative overflows, and in reverse over"
        " reverse its two terms are inf - inf = NaN",
    ),
    Sweep(
        "math.log2",
        lambda x: call(math.log2, x),
        lambda x: mpmath.log(x, 2),
        rtol=(2e-15, 2e-15),
        points=(1.0, 2.0, TINY, HUGE),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (x * LN2),
        mp2=lambda x: -1 / (x**2 * LN2),
    ),
    Sweep(
        "math.log10",
        lambda x: call(math.log10, x),
        mpmath.log10,
        rtol=(2e-15, 3e-15),
        points=(1.0, 10.0, TINY, HUGE),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (x * LN10),
        mp2=lambda x: -1 / (x**2 * LN10),
    ),
    Sweep(
        "math.log1p",
        lambda x: call(math.log1p, x),
        mpmath.log1p,
        rtol=(2e-15, 3e-15),
        points=(0.0, -1 + 2.0**-52, -1 + 1e-8, -0.5, 1.0),
        ranges=((-BELOW_ONE, -1e-300), (1e-300, 1e300)),
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 + x),
        mp2=lambda x: -1 / (1 + x) ** 2,
    ),
]


def _power_rows(name, power):
    """x**p in the base (p fractional, negative, integral) and in the exponent."""
    rows = [
        Sweep(
            f"{name} (in x, p = {p})",
            lambda x, p=p: call(power, x, p),
            lambda x, p=p: x**p,
            points=points,
            ranges=ranges,
            per_decade=SPARSE,
            rtol=(3e-15, 5e-15),
            mp1=lambda x, p=p: p * x ** (p - 1),
            mp2=lambda x, p=p: p * (p - 1) * x ** (p - 2),
            why=OVERFLOWS,
        )
        for p, points, ranges in [
            (2.5, (1.0, TINY), ((1e-300, 1e123),)),
            (-1.5, (1.0, HUGE), ((1e-205, 1e300),)),
            (3.0, (1.0, -1.0, -2.5), ((-1e102, -1e-300), (1e-300, 1e102))),
        ]
    ]
    rows += [
        Sweep(
            f"{name} (in p, x = {x})",
            lambda p, x=x: call(power, x, p),
            lambda p, x=x: mpmath.mpf(x) ** p,
            points=(0.0, 1.0, -1.0, 700.0),
            ranges=ranges,
            per_decade=SPARSE,
            rtol=(2e-15, 3e-15),
            mp1=lambda p, x=x: mpmath.mpf(x) ** p * mpmath.log(x),
            mp2=lambda p, x=x: mpmath.mpf(x) ** p * mpmath.log(x) ** 2,
            why=OVERFLOWS + "; below, to |p| = 1e5, where x**p is 0",
        )
        for x, ranges in [
            (2.5, ((-1e5, -1e-300), (1e-300, 774.0))),
            (0.5, ((-1023.0, -1e-300), (1e-300, 1e5))),
        ]
    ]
    return rows


POWERS = [
    Sweep(
        "math.sqrt",
        lambda x: call(math.sqrt, x),
        mpmath.sqrt,
        rtol=(2e-15, 5e-15),
        points=(0.0, 1.0, TINY, HUGE),
        ranges=POSITIVE,
        per_decade=SPARSE,
        mp1=lambda x: _inf_or(lambda: 1 / (2 * mpmath.sqrt(x))),
        mp2=lambda x: -_inf_or(lambda: 1 / (4 * x * mpmath.sqrt(x))),
    ),
    Sweep(
        "math.cbrt",
        lambda x: call(math.cbrt, x),
        mpmath.cbrt,
        rtol=(7e-15, 2e-14),
        points=(1.0, -1.0, TINY, -TINY, HUGE),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: abs(x) ** (-mpmath.mpf(2) / 3) / 3,
        mp2=lambda x: -2 * mpmath.sign(x) * abs(x) ** (-mpmath.mpf(5) / 3) / 9,
    ),
    *_power_rows("math.pow", math.pow),
    *_power_rows("operator.pow", operator.pow),
    Sweep(
        "operator.truediv (in x1, x2 = 1.5)",
        lambda x: call(operator.truediv, x, 1.5),
        lambda x: x / mpmath.mpf(1.5),
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0),
        ranges=FULL,
        per_decade=0.1,
        mp1=lambda x: 1 / mpmath.mpf(1.5),
        mp2=lambda x: ZERO,
    ),
    Sweep(
        "operator.truediv (in x2, x1 = 1.5)",
        lambda x: call(operator.truediv, 1.5, x),
        lambda x: mpmath.mpf(1.5) / x,
        rtol=(2e-15, 2e-15),
        points=(1.0, -1.0, 1e-154, 1e154, 1e155),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -1.5 / x**2,
        mp2=lambda x: 3 / x**3,
    ),
]

TRIGONOMETRIC = [
    Sweep(
        "math.sin",
        lambda x: call(math.sin, x),
        mpmath.sin,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=mpmath.cos,
        mp2=lambda x: -mpmath.sin(x),
    ),
    Sweep(
        "math.cos",
        lambda x: call(math.cos, x),
        mpmath.cos,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -mpmath.sin(x),
        mp2=lambda x: -mpmath.cos(x),
    ),
    Sweep(
        "math.tan",
        lambda x: call(math.tan, x),
        mpmath.tan,
        rtol=(2e-15, 4e-15),
        points=(0.0, 1.0, -1.0, math.pi / 2, -math.pi / 2, math.pi),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.cos(x) ** 2,
        mp2=lambda x: 2 * mpmath.tan(x) / mpmath.cos(x) ** 2,
    ),
    Sweep(
        "math.asin",
        lambda x: call(math.asin, x),
        mpmath.asin,
        rtol=(2e-15, 3e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=INSIDE_ONE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.sqrt(1 - x * x),
        mp2=lambda x: x / (1 - x * x) ** 1.5,
    ),
    Sweep(
        "math.acos",
        lambda x: call(math.acos, x),
        mpmath.acos,
        rtol=(2e-15, 3e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=INSIDE_ONE,
        per_decade=SPARSE,
        mp1=lambda x: -1 / mpmath.sqrt(1 - x * x),
        mp2=lambda x: -x / (1 - x * x) ** 1.5,
    ),
    Sweep(
        "math.atan",
        lambda x: call(math.atan, x),
        mpmath.atan,
        rtol=(3e-15, 4e-15),
        points=(0.0, 1.0, -1.0, 1.5e154, 1e155, 1e200),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 + x * x),
        mp2=lambda x: -2 * x / (1 + x * x) ** 2,
    ),
    *(
        Sweep(
            f"math.atan2 (in {name})",
            f,
            lambda x, f=f, mp=mp: mp(x),
            points=(0.0, 1.0, -1.0, 1e-200, 1.5e154, 1e155),
            ranges=FULL,
            per_decade=SPARSE,
            rtol=(2e-15, 4e-15),
            mp1=mp1,
            mp2=mp2,
        )
        for name, f, mp, mp1, mp2 in [
            (
                "y, x = 1",
                lambda x: call(math.atan2, x, 1.0),
                lambda x: mpmath.atan2(x, 1),
                lambda x: 1 / (1 + x * x),
                lambda x: -2 * x / (1 + x * x) ** 2,
            ),
            (
                "x, y = 1",
                lambda x: call(math.atan2, 1.0, x),
                lambda x: mpmath.atan2(1, x),
                lambda x: -1 / (1 + x * x),
                lambda x: 2 * x / (1 + x * x) ** 2,
            ),
        ]
    ),
    Sweep(
        "math.atan2 (in y, x = 1e-200)",
        lambda x: call(math.atan2, x, 1e-200),
        lambda x: mpmath.atan2(x, mpmath.mpf(1e-200)),
        rtol=(2e-15, 1e-15),
        points=(1e-200, -1e-200, 1e-210, 1e-190),
        mp1=lambda x: mpmath.mpf(1e-200) / (x * x + mpmath.mpf(1e-200) ** 2),
        mp2=lambda x: -2 * x * mpmath.mpf(1e-200) / (x * x + mpmath.mpf(1e-200) ** 2) ** 2,
        why="near the origin, where x^2 + y^2 underflows",
    ),
    *(
        Sweep(
            f"math.hypot (in x, {others})",
            lambda x, others=others: call(math.hypot, x, *others),
            lambda x, others=others: mpmath.sqrt(x * x + sum(mpmath.mpf(o) ** 2 for o in others)),
            points=(0.0, 1.0, -1.0, 1e8, 1e154, 1e155),
            ranges=FULL,
            per_decade=0.1,
            rtol=(2e-15, 3e-15),
            mp1=lambda x, s=s: x / mpmath.sqrt(x * x + s),
            mp2=lambda x, s=s: s / (x * x + s) ** 1.5,
        )
        for others, s in [((1.0,), 1), ((1.0, 2.0), 5)]
    ),
    Sweep(
        "math.degrees",
        lambda x: call(math.degrees, x),
        lambda x: x * 180 / mpmath.pi,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0),
        ranges=FULL,
        per_decade=0.1,
        mp1=lambda x: 180 / mpmath.pi,
        mp2=lambda x: ZERO,
    ),
    Sweep(
        "math.radians",
        lambda x: call(math.radians, x),
        lambda x: x * mpmath.pi / 180,
        rtol=(1e-15, 1e-15),
        points=(0.0, 1.0, -1.0),
        ranges=FULL,
        per_decade=0.1,
        mp1=lambda x: mpmath.pi / 180,
        mp2=lambda x: ZERO,
    ),
]

HYPERBOLIC = [
    Sweep(
        "math.sinh",
        lambda x: call(math.sinh, x),
        mpmath.sinh,
        rtol=(2e-15, 1e-15),
        points=(0.0, 1.0, -1.0, 710.0, -710.0),
        ranges=((-710.0, -1e-300), (1e-300, 710.0)),
        per_decade=SPARSE,
        mp1=mpmath.cosh,
        mp2=mpmath.sinh,
        why=OVERFLOWS,
    ),
    Sweep(
        "math.cosh",
        lambda x: call(math.cosh, x),
        mpmath.cosh,
        rtol=(1e-15, 2e-15),
        points=(0.0, 1.0, -1.0, 710.0, -710.0),
        ranges=((-710.0, -1e-300), (1e-300, 710.0)),
        per_decade=SPARSE,
        mp1=mpmath.sinh,
        mp2=mpmath.cosh,
        why=OVERFLOWS,
    ),
    Sweep(
        "math.tanh",
        lambda x: call(math.tanh, x),
        mpmath.tanh,
        rtol=(5e-15, 9e-15),
        points=(0.0, 1.0, -1.0, 5.0, 19.0, 20.0, -20.0, 40.0, 354.0, 355.0, 356.0, 360.0, 700.0),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.cosh(x) ** 2,
        mp2=lambda x: -2 * mpmath.tanh(x) / mpmath.cosh(x) ** 2,
    ),
    Sweep(
        "math.asinh",
        lambda x: call(math.asinh, x),
        mpmath.asinh,
        rtol=(1e-15, 3e-15),
        points=(0.0, 1.0, -1.0, 1e154, 1e155, -1e200),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.sqrt(1 + x * x),
        mp2=lambda x: -x / (1 + x * x) ** 1.5,
    ),
    Sweep(
        "math.acosh",
        lambda x: call(math.acosh, x),
        mpmath.acosh,
        rtol=(3e-15, 7e-15),
        points=(ABOVE_ONE, 1 + 1e-8, 2.0, 1e154, 1e155),
        ranges=((ABOVE_ONE, 1e300),),
        per_decade=SPARSE,
        mp1=lambda x: 1 / mpmath.sqrt(x * x - 1),
        mp2=lambda x: -x / (x * x - 1) ** 1.5,
    ),
    Sweep(
        "math.atanh",
        lambda x: call(math.atanh, x),
        mpmath.atanh,
        rtol=(1e-15, 1e-15),
        points=(0.0, 0.5, -0.5, 1 - 1e-8, -1 + 1e-8, BELOW_ONE, -BELOW_ONE),
        ranges=INSIDE_ONE,
        per_decade=SPARSE,
        mp1=lambda x: 1 / (1 - x * x),
        mp2=lambda x: 2 * x / (1 - x * x) ** 2,
    ),
]


def _gauss(x):
    return 2 / mpmath.sqrt(mpmath.pi) * mpmath.exp(-x * x)


def _digamma(x):
    """mpmath's digamma, by reflection for x < 0, where mpmath is slow at large |x|."""
    if x >= 0:
        return mpmath.digamma(x)
    return mpmath.digamma(1 - x) - mpmath.pi * mpmath.cospi(x) / mpmath.sinpi(x)


def _trigamma(x):
    if x >= 0:
        return mpmath.psi(1, x)
    return -mpmath.psi(1, 1 - x) + (mpmath.pi / mpmath.sinpi(x)) ** 2


SPECIAL = [
    Sweep(
        "math.erf",
        lambda x: call(math.erf, x),
        mpmath.erf,
        rtol=(2e-15, 6e-14),
        points=(0.0, 1.0, -1.0, 5.0, 26.0, 26.5, -26.5, 27.3),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=_gauss,
        mp2=lambda x: -2 * x * _gauss(x),
    ),
    Sweep(
        "math.erfc",
        lambda x: call(math.erfc, x),
        mpmath.erfc,
        rtol=(2e-15, 6e-14),
        points=(0.0, 1.0, -1.0, 5.0, 26.0, 26.5, -26.5, 27.3),
        ranges=FULL,
        per_decade=SPARSE,
        mp1=lambda x: -_gauss(x),
        mp2=lambda x: 2 * x * _gauss(x),
    ),
    Sweep(
        "math.gamma",
        lambda x: call(math.gamma, x),
        mpmath.gamma,
        rtol=(3e-15, 5e-15),
        points=(1.0, 2.0, 1.4616321449683622, 0.5, 171.6, -0.5, -1.5, -1 + 1e-8, -2 - 1e-8),
        ranges=((-170.5, -1e-300), (1e-300, 171.0)),
        per_decade=SPARSE,
        mp1=lambda x: mpmath.gamma(x) * _digamma(x),
        mp2=lambda x: mpmath.gamma(x) * (_digamma(x) ** 2 + _trigamma(x)),
        why=OVERFLOWS,
    ),
    Sweep(
        "math.lgamma",
        lambda x: call(math.lgamma, x),
        mpmath.loggamma,
        # digamma crosses 0 between each two poles of the negative axis, where its reflection
        # digamma(1 - x) - pi cot(pi x) cancels: 6e-15 at -23340.9.
        rtol=(7e-14, 5e-15),
        points=(1.0, 2.0, 1.4616321449683622, 0.5, -0.5, -1.5, -1 + 1e-8, -2 - 1e-8),
        # Negative x at pi times powers of ten, which are not integers (poles) up to 1e15.
        ranges=((-math.pi * 1e14, -math.pi * 1e-300), (1e-300, 1e300)),
        per_decade=SPARSE,
        mp1=_digamma,
        mp2=_trigamma,
        why="negative x to -3e14: from -2^52 on, every float is a pole",
    ),
    Sweep(
        "math.fabs",
        lambda x: call(math.fabs, x),
        abs,
        rtol=(1e-15, 1e-15),
        points=(1.0, -1.0, TINY, -TINY),
        ranges=FULL,
        per_decade=0.1,
        mp1=mpmath.sign,
        mp2=lambda x: ZERO,
        why="0 is left out: fabs is not differentiable there (its subgradient there is 0)",
    ),
]

ROWS = EXPONENTIALS + POWERS + TRIGONOMETRIC + HYPERBOLIC + SPECIAL

# The sweeps reach the overflow and underflow of every function on purpose.
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
