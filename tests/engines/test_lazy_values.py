"""Dask values in the engines: tracked lazily; a rule's computation raises naming the rule."""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")

from chainrules_testing.lazy import nothing_computes  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.engines import forward, reverse  # noqa: E402
from chainrules.engines.lazy_values import is_lazy_float, lazy_zeros_like  # noqa: E402


@pytest.fixture
def x():
    return da.from_array(np.linspace(-1.0, 1.0, 12).reshape(6, 2), chunks=(2, 1))


def test_lazy_floats_are_tracked_and_their_zeros_keep_the_chunks(x):
    assert is_lazy_float(x) and not is_lazy_float(x.astype(int)) and not is_lazy_float(1.0)
    assert lazy_zeros_like(x).chunks == x.chunks and lazy_zeros_like(np.ones(2)) is None


def test_an_unused_dask_argument_gets_a_lazy_zero(x):
    with nothing_computes():
        _, (dx, dw) = reverse.value_and_grad(lambda x, w: np.sum(w * w), (0, 1))(x, np.ones(2))
    assert dx.chunks == x.chunks
    np.testing.assert_array_equal(dx.compute(), np.zeros(x.shape))  # exactly: no operation
    np.testing.assert_array_equal(dw, np.full(2, 2.0))


def test_a_rule_that_computes_raises_naming_it_while_the_users_compute_runs(x):
    weights = da.arange(1.0, 4.0, chunks=1)

    def f(x):
        scale = float(weights.sum().compute())  # the user's own computation of a constant
        return np.sum(np.sin(x)) * scale

    gradient = reverse.grad(f)(x)
    np.testing.assert_allclose(gradient.compute(), np.cos(x.compute()) * 6.0, rtol=1e-15)
    with pytest.raises(cr.ChainRulesError, match=r"numpy\.linalg\.svd"):
        reverse.grad(lambda a: np.linalg.svd(a, compute_uv=False).sum())(x)


def test_second_order_mixes_tracked_values_and_dask_constants(x):
    w = np.array([0.3, -0.2])
    v = np.array([1.0, 2.0])

    def loss(w):
        return np.sum(np.tanh(x @ w) ** 2)

    with nothing_computes():
        _, hvp = forward.jvp(reverse.grad(loss), (w,), (v,))
    expected = forward.jvp(
        reverse.grad(lambda w: np.sum(np.tanh(x.compute() @ w) ** 2)), (w,), (v,)
    )[1]
    np.testing.assert_allclose(hvp.compute(), expected, rtol=1e-13)  # sums in another order
