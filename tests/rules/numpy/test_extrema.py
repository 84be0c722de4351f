"""Tests of the rules for max, min, amax, amin, nanmax, nanmin and ptp: ties share equally."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent, ZeroTangent

EXTREMA = [np.max, np.min, np.amax, np.amin, np.nanmax, np.nanmin, np.ptp]
METHODS = [np.ndarray.max, np.ndarray.min]
AXES = [{}, {"axis": 1}, {"axis": -1, "keepdims": True}, {"axis": (0, 2)}]


def distinct(shape, dtype=np.float64, seed=0):
    """Values without ties (a shuffled range), so finite differences see one smooth branch."""
    rng = np.random.default_rng(seed)
    return (rng.permutation(int(np.prod(shape))).reshape(shape) / 7.0 - 1.0).astype(dtype)


@pytest.mark.parametrize("f", EXTREMA + METHODS, ids=lambda f: f.__qualname__)
@pytest.mark.parametrize("kwargs", AXES, ids=str)
@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=lambda d: np.dtype(d).name)
def test_extremum(f, kwargs, dtype):
    x = distinct((2, 3, 4), dtype)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


MASK = np.array([[True, False, True, True], [False, True, True, True], [True, True, False, True]])
KEYWORDS = [
    (np.max, {"axis": 1, "where": MASK, "initial": -10.0}),
    (np.min, {"axis": 0, "where": MASK, "initial": 10.0}),
    (np.nanmax, {"axis": 1, "where": MASK, "initial": -10.0}),
    (np.max, {"axis": 1, "initial": 0.0}),  # rows whose maximum is the initial value
]


@pytest.mark.parametrize("f, kwargs", KEYWORDS, ids=lambda v: getattr(v, "__name__", "kw"))
def test_extremum_keywords(f, kwargs):
    x = distinct((3, 4))
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)


TIES = [
    # f, x, axis, cotangent of each element for dy = 1
    (np.max, [1.0, 3.0, 3.0], None, [0.0, 0.5, 0.5]),
    (np.amax, [3.0, 3.0, 3.0], None, [1 / 3, 1 / 3, 1 / 3]),
    (np.min, [2.0, 1.0, 5.0, 1.0], None, [0.0, 0.5, 0.0, 0.5]),
    (np.amin, [[1.0, 1.0], [0.0, 2.0]], 1, [[0.5, 0.5], [1.0, 0.0]]),
    (np.nanmax, [np.nan, 2.0, 2.0], None, [0.0, 0.5, 0.5]),
    (np.nanmin, [np.nan, 1.0, 4.0], None, [0.0, 1.0, 0.0]),
    (np.ptp, [1.0, 1.0, 4.0], None, [-0.5, -0.5, 1.0]),
    (np.ptp, [2.0, 2.0], None, [0.0, 0.0]),
    (np.max, [1.0, np.nan, 2.0], None, [0.0, 1.0, 0.0]),  # the propagated NaN is selected
    (np.nanmax, [np.nan, np.nan], None, [0.0, 0.0]),
]


@pytest.mark.filterwarnings("ignore:All-NaN slice:RuntimeWarning")
@pytest.mark.parametrize("f, x, axis, expected", TIES, ids=str)
def test_ties_split_equally(f, x, axis, expected):
    x = np.array(x)
    with np.errstate(invalid="ignore"):
        y, pullback = cr.rrule(f, x, axis=axis)
        dy = np.ones(np.shape(y))
        dx = pullback(dy if np.ndim(y) else 1.0)[1]
        assert np.allclose(dx, expected, rtol=0, atol=1e-15)
        # frule and rrule agree: <dy, J v> = <J^T dy, v> for the same split
        v = np.arange(1.0, x.size + 1).reshape(x.shape)
        _, jv = cr.frule((NoTangent(), v), f, x, axis=axis)
        assert np.isclose(np.sum(jv), np.sum(dx * v), rtol=1e-14)


def test_complex_max_selects_its_element():
    z = np.array([1 + 2j, 3 - 1j, 2 + 0j])
    _, pullback = cr.rrule(np.max, z)
    assert np.array_equal(pullback(1.0 + 1.0j)[1], [0, 1 + 1j, 0])


def test_zero_cotangent_and_float32():
    x = distinct((3, 4), np.float32)
    _, pullback = cr.rrule(np.max, x, axis=0)
    assert pullback(ZeroTangent()) == (NoTangent(), ZeroTangent())
    assert pullback(np.ones(4, np.float32))[1].dtype == np.float32
    assert cr.frule((NoTangent(), ZeroTangent()), np.min, x)[1] == ZeroTangent()


def test_axis_given_by_position():
    test_rrule(np.max, distinct((3, 4)), 0)
    test_rrule(np.ndarray.min, distinct((3, 4)), -1)


@pytest.mark.parametrize("f", [np.max, np.nanmin, np.ptp], ids=lambda f: f.__name__)
def test_second_order(f):
    test_rrule(f, distinct((3, 4)), fkwargs={"axis": 1}, check_second_order=True)
    test_frule(f, distinct((3, 4)), fkwargs={"axis": 1}, check_second_order=True)


# ---- a 0-d array reduced over axis 0 or -1 ------------------------------------------------------

ZERO_D_AXES = [{"axis": 0}, {"axis": -1}, {"axis": 0, "keepdims": True}, {"axis": ()}]


@pytest.mark.parametrize("kwargs", ZERO_D_AXES, ids=range(len(ZERO_D_AXES)))
@pytest.mark.parametrize(
    "f", [np.max, np.amin, np.nanmax, np.nanmin, np.ptp], ids=lambda f: f.__name__
)
def test_0d_input_with_an_axis(f, kwargs):
    # NumPy takes axis 0 and -1 on a 0-d array and reduces nothing.
    x = np.array(0.7)
    test_rrule(f, x, fkwargs=kwargs)
    test_frule(f, x, fkwargs=kwargs)
    _, pullback = cr.rrule(f, x, **kwargs)
    assert pullback(2.5)[1] == (0.0 if f is np.ptp else 2.5)
