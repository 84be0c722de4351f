"""Tests of the rules for the incomplete gamma and beta functions, in every argument."""

import math

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk
from chainrules.rules.scipy.special.incomplete import betainc_da_db, gammainc_da

SHAPE = (0.3, 4.0)
UNIT = (0.05, 0.95)

# Shape derivatives come from quadrature on NumPy values: second derivatives are checked with
# integer shapes, in x only.
NUMERIC = "shape derivatives by quadrature are not differentiable again"
ROWS = [
    Row(sc.gammainc, (SHAPE, (0.1, 6.0)), second_order=False, reason=NUMERIC),
    Row(sc.gammaincc, (SHAPE, (0.1, 6.0)), second_order=False, reason=NUMERIC),
    Row(sc.betainc, (SHAPE, SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.betaincc, (SHAPE, SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.gammaincinv, (SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.gammainccinv, (SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.betaincinv, (SHAPE, SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.betainccinv, (SHAPE, SHAPE, UNIT), second_order=False, reason=NUMERIC),
    Row(sc.gammainc, ((1, 4), (0.1, 6.0)), integer=(0,), shapes=(((3,), (3,)),)),
    Row(sc.gammaincc, ((1, 4), (0.1, 6.0)), integer=(0,), shapes=(((3,), (3,)),)),
    Row(sc.betainc, ((1, 4), (1, 4), UNIT), integer=(0, 1), shapes=(((3,), (), (3,)),)),
    Row(sc.betaincc, ((1, 4), (1, 4), UNIT), integer=(0, 1), shapes=(((3,), (), (3,)),)),
]
CASES = cases(ROWS)

test_rrule_incomplete, test_frule_incomplete = table_tests(CASES)


# d/da P(a, x) from mpmath's numerical differentiation at 30 digits: both tails, tiny and
# large shapes, and a point where P is within 1e-14 of 1.
GAMMA_POINTS = [
    (0.05, 0.01, -3.3571508489859874),
    (0.3, 2.0, -0.099252660101240122),
    (1.0, 1.0, -0.4317297106348987),
    (2.5, 0.5, -0.06885559236096406),
    (10.0, 12.0, -0.097177972037179651),
    (150.0, 140.0, -0.023793726651202103),
    (3.0, 40.0, -9.9743303000892817e-15),
]


@pytest.mark.parametrize("a, x, expected", GAMMA_POINTS)
def test_gammainc_shape_derivative_reference_values(a, x, expected):
    assert gammainc_da(a, x) == pytest.approx(expected, rel=1e-9)
    _, pullback = cr.rrule(sc.gammaincc, a, x)
    assert unthunk(pullback(1.0)[1]) == pytest.approx(-expected, rel=1e-9)


# (a, b, x, dI/da, dI/db), the same way; x near 1 exercises the symmetric tail.
BETA_POINTS = [
    (0.2, 0.3, 0.1, -1.6182178493114618, 0.6270147933298201),
    (0.5, 5.0, 0.2, -0.34485175003618111, 0.042157073873079875),
    (2.0, 3.0, 0.6, -0.13128567198712517, 0.1257992991518486),
    (30.0, 40.0, 0.45, -0.050677746754230963, 0.039640633360788508),
    (1.0, 1.0, 0.999, -0.00099949983324995085, 0.0069077552789821423),
    (4.0, 0.4, 0.99, -0.031333774651944255, 0.95604854592812287),
]


@pytest.mark.parametrize("a, b, x, da, db", BETA_POINTS)
def test_betainc_shape_derivatives_reference_values(a, b, x, da, db):
    got_da, got_db = betainc_da_db(a, b, x)
    assert got_da == pytest.approx(da, rel=1e-9)
    assert got_db == pytest.approx(db, rel=1e-9)


def test_derivative_in_x_is_the_density():
    assert cr.rrule(sc.gammainc, 1.0, 0.0)[1](1.0)[2] == 1.0  # exp(-x) at 0, no 0 * log 0
    assert cr.rrule(sc.gammainc, 2.0, 0.0)[1](1.0)[2] == 0.0
    assert cr.rrule(sc.betainc, 1.0, 1.0, 0.0)[1](1.0)[3] == 1.0
    dx = cr.rrule(sc.betainc, 2.0, 3.0, 0.25)[1](1.0)[3]
    assert dx == pytest.approx(0.25 * 0.75**2 / sc.beta(2.0, 3.0), rel=1e-14)
    dx = cr.rrule(sc.gammaincc, 3.0, 2.0)[1](1.0)[2]
    assert dx == pytest.approx(-4 * math.exp(-2) / 2, rel=1e-14)


def test_shape_derivatives_at_the_ends():
    assert gammainc_da(2.0, 0.0) == 0.0
    assert gammainc_da(2.0, math.inf) == 0.0
    assert betainc_da_db(2.0, 3.0, 0.0) == (0.0, 0.0)
    assert betainc_da_db(2.0, 3.0, 1.0) == (0.0, 0.0)
    assert math.isnan(gammainc_da(-1.0, 1.0))


def test_shape_cotangents_are_thunked():
    _, pullback = cr.rrule(sc.betainc, 2.0, 3.0, np.array([0.2, 0.7]))
    da, db, dx = pullback(np.ones(2))[1:]
    assert isinstance(da, cr.Thunk) and isinstance(db, cr.Thunk)
    assert dx.shape == (2,)
    assert cr.rrule(sc.gammainc, 2.0, 1.0)[1](ZeroTangent())[1] is ZeroTangent()


def test_integer_shape_has_no_tangent():
    assert cr.rrule(sc.gammainc, 2, 1.0)[1](1.0)[1] is NoTangent()
