"""Tests of the rules for indexing: x[key], take, take_along_axis, compress, extract, choose..."""

from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent
from samples import ARRAY_DTYPES as DTYPES
from samples import ids, sample

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.rules.numpy.indexing import getitem_adjoint

RNG = np.random.default_rng(0)
X_SHAPE = (4, 5, 6)
GETITEM_KEYS = {
    "int": 1,
    "slices": (1, slice(None, None, 2)),
    "ellipsis": (Ellipsis, 2),
    "newaxis": (None, 1, slice(1, 3)),
    "mask": RNG.standard_normal(X_SHAPE) > 0,
    "row-mask": (np.array([True, False, True, True]),),
    "repeated": np.array([0, 0, 3, -1]),
    "list": [2, 2, 0],
    "two-arrays": (np.array([0, 0, 1]), slice(None), np.array([2, 2, 2])),
    "array-after-slice": (slice(None), np.array([[1, 1], [4, 0]])),
    "mixed": (np.array([1, 1]), 2, np.array([0, 0])),
    "scalar": (1, 2, 3),
}


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("key", GETITEM_KEYS.values(), ids=GETITEM_KEYS.keys())
def test_getitem(key: Any, dtype: Any) -> None:
    x = sample(X_SHAPE, dtype, 1)
    test_rrule(np.ndarray.__getitem__, x, with_tangent(key, NoTangent()), seed=1)
    test_frule(np.ndarray.__getitem__, x, with_tangent(key, NoTangent()), seed=1)


NO = NoTangent()
X = "x"  # the differentiated array, drawn per dtype; every other argument gets no tangent
ARGSORT = np.argsort(sample(X_SHAPE, np.float64, 1), axis=1)[:, ::2]
ROWS = [
    (np.take, [X, np.array([0, 5, 5, -1])], {}),
    (np.take, [X, np.array([[0, 5], [7, 7]])], {"axis": 2, "mode": "wrap"}),
    (np.take, [X, np.array([0, 9, 9])], {"axis": 1, "mode": "clip"}),
    (np.ndarray.take, [X, np.array([0, 3, 3]), 0], {}),
    (np.take_along_axis, [X, ARGSORT], {"axis": 1}),
    (np.take_along_axis, [X, np.zeros((4, 1, 6), dtype=int)], {"axis": 1}),
    (np.compress, [[True, False, True, True], X], {"axis": 0}),
    (np.compress, [[True, False, True], X], {}),
    (np.extract, [sample(X_SHAPE, np.float64, 1) > 0.3, X], {}),
    (np.ndarray.compress, [X, [True, False, True], 1], {}),
    (np.ndarray.item, [X, 7], {}),
    (np.ndarray.item, [X, 1, 2, 3], {}),
]


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
@pytest.mark.parametrize("row", ROWS, ids=lambda r: r[0].__name__)
def test_gathers(row: tuple, dtype: Any) -> None:
    f, spec, kwargs = row
    x = sample(X_SHAPE, dtype, 1)
    args = [x if isinstance(s, str) else with_tangent(s, NO) for s in spec]
    test_rrule(f, *args, fkwargs=kwargs, seed=1)
    test_frule(f, *args, fkwargs=kwargs, seed=1)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_choose_and_select(dtype: Any) -> None:
    x = sample(X_SHAPE, dtype, 1)
    index = np.random.default_rng(2).integers(0, 3, (5, 6))
    choices = [x[0], x[1, :1], x[2]]
    test_rrule(np.choose, with_tangent(index, NO), choices, seed=1)
    test_frule(np.choose, with_tangent(index, NO), choices, seed=1)
    test_rrule(np.choose, with_tangent(index - 1, NO), choices[:2], fkwargs={"mode": "wrap"})
    test_rrule(np.ndarray.choose, with_tangent(index, NO), choices, seed=1)
    test_frule(np.ndarray.choose, with_tangent(index, NO), choices, seed=1)
    conditions = with_tangent([x.real[0] > 0, x.real[1] > 0], NO)
    test_rrule(np.select, conditions, [x[2], x[3, :1]], seed=1)
    test_rrule(np.select, conditions, [x[2], x[3, :1]], x[1], seed=1)
    test_frule(np.select, conditions, [x[2], x[3, :1]], x[1], seed=1)


def test_repeated_indices_accumulate() -> None:
    x = np.arange(3.0)
    _, pullback = cr.rrule(np.ndarray.__getitem__, x, np.array([0, 2, 0, -1]))
    np.testing.assert_array_equal(
        pullback(np.array([1.0, 10.0, 100.0, 1000.0]))[1], [101.0, 0.0, 1010.0]
    )
    expected = np.zeros((3, 2))
    np.add.at(expected, ([1, 1, 2], [0, 0, 1]), [1.0, 2.0, 4.0])
    np.testing.assert_array_equal(
        getitem_adjoint(np.array([1.0, 2.0, 4.0]), (3, 2), ([1, 1, 2], [0, 0, 1])), expected
    )
    _, pullback = cr.rrule(np.take, x, [1, 1, 4], mode="clip")
    np.testing.assert_array_equal(pullback(np.ones(3))[1], [0.0, 2.0, 1.0])


