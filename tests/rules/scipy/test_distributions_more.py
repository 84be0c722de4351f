"""Tests of the rules for more distribution functions and inverses, voigt_profile and softplus."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_scalar
from samples import Row, case_id, cases, check_frule, check_rrule, midpoint

import chainrules as cr
from chainrules import NoTangent

NUMERIC = "degrees-of-freedom derivatives by quadrature are not differentiable again"
SCIPY_DENSITY = "the derivative is SciPy's own density ufunc, which has no rule"
ROWS = [
    Row(sc.bdtr, ((0, 4), (5, 9), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.bdtrc, ((0, 4), (5, 9), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.nbdtr, ((0, 4), (1, 6), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.nbdtrc, ((0, 4), (1, 6), (0.1, 0.9)), integer=(0, 1)),
    Row(sc.fdtr, ((1.0, 6.0), (2.0, 8.0), (0.3, 3.0)), second_order=False, reason=NUMERIC),
    Row(sc.fdtrc, ((1.0, 6.0), (2.0, 8.0), (0.3, 3.0)), second_order=False, reason=NUMERIC),
    Row(sc.fdtri, ((1.0, 6.0), (2.0, 8.0), (0.2, 0.8)), second_order=False, reason=NUMERIC),
    Row(sc.stdtrit, ((1.0, 9.0), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    Row(sc.chdtri, ((1.0, 6.0), (0.1, 0.9)), second_order=False, reason=NUMERIC),
    # integer degrees of freedom: second derivatives in the argument
    Row(sc.fdtr, ((1, 6), (2, 8), (0.3, 3.0)), integer=(0, 1)),
    Row(sc.fdtrc, ((1, 6), (2, 8), (0.3, 3.0)), integer=(0, 1)),
    Row(sc.fdtri, ((1, 6), (2, 8), (0.2, 0.8)), integer=(0, 1)),
    Row(sc.stdtrit, ((1, 9), (0.1, 0.9)), integer=(0,)),
    Row(sc.chdtri, ((1, 6), (0.1, 0.9)), integer=(0,)),
    Row(sc.bdtri, ((0, 4), (5, 9), (0.2, 0.8)), integer=(0, 1)),
    Row(sc.nbdtri, ((0, 4), (1, 6), (0.2, 0.8)), integer=(0, 1)),
    Row(sc.pdtri, ((0, 5), (0.2, 0.8)), integer=(0,)),
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
    Row(sc.smirnov, ((1, 6), (0.05, 0.9)), integer=(0,), second_order=False, reason=SCIPY_DENSITY),
    Row(sc.kolmogorov, ((0.3, 2.0),), second_order=False, reason=SCIPY_DENSITY),
    Row(sc.voigt_profile, ((-2.0, 2.0), (0.5, 2.0), (0.1, 1.5))),
    Row(sc.softplus, ((-3.0, 3.0),)),
]
CASES = cases(ROWS)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_rrule_distributions_more(case):
    check_rrule(case)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_frule_distributions_more(case):
    check_frule(case)


@pytest.mark.parametrize("row", [r for r in ROWS if len(r.domain) == 1], ids=repr)
def test_scalar_distributions_more(row):
    test_scalar(row.f, midpoint(row), check_second_order=row.second_order)


# ---- hard points ----------------------------------------------------------------------------


def cotangents(f, *args):
    return tuple(cr.unthunk(g) for g in cr.rrule(f, *args)[1](1.0)[1:])


def test_integer_counts_have_no_tangent():
    for f in (sc.bdtr, sc.bdtrc, sc.nbdtr, sc.nbdtrc, sc.bdtri, sc.nbdtri):
        assert cotangents(f, 2, 6, 0.4)[:2] == (NoTangent(), NoTangent())
    assert cotangents(sc.pdtri, 2, 0.4)[0] is NoTangent()


def test_bdtr_with_every_success_is_constant():
    # bdtr(n, n, p) = 1 for every p
    assert cotangents(sc.bdtr, 6, 6, 0.4)[2] == 0.0
    assert cotangents(sc.bdtr, 0, 1, 0.25)[2] == -1.0


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


def test_voigt_profile_limits():
    # gamma = 0: the normal density, whose derivative in x is -x / sigma**2 times it
    x, sigma = 0.7, 1.3
    dx = cotangents(sc.voigt_profile, x, sigma, 0.0)[0]
    assert dx == pytest.approx(-x / sigma**2 * sc.voigt_profile(x, sigma, 0.0), rel=1e-13)
    assert cotangents(sc.voigt_profile, 0.0, sigma, 0.4)[0] == pytest.approx(0.0, abs=1e-17)


def test_softplus_derivative_at_zero():
    assert cotangents(sc.softplus, 0.0)[0] == 0.5


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
