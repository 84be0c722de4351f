"""Tests of the rules for the noncentral chi-squared, F and Student's t distribution functions."""

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, cotangents, table_tests

import chainrules as cr
from chainrules.rules.scipy.special import noncentral

NUMERIC = "degrees-of-freedom derivatives by quadrature are not differentiable again"
ROWS = [
    # noncentral laws: integer degrees of freedom (closed partials), then real ones (quadrature)
    Row(sc.chndtr, ((0.3, 6.0), (1, 6), (0.2, 4.0)), integer=(1,)),
    Row(sc.ncfdtr, ((1, 6), (2, 8), (0.2, 3.0), (0.3, 3.0)), integer=(0, 1)),
    Row(sc.nctdtr, ((1, 8), (-1.5, 1.5), (-2.0, 2.0)), integer=(0,)),
    Row(sc.chndtr, ((0.3, 6.0), (1.0, 6.0), (0.2, 4.0)), second_order=False, reason=NUMERIC),
    Row(
        sc.ncfdtr,
        ((1.0, 6.0), (2.0, 8.0), (0.2, 3.0), (0.3, 3.0)),
        second_order=False,
        reason=NUMERIC,
    ),
    Row(sc.nctdtr, ((1.0, 8.0), (-1.5, 1.5), (-2.0, 2.0)), second_order=False, reason=NUMERIC),
]
CASES = cases(ROWS)

test_rrule_distributions_more, test_frule_distributions_more = table_tests(CASES)


# ---- hard points ----------------------------------------------------------------------------


def test_noncentral_laws_at_zero_noncentrality():
    # nc = 0: the central densities
    assert cotangents(sc.chndtr, 2.3, 3.0, 0.0)[0] == pytest.approx(
        cotangents(sc.chdtr, 3.0, 2.3)[1], rel=1e-14
    )
    assert cotangents(sc.ncfdtr, 3.0, 5.0, 0.0, 1.3)[3] == pytest.approx(
        cotangents(sc.fdtr, 3.0, 5.0, 1.3)[2], rel=1e-14
    )
    assert cotangents(sc.nctdtr, 4.0, 0.0, 0.8)[2] == pytest.approx(
        cotangents(sc.stdtr, 4.0, 0.8)[1], rel=1e-14
    )


def test_noncentral_parameter_derivatives_match_finite_differences():
    step = 1e-5

    def numeric(f, args, i):
        up, down = list(args), list(args)
        up[i] += step
        down[i] -= step
        return (f(*up) - f(*down)) / (2 * step)

    for f, args, positions in [
        (sc.chndtr, (2.3, 3.0, 1.0), (1, 2)),
        (sc.nctdtr, (4.0, 1.0, 0.8), (0, 1)),
        (sc.ncfdtr, (3.0, 5.0, 1.0, 1.3), (0, 1, 2)),
    ]:
        found = cotangents(f, *args)
        for i in positions:
            assert float(cr.unthunk(found[i])) == pytest.approx(numeric(f, args, i), rel=1e-6)


def test_nctdtr_derivative_in_nc_at_large_df():
    # As df -> inf, nctdtr(df, nc, t) -> ndtr(t - nc): d/dnc -> -phi(t - nc), with a relative
    # O(1/df) beside it. Its gamma ratio and (df / s)**(df / 2) cancelled (1.1e-5 off at
    # df = 1e12); rtol: the 1/df term, and a few roundings
    phi = np.exp(-0.125) / np.sqrt(2 * np.pi)  # at t - nc = 0.5
    for df, rtol in ((1e12, 1e-11), (1e20, 1e-14)):
        got = cr.unthunk(cr.rrule(sc.nctdtr, df, 1.0, 1.5)[1](1.0)[2])
        assert got == pytest.approx(-phi, rel=rtol, abs=0)


