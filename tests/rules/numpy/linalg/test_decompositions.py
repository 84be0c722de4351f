"""Tests of the rules for np.linalg.cholesky and np.linalg.qr."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import spd
from hypothesis import find
from samples import DTYPES, ids, sample

import chainrules as cr


def positive_definite(shape, dtype):
    """Stacks of the harness' positive definite matrices, eigenvalues in [4, 8]: far enough
    from singular for the finite differences' trial steps."""
    n, count = shape[-1], int(np.prod(shape[:-2]))
    base = find(spd(n, low=4.0, high=8.0, dtype=dtype), lambda a: True)
    return np.reshape([base + 0.5 * k * np.eye(n) for k in range(count)], shape).astype(dtype)


@pytest.mark.parametrize("shape", [(3, 3), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("upper", [False, True])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_cholesky(shape, upper, dtype):
    a = positive_definite(shape, dtype)
    test_rrule(np.linalg.cholesky, a, fkwargs={"upper": upper}, check_second_order=True)
    test_frule(np.linalg.cholesky, a, fkwargs={"upper": upper})


def test_cholesky_reads_one_triangle_and_the_real_diagonal():
    """The cotangent lies on the triangle read; complex input keeps a real diagonal."""
    a = positive_definite((3, 3), np.complex128)
    _, pullback = cr.rrule(np.linalg.cholesky, a)
    g = pullback(sample((3, 3), np.complex128, 1))[1]
    np.testing.assert_array_equal(np.triu(g, 1), 0)
    np.testing.assert_array_equal(np.imag(np.diagonal(g)), 0)
    low, dlow = cr.frule((None, sample((3, 3), np.complex128, 2)), np.linalg.cholesky, a)
    np.testing.assert_array_equal(np.imag(np.diagonal(low)), 0)
    np.testing.assert_array_equal(np.imag(np.diagonal(dlow)), 0)


def test_cholesky_float32():
    a = positive_definite((3, 3), np.float32)
    test_rrule(np.linalg.cholesky, a)


QR_SHAPES = [(3, 3), (5, 3), (3, 5), (2, 4, 3), (2, 3, 4)]


@pytest.mark.parametrize("shape", QR_SHAPES, ids=str)
@pytest.mark.parametrize("mode", ["reduced", "r"])
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_qr(shape, mode, dtype):
    a = sample(shape, dtype)
    test_rrule(np.linalg.qr, a, mode, check_second_order=shape in ((3, 3), (3, 5)))
    test_frule(np.linalg.qr, a, mode)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_qr_complete(dtype):
    wide = sample((3, 5), dtype)
    test_rrule(np.linalg.qr, wide, "complete")
    test_frule(np.linalg.qr, wide, "complete")
    tall = sample((4, 2), dtype)
    result = np.linalg.qr(tall, "complete")
    g_q = np.concatenate((sample((4, 2), dtype, 1), np.zeros((4, 2))), axis=1)
    dy = cr.Tangent(type(result), Q=g_q, R=sample((4, 2), dtype, 2))
    test_rrule(np.linalg.qr, tall, "complete", output_tangent=dy)


def test_qr_complete_rejects_a_cotangent_on_undetermined_columns():
    tall = sample((4, 2))
    result, pullback = cr.rrule(np.linalg.qr, tall, "complete")
    with pytest.raises(ValueError, match="not determined"):
        pullback(cr.Tangent(type(result), Q=np.ones((4, 4))))


def test_qr_raw_has_no_rule():
    with pytest.raises(ValueError, match="raw"):
        cr.rrule(np.linalg.qr, sample((3, 3)), "raw")


@pytest.mark.parametrize("f", [np.linalg.cholesky, np.linalg.qr], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(0, 3, 3), (2, 0, 0), (0, 0)], ids=str)
def test_empty_stacks(f, shape):
    """SciPy's triangular solver refuses empty stacks; the rules answer them with empty
    cotangents."""
    a = np.zeros(shape) + np.eye(shape[-1])
    test_rrule(f, a, check_second_order=False)
    test_frule(f, a)
