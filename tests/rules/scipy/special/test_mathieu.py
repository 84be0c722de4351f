"""Tests of the rules for Mathieu functions: characteristic values, coefficients, ce, se, Mc, Ms."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent
from chainrules.engines import reverse
from chainrules.rules.scipy.special import mathieu

Q = (-8.0, 8.0)
DEGREES = (-180.0, 180.0)
POSITIVE_Q = (0.5, 8.0)
U = (0.2, 1.5)
NUMERIC_Q = (
    "the derivative in q comes from a linear solve on NumPy values, so it does not "
    "differentiate again; second order is checked at integer q (no tangent)"
)
SHAPES = (((3,), (3,), (3,)), ((2, 3), (3,), (2, 1)), ((), (), ()))

ANGULAR = [(sc.mathieu_cem, (0, 4)), (sc.mathieu_sem, (1, 4))]
MODIFIED = [
    (sc.mathieu_modcem1, (0, 3)),
    (sc.mathieu_modcem2, (0, 3)),
    (sc.mathieu_modsem1, (1, 3)),
    (sc.mathieu_modsem2, (1, 3)),
]

ROWS = [
    Row(sc.mathieu_a, ((0, 5), Q), integer=(0,), second_order=False, reason=NUMERIC_Q),
    Row(sc.mathieu_b, ((1, 5), Q), integer=(0,), second_order=False, reason=NUMERIC_Q),
    *(
        Row(f, (m, Q, DEGREES), integer=(0,), shapes=SHAPES, second_order=False, reason=NUMERIC_Q)
        for f, m in ANGULAR
    ),
    *(Row(f, (m, (-6, 6), DEGREES), integer=(0, 1), shapes=SHAPES) for f, m in ANGULAR),
    *(
        Row(
            f, (m, POSITIVE_Q, U), integer=(0,), shapes=SHAPES, second_order=False, reason=NUMERIC_Q
        )
        for f, m in MODIFIED
    ),
    *(Row(f, (m, (1, 8), U), integer=(0, 1), shapes=SHAPES) for f, m in MODIFIED),
]
CASES = cases(ROWS)

test_rrule_mathieu, test_frule_mathieu = table_tests(CASES)


# SciPy takes Python scalars only, and returns as many coefficients as its estimate for (m, q)
# asks: the q here stay away from the jumps of that length.
COEFFICIENTS = [
    (sc.mathieu_even_coef, 0, 0.7),
    (sc.mathieu_even_coef, 3, 2.6),
    (sc.mathieu_even_coef, 4, 15.0),
    (sc.mathieu_odd_coef, 1, 0.7),
    (sc.mathieu_odd_coef, 2, 2.6),
    (sc.mathieu_odd_coef, 5, 15.0),
]
SCALARS_ONLY = "SciPy's coefficient functions take Python scalars only"


@pytest.mark.parametrize(("f", "m", "q"), COEFFICIENTS, ids=repr)
def test_rrule_coefficients(f, m, q):
    test_rrule(f, m, q, check_second_order=False)  # SCALARS_ONLY


@pytest.mark.parametrize(("f", "m", "q"), COEFFICIENTS, ids=repr)
def test_frule_coefficients(f, m, q):
    test_frule(f, m, q, check_second_order=False)  # SCALARS_ONLY


# ---- identities and values ------------------------------------------------------------------


def _central(g, t, h=1e-6):
    return (np.asarray(g(t + h)) - np.asarray(g(t - h))) / (2 * h)


def _seeds(output):
    return (1.0, ZeroTangent()) if output == 0 else (ZeroTangent(), 1.0)


def _cotangent(f, args, output, position):
    return cr.unthunk(cr.rrule(f, *args)[1](_seeds(output))[position])


@pytest.mark.parametrize(("m", "q", "x"), [(0, 1.3, 37.0), (3, -2.5, 100.0), (4, 6.0, -20.0)])
def test_mathieu_equation(m, q, x):
    # x in degrees, the derivative in radians: w'' = (2 q cos 2t - a) w, times pi/180.
    t, degree = np.deg2rad(x), np.pi / 180
    (w, wp), _ = cr.rrule(sc.mathieu_cem, m, q, x)
    assert _cotangent(sc.mathieu_cem, (m, q, x), 0, 3) == pytest.approx(degree * wp)
    expected = degree * (2 * q * np.cos(2 * t) - sc.mathieu_a(m, q)) * w
    assert _cotangent(sc.mathieu_cem, (m, q, x), 1, 3) == pytest.approx(expected)
    numeric = _central(lambda s: sc.mathieu_cem(m, q, s)[1], x)
    assert expected == pytest.approx(numeric, rel=1e-7, abs=1e-9)
    (w, _), _ = cr.rrule(sc.mathieu_sem, m + 1, q, x)
    expected = degree * (2 * q * np.cos(2 * t) - sc.mathieu_b(m + 1, q)) * w
    assert _cotangent(sc.mathieu_sem, (m + 1, q, x), 1, 3) == pytest.approx(expected)


@pytest.mark.parametrize(("m", "q", "u"), [(0, 1.3, 0.4), (2, 4.0, 1.1), (3, 0.6, 0.9)])
def test_modified_mathieu_equation(m, q, u):
    # The argument is u itself (not degrees): w'' = (a - 2 q cosh 2u) w.
    for f, characteristic in (
        (sc.mathieu_modcem2, sc.mathieu_a),
        (sc.mathieu_modsem1, sc.mathieu_b),
    ):
        w = f(m + 1, q, u)[0]
        expected = (characteristic(m + 1, q) - 2 * q * np.cosh(2 * u)) * w
        assert _cotangent(f, (m + 1, q, u), 1, 3) == pytest.approx(expected)
        numeric = _central(lambda s, f=f: f(m + 1, q, s)[1], u)
        assert expected == pytest.approx(numeric, rel=1e-7)


def test_se_0_vanishes():
    # se_0 = 0 (b_0 is NaN): every derivative is 0.
    _, pullback = cr.rrule(sc.mathieu_sem, np.array([0, 2]), np.array([1.5, 1.5]), 30.0)
    grads = [cr.unthunk(g) for g in pullback((np.ones(2), np.ones(2)))]
    assert grads[2][0] == 0.0
    assert grads[3] != 0.0


@pytest.mark.parametrize("q", [-6.0, -0.4, 0.0, 0.9, 12.0])
@pytest.mark.parametrize("m", [0, 1, 2, 5])
def test_hellmann_feynman(m, q):
    # da/dq = v' T v / v' v, against central differences of SciPy's characteristic values.
    for f in (sc.mathieu_a, sc.mathieu_b):
        if f is sc.mathieu_b and m == 0:
            continue
        slope = cr.unthunk(cr.rrule(f, m, q)[1](1.0)[2])
        assert slope == pytest.approx(_central(lambda s, f=f: f(m, s), q), rel=1e-6, abs=1e-7)


def test_characteristic_values_at_zero():
    # a_1 = 1 + q - q^2/8 - ..., b_1 = 1 - q - ..., a_0 = -q^2/2 + ...: slopes 1, -1, 0 at 0.
    assert cr.unthunk(cr.rrule(sc.mathieu_a, 1, 0.0)[1](1.0)[2]) == pytest.approx(1.0)
    assert cr.unthunk(cr.rrule(sc.mathieu_b, 1, 0.0)[1](1.0)[2]) == pytest.approx(-1.0)
    assert cr.unthunk(cr.rrule(sc.mathieu_a, 0, 0.0)[1](1.0)[2]) == 0.0
    assert cr.unthunk(cr.rrule(sc.mathieu_a, 0, 0.01)[1](1.0)[2]) == pytest.approx(-0.01, rel=1e-3)


FUNCTIONS_IN_Q = [
    (sc.mathieu_cem, 2, -3.0, 50.0),
    (sc.mathieu_cem, 3, 1.7, -130.0),
    (sc.mathieu_sem, 1, -0.8, 20.0),
    (sc.mathieu_sem, 4, 9.0, 75.0),
    (sc.mathieu_modcem1, 2, 3.0, 0.7),
    (sc.mathieu_modcem2, 1, 0.9, 0.3),
    (sc.mathieu_modsem1, 3, 6.0, 1.2),
    (sc.mathieu_modsem2, 2, 2.2, 0.5),
]


@pytest.mark.parametrize(("f", "m", "q", "x"), FUNCTIONS_IN_Q, ids=repr)
def test_derivatives_in_q(f, m, q, x):
    # Fourier series (Bessel-product series for the modified functions) with the
    # coefficients' derivatives, against central differences of SciPy, value and slope.
    numeric = _central(lambda s: f(m, s, x), q)
    for output in (0, 1):
        actual = _cotangent(f, (m, q, x), output, 2)
        assert actual == pytest.approx(numeric[output], rel=1e-6, abs=1e-8)


@pytest.mark.parametrize(("f", "m", "q"), COEFFICIENTS, ids=repr)
def test_coefficient_derivatives(f, m, q):
    # The eigenvector's derivative, element by element, keeping SciPy's normalization.
    y, pullback = cr.rrule(f, m, q)
    numeric = _central(lambda s: f(m, s), q)
    actual = np.array([cr.unthunk(pullback(np.eye(len(y))[k])[2]) for k in range(len(y))])
    assert actual == pytest.approx(numeric, rel=1e-6, abs=1e-9)
    assert cr.rrule(f, m, q)[1](np.ones(len(y)))[1] is NoTangent()


def test_slope_in_x_differentiates_in_q():
    # The cotangent of x is written through mathieu_a and mathieu_cem: the reverse engine
    # differentiates it in q as well (the mixed second derivative).
    m, x = 2, 40.0

    def slope_cotangent(q):
        return cr.rrule(sc.mathieu_cem, m, q, x)[1]((0.3, 1.0))[3]

    q = 1.4
    assert reverse.grad(slope_cotangent)(q) == pytest.approx(_central(slope_cotangent, q), rel=1e-6)


def test_derivative_in_q_on_tracked_values():
    # The linear solves run on NumPy values: on an engine's arrays they are not implemented.
    found = []

    def q_cotangent(q):
        found.append(cr.unthunk(cr.rrule(sc.mathieu_a, 1, q)[1](1.0)[2]))
        return q

    reverse.grad(q_cotangent)(0.5)
    assert isinstance(found[0], NotImplementedTangent)


def test_integer_order_has_no_tangent():
    _, pullback = cr.rrule(sc.mathieu_cem, 2.0, 1.0, 10.0)
    assert pullback((1.0, 1.0))[1] is NoTangent()
    tangent = cr.frule((None, 1.0, 0.0, 0.0), sc.mathieu_cem, 2.0, 1.0, 10.0)[1]
    assert not isinstance(tangent, NotImplementedTangent)


def test_fourier_coefficients_reproduce_scipy():
    # The coefficients behind the derivatives are SciPy's, turned by DLMF 28.2.34-37 for q < 0.
    for even, f in ((True, sc.mathieu_cem), (False, sc.mathieu_sem)):
        for m, q in ((2, 1.5), (3, -2.0), (4, -7.5)):
            frequencies, coefficients, _, _ = mathieu.fourier_slopes(even, m, q)
            t = np.deg2rad(35.0)
            series = np.cos(frequencies * t) if even else np.sin(frequencies * t)
            assert coefficients @ series == pytest.approx(f(m, q, 35.0)[0], rel=1e-12)


@pytest.mark.parametrize("q", [1800.0, -1800.0, 2200.0, 1e8])
def test_derivatives_refused_where_scipys_coefficients_fail(q):
    # SciPy's coefficients are all 0 at |q| = 1,800, cut short from about 2,100 on, and at
    # 1e8 its coefficient routine crashes the process: a clear error instead, naming q
    for f in (sc.mathieu_a, sc.mathieu_b):
        with pytest.raises(ValueError, match=rf"Mathieu functions of order 3 at q = {q}"):
            cr.unthunk(cr.rrule(f, 3, q)[1](1.0)[2])


def test_derivatives_below_where_scipys_coefficients_fail():
    q = 1700.0
    for f in (sc.mathieu_a, sc.mathieu_b):
        slope = cr.unthunk(cr.rrule(f, 3, q)[1](1.0)[2])
        assert slope == pytest.approx(_central(lambda s, f=f: f(3, s), q), rel=1e-6)
