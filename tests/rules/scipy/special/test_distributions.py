"""Tests of the rules for the chi-squared, gamma, Poisson, Student's t and F distribution functions,
their inverses pdtri, fdtri, stdtrit, chdtri, and Tukey's lambda distribution tklmbda."""

import math

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, cotangents, table_tests

import chainrules as cr

NUMERIC = "shape derivatives by quadrature are not differentiable again"
ROWS = [
    Row(sc.chdtr, ((0.5, 6.0), (0.2, 8.0)), second_order=False, reason=NUMERIC),
    Row(sc.chdtrc, ((0.5, 6.0), (0.2, 8.0)), second_order=False, reason=NUMERIC),
    Row(sc.gdtr, ((0.3, 2.0), (0.5, 4.0), (0.2, 5.0)), second_order=False, reason=NUMERIC),
    Row(sc.gdtrc, ((0.3, 2.0), (0.5, 4.0), (0.2, 5.0)), second_order=False, reason=NUMERIC),
    # k away from integers: pdtr is constant in k between them
    Row(sc.pdtr, ((0.2, 0.8), (0.2, 6.0))),
    Row(sc.pdtrc, ((2.2, 2.8), (0.2, 6.0))),
    Row(sc.stdtr, ((0.8, 12.0), (-3.0, 3.0)), second_order=False, reason=NUMERIC),
    # integer shapes: second derivatives in the argument
    Row(sc.chdtr, ((1, 5), (0.2, 8.0)), integer=(0,), shapes=(((3,), (3,)),)),
    Row(sc.stdtr, ((1, 9), (-3.0, 3.0)), integer=(0,), shapes=(((3,), (3,)),)),
]
CASES = cases(ROWS)

test_rrule_distributions, test_frule_distributions = table_tests(CASES)


# ---- the F distribution and the inverses ----------------------------------------------------

