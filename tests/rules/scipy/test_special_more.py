"""Tests of the rules for integrals of Bessel functions, Kelvin, parabolic cylinder, Legendre."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, test_scalar, with_tangent
from samples import Row, case_id, cases, check_frule, check_rrule

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, RuleKeywordError, ZeroTangent
from chainrules.core.calls import call
from chainrules.engines import reverse

XI = (0.5, 4.5)
X = (XI,)
ORDER = (-1.7, 2.6)
WEBER = "the derivative in the order is NotImplementedTangent; second order on integer orders"
SHAPE = (0.2, 2.0)
LEGENDRE = (-0.9, 0.9)
FIRST = (((3,), (3,)),)
FIRST3 = (((3,), (3,), (3,)),)
SCALAR_N = (((3,), ()), ((2, 3), ()), ((), ()))
PARAMETRIC = [sc.hyperu, sc.wright_bessel, sc.log_wright_bessel]
NO_FORMULA = "a parameter derivative is NotImplementedTangent; second order on integer ones"
# SciPy's Legendre functions compute in float64 only (float32 in, float64 out).
FLOAT64 = {"float32": False}
# Near |z| = 1 the derivatives of odd orders grow like powers of 1/(1 - z^2).
NEAR_ONE = ((0.99, 0.999), (-0.999, -0.99))
NEAR_POLES = ((0.01, 0.05), (np.pi - 0.05, np.pi - 0.01))
ORDERS = (-3, 3)
DIFF_N = [{"diff_n": n} for n in (0, 1, 2)]
ASSOC_KEYWORDS = [
    *DIFF_N,
    {"norm": True, "diff_n": 2},
    {"branch_cut": 3, "diff_n": 1},
    {"branch_cut": 3, "norm": True, "diff_n": 2},
]
AIRY = "SciPy's itairy is off by up to 5e-7 (against quadrature): its finite differences by 1e-5"

INTEGRALS = [sc.itj0y0, sc.it2j0y0, sc.iti0k0, sc.it2i0k0]
STRUVE = [sc.itstruve0, sc.it2struve0, sc.itmodstruve0]
KELVIN = [sc.ber, sc.bei, sc.ker, sc.kei, sc.berp, sc.beip, sc.kerp, sc.keip]
MULTI = [*INTEGRALS, sc.modfresnelp, sc.modfresnelm, sc.kelvin]

ROWS = [
    *(Row(f, X) for f in INTEGRALS),
    *(Row(f, X) for f in STRUVE),
    Row(sc.itairy, ((-2.5, 2.5),), rtol=1e-4, atol=1e-5, reason=AIRY),
    # SciPy's modified Fresnel integrals follow their definition for x >= 0 only.
    Row(sc.modfresnelp, ((0.2, 2.5),)),
    Row(sc.modfresnelm, ((0.2, 2.5),)),
    *(Row(f, X) for f in KELVIN),
    Row(sc.kelvin, X),
    # SciPy's float32 loops of pbdv and pbvv are NaN at negative orders: float64 only there.
    *(
        Row(f, (ORDER, XI), float32=False, second_order=False, reason=WEBER)
        for f in (sc.pbdv, sc.pbvv)
    ),
    *(Row(f, ((0, 3), XI), integer=(0,)) for f in (sc.pbdv, sc.pbvv)),
    Row(sc.pbwa, ((-2.0, 2.0), (-3.0, 3.0)), second_order=False, reason=WEBER),
    *(Row(f, (SHAPE, SHAPE, XI), second_order=False, reason=NO_FORMULA) for f in PARAMETRIC),
    *(Row(f, ((0, 3), (1, 3), XI), integer=(0, 1), shapes=FIRST3) for f in PARAMETRIC),
    Row(sc.besselpoly, (XI, (0.0, 2.0), (0.0, 3.0)), second_order=False, reason=NO_FORMULA),
    Row(sc.besselpoly, (XI, (0, 2), (0, 3)), integer=(1, 2), shapes=FIRST3),
    Row(sc.diric, ((-7.0, 7.0), (1, 6)), integer=(1,), shapes=SCALAR_N),
    Row(sc.tklmbda, ((-2.0, 2.0), (0.1, 1.5))),
    Row(sc.tklmbda, ((-2.0, 2.0), (-1.5, -0.1)), shapes=FIRST),
    Row(
        sc.lpmv, ((0, 3), (0.5, 4.0), LEGENDRE), integer=(0,), second_order=False, reason=NO_FORMULA
    ),
    Row(sc.lpmv, ((0, 3), (0, 4), LEGENDRE), integer=(0, 1), shapes=FIRST3),
    *(Row(sc.legendre_p, ((0, 5), LEGENDRE), integer=(0,), kwargs=kw, **FLOAT64) for kw in DIFF_N),
    *(
        Row(sc.legendre_p, ((0, 5), z), integer=(0,), kwargs=kw, shapes=FIRST, **FLOAT64)
        for kw in DIFF_N
        for z in NEAR_ONE
    ),
    *(
        Row(
            sc.assoc_legendre_p,
            ((0, 5), ORDERS, (1.1, 3.0) if kw.get("branch_cut") == 3 else LEGENDRE),
            integer=(0, 1),
            complex=True,
            kwargs=kw,
            **FLOAT64,
        )
        for kw in ASSOC_KEYWORDS
    ),
    *(
        Row(
            sc.assoc_legendre_p,
            ((0, 5), ORDERS, z),
            integer=(0, 1),
            kwargs=kw,
            shapes=FIRST3,
            **FLOAT64,
        )
        for kw in (*DIFF_N, {"norm": True, "diff_n": 2})
        for z in NEAR_ONE
    ),
    *(
        Row(sc.sph_legendre_p, ((0, 5), ORDERS, (0.2, 3.0)), integer=(0, 1), kwargs=kw, **FLOAT64)
        for kw in DIFF_N
    ),
    *(
        Row(
            sc.sph_legendre_p,
            ((0, 5), ORDERS, theta),
            integer=(0, 1),
            kwargs=kw,
            shapes=FIRST3,
            **FLOAT64,
        )
        for kw in DIFF_N
        for theta in NEAR_POLES
    ),
]
CASES = cases(ROWS)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_special_more(case):
    check_rrule(case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_special_more(case):
    check_frule(case)


# SciPy takes one scalar x (no array, not even 0-d) and computes on NumPy values only: these
# rows are Python and NumPy scalars, without second order.
SEQUENCES = [
    (sc.riccati_jn, 3, 1.3),
    # SciPy's riccati_jn is NaN at a float32 scalar: float64 only.
    (sc.riccati_jn, 0, 0.4),
    (sc.riccati_yn, 3, 1.3),
    (sc.riccati_yn, 0, np.float32(2.1)),
    (sc.lmbda, 2, 1.3),
    (sc.lmbda, 2.4, 0.8),
    (sc.lmbda, 0.6, np.float32(2.2)),
]


@pytest.mark.parametrize(("f", "v", "x"), SEQUENCES, ids=repr)
def test_rrule_sequences(f, v, x):
    test_rrule(f, v, x, check_second_order=False)


@pytest.mark.parametrize(("f", "v", "x"), SEQUENCES, ids=repr)
def test_frule_sequences(f, v, x):
    if isinstance(v, float):
        v = with_tangent(v, ZeroTangent())  # a tangent in the order: NotImplementedTangent
    test_frule(f, v, x, check_second_order=False)


@pytest.mark.parametrize("f", [*STRUVE, *KELVIN], ids=repr)
def test_scalar_special_more(f):
    # SciPy evaluates these at real arguments only.
    test_scalar(f, 1.3, complex_point=False)


@pytest.mark.parametrize("f", MULTI, ids=repr)
def test_scalar_special_more_outputs(f):
    test_scalar(f, 1.3, complex_point=False)


# ---- hard points and exact values -----------------------------------------------------------


def _derivative(f, x, output, outputs):
    seed = tuple(1.0 if k == output else ZeroTangent() for k in range(outputs))
    return cr.rrule(f, x)[1](seed)[1]


def test_integrands_are_derivatives():
    x = 1.7
    assert _derivative(sc.itj0y0, x, 0, 2) == sc.j0(x)
    assert _derivative(sc.itj0y0, x, 1, 2) == sc.y0(x)
    assert _derivative(sc.iti0k0, x, 0, 2) == sc.i0(x)
    assert _derivative(sc.iti0k0, x, 1, 2) == sc.k0(x)
    assert _derivative(sc.it2i0k0, x, 1, 2) == pytest.approx(-sc.k0(x) / x)
    assert _derivative(sc.itairy, x, 3, 4) == sc.airy(-x)[2]
    assert cr.rrule(sc.itstruve0, x)[1](1.0)[1] == sc.struve(0, x)


def test_limits_at_zero():
    # (1 - J0(t))/t, (I0(t) - 1)/t and H0(t)/t tend to 0, 0 and 2/pi at t = 0.
    assert _derivative(sc.it2j0y0, 0.0, 0, 2) == 0.0
    assert _derivative(sc.it2i0k0, 0.0, 0, 2) == 0.0
    assert cr.rrule(sc.it2struve0, 0.0)[1](1.0)[1] == pytest.approx(-2 / np.pi)
    # ber'' (0) = 0 and bei'' (0) = 1/2, from w'' = i w - w'/x.
    assert cr.rrule(sc.berp, 0.0)[1](1.0)[1] == 0.0
    assert cr.rrule(sc.beip, 0.0)[1](1.0)[1] == 0.5
    assert _derivative(sc.kelvin, 0.0, 2, 4) == 0.0
    assert cr.rrule(sc.kelvin, 0.0)[1]((ZeroTangent(), ZeroTangent(), 1j, ZeroTangent()))[1] == 0.5


def test_modified_fresnel_values():
    # fp'(0) = -1; kp'(0) = -exp(-i pi/4)/sqrt(pi): a real argument gets the real part.
    assert _derivative(sc.modfresnelp, 0.0, 0, 2) == -1.0
    kp = -np.exp(-0.25j * np.pi) / np.sqrt(np.pi)
    assert _derivative(sc.modfresnelp, 0.0, 1, 2) == pytest.approx(kp.real)
    assert isinstance(_derivative(sc.modfresnelm, 0.5, 1, 2), float)


def test_weber_equation():
    # (w, w') = pbdv(v, x): w' is SciPy's second output, w'' = (x^2/4 - v - 1/2) w.
    v, x = 1.3, 0.8
    (w, wp), pullback = cr.rrule(sc.pbdv, v, x)
    assert pullback((1.0, ZeroTangent()))[2] == wp
    assert pullback((ZeroTangent(), 1.0))[2] == pytest.approx((x * x / 4 - v - 0.5) * w)
    assert isinstance(pullback((1.0, 0.0))[1], NotImplementedTangent)
    assert cr.rrule(sc.pbdv, 2, x)[1]((1.0, 0.0))[1] is NoTangent()
    assert isinstance(cr.frule((None, 1.0, 0.0), sc.pbwa, 0.5, x)[1], NotImplementedTangent)


def test_parameter_functions_values():
    a, b, x = 0.7, 1.3, 1.1
    assert cr.rrule(sc.hyperu, a, b, x)[1](1.0)[3] == -a * sc.hyperu(a + 1, b + 1, x)
    assert isinstance(cr.rrule(sc.hyperu, a, b, x)[1](1.0)[1], NotImplementedTangent)
    assert cr.rrule(sc.wright_bessel, a, b, x)[1](1.0)[3] == sc.wright_bessel(a, a + b, x)
    assert cr.rrule(sc.hyperu, 1, 2, x)[1](1.0)[1:3] == (NoTangent(), NoTangent())
    # d/da of besselpoly(a, l, v) = besselpoly(a, l+1, v-1) - besselpoly(a, l+1, v+1).
    expected = sc.besselpoly(x, 1.5, -1.0) - sc.besselpoly(x, 1.5, 1.0)
    assert cr.rrule(sc.besselpoly, x, 0.5, 0.0)[1](1.0)[1] == pytest.approx(expected)


@pytest.mark.parametrize("x", [0.0, 2 * np.pi, -4 * np.pi])
@pytest.mark.parametrize("n", [2, 3, 5])
def test_diric_extrema(x, n):
    # diric is +-1 at multiples of 2 pi, an extremum: the derivative is 0, not 0/0.
    assert cr.rrule(sc.diric, x, n)[1](1.0)[1] == 0.0


def test_tukey_lambda_support():
    # lmbda = 2: uniform on [-1/2, 1/2]; outside the support nothing changes.
    assert cr.rrule(sc.tklmbda, 0.3, 2.0)[1](1.0)[1:] == (1.0, pytest.approx(0.18921717817))
    assert cr.rrule(sc.tklmbda, 0.7, 2.0)[1](1.0)[1:] == (0.0, 0.0)
    # lmbda = 0 is the logistic distribution: density F (1 - F).
    y, pullback = cr.rrule(sc.tklmbda, 0.3, 0.0)
    assert pullback(1.0)[1] == pytest.approx(y * (1 - y))


def test_legendre_values():
    # lpmv: P_v'(1) = v (v + 1)/2 for m = 0, where the recurrence divides by 1 - x^2.
    assert cr.rrule(sc.lpmv, 0, 2.5, 1.0)[1](1.0)[3] == 2.5 * 3.5 / 2
    assert cr.rrule(sc.lpmv, 0, 3, -1.0)[1](1.0)[3] == 6.0
    _, pullback = cr.rrule(sc.legendre_p, 3, 0.3, diff_n=1)
    assert pullback(np.array([1.0, 0.0]))[2] == sc.legendre_p(3, 0.3, diff_n=1)[1]
    assert pullback(np.array([0.0, 1.0]))[2] == sc.legendre_p(3, 0.3, diff_n=2)[2]
    # Third derivatives: P_3''' = 15; P_3^1 = -3 (5 z^2 - 1) sqrt(1 - z^2)/2 at z = 1/2.
    third_row = np.array([0.0, 0.0, 1.0])
    assert cr.rrule(sc.legendre_p, 3, 0.3, diff_n=2)[1](third_row)[2] == pytest.approx(15.0)
    third = cr.rrule(sc.assoc_legendre_p, 3, 1, 0.5, diff_n=2)[1](third_row)[3]
    assert third == pytest.approx(107 * np.sqrt(3) / 3)
    # At z = 1 Legendre's equation degenerates: order 0 by Gegenbauer, the others NaN.
    assert cr.rrule(sc.assoc_legendre_p, 3, 0, 1.0, diff_n=2)[1](third_row)[3] == 15.0
    assert np.isnan(cr.rrule(sc.assoc_legendre_p, 3, 2, 1.0, diff_n=2)[1](third_row)[3])


def test_legendre_keywords_are_checked():
    with pytest.raises(RuleKeywordError, match="norm"):
        cr.rrule(sc.legendre_p, 2, 0.5, norm=True)
    with pytest.raises(ValueError, match="diff_n"):
        cr.frule((None, None, None, 1.0), sc.assoc_legendre_p, 2, 1, 0.5, diff_n=3)


@pytest.mark.parametrize("k", [0, 1, 2])
def test_legendre_rows_through_the_reverse_engine(k):
    # The last row of diff_n = k is P_3^(k), P_3 = (5 z^3 - 3 z)/2: the engine differentiates
    # it twice more through the rules (k = 2 reaches the third derivative's own derivative).
    z = 0.4
    expected = [15 * z, 15.0, 0.0][k]

    def legendre(x):
        return call(sc.legendre_p, 3, x, diff_n=k)[k]

    def normalized(x):  # order 0, normalized: sqrt((2n + 1)/2) P_n
        return call(sc.assoc_legendre_p, 3, 0, x, norm=True, diff_n=k)[k]

    assert reverse.grad(reverse.grad(legendre))(z) == pytest.approx(expected)
    assert reverse.grad(reverse.grad(normalized))(z) == pytest.approx(np.sqrt(3.5) * expected)


def test_sequences_at_zero():
    # (x j_1)'' (0) = 2/3; lambda_v'' (0) = -1/(2 (v + 1)), summed over v = 0, 1, 2.
    slopes = (ZeroTangent(), np.array([0.0, 1.0, 0.0]))
    assert cr.rrule(sc.riccati_jn, 2, 0.0)[1](slopes)[2] == pytest.approx(2 / 3)
    all_slopes = (ZeroTangent(), np.ones(3))
    assert cr.rrule(sc.lmbda, 2, 0.0)[1](all_slopes)[2] == pytest.approx(-1 / 2 - 1 / 4 - 1 / 6)
