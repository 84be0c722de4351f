"""Host functions inside JAX: how many callbacks a derivative takes, and what they give."""

import numpy as np
import pytest
import scipy.special as sc

jax = pytest.importorskip("jax")

from adapter_cases import betainc_derivative, jax_precision  # noqa: E402

from chainrules.adapters import jax as cr_jax  # noqa: E402

jnp = jax.numpy


@pytest.fixture(autouse=True)
def float64():
    """Values compared with SciPy's to a few roundings need double precision."""
    with jax_precision(x64=True):
        yield


def callbacks(f, *args):
    """The number of outputs of each ``pure_callback`` in the jaxpr of ``f(*args)``, at any
    depth (inside ``custom_vjp_call``, ``pjit``...), in order."""
    found = []

    def walk(jaxpr):
        for eqn in jaxpr.eqns:
            if eqn.primitive.name == "pure_callback":
                found.append(len(eqn.outvars))
            for value in eqn.params.values():
                inner = getattr(value, "jaxpr", value)  # a ClosedJaxpr holds its Jaxpr
                if hasattr(inner, "eqns"):
                    walk(inner)

    walk(jax.make_jaxpr(f)(*args).jaxpr)
    return found


def test_value_and_gradient_of_an_elementwise_function_take_one_callback():
    f = cr_jax.wrap(sc.gammaln)
    x = jnp.asarray([1.5, 2.5, 4.0])
    loss = lambda v: jnp.sum(f(v))
    # One callback gives the value and the partials; the backward pass multiplies in JAX
    # (the pullback path makes a second callback in the backward pass).
    assert callbacks(jax.value_and_grad(loss), x) == [2]
    assert callbacks(jax.grad(loss), x) == [2]
    value, gradient = jax.jit(jax.value_and_grad(loss))(x)
    # gammaln and digamma computed by SciPy in the callback: the same floats
    assert float(value) == pytest.approx(np.sum(sc.gammaln(np.asarray(x))), rel=1e-15)
    np.testing.assert_allclose(gradient, sc.digamma(np.asarray(x)), rtol=1e-15)


def test_partials_are_computed_for_the_perturbed_operands_only():
    f = cr_jax.wrap(sc.betainc)
    point = (2.0, 3.0, 0.4)
    # In x alone: the value and one partial; the quadratures in a and b are never run.
    assert callbacks(jax.grad(f, 2), *point) == [2]
    assert callbacks(jax.grad(f, (0, 1, 2)), *point) == [4]
    # dI/dx is closed-form and dI/da, dI/db come from quadrature (relative accuracy ~1e-10).
    gradient = jax.grad(f, (0, 1, 2))(*point)
    for k, g in enumerate(gradient):
        order = tuple(int(i == k) for i in range(3))
        assert float(g) == pytest.approx(betainc_derivative(order, point), rel=1e-8)


def test_a_broadcast_operand_takes_the_pullback():
    # a is a scalar for three values of x: its cotangent sums over them, which the
    # partials of an elementwise function cannot give; the pullback does.
    f = cr_jax.wrap(sc.betainc)
    xs = jnp.asarray([0.2, 0.4, 0.7])
    loss = lambda a: jnp.sum(f(a, 3.0, xs))
    assert callbacks(jax.grad(loss), 2.0) == [1, 1]  # the value, then the pullback
    expected = sum(betainc_derivative((1, 0, 0), (2.0, 3.0, float(x))) for x in xs)
    # quadrature, relative accuracy ~1e-10 per term
    assert float(jax.jit(jax.grad(loss))(2.0)) == pytest.approx(expected, rel=1e-8)


def test_partials_to_the_third_order_and_under_vmap():
    f = cr_jax.wrap(sc.gammaln)
    x = jnp.asarray([0.5, 1.5, 3.0])
    d2 = jax.jit(jax.vmap(jax.grad(jax.grad(f))))(x)
    d3 = jax.vmap(jax.grad(jax.grad(jax.grad(f))))(x)
    # SciPy's polygamma against the rules' polygamma: the same SciPy functions, computed
    # by the reverse engine through the pullback of the partials (a few roundings apart).
    np.testing.assert_allclose(d2, sc.polygamma(1, np.asarray(x)), rtol=1e-13)
    np.testing.assert_allclose(d3, sc.polygamma(2, np.asarray(x)), rtol=1e-12)


def test_a_float32_operand_gets_a_float32_cotangent_beside_a_float64_one():
    f = cr_jax.wrap(sc.betainc)
    a = jnp.asarray([2.0, 2.5], jnp.float64)
    x = jnp.asarray([0.4, 0.7], jnp.float32)
    ga, gx = jax.grad(lambda a, x: jnp.sum(f(a, 3.0, x)), (0, 1))(a, x)
    assert (ga.dtype, gx.dtype) == (jnp.float64, jnp.float32)
    x64, a64 = np.asarray(x, np.float64), np.asarray(a)
    expected = x64 ** (a64 - 1) * (1 - x64) ** 2 / sc.beta(a64, 3.0)
    # the value computed at float64 from the float32 x, rounded to float32
    np.testing.assert_allclose(gx, expected, rtol=1e-6)
