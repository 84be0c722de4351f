"""Tests of the rules for hyp0f1, hyp1f1 and hyp2f1 in every argument; their parameter
derivatives over a grid against mpmath are in tests/accuracy."""

import math

import mpmath
import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, count_calls, table_tests

import chainrules as cr
from chainrules import unthunk
from chainrules.engines import reverse
from chainrules.rules.scipy.special import hypergeometric

PARAMETER = (0.3, 2.0)
SHAPES_2 = (((3,), (3,)), ((2, 1), (1, 3)), ((), ()))
SHAPES_3 = (((3,), (), (3,)), ((2, 3), (), (3,)), ((2, 1), (), (1, 4)), ((), (), ()))
SHAPES_4 = (((3,), (), (), (3,)), ((2, 1), (), (), (1, 4)), ((), (), (), ()))

# Parameter derivatives are thunked series, ODE solutions and quadratures; their second
# derivatives (Hessians from the same methods) are checked against finite differences here.
ROWS = [
    Row(sc.hyp0f1, (PARAMETER, (-40.0, 3.0)), complex=True, shapes=SHAPES_2),
    Row(sc.hyp1f1, (PARAMETER, (1.0, 3.0), (-2.0, 2.0)), complex=True, shapes=SHAPES_3),
    # z up to 0.8: the series below 1/2, the differential equation above
    Row(sc.hyp2f1, (PARAMETER, PARAMETER, (1.0, 3.0), (-0.8, 0.8)), complex=True, shapes=SHAPES_4),
]
CASES = cases(ROWS)

test_rrule_hypergeometric, test_frule_hypergeometric = table_tests(CASES)


def test_known_values():
    # 1F1(1; 1; x) = exp(x); 2F1(1, 1; 2; z) = -log(1 - z) / z
    assert cr.rrule(sc.hyp1f1, 1.0, 1.0, 0.5)[1](1.0)[3] == pytest.approx(math.exp(0.5))
    z = 0.4
    expected = math.log(1 - z) / z**2 + 1 / (z * (1 - z))
    assert cr.rrule(sc.hyp2f1, 1.0, 1.0, 2.0, z)[1](1.0)[4] == pytest.approx(expected)


# (a, b, c, z): the series, Pfaff's side, the differential equation, its far end, z = 1 and
# a polynomial (a = -2); mpmath's derivatives at 30 digits, computed here.
HYP2F1_POINTS = [
    (0.5, 1.0, 1.5, 0.3),
    (0.5, 1.0, 1.5, -20.0),
    (1.2, 0.7, 1.5, 0.95),
    (0.5, 0.5, 1.0, 1 - 1e-9),  # c - a - b = 0: logarithmic at 1
    (0.3, 0.6, 1.5, 1.0),
    (-2.0, 1.5, 2.5, 0.8),
]


@pytest.mark.parametrize("a, b, c, z", HYP2F1_POINTS)
def test_hyp2f1_parameter_derivatives(a, b, c, z):
    cotangents = cr.rrule(sc.hyp2f1, a, b, c, z)[1](1.0)
    assert all(isinstance(g, cr.Thunk) for g in cotangents[1:4])
    with mpmath.workdps(30):
        f = lambda *p: mpmath.hyp2f1(*p, z)
        for i in range(3):
            order = tuple(int(i == j) for j in range(3))
            exact = float(mpmath.diff(f, (a, b, c), order))
            # the ODE's tolerance is 1e-11; measured within 1e-12 here
            assert unthunk(cotangents[i + 1]) == pytest.approx(exact, rel=1e-9)


def test_parameter_derivatives_are_computed_only_when_asked(monkeypatch):
    calls = count_calls(monkeypatch, hypergeometric, "_hyp2f1")
    _, pullback = cr.rrule(sc.hyp2f1, 1.0, 1.5, 2.0, np.array([0.1, 0.7]))
    dz = pullback(np.ones(2))[4]
    np.testing.assert_allclose(dz, 0.75 * sc.hyp2f1(2.0, 2.5, 3.0, [0.1, 0.7]), rtol=1e-15)
    assert calls["_hyp2f1"] == 0


def test_hyp2f1_outside_its_domain_is_nan():
    gradient = hypergeometric.hyp2f1_gradient(0.5, 1.0, 1.5, np.array([1.5, 1.0]))
    assert np.all(np.isnan(gradient))  # the cut z > 1; at z = 1, c = a + b


