"""The torch adapter: gradcheck and gradgradcheck on the table, forward mode, vmap, dtypes,
and where a rule runs: on the tensors, or on the host when it says it cannot."""

import numpy as np
import pytest
import scipy.special as sc

torch = pytest.importorskip("torch")

from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.adapters import torch as cr_torch  # noqa: E402


def tensors(case, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(torch.tensor(a, requires_grad=True) for a in case.args(rng))


@pytest.fixture
def rules_say_their_capability(monkeypatch):
    """The library's rules raise ArrayTypeError on tensors themselves: with torch's own refusal
    to hand NumPy a tensor no longer read as one, and nothing decided yet, they still run."""
    monkeypatch.setattr(cr_torch, "_NUMPY_ON_GRAD_TENSOR", "(not recognised in this test)")
    monkeypatch.setattr(cr_torch, "_native", {})


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gradcheck_and_gradgradcheck(case, rules_say_their_capability):
    f = cr_torch.wrap(case.f)
    args = tensors(case)

    def call(*a):
        return f(*a, **case.kwargs)

    assert torch.autograd.gradcheck(call, args, check_forward_ad=True)
    if case.name in SECOND_ORDER_UNSUPPORTED:
        pytest.skip(SECOND_ORDER_UNSUPPORTED[case.name])
    assert torch.autograd.gradgradcheck(call, args)


def test_host_double_backward_goes_down_the_gamma_family():
    x = torch.tensor([1.5, 3.0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(cr_torch.wrap(sc.gammaln)(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x, create_graph=True)
    (k,) = torch.autograd.grad(h.sum(), x)
    xs = x.detach().numpy()
    np.testing.assert_allclose(g.detach().numpy(), sc.digamma(xs), rtol=1e-12)
    np.testing.assert_allclose(h.detach().numpy(), sc.polygamma(1, xs), rtol=1e-12)
    np.testing.assert_allclose(k.numpy(), sc.polygamma(2, xs), rtol=1e-10)
    assert cr_torch.is_host_only(sc.gammaln)


def test_a_rule_in_the_array_api_runs_on_tensors():
    # numpy.linalg.det's rule computes with the namespace of its input, so torch runs it.
    a = torch.tensor([[2.0, 0.5], [0.3, 1.0]], dtype=torch.float64, requires_grad=True)
    f = cr_torch.wrap(np.linalg.det)
    assert torch.autograd.gradgradcheck(f, (a,))
    assert cr_torch.is_host_only(np.linalg.det) is False
    (g,) = torch.autograd.grad(f(a), a)
    np.testing.assert_allclose(
        g.numpy(), np.linalg.det(a.detach().numpy()) * np.linalg.inv(a.detach().numpy()).T
    )


@pytest.mark.parametrize(
    ("f", "expected"),
    [
        (np.sin, np.cos),
        (sc.gammaln, sc.digamma),
        (sc.erf, lambda x: 2 / np.sqrt(np.pi) * np.exp(-x * x)),
    ],
    ids=["sin", "gammaln", "erf"],
)
def test_forward_mode_is_the_frule(f, expected):
    x = torch.tensor([0.5, 1.5], dtype=torch.float64)
    t = torch.tensor([1.0, -2.0], dtype=torch.float64)
    _, dy = torch.func.jvp(cr_torch.wrap(f), (x,), (t,))
    np.testing.assert_allclose(dy.numpy(), expected(x.numpy()) * t.numpy(), rtol=1e-12)


def test_vmap_maps_over_the_batch():
    x = torch.tensor(np.arange(6.0).reshape(3, 2) / 7, dtype=torch.float64)
    np.testing.assert_allclose(
        torch.func.vmap(cr_torch.wrap(np.cumsum))(x).numpy(), np.cumsum(x.numpy(), axis=1)
    )
    batched = torch.func.vmap(torch.func.grad(cr_torch.wrap(sc.gammaln)))(x[:, 0] + 1)
    np.testing.assert_allclose(batched.numpy(), sc.digamma(x[:, 0].numpy() + 1), rtol=1e-12)


def test_dtype_is_kept():
    x = torch.tensor([1.5, 2.5], dtype=torch.float32, requires_grad=True)
    y = cr_torch.wrap(sc.gammaln)(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert y.dtype == g.dtype == torch.float32


def test_constants_pass_through():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    y = cr_torch.wrap(sc.polygamma)(1, x)
    (g,) = torch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g.numpy(), sc.polygamma(2, x.detach().numpy()), rtol=1e-12)


def test_keywords_pass_through():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(cr_torch.wrap(np.sum)(x * x, axis=0).sum(), x)
    np.testing.assert_allclose(g.numpy(), 2 * x.detach().numpy())


def test_complex_convention_matches_torch():
    z = torch.tensor([0.5 + 0.7j, -1.0 + 0.2j], dtype=torch.complex128, requires_grad=True)
    (ours,) = torch.autograd.grad(cr_torch.wrap(np.sin)(z).abs().pow(2).sum(), z)
    (theirs,) = torch.autograd.grad(torch.sin(z).abs().pow(2).sum(), z)
    np.testing.assert_allclose(ours.numpy(), theirs.numpy(), rtol=1e-12)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs a CUDA device")
def test_cuda_tensors_come_back_to_their_device():
    x = torch.tensor([1.5, 2.5], dtype=torch.float64, device="cuda", requires_grad=True)
    with pytest.warns(UserWarning, match="CPU"):
        y = cr_torch.wrap(sc.dawsn)(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert y.device == g.device == x.device


# ---- where a rule runs: test-local functions, each with a rule of its own -------------------


def _numpy_square(x):
    return np.square(x)


@cr.rrule.register(_numpy_square)
def _numpy_square_rrule(x):
    if isinstance(x, torch.Tensor):
        raise cr.ArrayTypeError("_numpy_square computes with NumPy only")

    def numpy_square_pullback(dy):
        return cr.NoTangent(), 2.0 * x * dy

    return np.square(x), numpy_square_pullback


def test_a_rule_raising_array_type_error_runs_on_the_host():
    x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    f = cr_torch.wrap(_numpy_square)
    y = f(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    assert cr_torch.is_host_only(_numpy_square)
    assert isinstance(y, torch.Tensor) and y.dtype == torch.float64
    np.testing.assert_array_equal(y.detach().numpy(), [0.25, 2.25, 4.0])
    np.testing.assert_array_equal(g.detach().numpy(), [1.0, -3.0, 4.0])
    np.testing.assert_array_equal(h.numpy(), [2.0, 2.0, 2.0])


def _numpy_cube(x):
    return np.power(x, 3)


@cr.rrule.register(_numpy_cube)
def _numpy_cube_rrule(x):
    # np.power converts its input, which torch refuses for a tensor that requires grad.
    def numpy_cube_pullback(dy):
        return cr.NoTangent(), 3.0 * x * x * dy

    return np.power(x, 3), numpy_cube_pullback


def test_torchs_refusal_to_give_numpy_a_tensor_runs_the_rule_on_the_host():
    x = torch.tensor([0.5, 2.0], dtype=torch.float64, requires_grad=True)
    y = cr_torch.wrap(_numpy_cube)(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert cr_torch.is_host_only(_numpy_cube)
    np.testing.assert_array_equal(y.detach().numpy(), [0.125, 8.0])
    np.testing.assert_array_equal(g.numpy(), [0.75, 12.0])


# Rules with a bug on tensors alone: on NumPy copies they would give the right values, so
# only the error itself shows that the adapter did not quietly take the host instead.


def broken_on_tensors(error, message):
    """(f, error, message): a new identity ``f`` whose rrule raises ``error(message)`` on
    tensors alone."""

    def broken(x):
        return x

    @cr.rrule.register(broken)
    def broken_rrule(x):
        if isinstance(x, torch.Tensor):
            raise error(message)
        return x, lambda dy: (cr.NoTangent(), dy)

    return broken, error, message


@pytest.mark.parametrize(
    ("f", "error", "message"),
    [
        broken_on_tensors(ValueError, "a bug in the rule for _broken"),
        broken_on_tensors(RuntimeError, "another RuntimeError of torch's"),
    ],
    ids=["ValueError", "RuntimeError"],
)
def test_an_error_of_the_rule_reaches_the_caller(f, error, message):
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    with pytest.raises(error, match=message):
        cr_torch.wrap(f)(x)
    assert cr_torch.is_host_only(f) is None  # nothing was decided


def _vectors_only(x):
    return x * x


@cr.rrule.register(_vectors_only)
def _vectors_only_rrule(x):
    if isinstance(x, torch.Tensor) and x.ndim > 1:
        raise cr.ArrayTypeError("_vectors_only computes on tensors of one dimension only")

    def vectors_only_pullback(dy):
        return cr.NoTangent(), 2.0 * x * dy

    return x * x, vectors_only_pullback


def _breaks_on_matrices(x):
    return x * x


@cr.rrule.register(_breaks_on_matrices)
def _breaks_on_matrices_rrule(x):
    if isinstance(x, torch.Tensor) and x.ndim > 1:
        raise ValueError("a bug in the rule for matrices")
    return x * x, lambda dy: (cr.NoTangent(), 2.0 * x * dy)


def test_a_call_the_probe_did_not_see_falls_back_only_on_array_type_error():
    vector = torch.tensor([1.0, 3.0], dtype=torch.float64, requires_grad=True)
    matrix = torch.tensor([[1.0, -2.0], [0.5, 3.0]], dtype=torch.float64, requires_grad=True)

    f = cr_torch.wrap(_vectors_only)
    f(vector)
    assert cr_torch.is_host_only(_vectors_only) is False
    y = f(matrix)  # this call alone runs on NumPy copies
    (g,) = torch.autograd.grad(y.sum(), matrix)
    np.testing.assert_array_equal(y.detach().numpy(), [[1.0, 4.0], [0.25, 9.0]])
    np.testing.assert_array_equal(g.numpy(), [[2.0, -4.0], [1.0, 6.0]])

    broken = cr_torch.wrap(_breaks_on_matrices)
    broken(vector)
    with pytest.raises(ValueError, match="a bug in the rule for matrices"):
        broken(matrix)


def _cube(x):
    return x * x * x


@cr.rrule.register(_cube)
def _cube_rrule(x):
    def cube_pullback(dy):
        return cr.NoTangent(), 3.0 * x * x * dy

    return x * x * x, cube_pullback


def test_a_first_call_under_vmap_finds_a_rule_that_runs_on_tensors():
    x = torch.tensor([[1.0, 2.0], [-1.0, 0.5]], dtype=torch.float64)
    y = torch.func.vmap(cr_torch.wrap(_cube))(x)
    assert cr_torch.is_host_only(_cube) is False
    np.testing.assert_array_equal(y.numpy(), [[1.0, 8.0], [-1.0, 0.125]])
    g = torch.func.vmap(torch.func.grad(lambda v: cr_torch.wrap(_cube)(v).sum()))(x)
    np.testing.assert_array_equal(g.numpy(), [[3.0, 12.0], [3.0, 0.75]])


# ---- nothing kept after backward; torch.func on host functions; dtypes -----------------------

MATRIX = np.array([[2.0, 0.5, 0.1], [0.3, 1.0, 0.2], [0.1, 0.4, 1.5]])


def _outputs(y):
    return y if isinstance(y, tuple) else (y,)


@pytest.mark.parametrize("host", [None, True], ids=["probed", "host"])
@pytest.mark.parametrize("f", [np.linalg.slogdet, np.linalg.qr, np.linalg.det, sc.gammaln])
@pytest.mark.parametrize("backward", [True, False], ids=["backward", "forward only"])
def test_nothing_is_kept_alive_after_the_graph_is_dropped(f, host, backward):
    import gc
    import weakref

    a = torch.tensor(MATRIX, requires_grad=True)
    outputs = _outputs(cr_torch.wrap(f, host=host)(a))
    refs = [weakref.ref(o) for o in outputs]
    if backward:
        sum(o.sum() for o in outputs if o.is_floating_point()).backward()
    del outputs
    gc.collect()
    # A pullback holding its outputs, held by their grad_fn, was a cycle through torch's
    # graph that Python's collector cannot see: two tensors per call of slogdet or qr.
    assert [r() for r in refs] == [None] * len(refs)


@pytest.mark.parametrize("f", [sc.gammaln, sc.dawsn, np.sin], ids=["gammaln", "dawsn", "sin"])
def test_torch_func_transforms_on_host_functions(f):
    from chainrules.engines import hessian, reverse

    x = torch.tensor([0.7, 1.5, 2.5], dtype=torch.float64)
    xs = x.numpy()
    wrapped = cr_torch.wrap(f)
    jacobian = np.diag(reverse.grad(lambda v: np.sum(f(v)))(xs))
    expected_hessian = hessian(lambda v: np.sum(f(v)))(xs)
    # The same rules on the same values: agreement to rounding.
    tol = {"rtol": 1e-12, "atol": 1e-14}
    np.testing.assert_allclose(torch.func.jacfwd(wrapped)(x).numpy(), jacobian, **tol)
    np.testing.assert_allclose(torch.func.jacrev(wrapped)(x).numpy(), jacobian, **tol)
    h = torch.func.hessian(lambda v: wrapped(v).sum())(x)
    np.testing.assert_allclose(h.numpy(), expected_hessian, **tol)
    tangents = torch.ones(3, 1, dtype=torch.float64)
    mapped = torch.func.vmap(lambda u, t: torch.func.jvp(wrapped, (u,), (t,))[1])(
        x.reshape(3, 1), tangents
    )
    np.testing.assert_allclose(mapped.numpy().ravel(), np.diag(jacobian), **tol)


def test_jacfwd_of_a_structured_host_function():
    from chainrules.engines import forward

    a = torch.tensor(MATRIX)
    wrapped = cr_torch.wrap(np.linalg.slogdet, host=True)
    jacobian = torch.func.jacfwd(lambda m: wrapped(m)[1])(a)
    expected = forward.jacobian(lambda m: np.linalg.slogdet(m)[1])(MATRIX)
    np.testing.assert_allclose(jacobian.numpy(), expected, rtol=1e-12, atol=1e-14)


def test_gradgradcheck_of_betainc_in_every_argument():
    a = torch.tensor([2.0, 1.5], dtype=torch.float64, requires_grad=True)
    b = torch.tensor([3.0, 0.8], dtype=torch.float64, requires_grad=True)
    x = torch.tensor([0.4, 0.7], dtype=torch.float64, requires_grad=True)
    f = cr_torch.wrap(sc.betainc)
    assert torch.autograd.gradcheck(f, (a, b, x))
    constant_shapes = (a.detach(), b.detach())
    assert torch.autograd.gradgradcheck(lambda v: f(*constant_shapes, v), (x,))
    # d2I/da2 differentiates the quadrature that gives dI/da, by a quadrature of its own
    assert torch.autograd.gradgradcheck(lambda v: f(v, *constant_shapes[1:], x.detach()), (a,))
    assert torch.autograd.gradgradcheck(f, (a, b, x))


STRUCTURED = [
    # f, argument, a real loss of its outputs, free of the vectors' signs
    (np.linalg.svd, MATRIX, lambda u, s, vh: u[:, 0].abs().sum() + (s**2).sum()),
    (np.linalg.eigh, MATRIX @ MATRIX.T, lambda w, v: (w**3).sum() + v[:, 0].abs().sum()),
    (np.linalg.qr, MATRIX, lambda q, r: (q[:, 0] * r[0]).sum()),
    (np.linalg.slogdet, MATRIX, lambda sign, logdet: logdet),
]


@pytest.mark.parametrize(
    ("f", "m", "of_outputs"), STRUCTURED, ids=lambda v: getattr(v, "__name__", "")
)
def test_structured_host_functions_pass_gradgradcheck(f, m, of_outputs):
    a = torch.tensor(m, requires_grad=True)
    wrapped = cr_torch.wrap(f, host=True)

    def loss(v):
        return of_outputs(*wrapped((v + v.T) / 2 if f is np.linalg.eigh else v))

    assert torch.autograd.gradcheck(loss, (a,))
    assert torch.autograd.gradgradcheck(loss, (a,))


@pytest.mark.parametrize(
    ("x", "dtype"),
    [
        (torch.tensor([2, 3]), torch.get_default_dtype()),
        (torch.tensor([1.5, 2.5], dtype=torch.float16), torch.float16),
        (torch.tensor([1.5, 2.5], dtype=torch.float32), torch.float32),
    ],
    ids=["int", "float16", "float32"],
)
def test_results_have_the_dtype_torch_would_give(x, dtype):
    y = cr_torch.wrap(sc.gammaln)(x)
    assert y.dtype == dtype
    # float16 keeps about 3 digits.
    np.testing.assert_allclose(y.double().numpy(), sc.gammaln(x.double().numpy()), rtol=2e-3)
    if x.is_floating_point():
        x = x.clone().requires_grad_(True)
        (g,) = torch.autograd.grad(cr_torch.wrap(sc.gammaln)(x).sum(), x)
        assert g.dtype == dtype


# ---- arguments in lists, methods of ndarray, flags among the results, scalars ----------------


def checked_twice(f, *tensors):
    """Whether ``f`` of ``tensors`` passes gradcheck and gradgradcheck."""
    return torch.autograd.gradcheck(f, tensors) and torch.autograd.gradgradcheck(f, tensors)


def test_tensors_inside_lists_are_differentiated():
    x = torch.tensor([0.5, -1.5], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([2.0], dtype=torch.float64, requires_grad=True)
    concatenate = cr_torch.wrap(np.concatenate)
    (gx, gy) = torch.autograd.grad((concatenate([x, y]) ** 2).sum(), (x, y))
    np.testing.assert_array_equal(gx.numpy(), [1.0, -3.0])
    np.testing.assert_array_equal(gy.numpy(), [4.0])
    assert checked_twice(lambda a, b: concatenate([a, b, a]) ** 2, x, y)
    block = cr_torch.wrap(np.block)
    assert checked_twice(lambda a, b: block([[a, b], [b, a]]) ** 2, x, y)


def test_methods_of_ndarray_keep_numpys_meaning():
    # On a tensor, the rule of ndarray.repeat would call Tensor.repeat, which tiles.
    x = torch.tensor([1.0, 2.0], dtype=torch.float64, requires_grad=True)
    repeat = cr_torch.wrap(np.ndarray.repeat)
    np.testing.assert_array_equal(repeat(x, 2).detach().numpy(), [1.0, 1.0, 2.0, 2.0])
    assert cr_torch.is_host_only(np.ndarray.repeat)
    assert checked_twice(lambda a: repeat(a, 2) ** 2, x)


@pytest.mark.parametrize(
    ("f", "shape", "constants"),
    [
        (np.max, (3,), ()),
        (np.moveaxis, (2, 1, 2), (0, -1)),
        (np.unstack, (2, 2), ()),
        (np.take_along_axis, (3,), (np.array([2, 0, 1]), 0)),
        (np.take, (2, 2), (np.array([1, 1]), 0)),  # Tensor.take has no axis
        (np.linalg.pinv, (3, 2), ()),
        (np.linalg.eig, (2, 2), ()),
    ],
    ids=lambda v: getattr(v, "__name__", ""),
)
def test_rules_computing_with_numpys_own_functions_run_on_the_host(f, shape, constants):
    rng = np.random.default_rng(0)
    x = torch.tensor(np.diag(np.arange(1.0, 3.0)) if shape == (2, 2) else 0 * rng.random(shape))
    x = (x + 0.1 * torch.tensor(rng.standard_normal(shape))).requires_grad_(True)
    wrapped = cr_torch.wrap(f)
    assert checked_twice(lambda a: wrapped(a, *constants), x)
    assert cr_torch.is_host_only(f)


@pytest.mark.parametrize("f", [np.linalg.cholesky, np.linalg.eigh, np.linalg.eigvalsh])
def test_rules_reading_one_triangle_go_twice_on_tensors(f):
    # torch's own derivative of cholesky and eigh assumes a symmetric input: the rules give it
    # the symmetric matrix the lower triangle describes, so that torch's second derivative is
    # that of the triangle (gradgradcheck moves each element alone).
    rng = np.random.default_rng(0)
    a = np.diag([1.0, 2.0]) + 0.1 * rng.standard_normal((2, 2))
    x = torch.tensor(a + a.T, requires_grad=True)
    assert checked_twice(cr_torch.wrap(f), x)
    assert cr_torch.is_host_only(f) is False


MASK = np.array([True, False, True])


@pytest.mark.parametrize(
    ("f", "call"),
    [
        (np.cumprod, lambda cumprod, a: cumprod(a)),
        (np.ldexp, lambda ldexp, a: ldexp(a, np.array([1, -2, 3]))),  # NumPy integers
        (np.where, lambda where, a: where(MASK, a, a * a)),  # a NumPy mask
    ],
    ids=["cumprod", "ldexp", "where"],
)
def test_rules_in_the_array_api_go_twice_on_tensors(f, call):
    x = torch.tensor([0.5, -1.5, 2.0], dtype=torch.float64, requires_grad=True)
    wrapped = cr_torch.wrap(f)
    assert checked_twice(lambda a: call(wrapped, a), x)
    assert cr_torch.is_host_only(f) is False


def test_remainder_goes_twice_on_tensors():
    # torch has no derivative of floor_divide; the partial reads the quotient off the result.
    x = torch.tensor([0.5, 1.7], dtype=torch.float64, requires_grad=True)
    y = torch.tensor([1.5, 0.6], dtype=torch.float64, requires_grad=True)
    assert checked_twice(cr_torch.wrap(np.remainder), x, y)
    assert cr_torch.is_host_only(np.remainder) is False


def test_a_flag_among_the_results_stays_a_flag():
    import scipy.linalg as sla

    a = torch.tensor([[2.0, 0.3], [0.3, 1.0]], dtype=torch.float64, requires_grad=True)
    c, lower = cr_torch.wrap(sla.cho_factor)(a, lower=True)
    assert lower is True and isinstance(c, torch.Tensor)
    assert checked_twice(lambda m: cr_torch.wrap(sla.cho_factor)(m, lower=True)[0], a)


def test_zero_d_tensors_reach_scipy_as_numpy_scalars():
    # pbdv_seq takes scalars only (a 0-d array is refused).
    x = torch.tensor(0.7, dtype=torch.float64, requires_grad=True)
    assert checked_twice(lambda a: cr_torch.wrap(sc.pbdv_seq)(2.3, a)[0], x)


# ---- the cost of a call outside torch.func -----------------------------------------------------


@pytest.mark.parametrize("f", [np.sin, sc.gammaln], ids=["on tensors", "on the host"])
def test_outside_torch_func_no_signature_is_bound_per_call(f, monkeypatch):
    # torch binds the arguments of an autograd.Function written with setup_context to its
    # signature at every call, for torch.func's transforms alone; outside them the adapter's
    # classic Function takes the call, with its derivatives of every order.
    import inspect

    wrapped = cr_torch.wrap(f)
    x = torch.tensor([0.5, 2.5], dtype=torch.float64, requires_grad=True)
    wrapped(x)  # the first call probes where the rule runs

    def refuse(*args, **kwargs):
        raise AssertionError("inspect.signature called")

    monkeypatch.setattr(inspect, "signature", refuse)
    (g,) = torch.autograd.grad(wrapped(x).sum(), x, create_graph=True)
    (h,) = torch.autograd.grad(g.sum(), x)
    monkeypatch.undo()
    v = x.detach().numpy()
    first, second = (np.cos(v), -np.sin(v)) if f is np.sin else (sc.digamma(v), sc.polygamma(1, v))
    # torch's cos and sin of the tensors, or SciPy's digamma and polygamma on the host: the
    # same functions as the expected values, a rounding or two apart at most
    np.testing.assert_allclose(g.detach().numpy(), first, rtol=1e-14)
    np.testing.assert_allclose(h.numpy(), second, rtol=1e-14)
