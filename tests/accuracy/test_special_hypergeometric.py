"""Accuracy of the hypergeometric functions' derivatives in their argument, against mpmath.

Parameters at representative values; each row states the relative accuracy of the first and
second derivative reached through every engine route (``reference.measure``); the docs'
accuracy table is built from ``ROWS``.
"""

from __future__ import annotations

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures


def _hyp1f1_row(a, b, ranges):
    return Sweep(
        f"hyp1f1 (in x, a = {a}, b = {b})",
        lambda x: sc.hyp1f1(a, b, x),
        lambda x: mpmath.hyp1f1(a, b, x),
        points=(0.0, 1.0, -1.0),
        ranges=ranges,
        mp1=lambda x: a / b * mpmath.hyp1f1(a + 1, b + 1, x),
        mp2=lambda x: a * (a + 1) / (b * (b + 1)) * mpmath.hyp1f1(a + 2, b + 2, x),
        per_decade=1,
        rtol=(6e-15, 8e-15),
    )


def _hyp2f1_row(a, b, c, ranges):
    return Sweep(
        f"hyp2f1 (in z, a = {a}, b = {b}, c = {c})",
        lambda z: sc.hyp2f1(a, b, c, z),
        lambda z: mpmath.hyp2f1(a, b, c, z),
        points=(0.0, 0.5, -0.5, 0.9, -1.0, -10.0),
        ranges=ranges,
        mp1=lambda z: a * b / c * mpmath.hyp2f1(a + 1, b + 1, c + 1, z),
        mp2=lambda z: (
            a * (a + 1) * b * (b + 1) / (c * (c + 1)) * mpmath.hyp2f1(a + 2, b + 2, c + 2, z)
        ),
        per_decade=1,
        rtol=(7e-14, 1e-13),
    )


ROWS = [
    _hyp1f1_row(0.5, 1.5, ((-700.0, -1e-300), (1e-300, 700.0))),
    _hyp1f1_row(2.0, 3.5, ((-100.0, -1e-300), (1e-300, 600.0))),
    _hyp2f1_row(0.5, 1.0, 1.5, ((-1e10, -1e-300), (1e-300, 0.99))),
    _hyp2f1_row(1.0, 2.0, 3.5, ((-1e10, -1e-300), (1e-300, 0.99))),
    Sweep(
        "hyperu (in x, a = 0.5, b = 1.5)",
        lambda x: sc.hyperu(0.5, 1.5, x),
        lambda x: mpmath.hyperu(0.5, 1.5, x),
        points=(1.0, 0.5, 2.0),
        ranges=((1e-300, 1e300),),
        per_decade=0.5,
        rtol=(4e-15, 4e-15),
        mp1=lambda x: -0.5 * mpmath.hyperu(1.5, 2.5, x),
        mp2=lambda x: 0.5 * 1.5 * mpmath.hyperu(2.5, 3.5, x),
    ),
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_accuracy(row):
    assert failures(row) == []
