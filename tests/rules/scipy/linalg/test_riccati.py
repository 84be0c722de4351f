"""Tests of the rules for scipy.linalg.solve_continuous_are and solve_discrete_are."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import DTYPES, ids, sample

import chainrules as cr

FUNCTIONS = [scipy.linalg.solve_continuous_are, scipy.linalg.solve_discrete_are]


def problem(dtype):
    """A stabilizable system: ``a`` (3x3), ``b`` (3x2), Hermitian positive definite ``q``, ``r``."""
    a, b = sample((3, 3), dtype) / 2, sample((3, 2), dtype, 1)
    q, r = sample((3, 3), dtype, 2), sample((2, 2), dtype, 3)
    return a, b, q @ q.conj().T + np.eye(3), r @ r.conj().T + np.eye(2)


def hermitian_direction(x, seed):
    """A Hermitian tangent for ``x``: SciPy rejects a ``q`` or ``r`` that is not Hermitian."""
    d = sample(x.shape, x.dtype, seed)
    return with_tangent(x, d + d.conj().T)


@pytest.mark.parametrize("f", FUNCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_riccati(f, dtype):
    a, b, q, r = problem(dtype)
    args = (a, b, hermitian_direction(q, 4), hermitian_direction(r, 5))
    test_rrule(f, *args)
    test_frule(f, *args)


def test_scalar_continuous_are():
    # 2 a x - x^2 b^2 / r + q = 0 at a = 0, b = r = 1: x = sqrt(q), dx/dq = 1 / (2 sqrt(q)).
    one = np.ones((1, 1))
    x, pullback = cr.rrule(scipy.linalg.solve_continuous_are, 0 * one, one, 4 * one, one)
    assert x[0, 0] == pytest.approx(2.0)
    assert pullback(one)[3][0, 0] == pytest.approx(0.25)