def test_hyp2f1_complex_argument():
    # off the cut, both sides of the unit circle: against mpmath
    for z in (0.6 + 0.7j, -3 + 2j, 2 + 0.5j):
        got = hypergeometric.hyp2f1_gradient(0.5, 1.0, 1.5, z)
        with mpmath.workdps(30):
            exact = complex(mpmath.diff(lambda a, z=z: mpmath.hyp2f1(a, 1.0, 1.5, z), 0.5))
        assert got[0] == pytest.approx(exact, rel=1e-9)


def test_second_derivatives_through_the_engine():
    # d2/da2 and d2/da dz of 2F1 at the differential equation's side; mpmath at 30 digits
    a, z = 0.5, 0.7
    f = lambda a, z: sc.hyp2f1(a, 1.0, 1.5, z)
    daa = reverse.grad(reverse.grad(f))(a, z)
    daz = reverse.grad(lambda z: reverse.grad(f)(a, z))(z)
    with mpmath.workdps(30):
        g = lambda a, z: mpmath.hyp2f1(a, 1.0, 1.5, z)
        assert daa == pytest.approx(float(mpmath.diff(g, (a, z), (2, 0))), rel=1e-9)
        assert daz == pytest.approx(float(mpmath.diff(g, (a, z), (1, 1))), rel=1e-9)


def test_hyp0f1_order_derivative_at_tiny_orders():
    # 0F1(; v; z) = 1 + z/v 0F1(; 2; z) (1 + O(v)): d/dv = -z/v^2 0F1(; 2; z), a signed inf
    # where it overflows and 0 at z = 0 (all three were NaN, from inf - inf in the series)
    dv = hypergeometric.hyp0f1_dv
    assert dv(1e-300, -0.5) == np.inf
    assert dv(-1e-300, 3.0) == -np.inf
    assert dv(1e-300, 0.0) == 0.0
    found = dv(np.array([1e-300, 1e-300, 1e-90]), np.array([-0.5, 0.0, -0.5]))
    assert found[:2].tolist() == [np.inf, 0.0]
    # next to them, mpmath.diff at 50 digits (step 1e-25 v): the closed form, exact to 1e-90
    assert found[2] == pytest.approx(3.8499331087225178e179, rel=1e-14)
    # the second derivative 2 z/v^3 0F1(; 2; z), through the rule's own rule
    assert hypergeometric._hyp0f1(1e-300, -0.5, 2).hessian[0, 0] == -np.inf
    assert unthunk(cr.rrule(sc.hyp0f1, 1e-300, -0.5)[1](1.0)[1]) == np.inf


def test_hyp0f1_order_derivative_at_large_orders_and_negative_arguments():
    # v > -z: the series' terms never grow, so it is summed there, not through J_(v-1)(2
    # sqrt(-z)), which SciPy gives as NaN at v = 1e300 (the derivative was NaN; -z/v^2 ~ 0)
    assert hypergeometric.hyp0f1_dv(1e300, -1e4) == 0.0
    # mpmath.diff at 50 digits; the series is accurate to rounding here, where J_(v-1) of
    # high order gave inf and 14.98 (the order derivative's quadrature, 1e-12 absolute, on a
    # J of size 1e-10)
    found = hypergeometric.hyp0f1_dv(np.array([100.0, 40.0]), np.array([-50.0, -35.0]))
    assert found[0] == pytest.approx(0.003051541753100625, rel=1e-13)
    assert found[1] == pytest.approx(0.009332387723747932, rel=1e-13)