def test_choose_routes_to_the_chosen() -> None:
    _, pullback = cr.rrule(np.choose, np.array([0, 1, 1]), [np.zeros(3), 1.0])
    d_choices = pullback(np.array([1.0, 2.0, 3.0]))[2]
    np.testing.assert_array_equal(d_choices[0], [1.0, 0.0, 0.0])
    assert d_choices[1] == 5.0  # a scalar choice broadcast to all elements sums its share


def test_choices_given_as_one_array() -> None:
    index, choices = np.array([0, 1, 0]), sample((2, 3), np.float64, 1)
    test_rrule(np.choose, with_tangent(index, NO), choices, seed=1)
    test_rrule(np.ndarray.choose, with_tangent(index, NO), choices, seed=1)
    _, pullback = cr.rrule(np.choose, index, choices)
    np.testing.assert_array_equal(pullback(np.ones(3))[2], [[1.0, 0.0, 1.0], [0.0, 1.0, 0.0]])


def test_second_order() -> None:
    x = sample((4, 3), np.float64, 1)
    test_rrule(
        np.ndarray.__getitem__,
        x,
        with_tangent(np.array([0, 0, 2]), NO),
        check_second_order=True,
        seed=1,
    )
    test_rrule(
        np.ndarray.__getitem__,
        x,
        with_tangent((slice(1, 3), 0), NO),
        check_second_order=True,
        seed=1,
    )
    test_rrule(np.take, x, with_tangent(np.array([5, 5, 0]), NO), check_second_order=True)


def test_bincount() -> None:
    index = np.array([0, 2, 2, 5])
    weights = np.array([1.0, 2.0, 3.0, 4.0])
    test_rrule(np.bincount, with_tangent(index, NO), weights, seed=1)
    test_frule(np.bincount, with_tangent(index, NO), weights, with_tangent(8, NO), seed=1)
    _, pullback = cr.rrule(np.bincount, index)
    assert pullback(np.ones(6)) == (NO, NO)
    # Weights given by keyword would get no cotangent: no rule for that form.
    assert cr.rrule(np.bincount, index, weights=weights) is None


def test_zero_cotangent_and_dtype() -> None:
    x = np.ones((3, 2), dtype=np.float32)
    _, pullback = cr.rrule(np.ndarray.__getitem__, x, np.array([0, 0]))
    assert pullback(ZeroTangent())[1] == ZeroTangent()
    assert pullback(np.ones((2, 2), dtype=np.float32))[1].dtype == np.float32


def test_index_functions_are_non_differentiable() -> None:
    y, pullback = cr.rrule(np.unravel_index, 5, (2, 3))
    assert y == (1, 2)
    assert pullback(None) == (NO, NO, NO)
    assert cr.frule((NO, NO), np.tril_indices, 3)[1] == NO


def test_bincount_of_empty_weights():
    # NumPy's bincount with empty weights returns integers, which have no tangent.
    x, w = np.zeros(0, dtype=np.int64), np.zeros(0)
    y, dy = cr.frule((NoTangent(), NoTangent(), np.zeros(0)), np.bincount, x, w)
    assert y.dtype == np.int64 and dy is NoTangent()
    test_rrule(np.bincount, x, w)
    test_frule(np.bincount, x, w)


# ---- take's adjoint on NumPy cotangents: written into zeros, or summed where indices repeat ----

