"""Accuracy of the derivatives of the spherical Bessel functions in z, against mpmath.

The engines reach the rules through the ufuncs SciPy computes ``spherical_jn ...`` with
(``scipy.special._ufuncs._spherical_jn`` and so on): SciPy's Python wrappers convert their
argument to NumPy first. mpmath's references are ``sqrt(pi/(2x)) J_(n+1/2)(x)`` and the like.
SciPy's own values underflow to 0 early at small x (``spherical_in(1, 1e-200)`` is 0, true
3e-201; ``spherical_in(2, 1e-100)`` is 0, true 7e-202): the sweeps start at
``1e-100^(1/(n+2))``, where f_(n+1) ~ x^(n+1), in the derivatives, is still far from underflow.
"""

import mpmath
import pytest
import scipy.special._ufuncs as ufuncs
from reference import Sweep, failures

ORDERS = (0, 1, 5)
POINTS = (1e-8, 0.01, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0, 100.0)


def _mp(kind, n):
    bessel = {"jn": mpmath.besselj, "yn": mpmath.bessely, "in": mpmath.besseli}.get(
        kind, mpmath.besselk
    )
    return lambda x: mpmath.sqrt(mpmath.pi / (2 * x)) * bessel(n + 0.5, x)


def _f(kind, n):
    ufunc = getattr(ufuncs, f"_spherical_{kind}")
    return lambda x: ufunc(n, x)


def _lowest(kind, n):
    # yn and kn grow like x^-(n+1) and their second derivatives like x^-(n+3): keep them finite.
    return 10 ** (-100 / (n + 2)) if kind in ("jn", "in") else 10 ** (-250 / (n + 3))


# kn underflows early too: spherical_kn(0, 700) is below the normal floats in SciPy.
UPPER = {"jn": 1e3, "yn": 1e3, "in": 700.0, "kn": 600.0}

ROWS = [
    Sweep(
        f"spherical_{kind} (in z, n = {n})",
        _f(kind, n),
        _mp(kind, n),
        points=tuple(x for x in POINTS if x >= _lowest(kind, n)),
        ranges=((_lowest(kind, n), UPPER[kind]),),
        per_decade=0.1,
        rtol=(1e-13, 1e-12),
        why="from where SciPy's values do not underflow (jn, in) and the derivatives are finite",
    )
    for kind in ("jn", "yn", "in", "kn")
    for n in ORDERS
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_spherical_bessel_accuracy(row):
    assert failures(row) == []
