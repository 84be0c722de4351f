"""The JAX adapter: check_grads on the table, jit(grad(wrap(f))), vmap, complex points, and
where a rule runs: on tracers, or on the host when it cannot."""

import math

import numpy as np
import pytest
import scipy.special as sc

jax = pytest.importorskip("jax")

from adapter_cases import (  # noqa: E402
    CASES,
    SECOND_ORDER_UNSUPPORTED,
    betainc_derivative,
    jax_precision,
)
from jax.test_util import check_grads  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.adapters import jax as cr_jax  # noqa: E402
from chainrules.adapters import jax_calls  # noqa: E402

jnp = jax.numpy


@pytest.fixture(autouse=True)
def float64():
    """The table is checked in double precision, as finite differences need."""
    with jax_precision(x64=True):
        yield


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


# ---- host functions: second order, retention per call, x64 off ------------------------------


@pytest.mark.parametrize(("outer", "inner"), [(0, 2), (1, 2), (2, 2)])
def test_host_second_derivatives_match_mpmath(outer, inner):
    f = cr_jax.wrap(sc.betainc)
    order = [0, 0, 0]
    order[outer] += 1
    order[inner] += 1
    value = float(jax.grad(jax.grad(f, inner), outer)(2.0, 3.0, 0.4))
    # dI/dx is closed-form and dI/da, dI/db come from quadrature (relative accuracy ~1e-10).
    assert value == pytest.approx(betainc_derivative((order[0], order[1], order[2])), rel=1e-8)


@pytest.mark.parametrize("outer", [0, 1, 2], ids=["a", "b", "x"])
@pytest.mark.parametrize("inner", [0, 1], ids=["a", "b"])
def test_second_derivatives_in_the_shape_parameters_match_mpmath(inner, outer):
    # d2I/da2 is about 0.058 here: the quadrature that gives dI/da has a rule of its own.
    f = cr_jax.wrap(sc.betainc)
    order = [0, 0, 0]
    order[outer] += 1
    order[inner] += 1
    value = float(jax.grad(jax.grad(f, inner), outer)(2.0, 3.0, 0.4))
    # second derivatives in a and b by quadrature, relative accuracy ~1e-10 (see the rule)
    assert value == pytest.approx(betainc_derivative((order[0], order[1], order[2])), rel=1e-8)


def test_a_third_derivative_the_rules_do_not_give_raises_not_zero():
    # The second derivatives in a and b are quadratures the rules do not differentiate again.
    # The error comes through JAX's callback, wrapped in JAX's runtime error (whose class
    # differs across releases): its message must name the function and the argument.
    f = cr_jax.wrap(sc.betainc)
    with pytest.raises(Exception, match=r"betainc_da_db in its first argument"):
        jax.grad(jax.grad(jax.grad(f, 0), 0), 0)(2.0, 3.0, 0.4).block_until_ready()


def test_eager_grads_build_one_callback_per_kind_of_call():
    import gc
    import tracemalloc

    f = cr_jax.wrap(sc.gammaln)
    x = jnp.linspace(0.5, 2.0, 20)
    grad = jax.grad(lambda v: jnp.sum(f(v)))
    for _ in range(3):
        grad(x).block_until_ready()
    built = set(map(id, jax_calls.BUILT.values()))
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for _ in range(20):
            grad(x).block_until_ready()
        gc.collect()
        grown = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert set(map(id, jax_calls.BUILT.values())) == built  # nothing new was built
    # A new custom_vjp and callback per call made JAX keep a trace and an executable each:
    # 60 kB of Python objects per eager grad (1.2 MB here) besides megabytes of native
    # memory. Reused, 20 grads leave ~20 kB of JAX's bookkeeping: 0.5 MB is a wide bound.
    assert grown < 500_000


@pytest.fixture(params=[False, True], ids=["x64 off", "x64 on"])
def x64(request):
    """Both of JAX's precisions, restored afterwards (the module's fixture turns x64 on)."""
    with jax_precision(x64=request.param):
        yield request.param


def float_type(x64):
    return np.float64 if x64 else np.float32