@pytest.mark.parametrize(
    ("x", "df", "nc", "density"),
    [
        # mpmath (40 digits) of 0.5 exp(-(x + nc)/2) (x/nc)^(df/4 - 1/2) I_(df/2-1)(sqrt(nc x)),
        # where ive underflows beside a huge power (the x-derivative came out 0); rtol: the
        # log-density's terms, of order df log(x/nc), cancel to it (2e-11 measured at 1e5)
        (3000.0, 3000.0, 0.3, 0.00514999797829825),
        (3000.0, 3000.0, 30.0, 0.004782835232287563),
        (3000.0, 2000.0, 0.3, 3.984114684439924e-44),
        (100000.0, 100000.0, 3.0, 0.0008920405013746278),
    ],
)
def test_chndtr_density_where_ive_underflows(x, df, nc, density):
    assert cotangents(sc.chndtr, x, df, nc)[0] == pytest.approx(density, rel=1e-10, abs=0)
    p = sc.chndtr(x, df, nc)
    # the inverse's p-derivative divides by it (it was infinite); in the far tail (x = 3000 at
    # df = 2000, p within 1e-40 of 1) SciPy's chndtrix does not give back x, by version
    if 1e-6 < p < 1 - 1e-6:
        assert cotangents(sc.chndtrix, p, df, nc)[0] == pytest.approx(1 / density, rel=1e-6, abs=0)


def test_chndtr_df_derivative_in_a_far_tail():
    # chndtr(3000, df, 3000) = 3.6e-162 is made of Poisson terms of weight below 1e-18, which
    # the mixture left out (it gave -1.9e-183). Reference: the five-point difference of SciPy's
    # chndtr at steps 0.03 and 0.01 of df, which agree to 1e-10
    ddf = cotangents(sc.chndtr, 3000.0, 3000.0, 3000.0)[1]
    assert ddf == pytest.approx(-8.719445206e-163, rel=1e-9, abs=0)


def test_mixtures_beyond_their_largest_mean_are_nan():
    # nctdtr's Poisson mean nc^2 / 2 = 4.5e6 at nc = 3000: about 38,000 quadratures, minutes
    # (the edge sweep's alarm stopped it); NaN, as where the density itself is not found
    assert np.isnan(noncentral.nctdtr_ddf(0.3, 3000.0, 0.3))
    assert np.isnan(noncentral.chndtr_ddf(30.0, 5.0, 5000.0))


# References: mpmath at 50 digits, nctdtr as E[ndtr(t sqrt(V / df) - nc)] over V ~ chi2(df),
# by quadrature with breakpoints around the integrand's peak, differentiated by mpmath.diff;
# the density from its closed form in mpmath's hyp1f1.
@pytest.mark.parametrize(
    "df, nc, t, ddf, dnc, density",
    [
        # beyond nc = 38.6, e^(-nc^2 / 2) underflowed and the hyp1f1 overflowed: all NaN
        (3.0, 60.0, 70.0, 0.042509614989403927, -0.014446714416445379, 0.012382198820123147),
        (10.0, 38.0, 40.0, 0.0074534080756492685, -0.044737556652531419, 0.042500131396947473),
        # far tails, made of Poisson terms of weight below 1e-18, which the df-derivative's
        # mixture left out: it gave -3.3e-57, -1.9e-48 and 2.28e-17 (4.5e-4 off)
        (10.0, 20.0, 2.0, -2.3991703697639522e-57, -1.0778990079019923e-56, 3.3071924492570793e-56),
        (3.0, 15.0, 0.3, -8.4730197383311053e-49, -2.1168658363885808e-47, 3.899722375754841e-47),
        (4.0, -10.0, -1.0, 2.2802341526072995e-17, -1.3983424336235597e-16, 3.1797090926424296e-16),
    ],
)
def test_nctdtr_partials_at_large_noncentrality_and_in_far_tails(df, nc, t, ddf, dnc, density):
    # the df-derivative is a mixture of quadratures at 1e-12; the others closed forms
    found = cotangents(sc.nctdtr, df, nc, t)
    assert found[0] == pytest.approx(ddf, rel=1e-10, abs=0)
    assert found[1] == pytest.approx(dnc, rel=1e-13, abs=0)
    assert found[2] == pytest.approx(density, rel=1e-13, abs=0)