DF_NUMERIC = "degrees-of-freedom derivatives by quadrature are not differentiable again"
MORE_ROWS = [
    Row(sc.fdtr, ((1.0, 6.0), (2.0, 8.0), (0.3, 3.0)), second_order=False, reason=DF_NUMERIC),
    Row(sc.fdtrc, ((1.0, 6.0), (2.0, 8.0), (0.3, 3.0)), second_order=False, reason=DF_NUMERIC),
    Row(sc.fdtri, ((1.0, 6.0), (2.0, 8.0), (0.2, 0.8)), second_order=False, reason=DF_NUMERIC),
    Row(sc.stdtrit, ((1.0, 9.0), (0.1, 0.9)), second_order=False, reason=DF_NUMERIC),
    Row(sc.chdtri, ((1.0, 6.0), (0.1, 0.9)), second_order=False, reason=DF_NUMERIC),
    # integer degrees of freedom: second derivatives in the argument
    Row(sc.fdtr, ((1, 6), (2, 8), (0.3, 3.0)), integer=(0, 1)),
    Row(sc.fdtrc, ((1, 6), (2, 8), (0.3, 3.0)), integer=(0, 1)),
    Row(sc.fdtri, ((1, 6), (2, 8), (0.2, 0.8)), integer=(0, 1)),
    Row(sc.stdtrit, ((1, 9), (0.1, 0.9)), integer=(0,)),
    Row(sc.chdtri, ((1, 6), (0.1, 0.9)), integer=(0,)),
    Row(sc.pdtri, ((0, 5), (0.2, 0.8)), integer=(0,)),
]
MORE_CASES = cases(MORE_ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(MORE_CASES)


# ---- Tukey's lambda distribution ------------------------------------------------------------

FIRST = (((3,), (3,)),)
TUKEY_ROWS = [
    Row(sc.tklmbda, ((-2.0, 2.0), (0.1, 1.5))),
    Row(sc.tklmbda, ((-2.0, 2.0), (-1.5, -0.1)), shapes=FIRST),
]
TUKEY_CASES = cases(TUKEY_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(TUKEY_CASES)


def test_stdtr_at_zero_does_not_depend_on_df():
    assert cr.unthunk(cr.rrule(sc.stdtr, 3.0, 0.0)[1](1.0)[1]) == 0.0
    # the t density at 0 for df = 1 (Cauchy): 1 / pi
    assert cr.rrule(sc.stdtr, 1.0, 0.0)[1](1.0)[2] == pytest.approx(0.3183098861837907)


# d/d(df) stdtr(df, t) by mpmath (40 digits: betainc differentiated numerically), where z =
# df/(df + t^2) rounds to 1 (tiny t) or w = 1 - z does (large |t|)
STDTR_DDF = [
    (4.0, 7e-17, 3.9863651030143564e-19),
    (4.0, 1e-8, 5.694807290020509e-11),
    (0.7, 1e-8, 1.012412799919949e-09),
    (4.0, 0.3, 0.001775128466907476),
    (4.0, 50.0, 1.3548379808093127e-06),
    (0.7, -1e4, -0.00456144033293122),
    # df far below 1, where the incomplete beta function's derivative in its first shape
    # cancelled 1/a (16384.24 at the first, -1.9e84 at the second; 80 digits)
    (1e-20, 1e8, 20.819839427226384),
    (1e-100, 1e8, 66.871541287107297),
]


@pytest.mark.parametrize(("df", "t", "expected"), STDTR_DDF)
def test_stdtr_derivative_in_df_near_zero_and_far_out(df, t, expected):
    # rtol: the incomplete beta function's parameter derivative reaches about 1e-15 here
    got = cr.unthunk(cr.rrule(sc.stdtr, df, t)[1](1.0)[1])
    assert got == pytest.approx(expected, rel=1e-13)


def test_pdtr_is_constant_in_k():
    assert cr.rrule(sc.pdtr, 2.5, 1.0)[1](1.0)[1] == 0.0


# ---- hard points ----------------------------------------------------------------------------


def test_inverse_derivative_is_the_reciprocal_density():
    x = sc.fdtri(3.0, 5.0, 0.3)
    dp = cotangents(sc.fdtri, 3.0, 5.0, 0.3)[2]
    assert dp == pytest.approx(1 / cotangents(sc.fdtr, 3.0, 5.0, x)[2], rel=1e-13)
    # stdtrit(1, p) = tan(pi (p - 1/2)): derivative pi / cos(pi (p - 1/2))**2
    assert cotangents(sc.stdtrit, 1.0, 0.5)[1] == pytest.approx(np.pi, rel=1e-14)
    # the median is 0 for every df: SciPy 1.17 returns 0 and the derivative in df is then 0
    # exactly; SciPy 1.16 returns 7e-17, where it is -1e-18
    assert abs(cotangents(sc.stdtrit, 4.0, 0.5)[0]) <= 1e-15


def test_fdtr_degrees_of_freedom_against_finite_differences():
    h = 1e-5
    ddfn, ddfd, _ = cotangents(sc.fdtr, 3.5, 6.2, 1.3)
    assert ddfn == pytest.approx(
        (sc.fdtr(3.5 + h, 6.2, 1.3) - sc.fdtr(3.5 - h, 6.2, 1.3)) / (2 * h), rel=1e-7
    )
    assert ddfd == pytest.approx(
        (sc.fdtr(3.5, 6.2 + h, 1.3) - sc.fdtr(3.5, 6.2 - h, 1.3)) / (2 * h), rel=1e-7
    )


def test_tukey_lambda_support():
    # lmbda = 2: uniform on [-1/2, 1/2]; outside the support nothing changes.
    assert cr.rrule(sc.tklmbda, 0.3, 2.0)[1](1.0)[1:] == (1.0, pytest.approx(0.18921717817))
    assert cr.rrule(sc.tklmbda, 0.7, 2.0)[1](1.0)[1:] == (0.0, 0.0)
    # lmbda = 0 is the logistic distribution: density F (1 - F).
    y, pullback = cr.rrule(sc.tklmbda, 0.3, 0.0)
    assert pullback(1.0)[1] == pytest.approx(y * (1 - y))


# ---- edges: infinite and overflowing arguments ----------------------------------------------


def array_cotangents(f, *args):
    """The unthunked cotangents of ``f``'s array arguments for the output cotangent ones."""
    y, pullback = cr.rrule(f, *args)
    return tuple(cr.unthunk(g) for g in pullback(np.ones_like(y))[1:])


# d/d(df) stdtr(df, t) by mpmath (80 digits, central difference of betainc with step 1e-25 df)
# where t^2 overflows or df/(df + t^2) underflows; (2.5, 1e100) is the quadrature's side
STDTR_DDF_FAR = [
    (0.5, 1e300, 2.216208276266286e-148),
    (0.5, -1e300, -2.216208276266286e-148),
    (1.0, 1e300, 2.198191990067676e-298),
    (1e-8, 1e300, 350.0870547261405),
    (1e-20, 1e200, 241.86800835465477),
    (2.5, 1e100, 1.650617787021936e-248),
]


@pytest.mark.parametrize(("df", "t", "expected"), STDTR_DDF_FAR)
def test_stdtr_derivative_in_df_where_t_squared_overflows(df, t, expected):
    # rtol: the tail's leading term has relative error df/t^2; its slope takes
    # -1/df - digamma(df/2)/2 as -digamma(df/2 + 1)/2, which cancelled (3e-12 of the result at
    # df = 1e-8, all of it at 1e-20: 0 for 242)
    got = cotangents(sc.stdtr, df, t)[0]
    assert got == pytest.approx(expected, rel=1e-13, abs=0)


def test_stdtr_derivative_in_df_far_out_on_arrays():
    df, t = np.array([0.5, 1.0, 2.5]), np.array([1e300, 1e300, 1e100])
    got = array_cotangents(sc.stdtr, df, t)[0]
    expected = [2.216208276266286e-148, 2.198191990067676e-298, 1.650617787021936e-248]
    np.testing.assert_allclose(got, expected, rtol=1e-13, atol=0)


def test_stdtr_at_infinite_t_and_df():
    # stdtr(df, +-inf) is 1 or 0 for every df
    assert cotangents(sc.stdtr, 2.5, np.inf) == (0.0, 0.0)
    assert cotangents(sc.stdtr, 2.5, -np.inf) == (0.0, 0.0)
    # df = inf: the normal law, whose density is exact here to rounding
    for t in (0.0, -2.5, 1.0):
        ddf, dt = cotangents(sc.stdtr, np.inf, t)
        assert ddf == 0.0
        assert dt == pytest.approx(np.exp(-t * t / 2) / np.sqrt(2 * np.pi), rel=1e-15)
    ddf, dt = array_cotangents(sc.stdtr, np.array([np.inf, 4.0]), np.array([1.0, 1.0]))
    assert dt[0] == pytest.approx(0.24197072451914337, rel=1e-15)
    # the t density at 1 for df = 4: (3/8) (4/5)^(5/2)
    assert dt[1] == pytest.approx(3 / 8 * 0.8**2.5, rel=1e-14)


def test_stdtrit_at_infinite_df_and_where_scipy_misses():
    # stdtrit(inf, p) = ndtri(p): 1 / normal density at it; 1/npdf(ndtri(0.3)) by mpmath
    assert cotangents(sc.stdtrit, np.inf, 0.3)[1] == pytest.approx(2.8761036592642925, rel=1e-14)
    # stdtrit(0.5, 1e-300) is -4.7e153, where stdtr is 5e-78: no solution, no derivative
    assert np.isnan(cotangents(sc.stdtrit, 0.5, 1e-300)).all()
    # next to it, a solution: stdtrit(0.5, 1e-20); dt/dp = 1 / density(t) is finite
    assert np.isfinite(cotangents(sc.stdtrit, 0.5, 1e-20)).all()


@pytest.mark.parametrize(("dfn", "dfd", "p"), [(1e-300, 0.5, 0.5), (0.5, 1e300, 1e-300)])
def test_fdtri_where_scipy_misses(dfn, dfd, p):
    # SciPy 1.17's fdtri gives 1.1e-8 and 4.5e-8 here, where fdtr gives 1 and 0.011 (SciPy 1.16
    # gives 0, where fdtr gives 0): no solution, no derivative (the derivatives were 7.9e294
    # and -7.3e-8 at the first, which the function's central differences put at -1.1e292 and
    # 2.2e-8)
    x = sc.fdtri(dfn, dfd, p)
    assert not abs(sc.fdtr(dfn, dfd, x) - p) <= 1e-6 * min(p, 1 - p)  # SciPy's miss
    assert np.isnan(cotangents(sc.fdtri, dfn, dfd, p)).all()


@pytest.mark.parametrize(("dfn", "dp"), [(1.0, 0.0), (2.0, 1.0), (2.5, np.inf)])
def test_fdtri_at_p_zero(dfn, dp):
    # fdtri(dfn, dfd, 0) = 0 for all degrees of freedom: their derivatives are 0 (they were NaN,
    # 0 / 0), and dx/dp = 1 / density(0): 0 below dfn = 2, 1 at 2, inf above. SciPy 1.16 gives
    # NaN for fdtri(1, 3, 0), and then so is every derivative
    if np.isnan(sc.fdtri(dfn, 3.0, 0.0)):
        assert np.isnan(cotangents(sc.fdtri, dfn, 3.0, 0.0)).all()
    else:
        found = cotangents(sc.fdtri, dfn, 3.0, 0.0)
        assert found[:2] == (0.0, 0.0)  # exact: the ends' derivatives are set to 0
        # (the density at 0 for dfn = 2 is 1 through logarithms that need not cancel exactly)
        assert found[2] == pytest.approx(dp, rel=1e-15, abs=0)


def test_fdtri_solved_within_the_rounding_of_its_result():
    # at dfn = dfd = 1e300 the F law is normal about 1 with sd 2e-150: every quantile rounds to 1,
    # where SciPy's fdtr gives 1/2 (it cannot resolve the step). 1 / density = sd sqrt(2 pi).
    # (SciPy 1.16 gives NaN for the quantile itself, and NaN is its derivative)
    if np.isnan(sc.fdtri(1e300, 1e300, 0.3)):
        assert np.isnan(cotangents(sc.fdtri, 1e300, 1e300, 0.3)[2])
        return
    assert cotangents(sc.fdtri, 1e300, 1e300, 0.3)[2] == pytest.approx(
        2e-150 * math.sqrt(2 * math.pi), rel=1e-12, abs=0
    )


def test_gdtr_where_a_x_is_zero_or_infinite():
    # gdtr(a, b, 0) = 0 for every a; gdtr(0, b, x) = 0 for every x; gdtr(a, b, inf) = 1
    da, _, dx = cotangents(sc.gdtr, 1.0, 0.5, 0.0)
    assert da == 0.0
    assert dx == np.inf  # the gamma(1/2) density at 0
    assert cotangents(sc.gdtr, 0.0, 0.5, 0.5)[2] == 0.0
    assert cotangents(sc.gdtr, 1.0, 2.5, np.inf)[0] == 0.0
    assert cotangents(sc.gdtrc, 1.0, 0.5, 0.0)[0] == 0.0
    # next to x = 0: x (a x)^(-1/2) exp(-a x) / gamma(1/2), by mpmath
    assert cotangents(sc.gdtr, 1.0, 0.5, 1e-3)[0] == pytest.approx(0.017823408838013966, rel=1e-14)
    got = array_cotangents(
        sc.gdtr, np.array([1.0, 1.0]), np.array([0.5, 0.5]), np.array([0.0, 1e-3])
    )
    np.testing.assert_allclose(got[0], [0.0, 0.017823408838013966], rtol=1e-14, atol=0)


# d/d(dfn), d/d(dfd) fdtr by mpmath (60 digits, central differences of betainc with step 1e-20
# times the argument), where x = 1e300 rounds z = dfn x/(dfn x + dfd) to 1 and where
# (dfn x + dfd)^2 underflows; (0.5, 1.0, 1e-300) is the ordinary side
FDTR_DDF_EDGES = [
    (2.5, 0.5, 1e300, -2.3063580519841359e-77, 2.4927824584899135e-73),
    (0.5, 1.0, 1e300, -3.0786048360559972e-151, 1.8613185866278593e-148),
    (0.5, 1e-300, 1e-300, -3.2289680692387705e-300, 1.26567463923336),
    (0.5, 1.0, 1e-300, -2.2170926966402534e-73, 1.2111244956189739e-76),
]


# d/d(dfn), d/d(dfd) fdtr where one degree of freedom is huge, by mpmath (90 digits, central
# differences of betainc, or of its complement where fdtr is above 1/2, with step 1e-35 times
# the argument). The derivative in the huge one, of the order of 1/df^2, was the difference of
# two terms of the order of 1/df (2.3e-20 for -6.4e-25 at (1e12, 2.5, 0.5), 1.5% off at
# (2.5, 1e14, 3), the wrong sign at (7.5e9, 176, 8.3)); the other, at a huge dfn, took the
# density at z = dfn x/(dfn x + dfd) rounded to 1 (0.0634 for 0.0623 at (1e15, 3, 2)).
FDTR_DDF_HUGE = [
    (1e15, 3.0, 2.0, -8.654980657806852e-32, 0.062278149136831044),
    (1e12, 2.5, 0.5, -6.405458775352599e-25, -0.023846121188103187),
    (1e8, 2.5, 0.5, -6.4054586720156e-17, -0.02384611930448233),
    (2.5, 1e14, 3.0, 0.020267290111256914, 4.738945761999e-29),
    (20.0, 1e10, 1.5, 0.004264986175465061, 2.9166450480263325e-20),
    (0.05, 3e12, 2.0, -0.7299601779967084, 2.5481638984980318e-27),
    (7.5e9, 176.0, 8.3, 2.7553189941388954e-65, 1.6253964394084277e-49),
    (1574.5, 2.1, 2.5, -4.048887974108943e-08, 0.09829348374349829),
]


@pytest.mark.parametrize(("dfn", "dfd", "x", "ddfn", "ddfd"), FDTR_DDF_EDGES + FDTR_DDF_HUGE)
def test_fdtr_degrees_of_freedom_at_the_ends(dfn, dfd, x, ddfn, ddfd):
    # rtol: the quadrature's 1e-12, and the expansion in 1/df, cut where its next term is 1e-11
    # of the sum (1e-13 measured at FDTR_DDF_HUGE)
    got = cotangents(sc.fdtr, dfn, dfd, x)
    assert got[0] == pytest.approx(ddfn, rel=1e-11, abs=0)
    assert got[1] == pytest.approx(ddfd, rel=1e-11, abs=0)
    got_c = cotangents(sc.fdtrc, dfn, dfd, x)
    assert got_c[0] == pytest.approx(-ddfn, rel=1e-11, abs=0)


@pytest.mark.parametrize(
    ("dfn", "dfd"), [(np.inf, 5.0), (5.0, np.inf), (np.inf, np.inf), (3.0, 5.0)]
)
def test_fdtr_at_infinite_x(dfn, dfd):
    # fdtr(dfn, dfd, inf) = 1 for every degree of freedom, an infinite one too: every partial
    # is 0 (they were NaN at an infinite degree of freedom)
    assert cotangents(sc.fdtr, dfn, dfd, np.inf) == (0.0, 0.0, 0.0)
    assert cotangents(sc.fdtrc, dfn, dfd, np.inf) == (0.0, 0.0, 0.0)


def test_fdtr_at_zero_and_on_arrays():
    # fdtr(dfn, dfd, 0) = 0 for all degrees of freedom; the density at 0 is infinite for dfn < 2
    assert cotangents(sc.fdtr, 0.5, 0.5, 0.0) == (0.0, 0.0, np.inf)
    got = array_cotangents(
        sc.fdtr, np.array([2.0, 2.5]), np.array([3.0, 0.5]), np.array([0.7, 1e300])
    )
    # (2, 3, 0.7) by mpmath as above
    np.testing.assert_allclose(got[0], [-0.064874039691549695, -2.3063580519841359e-77], rtol=1e-11)


def test_chdtri_at_p_one_and_tklmbda_at_zero():
    # chdtri(v, 1) = 0 for every v; dx/dp = -1/density(0) = -inf for v > 2
    assert cotangents(sc.chdtri, 2.5, 1.0) == (0.0, -np.inf)
    assert array_cotangents(sc.chdtri, np.array([2.5, 1e300]), np.array([1.0, 1.0]))[
        0
    ].tolist() == [0, 0]
    # tklmbda(0, lmbda) = 1/2 for every lmbda; the density at 0 overflows for lmbda = 1e4
    assert cotangents(sc.tklmbda, 0.0, 1e4) == (np.inf, 0.0)


# d/d(df) stdtr(df, t) by mpmath (80 digits, betainc differentiated numerically) at large df,
# where the two terms of the quadrature's form cancel to 1/df of their size (20% off at
# df = 1e8, the wrong sign from 1e12): the expansion in 1/df about the normal law
STDTR_DDF_LARGE = [
    (3e4, 0.3, 3.4642417161026103e-11),
    (1e6, 2.5, 7.9425499363977174e-14),
    (1e8, 1.0, 1.2098536165464486e-17),
    (1e8, 10.0, 1.9429331148283873e-36),
    (1e12, 1.0, 1.2098536225951118e-25),
    (1e20, -2.5, -7.9425111611482435e-42),
]


@pytest.mark.filterwarnings("error")
@pytest.mark.parametrize(("df", "t", "expected"), STDTR_DDF_LARGE)
def test_stdtr_derivative_in_df_at_large_df(df, t, expected):
    # rtol: the expansion's terms left out, below 2e-12 of the result where it is taken
    got = cotangents(sc.stdtr, df, t)[0]
    assert got == pytest.approx(expected, rel=2e-12, abs=0)
    # and where the derivative underflows: 1.2e-601 at df = 1e300
    assert cotangents(sc.stdtr, 1e300, 1.0)[0] == 0.0


@pytest.mark.parametrize(
    ("df", "t", "expected"),
    [
        # the t density by mpmath (50 digits); at df = 1e300 the normal density, 1/df away
        (3.0, 1.0, 0.206748335783172),
        (1e6, 1.0, 0.2419706035338315),
        (1e12, 1.0, 0.24197072451902236),
        (1e15, -4.0, 0.00013383022576489281),
        (1e300, 1.0, 0.24197072451914337),
    ],
)
def test_stdtr_derivative_in_t_at_large_df(df, t, expected):
    # its norm's two log-gammas cancelled: 2e-4 off at df = 1e12, 5.25 at 1e15, 3.4e-151 at
    # 1e300; rtol: a few roundings in the exponent and Stirling's tails
    assert cotangents(sc.stdtr, df, t)[1] == pytest.approx(expected, rel=1e-14, abs=0)


@pytest.mark.parametrize(
    ("x", "lmbda", "expected", "rtol"),
    [
        # mpmath (60 digits): p solving Q(p) = x, then -dQ/dl / dQ/dp. The exprel slopes, each
        # about 1/l^2, cancelled to p^l ~ 1e-296 (it came out -1.5e272); rtol: SciPy's p
        (1e-300, 1e4, 6.3759387213770165e-06, 1e-12),
        (1e-5, 1e4, 3.3018247322168274e-08, 1e-9),
        (1e-300, 1e8, 6.733503198355278e-14, 1e-8),
    ],
)
def test_tklmbda_lambda_derivative_at_large_lambda(x, lmbda, expected, rtol):
    assert cr.rrule(sc.tklmbda, x, lmbda)[1](1.0)[2] == pytest.approx(expected, rel=rtol, abs=0)


def test_student_density_where_t_squared_over_df_overflows():
    # stdtr's derivative in t at df = 1e-300, t = 1e5: about df / (2 t) (mpmath: 5.0e-306);
    # t^2 / df overflowed and the density came out 0. rtol: the density's normalisation takes
    # log-gammas of size 690 at this df, whose rounding is 1e-13 of it
    assert cotangents(sc.stdtr, 1e-300, 1e5)[1] == pytest.approx(5.0e-306, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    "dfn, x, expected",
    [
        (0.5, 0.5, -0.3285784365974188),
        (0.5, 2.5, -0.0071990019291643076),
        (3.0, 0.5, -0.062278149136831125),
    ],
)
def test_fdtr_dfn_derivative_at_an_infinite_dfd(dfn, x, expected):
    # at dfd = 1e300, fdtr(dfn, dfd, x) is chdtr(dfn, dfn x) to 1e-300: its derivative in dfn
    # by mpmath. 1 - z rounded to 1, and the density's term lost dfd/2 log(1 - z) = -dfn x / 2
    # (-0.290 for the first, 0.221 for the second). rtol: the shape derivative's log z and
    # digamma(a + b), both about 690 here, cancel to the result's size (2e-12 measured)
    assert cotangents(sc.fdtr, dfn, 1e300, x)[0] == pytest.approx(expected, rel=1e-11, abs=0)


def test_fdtr_dfd_derivative_at_an_infinite_dfn():
    # at dfn = 1e300, fdtr(dfn, dfd, x) is gammaincc(dfd/2, dfd/(2 x)) to 1e-300: its derivative
    # in dfd by mpmath. It came out 0.090, the density's term lost where z rounded to 1. rtol:
    # betainc's shape derivative beside a shape of 5e299 (1.3e-12 measured)
    got = cotangents(sc.fdtr, 1e300, 2.5, 0.5)[1]
    assert got == pytest.approx(-0.023846121188291569, rel=1e-11, abs=0)


@pytest.mark.parametrize(
    ("dfn", "dfd", "x"), [(2.5, 1e300, 1e8), (1e8, 1e300, 2.5), (1e300, 2.5, 1e-8)]
)
def test_fdtr_degrees_of_freedom_where_it_is_saturated(dfn, dfd, x):
    # fdtr is 1 (or 0) to within exp(-1e8) here, and its derivatives in the degrees of freedom
    # underflow; betainc's shape derivatives raised OverflowError (its tail toward 0 rose from
    # z by more than the float range in the quadrature)
    assert cotangents(sc.fdtr, dfn, dfd, x)[:2] == (0.0, 0.0)


@pytest.mark.parametrize(
    ("dfn", "dfd", "x", "expected"),
    [
        (1e8, 1e8, 1.0001, 1760.1726144544614),
        (3e5, 2e5, 0.99, 4.758174247585736),
        # z = dfn x / (dfn x + dfd) underflows beside an infinite beta density: dfn/2 / x to
        # 1e-300, and at dfd = 1e300 the chi-squared limit dfn chi2_pdf(dfn x; dfn) (NaN both)
        (1e-300, 1e8, 1e-300, 0.5),
        (0.5, 1e300, 1e-300, 1.9503112554470338e224),
    ],
)
def test_f_density_at_large_degrees_of_freedom(dfn, dfd, x, expected):
    # by mpmath at 60 digits. The logarithms of size df cancelled: 2.3e-7 and 1.3e-10 off.
    # rtol: large_shapes' log-density, 1.6e-13 measured at the first (5.9e-14 at the third)
    assert cotangents(sc.fdtr, dfn, dfd, x)[2] == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    ("dfn", "x", "expected"),
    [(2.5, 30.0, -1.8437378480388834e-15), (30.0, 30.0, -7.8251025646654185e-169)],
)
def test_fdtrc_dfn_derivative_in_a_far_tail_at_an_infinite_dfd(dfn, x, expected):
    # at dfd = 1e300, fdtrc(dfn, dfd, x) is chdtrc(dfn, dfn x) to 1e-300, 1.4e-16 and 6.1e-170
    # here: its derivative in dfn by mpmath. It came out -4.4e-14 and -2.3e-14, the rounding of
    # the lower tail's terms of the order of 1; and fdtr(1e300, dfn, 1/x), the same function
    assert cotangents(sc.fdtrc, dfn, 1e300, x)[0] == pytest.approx(expected, rel=1e-12, abs=0)
    mirrored = cotangents(sc.fdtr, 1e300, dfn, 1 / x)[1]
    assert mirrored == pytest.approx(expected, rel=1e-12, abs=0)


def test_f_density_at_an_infinite_dfn():
    # at dfn = 1e300 and dfd = 2, fdtr(dfn, 2, x) is exp(-1/x): its density at 0.5 is 4 e^-2.
    # The textbook form's logarithms, of size dfn log dfn, cancelled: 5e299
    assert cotangents(sc.fdtr, 1e300, 2.0, 0.5)[2] == pytest.approx(
        0.54134113294645077, rel=1e-12, abs=0
    )
