"""Accuracy of the derivatives of the Airy functions and their integrals in x, against mpmath.

SciPy's Ai and Bi for negative x oscillate with the phase ``2/3 |x|^(3/2)``, whose rounding
costs relative accuracy like ``1e-16 |x|^(3/2)``: the sweeps of negative x stop at -100
(phase 670). Ai underflows past 105, Bi overflows past 104.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

POINTS = (0.0, 1e-300, 1e-30, 1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 50.0, 100.0)
NEGATIVE = (-1e-300, -1e-8, -0.5, -1.0, -2.0, -5.0, -10.0, -50.0, -100.0)
RANGES = ((-100.0, -1e-300), (1e-300, 100.0))
# Worst measured 3e-13 at -100.
RTOL = (5e-12, 5e-12)
WHY = "SciPy's Ai, Bi at negative x lose relative accuracy like 1e-16 |x|^(3/2)"


def _output(f, k):
    return lambda x: f(x)[k]


def _airy_derivative(f, x, order):
    # Ai'' = x Ai, and Ai + x Ai' is the third (DLMF 9.2.1): mpmath's derivative=2 fails
    # where x Ai = 0.
    if order < 2:
        return f(x, derivative=order)
    if order == 2:
        return x * f(x)
    return f(x) + x * f(x, derivative=1)


def _mp_airy(k):
    """mpmath's derivatives of airy's k-th output (Ai, Ai', Bi, Bi')."""
    f = mpmath.airyai if k < 2 else mpmath.airybi
    lift = k % 2
    return (
        lambda x: _airy_derivative(f, x, 1 + lift),
        lambda x: _airy_derivative(f, x, 2 + lift),
    )


def _scaled(k):
    """Derivatives of airye's k-th output: airy's times exp(s 2/3 x^(3/2)), s = +1 for Ai, -1
    for Bi, at x > 0; for x < 0 (Bi only: SciPy's scaled Ai is NaN there) airy's own.

    With r = s sqrt(x), F'' = x F: (F e)' = (F' + r F) e, (F e)'' = (2x F + 2r F' + r' F) e,
    (F' e)' = (x F + r F') e, (F' e)'' = (F + 2x F' + 2r x F + r' F') e. The terms cancel
    (Ai' + sqrt(x) Ai ~ Ai / x^(3/2)): extra digits.
    """
    f = mpmath.airyai if k < 2 else mpmath.airybi
    lift, sign = k % 2, (1 if k < 2 else -1)

    def derivative(x, order):
        if x <= 0:
            return _airy_derivative(f, x, order + lift)
        with mpmath.workdps(40 + int(2 * mpmath.log10(1 + x))):
            x = mpmath.mpf(x)
            value, slope = f(x), f(x, derivative=1)
            r, dr = sign * mpmath.sqrt(x), sign / (2 * mpmath.sqrt(x))
            scale = mpmath.exp(sign * 2 * x**1.5 / 3)
            if lift == 0:
                found = (
                    slope + r * value if order == 1 else 2 * x * value + 2 * r * slope + dr * value
                )
            elif order == 1:
                found = x * value + r * slope
            else:
                found = value + 2 * x * slope + 2 * r * x * value + dr * slope
            return found * scale

    return lambda x: derivative(x, 1), lambda x: derivative(x, 2)


def _row(name, f, mps, points=(*POINTS, *NEGATIVE), ranges=RANGES):
    return Sweep(
        name,
        f,
        None,
        points=points,
        ranges=ranges,
        per_decade=0.05,
        mp1=mps[0],
        mp2=mps[1],
        rtol=RTOL,
        why=WHY,
    )


NAMES = ("Ai", "Ai'", "Bi", "Bi'")

AIRY_ROWS = [_row(f"airy ({NAMES[k]})", _output(sc.airy, k), _mp_airy(k)) for k in range(4)]

# Scaled: swept to 100, where Ai' + sqrt(x) Ai in the rule cancels to 1e-16 x^(3/2); the scaled
# Ai is NaN in SciPy for x < 0; at 0 the second derivatives are one-sided infinite (sqrt(x)).
AIRYE_ROWS = [
    Sweep(
        f"airye (scaled {NAMES[k]})",
        _output(sc.airye, k),
        None,
        tuple(x for x in (*POINTS, *NEGATIVE) if x != 0 and (x > 0 or k >= 2)),
        ((1e-300, 100.0),) if k < 2 else RANGES,
        per_decade=0.05,
        mp1=_scaled(k)[0],
        mp2=_scaled(k)[1],
        rtol=(1e-11, 3e-8),
        why="the rules' F' -+ sqrt(x) F cancel like 1e-16 x^(3/2) (second derivative 1e-9 at 100)",
    )
    for k in range(4)
]

# itairy: integrals of Ai(t), Bi(t) from 0 to x, and of Ai(-t), Bi(-t): x >= 0.
_ITAIRY_MP = (
    (lambda x: mpmath.airyai(x), lambda x: mpmath.airyai(x, derivative=1)),
    (lambda x: mpmath.airybi(x), lambda x: mpmath.airybi(x, derivative=1)),
    (lambda x: mpmath.airyai(-x), lambda x: -mpmath.airyai(-x, derivative=1)),
    (lambda x: mpmath.airybi(-x), lambda x: -mpmath.airybi(-x, derivative=1)),
)
ITAIRY_ROWS = [
    _row(
        f"itairy (integral of {name})",
        _output(sc.itairy, k),
        _ITAIRY_MP[k],
        POINTS,
        ((1e-300, 100.0),),
    )
    for k, name in enumerate(("Ai(t)", "Bi(t)", "Ai(-t)", "Bi(-t)"))
]

ROWS = AIRY_ROWS + AIRYE_ROWS + ITAIRY_ROWS


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_airy_accuracy(row):
    assert failures(row) == []
