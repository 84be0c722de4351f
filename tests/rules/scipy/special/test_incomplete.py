"""Tests of the rules for the incomplete gamma and beta functions, in every argument."""

import math

import numpy as np
import pytest
import scipy
import scipy.special as sc
from samples import Row, cases, count_calls, table_tests

import chainrules as cr
from chainrules import NoTangent, ZeroTangent, unthunk
from chainrules.engines import call, forward, hessian, reverse
from chainrules.rules.scipy.special import incomplete
from chainrules.rules.scipy.special.incomplete import (
    betainc_da_db,
    betainc_shape_hessian,
    gammainc_da,
    gammainc_da2,
)

# SciPy's (major, minor) version: its betaincinv at huge shapes changed in 1.17
_SCIPY = tuple(int(part) for part in scipy.__version__.split(".")[:2])

SHAPE = (0.3, 4.0)
UNIT = (0.05, 0.95)

# Shape derivatives come from quadrature; the pullback run on an engine's values records a call
# of betainc_da_db / gammainc_da, whose rules give the second derivatives (quadrature again).
ROWS = [
    Row(sc.gammainc, (SHAPE, (0.1, 6.0))),
    Row(sc.gammaincc, (SHAPE, (0.1, 6.0))),
    Row(sc.betainc, (SHAPE, SHAPE, UNIT)),
    Row(sc.betaincc, (SHAPE, SHAPE, UNIT)),
    Row(sc.gammaincinv, (SHAPE, UNIT)),
    Row(sc.gammainccinv, (SHAPE, UNIT)),
    Row(sc.betaincinv, (SHAPE, SHAPE, UNIT)),
    Row(sc.betainccinv, (SHAPE, SHAPE, UNIT)),
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
    # an upper tail far out: quadrature on the scale of x would see nothing to integrate
    assert gammainc_da(0.5, 1e300) == 0.0
    assert gammainc_da2(3.0, 1e300) == 0.0
    assert gammainc_da(50.0, 2000.0) == 0.0


def test_shape_cotangents_are_thunked():
    _, pullback = cr.rrule(sc.betainc, 2.0, 3.0, np.array([0.2, 0.7]))
    da, db, dx = pullback(np.ones(2))[1:]
    assert isinstance(da, cr.Thunk) and isinstance(db, cr.Thunk)
    assert dx.shape == (2,)
    assert cr.rrule(sc.gammainc, 2.0, 1.0)[1](ZeroTangent())[1] is ZeroTangent()


def test_integer_shape_has_no_tangent():
    assert cr.rrule(sc.gammainc, 2, 1.0)[1](1.0)[1] is NoTangent()


# ---- second derivatives in the shape parameters ------------------------------------------------

# (a, b, x, d2I/da2, d2I/dadb, d2I/db2) from mpmath.diff of mpmath.betainc at 60 digits: tiny
# and large shapes, x near 0 and 1, both tails.
BETA_SECOND = [
    (2.0, 3.0, 0.4, 0.05839660125154109, 0.008923407670034283, -0.035729359277374896),
    (0.1, 0.1, 0.01, 36.63318797673249, -7.149922656348577, -15.634250720987119),
    (0.1, 50.0, 1e-06, 34.56376346571226, 0.0003953069048305795, -1.4298044132523473e-05),
    (1.0, 50.0, 1e-06, 0.00528993467807115, -9.325776919019322e-06, -9.999510011758982e-13),
    (50.0, 1.0, 0.999999, 9.999510012334054e-13, 9.325776919258724e-06, -0.005289934678193598),
    (2.5, 50.0, 0.01, 0.11528334172723964, -0.0022601539895689467, 3.225908915667355e-05),
    (50.0, 50.0, 0.4, 0.0013548036147770658, -0.0010593516953512478, 0.000817834676239136),
    (0.1, 2.5, 0.99, -1.0808861487274765e-05, 2.4978643909587638e-05, -1.1242987832952895e-05),
]


# A first shape up to 1 (far below it here), where E[log t | t < x] is about log x - 1/a and
# cancelled digamma(a) to the quadrature's 1e-12 of 1/a (65534 for -3.64 at a = 5e-21; 7% off
# at a = 1e-10): the lower tail's series takes them. (a, b, x, then the derivatives in a, b, a
# twice, a and b, b twice), mpmath at 80 digits, mpmath.diff with steps 1e-30 (first) and
# 1e-20 (second) of the shape.
SMALL_SHAPE = [
    (
        5e-21,
        0.5,
        0.1,
        -3.6368929184641336,
        2.414728963018987e-20,
        16.41220756144008,
        4.8294579260379743,
        -8.4116237542294109e-20,
    ),
    (
        1e-10,
        0.5,
        0.3,
        -2.41987024179214,
        4.5787560650389336e-10,
        8.7975187866079097,
        4.5787560631281556,
        -1.6765356294527767e-9,
    ),
    (
        1e-8,
        999.0,
        1e-5,
        -4.0394106382979029,
        9.9155183945490771e-12,
        14.692742544170853,
        0.00099155179949580115,
        -1.0029567927611105e-14,
    ),
    (
        0.3,
        2.5,
        0.2,
        -0.63389837594648151,
        0.075649954693430964,
        0.13093805391702579,
        0.19118545141555754,
        -0.040457928339025639,
    ),
]


@pytest.mark.parametrize("a, b, x, da, db, daa, dab, dbb", SMALL_SHAPE)
def test_betainc_shape_derivatives_at_a_small_first_shape(a, b, x, da, db, daa, dab, dbb):
    # the series, measured within 3e-13 (first) and 1.3e-10 (second derivatives) of mpmath on
    # a grid of a from 1e-20 to 0.999, b from 1e-3 to 999 and x up to the lower tail's end
    assert betainc_da_db(a, b, x) == pytest.approx((da, db), rel=1e-12, abs=0)
    assert betainc_shape_hessian(a, b, x) == pytest.approx((daa, dab, dbb), rel=1e-9, abs=0)


@pytest.mark.parametrize(
    "a, b, x, da, db",
    [
        (1e-20, 1e8, 1e-300, -671.7776314943598, 1.000000005e-28),
        (1.0, 1e8, 1e-300, -6.7277763148435982e-290, 1.0e-300),
    ],
)
def test_betainc_shape_derivatives_at_a_small_shape_beside_a_large_one(a, b, x, da, db):
    # the large shapes' expansions gave -32768 and 1e-300 at the first, and divided by zero at
    # the second; the small shape's series takes both (mpmath at 80 digits)
    assert betainc_da_db(a, b, x) == pytest.approx((da, db), rel=1e-13, abs=0)


# gammainc's lower tail (x < a) at a <= 1, likewise: its series (-32768 for -68.5 at the first,
# 1.8e-7 off at the second; second derivatives -32768 for 730 there). (a, x, dP/da, d2P/da2)
GAMMA_SMALL_SHAPE = [
    (1e-20, 1e-30, -68.500337124919838, 4690.6512521608227),
    (1e-10, 1e-12, -27.05380537800167, 730.26345334872715),
    (1e-5, 1e-6, -13.236559930212416, 173.58502441065206),
    (0.5, 0.25, -0.79794731678322294, 0.80966154619286058),
]


@pytest.mark.parametrize("a, x, da, daa", GAMMA_SMALL_SHAPE)
def test_gammainc_shape_derivatives_at_a_small_shape(a, x, da, daa):
    # measured within 4e-15 of mpmath on a grid of a from 1e-20 to 0.999 and x from 1e-10 a to a
    assert gammainc_da(a, x) == pytest.approx(da, rel=1e-13, abs=0)
    assert gammainc_da2(a, x) == pytest.approx(daa, rel=1e-13, abs=0)


# (a, x, d2P/da2, d2P/dadx), likewise.
GAMMA_SECOND = [
    (0.1, 1e-06, 46.973129855489525, -89553.68161650638),
    (0.1, 2.0, -0.16410675697637492, 0.08474754925611316),
    (1.0, 1.0, 0.033618035299959194, 0.21234577623937842),
    (3.0, 2.5, 0.04867245966282408, -0.0016657106616618793),
    (50.0, 50.0, 1.889851704371531e-06, 0.0005651274883770383),
    (50.0, 100.0, -5.9054516271737126e-09, 4.300448667385961e-09),
    (10.0, 0.001, 2.3579599910676457e-35, -2.521591969358615e-32),
]
# Quadrature at relative tolerance 1e-12; the second derivative is the tail times
# (slope**2 + curvature of its logarithm), which cancel to 2e-8 of either at (1, 50, 1e-6) in b
# (a tail whose derivative is nearly the whole function's): 9e-10 measured there, 3e-11
# elsewhere on this table and a 4 x 4 x 6 grid of a, b in {0.1, 1, 2.5, 50}.
SECOND_RTOL = 3e-9


@pytest.mark.parametrize("a, b, x, daa, dab, dbb", BETA_SECOND)
def test_betainc_second_shape_derivatives_reference_values(a, b, x, daa, dab, dbb):
    got = betainc_shape_hessian(a, b, x)
    assert got == pytest.approx((daa, dab, dbb), rel=SECOND_RTOL, abs=0)


@pytest.mark.parametrize("a, x, daa, dax", GAMMA_SECOND)
def test_gammainc_second_shape_derivatives_reference_values(a, x, daa, dax):
    assert gammainc_da2(a, x) == pytest.approx(daa, rel=SECOND_RTOL, abs=0)
    # d/dx of dP/da is the density's derivative in a, in closed form
    assert reverse.grad(lambda x: call(gammainc_da, a, x))(x) == pytest.approx(dax, rel=1e-13)
    second = reverse.grad(reverse.grad(lambda a: call(sc.gammaincc, a, x)))(a)
    assert second == pytest.approx(-daa, rel=SECOND_RTOL, abs=0)


def _second(f, i, j, point):
    """d2 f / d(arg i) d(arg j) at ``point`` by reverse over reverse through the rules."""

    def at(values, k, v):
        return tuple(v if m == k else p for m, p in enumerate(values))

    def inner(outer_value):
        p = at(point, j, outer_value)
        return reverse.grad(lambda v: call(f, *at(p, i, v)))(p[i])

    return reverse.grad(inner)(point[j])


def _forward_second(f, i, j, point):
    """The same by forward over forward."""

    def at(values, k, v):
        return tuple(v if m == k else p for m, p in enumerate(values))

    def inner(outer_value):
        p = at(point, j, outer_value)
        return forward.jvp(lambda v: call(f, *at(p, i, v)), (p[i],), (1.0,))[1]

    return forward.jvp(inner, (point[j],), (1.0,))[1]


# d2I/dadx and d2I/dbdx at (2, 3, 0.4), mpmath.diff at 60 digits
BETA_MIXED_X = (0.28864961532146016, 0.12529332213236805)


@pytest.mark.parametrize("second", [_second, _forward_second], ids=["reverse", "forward"])
def test_betainc_second_derivatives_through_the_engines(second):
    point = (2.0, 3.0, 0.4)
    daa, dab, dbb = BETA_SECOND[0][3:]
    expected = {(0, 0): daa, (0, 1): dab, (1, 0): dab, (1, 1): dbb}
    expected.update({(0, 2): BETA_MIXED_X[0], (2, 0): BETA_MIXED_X[0]})
    expected.update({(1, 2): BETA_MIXED_X[1], (2, 1): BETA_MIXED_X[1]})
    for (i, j), value in expected.items():
        assert second(sc.betainc, i, j, point) == pytest.approx(value, rel=SECOND_RTOL)
        assert second(sc.betaincc, i, j, point) == pytest.approx(-value, rel=SECOND_RTOL)
    full = hessian(lambda v: call(sc.betainc, v[0], v[1], v[2]))(np.array(point))
    assert full[0, 0] == pytest.approx(daa, rel=SECOND_RTOL)
    assert full[0, 2] == pytest.approx(BETA_MIXED_X[0], rel=SECOND_RTOL)
    # (b, x) and (x, b) are two routes: the quadrature's x-derivative and the density's b-one
    assert full[1, 2] == pytest.approx(full[2, 1], rel=1e-13)


# d2x/da2 of the inverses at a = 2 (b = 3), p = 0.3: mpmath.diff of mpmath.findroot
INVERSE_SECOND = [
    (sc.gammaincinv, (2.0, 0.3), 0.0662941781529797),
    (sc.gammainccinv, (2.0, 0.7), 0.0662941781529797),
    (sc.betaincinv, (2.0, 3.0, 0.3), -0.0448850321673616),
    (sc.betainccinv, (2.0, 3.0, 0.7), -0.0448850321673616),
]


@pytest.mark.parametrize(
    "f, point, expected", INVERSE_SECOND, ids=lambda v: getattr(v, "__name__", "")
)
def test_inverse_second_shape_derivatives(f, point, expected):
    assert _second(f, 0, 0, point) == pytest.approx(expected, rel=1e-9)


def test_third_shape_derivative_names_the_function():
    third = reverse.grad(reverse.grad(reverse.grad(lambda a: call(sc.betainc, a, 3.0, 0.4))))
    with pytest.raises(cr.ChainRulesError, match=r"betainc_da_db.*numerically on NumPy values"):
        third(2.0)
    third = reverse.grad(reverse.grad(reverse.grad(lambda a: call(sc.gammainc, a, 1.0))))
    with pytest.raises(cr.ChainRulesError, match=r"gammainc_da.*numerically on NumPy values"):
        third(2.0)


def test_third_derivative_in_x_only_is_closed_form():
    # d3I/dx3 never reaches a quadrature: for a = 2, b = 3 the density is 12 x (1 - x)**2
    third = reverse.grad(reverse.grad(reverse.grad(lambda x: call(sc.betainc, 2.0, 3.0, x))))
    assert third(0.4) == pytest.approx(12 * (6 * 0.4 - 4), rel=1e-13)


def test_first_order_computes_no_second_derivative(monkeypatch):
    calls = count_calls(monkeypatch, incomplete, "betainc_shape_hessian", "gammainc_da2")
    _, pullback = cr.rrule(sc.betainc, 2.0, 3.0, 0.4)
    da, db, _ = (unthunk(g) for g in pullback(1.0)[1:])
    assert (da, db) == betainc_da_db(2.0, 3.0, 0.4)
    assert unthunk(cr.rrule(sc.gammainc, 2.0, 1.0)[1](1.0)[1]) == gammainc_da(2.0, 1.0)
    assert calls == {"betainc_shape_hessian": 0, "gammainc_da2": 0}


def test_shape_derivative_rules_are_thunked():
    _, pullback = cr.rrule(betainc_da_db, 2.0, 3.0, np.array([0.2, 0.7]))
    da, db, dx = pullback((np.ones(2), ZeroTangent()))[1:]
    assert isinstance(da, cr.Thunk) and isinstance(db, cr.Thunk)
    daa, dab, _ = betainc_shape_hessian(2.0, 3.0, np.array([0.2, 0.7]))
    assert unthunk(da) == pytest.approx(np.sum(daa))
    assert unthunk(db) == pytest.approx(np.sum(dab))
    assert dx.shape == (2,)


# ---- large and infinite shapes, and the inverses at p = 0 --------------------------------------

# (a, x, dP/da): tails of width sqrt(a) beside x, beyond the quadrature's reach on the scale of
# x. References: mpmath.quad at 60 digits (340 at a = 1e300) of the density times
# (log t - digamma(a)), in t = a + sqrt(a) w over 160 pieces; 1e5 +- 10 straddles the switch.
LARGE_SHAPES = [
    (1e8, 1e8, -3.9894228073388458e-5),
    (1e300, 1e300, -3.9894228040143267e-151),
    (1e6, 1003000.0, -4.4651307589625063e-6),
    (100010.0, 100010.0 - 3 * 100010.0**0.5, -1.3683066661647242e-05),
    (99990.0, 99990.0, -0.00126163039551812),
]


@pytest.mark.parametrize("a, x, expected", LARGE_SHAPES)
def test_gammainc_shape_derivative_for_large_shapes(a, x, expected):
    # the quadrature's 1e-12, and SciPy's tail probability (1e-14 here)
    assert gammainc_da(a, x) == pytest.approx(expected, rel=1e-12, abs=0)
    assert gammainc_da(np.array([a, 2.0]), np.array([x, 1.0]))[0] == pytest.approx(
        expected, rel=1e-12, abs=0
    )
    _, pullback = cr.rrule(sc.gammaincc, a, x)
    assert unthunk(pullback(1.0)[1]) == pytest.approx(-expected, rel=1e-12, abs=0)


# (a, x, density): exp((a-1) log x - x - loggamma(a)) by mpmath at 400 digits
LARGE_DENSITIES = [
    (1e8, 1e8, 3.9894228006898078e-5),
    (1e300, 1e300, 3.9894228040143267e-151),
    (150.0, 300.0, 1.6669410068255196e-22),
    (99999.0, 100300.0, 0.00080031501649505156),
    (100001.0, 100300.0, 0.00080513216075077783),
    (1e6, 1003000.0, 4.4584490189059983e-6),
]


@pytest.mark.parametrize("a, x, expected", LARGE_DENSITIES)
def test_gamma_density_for_large_shapes(a, x, expected):
    # the log-density's own size times 1e-16 at worst: log(2 pi a) / 2 = 346 at a = 1e300,
    # -49 at (150, 300); 2e-15 at the others
    rtol = 1e-13
    assert incomplete.gamma_x_density(a, x) == pytest.approx(expected, rel=rtol, abs=0)
    _, pullback = cr.rrule(sc.gammainc, np.array([a, 2.0]), np.array([x, 1.0]))
    assert pullback(np.ones(2))[2][0] == pytest.approx(expected, rel=rtol, abs=0)


def test_gamma_inverses_for_large_shapes():
    # at the median of gamma(1e300), x = 1e300: dx/da = -(dP/da) / density, 1 to 1e-150, and
    # dx/dp = 1 / density, by mpmath as above; at q = 1e-8 for a = 1e8 likewise
    _, pullback = cr.rrule(sc.gammaincinv, 1e300, 0.5)
    da, dp = (unthunk(c) for c in pullback(1.0)[1:])
    assert da == pytest.approx(1.0, rel=1e-13, abs=0)
    assert dp == pytest.approx(2.5066282746310006e150, rel=1e-13, abs=0)
    _, pullback = cr.rrule(sc.gammainccinv, 1e8, 1e-8)
    da = unthunk(pullback(1.0)[1])
    assert da == pytest.approx(1.0002806000602999, rel=1e-12, abs=0)


def test_gamma_inverses_at_zero():
    # the inverse is 0 at p = 0 (q = 1) for every a, and so is its derivative in a
    for f, p in ((sc.gammaincinv, 0.0), (sc.gammainccinv, 1.0)):
        for a in (2.5, 30.0, 1e8, 1e300):
            assert unthunk(cr.rrule(f, a, p)[1](1.0)[1]) == 0.0
        _, pullback = cr.rrule(f, np.array([30.0, 2.0]), np.array([p, 0.5]))
        da = unthunk(pullback(np.ones(2))[1])
        assert da[0] == 0.0
        assert da[1] == pytest.approx(unthunk(cr.rrule(f, 2.0, 0.5)[1](1.0)[1]), rel=1e-15)


def test_gammainc_at_an_infinite_shape():
    # P(inf, x) = 0 and Q(inf, x) = 1 for every finite x
    for x in (1.0, 30.0, 1e300):
        assert cr.rrule(sc.gammainc, math.inf, x)[1](1.0)[2] == 0.0
        assert cr.rrule(sc.gammaincc, math.inf, x)[1](1.0)[2] == 0.0
    dx = cr.rrule(sc.gammainc, np.array([math.inf, 2.0]), np.array([1.0, 1.0]))[1](np.ones(2))[2]
    assert dx[0] == 0.0


def test_beta_functions_at_an_infinite_shape():
    # I_x(a, inf) = 1 and I_x(inf, b) = 0 on 0 < x < 1, for every a, b and x
    for f in (sc.betainc, sc.betaincc):
        for point in ((2.5, math.inf, 1e-300), (2.5, math.inf, 0.5), (math.inf, 30.0, 0.5)):
            assert [unthunk(c) for c in cr.rrule(f, *point)[1](1.0)[1:]] == [0.0, 0.0, 0.0]
    a, b, x = np.array([2.5, 2.0]), np.array([math.inf, 3.0]), np.array([0.5, 0.4])
    da, db, dx = (unthunk(c) for c in cr.rrule(sc.betainc, a, b, x)[1](np.ones(2))[1:])
    assert (da[0], db[0], dx[0]) == (0.0, 0.0, 0.0)
    assert dx[1] == pytest.approx(12 * 0.4 * 0.6**2, rel=1e-14)


def test_beta_inverses_at_the_ends():
    # the inverse is 0 at p = 0 and 1 at p = 1 for every a and b: no derivative in a or b
    for f in (sc.betaincinv, sc.betainccinv):
        for p in (0.0, 1.0):
            da, db = (unthunk(c) for c in cr.rrule(f, 2.5, 30.0, p)[1](1.0)[1:3])
            assert (da, db) == (0.0, 0.0)
        a, b, p = np.array([2.5, 2.0]), np.array([30.0, 3.0]), np.array([0.0, 0.3])
        da = unthunk(cr.rrule(f, a, b, p)[1](np.ones(2))[1])
        assert da[0] == 0.0
        assert da[1] == pytest.approx(unthunk(cr.rrule(f, 2.0, 3.0, 0.3)[1](1.0)[1]), rel=1e-15)


def test_beta_inverses_at_an_infinite_shape():
    # with b = inf (a = inf) the inverse is 0 (1) for every p
    for f in (sc.betaincinv, sc.betainccinv):
        for a, b in ((1.0, math.inf), (math.inf, 1.0), (2.5, math.inf)):
            for p in (1e-300, 0.5):
                assert unthunk(cr.rrule(f, a, b, p)[1](1.0)[3]) == 0.0
        a, b, p = np.array([1.0, 2.0]), np.array([math.inf, 3.0]), np.array([0.5, 0.3])
        dp = unthunk(cr.rrule(f, a, b, p)[1](np.ones(2))[3])
        assert dp[0] == 0.0
        assert dp[1] == pytest.approx(unthunk(cr.rrule(f, 2.0, 3.0, 0.3)[1](1.0)[3]), rel=1e-15)


# ---- large beta shapes -------------------------------------------------------------------------

# (a, b, x, dI/da, dI/db, density): mpmath.quad at 80 digits of the density, and of the density
# times log t - digamma(a) + digamma(a + b) and log(1 - t) - digamma(b) + digamma(a + b), over
# the tail beyond x from the mean in pieces of the density's local scale (Gauss-Legendre in
# the far tails, where tanh-sinh at 80 digits is off by 1e-11); at a = b = 1e300, x = 1/2 the
# normal limit, -1 / (2 sqrt(pi a)) and 2 sqrt(a / pi), whose next terms are 1e-300 of them.
# Beside the mean and in both tails at a = b = 1e4 to 1e300, one shape large and the other
# small, and 1e5 +- 10, where the small shapes' variables ended before.
LARGE_BETA = [
    (10000.0, 10000.0, 0.49, -5.2150466759684553e-05, 5.111772459437201e-05, 2.065845922535694),
    (10000.0, 10000.0, 0.5, -0.002821006688412662, 0.002821006688412662, 112.8365062444084),
    (10000.0, 10000.0, 0.52, -3.07314509179736e-10, 3.1986126759626307e-10, 1.2556495397166456e-05),
    (99990.0, 3.0, 0.99997, -6.721859140885429e-06, 0.23682373318466798, 22404.516647057775),
    (99990.0, 99990.0, 0.5, -0.0008921085232691539, 0.0008921085232691539, 356.8065354902859),
    (100010.0, 3.0, 0.99997, -6.720514816126825e-06, 0.23680009504577154, 22404.516311033054),
    (1e6, 1e6, 0.499, -5.171879685945366e-06, 5.161546253977599e-06, 20.66690010267759),
    (1e6, 1e6, 0.5, -0.00028209485054363567, 0.00028209485054363567, 1128.3790260481255),
    (1e6, 1e6, 0.503, -6.5194767754648e-20, 6.558711572650928e-20, 2.6156995749900233e-13),
    (1e6, 3e6, 0.2499, -0.0003105951408946826, 0.00010350409428844011, 1656.617533528538),
    (0.5, 1e8, 1e-09, -0.8229360960629509, 1.6143422614597438e-09, 161434225.8231059),
    (2.0, 1e8, 1e-08, -0.27619604541877424, 3.6787944301083954e-09, 36787944.668963395),
    (1e8, 0.5, 0.99999997, -4.865217176985084e-10, 0.04724032414522614, 1621739.0771195586),
    (1e8, 0.5, 0.999999995, -2.4197072512407015e-09, 0.6472003530360578, 48394145.31892805),
    (1e8, 2.0, 0.9999999, -4.539990975069127e-11, 0.000988327457234015, 45399.912271583016),
    (1e8, 2.0, 0.99999998, -5.4134113023974505e-09, 0.29400468592118395, 27067056.932240006),
    (1e8, 1e8, 0.4999, -5.167262679445363e-07, 5.166229330238367e-07, 206.66984501597108),
    (1e8, 1e8, 0.5, -2.8209479236157564e-05, 2.8209479236157564e-05, 11283.791656850386),
    (1e8, 1e8, 0.5005, -1.0488372593519555e-48, 1.0498866214663838e-48, 4.197450545946111e-40),
    (1e8, 3e8, 0.25, -3.454941500231664e-05, 1.1516471654642801e-05, 18426.354621836323),
    (1e8, 3e8, 0.2501, -8.066825138634471e-10, 2.6896587769568115e-10, 0.43020201579079087),
    (2.5, 1e12, 2e-12, -0.27455132194560367, 5.759036428074112e-13, 287951821404.20953),
    (1e12, 1e12, 0.499999, -5.166751506341895e-09, 5.166741172849216e-09, 20666.985358430444),
    (1e12, 1e12, 0.5, -2.8209479177393694e-07, 2.8209479177393694e-07, 1128379.1670953715),
    (1e12, 1e12, 0.500005, -1.0494088041814915e-50, 1.0494192983220043e-50, 4.197656205285436e-38),
    (1e12, 1e12, 0.50001, -5.40253924821812e-181, 5.402647300083609e-181, 2.161037310235902e-168),
    (1e300, 1e300, 0.5, -2.8209479177387814e-151, 2.8209479177387814e-151, 1.1283791670955127e150),
]


@pytest.mark.parametrize("a, b, x, da, db, density", LARGE_BETA)
def test_betainc_for_large_shapes(a, b, x, da, db, density):
    # The tail is the density at x times the quadrature's mass, so every value carries the
    # log-density's own rounding, its size times 1e-16: 386 at (1e12, 0.50001), 346 at 1e300
    # (log(2 pi a) / 2); the quadrature's relative tolerance, 1e-12, measured 1e-13 at worst.
    rtol = 2e-13
    got_da, got_db = betainc_da_db(a, b, x)
    assert got_da == pytest.approx(da, rel=rtol, abs=0)
    assert got_db == pytest.approx(db, rel=rtol, abs=0)
    assert incomplete.beta_x_density(a, b, x) == pytest.approx(density, rel=rtol, abs=0)
    # the same through the rule, beside an ordinary point
    arrays = (np.array([a, 2.0]), np.array([b, 3.0]), np.array([x, 0.4]))
    _, pullback = cr.rrule(sc.betainc, *arrays)
    got = [unthunk(c)[0] for c in pullback(np.ones(2))[1:]]
    assert got == pytest.approx([da, db, density], rel=rtol, abs=0)


def test_betaincc_for_large_shapes():
    # the complement's derivatives are the negatives, from the same tail (LARGE_BETA)
    _, pullback = cr.rrule(sc.betaincc, 1e12, 1e12, 0.499999)
    got = [unthunk(c) for c in pullback(1.0)[1:]]
    expected = [5.166751506341895e-09, -5.166741172849216e-09, -20666.985358430444]
    assert got == pytest.approx(expected, rel=2e-13, abs=0)


def test_betainc_mixed_derivatives_for_large_shapes():
    # d2I/dadx = density (log x - digamma(a) + digamma(a + b)), and likewise in b, by mpmath at
    # 60 digits; the digammas cancel to 1e-4 of their size here, which the offset from the
    # mean avoids (the density's and the slope's 1e-15 remain)
    _, pullback = cr.rrule(betainc_da_db, 1e8, 1e8, 0.4999)
    for cotangent, expected in (
        ((1.0, 0.0), -0.041337586276678417),
        ((0.0, 1.0), 0.04133035283194011),
    ):
        dx = unthunk(pullback(cotangent)[3])
        assert dx == pytest.approx(expected, rel=1e-14, abs=0)


# (f, a, b, y, dx/da, dx/db, dx/dy) at SciPy's inverse x: -(dI/da) / density and 1 / density
# (negated for the complement in y), from mpmath as LARGE_BETA at that x
LARGE_BETA_INVERSES = [
    (
        sc.betaincinv,
        1e12,
        1e12,
        0.3,
        2.5000004636967406e-13,
        -2.4999995363044674e-13,
        1.0169691587799414e-06,
    ),
    (
        sc.betainccinv,
        1e12,
        1e12,
        0.3,
        2.499999536304467e-13,
        -2.5000004636967405e-13,
        -1.0169691586961747e-06,
    ),
    (
        sc.betainccinv,
        1e8,
        3e8,
        0.2,
        1.8750227782582984e-09,
        -6.250379617379871e-10,
        -7.733671918324105e-05,
    ),
    (
        sc.betaincinv,
        1e8,
        3.0,
        0.3,
        3.615567466043554e-16,
        -1.1588660954921346e-08,
        5.687194416141439e-08,
    ),
    (
        sc.betaincinv,
        0.5,
        1e8,
        0.3,
        4.1662195737396036e-09,
        -7.423593123234263e-18,
        5.20142417377527e-09,
    ),
    # a = b: the median stays at 1/2, and moves by 1 / (4 a) with a alone (+ O(1/a**2))
    (sc.betaincinv, 1e300, 1e300, 0.5, 2.5e-301, -2.5e-301, 8.86226925452758e-151),
]


@pytest.mark.parametrize("f, a, b, y, da, db, dy", LARGE_BETA_INVERSES)
def test_beta_inverses_for_large_shapes(f, a, b, y, da, db, dy):
    # as test_betainc_for_large_shapes, through a quotient of two such values
    x, pullback = cr.rrule(f, a, b, y)
    got = [unthunk(c) for c in pullback(1.0)[1:]]
    if _SCIPY >= (1, 17):
        assert got == pytest.approx([da, db, dy], rel=4e-13, abs=0)
        return
    # SciPy before 1.17 solves for another x at these shapes (1.4e-10 away at a = b = 1e12,
    # NaN at 1e300), where the references do not hold: the derivatives at its x are those of
    # I(a, b, x) = y (or 1 - y) solved for x, from the pieces checked against mpmath above
    if np.isnan(x):
        assert np.isnan(got).all()
        return
    partial_a, partial_b = betainc_da_db(a, b, x)
    density = incomplete.beta_x_density(a, b, x)
    side = 1.0 if f is sc.betaincinv else -1.0
    expected = [-partial_a / density, -partial_b / density, side / density]
    assert got == pytest.approx(expected, rel=1e-14, abs=0)


@pytest.mark.parametrize(
    ("a", "b", "x", "expected"),
    [
        # b x of order 1 with b huge: I_x(a, b) -> gammainc(a, b x), whose a-derivative mpmath
        # gives; the correction is O(1/b). x below 1e-154, where x**2 underflows in the tail's
        # scale (the derivatives were 0, or a math domain error)
        (0.5, 5e299, 1e-300, -0.6472003523777539),
        (2.0, 1e299, 2e-299, -0.29400469074623087),
        (3.0, 1e160, 2e-160, -0.2318486720439896),
    ],
)
def test_betainc_shape_derivative_at_tiny_x_and_huge_b(a, b, x, expected):
    # rtol: the density's logarithm, of size 700, rounds to a few 1e-14 relative
    assert betainc_da_db(a, b, x)[0] == pytest.approx(expected, rel=1e-13, abs=0)


@pytest.mark.parametrize(
    ("a", "b", "x"),
    [
        # b x = 1.25e8 with b = 5e299 (fdtr(2.5, 1e300, 1e8)'s): x is far beyond the mean, I is
        # 1 to within exp(-1e8), and its derivatives underflow. The tail toward 0, which holds
        # the bulk, rose from x by more than the float range in the quadrature (OverflowError)
        (1.25, 5e299, 2.5e-292),
        (5e7, 5e299, 5e-292),
    ],
)
def test_betainc_at_tiny_x_far_beyond_a_huge_shapes_mean(a, b, x):
    assert betainc_da_db(a, b, x) == (0.0, 0.0)
    _, pullback = cr.rrule(sc.betainc, a, b, x)
    assert [unthunk(c) for c in pullback(1.0)[1:]] == [0.0, 0.0, 0.0]


@pytest.mark.parametrize(
    ("a", "b", "x", "da", "db"),
    [
        # b tiny: I_x(a, b) is about b times the integral of t**(a-1) / (1 - t) below x, whose
        # derivative in b is that integral. Below the smallest normal float the tail is 0 or a
        # few digits in SciPy, and the derivatives came out 0 (mpmath at 50 digits; at a = 2,
        # db = -log(1 - x) - x)
        (2.0, 1e-300, 0.5, -2.1611995010324128e-301, 0.19314718055994531),
        (30.0, 1e-300, 0.5, -4.367675974557e-311, 6.020029978572848e-11),
        (1e5, 1e-300, 0.99999, -3.678812805687895e-306, 0.21938393439106313),
    ],
)
def test_betainc_shape_derivatives_where_a_tiny_shape_underflows_the_tail(a, b, x, da, db):
    # rtol: the quadrature's 1e-12; the subnormal da to within a unit of its last place
    got_a, got_b = betainc_da_db(a, b, x)
    assert got_b == pytest.approx(db, rel=1e-12, abs=0)
    assert got_a == pytest.approx(da, rel=1e-12, abs=1e-323)
    # betaincc mirrored, as the tail integrated: (1e-300, 30, 0.5), where it is 6.0e-311
    _, pullback = cr.rrule(sc.betaincc, b, a, 1 - x)
    mirrored = [unthunk(c) for c in pullback(1.0)[1:3]]
    assert mirrored == pytest.approx([db, da], rel=1e-12, abs=1e-323)


@pytest.mark.parametrize(("a", "b"), [(1e-300, 1e300), (1e300, 1e-300)])
def test_betainc_shape_derivatives_of_a_tail_beyond_the_floats_at_a_tiny_shape(a, b):
    # the tail at x = 1/2 is below 0.5**1e300; the large shapes' variables overflowed (inf)
    assert betainc_da_db(a, b, 0.5) == (0.0, 0.0)
    assert betainc_shape_hessian(a, b, 0.5) == (0.0, 0.0, 0.0)


@pytest.mark.parametrize(
    ("a", "b", "x", "dab", "dbb"),
    [
        # the square of d log I/db, about 1/b, less trigamma(b): 1/b**2 cancelled (dbb came
        # out -2.9e133 at b = 1e-150, NaN at 1e-300). mpmath.diff at 60 digits and more
        (2.0, 1e-150, 0.5, -0.21611995010324128, 0.2126941666417439),
        (30.0, 1e-300, 0.5, -4.367675974556644e-11, 3.9719720208672747e-10),
        (0.5, 1e-12, 0.3, -3.754469988391948, -3.710325217888048),
    ],
)
def test_betainc_second_derivatives_in_a_tiny_shape(a, b, x, dab, dbb):
    # rtol: the quadrature's covariances, and mpmath's differences (1e-15 apart at 1e-300)
    assert betainc_shape_hessian(a, b, x)[1:] == pytest.approx((dab, dbb), rel=1e-11, abs=0)


@pytest.mark.parametrize(
    ("a", "x", "da", "daa"),
    [
        # Q(a, x) is about a E1(x), its derivative E1(x): at x = 30 the tail is 3e-315, which
        # SciPy gives as 0, and the derivatives came out 0; the second ones NaN (mpmath)
        (1e-300, 30.0, -3.0215520106888125e-15, -2.4231331005258892e-14),
        (1e-300, 1.0, -0.21938393439552027, -0.44895008155498933),
        (1e-8, 1.0, None, -0.4489500784464497),
    ],
)
def test_gammainc_shape_derivatives_at_a_tiny_shape(a, x, da, daa):
    if da is not None:
        assert gammainc_da(a, x) == pytest.approx(da, rel=1e-12, abs=0)
    # rtol: the quadrature's variance beside the cancelled 1/a**2
    assert gammainc_da2(a, x) == pytest.approx(daa, rel=1e-12, abs=0)
