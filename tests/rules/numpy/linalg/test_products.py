"""Tests of the np.linalg rules for matrix_power, multi_dot and vecdot."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, invertible, sample

import chainrules as cr


@pytest.mark.parametrize("n", [0, 1, 3, -2])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_matrix_power(n, dtype):
    a = invertible((3, 3), dtype)
    test_rrule(np.linalg.matrix_power, a, n, check_second_order=True)
    test_frule(np.linalg.matrix_power, a, n)


def test_matrix_power_of_a_stack():
    a = invertible((2, 3, 3))
    test_rrule(np.linalg.matrix_power, a, 2)
    test_frule(np.linalg.matrix_power, a, -1)


def test_matrix_power_zero_is_constant():
    _, pullback = cr.rrule(np.linalg.matrix_power, np.eye(2), 0)
    np.testing.assert_array_equal(pullback(np.ones((2, 2)))[1], np.zeros((2, 2)))


MULTI_DOT = [[(3,), (3, 4), (4, 2), (2,)], [(3, 4), (4, 2), (2, 5)], [(4,), (4, 3)]]


@pytest.mark.parametrize("shapes", MULTI_DOT, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_multi_dot(shapes, dtype):
    arrays = [sample(s, dtype, k) for k, s in enumerate(shapes)]
    test_rrule(np.linalg.multi_dot, arrays)
    test_frule(np.linalg.multi_dot, arrays)


VECDOT = [((2, 3), (3,), {}), ((3, 2), (3, 2), {"axis": 0})]


@pytest.mark.parametrize("s1, s2, kwargs", VECDOT, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_vecdot(s1, s2, kwargs, dtype):
    x1, x2 = sample(s1, dtype, 1), sample(s2, dtype, 2)
    test_rrule(np.linalg.vecdot, x1, x2, fkwargs=kwargs, check_second_order=True)
    test_frule(np.linalg.vecdot, x1, x2, fkwargs=kwargs)
