"""Accuracy of the gamma family's derivatives against mpmath, at poles' neighbours and far out.

Each row states the relative accuracy of the first and second derivative reached through
every engine route (``reference.measure``); the docs' accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

from chainrules.engines import call

# next to the poles 0, -1, -2, -10 and between them
NEGATIVE = (-0.5, -1 - 1e-8, -1.5, -10.5, -10 - 1e-8, -1e-300)
# SciPy's digamma itself is off by 5.7e-9 at -1 + 1e-8 and 2.6e-9 at -2 + 1e-8 (its
# reflection), and gamma' = gamma digamma inherits it: not swept there but for rgamma,
# whose rule reflects digamma's argument to 1 - x.
RIGHT_OF_POLES = (-1 + 1e-8, -2 + 1e-8)


def _at_pole(x):
    return x <= 0 and x == int(x)


def _rgamma1(x):
    if _at_pole(x):
        return mpmath.diff(mpmath.rgamma, x, 1)
    return -mpmath.rgamma(x) * mpmath.digamma(x)


def _rgamma2(x):
    if _at_pole(x):
        return mpmath.diff(mpmath.rgamma, x, 2)
    if abs(x) < 0.5:
        # (x g)'' = 2 g' + x g'' with g = 1/gamma(1 + x): psi(x)**2 - psi'(x) cancels at tiny x
        g, psi, psi1 = mpmath.rgamma(1 + x), mpmath.digamma(1 + x), mpmath.psi(1, 1 + x)
        return -2 * g * psi + x * g * (psi**2 - psi1)
    return mpmath.rgamma(x) * (mpmath.digamma(x) ** 2 - mpmath.psi(1, x))


ROWS = [
    Sweep(
        "scipy.special.gamma",
        sc.gamma,
        mpmath.gamma,
        rtol=(5e-15, 5e-15),
        points=(1.0, 2.0, 0.5, 1.4616321449683622, 171.6, *NEGATIVE),
        ranges=((1e-300, 171.6),),
        per_decade=1,
        mp1=lambda x: mpmath.gamma(x) * mpmath.digamma(x),
        mp2=lambda x: mpmath.gamma(x) * (mpmath.digamma(x) ** 2 + mpmath.psi(1, x)),
    ),
    Sweep(
        "scipy.special.gammaln",
        sc.gammaln,
        lambda x: mpmath.log(abs(mpmath.gamma(x))),
        rtol=(4e-15, 3e-15),
        points=(1.0, 2.0, 0.5, 1.4616321449683622, *NEGATIVE),
        ranges=((1e-300, 1e300),),
        mp1=mpmath.digamma,
        mp2=lambda x: mpmath.psi(1, x),
    ),
    Sweep(
        "scipy.special.loggamma (real)",
        sc.loggamma,
        mpmath.loggamma,
        rtol=(2e-15, 3e-15),
        points=(1.0, 2.0, 0.5, 1e-300),
        ranges=((1e-300, 1e300),),
        mp1=mpmath.digamma,
        mp2=lambda x: mpmath.psi(1, x),
    ),
    Sweep(
        "scipy.special.digamma",
        sc.digamma,
        mpmath.digamma,
        rtol=(3e-15, 6e-13),
        why=(
            "SciPy's polygamma(2, x), the second derivative, is itself accurate to 6e-14 only "
            "between negative poles."
        ),
        points=(1.0, 2.0, 0.5, 1.4616321449683622, *NEGATIVE),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: mpmath.psi(1, x),
        mp2=lambda x: mpmath.psi(2, x),
    ),
    Sweep(
        "scipy.special.rgamma",
        sc.rgamma,
        mpmath.rgamma,
        rtol=(5e-14, 3e-14),
        points=(0.0, -1.0, -2.0, -10.0, 1.0, 2.0, 0.5, 0.4999, *NEGATIVE, *RIGHT_OF_POLES),
        ranges=((1e-300, 171.6),),
        per_decade=1,
        mp1=_rgamma1,
        mp2=_rgamma2,
    ),
    Sweep(
        "polygamma (n = 1, in x)",
        lambda x: call(sc.polygamma, 1, x),
        lambda x: mpmath.psi(1, x),
        rtol=(4e-14, 6e-15),
        points=(1.0, 2.0, 0.5, -0.5, -1 + 1e-8, -1 - 1e-8, -1.5),
        ranges=((1e-300, 1e300),),
        mp1=lambda x: mpmath.psi(2, x),
        mp2=lambda x: mpmath.psi(3, x),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