TAKE_ADJOINTS = {
    "stride": ((4, 9), np.arange(0, 9, 2), 1, "raise"),
    "reversed-stride": ((4, 9), np.arange(8, -1, -3), 1, "raise"),
    "reversed-to-zero": ((4, 9), np.arange(8, -1, -2), -1, "raise"),
    "permutation": ((4, 5, 6), np.array([3, 0, 4, 1]), 1, "raise"),
    "negative": ((4, 5, 6), np.array([-1, 0, 2]), -1, "raise"),
    "negative-stride": ((4, 5, 6), np.array([-5, -3, -1]), 2, "raise"),
    "repeated": ((4, 5, 6), np.array([2, 0, 2, 2]), 1, "raise"),
    "repeated-negative": ((4, 5, 6), np.array([4, -1, 0]), 1, "raise"),
    "more-than-the-axis": ((4, 3, 2), np.array([0, 1, 2, -3, 1, 2, 2]), 1, "raise"),
    "index-matrix": ((4, 5, 6), np.array([[1, 3], [0, 2]]), 0, "raise"),
    "index-matrix-repeated": ((4, 5, 6), np.array([[1, 3], [3, 1]]), 2, "raise"),
    "scalar-index": ((4, 5, 6), np.array(2), 1, "raise"),
    "empty-index": ((4, 5, 6), np.zeros(0, dtype=int), 1, "raise"),
    "flat": ((4, 5, 6), np.array([7, 119, 0, -2]), None, "raise"),
    "flat-repeated": ((4, 5, 6), np.array([7, 7, 8]), None, "raise"),
    "vector": ((6,), np.array([5, 1, -6]), 0, "raise"),
    "wrap": ((4, 5, 6), np.array([-7, 6, 13]), 2, "wrap"),
    "clip": ((4, 5, 6), np.array([-3, 2, 9]), 1, "clip"),
    "uint8": ((4, 5, 6), np.array([3, 0, 4], dtype=np.uint8), 1, "raise"),  # 0 - 3 wraps
    "bool": ((4, 5, 6), np.array([True, False, True]), 2, "raise"),  # read as 1, 0, 1
}


def _take_adjoint_reference(dy: Any, x_shape: tuple, index: Any, axis: Any, mode: str) -> Any:
    """The adjoint of take by np.add.at, on indices brought into range as NumPy's modes say."""
    shape = (int(np.prod(x_shape)),) if axis is None else x_shape
    axis = 0 if axis is None else axis % len(x_shape)
    n = shape[axis]
    index = np.asarray(index, dtype=np.intp)
    index = {"wrap": np.mod(index, n), "clip": np.clip(index, 0, n - 1)}.get(mode, index)
    expected = np.zeros(shape, dtype=np.result_type(dy.dtype, np.float32))
    np.add.at(expected, (slice(None),) * axis + (index,), dy)
    return expected.reshape(x_shape)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128], ids=ids)
@pytest.mark.parametrize("case", TAKE_ADJOINTS.values(), ids=TAKE_ADJOINTS.keys())
def test_take_adjoint_values(case: tuple, dtype: Any) -> None:
    x_shape, index, axis, mode = case
    x = sample(x_shape, dtype, 1)
    y, pullback = cr.rrule(np.take, x, index, axis=axis, mode=mode)
    np.testing.assert_array_equal(y, np.take(x, index, axis=axis, mode=mode))
    dy = sample(np.shape(y), dtype, 2)
    dx = pullback(dy)[1]
    expected = _take_adjoint_reference(dy, x_shape, index, axis, mode)
    assert type(dx) is np.ndarray and dx.dtype == x.dtype and dx.shape == x.shape
    # Where no index repeats each element is a copy of one of dy's; elsewhere the sums may be
    # made in another order than np.add.at's (in float64 for float32), a rounding apart.
    np.testing.assert_allclose(dx, expected, rtol=1e-6 if dtype == np.float32 else 1e-14)
    _, pullback = cr.rrule(np.ndarray.take, x, index, axis, mode=mode)
    np.testing.assert_allclose(
        pullback(dy)[1], expected, rtol=1e-6 if dtype == np.float32 else 1e-14
    )


def test_take_adjoint_of_complex_and_other_dtypes() -> None:
    x = sample((3, 4), np.float64, 1)
    index = np.array([3, 1, 3])
    # A complex cotangent of a real array: its real part; float32 into float64, cast.
    _, pullback = cr.rrule(np.take, x, np.array([3, 1]), axis=1)
    dy = sample((3, 2), np.complex128, 2)
    expected = np.zeros((3, 4))
    expected[:, [3, 1]] = dy.real
    np.testing.assert_array_equal(pullback(dy)[1], expected)
    _, pullback = cr.rrule(np.take, x, index, axis=1)
    dy32 = sample((3, 3), np.float32, 2)
    dx = pullback(dy32)[1]
    assert dx.dtype == np.float64
    np.testing.assert_allclose(dx, _take_adjoint_reference(dy32, (3, 4), index, 1, "raise"))


def test_take_adjoint_of_a_dask_cotangent_stays_lazy() -> None:
    # Written into NumPy zeros only for NumPy cotangents: a dask one is scattered lazily.
    da = pytest.importorskip("dask.array")
    from chainrules_testing.lazy import nothing_computes

    x, dy = sample((4, 6), np.float64, 1), sample((4, 3), np.float64, 2)
    for index in (np.array([0, 2, 4]), np.array([5, 5, -1])):
        with nothing_computes():
            _, pullback = cr.rrule(np.take, da.from_array(x, chunks=(2, 3)), index, axis=1)
            dx = pullback(da.from_array(dy, chunks=(2, 3)))[1]
        np.testing.assert_allclose(dx.compute(), _take_adjoint_reference(dy, (4, 6), index, 1, ""))
