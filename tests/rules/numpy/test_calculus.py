"""Tests of the rules for interp and unwrap."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules import NoTangent

rng = np.random.default_rng(0)
KNOTS = np.sort(rng.uniform(0.0, 1.0, 5))
VALUES = rng.normal(size=5)
POINTS = rng.uniform(-0.2, 1.2, (2, 3))

INTERPS = [
    # args, keywords
    ((POINTS, KNOTS, VALUES), {}),
    ((0.4, KNOTS, VALUES), {}),
    ((POINTS, KNOTS, VALUES, 0.3, -1.0), {}),
    ((POINTS, KNOTS, VALUES), {"left": 0.3}),
    ((POINTS, KNOTS, VALUES + 1j * VALUES[::-1]), {}),
    ((POINTS.astype(np.float32), KNOTS, VALUES), {}),
]


@pytest.mark.parametrize("args, kwargs", INTERPS, ids=range(len(INTERPS)))
def test_interp(args, kwargs):
    test_rrule(np.interp, *args, fkwargs=kwargs)
    test_frule(np.interp, *args, fkwargs=kwargs)


def test_interp_second_order_with_knots_moving_past_points():
    # These draws move the knots past the points within numdifftools' largest steps: the
    # estimate there is uncertain, and only smaller steps give the derivative.
    args, kwargs = INTERPS[4]
    test_frule(np.interp, *args, fkwargs=kwargs, seed=1310149477)


def test_interp_values():
    knots, values = np.array([0.0, 1.0, 2.0]), np.array([1.0, 3.0, 2.0])
    _, pullback = cr.rrule(np.interp, np.array([0.25, -1.0, 2.0, 3.0]), knots, values, 0.0)
    _, dx, dknots, dvalues, dleft = pullback(np.ones(4))
    # Slope inside, 0 outside; x = 2.0 is the last knot, on the last segment.
    assert np.array_equal(dx, [2.0, 0.0, -1.0, 0.0])
    assert np.array_equal(dvalues, [0.75, 0.25, 2.0])
    assert np.array_equal(dknots, [-1.5, -0.5, 1.0])
    assert dleft == 1.0


def test_interp_period_has_no_rule():
    with pytest.raises(cr.RuleKeywordError, match="period"):
        cr.rrule(np.interp, 0.5, KNOTS, VALUES, period=1.0)


PHASES = np.cumsum(rng.uniform(0.5, 2.5, 8)) % (2 * np.pi)
UNWRAPS = [
    ((PHASES,), {}),
    ((PHASES.reshape(2, 4),), {"axis": 0}),
    ((PHASES % 3.0,), {"period": 3.0}),
    ((PHASES, 2.5), {}),
]


@pytest.mark.parametrize("args, kwargs", UNWRAPS, ids=range(len(UNWRAPS)))
def test_unwrap(args, kwargs):
    test_rrule(np.unwrap, *args, fkwargs=kwargs)
    test_frule(np.unwrap, *args, fkwargs=kwargs)


def test_unwrap_pullback_is_identity():
    y, pullback = cr.rrule(np.unwrap, np.array([0.0, 6.0, 0.5]))
    assert np.allclose(y, [0.0, 6.0 - 2 * np.pi, 0.5])
    assert np.array_equal(pullback(np.array([1.0, 2.0, 3.0]))[1], [1.0, 2.0, 3.0])
    assert pullback(np.ones(3))[0] == NoTangent()


def test_interp_with_a_period_by_position_has_no_rule_rather_than_a_wrong_value():
    # np.interp(x, xp, fp, left, right, period): a rule ignoring period would give 1.5, not 2.0
    args = (0.5, np.array([0.0, 1.0, 2.0]), np.array([1.0, 2.0, 3.0]), None, None, 1.0)
    assert cr.rrule(np.interp, *args) is None
    assert cr.frule((cr.NoTangent(),) * 7, np.interp, *args) is None
