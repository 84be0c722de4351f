"""Tests of the rules for sort, partition, sort_complex and unique, and of the index functions."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent


def distinct(shape, dtype=np.float64, seed=0):
    """Values without ties, so finite differences never reorder them."""
    rng = np.random.default_rng(seed)
    x = rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0 - 1.0
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(-1.0, 1.0, shape)
    return x.astype(dtype)


DTYPES = [np.float64, np.float32, np.complex128]


@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": None}, {"axis": -2}], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_sort(kwargs, dtype):
    x = distinct((2, 3, 4), dtype)
    test_rrule(np.sort, x, fkwargs=kwargs)
    test_frule(np.sort, x, fkwargs=kwargs)


def test_sort_keywords_and_positional_axis():
    x = distinct((3, 4))
    test_rrule(np.sort, x, 0)
    test_rrule(np.sort, x, fkwargs={"kind": "stable"})
    test_frule(np.sort, x, fkwargs={"stable": True})


def test_sort_ties_are_stable():
    # equal values keep their order: each receives the cotangent of the slot it landed in
    x = np.array([2.0, 1.0, 2.0, 1.0])
    _, pullback = cr.rrule(np.sort, x)
    assert np.array_equal(pullback(np.array([1.0, 2.0, 3.0, 4.0]))[1], [3.0, 1.0, 4.0, 2.0])
    _, dy = cr.frule((NoTangent(), np.array([1.0, 2.0, 3.0, 4.0])), np.sort, x)
    assert np.array_equal(dy, [2.0, 4.0, 1.0, 3.0])


TIED = [
    ([2.0, 1.0, 2.0, 1.0], -1),
    ([np.nan, 1.0, np.nan, 0.0], -1),
    ([0.0, -0.0, 0.0, -0.0], -1),
    (np.array([1.0, -np.nan, 1.0, np.nan, -np.inf], np.float32), -1),
    # 1 + 2**-52 and 1 share a packed key but for its lowest bits (see test_permutations)
    ([1.0 + 2.0**-52, 1.0, -1e300, 1e300, 1.0 + 2.0**-52, 1.0], -1),
    ([[1.0, 2.0, 1.0], [1.0, 0.0, 1.0], [0.5, 2.0, 1.0]], 0),
    ([[3.0, 1.0, 3.0], [np.nan, np.nan, 2.0]], 1),
]


@pytest.mark.parametrize("x, axis", TIED, ids=str)
def test_sort_follows_the_stable_order(x, axis):
    x = np.array(x)
    order = np.argsort(x, axis=axis, stable=True)
    dy = np.arange(1.0, x.size + 1).reshape(x.shape)
    expected = np.empty_like(dy)
    np.put_along_axis(expected, order, dy, axis=axis)
    y, pullback = cr.rrule(np.sort, x, axis=axis)
    assert np.array_equal(y, np.sort(x, axis=axis), equal_nan=True)
    assert np.array_equal(pullback(dy)[1], expected)
    _, tangent = cr.frule((NoTangent(), dy), np.sort, x, axis=axis)
    assert np.array_equal(tangent, np.take_along_axis(dy, order, axis=axis))


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=lambda d: np.dtype(d).name)
def test_sort_complex(dtype):
    x = distinct(7, dtype)
    test_rrule(np.sort_complex, x)
    test_frule(np.sort_complex, x)


PARTITIONS = [
    (2, {}),
    ([0, 2], {"axis": 1}),
    (10, {"axis": None}),
    (1, {"axis": 0}),
]


@pytest.mark.parametrize("kth, kwargs", PARTITIONS, ids=str)
def test_partition(kth, kwargs):
    x = distinct((3, 4, 5))
    test_rrule(np.partition, x, kth, fkwargs=kwargs)
    test_frule(np.partition, x, kth, fkwargs=kwargs)


def test_partition_with_ties_matches_numpy_arrangement():
    x = np.array([3.0, 1.0, 3.0, 0.0, 3.0, 2.0])
    y, pullback = cr.rrule(np.partition, x, 2)
    assert np.array_equal(y, np.partition(x, 2))
    dy = np.arange(6.0)
    dx = pullback(dy)[1]
    assert sorted(dx) == list(dy)  # a permutation of the cotangent
    for slot in range(3):  # the three smallest values are distinct: each gets its slot's share
        assert dx[list(x).index(y[slot])] == dy[slot]
    v = np.arange(10.0, 16.0)
    _, jv = cr.frule((NoTangent(), v, NoTangent()), np.partition, x, 2)
    assert np.dot(dy, jv) == np.dot(dx, v)


def test_unique_values():
    x = distinct((3, 4))
    test_rrule(np.unique, x)
    test_frule(np.unique, x)
    test_rrule(np.unique_values, x)
    test_frule(np.unique_values, x)


def test_unique_shares_repeated_values():
    x = np.array([3.0, 1.0, 3.0, 2.0, 3.0])
    _, pullback = cr.rrule(np.unique, x)
    assert np.array_equal(pullback(np.array([1.0, 10.0, 30.0]))[1], [10.0, 1.0, 10.0, 10.0, 10.0])
    _, dy = cr.frule((NoTangent(), np.array([1.0, 2.0, 3.0, 4.0, 5.0])), np.unique, x)
    assert np.allclose(dy, [2.0, 4.0, 3.0])  # tied elements: their mean tangent


def test_unique_rows():
    x = np.array([[1.0, 2.0], [3.0, 4.0], [1.0, 2.0]])
    _, pullback = cr.rrule(np.unique, x, axis=0)
    assert np.array_equal(pullback(np.array([[2.0, 4.0], [1.0, 1.0]]))[1], [[1, 2], [1, 1], [1, 2]])
    _, dy = cr.frule((NoTangent(), np.arange(6.0).reshape(3, 2)), np.unique, x, axis=0)
    assert np.array_equal(dy, [[2.0, 3.0], [2.0, 3.0]])


def test_unique_with_index_outputs():
    x = np.array([3.0, 1.0, 3.0])
    y, pullback = cr.rrule(np.unique, x, True, True, True)
    assert len(y) == 4
    cotangents = pullback((np.array([1.0, 4.0]), NoTangent(), NoTangent(), NoTangent()))
    assert np.array_equal(cotangents[1], [2.0, 1.0, 2.0])
    assert cotangents[2:] == (NoTangent(),) * 3


UNIQUE_RESULTS = [np.unique_counts, np.unique_inverse, np.unique_all]
UNIQUE_FLAGS = [(True, False, False), (False, True, True), (True, True, True)]


@pytest.mark.parametrize("f", UNIQUE_RESULTS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("dtype", DTYPES, ids=lambda d: np.dtype(d).name)
def test_unique_results(f, dtype):
    x = distinct((3, 4), dtype)
    test_rrule(f, x)
    test_frule(f, x)


@pytest.mark.parametrize("flags", UNIQUE_FLAGS, ids=str)
@pytest.mark.parametrize("axis", [None, 0], ids=str)
def test_unique_flags(flags, axis):
    x = distinct((3, 4))
    test_rrule(np.unique, x, *(with_tangent(f, NoTangent()) for f in flags), fkwargs={"axis": axis})
    test_frule(np.unique, x, *(with_tangent(f, NoTangent()) for f in flags), fkwargs={"axis": axis})


@pytest.mark.parametrize("f", UNIQUE_RESULTS, ids=lambda f: f.__name__)
def test_unique_results_share_repeated_values(f):
    x = np.array([[3.0, 1.0], [3.0, 2.0], [3.0, 2.0]])
    y, pullback = cr.rrule(f, x)
    assert np.array_equal(y.values, [1.0, 2.0, 3.0])
    dv = np.array([1.0, 10.0, 30.0])
    others = {name: NoTangent() for name in y._fields if name != "values"}
    expected = [[10.0, 1.0], [10.0, 5.0], [10.0, 5.0]]
    assert np.array_equal(pullback(cr.Tangent(type(y), values=dv, **others))[1], expected)
    assert np.array_equal(pullback((dv, *others.values()))[1], expected)
    assert pullback(cr.Tangent(type(y), **others)) == (NoTangent(), ZeroTangent())
    _, dy = cr.frule((NoTangent(), np.arange(6.0).reshape(3, 2)), f, x)
    assert np.allclose(dy.values, [1.0, 4.0, 2.0])  # tied elements: their mean tangent
    assert all(getattr(dy, name) == NoTangent() for name in others)


def test_zero_cotangent_and_float32():
    x = distinct(5, np.float32)
    for f in (np.sort, np.unique):
        _, pullback = cr.rrule(f, x)
        assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
        assert pullback(np.ones(5, np.float32))[1].dtype == np.float32


def test_in_place_methods_have_no_rule():
    x = distinct(4)
    assert cr.rrule(np.ndarray.sort, x) is None
    assert cr.rrule(np.ndarray.partition, x, 1) is None


# ---- indices: declared non-differentiable ---------------------------------------------------

X = distinct((3, 4))
SORTED = np.sort(X[0])
INDEX_FUNCTIONS = [
    (np.argsort, (X,)),
    (np.argpartition, (X, 1)),
    (np.lexsort, ((X[0], X[1]),)),
    (np.searchsorted, (SORTED, X[1])),
    (np.argmax, (X,)),
    (np.argmin, (X,)),
    (np.nonzero, (X,)),
    (np.flatnonzero, (X,)),
    (np.argwhere, (X,)),
    (np.count_nonzero, (X,)),
    (np.ndarray.argsort, (X,)),
    (np.ndarray.argpartition, (X, 1)),
    (np.ndarray.searchsorted, (SORTED, X[1])),
    (np.ndarray.argmax, (X,)),
    (np.ndarray.argmin, (X,)),
    (np.ndarray.nonzero, (X,)),
]


@pytest.mark.parametrize("f, args", INDEX_FUNCTIONS, ids=lambda v: getattr(v, "__qualname__", ""))
def test_index_functions_are_non_differentiable(f, args):
    y, pullback = cr.rrule(f, *args)
    expected = f(*args)
    if isinstance(expected, tuple):
        assert all(np.array_equal(a, b) for a, b in zip(y, expected, strict=True))
    else:
        assert np.array_equal(y, expected)
    assert pullback(None) == (NoTangent(),) * (len(args) + 1)
    assert cr.frule((NoTangent(),) * (len(args) + 1), f, *args)[1] == NoTangent()
    assert any(info.function is f and info.non_differentiable for info in cr.registered_functions())


def test_argmax_with_harness():
    test_rrule(np.argmax, with_tangent(X, NoTangent()))


@pytest.mark.parametrize("f", [np.sort, np.unique, np.sort_complex], ids=lambda f: f.__name__)
def test_second_order(f):
    test_rrule(f, distinct((3, 4)), check_second_order=True)
    test_frule(f, distinct((3, 4)), check_second_order=True)


def test_partition_second_order():
    test_rrule(np.partition, distinct((3, 4)), 1, check_second_order=True)
    test_frule(np.partition, distinct((3, 4)), 5, None, check_second_order=True)
