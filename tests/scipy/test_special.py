"""chainrules.scipy.special: SciPy's functions with rules, their values SciPy's own, and their
derivatives reached from the reference engines, torch, JAX and autograd.

Derivatives are compared with central differences of SciPy itself (step 1e-5 on arguments of
order 1: truncation and rounding errors near 1e-10, hence rtol 1e-7), or with closed forms.
"""

import inspect

import numpy as np
import pytest
import scipy.special as sc

import chainrules as cr
from chainrules.engines import forward, hessian, reverse
from chainrules.scipy import special


def central(f, x, h=1e-5):
    return (f(x + h) - f(x - h)) / (2 * h)


def betainc_a(a):
    return sc.betainc(a, 2.0, 0.3)


def test_dir_lists_exactly_the_functions_with_rules():
    names = dir(special)
    expected = sorted(
        n
        for n in sc.__all__
        if callable(getattr(sc, n))
        and (cr.rrule.has_rule(getattr(sc, n)) or cr.frule.has_rule(getattr(sc, n)))
    )
    assert names == expected
    assert {"betainc", "gammaln", "logsumexp", "softmax", "polygamma", "jv", "kv"} <= set(names)
    assert special.__all__ == names


def test_every_function_has_scipys_name_signature_and_docstring():
    for name in dir(special):
        ours, theirs = getattr(special, name), getattr(sc, name)
        assert ours.__name__ == getattr(theirs, "__name__", name)  # SciPy 1.16's MultiUFuncs
        assert ours.__doc__ == theirs.__doc__
        assert ours.__wrapped__ is theirs
        try:
            signature = inspect.signature(theirs)
        except (TypeError, ValueError):  # ufuncs have none
            continue
        assert inspect.signature(ours) == signature


def test_a_function_without_rules_says_so():
    with pytest.raises(AttributeError, match=r"scipy.special.errstate has no rules"):
        special.errstate  # noqa: B018
    with pytest.raises(AttributeError, match=r"no attribute 'no_such_function'"):
        special.no_such_function  # noqa: B018


def test_plain_values_give_scipys_values_exactly():
    x = np.linspace(0.1, 3.0, 7)
    np.testing.assert_array_equal(special.gammaln(x), sc.gammaln(x))
    np.testing.assert_array_equal(special.betainc(1.5, 2.0, x / 3.1), sc.betainc(1.5, 2.0, x / 3.1))
    np.testing.assert_array_equal(special.logsumexp(x), sc.logsumexp(x))
    assert special.polygamma(1, 2.5) == sc.polygamma(1, 2.5)


def test_reference_engines_differentiate_betainc_in_a():
    first = central(betainc_a, 1.5)
    assert reverse.grad(lambda a: special.betainc(a, 2.0, 0.3))(1.5) == pytest.approx(
        first, rel=1e-7
    )
    assert forward.jvp(lambda a: special.betainc(a, 2.0, 0.3), (1.5,), (1.0,))[1] == pytest.approx(
        first, rel=1e-7
    )
    second = central(lambda a: central(betainc_a, a, 1e-4), 1.5, 1e-4)
    assert hessian(lambda a: special.betainc(a, 2.0, 0.3))(1.5) == pytest.approx(second, rel=1e-5)


@pytest.mark.parametrize(
    ("name", "f", "x"),
    [
        ("logsumexp", lambda x: special.logsumexp(x), np.array([0.2, -1.0, 0.7])),
        ("softmax", lambda x: special.softmax(x)[1], np.array([0.2, -1.0, 0.7])),
        ("polygamma", lambda x: special.polygamma(1, x).sum(), np.array([0.6, 1.5, 4.0])),
        ("softplus", lambda x: special.softplus(x).sum(), np.array([-2.0, 0.3, 5.0])),
    ],
    ids=lambda v: v if isinstance(v, str) else "",
)
def test_functions_that_are_not_ufuncs_differentiate(name, f, x):
    g = reverse.grad(f)(x)
    for i in range(x.size):
        e = np.eye(x.size)[i]
        assert g[i] == pytest.approx(central(lambda t, e=e: f(x + t * e), 0.0), rel=1e-7, abs=1e-10)


def test_torch_gradcheck_and_gradgradcheck_of_betainc():
    torch = pytest.importorskip("torch")
    a, b, x = (torch.tensor([v], dtype=torch.float64, requires_grad=True) for v in (1.5, 2.0, 0.3))
    assert torch.autograd.gradcheck(special.betainc, (a, b, x))
    assert torch.autograd.gradgradcheck(special.betainc, (a, b, x))
    (g,) = torch.autograd.grad(special.betainc(a, b, x).sum(), a)
    assert g.item() == pytest.approx(central(betainc_a, 1.5), rel=1e-7)


@pytest.fixture
def jax_x64(request):
    jax = pytest.importorskip("jax")
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", getattr(request, "param", True))
    yield jax
    jax.config.update("jax_enable_x64", previous)


def test_jax_grad_of_grad_of_betainc_in_a(jax_x64):
    jax = jax_x64
    second = central(lambda a: central(betainc_a, a, 1e-4), 1.5, 1e-4)
    f = jax.grad(jax.grad(lambda a: special.betainc(a, 2.0, 0.3)))
    assert float(f(1.5)) == pytest.approx(second, rel=1e-5)
    assert float(jax.jit(f)(1.5)) == pytest.approx(second, rel=1e-5)
    batch = jax.vmap(jax.grad(lambda a: special.betainc(a, 2.0, 0.3)))(jax.numpy.array([1.5, 3.0]))
    expected = [central(betainc_a, 1.5), central(betainc_a, 3.0)]
    np.testing.assert_allclose(np.asarray(batch), expected, rtol=1e-7)


@pytest.mark.parametrize("jax_x64", [False], indirect=True, ids=["x64 off"])
def test_jax_in_single_precision(jax_x64):
    jax = jax_x64
    g = jax.jit(jax.grad(lambda x: special.gammaln(x).sum()))(jax.numpy.array([1.5, 3.0]))
    assert g.dtype == jax.numpy.float32
    np.testing.assert_allclose(np.asarray(g), sc.digamma([1.5, 3.0]), rtol=1e-6)


def test_autograd_second_derivative_of_betainc_in_a():
    autograd = pytest.importorskip("autograd")
    second = central(lambda a: central(betainc_a, a, 1e-4), 1.5, 1e-4)
    f = lambda a: special.betainc(a, 2.0, 0.3)
    assert autograd.grad(f)(1.5) == pytest.approx(central(betainc_a, 1.5), rel=1e-7)
    assert autograd.grad(autograd.grad(f))(1.5) == pytest.approx(second, rel=1e-5)


def test_torch_forward_mode_and_vmap():
    torch = pytest.importorskip("torch")
    from torch.func import jacfwd, jvp, vmap

    a = torch.tensor([1.5, 3.0], dtype=torch.float64)
    assert torch.autograd.gradcheck(
        lambda a: special.betainc(a, 2.0, 0.3), (a.clone().requires_grad_(),), check_forward_ad=True
    )
    _, da = jvp(lambda a: special.betainc(a, 2.0, 0.3), (a,), (torch.ones_like(a),))
    expected = [central(betainc_a, 1.5), central(betainc_a, 3.0)]
    np.testing.assert_allclose(da.numpy(), expected, rtol=1e-7)
    batched = vmap(jacfwd(lambda a: special.gammaln(a)))(a)
    np.testing.assert_allclose(batched.numpy(), sc.digamma([1.5, 3.0]), rtol=1e-12)
