"""Tests of the rules for Bessel functions (jve, yve too), in the argument and in the order."""

import mpmath as M
import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_rrule, test_scalar
from samples import Row, cases, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk
from chainrules.engines import reverse

X = (0.5, 4.5)
ORDER = (-1.7, 2.6)
INTEGER = (0, 3)
FIRST = (((3,), (3,)),)
NUMERIC = "the derivative in the order is computed numerically, on NumPy values only"

ROWS = [
    Row(sc.j0, (X,)),
    Row(sc.j1, (X,)),
    Row(sc.y0, (X,)),
    Row(sc.y1, (X,)),
    Row(sc.i0, ((-2.0, 2.0),)),
    Row(sc.i1, ((-2.0, 2.0),)),
    Row(sc.i0e, ((-2.0, 2.0),)),
    Row(sc.i1e, ((-2.0, 2.0),)),
    Row(sc.k0, (X,)),
    Row(sc.k1, (X,)),
    Row(sc.k0e, (X,)),
    Row(sc.k1e, (X,)),
    Row(sc.kn, ((0, 3), X), integer=(0,)),
    Row(sc.yn, ((0, 3), X), integer=(0,)),
    # Real orders: the derivative in v is computed (series or quadrature) for real x > 0; its
    # second derivative (quadratures again) is checked in test_bessel_order and tests/accuracy,
    # second derivatives in x on the integer-order rows below.
    Row(sc.jv, (ORDER, (0.5, 9.0)), float32=False, second_order=False),
    Row(sc.yv, (ORDER, X), float32=False, second_order=False),
    Row(sc.iv, (ORDER, X), float32=False, second_order=False),
    Row(sc.ive, (ORDER, X), float32=False, second_order=False),
    Row(sc.kv, (ORDER, X), float32=False, second_order=False),
    Row(sc.kve, (ORDER, X), float32=False, second_order=False),
    # Integer orders, complex arguments: the derivative in z.
    Row(sc.jv, ((0, 3), X), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
    Row(sc.yv, ((0, 3), X), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
    Row(sc.iv, ((0, 3), X), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
    Row(sc.ive, ((0, 3), (-2.0, 2.0)), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
    Row(sc.kv, ((0, 3), X), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
    Row(sc.kve, ((0, 3), X), integer=(0,), complex=True, shapes=(((3,), (3,)),)),
]
CASES = cases(ROWS)

test_rrule_bessel, test_frule_bessel = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_bessel(row):
    test_scalar(row.f, midpoint(row))


# ---- exponentially scaled jve and yve -------------------------------------------------------

SCALED_ROWS = [
    Row(sc.jve, (ORDER, X), float32=False, second_order=False, reason=NUMERIC),
    Row(sc.yve, (ORDER, X), float32=False, second_order=False, reason=NUMERIC),
    Row(sc.jve, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST),
    Row(sc.yve, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST),
]
SCALED_CASES = cases(SCALED_ROWS)

test_rrule_bessel_more, test_frule_bessel_more = table_tests(SCALED_CASES)


# ---- orders ---------------------------------------------------------------------------------

POINTS = [(0.3, 0.2), (-2.5, 1.0), (2.0, 3.5), (-1.0, 6.0), (4.5, 12.0)]
# d/dv at POINTS, from mpmath's numerical differentiation at 30 digits.
ORDER_DERIVATIVES = {
    sc.jv: [
        -1.1789437062869931,
        -3.4954646171521727,
        0.087709060098788636,
        0.3000131488533419,
        -0.27229128925013896,
    ],
    sc.yv: [
        -1.2304675162349509,
        -8.948560692100384,
        -0.45515893070525734,
        -0.48264643536048355,
        -0.080830010611733592,
    ],
    sc.iv: [
        -1.20388152650863,
        -2.9376050938324345,
        -2.3738938638511086,
        11.207078415797398,
        -3028.2432975132989,
    ],
    sc.kv: [
        1.2600745035649227,
        -4.7772822894818246,
        0.015908044475281944,
        -0.00020733238800218718,
        1.740108240760702e-6,
    ],
}


@pytest.mark.parametrize("f", list(ORDER_DERIVATIVES), ids=lambda f: f.__name__)
@pytest.mark.parametrize("k", range(len(POINTS)))
def test_order_derivative_reference_values(f, k):
    v, x = POINTS[k]
    dv = unthunk(cr.rrule(f, v, x)[1](1.0)[1])
    assert dv == pytest.approx(ORDER_DERIVATIVES[f][k], rel=1e-9)
    scaled = {sc.iv: (sc.ive, np.exp(-x)), sc.kv: (sc.kve, np.exp(x))}.get(f)
    if scaled is not None:
        g, factor = scaled
        dv = unthunk(cr.rrule(g, v, x)[1](1.0)[1])
        assert dv == pytest.approx(ORDER_DERIVATIVES[f][k] * factor, rel=1e-9)


def test_kv_is_even_in_the_order():
    assert unthunk(cr.rrule(sc.kv, 0.0, 1.3)[1](1.0)[1]) == pytest.approx(0.0, abs=1e-14)


@pytest.mark.parametrize("f", list(ORDER_DERIVATIVES), ids=lambda f: f.__name__)
def test_order_at_complex_arguments(f):
    # Chebyshev interpolation of SciPy's values in the order; the frule's tangent is the
    # complex derivative, first and second order (the latter through the reverse engine's
    # derivative of the order derivative, a function with rules); mpmath at 30 digits
    twin = {sc.jv: M.besselj, sc.yv: M.bessely, sc.iv: M.besseli, sc.kv: M.besselk}[f]
    v, z = 0.8, 1.5 + 0.7j
    _, tangent = cr.frule((NoTangent(), 1.0, 0.0), f, v, z)
    with M.workdps(30):
        first = complex(M.diff(lambda w: twin(w, z), v))
        second = complex(M.diff(lambda w: twin(w, z), v, 2))
    assert complex(tangent) == pytest.approx(first, rel=1e-11)
    curvature = reverse.grad(reverse.grad(lambda w: np.real(f(w, z))))(v)
    # the interpolant's second derivative: measured 1e-12 here, 1e-10 at worst
    assert curvature == pytest.approx(second.real, rel=1e-9)


def test_order_cotangent_is_thunked_and_skipped_when_unused():
    _, pullback = cr.rrule(sc.kv, 1.5, np.array([1.0, 2.0]))
    dv, dx = pullback(np.ones(2))[1:]
    assert isinstance(dv, cr.Thunk)
    np.testing.assert_allclose(dx, -(sc.kv(0.5, [1.0, 2.0]) + sc.kv(2.5, [1.0, 2.0])) / 2)


def test_hard_points():
    assert cr.rrule(sc.j1, 0.0)[1](1.0)[1] == 0.5
    assert cr.rrule(sc.i1, 0.0)[1](1.0)[1] == 0.5
    assert cr.rrule(sc.jv, 2, 0.0)[1](1.0)[1] is NoTangent()
    assert cr.rrule(sc.ive, 1.0, 0.5)[1](ZeroTangent())[2] is ZeroTangent()


def test_ive_nonholomorphic_cotangent():
    # ive = iv exp(-|Re z|): check the real Jacobian of the complex case.
    test_rrule(sc.ive, 1, np.array([0.7 + 0.4j, -1.2 - 0.3j]))


def test_jve_nonholomorphic_cotangent():
    # jve = jv exp(-|Im z|): check the real Jacobian on both sides of the real axis.
    test_rrule(sc.jve, 1, np.array([0.7 + 0.4j, 1.2 - 0.3j]))
    test_rrule(sc.yve, 0, np.array([0.7 + 0.4j, 1.2 - 0.3j]))


def test_zero_cotangent():
    assert cr.rrule(sc.jve, 1.0, 0.5)[1](ZeroTangent())[2] is ZeroTangent()
    assert cr.rrule(sc.hankel1, 1, 0.5)[1](ZeroTangent())[2] is ZeroTangent()


# ---- the scaled functions at large x: asymptotic series, no cancellation --------------------

LARGE = 1e20
# At 1e20 the first term of the asymptotic series is exact to 1e-20: d/dx of c x^(-1/2).
SLOPES = {
    sc.k0e: np.sqrt(np.pi / 2),
    sc.k1e: np.sqrt(np.pi / 2),
    sc.i0e: 1 / np.sqrt(2 * np.pi),
    sc.i1e: 1 / np.sqrt(2 * np.pi),
}


@pytest.mark.parametrize("f", list(SLOPES), ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [LARGE, 1e10, 1e300])
def test_scaled_derivatives_at_large_x(f, x):
    # The recurrences (k0e' = k0e - k1e) gave 0 at 1e20 (both terms round alike) and NaN
    # from 1e10 for i1e and k1e, whose formulas used SciPy's ive and kve (NaN there).
    first = float(reverse.grad(f)(x))
    second = float(reverse.grad(reverse.grad(f))(x))
    assert first == pytest.approx(-0.5 * SLOPES[f] * x**-1.5, rel=1e-9)
    if x < 1e200:
        assert second == pytest.approx(0.75 * SLOPES[f] * x**-2.5, rel=1e-9)
    if f in (sc.i0e, sc.i1e):  # even and odd: i0e' is odd, i1e' even
        sign = -1.0 if f is sc.i0e else 1.0
        assert float(reverse.grad(f)(-x)) == sign * first


def test_scaled_order_derivative_in_x_at_large_x():
    dk = float(reverse.grad(lambda x: sc.kve(0.5, x))(1e8))
    di = float(reverse.grad(lambda x: sc.ive(0.5, x))(1e8))
    # kve(1/2, x) = sqrt(pi/(2x)) exactly; ive(1/2, x) = (1 - exp(-2x)) / sqrt(2 pi x).
    assert dk == pytest.approx(-0.5 * np.sqrt(np.pi / 2) * 1e8**-1.5, rel=1e-12)
    assert di == pytest.approx(-0.5 / np.sqrt(2 * np.pi) * 1e8**-1.5, rel=1e-12)


def test_i1_second_derivative_below_the_flush_of_iv():
    # SciPy's iv(1, x) is 0 below ~1e-250, and the derivative of iv(2, x) gave x/4 (true 3x/8).
    x = -2.4e-260
    assert float(reverse.grad(reverse.grad(sc.i1))(x)) == pytest.approx(3 * x / 8, rel=1e-14)


@pytest.mark.parametrize("f", [sc.jve, sc.ive], ids=lambda f: f.__name__)
def test_scaled_derivative_where_scipy_overflows_into_nan(f):
    # SciPy's jve(-1.5, x) and ive(-1.5, x) are NaN below about 1e-200 (jv and iv: -inf), so
    # d/dx f(-1/2, x) = -(1/2) sqrt(2/pi) x^(-3/2) (1 + O(x)) was NaN at 1e-300; it is -inf.
    # At 1e-100: mpmath.diff at 50 digits, -3.9894228040143268e149 for both.
    x = np.array([1e-300, 1e-100])
    dx = cr.rrule(f, -0.5, x)[1](np.ones(2))[2]
    assert dx[0] == -np.inf
    assert dx[1] == pytest.approx(-3.9894228040143268e149, rel=1e-14)
    assert cr.rrule(f, -0.5, 1e-300)[1](1.0)[2] == -np.inf


def test_order_cotangent_at_the_origin():
    # J_v(0) = 0 for every v > 0: the cotangent in v is 0 (it was NaN)
    _, pullback = cr.rrule(sc.jv, np.array([2.5, 1e4]), np.array([0.0, 2.5]))
    np.testing.assert_array_equal(unthunk(pullback(np.ones(2))[1]), [0.0, 0.0])
    assert unthunk(cr.rrule(sc.ive, 0.5, 0.0)[1](1.0)[1]) == 0.0


@pytest.mark.filterwarnings("ignore:floating point number truncated")
@pytest.mark.parametrize("f", [sc.kn, sc.yn])
@pytest.mark.parametrize(("n", "whole"), [(1.7, 1), (0.5, 0), (-1.7, -1), (2.0, 2)])
def test_integer_order_truncates_a_float_order_as_scipy_does(f, n, whole):
    # SciPy's kn(1.7, x) is kn(1, x): the derivative in x is the integer order's. At 0.5 it
    # was wrong: the orders -0.5 and 1.5 truncate to 0 and 1, not to -1 and 1
    got = cr.unthunk(cr.rrule(f, n, 1.3)[1](1.0)[2])
    assert got == cr.unthunk(cr.rrule(f, whole, 1.3)[1](1.0)[2])
