"""Tests of the rules for the inverses of distribution functions (implicit derivatives)."""

import numpy as np
import pytest
import scipy.optimize
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, cases, cotangents, midpoint, table_tests

import chainrules as cr
from chainrules import NoTangent, Thunk
from chainrules.rules.scipy.special.noncentral import (
    chndtr_ddf,
    ncfdtr_ddfn_ddfd,
    nctdtr_ddf,
    nctdtr_dnc,
)

NUMERIC = "a derivative in a shape parameter by quadrature is not differentiable again"
SCIPY_DENSITY = "the derivative is SciPy's own density ufunc, which has no rule"
CDFLIB_F = (
    "SciPy searches its own noncentral F, which differs from ncfdtr by up to about 1e-5 and "
    "is not smooth at that level: finite differences of SciPy's inverse and the derivative "
    "of ncfdtr's inverse differ by up to ~1e-3 (~1e-2 for ncfdtrinc); "
    "test_noncentral_f_inverses_against_an_accurate_inverse checks them to 1e-4"
)
CDFLIB_T = "SciPy searches its own noncentral t, which differs from nctdtr by up to about 1e-8"
CDFLIB_T_NC = (
    f"{CDFLIB_T} and is not smooth at that level: over 3,000 points of these domains, finite "
    "differences of SciPy's nctdtrinc and the derivative of nctdtr's inverse differed by up "
    "to 1.4e-4 relative; test_noncentral_t_inverses_against_an_accurate_inverse checks them "
    "to 1e-6"
)
ROWS = [
    Row(sc.nrdtrimn, ((0.1, 0.9), (0.5, 2.0), (-1.0, 1.0))),
    Row(sc.nrdtrisd, ((-1.0, 0.0), (0.55, 0.9), (0.5, 2.0))),
    # gamma, chi-squared, Poisson
    Row(sc.gdtria, ((0.2, 0.8), (0.5, 5.0), (0.5, 5.0)), second_order=False, reason=NUMERIC),
    Row(sc.gdtrib, ((0.5, 3.0), (0.2, 0.8), (0.5, 5.0)), second_order=False, reason=NUMERIC),
    Row(sc.gdtrix, ((0.5, 3.0), (0.5, 5.0), (0.2, 0.8)), second_order=False, reason=NUMERIC),
    Row(sc.gdtria, ((0.2, 0.8), (1, 5), (0.5, 5.0)), integer=(1,)),
    Row(sc.gdtrix, ((0.5, 3.0), (1, 5), (0.2, 0.8)), integer=(1,)),
    Row(sc.chdtriv, ((0.2, 0.8), (0.5, 5.0)), second_order=False, reason=NUMERIC),
    Row(sc.pdtrik, ((0.3, 0.8), (1.5, 5.0)), second_order=False, reason=NUMERIC),
    # beta, binomial, negative binomial (counts continued to real values)
    Row(sc.btdtria, ((0.2, 0.8), (0.5, 5.0), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    Row(sc.btdtrib, ((0.5, 5.0), (0.2, 0.8), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    Row(sc.bdtrik, ((0.3, 0.7), (5.0, 9.0), (0.3, 0.7)), second_order=False, reason=NUMERIC),
    Row(sc.bdtrin, ((0.5, 4.0), (0.2, 0.8), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    Row(sc.nbdtrik, ((0.65, 0.9), (1.0, 6.0), (0.2, 0.6)), second_order=False, reason=NUMERIC),
    Row(sc.nbdtrin, ((0.5, 4.0), (0.2, 0.8), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    Row(
        sc.bdtrik,
        ((0.3, 0.7), (5, 9), (0.3, 0.7)),
        integer=(1,),
        second_order=False,
        reason=NUMERIC,
    ),
    Row(
        sc.nbdtrin,
        ((0, 4), (0.2, 0.8), (0.1, 0.9)),
        integer=(0,),
        second_order=False,
        reason=NUMERIC,
    ),
    # F and Student's t: degrees of freedom
    Row(sc.fdtridfd, ((1.0, 6.0), (0.2, 0.6), (1.5, 3.0)), second_order=False, reason=NUMERIC),
    Row(sc.stdtridf, ((0.6, 0.8), (1.2, 3.0)), second_order=False, reason=NUMERIC),
    # Kolmogorov-Smirnov
    # kolmogorov's density is written in NumPy operations: its inverse differentiates again.
    Row(sc.kolmogi, ((0.1, 0.9),)),
    Row(sc.smirnovi, ((1, 6), (0.1, 0.9)), integer=(0,), second_order=False, reason=SCIPY_DENSITY),
    # noncentral chi-squared
    Row(sc.chndtrix, ((0.2, 0.8), (1.0, 6.0), (0.2, 4.0)), second_order=False, reason=NUMERIC),
    Row(sc.chndtridf, ((1.0, 5.0), (0.1, 0.45), (0.2, 1.5)), second_order=False, reason=NUMERIC),
    Row(sc.chndtrinc, ((3.0, 6.0), (1.0, 3.0), (0.05, 0.4)), second_order=False, reason=NUMERIC),
    Row(sc.chndtrix, ((0.2, 0.8), (1, 6), (0.2, 4.0)), integer=(1,)),
    Row(sc.chndtrinc, ((3.0, 6.0), (1, 3), (0.05, 0.4)), integer=(1,)),
    # noncentral F
    Row(
        sc.ncfdtri,
        ((1.0, 6.0), (2.0, 8.0), (0.2, 3.0), (0.2, 0.8)),
        second_order=False,
        reason=NUMERIC,
    ),
    Row(sc.ncfdtri, ((1, 6), (2, 8), (0.2, 3.0), (0.2, 0.8)), integer=(0, 1)),
    *(
        Row(f, domain, rtol=rtol, atol=atol, second_order=False, reason=f"{CDFLIB_F}; {NUMERIC}")
        for f, domain, rtol, atol in [
            (sc.ncfdtridfd, ((2.0, 6.0), (0.1, 0.3), (0.2, 1.0), (1.5, 3.0)), 5e-3, 1e-5),
            (sc.ncfdtridfn, ((0.25, 0.35), (4.0, 8.0), (0.2, 1.0), (0.4, 0.6)), 5e-3, 1e-5),
            (sc.ncfdtrinc, ((2.0, 5.0), (4.0, 8.0), (0.15, 0.35), (1.0, 1.5)), 2e-2, 1e-4),
        ]
    ),
    Row(
        sc.ncfdtrinc,
        ((2, 5), (4, 8), (0.15, 0.35), (1.0, 1.5)),
        integer=(0, 1),
        rtol=2e-2,
        atol=1e-4,
        second_order=False,
        reason=CDFLIB_F,
    ),
    # noncentral t
    Row(
        sc.nctdtridf,
        ((0.45, 0.7), (0.2, 0.8), (1.5, 2.5)),
        rtol=1e-5,
        second_order=False,
        reason=f"{CDFLIB_T}; {NUMERIC}",
    ),
    Row(
        sc.nctdtrinc,
        ((1.0, 8.0), (0.2, 0.8), (0.3, 2.0)),
        rtol=5e-4,
        second_order=False,
        reason=f"{CDFLIB_T_NC}; {NUMERIC}",
    ),
    Row(sc.nctdtrit, ((1.0, 8.0), (-1.5, 1.5), (0.2, 0.8)), second_order=False, reason=NUMERIC),
    Row(
        sc.nctdtrinc,
        ((1, 8), (0.2, 0.8), (-2.0, -0.3)),
        integer=(0,),
        rtol=5e-4,
        reason=CDFLIB_T_NC,
    ),
    Row(sc.nctdtrit, ((1, 8), (-1.5, 1.5), (0.2, 0.8)), integer=(0,)),
]
CASES = cases(ROWS)

test_rrule_inverses, test_frule_inverses = table_tests(CASES)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_inverses(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- exact values ---------------------------------------------------------------------------


def central_difference(f, args, i, h=1e-5):
    up, down = list(args), list(args)
    up[i] += h
    down[i] -= h
    return (f(*up) - f(*down)) / (2 * h)


def test_derivative_in_p_is_the_reciprocal_density():
    x = sc.gdtrix(1.3, 2.5, 0.4)
    assert cotangents(sc.gdtrix, 1.3, 2.5, 0.4)[2] == pytest.approx(
        1 / cotangents(sc.gdtr, 1.3, 2.5, x)[2], rel=1e-13
    )
    t = sc.nctdtrit(4.0, 0.7, 0.3)
    assert cotangents(sc.nctdtrit, 4.0, 0.7, 0.3)[2] == pytest.approx(
        1 / cotangents(sc.nctdtr, 4.0, 0.7, t)[2], rel=1e-13
    )
    x = sc.chndtrix(0.6, 3.0, 1.5)
    assert cotangents(sc.chndtrix, 0.6, 3.0, 1.5)[0] == pytest.approx(
        1 / cotangents(sc.chndtr, x, 3.0, 1.5)[0], rel=1e-13
    )


def test_closed_forms():
    # gdtrix(a, 1, p) = -log(1 - p) / a
    da, _, dp = cotangents(sc.gdtrix, 2.0, 1.0, 0.75)
    assert dp == pytest.approx(1 / (2.0 * 0.25), rel=1e-14)
    assert da == pytest.approx(np.log(0.25) / 4.0, rel=1e-14)
    # btdtria(p, 1, x) = log(p) / log(x), from betainc(a, 1, x) = x**a
    p, x = 0.3, 0.6
    dp, _, dx = cotangents(sc.btdtria, p, 1.0, x)
    assert dp == pytest.approx(1 / (p * np.log(x)), rel=1e-12)
    assert dx == pytest.approx(-np.log(p) / (x * np.log(x) ** 2), rel=1e-12)
    # nrdtrimn(p, std, x) = x - std ndtri(p), nrdtrisd(mn, p, x) = (x - mn) / ndtri(p)
    dp, dstd, dx = cotangents(sc.nrdtrimn, 0.8, 1.5, 0.2)
    assert (dstd, dx) == (pytest.approx(-sc.ndtri(0.8), rel=1e-14), pytest.approx(1.0))
    assert dp == pytest.approx(-1.5 * np.sqrt(2 * np.pi) * np.exp(sc.ndtri(0.8) ** 2 / 2))
    dmn, _, dx = cotangents(sc.nrdtrisd, -0.5, 0.7, 1.0)
    assert dx == pytest.approx(1 / sc.ndtri(0.7), rel=1e-14) == -dmn


def test_kolmogi_against_its_survival_function():
    # kolmogi inverts the decreasing kolmogorov: the derivative is negative
    x = sc.kolmogi(0.4)
    (dp,) = cotangents(sc.kolmogi, 0.4)
    assert dp == pytest.approx(1 / cotangents(sc.kolmogorov, x)[0], rel=1e-13)
    assert dp < 0


# ---- hard points ----------------------------------------------------------------------------


def test_ends_of_the_domain_are_infinite():
    # p = 0: x = 0, where the density is 0 (b > 1) or infinite (b < 1)
    assert cotangents(sc.gdtrix, 1.0, 2.0, 0.0)[2] == np.inf
    assert cotangents(sc.gdtrix, 1.0, 0.5, 0.0)[2] == 0.0
    # p = 1: x = inf, where the density's formula is inf - inf: no number is made up
    assert not any(np.isfinite(cotangents(sc.gdtrix, 1.0, 2.0, 1.0)))


def test_no_solution_gives_nan():
    # SciPy returns an end of its search range (0, 1e10) or a tiny sentinel: not a solution
    assert sc.bdtrik(0.1, 5.0, 0.2) == 0.0  # below bdtr(0, 5, 0.2)
    assert all(np.isnan(cotangents(sc.bdtrik, 0.1, 5.0, 0.2)))
    assert sc.stdtridf(0.854, 0.66) == 1e10  # above stdtr(inf, 0.66)
    assert all(np.isnan(cotangents(sc.stdtridf, 0.854, 0.66)))
    assert sc.chndtridf(0.6, 0.665, 3.6) <= 1e-300  # SciPy 1.16: 1e-300; 1.17: subnormal
    assert all(np.isnan(cotangents(sc.chndtridf, 0.6, 0.665, 3.6)))
    assert all(np.isnan(cotangents(sc.nrdtrimn, 1.0, 1.0, 0.0)))  # SciPy's NaN at p = 1


def test_nan_only_where_there_is_no_solution():
    y = np.array([0.1, 0.5])  # no solution, a solution
    _, pullback = cr.rrule(sc.bdtrik, y, 5.0, 0.2)
    dy = cr.unthunk(pullback(np.ones(2))[1])
    assert np.isnan(dy[0])
    assert dy[1] == pytest.approx(cotangents(sc.bdtrik, 0.5, 5.0, 0.2)[0], rel=1e-14)


def test_float32_solution_is_accepted_at_its_rounding():
    # a steep normal in float32: x's rounding moves p by more than the residual bound
    args = (np.float32(0.3), np.float32(0.01), np.float32(3000.0))
    dp, dstd, dx = cotangents(sc.nrdtrimn, *args)
    assert np.isfinite(dp) and dx == 1
    assert dp.dtype == np.float32
    # z = (x - mn) / std is known only to the rounding of x over std
    assert abs(dstd + sc.ndtri(0.3)) < 0.05


def test_integer_arguments_have_no_tangent():
    assert cotangents(sc.smirnovi, 4, 0.3)[0] is NoTangent()
    assert cotangents(sc.bdtrik, 0.4, 7, 0.5)[1] is NoTangent()
    assert cotangents(sc.nbdtrin, 2, 0.4, 0.5)[0] is NoTangent()
    # the same counts as floats have derivatives (the continued laws)
    assert np.isfinite(cotangents(sc.bdtrik, 0.4, 7.0, 0.5)[1])


def test_numeric_derivatives_are_thunked():
    _, pullback = cr.rrule(sc.gdtrix, 1.2, 2.0, 0.3)
    da, db, dp = pullback(1.0)[1:]
    assert isinstance(db, Thunk)
    assert not isinstance(da, Thunk) and not isinstance(dp, Thunk)
    # solving for a shape parameter: every derivative divides by a numeric one
    _, pullback = cr.rrule(sc.gdtrib, 1.2, 0.3, 1.5)
    assert all(isinstance(g, Thunk) for g in pullback(1.0)[1:])


@pytest.mark.parametrize(
    ("inverse", "forward", "args", "solves"),
    [
        (sc.ncfdtrinc, sc.ncfdtr, (3.0, 5.0, 0.2, 2.0), 2),
        (sc.ncfdtridfd, sc.ncfdtr, (3.0, 0.2, 0.5, 2.0), 1),
        (sc.ncfdtridfn, sc.ncfdtr, (0.3, 5.0, 0.5, 0.5), 0),
    ],
)
def test_noncentral_f_inverses_against_an_accurate_inverse(inverse, forward, args, solves):
    # SciPy's inverse is accurate to ~1e-5 only: compare with the inverse of ncfdtr itself
    def accurate(*args):
        def residual(theta):
            return forward(*args[:solves], theta, *args[solves + 1 :]) - args[solves]

        return scipy.optimize.brentq(residual, 1e-3, 1e3, xtol=1e-14, rtol=1e-14)

    for i, derivative in enumerate(cotangents(inverse, *args)):
        reference = central_difference(accurate, args, i, h=1e-4)
        assert derivative == pytest.approx(reference, rel=1e-4)


@pytest.mark.parametrize(
    "args",
    # where finite differences of SciPy's nctdtrinc were furthest from the derivative
    [
        (3.0, 0.5414878569708304, -1.775664363714804),
        (3.0, 0.7889614621478767, -1.903082524290091),
        (5.0, 0.777342063528353, -1.02056867535504),
        (2.5, 0.3, 0.8),
    ],
)
def test_noncentral_t_inverses_against_an_accurate_inverse(args):
    def accurate(df, p, t):
        def residual(nc):
            return sc.nctdtr(df, nc, t) - p

        return scipy.optimize.brentq(residual, -10.0, 5.0, xtol=1e-15, rtol=1e-15)

    for i, derivative in enumerate(cotangents(sc.nctdtrinc, *args)):
        reference = central_difference(accurate, args, i, h=1e-4)
        assert derivative == pytest.approx(reference, rel=1e-6)


# ---- the forward partials the noncentral inverses use ---------------------------------------


@pytest.mark.parametrize(
    ("f", "partial", "args", "i"),
    [
        (sc.chndtr, chndtr_ddf, (2.3, 3.0, 1.0), 1),
        (sc.chndtr, chndtr_ddf, (6.0, 4.5, 3.7), 1),
        (sc.ncfdtr, lambda *a: ncfdtr_ddfn_ddfd(*a)[0], (1.5, 2.5, 2.7, 0.4), 0),
        (sc.ncfdtr, lambda *a: ncfdtr_ddfn_ddfd(*a)[1], (5.5, 7.5, 0.3, 2.9), 1),
        (sc.nctdtr, nctdtr_ddf, (1.5, -1.2, 1.7), 0),
        (sc.nctdtr, nctdtr_ddf, (4.0, 1.0, -0.8), 0),
        (sc.nctdtr, nctdtr_dnc, (4.0, 1.0, 0.8), 1),
        (sc.nctdtr, nctdtr_dnc, (7.5, 1.4, -1.9), 1),
    ],
)
def test_noncentral_partials_against_finite_differences(f, partial, args, i):
    assert partial(*args) == pytest.approx(central_difference(f, args, i), rel=1e-7)


def array_cotangents(f, *args):
    """The unthunked cotangents of ``f``'s array arguments for the output cotangent ones."""
    y, pullback = cr.rrule(f, *args)
    return tuple(cr.unthunk(g) for g in pullback(np.ones_like(y))[1:])


def test_chdtriv_at_p_one():
    # chdtriv(1, x) = 0 for every x; near v = 0, 1 - chdtr(v, x) ~ v E1(x/2) / 2, so
    # dv/dp = -2 / E1(x/2) (mpmath: -13.6599544529040075659987538876 at x = 2.5)
    dp, dx = cotangents(sc.chdtriv, 1.0, 2.5)
    if np.isnan(sc.chdtriv(1.0, 2.5)):
        # SciPy before 1.17 has no solution there: the derivatives follow the value
        assert np.isnan(dp) and np.isnan(dx)
        return
    assert dp == pytest.approx(-13.659954452904008, rel=1e-14)
    assert dx == 0.0
    dp, dx = array_cotangents(sc.chdtriv, np.array([1.0, 1.0]), np.array([2.5, 1e-300]))
    # x = 1e-300: -2 / E1(5e-301), by mpmath
    np.testing.assert_allclose(dp, [-13.659954452904008, -0.0028948107155597627], rtol=1e-14)
    assert dx.tolist() == [0.0, 0.0]


def test_nrdtrisd_at_zero_standard_deviation():
    # x = mn: SciPy's solution is std = 0, a degenerate normal law (the implicit function's
    # density gave NaN); the closed form (x - mn) / ndtri(p) has its derivatives there
    dmn, dp, dx = cotangents(sc.nrdtrisd, 0.3, 0.3, 0.3)
    assert dmn == pytest.approx(-1 / sc.ndtri(0.3), rel=1e-14, abs=0) == -dx
    assert dp == 0.0
