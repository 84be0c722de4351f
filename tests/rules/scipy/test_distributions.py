"""Tests of the rules for the chi-squared, gamma, Poisson and Student's t distribution functions."""

import pytest
import scipy.special as sc
from samples import Row, case_id, cases, check_frule, check_rrule

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


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_distributions(case):
    check_rrule(case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_distributions(case):
    check_frule(case)


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