@pytest.mark.parametrize("f", [sc.gammaln, np.sin], ids=["host", "native"])
def test_a_python_float_computes_in_jaxs_precision(x64, f):
    y = cr_jax.wrap(f)(2.5)
    assert y.dtype == float_type(x64)
    assert float(y) == pytest.approx(float(f(2.5)), rel=1e-6)
    g = jax.grad(jax.grad(cr_jax.wrap(f)))(2.5)
    assert g.dtype == float_type(x64)


@pytest.mark.parametrize("f", [sc.gammaln, np.sin], ids=["host", "native"])
def test_an_integer_array_computes_its_value(x64, f):
    y = cr_jax.wrap(f)(jnp.asarray([2, 3]))
    assert y.dtype == float_type(x64)  # what jax.numpy gives for integers
    np.testing.assert_allclose(y, f(np.array([2.0, 3.0])), rtol=1e-6)


@pytest.mark.parametrize("f", [sc.gammaln, np.sin], ids=["host", "native"])
def test_float16_stays_float16(x64, f):
    x = jnp.asarray([1.5, 2.5], jnp.float16)
    y = cr_jax.wrap(f)(x)
    g = jax.grad(lambda v: jnp.sum(cr_jax.wrap(f)(v)))(x)
    assert y.dtype == g.dtype == jnp.float16
    # float16 keeps about 3 digits.
    np.testing.assert_allclose(y, f(np.array([1.5, 2.5])), rtol=2e-3)


def test_integer_constants_and_float32_operands(x64):
    x = jnp.asarray([1.5, 2.5], jnp.float32)
    g = jax.grad(lambda v: jnp.sum(cr_jax.wrap(sc.polygamma)(1, v)))(x)
    assert g.dtype == jnp.float32
    # float32 results: 1e-5 relative.
    np.testing.assert_allclose(g, sc.polygamma(2, np.array([1.5, 2.5])), rtol=1e-5)
    h = jax.grad(jax.grad(cr_jax.wrap(sc.gammaln)))(jnp.float32(1.5))
    assert h.dtype == jnp.float32
    assert float(h) == pytest.approx(sc.polygamma(1, 1.5), rel=1e-5)


# ---- structured outputs and keywords on the host ---------------------------------------------

MATRIX = np.array([[2.0, 0.5, 0.1], [0.3, 1.0, 0.2], [0.1, 0.4, 1.5]])

STRUCTURED = [
    # f, argument, a real loss of the outputs
    (np.linalg.slogdet, MATRIX, lambda o, xp: o[1]),
    (np.linalg.qr, MATRIX, lambda o, xp: xp.sum(o[0][:, 0] * o[1][0])),
    (np.linalg.svd, MATRIX, lambda o, xp: xp.sum(o[1] ** 2) + xp.sum(o[0][:, 0] * o[2][0])),
    (np.linalg.eigh, MATRIX @ MATRIX.T, lambda o, xp: xp.sum(o[0] ** 3) + xp.sum(o[1][:, 0] ** 4)),
]


@pytest.mark.parametrize(("f", "a", "loss"), STRUCTURED, ids=lambda v: getattr(v, "__name__", ""))
def test_structured_outputs_on_the_host_to_second_order(f, a, loss):
    from chainrules.engines import reverse

    def engine_loss(m):
        return loss(f(m), np)

    wrapped = cr_jax.wrap(f, host=True)

    def jax_loss(m):
        return loss(wrapped(m), jnp)

    expected = reverse.grad(engine_loss)(a)
    expected2 = reverse.grad(lambda m: np.sum(reverse.grad(engine_loss)(m) * MATRIX))(a)
    got = jax.grad(jax_loss)(jnp.asarray(a))
    got2 = jax.grad(lambda m: jnp.sum(jax.grad(jax_loss)(m) * MATRIX))(jnp.asarray(a))
    # The same rules on the same values; only the order of summation may differ.
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-13)
    np.testing.assert_allclose(got2, expected2, rtol=1e-12, atol=1e-12)


