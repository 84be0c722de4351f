"""The JAX adapter: check_grads on the table, jit(grad(wrap(f))), vmap, complex points."""

import numpy as np
import pytest
import scipy.special as sc

jax = pytest.importorskip("jax")

from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

from chainrules.adapters import jax as cr_jax  # noqa: E402

jnp = jax.numpy


@pytest.fixture(autouse=True)
def float64():
    """The table is checked in double precision, as finite differences need."""
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    yield
    jax.config.update("jax_enable_x64", previous)


def arrays(case, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(jnp.asarray(a) for a in case.args(rng))


def modes(f):
    """Forward mode needs a native frule: JAX cannot transpose a host callback."""
    return ["fwd", "rev"] if cr_jax.rule_mode(f) == "jvp" else ["rev"]


@pytest.mark.parametrize("case", CASES, ids=str)
def test_check_grads(case):
    f = cr_jax.wrap(case.f)
    args = arrays(case)

    def call(*a):
        return f(*a, **case.kwargs)

    call(*args)
    order = 1 if case.name in SECOND_ORDER_UNSUPPORTED else case.order
    check_grads(call, args, order=order, modes=modes(case.f), atol=1e-6, rtol=1e-6)


@pytest.mark.parametrize("case", CASES, ids=str)
def test_jit_grad_and_vmap(case):
    f = cr_jax.wrap(case.f)
    args = arrays(case)

    def loss(*a):
        y = f(*a, **case.kwargs)
        return jnp.sum(jnp.abs(y) ** 2)

    eager = jax.grad(loss, argnums=tuple(range(len(args))))(*args)
    jitted = jax.jit(jax.grad(loss, argnums=tuple(range(len(args)))))(*args)
    for e, j in zip(eager, jitted, strict=True):
        np.testing.assert_allclose(j, e, rtol=1e-12, atol=1e-14)
    batch = tuple(jnp.stack([a, a * 0.9 + 0.05 * jnp.sign(a)]) for a in args)
    mapped = jax.vmap(lambda *a: f(*a, **case.kwargs))(*batch)
    for b in range(2):
        one = f(*(a[b] for a in batch), **case.kwargs)
        np.testing.assert_allclose(mapped[b], one, rtol=1e-12, atol=1e-14)


def test_host_grad_of_grad_goes_down_the_gamma_family():
    f = cr_jax.wrap(sc.gammaln)
    x = 1.5
    assert float(jax.grad(f)(x)) == pytest.approx(sc.digamma(x), rel=1e-12)
    assert float(jax.jit(jax.grad(jax.grad(f)))(x)) == pytest.approx(sc.polygamma(1, x), rel=1e-12)
    assert float(jax.grad(jax.grad(jax.grad(f)))(x)) == pytest.approx(sc.polygamma(2, x), rel=1e-10)
    assert cr_jax.is_host_only(sc.gammaln)


def test_a_rule_in_the_array_api_runs_under_tracing():
    # numpy.linalg.inv's frule computes with the namespace of its input: a custom_jvp.
    f = cr_jax.wrap(np.linalg.inv)
    a = jnp.asarray([[2.0, 0.5], [0.3, 1.0]])
    check_grads(f, (a,), order=2, modes=["fwd", "rev"])
    assert cr_jax.rule_mode(np.linalg.inv) == "jvp"
    jacobians = jax.vmap(jax.jacfwd(f))(jnp.stack([a, 2 * a]))
    inv = np.linalg.inv(np.asarray(a))
    np.testing.assert_allclose(jacobians[0], -np.einsum("ik,lj->ijkl", inv, inv), rtol=1e-12)


def test_complex_convention_matches_jax():
    z = jnp.asarray([0.5 + 0.7j, -1.0 + 0.2j])
    ours = jax.grad(lambda z: jnp.sum(jnp.abs(cr_jax.wrap(np.sin)(z)) ** 2))(z)
    theirs = jax.grad(lambda z: jnp.sum(jnp.abs(jnp.sin(z)) ** 2))(z)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    ours = jax.vjp(cr_jax.wrap(np.exp), z)[1](jnp.ones(2, complex))[0]
    theirs = jax.vjp(jnp.exp, z)[1](jnp.ones(2, complex))[0]
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_result_shape_can_be_given():
    def shape(x):
        return jax.ShapeDtypeStruct((), x.dtype)

    f = cr_jax.wrap(np.sum, host=True, result_shape=shape)
    x = jnp.arange(3.0)
    assert float(jax.jit(f)(x)) == 3.0
    np.testing.assert_allclose(jax.grad(f)(x), np.ones(3))
