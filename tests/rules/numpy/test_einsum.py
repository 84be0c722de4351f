"""Tests of the rule for einsum: plain, batched, repeated, summed-out and broadcast indices."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import ids, normal

import chainrules as cr
from chainrules import NoTangent, unthunk
from chainrules.rules.numpy.einsum import _matrix_product_terms

NO = NoTangent()
EINSUM = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("ii->i", [(3, 3)]),
    ("ii", [(3, 3)]),
    ("ij->", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)]),
    ("i,i,i->", [(3,), (3,), (3,)]),
    ("iij,jk->ik", [(3, 3, 4), (4, 2)]),
    ("iji->j", [(2, 3, 2)]),
    ("ij,kl->ijkl", [(2, 3), (1, 2)]),
    ("ab,bc,cd->ad", [(2, 3), (3, 4), (4, 2)]),
    ("i...,i->...", [(3, 2, 2), (3,)]),
    ("ij,ij->ij", [(1, 3), (2, 3)]),
    ("ijk,j->ik", [(2, 3, 4), (3,)]),
    ("bij,bjk->bik", [(1, 3, 4), (2, 4, 5)]),
    ("ij,kj->ik", [(3, 1), (2, 4)]),
    ("ij,jk->k", [(2, 3), (3, 4)]),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("row", EINSUM, ids=lambda r: r[0])
def test_einsum(row: tuple, dtype: Any) -> None:
    spec, shapes = row
    rng = np.random.default_rng(0)
    operands = [normal(s, dtype, rng) for s in shapes]
    test_rrule(np.einsum, with_tangent(spec, NO), *operands, seed=1)
    test_frule(np.einsum, with_tangent(spec, NO), *operands, seed=1)


# The interleaved form: operands and sublists of labels, with or without an output sublist.
INTERLEAVED = [
    ([(3, 4), [0, 1], (4, 5), [1, 2], [0, 2]], "ij,jk->ik"),
    ([(3, 4), [0, 1], (4, 5), [1, 2]], "ij,jk"),
    ([(3, 3), [0, 0]], "ii"),
    ([(2, 3, 4), [Ellipsis, 30, 1], (4,), [1], [Ellipsis, 30]], "...ij,j->...i"),
    ([(3,), [51], (3,), [51], (3,), [51], []], "i,i,i->"),
    ([(2, 3), [1, 0], (3,), [0]], "ji,i"),
]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=ids)
@pytest.mark.parametrize("row", INTERLEAVED, ids=lambda r: r[1])
def test_einsum_interleaved(row: tuple, dtype: Any) -> None:
    args, spec = row
    rng = np.random.default_rng(0)
    args = [
        normal(a, dtype, rng) if i % 2 == 0 and i < len(args) - len(args) % 2 else a
        for i, a in enumerate(args)
    ]
    operands = args[0::2][: len(args) // 2]
    np.testing.assert_allclose(cr.rrule(np.einsum, *args)[0], np.einsum(spec, *operands))
    args = [with_tangent(a, NO) if isinstance(a, list) else a for a in args]
    test_rrule(np.einsum, *args, seed=1)
    test_frule(np.einsum, *args, seed=1)


def test_einsum_interleaved_values() -> None:
    a, b = np.arange(6.0).reshape(2, 3), np.ones(3)
    y, pullback = cr.rrule(np.einsum, a, [0, 1], b, [1], [0])
    np.testing.assert_array_equal(y, [3.0, 12.0])
    cotangents = pullback(np.array([1.0, 2.0]))
    assert len(cotangents) == 6
    assert cotangents[0] is NO and cotangents[2] is NO and cotangents[4:] == (NO, NO)
    np.testing.assert_array_equal(unthunk(cotangents[1]), [[1.0] * 3, [2.0] * 3])
    np.testing.assert_array_equal(unthunk(cotangents[3]), [6.0, 9.0, 12.0])
    # Labels below 26 sort before the others in the implicit output, as in NumPy.
    assert cr.rrule(np.einsum, a, [30, 2])[0].shape == np.einsum(a, [30, 2]).shape == (3, 2)


def test_einsum_exact_values() -> None:
    # A repeated index reads the diagonal: the cotangent lands on it.
    _, pullback = cr.rrule(np.einsum, "ii->", np.ones((3, 3)))
    np.testing.assert_array_equal(unthunk(pullback(2.0)[2]), 2.0 * np.eye(3))
    # An index summed within one operand spreads the cotangent over it.
    _, pullback = cr.rrule(np.einsum, "ij->i", np.ones((2, 3)))
    np.testing.assert_array_equal(
        unthunk(pullback(np.array([1.0, 2.0]))[2]), [[1.0] * 3, [2.0] * 3]
    )


def test_real_and_complex_operands() -> None:
    rng = np.random.default_rng(0)
    a, b = normal((3, 4), np.float64, rng), normal((4, 2), np.complex128, rng)
    test_rrule(np.einsum, with_tangent("ij,jk->ik", NO), a, b, seed=1)
    test_rrule(np.einsum, with_tangent("ij,jk->ik", NO), a, b.real, check_second_order=True)


# ---- empty axes -------------------------------------------------------------------------------

EMPTY_EINSUMS = [
    ("ij->", np.zeros((2, 0))),
    ("ij->i", np.zeros((2, 0))),
    ("ij,jk->ik", np.zeros((2, 0)), np.zeros((0, 3))),
    ("i,j->ij", np.zeros(0), np.ones(3)),
    ("...i,...i", np.ones((1, 3)), np.arange(12.0).reshape(4, 3)),
]


@pytest.mark.parametrize("args", EMPTY_EINSUMS, ids=range(len(EMPTY_EINSUMS)))
def test_empty_and_broadcast_axes(args):
    # A letter of length 0 stays 0 (it does not broadcast like a length of 1).
    test_rrule(np.einsum, *args)
    test_frule(np.einsum, *args)
    _, pullback = cr.rrule(np.einsum, *args)
    y = np.einsum(*args)
    for operand, cotangent in zip(args[1:], pullback(np.ones(np.shape(y)))[2:], strict=True):
        assert np.shape(unthunk(cotangent)) == np.shape(operand)


# ---- two operands that make one matrix product: computed with matmul --------------------------

# (subscripts, shapes, the terms a, b and output spelled out): einsum's own result and, for
# operand a, the cotangent einsum(f"{out},{tb}->{ta}", dy, conj(b)) are the references.
MATRIX_PRODUCTS = [
    ("ij,kj->ik", [(4, 6), (5, 6)], "ij,kj,ik"),
    ("ij,jk", [(3, 4), (4, 5)], "ij,jk,ik"),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)], "bij,bjk,bik"),
    ("...ij,...jk->...ik", [(2, 3, 4), (4, 5)], "aij,jk,aik"),
    ("ijk,j->ik", [(2, 3, 4), (3,)], "ijk,j,ik"),
    ("ij,j->i", [(3, 4), (4,)], "ij,j,i"),
    ("abc,cda->bd", [(2, 3, 4), (4, 5, 2)], "abc,cda,bd"),
    ("ij,jk->ki", [(2, 3), (3, 4)], "ij,jk,ki"),
    ("ij,jk->ki", [(2, 0), (0, 3)], "ij,jk,ki"),
    ("bji,bkj->kbi", [(2, 3, 4), (2, 5, 3)], "bji,bkj,kbi"),
    ("ij,jk->ik", [(3, 1), (1, 2)], "ij,jk,ik"),
]
PAIR_DTYPES = [
    (np.float64, np.float64),
    (np.float32, np.float32),
    (np.complex128, np.complex128),
    (np.float64, np.complex128),
    (np.float32, np.float64),
]


@pytest.mark.parametrize("dtypes", PAIR_DTYPES, ids=lambda d: "-".join(np.dtype(t).name for t in d))
@pytest.mark.parametrize("row", MATRIX_PRODUCTS, ids=lambda r: f"{r[0]}{r[1]}")
def test_matrix_product_values(row: tuple, dtypes: tuple) -> None:
    spec, shapes, spelled = row
    rng = np.random.default_rng(0)
    a, b = (normal(s, t, rng) for s, t in zip(shapes, dtypes, strict=True))
    assert _matrix_product_terms(spec, (a, b)) is not None  # the case under test
    y, pullback = cr.rrule(np.einsum, spec, a, b)
    expected = np.einsum(spec, a, b)
    # BLAS sums in another order than einsum: a rounding apart, relative to the terms' size.
    tol = {"rtol": 1e-5, "atol": 1e-5} if np.float32 in dtypes else {"rtol": 1e-12, "atol": 1e-12}
    assert type(y) is np.ndarray and y.dtype == expected.dtype and y.shape == expected.shape
    np.testing.assert_allclose(y, expected, **tol)
    dy = normal(y.shape, np.result_type(*dtypes), rng)
    da, db = (unthunk(c) for c in pullback(dy)[2:])
    ta, tb, out = spelled.split(",")
    for d, x, term, other, t_other in ((da, a, ta, b, tb), (db, b, tb, a, ta)):
        reference = np.einsum(f"{out},{t_other}->{term}", dy, np.conj(other))
        if x.dtype.kind != "c":
            reference = reference.real
        assert d.dtype == x.dtype and d.shape == x.shape
        np.testing.assert_allclose(d, reference, **tol)


def test_matrix_product_with_other_cotangents() -> None:
    rng = np.random.default_rng(0)
    a, b = normal((3, 4), np.float64, rng), normal((4, 2), np.float64, rng)
    _, pullback = cr.rrule(np.einsum, "ij,jk->ik", a, b)
    # A cotangent of another dtype or type than the arrays': einsum's general way.
    for dy in (normal((3, 2), np.complex128, rng), normal((3, 2), np.float16, rng)):
        da, db = (unthunk(c) for c in pullback(dy)[2:])
        np.testing.assert_allclose(da, (dy @ b.T).real, rtol=1e-12)
        np.testing.assert_allclose(db, (a.T @ dy).real, rtol=1e-12)
        assert da.dtype == db.dtype == np.float64
    test_rrule(np.einsum, with_tangent("ij,jk->ik", NO), a, b, check_second_order=True)
    test_rrule(
        np.einsum,
        with_tangent("bij,bj->bi", NO),
        normal((2, 3, 4), np.float64, rng),
        normal((2, 4), np.float64, rng),
        check_second_order=True,
    )
