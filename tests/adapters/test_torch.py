"""The torch adapter: gradcheck and gradgradcheck on the table, forward mode, vmap, dtypes."""

import numpy as np
import pytest
import scipy.special as sc

torch = pytest.importorskip("torch")

from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402

from chainrules.adapters import torch as cr_torch  # noqa: E402


def tensors(case, seed=0):
    rng = np.random.default_rng(seed)
    return tuple(torch.tensor(a, requires_grad=True) for a in case.args(rng))


@pytest.mark.parametrize("case", CASES, ids=str)
def test_gradcheck_and_gradgradcheck(case):
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
        torch.func.vmap(cr_torch.wrap(np.sum))(x).numpy(), [1 / 7, 5 / 7, 9 / 7]
    )
    batched = torch.func.vmap(torch.func.grad(cr_torch.wrap(sc.gammaln)))(x[:, 0] + 1)
    np.testing.assert_allclose(batched.numpy(), sc.digamma(x[:, 0].numpy() + 1), rtol=1e-12)


def test_dtype_is_kept():
    x = torch.tensor([1.5, 2.5], dtype=torch.float32, requires_grad=True)
    y = cr_torch.wrap(sc.gammaln)(x)
    (g,) = torch.autograd.grad(y.sum(), x)
    assert y.dtype == g.dtype == torch.float32


def test_constants_and_keywords_pass_through():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float64, requires_grad=True)
    y = cr_torch.wrap(sc.polygamma)(1, x)
    (g,) = torch.autograd.grad(y.sum(), x)
    np.testing.assert_allclose(g.numpy(), sc.polygamma(2, x.detach().numpy()), rtol=1e-12)
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
