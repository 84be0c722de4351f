"""Rules on dask arrays beyond the sweep's samples: other shapes, chunks, keys and arguments.

Each case runs the harness's lazy checks (nothing computes while the rrule, its pullback and
the frule run; cotangents have their primals' chunks; computed, the values equal the NumPy
rule's), or, where the output's size is unknown (a dask condition), compares the computed
values with the NumPy rule's directly.
"""

import operator
import warnings

import numpy as np
import pytest

pytest.importorskip("dask.array")

import dask.array as da
import scipy.linalg
import scipy.special
from chainrules_testing.lazy import check_lazy_frule, check_lazy_rrule, nothing_computes

import chainrules as cr

RTOL, ATOL = 1e-9, 1e-11  # dask sums chunk by chunk, NumPy pairwise (as in test_sweep)
RNG = np.random.default_rng(7)
X = RNG.standard_normal((4, 6))
MASK = RNG.random((4, 6)) > 0.4


def lazy(a, chunks):
    return da.from_array(a, chunks=chunks)


def check_lazy(f, *args, **kwargs):
    check_lazy_rrule(f, args, kwargs, 0, RTOL, ATOL)
    check_lazy_frule(f, args, kwargs, 0, RTOL, ATOL)


# ---- operator.getitem: the rule of x[key] ---------------------------------------------------


@pytest.mark.parametrize(
    "key",
    [
        1,
        -1,
        (slice(1, 3), 2),
        (Ellipsis, None, slice(None, None, -2)),
        np.array([3, 0, 3]),
        MASK,
        (slice(None), MASK[0]),
    ],
    ids=["int", "negative", "tuple", "ellipsis", "repeated", "mask", "column-mask"],
)
def test_getitem_of_a_dask_array(key):
    check_lazy(operator.getitem, lazy(X, (2, 3)), key)


def test_getitem_of_a_dask_array_by_index_pairs_is_refused_by_name():
    # dask has no n-d fancy indexing: the rule of x[key] says so, naming itself
    pairs = (np.array([0, 2]), np.array([5, 1]))
    with nothing_computes(), pytest.raises(cr.LazyArrayError, match=r"ndarray\.__getitem__"):
        cr.rrule(operator.getitem, lazy(X, (2, 3)), pairs)


# ---- numpy.gradient: one array for one axis, a tuple for several ----------------------------


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((), {}),
        ((0.5,), {}),
        ((), {"axis": 1}),
        ((), {"axis": (0,)}),
        ((2.0, np.cumsum(RNG.random(6)) + 1.0), {}),
    ],
    ids=["unit", "spacing", "axis", "one-axis-tuple", "coordinates"],
)
def test_gradient_of_a_dask_matrix(args, kwargs):
    check_lazy(np.gradient, lazy(X, (2, 3)), *args, **kwargs)


def test_gradient_of_a_dask_vector_is_one_array():
    y, _ = cr.rrule(np.gradient, lazy(X[0], 3))
    assert y.shape == (6,)


# ---- numpy.extract: known positions give a known size ---------------------------------------


@pytest.mark.parametrize("chunks", [(2, 3), (1, 6), (4, 2)])
def test_extract_from_a_dask_matrix_at_a_numpy_condition(chunks):
    check_lazy(np.extract, MASK, lazy(X, chunks))


@pytest.mark.parametrize(
    ("f", "condition", "x", "kwargs"),
    [
        (np.extract, MASK, X, {}),
        (np.compress, MASK.ravel(), X, {}),
        (np.compress, MASK[0, :4], X[0], {}),
    ],
    ids=["extract", "compress-flat", "compress-short"],
)
def test_selection_by_a_dask_condition_computes_nothing_and_places_the_cotangent(
    f, condition, x, kwargs
):
    # Of unknown size, the output's cotangent is made from it (the same chunks).
    lazy_condition = lazy(condition, tuple(max(1, n // 2) for n in condition.shape))
    lazy_x = lazy(x, tuple(max(1, n // 2) for n in x.shape))
    with nothing_computes():
        y, pullback = cr.rrule(f, lazy_condition, lazy_x, **kwargs)
        dx = pullback(y**2)[2]
        _, dy = cr.frule((cr.NoTangent(), cr.NoTangent(), 3 * lazy_x), f, lazy_condition, lazy_x)
    y_numpy, pullback_numpy = cr.rrule(f, condition, x, **kwargs)
    assert dx.chunks == lazy_x.chunks
    np.testing.assert_array_equal(y.compute(), y_numpy)
    np.testing.assert_array_equal(dx.compute(), pullback_numpy(y_numpy**2)[2])
    np.testing.assert_array_equal(dy.compute(), 3 * y_numpy)


# ---- scipy.linalg.companion: built in dask's namespace --------------------------------------


@pytest.mark.parametrize(("n", "chunks"), [(2, 1), (5, 2), (6, 4)])
def test_companion_of_a_dask_vector(n, chunks):
    a = np.r_[1.5, RNG.standard_normal(n - 1)]
    check_lazy(scipy.linalg.companion, lazy(a, chunks))


# ---- scipy.special.ellipj: half periods counted lazily --------------------------------------


def test_ellipj_beyond_the_first_half_period_with_other_chunks():
    u = np.array([-7.0, -2.5, 0.3, 1.2, 4.0, 9.5])  # amplitudes of several half periods
    m = np.array([0.1, 0.9, 0.5, 0.0, 0.7, 0.3])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_lazy(scipy.special.ellipj, lazy(u, 2), lazy(m, 3))
