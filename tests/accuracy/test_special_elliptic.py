"""Accuracy of the incomplete elliptic integrals' derivatives in the amplitude, against mpmath.

``m`` at a representative value; each row states the relative accuracy of the first and
second derivative reached through every engine route (``reference.measure``); the docs'
accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _delta(phi, m):
    return mpmath.sqrt(1 - m * mpmath.sin(phi) ** 2)


ROWS = [
    Sweep(
        "ellipkinc (in phi, m = 0.5)",
        lambda phi: sc.ellipkinc(phi, 0.5),
        lambda phi: mpmath.ellipf(phi, 0.5),
        rtol=(2e-15, 3e-15),
        points=(0.0, 1.0, 1.5707963267948966, 3.0, -1.0, 10.0),
        ranges=((-1e3, -1e-300), (1e-300, 1e3)),
        mp1=lambda phi: 1 / _delta(phi, 0.5),
        mp2=lambda phi: 0.5 * mpmath.sin(phi) * mpmath.cos(phi) / _delta(phi, 0.5) ** 3,
    ),
    Sweep(
        "ellipeinc (in phi, m = 0.5)",
        lambda phi: sc.ellipeinc(phi, 0.5),
        lambda phi: mpmath.ellipe(phi, 0.5),
        rtol=(2e-15, 3e-15),
        points=(0.0, 1.0, 1.5707963267948966, 3.0, -1.0, 10.0),
        ranges=((-1e3, -1e-300), (1e-300, 1e3)),
        mp1=lambda phi: _delta(phi, 0.5),
        mp2=lambda phi: -0.5 * mpmath.sin(phi) * mpmath.cos(phi) / _delta(phi, 0.5),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
