"""Tests of the rules for exponential integrals, sici, spence, zeta, elliptic integrals and the
modified Fresnel integrals."""

import math

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, test_scalar
from samples import (
    Row,
    cases,
    midpoint,
    output_derivative,
    table_tests,
)

import chainrules as cr
from chainrules import NoTangent, ZeroTangent
from chainrules.engines import reverse

ROWS = [
    Row(sc.expi, ((0.3, 3.0),), complex=True),
    Row(sc.exp1, ((0.3, 3.0),), complex=True),
    Row(sc.spence, ((0.2, 3.0),), complex=True),
    Row(sc.zetac, ((1.5, 6.0),)),
    Row(sc.ellipk, ((-0.8, 0.9),)),
    Row(sc.ellipe, ((-0.8, 0.9),)),
    Row(sc.expn, ((0, 4), (0.3, 3.0)), integer=(0,)),
    Row(sc.zeta, ((2.0, 4.0), (0.5, 3.0)), float32=False),
    # second derivatives in q, with an integer exponent
    Row(sc.zeta, ((2, 4), (0.5, 3.0)), integer=(0,), float32=False, shapes=(((3,), (3,)),)),
]
CASES = cases(ROWS)

test_rrule_integrals, test_frule_integrals = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_integrals(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- the modified Fresnel integrals ---------------------------------------------------------

FRESNEL_ROWS = [
    # SciPy's modified Fresnel integrals follow their definition for x >= 0 only.
    Row(sc.modfresnelp, ((0.2, 2.5),)),
    Row(sc.modfresnelm, ((0.2, 2.5),)),
]
FRESNEL_CASES = cases(FRESNEL_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(FRESNEL_CASES)


@pytest.mark.parametrize("f", [sc.modfresnelp, sc.modfresnelm], ids=repr)
def test_scalar_special_more_outputs(f):
    test_scalar(f, 1.3, complex_point=False)


@pytest.mark.parametrize("x", [np.array([0.4, 1.0, 2.5]), np.array([0.4 + 0.3j, 2.0 - 1.0j])])
def test_two_outputs(x):
    for f in (sc.sici, sc.shichi, sc.fresnel):
        test_rrule(f, x)
        test_frule(f, x)


# zeta'(x) and d/dx zeta(x, q) from mpmath's numerical differentiation at 30 digits.
ZETA_POINTS = [
    (2.0, None, -0.93754825431584375370),
    (0.0, None, -0.91893853320467274178),
    (-2.0, None, -0.030448457058393270780),
    (-7.3, None, 0.0023055775627049534),
    (0.3, None, -1.9618608600898818),
    (3.7, None, -0.09220632335339039),
    (0.5 + 14.134725141734695j, None, 0.78329651186703112 + 0.12469982974817057j),
    (2.0, 0.5, 1.7480808796238798),
    (4.0, 1.7, -0.097013159865239622),
]


@pytest.mark.parametrize("x, q, expected", ZETA_POINTS)
def test_zeta_derivative_in_x_reference_values(x, q, expected):
    args = (x,) if q is None else (x, q)
    dx = cr.unthunk(cr.rrule(sc.zeta, *args)[1](1.0)[1])
    assert dx == pytest.approx(np.conj(expected), rel=1e-12)


# Where gamma(1 - s) overflows and the powers underflow (s < -150), at and beyond the floats;
# complex s left of -1, reflected with Riemann's own zeta. From mpmath at 30 digits.
ZETA_REFLECTED = [
    (-149.5, 7.8992046424000439645e141),
    (-150.5, -5.6104706057312731416e143),
    (-160.0, 4.6094308880084674319e156),  # a trivial zero
    (-200.5, 1.1684045804255806523e216),
    (-300.5, math.inf),  # 9.1157e375
    (-3.5 + 1j, 0.01859166854098650663 + 0.0013030465511059261237j),
    (-1.5 - 0.5j, -0.057239905280236154032 + 0.057284162765972634691j),
    (-30.5 + 2j, 5039400429.8014711032 - 412345677.79684777585j),
]


@pytest.mark.parametrize("s, expected", ZETA_REFLECTED)
def test_zeta_derivative_where_reflected(s, expected):
    dx = cr.unthunk(cotangent(sc.zeta, s))
    # a few hundred roundings in gamma, the powers and the Euler-Maclaurin sum
    assert dx == pytest.approx(np.conj(expected), rel=1e-12, abs=0)


def test_zeta_derivative_far_out_in_s():
    # Summing |s| + 12 terms directly never ended for s = 1e8; there the terms beyond the
    # first few are below rounding.
    for s in (1e5, 1e8, 1e16, 1e300, math.inf):
        assert cr.unthunk(cotangent(sc.zeta, s)) == 0.0  # -log(2) 2**-s and less
    assert cr.unthunk(cotangent(sc.zeta, 1e8, 0.5)) == math.inf  # -log(q) q**-s, q < 1
    assert cr.unthunk(cotangent(sc.zeta, 1e300, 1e300)) == 0.0  # every term below the floats
    # one term within the floats: -log(q) q**-s, the next 2**-20000
    q = 1 - 1e-5
    assert cr.unthunk(cotangent(sc.zeta, 20000.0, q)) == pytest.approx(
        1.2214100866256226376e-05, rel=1e-12, abs=0
    )
    # near and far in one array; NaN where SciPy's Hurwitz zeta is (s < 1)
    s = np.array([2.0, 1e8, np.nan, -1e8])
    ds = cr.unthunk(cr.rrule(sc.zeta, s, 2.0)[1](np.ones(4))[1])
    np.testing.assert_allclose(ds[:2], [cr.unthunk(cotangent(sc.zeta, 2.0, 2.0)), 0.0])
    assert np.isnan(ds[2:]).all()
    with pytest.raises(ValueError, match=r"zeta's derivative in s .* s = \(0\.5\+100000j\)"):
        cr.unthunk(cotangent(sc.zeta, 0.5 + 1e5j))


@pytest.mark.filterwarnings("error")
def test_zeta_derivatives_at_infinite_arguments():
    # zeta(s, q) ~ q**(1 - s) / (s - 1) -> 0 as q -> inf (s > 1), and its derivatives with it,
    # where each term of the sums is inf * 0; d/dq = -s zeta(s + 1, q) = -s q**(-s - 1) -> 0
    # as s -> inf (q > 1); at q = 1, zeta(s + 1, 1) -> 1 and d/dq -> -inf
    s = np.array([2.5, 30.0, 1e300, np.inf, np.inf, 3.0])
    q = np.array([np.inf, np.inf, np.inf, 1e300, 1.0, 2.0])
    y, pullback = cr.rrule(sc.zeta, s, q)
    ds, dq = (cr.unthunk(c) for c in pullback(np.ones(6))[1:])
    assert y[:5].tolist() == [0.0, 0.0, 0.0, 0.0, 1.0]
    assert ds[:5].tolist() == [0.0] * 5
    assert dq[:5].tolist() == [0.0, 0.0, 0.0, 0.0, -np.inf]
    # and beside them, unchanged: zeta'(3, 2) and -3 zeta(4, 2) = -3 (pi**4 / 90 - 1) (mpmath)
    assert ds[5] == pytest.approx(-0.19812624288562635, rel=1e-13)
    assert dq[5] == pytest.approx(-3 * (np.pi**4 / 90 - 1), rel=1e-13)


def test_zeta_second_derivative_through_the_engine():
    # zeta''(2) = sum log(n)**2 / n**2
    second = reverse.grad(reverse.grad(sc.zeta))(2.0)
    assert second == pytest.approx(1.98928023429890, rel=1e-12)


def test_riemann_zeta_rules():
    test_rrule(sc.zeta, np.array([-3.5, 0.4, 2.5]))
    test_frule(sc.zeta, np.array([-3.5, 0.4, 2.5]))
    test_rrule(sc.zeta, np.array([0.3 + 2.0j, 2.5 - 1.0j]))
    # with a zero tangent in x, only the derivative in q is computed
    _, tangent = cr.frule((NoTangent(), 0.0, 1.0), sc.zeta, 3.0, 2.0)
    assert tangent == pytest.approx(-3 * sc.zeta(4.0, 2.0), rel=1e-15)


def test_zeta_keyword_q():
    test_rrule(sc.zeta, np.array([2.5, 3.0]), fkwargs={"q": 1.5})
    test_frule(sc.zeta, np.array([2.5, 3.0]), fkwargs={"q": 1.5})


# ---- hard points ----------------------------------------------------------------------------


def cotangent(f, *args, dy=1.0):
    return cr.rrule(f, *args)[1](dy)[1]


def test_removable_points():
    assert cotangent(sc.spence, 1.0) == -1.0
    assert cotangent(sc.ellipk, 0.0) == pytest.approx(math.pi / 8, rel=1e-15)
    assert cotangent(sc.ellipe, 0.0) == pytest.approx(-math.pi / 8, rel=1e-15)
    with np.errstate(divide="ignore"):
        dx = cotangent(sc.sici, 0.0, dy=(1.0, ZeroTangent()))
    assert dx == 1.0


def test_elliptic_derivatives_where_2m_overflows():
    # E'(m) = (E - K) / (2 m) ~ sqrt(-m) / (2 m) for m -> -inf (mpmath: -3.8348e-155 at
    # -1.7e308); 2 m itself overflows below -9e307. K' is below the floats there.
    m = -1.7e308
    assert cotangent(sc.ellipe, m) == pytest.approx(-3.83482494423685e-155, rel=1e-13, abs=0)
    assert cotangent(sc.ellipe, -1e300) == pytest.approx(-5.0e-151, rel=1e-13, abs=0)
    assert cotangent(sc.ellipk, m) == 0.0


def test_elliptic_series_meets_closed_form():
    m = np.array([-0.1 - 1e-12, -0.1 + 1e-12, 0.1 - 1e-12, 0.1 + 1e-12])
    for f in (sc.ellipk, sc.ellipe):
        dm = cotangent(f, m, dy=np.ones(4))
        # 2e-12 apart in m: the derivatives agree to the curvature times that
        np.testing.assert_allclose(dm[0], dm[1], rtol=1e-11)
        np.testing.assert_allclose(dm[2], dm[3], rtol=1e-11)


def test_expn_order_zero_and_integer_order():
    x = 1.3
    assert cr.rrule(sc.expn, 0, x)[1](1.0)[2] == pytest.approx(
        -math.exp(-x) * (x + 1) / x**2, rel=1e-14
    )
    assert cr.rrule(sc.expn, 2, x)[1](1.0)[2] == pytest.approx(-sc.expn(1, x), rel=1e-14)
    assert cr.rrule(sc.expn, 2, x)[1](1.0)[1] is NoTangent()


def test_modified_fresnel_values():
    # fp'(0) = -1; kp'(0) = -exp(-i pi/4)/sqrt(pi): a real argument gets the real part.
    assert output_derivative(sc.modfresnelp, 0.0, 0, 2) == -1.0
    kp = -np.exp(-0.25j * np.pi) / np.sqrt(np.pi)
    assert output_derivative(sc.modfresnelp, 0.0, 1, 2) == pytest.approx(kp.real)
    assert isinstance(output_derivative(sc.modfresnelm, 0.5, 1, 2), float)


def test_spence_second_derivative_at_one():
    # log(z) / (1 - z) = -1 + (z - 1)/2 - ..., so spence''(1) = 1/2 (its quotient form gave 0)
    assert reverse.grad(reverse.grad(sc.spence))(1.0) == pytest.approx(0.5, rel=1e-15)
    assert reverse.grad(reverse.grad(sc.spence))(1.0 + 1e-9) == pytest.approx(0.5, rel=1e-8)


@pytest.mark.filterwarnings("ignore:floating point number truncated")
@pytest.mark.parametrize(("n", "whole"), [(0.5, 0), (1.7, 1), (3.2, 3)])
def test_expn_truncates_a_float_order_as_scipy_does(n, whole):
    # SciPy's expn(0.5, x) is E_0(x): its derivative is E_0's, not -E_{-0.5 -> 0}(x)
    def dx(order):
        return cr.unthunk(cr.rrule(sc.expn, order, 1.3)[1](1.0)[2])

    assert dx(n) == dx(whole)
