"""Accuracy of the derivatives of the orthogonal polynomials in x, against mpmath.

The rules' derivatives are polynomials of the next lower degree (no division by 1 - x^2), so
x = +-1 are regular points; they are swept with their neighbours, 0, and log-spaced
arguments of both signs from 1e-3 to 10 (the Laguerre and Hermite ones to 100). Degree 1 is
left out: its second derivative is 0, where relative errors are not measured.
"""

import mpmath
import pytest
import scipy.special as sc
from reference import Sweep, failures

EDGE = 1 - 1e-8
POINTS = (1.0, -1.0, EDGE, -EDGE, 1 + 1e-8, -1 - 1e-8, 0.5, -0.5)
# Not at 0 nor below 1e-3: there the derivatives of the even or odd polynomials vanish or
# nearly, where mpmath's adaptive differences do not converge and relative errors mean little.
NEAR = ((-10.0, -1e-3), (1e-3, 10.0))
FAR = ((-100.0, -1e-3), (1e-3, 100.0))
DEGREES = (2, 5, 20)
M = mpmath


def _chebyu(n, x):
    # mpmath's chebyu (a 2F1) does not converge at +-1: the three-term recurrence, exactly.
    lower, upper = M.mpf(1), 2 * x
    for _ in range(n - 1):
        lower, upper = upper, 2 * x * upper - lower
    return upper if n else lower


# (name, scipy, mpmath, ranges): each a function of (n, x).
FAMILIES = (
    ("eval_legendre", sc.eval_legendre, M.legendre, NEAR),
    ("eval_chebyt", sc.eval_chebyt, M.chebyt, NEAR),
    ("eval_chebyu", sc.eval_chebyu, lambda n, x: _chebyu(n, x), NEAR),
    (
        "eval_gegenbauer (alpha = 2.5)",
        lambda n, x: sc.eval_gegenbauer(n, 2.5, x),
        lambda n, x: M.gegenbauer(n, 2.5, x),
        NEAR,
    ),
    (
        "eval_jacobi (alpha = 0.5, beta = 1.5)",
        lambda n, x: sc.eval_jacobi(n, 0.5, 1.5, x),
        lambda n, x: M.jacobi(n, 0.5, 1.5, x),
        NEAR,
    ),
    ("eval_laguerre", sc.eval_laguerre, lambda n, x: M.laguerre(n, 0, x), FAR),
    (
        "eval_genlaguerre (alpha = 1.5)",
        lambda n, x: sc.eval_genlaguerre(n, 1.5, x),
        lambda n, x: M.laguerre(n, 1.5, x),
        FAR,
    ),
    ("eval_hermite", sc.eval_hermite, M.hermite, FAR),
    (
        "eval_hermitenorm",
        sc.eval_hermitenorm,
        lambda n, x: M.hermite(n, x / M.sqrt(2)) * M.mpf(2) ** (-M.mpf(n) / 2),
        FAR,
    ),
    (
        "eval_sh_legendre",
        sc.eval_sh_legendre,
        lambda n, x: M.legendre(n, 2 * x - 1),
        NEAR,
    ),
)


def _bind(f, n):
    return lambda x: f(n, x)


ROWS = [
    Sweep(
        f"{name} (in x, n = {n})",
        _bind(f, n),
        _bind(mp, n),
        points=POINTS,
        ranges=ranges,
        per_decade=1,
        rtol=(1e-12, 1e-12),
    )
    for name, f, mp, ranges in FAMILIES
    for n in DEGREES
]


@pytest.mark.parametrize("row", ROWS, ids=lambda row: row.name)
def test_orthogonal_accuracy(row):
    assert failures(row) == []
