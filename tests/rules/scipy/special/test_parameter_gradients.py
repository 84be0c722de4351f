"""Tests of the rules of parameter gradients, on functions whose derivatives are known exactly."""

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule

import chainrules as cr
from chainrules.engines import call, reverse
from chainrules.rules.scipy.special.parameter_gradients import (
    derivative_rules,
    gradient_rules,
    hessian_rows,
)


def product_gradient(a, b, x):
    """The gradient in (a, b) of f = a^2 b x: (2 a b x, a^2 x)."""
    return 2 * a * b * x, a * a * x


gradient_rules(
    product_gradient,
    lambda a, b, x: (2 * b * x, 2 * a * x, 0 * x),
    lambda a, b, x: ((2 * a * b, a * a),),
    2,
)


def cube_derivative(n, a, x):
    """The derivative in a of f = n a^3 x (n an integer): 3 n a^2 x."""
    return 3 * n * a * a * x


derivative_rules(
    cube_derivative,
    lambda n, a, x: 6 * n * a * x,
    lambda n, a, x, y: 3 * n * a * a,
    3,
    position=1,
)


def test_hessian_rows_are_symmetric():
    assert hessian_rows((1, 2, 3, 4, 5, 6), 3) == [[1, 2, 3], [2, 4, 5], [3, 5, 6]]


def test_gradient_rules_pass_the_harness():
    # their own second derivatives would be third ones of f in its parameters: not given
    a, b, x = np.array([0.5, 1.5]), np.array([2.0, -1.0]), np.array([0.3, 0.7])
    test_rrule(product_gradient, a, b, x, check_second_order=False)
    test_frule(product_gradient, a, b, x, check_second_order=False)


def test_parameter_cotangents_are_thunked():
    _, pullback = cr.rrule(product_gradient, 1.0, 2.0, 3.0)
    _, da, db, dx = pullback((1.0, 0.0))
    assert isinstance(da, cr.Thunk) and isinstance(db, cr.Thunk)
    assert (cr.unthunk(da), cr.unthunk(db), dx) == (12.0, 6.0, 4.0)


def test_derivative_rules_give_second_derivatives_and_skip_integers():
    # through call, as rules call them: the engines then use these rules, not the Python code
    f = lambda a, x: call(cube_derivative, 2, a, x)
    assert reverse.grad(f)(1.5, 0.5) == pytest.approx(6 * 2 * 1.5 * 0.5)
    assert reverse.grad(f, argnums=1)(1.5, 0.5) == pytest.approx(3 * 2 * 1.5**2)
    _, pullback = cr.rrule(cube_derivative, 2, 1.5, 0.5)
    assert pullback(1.0)[1] is cr.NoTangent()


def test_third_derivative_in_a_parameter_names_the_function():
    with pytest.raises(cr.ChainRulesError, match=r"product_gradient.*numerically on NumPy"):
        reverse.grad(lambda a: reverse.grad(lambda b: call(product_gradient, a, b, 1.0)[0])(2.0))(
            1.0
        )
