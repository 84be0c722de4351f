"""Tests of the rules for products: matmul, dot, inner, tensordot, vdot, outer, kron, cross."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import needs, test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import ids, normal

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk
from chainrules._compat import matvec, vecmat

NO = NoTangent()

# (function, shapes of the factors, other positional arguments, keyword arguments)
ROWS = [
    (np.matmul, [(3, 4), (4, 5)], (), {}),
    (np.matmul, [(2, 1, 3, 4), (5, 4, 2)], (), {}),
    (np.matmul, [(4,), (2, 4, 5)], (), {}),
    (np.matmul, [(2, 3, 4), (4,)], (), {}),
    (np.matmul, [(4,), (4,)], (), {}),
    (np.ndarray.__matmul__, [(3, 4), (4, 2)], (), {}),
    (np.dot, [(3, 4), (4, 5)], (), {}),
    (np.dot, [(2, 3, 4), (5, 4, 6)], (), {}),
    (np.dot, [(2, 3, 4), (4,)], (), {}),
    (np.dot, [(), (4,)], (), {}),
    (np.ndarray.dot, [(3, 4), (4,)], (), {}),
    (np.inner, [(2, 3, 4), (5, 4)], (), {}),
    (np.inner, [(4,), (4,)], (), {}),
    (np.tensordot, [(2, 3, 4), (3, 4, 5)], (), {}),
    (np.tensordot, [(2, 3, 4), (4, 5, 2)], (([0, 2], [2, 0]),), {}),
    (np.tensordot, [(2, 3), (4, 5)], (), {"axes": 0}),
    (np.vdot, [(2, 3), (6,)], (), {}),
    (np.outer, [(2, 3), (4,)], (), {}),
    (np.kron, [(2, 3), (4, 2)], (), {}),
    (np.kron, [(3,), (2, 2)], (), {}),
    (np.cross, [(5, 3), (3,)], (), {}),
    (np.cross, [(3, 5), (4, 5, 3)], (), {"axisa": 0, "axisc": 0}),
    (np.cross, [(3, 5), (3, 5)], (), {"axis": 0}),
]

# Two-component vectors (deprecated by NumPy, still computed): the third component is zero.
CROSS_2D_ROWS = [
    ([(2,), (2,)], {}),
    ([(4, 2), (2,)], {}),
    ([(2, 4), (4, 3)], {"axisa": 0}),
    ([(3,), (5, 2)], {"axisc": 0}),
    ([(2, 5), (3, 5)], {"axis": 0}),
]


def row_id(row: tuple) -> str:
    return f"{row[0].__name__}{row[1]}{row[2] or ''}{row[3] or ''}".replace(" ", "")


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("row", ROWS, ids=row_id)
def test_products(row: tuple, dtype: Any) -> None:
    f, shapes, others, kwargs = row
    rng = np.random.default_rng(0)
    factors = [normal(s, dtype, rng) for s in shapes]
    others = [with_tangent(o, NO) for o in others]
    test_rrule(f, *factors, *others, fkwargs=kwargs, seed=1)
    test_frule(f, *factors, *others, fkwargs=kwargs, seed=1)


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("shapes, kwargs", CROSS_2D_ROWS, ids=str)
def test_cross_two_components(shapes: list, kwargs: dict, dtype: Any) -> None:
    rng = np.random.default_rng(0)
    a, b = (normal(s, dtype, rng) for s in shapes)
    test_rrule(np.cross, a, b, fkwargs=kwargs, seed=1)
    test_frule(np.cross, a, b, fkwargs=kwargs, seed=1)


@pytest.mark.filterwarnings("ignore:Arrays of 2-dimensional vectors:DeprecationWarning")
def test_cross_two_components_values() -> None:
    a, b = np.array([1.0, 2.0]), np.array([3.0, 4.0])
    # y = a0 b1 - a1 b0: the gradients are (b1, -b0) and (-a1, a0).
    y, pullback = cr.rrule(np.cross, a, b)
    assert y == -2.0
    _, da, db = (unthunk(c) for c in pullback(2.0))
    np.testing.assert_array_equal(da, [8.0, -6.0])
    np.testing.assert_array_equal(db, [-4.0, 2.0])
    _, dy = cr.frule((NO, np.array([1.0, 0.0]), np.array([0.0, 1.0])), np.cross, a, b)
    assert dy == 4.0 + 1.0
    # Against a three-component vector the missing component is zero and gets no cotangent.
    c = np.array([1.0, 2.0, 3.0])
    y, pullback = cr.rrule(np.cross, a, c)
    np.testing.assert_array_equal(y, np.cross(np.append(a, 0.0), c))
    _, da, dc = (unthunk(t) for t in pullback(np.array([1.0, 0.0, 0.0])))
    np.testing.assert_array_equal(da, [0.0, 3.0])
    np.testing.assert_array_equal(dc, [0.0, 0.0, 2.0])


def test_mixed_real_and_complex_factors() -> None:
    rng = np.random.default_rng(0)
    a, b = normal((3, 4), np.float64, rng), normal((4, 2), np.complex128, rng)
    test_rrule(np.matmul, a, b, seed=1)
    # The real factor's cotangent is real.
    _, pullback = cr.rrule(np.matmul, a, b)
    assert unthunk(pullback(np.ones((3, 2), dtype=complex))[1]).dtype == np.float64


def test_conventions() -> None:
    a = np.array([1.0 + 2.0j, 3.0 - 1.0j])
    b = np.array([2.0 - 1.0j, 1.0j])
    # Holomorphic: the cotangent of a in a @ b is dy * conj(b).
    _, pullback = cr.rrule(np.matmul, a, b)
    np.testing.assert_allclose(unthunk(pullback(1.0 + 0.0j)[1]), np.conj(b))
    # vdot conjugates its first factor: its cotangent is b * conj(dy).
    _, pullback = cr.rrule(np.vdot, a, b)
    np.testing.assert_allclose(unthunk(pullback(1.0j)[1]), b * -1.0j)
    np.testing.assert_allclose(unthunk(pullback(1.0j)[2]), a * 1.0j)


def test_second_order() -> None:
    rng = np.random.default_rng(0)
    a, b = normal((3, 4), np.float64, rng), normal((4, 2), np.float64, rng)
    test_rrule(np.matmul, a, b, check_second_order=True, seed=1)
    test_rrule(np.kron, a, b, check_second_order=True, seed=1)


def test_zero_cotangent_and_dtype() -> None:
    a = np.ones((2, 3), dtype=np.float32)
    b = np.ones((3, 2), dtype=np.float32)
    _, pullback = cr.rrule(np.dot, a, b)
    assert pullback(ZeroTangent())[1:] == (ZeroTangent(), ZeroTangent())
    assert unthunk(pullback(np.ones((2, 2), dtype=np.float32))[2]).dtype == np.float32
    # Integer factors have no tangent space.
    _, pullback = cr.rrule(np.matmul, np.ones((2, 2), dtype=int), np.ones((2, 2)))
    assert pullback(np.ones((2, 2)))[1] == NO


VECTOR_ROWS = [
    (np.vecdot, [(2, 3, 4), (4,)], {}),
    (np.vecdot, [(3, 4), (2, 3, 4)], {"axis": -2}),
    (matvec, [(2, 3, 4), (4,)]),
    (matvec, [(3, 4), (2, 4)]),
    (vecmat, [(4,), (2, 4, 3)]),
    (vecmat, [(2, 4), (4, 3)]),
]
VECTOR_ROWS = [pytest.param(row, marks=needs(row[0])) for row in VECTOR_ROWS]


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["float64", "complex128"])
@pytest.mark.parametrize("row", VECTOR_ROWS, ids=lambda r: f"{r[0].__name__}{r[1]}")
def test_vector_products(row: tuple, dtype: Any) -> None:
    f, shapes, *rest = row
    kwargs = rest[0] if rest else {}
    rng = np.random.default_rng(0)
    factors = [normal(s, dtype, rng) for s in shapes]
    test_rrule(f, *factors, fkwargs=kwargs, seed=1)
    test_frule(f, *factors, fkwargs=kwargs, seed=1)
