"""Tests of the rules for the chi-squared, gamma, Poisson, Student's t and F distribution functions,
their inverses pdtri, fdtri, stdtrit, chdtri, and Tukey's lambda distribution tklmbda."""

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
