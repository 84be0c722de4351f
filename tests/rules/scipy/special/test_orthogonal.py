"""Tests of the rules for the orthogonal polynomials (assoc_laguerre too): the derivative in x,
degrees, parameters."""

import numpy as np
import pytest
import scipy.special as sc
from chainrules_testing import test_frule, test_rrule
from samples import Row, cases, table_tests

import chainrules as cr
from chainrules import NoTangent, NotImplementedTangent, ZeroTangent

DEGREE = (0, 6)
X = (-0.95, 0.95)
UNIT = (0.05, 0.95)
PARAMETER = (-0.4, 1.8)
SHAPES_3 = (((3,), (), (3,)), ((2, 3), (), (3,)), ((2, 1), (), (1, 4)), ((), (), ()))
SHAPES_4 = (((3,), (), (), (3,)), ((2, 1), (), (), (1, 4)), ((), (), (), ()))
SHAPES_3N = (((3,), (3,), (3,)), ((2, 1), (), (1, 4)))
SHAPES_4N = (((3,), (3,), (3,), (3,)), ((2, 1), (), (), (1, 4)))
PARAMETERS = "parameter derivatives are NotImplementedTangent"


def parametric(f, domain, second_order=True):
    """A row of a polynomial with continuous parameters: an integer degree first, complex x,
    the shapes of its arity; without second order, the parameters' NotImplementedTangent is why."""
    shapes = SHAPES_3 + SHAPES_3N if len(domain) == 3 else SHAPES_4 + SHAPES_4N
    reason = "" if second_order else PARAMETERS
    return Row(
        f,
        domain,
        integer=(0,),
        complex=True,
        shapes=shapes,
        second_order=second_order,
        reason=reason,
    )


ROWS = [
    Row(sc.eval_legendre, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyt, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyu, (DEGREE, X), integer=(0,), complex=True),
    Row(sc.eval_chebyc, (DEGREE, (-1.9, 1.9)), integer=(0,), complex=True),
    Row(sc.eval_chebys, (DEGREE, (-1.9, 1.9)), integer=(0,), complex=True),
    Row(sc.eval_laguerre, (DEGREE, (0.0, 4.0)), integer=(0,), complex=True),
    Row(sc.eval_hermite, (DEGREE, (-2.0, 2.0)), integer=(0,)),
    Row(sc.eval_hermitenorm, (DEGREE, (-2.0, 2.0)), integer=(0,)),
    Row(sc.eval_sh_legendre, (DEGREE, UNIT), integer=(0,), complex=True),
    Row(sc.eval_sh_chebyt, (DEGREE, UNIT), integer=(0,), complex=True),
    Row(sc.eval_sh_chebyu, (DEGREE, UNIT), integer=(0,), complex=True),
    # Continuous parameters drawn as arrays: their cotangents are NotImplementedTangent, which
    # the harness skips in the rrule check; the frule check cannot separate them from x at second
    # order, so second order in x is checked by test_second_order_in_x through the rrule.
    parametric(sc.eval_gegenbauer, (DEGREE, (0.2, 1.8), X), second_order=False),
    parametric(sc.eval_genlaguerre, (DEGREE, PARAMETER, (0.0, 4.0))),
    parametric(sc.eval_jacobi, (DEGREE, PARAMETER, PARAMETER, X), second_order=False),
    parametric(sc.eval_sh_jacobi, (DEGREE, (1.2, 3.0), (0.5, 1.1), UNIT), second_order=False),
]
CASES = cases(ROWS)

test_rrule_orthogonal, test_frule_orthogonal = table_tests(CASES)


SECOND_ORDER = [
    (sc.eval_gegenbauer, (0.7,), X),
    (sc.eval_jacobi, (0.5, 1.5), X),
    (sc.eval_sh_jacobi, (2.5, 1.5), UNIT),
]


@pytest.mark.parametrize("f, parameters, domain", SECOND_ORDER, ids=repr)
def test_second_order_in_x(f, parameters, domain):
    x = np.linspace(*domain, 3)
    test_rrule(f, np.array([0, 2, 5]), *map(np.float64, parameters), x, check_second_order=True)