def test_keywords_on_the_host():
    f = cr_jax.wrap(sc.logsumexp, host=True)
    x = jnp.asarray([[0.5, -1.0], [2.0, 0.3]])
    g = jax.grad(lambda v: jnp.sum(f(v, axis=1)))(x)
    expected = np.exp(np.asarray(x) - sc.logsumexp(np.asarray(x), axis=1, keepdims=True))
    np.testing.assert_allclose(g, expected, rtol=1e-12)


def test_forward_mode_of_a_host_function_names_it():
    f = cr_jax.wrap(sc.gammaln)
    with pytest.raises(cr.MissingCapabilityError, match=r"scipy.special.gammaln.*forward mode"):
        jax.jvp(f, (1.5,), (1.0,))
    with pytest.raises(TypeError, match=r"gammaln"):  # still the TypeError JAX raised
        jax.jacfwd(f)(jnp.asarray([1.5, 2.5]))


def test_python_floats_do_not_promote_a_float32_operand(x64):
    # As in jax.numpy, a Python float is weakly typed: float32 operands keep float32.
    x = jnp.asarray([0.4, 0.7], jnp.float32)
    f = cr_jax.wrap(sc.betainc)
    assert f(2.0, 3.0, x).dtype == jnp.float32
    g = jax.grad(lambda v: jnp.sum(f(2.0, 3.0, v)))(x)
    assert g.dtype == jnp.float32
    expected = 12.0 * np.array([0.4, 0.7]) * np.array([0.6, 0.3]) ** 2  # x (1-x)^2 / B(2, 3)
    np.testing.assert_allclose(g, expected, rtol=1e-5)  # float32
    assert f(2.0, 3.0, 0.4).dtype == float_type(x64)


# ---- arguments the sweep of the whole table brought up ---------------------------------------


def _reference_hessian_vector(f, x, v):
    """d/dx <grad f(x), v> by the reverse engine, for the JAX results to match."""
    from chainrules.engines import reverse

    return reverse.grad(lambda a: np.sum(reverse.grad(f)(a) * v))(x)


def test_arrays_inside_tuple_arguments_are_operands():
    import scipy.linalg as sla

    from chainrules.core.calls import call

    c, lower = sla.cho_factor(np.array([[4.0, 1.0, 0.2], [1.0, 3.0, 0.5], [0.2, 0.5, 2.0]]))
    b = np.array([1.0, -2.0, 0.5])
    v = np.array([[0.3, -1.0, 0.2], [0.0, 0.5, 1.0], [0.0, 0.0, -0.4]])
    f = cr_jax.wrap(sla.cho_solve)

    def loss(m):
        return jnp.sum(f((m, lower), b) ** 2)

    def reference(m):
        return np.sum(call(sla.cho_solve, (m, lower), b) ** 2)

    np.testing.assert_allclose(f((jnp.asarray(c), lower), b), sla.cho_solve((c, lower), b))
    got = jax.grad(lambda m: jnp.sum(jax.grad(loss)(m) * v))(jnp.asarray(c))
    np.testing.assert_allclose(got, _reference_hessian_vector(reference, c, v), rtol=1e-10)


def test_scalar_only_functions_get_numpy_scalars():
    # SciPy's riccati_jn refuses arrays, even of no dimensions: the host gives it scalars.
    f = cr_jax.wrap(sc.riccati_jn)
    values, slopes = f(3, 1.3)
    expected = sc.riccati_jn(3, 1.3)
    np.testing.assert_allclose(values, expected[0], rtol=1e-14)
    np.testing.assert_allclose(slopes, expected[1], rtol=1e-14)
    derivative = jax.grad(lambda x: jnp.sum(f(3, x)[0]))(1.3)
    assert float(derivative) == pytest.approx(float(np.sum(expected[1])), rel=1e-13)


def test_result_shapes_that_follow_the_rank():
    import scipy.linalg as sla

    a = jnp.asarray([[1.0, 0.2], [0.3, 2.0], [0.5, -0.4]])  # rank 2: two columns
    basis = cr_jax.wrap(sla.orth)(a)
    assert basis.shape == (3, 2)
    null = cr_jax.wrap(sla.null_space)(a.T)
    assert null.shape == (3, 1)


