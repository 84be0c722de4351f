"""Tests of the rules for scipy.linalg.polar and orthogonal_procrustes."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr


@pytest.mark.parametrize("side", ["right", "left"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_polar(side, dtype):
    a = sample((3, 3), dtype) + 2 * np.eye(3)
    test_rrule(scipy.linalg.polar, a, side)
    test_frule(scipy.linalg.polar, a, side)
    tall = sample((4, 2), dtype, 1)
    test_rrule(scipy.linalg.polar, tall)


@pytest.mark.parametrize("shapes", [((4, 3), (4, 3)), ((3, 3), (3, 3))], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_orthogonal_procrustes(dtype, shapes):
    a, b = sample(shapes[0], dtype), sample(shapes[1], dtype, 1)
    (r, scale), _ = cr.rrule(scipy.linalg.orthogonal_procrustes, a, b)
    expected_r, expected_scale = scipy.linalg.orthogonal_procrustes(a, b)
    np.testing.assert_allclose(r, expected_r, atol=1e-12)
    np.testing.assert_allclose(scale, expected_scale)
    test_rrule(scipy.linalg.orthogonal_procrustes, a, b)
    test_frule(scipy.linalg.orthogonal_procrustes, a, b)


def test_orthogonal_procrustes_scale_gradient_is_the_rotation():
    a, b = np.eye(2), np.array([[0.0, -2.0], [1.0, 0.0]])
    (r, _), pullback = cr.rrule(scipy.linalg.orthogonal_procrustes, a, b)
    _, da, db = pullback(cr.Tangent(tuple, cr.ZeroTangent(), 1.0))
    np.testing.assert_allclose(db, r)
    np.testing.assert_allclose(da, b @ r.T)


def test_polar_of_a_stack_returns_scipy_list():
    a = sample((2, 3, 3)) + 3 * np.eye(3)
    y, _ = cr.rrule(scipy.linalg.polar, a)
    assert type(y) is type(scipy.linalg.polar(a)) is list
    test_rrule(scipy.linalg.polar, a, check_second_order=False)
    test_frule(scipy.linalg.polar, a)
