"""Tests of the rules for median, quantile, percentile and their NaN forms."""

import warnings

import numdifftools as nd
import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule, with_tangent

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.core.zeros import vanishes


def distinct(shape, seed=0):
    """Values without ties, so finite differences stay on one branch of the order statistics."""
    rng = np.random.default_rng(seed)
    return rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0 - 1.0


AXES = [{}, {"axis": 1}, {"axis": -1, "keepdims": True}, {"axis": (0, 2)}]
METHODS = ["linear", "lower", "higher", "nearest", "midpoint"]


@pytest.mark.parametrize("f", [np.median, np.nanmedian], ids=lambda f: f.__name__)
@pytest.mark.parametrize("kwargs", AXES, ids=str)
def test_median(f, kwargs):
    x = distinct((2, 3, 4))
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


# q values keep the virtual index q (n - 1) away from integers, where the derivative in q jumps.
# q must stay in [0, 1] (or [0, 100]), so the finite differences take small fixed steps: the
# default's large trial steps leave that domain, where NumPy raises.


def small_steps(g, t):
    """numdifftools' central differences with one fixed step, small enough to keep q valid."""
    return nd.Derivative(g, step=1e-4, method="central", order=4)(t)


QUANTILES = [
    (np.quantile, 0.3),
    (np.nanquantile, np.array([0.1, 0.77])),
    (np.percentile, 37.0),
    (np.nanpercentile, np.array([[10.0, 90.0]])),
]


@pytest.mark.parametrize("f, q", QUANTILES, ids=lambda v: getattr(v, "__name__", "q"))
@pytest.mark.parametrize("kwargs", AXES, ids=str)
def test_quantile(f, q, kwargs):
    x = distinct((2, 3, 4))
    test_rrule(f, x, q, fkwargs=kwargs, fdm=small_steps)
    test_frule(f, x, q, fkwargs=kwargs, fdm=small_steps)


@pytest.mark.parametrize("f, q", QUANTILES, ids=lambda v: getattr(v, "__name__", "q"))
@pytest.mark.parametrize("method", METHODS[1:])
def test_quantile_methods(f, q, method):
    x = distinct((3, 5))
    # these methods are piecewise constant in q: its tangent is zero, checked as such
    test_rrule(f, x, q, fkwargs={"axis": 1, "method": method}, fdm=small_steps)
    test_frule(f, x, q, fkwargs={"axis": 1, "method": method}, fdm=small_steps)


def test_integer_q_has_no_tangent():
    test_rrule(np.percentile, distinct(7), with_tangent(50, NoTangent()))
    _, pullback = cr.rrule(np.percentile, distinct(7), 50)
    assert pullback(1.0)[2] == NoTangent()


TIES = [
    # f, x, extra args, cotangent of each element for dy = 1
    (np.median, [1.0, 2.0, 2.0, 3.0], (), [0.0, 0.5, 0.5, 0.0]),
    (np.median, [2.0, 1.0, 2.0, 2.0, 5.0], (), [1 / 3, 0.0, 1 / 3, 1 / 3, 0.0]),
    (np.median, [1.0, 2.0, 2.0, 3.0, 3.0, 4.0], (), [0.0, 0.25, 0.25, 0.25, 0.25, 0.0]),
    (np.median, [4.0, 4.0], (), [0.5, 0.5]),
    (np.nanmedian, [np.nan, 1.0, 3.0, 3.0], (), [0.0, 0.0, 0.5, 0.5]),
    (np.quantile, [0.0, 1.0, 1.0, 2.0, 9.0], (0.25,), [0.0, 0.5, 0.5, 0.0, 0.0]),
    (np.percentile, [3.0, 1.0, 2.0], (75.0,), [0.5, 0.0, 0.5]),
]


@pytest.mark.parametrize("f, x, args, expected", TIES, ids=str)
def test_ties_split_equally(f, x, args, expected):
    x = np.array(x)
    _, pullback = cr.rrule(f, x, *args)
    assert np.allclose(pullback(1.0)[1], expected, rtol=0, atol=1e-15)
    v = np.arange(1.0, x.size + 1)
    _, jv = cr.frule((NoTangent(), v, *(ZeroTangent() for _ in args)), f, x, *args)
    assert np.isclose(jv, np.nansum(np.array(expected) * v), rtol=1e-14)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [0.0, 0.2, 0.25, 0.5, 0.6, 1.0])
@pytest.mark.parametrize("n", [1, 2, 4, 5])
def test_weights_reproduce_the_quantile(method, q, n):
    # the quantile is linear in the data for a fixed order: weights . x == quantile(x)
    x = np.arange(n, 0, -1) * 1.5
    y, pullback = cr.rrule(np.quantile, x, q, method=method)
    assert np.isclose(pullback(1.0)[1] @ x, y, rtol=1e-14)


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("q", [10.0, 30.0, 50.0, 70.0, 90.0])
def test_percentile_picks_numpys_order_statistics(method, q):
    # q (n - 1) / 100 is an integer here: rounding in q / 100 must not move the pick
    x = np.arange(11.0)[::-1] ** 2
    y, pullback = cr.rrule(np.percentile, x, q, method=method)
    assert pullback(1.0)[1] @ x == y