@pytest.mark.parametrize(
    "dfn, dfd, nc, f, ddfn, ddfd",
    [
        (3.0, 5.0, 100.0, 0.2, 2.7725847609976866e-20, -1.4216710978370805e-20),
        (5.0, 10.0, 200.0, 2.0, 4.7116520883461918e-18, -1.58560057369008e-18),
    ],
)
def test_ncfdtr_df_derivatives_in_far_tails(dfn, dfd, nc, f, ddfn, ddfd):
    # made of Poisson terms of weight below 1e-18, which the mixture left out (2.9e-2 and 5e-6
    # off). References: the mixture of mpmath's betainc summed over 800 terms at 40 digits,
    # differentiated by mpmath.diff; the quadratures behind the rule are at 1e-12
    found = cotangents(sc.ncfdtr, dfn, dfd, nc, f)
    assert found[0] == pytest.approx(ddfn, rel=1e-10, abs=0)
    assert found[1] == pytest.approx(ddfd, rel=1e-10, abs=0)


def test_ncfdtr_df_derivatives_where_the_terms_lie_beyond_the_weights():
    # ncfdtr is 1 - 1e-107 here: the terms that count end near j = 100 of a Poisson mean of 13,
    # beyond the weights' bulk (mean + 10 sqrt(mean)), where the mixture ended: 1.4e-3 and 5.5x
    # off. References as NCFDTR_HUGE_DF's, below. rtol: the derivative in dfd = 1e6 is the
    # difference of two terms 1e6 times its size, each from a quadrature at 1e-12 (2.8e-10
    # measured)
    found = cotangents(sc.ncfdtr, 270.0, 1e6, 26.0, 4.6)
    assert found[0] == pytest.approx(1.0945070472848604e-107, rel=1e-11, abs=0)
    assert found[1] == pytest.approx(2.105319324837524e-114, rel=1e-9, abs=0)


@pytest.mark.parametrize(
    ("df", "dnc", "density"),
    [
        (1e3, -0.30401289766734298, 0.30395024840498721),
        (1e4, -0.38527632365639437, 0.38526673550267924),
    ],
)
def test_nctdtr_at_many_degrees_of_freedom_and_a_large_nc_t(df, dnc, density):
    # nctdtr(df, 38, 38): -E[phi(t U - nc)] and E[U phi(t U - nc)] by mpmath's quadrature at 40
    # digits. The closed forms' hyp1f1 leave the float range even divided by e^z: the density
    # came out inf at df = 1e3 (dnc -inf), NaN at 1e4 (and so every partial). rtol: the
    # quadrature's 1e-13
    found = cotangents(sc.nctdtr, df, 38.0, 38.0)
    assert found[1] == pytest.approx(dnc, rel=1e-13, abs=0)
    assert found[2] == pytest.approx(density, rel=1e-13, abs=0)


def test_nctdtr_df_derivative_at_many_degrees_of_freedom_and_a_large_nc_t():
    # a mixture that needs the density (above; it was inf): against SciPy's central difference
    # with step 0.1 (its rounding over the step, 1e-8 of it)
    h = 0.1
    expected = (sc.nctdtr(1e3 + h, 38.0, 38.0) - sc.nctdtr(1e3 - h, 38.0, 38.0)) / (2 * h)
    assert cotangents(sc.nctdtr, 1e3, 38.0, 38.0)[0] == pytest.approx(expected, rel=1e-7, abs=0)


