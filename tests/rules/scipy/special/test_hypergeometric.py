"""Tests of the rules for hyp1f1, hyp2f1, hyperu, wright_bessel and log_wright_bessel: the
argument, and parameters not implemented."""

import math

import numpy as np
import pytest
import scipy.special as sc
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, unthunk

PARAMETER = (0.3, 2.0)
REASON = (
    "parameter derivatives are NotImplementedTangent (hyp2f1, complex x) or series on NumPy "
    "values: not differentiable again"
)
SHAPES_3 = (((3,), (), (3,)), ((2, 3), (), (3,)), ((2, 1), (), (1, 4)), ((), (), ()))
SHAPES_4 = (((3,), (), (), (3,)), ((2, 1), (), (), (1, 4)), ((), (), (), ()))

ROWS = [
    Row(
        sc.hyp1f1,
        (PARAMETER, (1.0, 3.0), (-2.0, 2.0)),
        complex=True,
        shapes=SHAPES_3,
        second_order=False,
        reason=REASON,
    ),
    Row(
        sc.hyp2f1,
        (PARAMETER, PARAMETER, (1.0, 3.0), (-0.8, 0.8)),
        complex=True,
        shapes=SHAPES_4,
        second_order=False,
        reason=REASON,
    ),
]
CASES = cases(ROWS)

test_rrule_hypergeometric, test_frule_hypergeometric = table_tests(CASES)


# ---- hyperu, wright_bessel, log_wright_bessel -----------------------------------------------

XI = (0.5, 4.5)
SHAPE = (0.2, 2.0)
FIRST3 = (((3,), (3,), (3,)),)
PARAMETRIC = [sc.hyperu, sc.wright_bessel, sc.log_wright_bessel]
NO_FORMULA = "a parameter derivative is NotImplementedTangent; second order on integer ones"

PARAMETRIC_ROWS = [
    *(Row(f, (SHAPE, SHAPE, XI), second_order=False, reason=NO_FORMULA) for f in PARAMETRIC),
    *(Row(f, ((0, 3), (1, 3), XI), integer=(0, 1), shapes=FIRST3) for f in PARAMETRIC),
]
PARAMETRIC_CASES = cases(PARAMETRIC_ROWS)

test_rrule_special_more, test_frule_special_more = table_tests(PARAMETRIC_CASES)


def test_known_values():
    # 1F1(1; 1; x) = exp(x); 2F1(1, 1; 2; z) = -log(1 - z) / z
    assert cr.rrule(sc.hyp1f1, 1.0, 1.0, 0.5)[1](1.0)[3] == pytest.approx(math.exp(0.5))
    z = 0.4
    expected = math.log(1 - z) / z**2 + 1 / (z * (1 - z))
    assert cr.rrule(sc.hyp2f1, 1.0, 1.0, 2.0, z)[1](1.0)[4] == pytest.approx(expected)


# (a, b, x, dM/da, dM/db) from mpmath's numerical differentiation at 30 digits: a polynomial
# (a = -2), Kummer's side (x < 0) and large terms (x = 20).
HYP1F1_POINTS = [
    (1.0, 1.0, 0.5, 0.73177187667320089, -0.73177187667320089),
    (-2.0, 1.5, 3.0, -0.76762918724267135, 0.10666666666666667),
    (0.7, 2.2, -12.0, -0.51528399219499732, 0.094798148823690878),
    (2.5, 0.6, 20.0, 451121698186.84257, -848750531610.75735),
]


@pytest.mark.parametrize("a, b, x, da, db", HYP1F1_POINTS)
def test_hyp1f1_parameter_derivatives_reference_values(a, b, x, da, db):
    cotangents = cr.rrule(sc.hyp1f1, a, b, x)[1](1.0)
    assert isinstance(cotangents[1], cr.Thunk)
    assert unthunk(cotangents[1]) == pytest.approx(da, rel=1e-10)
    assert unthunk(cotangents[2]) == pytest.approx(db, rel=1e-10)


def test_parameters_not_implemented():
    _, pullback = cr.rrule(sc.hyp2f1, 1.0, 1.5, 2.0, np.array([0.1, 0.2]))
    cotangents = pullback(np.ones(2))
    for i, name in zip((1, 2, 3), "abc", strict=True):
        assert isinstance(cotangents[i], NotImplementedTangent)
        assert f"parameter {name}" in cotangents[i].info
    _, tangent = cr.frule((NoTangent(), 1.0, 0.0, 0.0, 0.0), sc.hyp2f1, 1.0, 2.0, 3.0, 0.5)
    assert isinstance(tangent, NotImplementedTangent)
    _, tangent = cr.frule((NoTangent(), 1.0, 0.0, 0.0), sc.hyp1f1, 1.0, 2.0, 0.5 + 0.5j)
    assert isinstance(tangent, NotImplementedTangent)
    _, tangent = cr.frule((NoTangent(), 0.0, 0.0, 1.0), sc.hyp1f1, 1.0, 2.0, 0.5)
    assert tangent == pytest.approx(0.5 * sc.hyp1f1(2.0, 3.0, 0.5))


def test_parameter_functions_values():
    a, b, x = 0.7, 1.3, 1.1
    assert cr.rrule(sc.hyperu, a, b, x)[1](1.0)[3] == -a * sc.hyperu(a + 1, b + 1, x)
    assert isinstance(cr.rrule(sc.hyperu, a, b, x)[1](1.0)[1], NotImplementedTangent)
    assert cr.rrule(sc.wright_bessel, a, b, x)[1](1.0)[3] == sc.wright_bessel(a, a + b, x)
    assert cr.rrule(sc.hyperu, 1, 2, x)[1](1.0)[1:3] == (NoTangent(), NoTangent())
    # d/da of besselpoly(a, l, v) = besselpoly(a, l+1, v-1) - besselpoly(a, l+1, v+1).
    expected = sc.besselpoly(x, 1.5, -1.0) - sc.besselpoly(x, 1.5, 1.0)
    assert cr.rrule(sc.besselpoly, x, 0.5, 0.0)[1](1.0)[1] == pytest.approx(expected)