# (function, arguments, derivative in x): the endpoints x = +-1 are regular, degree 0 is flat.
HARD_POINTS = [
    (sc.eval_legendre, (4, 1.0), 10.0),  # n (n + 1) / 2
    (sc.eval_legendre, (4, -1.0), -10.0),
    (sc.eval_chebyt, (3, 1.0), 9.0),  # n^2
    (sc.eval_chebyu, (3, 1.0), 20.0),  # n (n + 1) (n + 2) / 3
    (sc.eval_sh_legendre, (2, 1.0), 6.0),
    (sc.eval_sh_chebyt, (2, 0.0), -8.0),
    (sc.eval_hermite, (3, 0.0), -12.0),
    (sc.eval_hermitenorm, (3, 0.0), -3.0),
    (sc.eval_laguerre, (2, 0.0), -2.0),
    (sc.eval_genlaguerre, (2, 1.0, 0.0), -3.0),
    (sc.eval_chebyc, (2, 0.0), 0.0),
    (sc.eval_chebys, (2, 0.0), 0.0),
    (sc.eval_jacobi, (1, 0.5, 1.5, 0.3), 2.0),  # (a + b + 2) / 2
    (sc.eval_gegenbauer, (2, 1.5, 1.0), 15.0),  # 2a C_1^(a+1)(1) = 2a * 2(a + 1)
    (sc.eval_legendre, (0, 0.3), 0.0),
    (sc.eval_jacobi, (0, 0.5, 1.5, 0.3), 0.0),
    (sc.eval_sh_jacobi, (0, 2.0, 1.0, 0.3), 0.0),
]


@pytest.mark.parametrize("f, args, expected", HARD_POINTS, ids=lambda p: getattr(p, "__name__", ""))
def test_hard_points(f, args, expected):
    cotangents = cr.rrule(f, *args)[1](1.0)
    assert cotangents[1] is NoTangent()
    assert cotangents[-1] == pytest.approx(expected, abs=1e-12)


def test_parameters_not_implemented():
    _, pullback = cr.rrule(sc.eval_jacobi, 3, 0.5, 1.5, np.array([0.1, 0.2]))
    cotangents = pullback(np.ones(2))
    for i, name in ((2, "alpha"), (3, "beta")):
        assert isinstance(cotangents[i], NotImplementedTangent)
        assert f"parameter {name}" in cotangents[i].info
    _, tangent = cr.frule((NoTangent(), NoTangent(), 1.0, 0.0), sc.eval_gegenbauer, 2, 0.5, 0.3)
    assert isinstance(tangent, NotImplementedTangent)
    _, tangent = cr.frule((NoTangent(), NoTangent(), 0.0, 1.0), sc.eval_gegenbauer, 2, 0.5, 0.3)
    assert tangent == pytest.approx(2 * 0.5 * sc.eval_gegenbauer(1, 1.5, 0.3))


def test_laguerre_parameter():
    # d/da L_2^(a)(x) = L_0 / 2 + L_1^(a)(x) = 1/2 + 1 + a - x; degree 0 is constant in a.
    assert cr.rrule(sc.eval_genlaguerre, 2, 0.5, 0.3)[1](1.0)[2] == pytest.approx(1.7)
    assert cr.rrule(sc.eval_genlaguerre, 0, 0.5, 0.3)[1](1.0)[2] == 0.0
    dalpha = cr.rrule(sc.eval_genlaguerre, 2.5, 0.5, 0.3)[1](1.0)[2]
    assert isinstance(dalpha, NotImplementedTangent)


def test_zero_cotangent():
    assert cr.rrule(sc.eval_legendre, 2, 0.5)[1](ZeroTangent())[2] is ZeroTangent()


# ---- assoc_laguerre: eval_genlaguerre with the argument first -------------------------------

LAGUERRE = [
    ((np.array([0.3, 1.5, 4.0]), 3), {}),
    ((np.array([0.3, 1.5, 4.0]), 3, 0.7), {}),
    ((np.array([0.3, 1.5, 4.0]), np.array([0, 2, 5]), np.array([0.2, 1.5, -0.5])), {}),
    ((np.array([0.3, 1.5, 4.0]), 3), {"k": 1.5}),
    ((1.2, 4, 2.0), {}),
]


@pytest.mark.parametrize(("args", "kwargs"), LAGUERRE, ids=repr)
def test_assoc_laguerre_rules(args, kwargs):
    test_rrule(sc.assoc_laguerre, *args, fkwargs=kwargs)
    test_frule(sc.assoc_laguerre, *args, fkwargs=kwargs)


def test_assoc_laguerre_values():
    x, n, k = 1.3, 4, 0.6
    cotangents = cr.rrule(sc.assoc_laguerre, x, n, k)[1](1.0)
    assert cotangents[1] == pytest.approx(-sc.eval_genlaguerre(n - 1, k + 1, x))
    assert cotangents[2] is NoTangent()
    expected = sum(sc.eval_genlaguerre(j, k, x) / (n - j) for j in range(n))
    assert cotangents[3] == pytest.approx(expected)
    assert isinstance(cr.rrule(sc.assoc_laguerre, x, 2.5, k)[1](1.0)[3], NotImplementedTangent)
