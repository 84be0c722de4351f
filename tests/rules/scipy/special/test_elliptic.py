"""Tests of the rules for incomplete elliptic integrals, ellipj, Carlson's forms and agm."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule, test_scalar
from samples import Row, cases, midpoint, table_tests

import chainrules as cr
from chainrules import ZeroTangent

ROWS = [
    Row(sc.ellipkinc, ((-4.0, 4.0), (-0.8, 0.9))),
    Row(sc.ellipeinc, ((-4.0, 4.0), (-0.8, 0.9))),
    Row(sc.ellipkm1, ((0.05, 0.9),)),
    Row(sc.elliprf, ((0.1, 2.0), (0.1, 2.0), (0.1, 2.0)), complex=True),
    Row(sc.elliprc, ((0.1, 2.0), (0.1, 2.0)), complex=True),
    Row(sc.elliprd, ((0.1, 2.0), (0.1, 2.0), (0.1, 2.0)), complex=True),
    Row(sc.elliprg, ((0.1, 2.0), (0.1, 2.0), (0.1, 2.0)), complex=True),
    Row(sc.elliprj, ((0.1, 2.0), (0.1, 2.0), (0.1, 2.0), (0.1, 2.0)), complex=True),
    Row(sc.agm, ((0.2, 3.0), (0.2, 3.0))),
]
CASES = cases(ROWS)

test_rrule_elliptic, test_frule_elliptic = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_elliptic(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


@pytest.mark.parametrize("u", [np.array([-1.3, 0.4, 2.7, 6.1]), np.array(0.8)])
def test_ellipj(u):
    m = np.full(u.shape, 0.6) if u.ndim else np.array(0.3)
    test_rrule(sc.ellipj, u, m)
    test_frule(sc.ellipj, u, m)


# ---- hard points ----------------------------------------------------------------------------


def cotangents(f, *args, dy=1.0):
    return tuple(cr.unthunk(g) for g in cr.rrule(f, *args)[1](dy)[1:])


def test_legendre_forms_at_zero_parameter():
    phi = 0.5
    # F(phi|m) and E(phi|m) = phi +- m (phi - sin phi cos phi) / 4 + O(m**2)
    first = (phi - np.sin(phi) * np.cos(phi)) / 4
    assert cotangents(sc.ellipkinc, phi, 0.0) == pytest.approx((1.0, first), rel=1e-14)
    assert cotangents(sc.ellipeinc, phi, 0.0) == pytest.approx((1.0, -first), rel=1e-14)


def test_legendre_forms_beyond_a_half_period():
    # F(phi + pi|m) = F(phi|m) + 2 K(m): derivatives in m differ by 2 K'(m)
    phi, m = 0.4, 0.3
    dk = cotangents(sc.ellipk, m)[0]
    de = cotangents(sc.ellipe, m)[0]
    assert cotangents(sc.ellipkinc, phi + np.pi, m)[1] == pytest.approx(
        cotangents(sc.ellipkinc, phi, m)[1] + 2 * dk, rel=1e-13
    )
    assert cotangents(sc.ellipeinc, phi - 2 * np.pi, m)[1] == pytest.approx(
        cotangents(sc.ellipeinc, phi, m)[1] - 4 * de, rel=1e-13
    )


@pytest.mark.parametrize("m", [1.0, 1.2])
def test_legendre_forms_at_parameters_from_one(m):
    # within |phi| <= pi/2 no half period is added: K(m), infinite or NaN for m >= 1, is unused
    import mpmath

    phi = 1.0
    s, c = mpmath.sin(phi), mpmath.cos(phi)
    dk = float(s**3 * mpmath.elliprd(c * c, 1, 1 - m * s * s) / 6)
    de = float(-(s**3) * mpmath.elliprd(c * c, 1 - m * s * s, 1) / 6)
    assert cotangents(sc.ellipkinc, phi, m)[1] == pytest.approx(dk, rel=1e-14)
    assert cotangents(sc.ellipeinc, phi, m)[1] == pytest.approx(de, rel=1e-14)


COINCIDENT = {
    "rd-z-at-x": (lambda z: sc.elliprd(1.0, 2.0, z), ("rd", 1, 2, None), 1.0),
    "rd-x-at-z": (lambda x: sc.elliprd(x, 2.0, 1.0), ("rd", None, 2, 1), 1.0),
    "rd-x-all": (lambda x: sc.elliprd(x, 1.0, 1.0), ("rd", None, 1, 1), 1.0),
    "rd-z-all": (lambda z: sc.elliprd(1.0, 1.0, z), ("rd", 1, 1, None), 1.0),
    "rf-z-all": (lambda z: sc.elliprf(2.0, 2.0, z), ("rf", 2, 2, None), 2.0),
}


@pytest.mark.parametrize("case", COINCIDENT, ids=str)
def test_carlson_second_derivatives_at_coincident_arguments(case):
    # removable points of the partials' difference quotients: the limits must carry the
    # partials of the quotient there, not the derivative along the diagonal
    import mpmath

    from chainrules.engines import reverse

    f, (form, *args), x = COINCIDENT[case]
    mp_form = mpmath.elliprd if form == "rd" else mpmath.elliprf

    def mp_f(t):
        return mp_form(*(t if v is None else v for v in args))

    with mpmath.workdps(40):
        exact = float(mpmath.diff(mp_f, x, 2))
    assert float(reverse.grad(reverse.grad(f))(x)) == pytest.approx(exact, rel=1e-13)


def test_ellipj_at_zero_parameter():
    # m = 0: sn = sin u, cn = cos u, dn = 1, ph = u
    u = 0.7
    du, _ = cotangents(sc.ellipj, u, 0.0, dy=(1.0, ZeroTangent(), ZeroTangent(), ZeroTangent()))
    assert du == pytest.approx(np.cos(u), rel=1e-15)
    du, _ = cotangents(sc.ellipj, u, 0.0, dy=(ZeroTangent(), ZeroTangent(), ZeroTangent(), 1.0))
    assert du == 1.0


def test_carlson_identities():
    # R_F(x, x, x) = x**-1/2: each partial is -x**-3/2 / 6
    assert cotangents(sc.elliprf, 4.0, 4.0 + 1e-3, 4.0 - 1e-3)[0] == pytest.approx(
        -(4.0**-1.5) / 6, rel=1e-3
    )
    # R_C(0, y) = pi / (2 sqrt(y)), derivative in y: -pi / (4 y**1.5)
    assert cotangents(sc.elliprc, 0.0, 4.0)[1] == pytest.approx(-np.pi / 32, rel=1e-14)


def test_agm_of_equal_arguments():
    # agm(a, a) = a: the partials are 1/2 each
    assert cotangents(sc.agm, 2.0, 2.0) == pytest.approx((0.5, 0.5), rel=1e-14)


# R_C at y < 0 (Cauchy's principal value, where R_D is not defined). mpmath's elliprc(x, y,
# pv=True) at 50 digits, differentiated with a relative step 1e-20; rounding of the
# difference R_C - 1/sqrt(x) leaves about 1e-15 relatively.
ELLIPRC_NEGATIVE = [
    ((1.0, -0.5), (0.021372896632143297, 0.9786271033678567)),
    ((2.5, -0.5), (-0.043208878501111042, 0.67566441053478691)),
    ((1e-300, -0.5), (9.9999999999999999e149, 4.0000000000000001e-150)),
    ((30.0, -1e4), (9.0741553389999712e-6, 5.4553952752797383e-8)),
    ((1e8, -2.5), (-4.2226709318243643e-12, 2.0000004222670932e-5)),
    ((0.5, -1e300), (7.0710678118654749e-301, 0.0)),  # dR_C/dy = 7e-601 underflows
]


@pytest.mark.parametrize("args, expected", ELLIPRC_NEGATIVE, ids=repr)
def test_elliprc_at_negative_y(args, expected):
    assert cotangents(sc.elliprc, *args) == pytest.approx(expected, rel=1e-14, abs=0)


def test_elliprc_at_negative_y_as_an_array():
    x, y = np.array([1.0, 2.5, 1.0]), np.array([-0.5, -0.5, 0.5])
    dx, dy = cotangents(sc.elliprc, x, y, dy=np.ones(3))
    # the y > 0 element still takes -R_D / 6 and -R_D / 3
    assert dx[2] == -sc.elliprd(0.5, 0.5, 1.0) / 6 and dy[2] == -sc.elliprd(1.0, 0.5, 0.5) / 3
    assert dx[:2] == pytest.approx([0.021372896632143297, -0.043208878501111042], rel=1e-14)
    test_rrule(sc.elliprc, x, y)
    test_frule(sc.elliprc, x, y)


def test_elliprc_edges():
    with np.errstate(all="ignore"):
        # x = 0, y < 0: R_C = 0 and grows as sqrt(x): +inf in x, 0 in y
        assert cotangents(sc.elliprc, 0.0, -0.5) == (np.inf, 0.0)
        # y = -inf: R_C = 0 for every x > 0
        assert cotangents(sc.elliprc, 1.0, -np.inf) == (0.0, 0.0)
        # R_D overflows at tiny arguments: -x**-1.5 / 6 and -x**-1.5 / 3 are -inf, as is
        # -pi / (4 y**1.5) at x = 0
        assert cotangents(sc.elliprc, 1e-300, 1e-300) == (-np.inf, -np.inf)
        assert cotangents(sc.elliprc, 0.0, 1e-300)[1] == -np.inf
        # next to them R_D is finite: -(1e-200)**-1.5 / 6
        assert cotangents(sc.elliprc, 1e-200, 1e-200)[0] == pytest.approx(-1e300 / 6, rel=1e-14)


# agm at huge, tiny and far-apart arguments: mpmath's agm at 50 digits, differentiated with a
# relative step 1e-20. Far apart, the asymptotic form pi a / (2 log(4a/b)) leaves a relative
# (b/a)**2; the rest is rounding of R_D and of the logarithms.
AGM_EDGES = [
    ((1.0, 1e300), (3.27872199993651e294, 0.0022661274721578848)),
    ((1e300, 1e-8), (0.0022074646428640591, 3.1109344347148266e302)),
    ((1e-300, 1e300), (np.inf, 0.0011350192299466542)),  # 8.2e593 overflows
    ((1e-300, 1e-300), (0.5, 0.5)),
    ((1e300, 1e300), (0.5, 0.5)),
    ((1e-300, 2e-300), (0.60520923913814915, 0.42579089595437886)),  # as at (1, 2)
    ((-1.0, -2.0), (0.60520923913814915, 0.42579089595437886)),  # agm(-a, -b) = -agm(a, b)
]


@pytest.mark.parametrize("args, expected", AGM_EDGES, ids=repr)
def test_agm_at_edges(args, expected):
    assert cotangents(sc.agm, *args) == pytest.approx(expected, rel=1e-13, abs=0)


def test_agm_at_zero():
    # agm(a, 0) = 0 for every a: 0 in a; in b it grows as pi a / (2 b log(4a/b)**2): +inf;
    # at (0, 0) both partials are 0 (agm vanishes on both axes)
    with np.errstate(all="ignore"):
        assert cotangents(sc.agm, 2.0, 0.0) == (0.0, np.inf)
        assert cotangents(sc.agm, 0.0, 2.0) == (np.inf, 0.0)
        assert cotangents(sc.agm, -0.5, 0.0) == (0.0, np.inf)
        assert cotangents(sc.agm, 0.0, 0.0) == (0.0, 0.0)


def test_agm_at_edges_as_an_array():
    a, b = np.array([1.0, -1.0, 1e300, 2.0]), np.array([1e300, -2.0, 1e-8, 0.0])
    with np.errstate(all="ignore"):
        da, db = cotangents(sc.agm, a, b, dy=np.ones(4))
    assert da == pytest.approx(
        [3.27872199993651e294, 0.60520923913814915, 0.0022074646428640591, 0.0], rel=1e-13, abs=0
    )
    assert db[:3] == pytest.approx(
        [0.0022661274721578848, 0.42579089595437886, 3.1109344347148266e302], rel=1e-13, abs=0
    )
    assert db[3] == np.inf
    test_rrule(sc.agm, np.array([-1.0, -0.7]), np.array([-2.0, -0.4]))


def test_legendre_and_carlson_at_minus_infinity():
    # F(phi | -inf) = 0 for every phi, and R_C(x, -inf) = 0 for every x: their derivatives in
    # phi and x are 0 there, not inf * 0 or inf / inf
    assert cotangents(sc.ellipkinc, 1e-300, -np.inf)[0] == 0.0
    assert cotangents(sc.ellipkinc, 0.0, -np.inf)[0] == 0.0
    assert cotangents(sc.ellipkinc, 0.5, -1e300)[0] == pytest.approx(
        1 / np.sqrt(1e300) / np.sin(0.5), rel=1e-15
    )
    for x in (0.0, 2.0, 1e300):
        assert cotangents(sc.elliprc, x, -np.inf) == (0.0, 0.0)
    # beside them: R_C(2, -3) (mpmath, by its closed forms' derivatives)
    dx, dy = cotangents(sc.elliprc, 2.0, -3.0)
    assert dx == pytest.approx(0.03737098710751802, rel=1e-13)
    assert dy == pytest.approx(0.0804801430902399, rel=1e-13)
