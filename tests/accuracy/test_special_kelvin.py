"""Accuracy of the derivatives of the Kelvin functions in x, against mpmath.

``berp bei...`` divide by x in their derivatives (``ber'' = -ber'/x - bei``): the rules take
the power series of ``ber'/x`` and ``bei'/x`` near 0. mpmath's derivatives of ``ber bei ker
kei`` are ``(ber_1 +- bei_1)/sqrt 2`` (and likewise for ker, kei). SciPy's values of ber, bei
and their derivatives grow like ``exp(x/sqrt 2)`` and are swept to 100; ker, kei decay as fast.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, exact_derivative, failures

SQRT2 = mpmath.sqrt(2)
# Both sides of |x| = 1, where the series of ber'/x and bei'/x hands over to the quotient.
POINTS = (1e-300, 1e-30, 1e-8, 0.01, 0.5, 0.999, 1.0, 1.001, 2.0, 5.0, 9.9, 10.1, 30.0)
NEGATIVE = (-1e-8, -0.5, -0.999, -1.001, -5.0)
# SciPy's ber, bei, ker, kei themselves are off by up to 6e-10 near x = 10 (measured against
# mpmath: 5e-10 for ber at 10.1, 6e-10 for ker at 10), where its algorithm changes; their
# derivatives, computed from them, are no better.
RTOL = (1e-8, 1e-8)
WHY = "SciPy's own Kelvin functions are good to 6e-10 only, near x = 10"
PARTNER = {"ber": ("bei", -1), "bei": ("ber", 1), "ker": ("kei", -1), "kei": ("ker", 1)}
AT_ZERO = {"ber": (1, 0, 0, 0), "bei": (0, 0, mpmath.mpf(1) / 2, 0)}


def _kelvin(name, x, k):
    """The k-th derivative (k <= 3) of mpmath's Kelvin function ``name`` of order 0.

    w = ber + i bei (or ker + i kei) solves w'' = i w - w'/x (DLMF 10.61): so ber'' = -bei -
    ber'/x, bei'' = ber - bei'/x, and once more for the third; the first is
    (ber_1 + bei_1)/sqrt 2 (and the like).
    """
    if x == 0:
        return AT_ZERO[name][k]
    other, sign = PARTNER[name]
    f, g = getattr(mpmath, name), getattr(mpmath, other)
    if k == 0:
        return f(0, x)
    if k == 1:
        return (f(1, x) - sign * g(1, x)) / SQRT2
    if k == 2:
        return sign * g(0, x) - _kelvin(name, x, 1) / x
    slope = _kelvin(name, x, 1)
    return sign * _kelvin(other, x, 1) - _kelvin(name, x, 2) / x + slope / x**2


def _reference(name, x, k):
    # Near 0 the closed forms cancel (ber_1 + bei_1 = O(x^3) from O(x) terms, kei_1 - ker_1 =
    # O(x log x) from O(1/x)): ber and bei are differenced there (at a step relative to x),
    # ker and kei evaluated with as many more digits as cancel.
    if x == 0 or abs(x) >= 0.5:
        return _kelvin(name, x, k)
    if name.startswith("be"):
        return exact_derivative(lambda t: getattr(mpmath, name)(0, t), float(x), k)
    with mpmath.workdps(40 + int(-4 * mpmath.log10(abs(x)))):
        return _kelvin(name, mpmath.mpf(x), k)


ENTIRE = ((-100.0, -1e-300), (1e-300, 100.0))
# mpmath's ker and kei at the extra digits they need below 1e-3 take seconds a point.
POSITIVE = ((1e-3, 100.0),)


def _row(name, f, base, lift):
    entire = base.startswith("be")
    return Sweep(
        f"scipy.special.{name}",
        f,
        None,
        points=(0.0, *POINTS, *NEGATIVE) if entire else tuple(x for x in POINTS if x >= 1e-3),
        ranges=ENTIRE if entire else POSITIVE,
        per_decade=0.05,
        mp1=lambda x: _reference(base, x, 1 + lift),
        mp2=lambda x: _reference(base, x, 2 + lift),
        rtol=RTOL,
        why=WHY if entire else f"{WHY}; from 1e-3 on, where mpmath's ker, kei stay fast",
    )


ROWS = [
    *(_row(name, getattr(sc, name), name, 0) for name in ("ber", "bei", "ker", "kei")),
    *(_row(f"{name}p", getattr(sc, f"{name}p"), name, 1) for name in ("ber", "bei", "ker", "kei")),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_kelvin_accuracy(row):
    assert failures(row) == []