def test_hyp1f1_and_hyp2f1_parameter_derivatives_at_tiny_lower_parameters():
    # 1F1(a; b; x) = 1 + a x/b 1F1(a + 1; 2; x) (1 + O(b)); at a = b = 1e-300 the derivative in
    # a is (e^x - 1)/b exactly to rounding, in b its negative; 0 at x = 0. All were NaN (inf -
    # inf in the series' jets, summed to the last term: seconds per point).
    tiny = 1e-300
    da, db = hypergeometric.hyp1f1_gradient(tiny, tiny, -2.5)
    assert da == pytest.approx((math.exp(-2.5) - 1) / tiny, rel=1e-14)
    assert db == pytest.approx(-(math.exp(-2.5) - 1) / tiny, rel=1e-14)
    assert hypergeometric.hyp1f1_gradient(tiny, tiny, 0.0) == (0.0, 0.0)
    # -a x/b^2 1F1(a + 1; 2; x) overflows: -inf; an array mixing it with an ordinary point
    da, db = hypergeometric.hyp1f1_gradient(0.5, np.array([tiny, 0.7]), 0.5)
    assert db[0] == -np.inf
    assert db[1] == pytest.approx(-0.70236522, rel=1e-7)  # unchanged ordinary point
    # next to them, mpmath.diff at 50 digits (step 1e-25 b in b): the closed form, exact to 1e-90
    da, db = hypergeometric.hyp1f1_gradient(0.5, 1e-90, 0.5)
    assert da == pytest.approx(8.2070975158329947e89, rel=1e-14)
    assert db == pytest.approx(-3.6648179964156556e179, rel=1e-14)
    da, db, dc = hypergeometric.hyp2f1_gradient(0.5, 0.5, 1e-90, 0.5)
    assert da == db == pytest.approx(6.8363298321839755e89, rel=1e-14)
    assert dc == pytest.approx(-2.6967630059418968e179, rel=1e-14)
    assert hypergeometric.hyp2f1_gradient(0.5, 0.5, tiny, 0.0) == (0.0, 0.0, 0.0)
    assert hypergeometric.hyp2f1_gradient(0.5, 0.5, tiny, 0.5)[2] == -np.inf


def test_hyp2f1_pullback_at_large_lower_parameter_and_far_argument():
    # c = 1e8 at z = -2.5 and z = -1e300 each took 12-19 s for NaN; SciPy's own value at c = 1e8
    # is NaN, the parameter derivatives are not. References: mpmath at 30 digits, through
    # Euler's integral at c = 1e8 (tests/rules/scipy/special/test_hypergeometric_jets.py):
    # -2.4999998750000102e-08, and mpmath.hyp2f1 at z = -1e300.
    cotangents = cr.rrule(sc.hyp2f1, 0.5, 1.0, 1e8, -2.5)[1](1.0)
    assert unthunk(cotangents[1]) == pytest.approx(-2.4999998750000102e-08, rel=1e-14, abs=0)
    a, b, c, z = 0.5, 1.0, 1.5, -1e300
    cotangents = cr.rrule(sc.hyp2f1, a, b, c, z)[1](1.0)
    with mpmath.workdps(30):
        f = lambda *p: mpmath.hyp2f1(*p, z)
        for i in range(3):
            order = tuple(int(i == j) for j in range(3))
            exact = float(mpmath.diff(f, (a, b, c), order))
            # Gauss's sum times (1 - z)^(-a), exact to rounding: measured within 3e-16
            assert unthunk(cotangents[i + 1]) == pytest.approx(exact, rel=1e-13, abs=0)
    # c = 1e300: d/dc = -a b z / c^2 underflows to 0 (was NaN); d/da = b z / c (1 + O(1/c))
    cotangents = cr.rrule(sc.hyp2f1, 0.5, 1.0, 1e300, -2.5)[1](1.0)
    assert unthunk(cotangents[3]) == 0.0
    assert unthunk(cotangents[1]) == pytest.approx(-2.5e-300, rel=1e-15, abs=0)


def test_hyp1f1_parameter_derivatives_where_the_series_cancels_are_nan():
    # at a large a with x < 0 the series after Kummer's transformation, 1F1(b - a; b; -x),
    # alternates with terms up to 1e80 for a sum of order 1: hyp1f1(300, 0.3, -3)'s
    # derivative in a came out 2.8e6 for 0.041 (mpmath), and at (100, 1.5, -3) 5e-4 off
    for point in [(3000.0, 0.3, -3.0), (300.0, 0.3, -3.0), (100.0, 1.5, -3.0)]:
        da, db = hypergeometric.hyp1f1_gradient(*point)
        assert np.isnan(da) and np.isnan(db)
    # beside it, where the terms cancel less (mpmath; 1e-11 measured)
    da, db = hypergeometric.hyp1f1_gradient(30.0, 1.5, -3.0)
    assert da == pytest.approx(0.0038227236418892415, rel=1e-10, abs=0)
    assert db == pytest.approx(-0.014976800639420406, rel=1e-10, abs=0)
