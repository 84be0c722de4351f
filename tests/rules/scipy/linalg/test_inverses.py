"""Tests of the rules for scipy.linalg.det, inv, pinv, pinvh and lstsq."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules._compat import SCIPY_VERSION

SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_and_inv(dtype):
    a = sample((3, 3), dtype) + 3 * np.eye(3)
    for f in (scipy.linalg.det, scipy.linalg.inv):
        test_rrule(f, a, check_second_order=True)
        test_frule(f, a)


@pytest.mark.skipif(SCIPY_VERSION < (1, 17), reason="scipy.linalg.inv takes assume_a from 1.17 on")
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_inv_of_structured_matrices(dtype):
    s = sample((3, 3), dtype, 1)
    spd = s @ np.conj(s.T) + 3 * np.eye(3)
    for kind in ("pos", "her", "sym"):
        test_rrule(scipy.linalg.inv, spd, fkwargs={"assume_a": kind})
        test_frule(scipy.linalg.inv, spd, fkwargs={"assume_a": kind, "lower": True})


def test_det_of_singular_matrix_is_finite():
    _, pullback = cr.rrule(scipy.linalg.det, np.ones((3, 3)))
    np.testing.assert_allclose(pullback(1.0)[1], np.zeros((3, 3)), atol=1e-12)


@pytest.mark.parametrize("shape", SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinv(shape, dtype):
    a = sample(shape, dtype)
    test_rrule(scipy.linalg.pinv, a)
    test_frule(scipy.linalg.pinv, a)
    test_rrule(scipy.linalg.pinv, a, fkwargs={"return_rank": True})


def hermitian(n, dtype, seed=0):
    a = sample((n, n), dtype, seed)
    return a + a.conj().T


LSTSQ = [((4, 2), (4,)), ((4, 2), (4, 3)), ((2, 4), (2,)), ((3, 3), (3, 2))]


@pytest.mark.parametrize(("a_shape", "b_shape"), LSTSQ, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_lstsq(a_shape, b_shape, dtype):
    a, b = sample(a_shape, dtype), sample(b_shape, dtype, 1)
    test_rrule(scipy.linalg.lstsq, a, b)
    test_frule(scipy.linalg.lstsq, a, b)


@pytest.mark.parametrize(("a_shape", "b_shape"), LSTSQ, ids=str)
def test_lstsq_matches_scipy_outputs(a_shape, b_shape):
    a, b = sample(a_shape), sample(b_shape, np.float64, 1)
    (x, residues, rank, s), _ = cr.rrule(scipy.linalg.lstsq, a, b)
    expected = scipy.linalg.lstsq(a, b)
    np.testing.assert_allclose(x, expected[0])
    assert np.shape(residues) == np.shape(expected[1])
    np.testing.assert_allclose(residues, expected[1])
    assert rank == expected[2]
    np.testing.assert_allclose(s, expected[3])


@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_pinvh(dtype, lower):
    a = hermitian(3, dtype)
    p, _ = cr.rrule(scipy.linalg.pinvh, a, lower=lower)
    np.testing.assert_allclose(p, scipy.linalg.pinvh(a, lower=lower), rtol=1e-10)
    test_rrule(scipy.linalg.pinvh, a, fkwargs={"lower": lower})
    test_frule(scipy.linalg.pinvh, a, fkwargs={"lower": lower})


def test_pinvh_reads_one_triangle():
    a = np.array([[2.0, 5.0], [1.0, 3.0]])
    _, pullback = cr.rrule(scipy.linalg.pinvh, a)
    assert pullback(np.ones((2, 2)))[1][0, 1] == 0.0


def test_unsupported_keyword_is_named():
    with pytest.raises(cr.RuleKeywordError, match="'b'"):
        cr.rrule(scipy.linalg.eigvals, np.eye(2), b=np.eye(2))