@pytest.mark.parametrize(
    ("df", "nc", "t", "expected"),
    [
        (4.78e4, 6.65, -1.77, -4.95417322850483e-25),
        (3e4, 7.74, -2.29, -8.72375133805452e-31),
        (2.21e4, 9.71, -0.934, -5.22761529396313e-34),
        (1e6, 2.0, 3.0, 7.2590954213679162e-13),
        (1e8, 1.0, 1.0, 9.9735569684793292e-18),
    ],
)
def test_nctdtr_df_derivative_at_many_degrees_of_freedom(df, nc, t, expected):
    # by mpmath: E[ndtr(t U - nc)] by quadrature at 50 digits, central differences with step
    # 1e-15 df. The difference of two terms of the order of 1/df cancelled: 12% off at the first,
    # 3.7e-27 for -8.7e-31 at the second, 8e-8 at the last. rtol: the expansion in 1/df holds to
    # 1e-10 at its threshold (8.5e-11 at worst, measured), far better beyond it, as here
    assert cotangents(sc.nctdtr, df, nc, t)[0] == pytest.approx(expected, rel=1e-12, abs=0)


@pytest.mark.parametrize(
    ("df", "nc", "t", "expected"),
    [
        (1e3, 6.0, -1.5, -1.150993019308153e-18),
        (50.0, 20.0, -1.0, -1.080173553780015e-98),
        (10.0, 5.0, -2.0, -1.3172713675604367e-11),
        (150.0, 8.0, -0.3, -5.1342991509486198e-21),
    ],
)
def test_nctdtr_df_derivative_in_the_tail_of_t_and_nc_of_opposite_signs(df, nc, t, expected):
    # by mpmath: E[ndtr(t U - nc)] by quadrature in log V at 60 digits, central differences
    # with step 1e-20 df. The mixture's terms alternate there and cancelled to the tail: 1.5e-4
    # off at the first, 6.4e3 times the derivative at the second, 2.9e-8 at the third. rtol:
    # the quadrature's 1e-13 and, at the last, a mass near V = 1 where the score changes sign
    # (2.3e-12 measured)
    assert cotangents(sc.nctdtr, df, nc, t)[0] == pytest.approx(expected, rel=1e-11, abs=0)
    # mirrored: nctdtr(df, -nc, -t) = 1 - nctdtr(df, nc, t)
    assert cotangents(sc.nctdtr, df, -nc, -t)[0] == pytest.approx(-expected, rel=1e-11, abs=0)


def test_nctdtr_df_derivative_in_a_tail_at_a_tiny_df():
    # the law of log V is e^(df y / 2) wide toward y = -inf: one quad over that side stopped
    # at its roundoff, 1.6e-4 off. By mpmath as above (SciPy's nctdtr there is 4.6e-20 for the
    # 4.9e-198 of mpmath's quadrature). rtol: 9e-11 measured
    got = cotangents(sc.nctdtr, 0.001, 30.0, -0.5)[0]
    assert got == pytest.approx(-3.069088960574519e-197, rel=1e-9, abs=0)


@pytest.mark.parametrize(
    ("df", "nc", "t", "expected"),
    [
        (0.5, 0.0, -1e9, -2.129608569765851e-4),
        (0.01, 1.0, -1e10, -3.164928280197215),
        (0.01, 1.0, 1e10, 16.25833631924177),
        (1.0, 1.0, 1e8, 1.541355123970999e-7),
        (3.0, 1.0, 1e5, 5.845511470547199e-14),
    ],
)
def test_nctdtr_df_derivative_where_t_squared_is_far_above_df(df, nc, t, expected):
    # by mpmath: the smaller tail's df-derivative as E[ndtr(+-(t U - nc)) score] by quadrature
    # in log V at 50 digits (V = chi2_df / df, the score d log p / d(df)). x = t^2 / (t^2 + df)
    # rounded to 1, where betainc's derivatives vanish: 5.1e-6 for -2.1e-4 at the first, 0.061
    # for -3.16 at the second, the wrong sign at the first three, 1.3e-7 off at the last. rtol:
    # betainc's shape derivatives (quadrature, 1e-12)
    assert cotangents(sc.nctdtr, df, nc, t)[0] == pytest.approx(expected, rel=1e-12, abs=0)