def test_numpy_float_arrays_are_operands():
    # check_grads steps its arguments with NumPy arrays: each step is the same kind of call.
    f = cr_jax.wrap(sc.gammaln)
    f(jnp.asarray([1.5, 2.5]))
    built = len(jax_calls.BUILT)
    y = f(np.array([1.25, 2.75]))
    assert isinstance(y, jax.Array) and len(jax_calls.BUILT) == built
    np.testing.assert_allclose(y, sc.gammaln(np.array([1.25, 2.75])), rtol=1e-14)


def test_python_float_constants_without_derivative_to_second_order():
    # pro_ang1_cv has no derivative in c or cv alone; as Python floats they are constants.
    from chainrules.core.calls import call

    m, n, c = 1, 2, 1.1
    cv = float(sc.pro_cv(m, n, c))
    x = np.array([0.3, -0.5])
    v = np.array([1.0, 0.5])
    f = cr_jax.wrap(sc.pro_ang1_cv)

    def loss(t):
        return jnp.sum(f(m, n, c, cv, t)[0] ** 2)

    def reference(t):
        return np.sum(call(sc.pro_ang1_cv, m, n, c, cv, t)[0] ** 2)

    got = jax.grad(lambda t: jnp.sum(jax.grad(loss)(t) * v))(jnp.asarray(x))
    np.testing.assert_allclose(got, _reference_hessian_vector(reference, x, v), rtol=1e-10)


def test_eigh_reads_one_triangle_to_second_order():
    # JAX's eigh averages a with a^T; SciPy's reads the lower triangle, and so must the rule.
    import scipy.linalg as sla

    from chainrules.core.calls import call

    a = np.array([[2.0, 0.9, -0.4], [0.3, 3.0, 0.5], [0.1, 0.2, 4.0]])  # not symmetric
    v = np.array([[0.5, 0.0, 0.2], [-1.0, 0.4, 0.0], [0.3, 0.7, -0.2]])
    f = cr_jax.wrap(sla.eigh)
    np.testing.assert_allclose(f(jnp.asarray(a))[0], sla.eigh(a)[0], rtol=1e-13)

    def loss(m):
        return jnp.sum(f(m)[0] ** 3)

    def reference(m):
        return np.sum(call(sla.eigh, m)[0] ** 3)

    got = jax.grad(lambda m: jnp.sum(jax.grad(loss)(m) * v))(jnp.asarray(a))
    np.testing.assert_allclose(got, _reference_hessian_vector(reference, a, v), rtol=1e-10)


@pytest.mark.parametrize(
    ("f", "args", "expected_shape"),
    [
        (math.acos, (0.3,), ()),  # defined on [-1, 1] only
        (np.quantile, (np.array([0.2, 0.9, 0.4]), 0.3), ()),  # q in [0, 1]
        (sc.multigammaln, (np.array([1.5, 2.5]), 3), (2,)),  # a > (d - 1) / 2
        (np.vecdot, (np.ones((2, 3)), np.ones(3)), (2,)),  # a generalized ufunc
    ],
    ids=["acos", "quantile", "multigammaln", "vecdot"],
)
def test_result_shapes_on_stand_ins_inside_the_domain(f, args, expected_shape):
    y = cr_jax.wrap(f)(*args)
    assert y.shape == expected_shape
    np.testing.assert_allclose(y, f(*args), rtol=1e-14)


def test_lists_of_arrays_are_operands():
    a, b = np.array([[1.0, 2.0], [3.0, 4.0]]), np.array([[0.5], [-1.0]])
    f = cr_jax.wrap(np.block)
    np.testing.assert_array_equal(f([jnp.asarray(a), b]), np.block([a, b]))
    gradients = jax.grad(lambda x, y: jnp.sum(f([x, y]) ** 2), argnums=(0, 1))(a, b)
    np.testing.assert_allclose(gradients[0], 2 * a)
    np.testing.assert_allclose(gradients[1], 2 * b)
