"""Tests of jets: values with their gradient and Hessian in parameters."""

import math

import numpy as np
import pytest
import scipy.special as sc

from chainrules.rules.scipy.special.jets import (
    Jet,
    broadcast_jets,
    compose,
    gradient_of,
    hessian_of,
    jet_exp,
    jet_gammaln,
    jet_log,
    jet_power,
    jet_rgamma,
    jet_where,
    parameter_jets,
    sum_series,
    sum_terms,
)


def _gradient(u, v):
    """The gradient of a^2 b / (a + b), by hand."""
    s = u + v
    return (u * u * v + 2 * u * v * v) / s**2, u**3 / s**2


def test_arithmetic_is_the_product_and_quotient_rules():
    # f(a, b) = a^2 b / (a + b) at (1.5, 2.0): the gradient by hand, the Hessian as its
    # central differences (step 1e-5: error about 1e-10)
    a, b = parameter_jets(1.5, 2.0)
    f = a * a * b / (a + b)
    assert gradient_of(f) == pytest.approx(_gradient(1.5, 2.0), rel=1e-15)
    h, e = 1e-5, hessian_of(f)
    faa = (_gradient(1.5 + h, 2.0)[0] - _gradient(1.5 - h, 2.0)[0]) / (2 * h)
    fab = (_gradient(1.5, 2.0 + h)[0] - _gradient(1.5, 2.0 - h)[0]) / (2 * h)
    fbb = (_gradient(1.5, 2.0 + h)[1] - _gradient(1.5, 2.0 - h)[1]) / (2 * h)
    assert e == pytest.approx((faa, fab, fbb), rel=1e-9)


def test_constants_broadcast_against_jets():
    (a,) = parameter_jets(2.0)
    y = a * np.array([1.0, 2.0, 3.0]) + np.array([[0.0], [1.0]])
    assert y.value.shape == (2, 3) and y.gradient.shape == (1, 2, 3)
    np.testing.assert_array_equal(y.gradient[0], np.broadcast_to([1.0, 2.0, 3.0], (2, 3)))
    x, s = broadcast_jets(a, np.zeros(4))
    assert x.hessian.shape == (1, 1, 4) and s.shape == (4,)


def test_functions_chain():
    (x,) = parameter_jets(0.7)
    for jet, f, f1, f2 in (
        (jet_exp(x), math.exp(0.7), math.exp(0.7), math.exp(0.7)),
        (jet_log(x), math.log(0.7), 1 / 0.7, -1 / 0.49),
        (jet_power(3.0, x), 3**0.7, 3**0.7 * math.log(3), 3**0.7 * math.log(3) ** 2),
        (jet_gammaln(x), sc.gammaln(0.7), sc.digamma(0.7), sc.polygamma(1, 0.7)),
    ):
        expected = tuple(float(v) for v in (f, f1, f2))
        found = (float(jet.value), float(jet.gradient[0]), float(jet.hessian[0, 0]))
        assert found == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize("n", [0, 1, 2, 5])
def test_reciprocal_gamma_at_its_zeros(n):
    # 1/gamma(-n + e) = (-1)^n n! e (1 - psi(n + 1) e + ...)
    (x,) = parameter_jets(float(-n))
    r = jet_rgamma(x)
    sign = (-1) ** n
    assert float(r.value) == 0.0
    assert float(r.gradient[0]) == sign * math.factorial(n)
    assert float(r.hessian[0, 0]) == pytest.approx(
        -2 * sign * math.factorial(n) * sc.digamma(n + 1), rel=1e-14
    )


def test_compose_is_the_multivariate_chain_rule():
    x, y = parameter_jets(2.0, 3.0)
    u, v = x * y, x + y  # f(u, v) = u v at (6, 5)
    f = compose(30.0, [5.0, 6.0], [[0.0, 1.0], [1.0, 0.0]], [u, v])
    g = u * v
    np.testing.assert_allclose(f.gradient, g.gradient, rtol=1e-15)
    np.testing.assert_allclose(f.hessian, g.hessian, rtol=1e-15)


def test_where_and_first_order():
    (x,) = parameter_jets(np.array([1.0, 2.0]), order=1)
    assert x.hessian is None and x.order == 1
    y = jet_where(np.array([True, False]), x * x, x + 1)
    assert y.gradient.tolist() == [[2.0, 1.0]]


def test_sums_stop_when_settled_and_are_nan_when_not():
    (x,) = parameter_jets(0.5)
    # sum_n x^n / n! = e^x, with its derivatives
    y = sum_series(Jet.constant(1.0, 1), lambda n: x / (n + 1))
    assert float(y.value) == pytest.approx(math.exp(0.5), rel=1e-15)
    assert float(y.hessian[0, 0]) == pytest.approx(math.exp(0.5), rel=1e-15)
    # sum_n 1 does not converge in 20 terms
    z = sum_terms(lambda n: Jet.constant(1.0, 1), max_terms=20)
    assert np.isnan(z.value) and np.all(np.isnan(z.gradient))