# d/d(dfn), d/d(dfd) ncfdtr where a degree of freedom is huge: mpmath's mixture of betainc (or
# of its complement where ncfdtr is above 1/2) at 90 digits, central differences with step
# 1e-35 times the argument. The derivative in the huge one was the difference of two terms of
# the order of 1/df: 2.9e-20 for -3.6e-25 at (1e12, 2.5, 1, 0.5), 61% off at (2.5, 1e14, 3, 3);
# the other took betainc at w = dfn f / (dfn f + dfd) rounded to 1 (3% off at (1e15, 3, 2, 2))
NCFDTR_HUGE_DF = [
    (1e15, 3.0, 2.0, 2.0, 6.058486460464785e-31, 0.06227814913683098),
    (1e12, 2.5, 1.0, 0.5, -3.5585882085292545e-25, -0.02384612118812365),
    (1e8, 2.5, 3.0, 0.5, 2.1351525053558877e-17, -0.02384611991831429),
    (1e10, 4.0, 20.0, 1.5, 9.216136967946889e-20, 0.037428439401194204),
    (2.5, 1e14, 3.0, 3.0, 0.11443970382651832, 7.198426532744383e-29),
    (3.0, 1e9, 10.0, 2.0, 0.05700718474682073, -2.56278782936314e-19),
    (20.0, 1e10, 5.0, 0.5, -0.0008027003359662348, -2.5041093753510603e-21),
]


@pytest.mark.parametrize("dfn, dfd, nc, f, ddfn, ddfd", NCFDTR_HUGE_DF)
def test_ncfdtr_df_derivatives_at_a_huge_df(dfn, dfd, nc, f, ddfn, ddfd):
    # rtol: the expansion in 1/df holds to 1e-11 from its threshold on (1e-13 measured here)
    found = cotangents(sc.ncfdtr, dfn, dfd, nc, f)
    assert found[0] == pytest.approx(ddfn, rel=1e-11, abs=0)
    assert found[1] == pytest.approx(ddfd, rel=1e-11, abs=0)


@pytest.mark.parametrize(
    "df, nc, t, density",
    [
        (1000.0, 5.0, 5.0, 0.39637323315034847),
        (1000.0, 5.0, 4.0, 0.24214515189010606),
        (400.0, 3.0, -1.0, 0.00013466534225703446),
    ],
)
def test_noncentral_t_density_at_many_degrees_of_freedom(df, nc, t, density):
    # the textbook form's exp of its log-scale overflowed from df = 342, beside 1/gamma factors
    # at the bottom of the floats: inf; its gamma functions are now one ratio
    # gamma((df + 1)/2) / gamma(df/2)
    assert noncentral.noncentral_t_density(df, nc, t) == pytest.approx(density, rel=1e-13, abs=0)


@pytest.mark.parametrize("nc", [0.5, 1.0, 2.5])
def test_nctdtr_nc_derivative_where_t_squared_over_df_overflows(nc):
    # at df = 1e-300 and t = 1e8 the law is that of Z + nc's sign (U = sqrt(chi2_df / df)
    # is huge): the derivative in nc is -phi(nc), to 1e-297. t^2 / df overflowed, and the
    # power (df / s)^(df / 2) = 1 came out 0
    found = cotangents(sc.nctdtr, 1e-300, nc, 1e8)[1]
    assert found == pytest.approx(-np.exp(-nc * nc / 2) / np.sqrt(2 * np.pi), rel=1e-15, abs=0)


def test_nctdtr_nc_derivative_where_hyp1f1s_parameters_coincide():
    # at df = 1e-300, (df + 1)/2 - df/2 rounds to 1/2, and SciPy's hyp1f1(1/2, 1/2, -5e15)
    # does not return; it is e^-5e15 = 0. The derivative, -E[phi(t U - nc)] at nc = 1e8, is
    # below the smallest normal float
    dnc = noncentral.nctdtr_dnc(1e-300, 1e8, 0.5)
    assert dnc == pytest.approx(0.0, abs=1e-300)
