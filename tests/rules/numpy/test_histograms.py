"""Tests of the rules for histogram, histogram2d, histogramdd and histogram_bin_edges."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

rng = np.random.default_rng(0)
A = rng.normal(size=20)
W = rng.uniform(0.5, 1.5, 20)
S = rng.normal(size=(15, 2))
W2 = rng.uniform(0.5, 1.5, 15)
EDGES = np.linspace(-3.0, 3.0, 5)

# function, args (weights, when given, by position: keyword arguments get no cotangent),
# keywords, second order (histogramdd returns its edges in a list inside the result tuple,
# a nesting the reference engine does not track)
CASES = [
    (np.histogram_bin_edges, (A, 4), {}, True),
    (np.histogram_bin_edges, (A, "auto"), {}, True),
    (np.histogram_bin_edges, (A, EDGES), {}, True),
    (np.histogram_bin_edges, (A, 3, (-3.0, 3.0)), {}, True),
    (np.histogram, (A,), {}, True),
    (np.histogram, (A.reshape(4, 5), 3), {}, True),
    (np.histogram, (A, 5, None, None, W), {}, True),
    (np.histogram, (A, 5, None, True, W), {}, True),
    (np.histogram, (A, 5), {"density": True}, True),
    (np.histogram, (A, 5, (-3.0, 3.0), None, W), {}, True),
    (np.histogram, (A, EDGES, None, True), {}, True),
    (np.histogram, (A.astype(np.float32), 4, None, None, W.astype(np.float32)), {}, True),
    (np.histogram2d, (S[:, 0], S[:, 1], 3, None, None, W2), {}, True),
    (np.histogram2d, (S[:, 0], S[:, 1], [3, 4], None, True, W2), {}, True),
    (np.histogram2d, (S[:, 0], S[:, 1], 3), {"range": [(-3, 3), (-2, 2)], "density": True}, True),
    (np.histogramdd, (S, 3, None, None, W2), {}, False),
    (np.histogramdd, (S, (3, 2), None, True, W2), {}, False),
]


@pytest.mark.parametrize(
    "f, args, kwargs, second_order",
    CASES,
    ids=[f"{f.__name__}-{i}" for i, (f, *_) in enumerate(CASES)],
)
def test_rules(f, args, kwargs, second_order):
    test_rrule(f, *args, fkwargs=kwargs, check_second_order=second_order)
    test_frule(f, *args, fkwargs=kwargs, check_second_order=second_order)


def test_counts_are_constant_in_the_samples():
    a = np.array([0.0, 1.0, 1.5, 4.0])
    (hist, edges), pullback = cr.rrule(np.histogram, a, 2)
    assert np.array_equal(hist, [3, 1]) and np.array_equal(edges, [0.0, 2.0, 4.0])
    _, da, _ = pullback(cr.Tangent(tuple, ZeroTangent(), np.zeros(3)))
    assert np.array_equal(da, np.zeros(4))


def test_edges_move_with_the_extremes():
    # edges = lo + (hi - lo) k / n: the middle edge moves half with the min, half with the max.
    a = np.array([0.0, 1.0, 4.0, 0.0])
    _, pullback = cr.rrule(np.histogram_bin_edges, a, 2)
    # The min is tied between two samples: they share its cotangent equally.
    assert np.array_equal(pullback(np.array([0.0, 1.0, 0.0]))[1], [0.25, 0.0, 0.5, 0.25])


def test_weighted_counts_are_linear_in_the_weights():
    a, w = np.array([0.0, 1.0, 1.5, 4.0]), np.array([1.0, 2.0, 3.0, 4.0])
    (hist, _), pullback = cr.rrule(np.histogram, a, 2, (0.0, 3.0), None, w)
    assert np.array_equal(hist, [3.0, 3.0])
    _, _, _, _, _, dw = pullback(cr.Tangent(tuple, np.array([10.0, 20.0]), ZeroTangent()))
    # 4.0 lies outside the range: its weight does not count.
    assert np.array_equal(dw, [10.0, 10.0, 20.0, 0.0])


def test_keyword_weights_have_no_rule():
    assert cr.rrule(np.histogram, A, 5, weights=W) is None
    assert cr.frule((NoTangent(), A, ZeroTangent()), np.histogram, A, 5, weights=W) is None


# ---- empty data -----------------------------------------------------------------------------

EMPTY_HISTOGRAMS = [
    (np.histogram, (np.zeros(0),), {"bins": 3}),
    (np.histogram_bin_edges, (np.zeros(0),), {"bins": 3}),
    (np.histogram2d, (np.zeros(0), np.zeros(0)), {"bins": 2}),
]


@pytest.mark.parametrize("f, args, kwargs", EMPTY_HISTOGRAMS, ids=range(len(EMPTY_HISTOGRAMS)))
def test_empty_data(f, args, kwargs):
    # NumPy's edges for no data are the fixed range (0, 1): they depend on no sample.
    test_rrule(f, *args, fkwargs=kwargs)
    test_frule(f, *args, fkwargs=kwargs)
