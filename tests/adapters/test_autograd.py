"""The autograd adapter: the table through autograd.grad twice, against the reverse engine."""

import numpy as np
import pytest
import scipy.special as sc

autograd = pytest.importorskip("autograd")

import autograd.numpy as anp  # noqa: E402
from adapter_cases import CASES, SECOND_ORDER_UNSUPPORTED  # noqa: E402
from autograd.core import primitive_vjps  # noqa: E402
from autograd.tracer import trace_primitives_map  # noqa: E402

from chainrules.adapters import autograd as cr_autograd  # noqa: E402
from chainrules.engines import call, reverse  # noqa: E402


@pytest.fixture(scope="module", autouse=True)
def installed():
    cr_autograd.install()
    yield
    cr_autograd.uninstall()


def squared_norm(y, xp=np):
    """A real loss of any output."""
    return xp.sum(xp.real(y * xp.conj(y)))


def autograd_cases():
    cr_autograd.install()  # fills autograd's map before the table is filtered
    return [c for c in CASES if trace_primitives_map.get(c.f) in primitive_vjps]


@pytest.mark.parametrize("case", autograd_cases(), ids=str)
def test_grad_twice_agrees_with_the_reverse_engine(case):
    # autograd's gradients are the conjugates of the project's cotangents (equal for real x).
    primitive = trace_primitives_map[case.f]
    x, *rest = case.args(np.random.default_rng(0))
    v = np.random.default_rng(1).standard_normal(np.shape(x))

    def loss_autograd(x):
        return squared_norm(primitive(x, *rest, **case.kwargs), anp)

    def loss_engine(x):
        return squared_norm(call(case.f, x, *rest, **case.kwargs))

    expected = np.conj(reverse.grad(loss_engine)(x))
    np.testing.assert_allclose(autograd.grad(loss_autograd)(x), expected, rtol=1e-9, atol=1e-12)
    if case.name in SECOND_ORDER_UNSUPPORTED:
        pytest.skip(SECOND_ORDER_UNSUPPORTED[case.name])

    def along_v_autograd(x):
        return anp.sum(anp.real(anp.conj(autograd.grad(loss_autograd)(x)) * v))

    def along_v_engine(x):
        return np.real(reverse.grad(loss_engine)(x) * v).sum()

    expected = np.conj(reverse.grad(along_v_engine)(x))
    np.testing.assert_allclose(autograd.grad(along_v_autograd)(x), expected, rtol=1e-8, atol=1e-11)


def test_third_derivative_goes_down_the_gamma_family():
    import autograd.scipy.special as asp

    d3 = autograd.grad(autograd.grad(autograd.grad(asp.gammaln)))
    assert d3(1.5) == pytest.approx(sc.polygamma(2, 1.5), rel=1e-10)


def test_forward_mode_uses_the_frule():
    _, dy = autograd.make_jvp(anp.tanh)(0.5)(2.0)
    assert dy == pytest.approx(2.0 * (1 - np.tanh(0.5) ** 2), rel=1e-12)


def test_complex_convention_matches_autograd():
    z = np.array([0.5 + 0.7j, -1.0 + 0.2j])

    def loss(z):
        return anp.sum(anp.abs(anp.sin(z)) ** 2)

    ours = autograd.grad(loss)(z)
    cr_autograd.uninstall()
    try:
        theirs = autograd.grad(loss)(z)
    finally:
        cr_autograd.install()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)


def test_uninstall_restores_autograd_rules():
    ours = primitive_vjps[anp.sin]
    cr_autograd.uninstall()
    try:
        assert not cr_autograd.installed()
        assert primitive_vjps[anp.sin] is not ours
    finally:
        cr_autograd.install()
    assert cr_autograd.installed()
