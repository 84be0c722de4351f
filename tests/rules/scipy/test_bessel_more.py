"""Tests of the rules for spherical Bessel, Hankel, Airy, Struve functions, Bessel derivatives."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_rrule, test_scalar
from samples import Row, case_id, cases, check_frule, check_rrule

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent, unthunk

X = (0.5, 4.5)
ORDER = (-1.7, 2.6)
INTEGER = (0, 3)
FIRST = (((3,), (3,)),)
NUMERIC = "the derivative in the order is computed numerically, on NumPy values only"
STRUVE = "the derivative in the order is NotImplementedTangent; second order on integer orders"

SPHERICAL = [sc.spherical_jn, sc.spherical_yn, sc.spherical_in, sc.spherical_kn]
HANKEL = [sc.hankel1, sc.hankel2, sc.hankel1e, sc.hankel2e]
DERIVATIVES = [sc.jvp, sc.yvp, sc.ivp, sc.kvp, sc.h1vp, sc.h2vp]

ROWS = [
    *(Row(f, ((0, 4), X), integer=(0,), complex=True) for f in SPHERICAL),
    # Negative real z: SciPy reflects it; so do the rules on the engine's arrays (jn, in).
    *(
        Row(f, ((0, 4), (-4.5, -0.5)), integer=(0,), shapes=FIRST, kwargs=kwargs)
        for f in (sc.spherical_jn, sc.spherical_yn, sc.spherical_in)
        for kwargs in ({}, {"derivative": True})
    ),
    *(
        Row(f, ((0, 4), X), integer=(0,), complex=True, kwargs={"derivative": True})
        for f in SPHERICAL
    ),
    *(Row(f, (ORDER, X), second_order=False, reason=NUMERIC) for f in HANKEL),
    *(Row(f, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST) for f in HANKEL),
    Row(sc.jve, (ORDER, X), float32=False, second_order=False, reason=NUMERIC),
    Row(sc.yve, (ORDER, X), float32=False, second_order=False, reason=NUMERIC),
    Row(sc.jve, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST),
    Row(sc.yve, (INTEGER, X), integer=(0,), complex=True, shapes=FIRST),
    *(
        Row(f, (ORDER, X), float32=False, second_order=False, reason=NUMERIC, shapes=FIRST)
        for f in DERIVATIVES
    ),
    *(
        Row(f, (INTEGER, X), integer=(0,), complex=True, kwargs={"n": n}, shapes=FIRST)
        for f in DERIVATIVES
        for n in (0, 2)
    ),
    Row(sc.airy, ((-2.5, 2.5),), complex=True),
    # eBi = Bi exp(-|Re 2/3 z^(3/2)|) is not holomorphic: complex input is not supported.
    Row(sc.airye, ((0.2, 3.0),)),
    Row(sc.struve, (ORDER, X), second_order=False, reason=STRUVE),
    Row(sc.modstruve, (ORDER, X), second_order=False, reason=STRUVE),
    Row(sc.struve, (INTEGER, X), integer=(0,), shapes=FIRST),
    Row(sc.modstruve, (INTEGER, X), integer=(0,), shapes=FIRST),
]
CASES = cases(ROWS)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_bessel_more(case):
    check_rrule(case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_bessel_more(case):
    check_frule(case)


@pytest.mark.parametrize("f", [sc.airy, sc.airye], ids=repr)
def test_scalar_airy(f):
    # The harness's holomorphy probe takes one output; complex airy is tested by its row.
    test_scalar(f, 0.7, complex_point=False)


# ---- hard points and exact values -----------------------------------------------------------


def test_spherical_derivative_at_zero():
    # j_1(z) ~ z/3 near 0; j_0'' (0) = -1/3, from the recurrence without division by z.
    assert cr.rrule(sc.spherical_jn, 1, 0.0)[1](1.0)[2] == pytest.approx(1 / 3)
    dz = cr.rrule(sc.spherical_jn, 0, 0.0, derivative=True)[1](1.0)[2]
    assert dz == pytest.approx(-1 / 3)
    assert cr.rrule(sc.spherical_in, 0, 0.0, True)[1](1.0)[1:] == (NoTangent(), 1 / 3, NoTangent())


def test_airy_values():
    (_, aip, _, bip), pullback = cr.rrule(sc.airy, 0.0)
    assert pullback((1.0, 0.0, 0.0, 0.0))[1] == aip
    assert pullback((0.0, 1.0, 0.0, 0.0))[1] == 0.0  # Ai''(0) = 0 Ai(0)
    assert pullback((0.0, 0.0, 1.0, 0.0))[1] == bip
    assert pullback((0.0, 0.0, 0.0, 1.0))[1] == 0.0
    _, pullback = cr.rrule(sc.airy, 2.0)
    assert pullback((0.0, 1.0, 0.0, 0.0))[1] == pytest.approx(2 * sc.airy(2.0)[0])


def test_bessel_derivative_orders():
    # The derivative in z of jvp(v, z, n) is jvp(v, z, n + 1), by position or keyword.
    assert cr.rrule(sc.jvp, 1, 1.5, 2)[1](1.0)[2] == pytest.approx(sc.jvp(1, 1.5, 3))
    assert cr.rrule(sc.kvp, 1, 1.5, n=3)[1](1.0)[2] == pytest.approx(sc.kvp(1, 1.5, 4))
    assert cr.rrule(sc.jvp, 1, 1.5, 0)[0] == sc.jv(1, 1.5)
    assert cr.rrule(sc.jvp, 1, 1.5, 2)[1](1.0)[3] is NoTangent()


def test_struve_at_zero():
    # H_0'(0) = 2/pi and L_0'(0) = 2/pi: the term (x/2)^v / (sqrt(pi) gamma(v + 3/2)) alone.
    assert cr.rrule(sc.struve, 0, 0.0)[1](1.0)[2] == pytest.approx(2 / np.pi)
    assert cr.rrule(sc.modstruve, 0, 0.0)[1](1.0)[2] == pytest.approx(2 / np.pi)


# d/dv at (v, x) = (1.3, 2.1), from central differences of SciPy's functions checked to 1e-8.
def test_order_derivatives_match_bessel():
    v, x = 1.3, 2.1
    djv = unthunk(cr.rrule(sc.jv, v, x)[1](1.0)[1])
    dyv = unthunk(cr.rrule(sc.yv, v, x)[1](1.0)[1])
    _, pullback = cr.rrule(sc.hankel1, v, x)
    # A real order receives Re(conj(dH/dv) dy): dy = 1 and dy = 1j give both parts.
    assert unthunk(pullback(1.0)[1]) == pytest.approx(djv, rel=1e-10)
    assert unthunk(pullback(1.0j)[1]) == pytest.approx(dyv, rel=1e-10)
    assert unthunk(cr.rrule(sc.jve, v, x)[1](1.0)[1]) == pytest.approx(djv, rel=1e-10)
    h = 1e-5
    fd = (sc.jvp(v + h, x, 2) - sc.jvp(v - h, x, 2)) / (2 * h)
    assert unthunk(cr.rrule(sc.jvp, v, x, 2)[1](1.0)[1]) == pytest.approx(fd, rel=1e-7)


def test_not_implemented_orders():
    z = np.array([1.0 + 0.5j])
    for f in (sc.hankel1, sc.jve, sc.jvp):
        dv = unthunk(cr.rrule(f, 1.5, z)[1](np.ones(1))[1])
        assert isinstance(dv, NotImplementedTangent)
        assert "order" in dv.info
    dv = cr.rrule(sc.struve, 1.5, 2.0)[1](1.0)[1]
    assert isinstance(dv, NotImplementedTangent)
    _, tangent = cr.frule((NoTangent(), 1.0, 0.0), sc.modstruve, 1.5, 2.0)
    assert isinstance(tangent, NotImplementedTangent)


def test_jve_nonholomorphic_cotangent():
    # jve = jv exp(-|Im z|): check the real Jacobian on both sides of the real axis.
    test_rrule(sc.jve, 1, np.array([0.7 + 0.4j, 1.2 - 0.3j]))
    test_rrule(sc.yve, 0, np.array([0.7 + 0.4j, 1.2 - 0.3j]))


def test_zero_cotangent():
    assert cr.rrule(sc.jve, 1.0, 0.5)[1](ZeroTangent())[2] is ZeroTangent()
    assert cr.rrule(sc.hankel1, 1, 0.5)[1](ZeroTangent())[2] is ZeroTangent()