def test_q_derivative_value():
    x = np.array([0.0, 10.0, 30.0])  # linear: 2 q * ... between order statistics 0 and 10
    _, pullback = cr.rrule(np.quantile, x, 0.25)
    assert np.isclose(pullback(1.0)[2], 2 * (10.0 - 0.0))
    _, pullback = cr.rrule(np.percentile, x, 75.0)
    assert np.isclose(pullback(1.0)[2], 2 * (30.0 - 10.0) / 100)


def test_nan_positions_get_zero_cotangent():
    x = distinct((3, 4))
    x[0, 1] = x[2, 2] = np.nan
    _, pullback = cr.rrule(np.nanmedian, x, axis=1)
    dx = pullback(np.ones(3))[1]
    assert dx[0, 1] == 0.0 and dx[2, 2] == 0.0
    assert np.allclose(dx.sum(axis=1), 1.0)
    test_rrule(np.nanquantile, x, 0.4, fkwargs={"axis": 1}, fdm=small_steps)
    test_frule(np.nanquantile, x, 0.4, fkwargs={"axis": 1}, fdm=small_steps)


def test_float32_and_zero_cotangent():
    x = distinct(6).astype(np.float32)
    _, pullback = cr.rrule(np.median, x)
    assert pullback(np.float32(1.0))[1].dtype == np.float32
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())


def test_second_order():
    # the weights are linear in q between order statistics: mixed derivatives in x and q exist
    x = distinct((3, 4))
    test_rrule(np.median, x, fkwargs={"axis": 1}, check_second_order=True)
    test_frule(np.nanmedian, x, check_second_order=True)
    test_rrule(np.quantile, x, 0.3, fkwargs={"axis": 1}, fdm=small_steps, check_second_order=True)


# ---- q on an order statistic, q at 0 and 1, 0-d and empty data --------------------------------


def test_q_slope_on_an_order_statistic():
    # q (n - 1) an integer is a kink in q: the derivative is the mean of the two one-sided
    # slopes (n - 1) (s[k+1] - s[k]) and (n - 1) (s[k] - s[k-1]); at q = 0 and q = 1 the one
    # side inside the domain. Exact sums of small binary fractions: compared exactly.
    x = np.array([4.0, 1.0, 2.0])
    for q, slope in ((0.5, 2 * (4.0 - 1.0) / 2), (0.0, 2 * (2.0 - 1.0)), (1.0, 2 * (4.0 - 2.0))):
        _, pullback = cr.rrule(np.quantile, x, q)
        assert pullback(1.0)[2] == slope
        assert cr.frule((NoTangent(), ZeroTangent(), 1.0), np.quantile, x, q)[1] == slope
    _, pullback = cr.rrule(np.percentile, x, 50.0)
    assert pullback(1.0)[2] == 3.0 / 100


@pytest.mark.parametrize("f, per", [(np.quantile, 1.0), (np.nanpercentile, 100.0)], ids=str)
@pytest.mark.parametrize("kwargs", [{}, {"axis": 0}, {"axis": -1, "keepdims": True}], ids=str)
def test_q_on_order_statistics_against_finite_differences(f, per, kwargs):
    # Shapes whose slices have 3 and 5 elements: q = 0.5 and 0.25 fall on order statistics.
    # Central differences across the kink give the mean of the one-sided slopes, as the rule
    # does; a second derivative does not exist there (finite differences of the first
    # derivative jump with the random direction), so the second-order check is off.
    x = np.random.default_rng(11).uniform(-1.0, 1.0, (3, 5))
    for q in (0.5, np.array([0.25, 0.5, 0.6])):
        test_rrule(f, x, q * per, fkwargs=kwargs, check_second_order=False)
        test_frule(f, x, q * per, fkwargs=kwargs, check_second_order=False)


EDGE_DATA = [
    # data, q, keywords
    (np.array(0.7), 0.3, {"axis": ()}),
    (np.zeros(0), 0.3, {}),
    (np.zeros((2, 0)), np.array([0.2, 0.5]), {"axis": -1}),
    (np.zeros((0, 3)), 0.5, {"axis": 0, "keepdims": True}),
]


@pytest.mark.parametrize("x, q, kwargs", EDGE_DATA, ids=range(len(EDGE_DATA)))
@pytest.mark.parametrize("f", [np.quantile, np.nanquantile], ids=lambda f: f.__name__)
def test_0d_and_empty_data(f, x, q, kwargs):
    with np.errstate(invalid="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # NumPy warns: the mean of nothing
        if f is np.quantile and x.size == 0:
            with pytest.raises(IndexError):  # NumPy's own refusal, passed on
                cr.rrule(f, x, q, **kwargs)
            return
        y, pullback = cr.rrule(f, x, q, **kwargs)
        np.testing.assert_array_equal(y, f(x, q, **kwargs))
        _, dx, dq = pullback(np.ones(np.shape(y)))
        if x.size == 0:
            # NaN quantiles of no data: nothing depends on the data or on q.
            assert vanishes(dx) and vanishes(dq)
        else:
            test_rrule(f, x, q, fkwargs=kwargs)
            test_frule(f, x, q, fkwargs=kwargs)
        _, dy = cr.frule((NoTangent(), np.ones(x.shape), 1.0), f, x, q, **kwargs)
        assert x.size != 0 or vanishes(dy)
