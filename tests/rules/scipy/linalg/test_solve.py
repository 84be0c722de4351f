"""Tests of the rules for scipy.linalg.solve and solve_triangular, and of the table of
scipy.linalg functions without derivatives."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from fdm import central_fdm
from samples import DTYPES, count_calls, ids, sample

import chainrules as cr

# Trial steps of the default finite differences can leave the positive definite matrices
# (cholesky then raises): these checks use small steps.
SMALL_STEPS = central_fdm(5, 1)


def positive_definite(n, dtype, seed=0):
    s = sample((n, n), dtype, seed)
    return s @ np.conj(s.T) + n * np.eye(n)


SOLVE = [
    {},
    {"assume_a": "gen"},
    {"assume_a": "sym"},
    {"assume_a": "sym", "lower": True},
    {"assume_a": "her"},
    {"assume_a": "pos"},
    {"assume_a": "pos", "lower": True},
    {"transposed": True},
]


@pytest.mark.parametrize("kwargs", SOLVE, ids=str)
@pytest.mark.parametrize("b_shape", [(3,), (3, 2)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve(kwargs, b_shape, dtype):
    if kwargs.get("transposed") and dtype == np.complex128:
        pytest.skip("SciPy solves no transposed complex system")
    a = (
        positive_definite(3, dtype)
        if kwargs.get("assume_a") in ("her", "pos")
        else sample((3, 3), dtype) + 3 * np.eye(3)
    )
    b = sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.solve, a, b, fkwargs=kwargs, check_second_order=True, fdm=SMALL_STEPS)
    test_frule(scipy.linalg.solve, a, b, fkwargs=kwargs, fdm=SMALL_STEPS)


@pytest.mark.parametrize("assume_a, factor", [("pos", "cho_factor"), ("gen", "lu_factor")])
def test_solve_pullback_reuses_the_factorization(monkeypatch, assume_a, factor):
    calls = count_calls(monkeypatch, scipy.linalg, "cho_factor", "lu_factor")
    a, b = positive_definite(4, np.float64), sample((4,), seed=1)
    _, pullback = cr.rrule(scipy.linalg.solve, a, b, assume_a=assume_a)
    _, _, db = pullback(np.ones(4))
    assert calls[factor] == 1 and sum(calls.values()) == 1
    np.testing.assert_allclose(db, np.linalg.solve(a, np.ones(4)), rtol=1e-12)


def test_solve_rejects_unsupported_structure():
    with pytest.raises(ValueError, match="banded"):
        cr.rrule(scipy.linalg.solve, np.eye(2), np.ones(2), assume_a="banded")


TRIANGULAR = [
    {},
    {"lower": True},
    {"trans": 1},
    {"trans": 2, "lower": True},
    {"unit_diagonal": True},
    {"trans": "T", "unit_diagonal": True, "lower": True},
]


@pytest.mark.parametrize("kwargs", TRIANGULAR, ids=str)
@pytest.mark.parametrize("b_shape", [(3,), (3, 2)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_solve_triangular(kwargs, b_shape, dtype):
    a, b = sample((3, 3), dtype) + 3 * np.eye(3), sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.solve_triangular, a, b, fkwargs=kwargs, check_second_order=True)
    test_frule(scipy.linalg.solve_triangular, a, b, fkwargs=kwargs)


NON_DIFFERENTIABLE = [
    (scipy.linalg.bandwidth, (np.triu(np.ones((3, 3))),)),
    (scipy.linalg.ishermitian, (np.eye(2),)),
    (scipy.linalg.issymmetric, (np.eye(2),)),
    (scipy.linalg.hilbert, (3,)),
]


@pytest.mark.parametrize("f, args", NON_DIFFERENTIABLE, ids=str)
def test_non_differentiable(f, args):
    _, pullback = cr.rrule(f, *args)
    assert pullback(1.0) == (cr.NoTangent(),) * (len(args) + 1)
