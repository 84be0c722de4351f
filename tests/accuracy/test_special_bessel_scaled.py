"""Accuracy of the derivatives of the exponentially scaled Bessel functions in x, against mpmath.

``i0e i1e ive`` are ``I_v(x) exp(-|x|)`` and ``k0e k1e kve`` are ``K_v(x) exp(x)``: both behave
like ``x^(-1/2)`` at large x, where their derivatives (``i0e' = i1e - i0e``) are differences of
two nearly equal terms; the rules switch to the asymptotic expansion there (DLMF 10.40.1-2), so
the sweeps run to 1e300. ``jve yve`` equal ``jv yv`` at real x and share their limit (1e4:
SciPy's own J and Y lose accuracy like 1e-16 x beyond).
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

M = mpmath
POINTS = (1e-300, 1e-30, 1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 500.0, 1e3, 1e6)
NEGATIVE = (-1e-8, -0.5, -1.0, -5.0, -25.0, -100.0, -1e6)


def _digits(x):
    # The derivatives of the scaled functions are ~1/x smaller than the functions (1/x^2 for
    # the second): mpmath's difference of the two terms cancels log10(x) digits, given back.
    return 40 + 2 * max(0, int(M.log10(abs(x)))) if x else 40


def _i(v, n):
    """d^n/dx^n of I_v(x) exp(-|x|), from the recurrences of I_v."""

    def derivative(x):
        with M.workdps(_digits(x)):
            x = M.mpf(x)
            s = M.sign(x)
            # I_-n = I_n; mpmath's besseli(-2, 1e-300) does not converge.
            i = [M.besseli(abs(v + k) if v == int(v) else v + k, x) for k in (-2, -1, 0, 1, 2)]
            d1 = (i[1] + i[3]) / 2
            d2 = (i[0] + 2 * i[2] + i[4]) / 4
            value = d1 - s * i[2] if n == 1 else d2 - 2 * s * d1 + i[2]
            return value * M.exp(-abs(x))

    return derivative


def _k(v, n):
    """d^n/dx^n of K_v(x) exp(x), from the recurrences of K_v."""

    def derivative(x):
        with M.workdps(_digits(x)):
            x = M.mpf(x)
            k = [M.besselk(v + j, x) for j in (-2, -1, 0, 1, 2)]
            d1 = -(k[1] + k[3]) / 2
            d2 = (k[0] + 2 * k[2] + k[4]) / 4
            value = d1 + k[2] if n == 1 else d2 + 2 * d1 + k[2]
            return value * M.exp(x)

    return derivative


def _row(name, f, mps, points, ranges, rtol, why=""):
    return Sweep(
        name,
        f,
        None,
        points=points,
        ranges=ranges,
        # mpmath at 600 digits near 1e300 is slow: one point in 40 decades (and the points).
        per_decade=0.025,
        mp1=mps[0],
        mp2=mps[1],
        rtol=rtol,
        why=why,
    )


WHOLE = ((1e-300, 1e300),)


def _lowest(v):
    # Near 0 the derivatives of the K (and I of negative order) terms in the recurrences
    # overflow, and inf - inf is NaN: from 1e-300^(1/(|v| + 2)) on, where K_(|v|+2) is finite.
    return 1e-300 if v == 0 else 10 ** (-300 / (abs(v) + 2))


def _above(v):
    # SciPy's ive and kve (unlike i0e i1e k0e k1e) are NaN beyond about 1e9.
    return tuple(x for x in POINTS if x >= _lowest(v)), ((_lowest(v), 1e9),)


LOW_WHY = (
    "from 1e-300^(1/(|v| + 2)) on: below, the recurrences' terms overflow (inf - inf); "
    "ive and kve up to 1e9, beyond which SciPy's own values are NaN"
)
# i0e is even and i1e odd, so negative arguments are checked at points only (the rules take
# |x|): mpmath at 600 digits near 1e300 is slow.
NEGATIVE += (-1e-300, -1e-100, -1e300)
# Worst measured 1.6e-14 (first) and 1.4e-13 (second, ive at 25, where the recurrences still
# cancel log10(x) digits below the switch to the asymptotic series at 20 + 2 v^2).
RTOL = (2e-13, 2e-12)
# ive of order 10 switches at 220: at 100, the recurrences lose 2 digits (6e-13, 4e-12).
RTOL_10 = (1e-11, 1e-10)

ROWS = [
    _row("scipy.special.i0e", sc.i0e, (_i(0, 1), _i(0, 2)), (*POINTS, *NEGATIVE), WHOLE, RTOL),
    _row("scipy.special.i1e", sc.i1e, (_i(1, 1), _i(1, 2)), (*POINTS, *NEGATIVE), WHOLE, RTOL),
    _row("scipy.special.k0e", sc.k0e, (_k(0, 1), _k(0, 2)), POINTS, WHOLE, RTOL),
    _row(
        "scipy.special.k1e",
        sc.k1e,
        (_k(1, 1), _k(1, 2)),
        tuple(x for x in POINTS if x >= _lowest(1)),
        ((_lowest(1), 1e300),),
        RTOL,
        "from 1e-100 on: below, the recurrences' terms overflow (inf - inf)",
    ),
    *(
        _row(
            f"ive (in x, v = {v})",
            lambda x, v=v: sc.ive(v, x),
            (_i(v, 1), _i(v, 2)),
            *_above(v),
            RTOL_10 if v == 10 else RTOL,
            LOW_WHY,
        )
        for v in (0.5, 2.5, 10.0, -0.5)
    ),
    *(
        _row(
            f"kve (in x, v = {v})",
            lambda x, v=v: sc.kve(v, x),
            (_k(v, 1), _k(v, 2)),
            *_above(v),
            RTOL,
            LOW_WHY,
        )
        for v in (0, 0.5, 2.5, 10.0, -0.5)
    ),
]


def _bound(f, v):
    return lambda x: f(v, x)


def _j(name, v, n):
    f = M.besselj if name == "jve" else M.bessely
    return lambda x: f(v, x, derivative=n)


# At real x, jve and yve are jv and yv: SciPy's values lose accuracy like 1e-16 x, so to 1e4.
ROWS += [
    _row(
        f"{name} (in x, v = {v})",
        _bound(getattr(sc, name), v),
        (_j(name, v, 1), _j(name, v, 2)),
        (0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 25.0, 100.0, 1e3),
        ((1e-3, 1e4),),
        (1e-11, 1e-11),
        "SciPy's own J and Y lose relative accuracy like 1e-16 x (3e-13 at 1e4)",
    )
    for name in ("jve", "yve")
    for v in (0.0, 2.5)
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_scaled_bessel_accuracy(row):
    assert failures(row) == []
