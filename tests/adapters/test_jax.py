"""The JAX adapter: check_grads on the table, jit(grad(wrap(f))), vmap, complex points, and
where a rule runs: on tracers, or on the host when it cannot."""

import numpy as np
import pytest
import scipy.special as sc

jax = pytest.importorskip("jax")

from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402
from jax.test_util import check_grads  # noqa: E402

import chainrules as cr  # noqa: E402
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


# ---- where a rule runs: test-local functions, each with rules of its own --------------------


def _numpy_square(x):
    return np.square(x)


@cr.rrule.register(_numpy_square)
def _numpy_square_rrule(x):
    if isinstance(x, jax.Array):
        raise cr.ArrayTypeError("_numpy_square computes with NumPy only")
    return np.square(x), lambda dy: (cr.NoTangent(), 2.0 * x * dy)


@cr.frule.register(_numpy_square)
def _numpy_square_frule(tangents, x):
    if isinstance(x, jax.Array):
        raise cr.ArrayTypeError("_numpy_square computes with NumPy only")
    return np.square(x), 2.0 * x * tangents[1]


def test_a_rule_raising_array_type_error_runs_on_the_host():
    f = cr_jax.wrap(_numpy_square)
    x = jnp.asarray([0.5, -1.5, 2.0])
    np.testing.assert_array_equal(f(x), [0.25, 2.25, 4.0])
    assert cr_jax.rule_mode(_numpy_square) == "host"
    np.testing.assert_array_equal(jax.jit(jax.grad(lambda v: jnp.sum(f(v))))(x), [1.0, -3.0, 4.0])
    assert float(jax.grad(jax.grad(lambda v: f(v)))(1.5)) == 2.0


# Rules with a bug on JAX's arrays alone: on the host they would give the right values, so
# only the error itself shows that the adapter did not quietly take the host instead.


def _broken_rrule_only(x):
    return x


@cr.rrule.register(_broken_rrule_only)
def _broken_rrule_only_rrule(x):
    if isinstance(x, jax.Array):
        raise ValueError("a bug in the rrule")
    return x, lambda dy: (cr.NoTangent(), dy)


def _broken_frule(x):
    return x


@cr.frule.register(_broken_frule)
def _broken_frule_frule(tangents, x):
    if isinstance(x, jax.Array):
        raise ValueError("a bug in the frule")
    return x, tangents[1]


@pytest.mark.parametrize(
    ("f", "message"),
    [(_broken_rrule_only, "a bug in the rrule"), (_broken_frule, "a bug in the frule")],
    ids=["rrule", "frule"],
)
def test_an_error_of_the_rule_reaches_the_caller(f, message):
    with pytest.raises(ValueError, match=message):
        cr_jax.wrap(f)(jnp.asarray([1.0, 2.0]))
    assert cr_jax.rule_mode(f) is None  # nothing was decided


def _vectors_only(x):
    return x * x


@cr.frule.register(_vectors_only)
def _vectors_only_frule(tangents, x):
    if isinstance(x, jax.Array) and x.ndim > 1:
        raise cr.ArrayTypeError("_vectors_only computes on arrays of one dimension only")
    return x * x, 2.0 * x * tangents[1]


@cr.rrule.register(_vectors_only)
def _vectors_only_rrule(x):
    return x * x, lambda dy: (cr.NoTangent(), 2.0 * x * dy)


def _breaks_on_matrices(x):
    return x * x


@cr.frule.register(_breaks_on_matrices)
def _breaks_on_matrices_frule(tangents, x):
    if isinstance(x, jax.Array) and x.ndim > 1:
        raise ValueError("a bug in the frule for matrices")
    return x * x, 2.0 * x * tangents[1]


def test_a_call_the_probe_did_not_see_falls_back_only_on_array_type_error():
    vector = jnp.asarray([1.0, 3.0])
    matrix = jnp.asarray([[1.0, -2.0], [0.5, 3.0]])

    f = cr_jax.wrap(_vectors_only)
    np.testing.assert_array_equal(f(vector), [1.0, 9.0])
    assert cr_jax.rule_mode(_vectors_only) == "jvp"
    np.testing.assert_array_equal(f(matrix), [[1.0, 4.0], [0.25, 9.0]])  # on the host
    gradient = jax.grad(lambda m: jnp.sum(f(m)))(matrix)
    np.testing.assert_array_equal(gradient, [[2.0, -4.0], [1.0, 6.0]])

    broken = cr_jax.wrap(_breaks_on_matrices)
    broken(vector)
    with pytest.raises(ValueError, match="a bug in the frule for matrices"):
        broken(matrix)
