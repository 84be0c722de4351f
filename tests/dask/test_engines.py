"""The reference engines on dask arrays, computed on a ``dask.distributed`` cluster.

Each gradient, tangent and Hessian-vector product is built lazily (nothing computes while the
engines trace: ``nothing_computes``), computed on the session's ``LocalCluster`` (two worker
processes) and compared with the NumPy engine's on the same data. Tolerance: dask sums chunk
by chunk, then the chunks' sums in a tree, where NumPy sums pairwise, so sums of 4e5 terms of
size about 1 differ by a few units of 1e-16 times their count's logarithm: 1e-10 relative,
the tolerance the logistic gradient is held to, holds with room.
"""

import numpy as np
import pytest

da = pytest.importorskip("dask.array")
pytest.importorskip("distributed")

import dask  # noqa: E402
from chainrules_testing.lazy import nothing_computes  # noqa: E402

import chainrules as cr  # noqa: E402
from chainrules.engines import forward, reverse  # noqa: E402

ROWS, COLUMNS, CHUNK = 400_000, 8, 50_000
RTOL = 1e-10


@pytest.fixture(scope="module")
def lazy_data():
    """Parameters (NumPy) and data (dask arrays, drawn on the workers chunk by chunk)."""
    rng = da.random.default_rng(0)
    x = rng.standard_normal((ROWS, COLUMNS), chunks=(CHUNK, COLUMNS))
    labels = (rng.random(ROWS, chunks=CHUNK) < 0.5).astype(float)
    w = np.random.default_rng(0).standard_normal(COLUMNS) / 4
    return w, x, labels


@pytest.fixture(scope="module")
def data(cluster_client, lazy_data):
    """The same data as NumPy arrays, for the NumPy engine."""
    w, x, labels = lazy_data
    return (w, *on_cluster(cluster_client, x, labels))


def logistic_loss(w, x, labels):
    z = x @ w
    return np.sum(np.logaddexp(0, z) - labels * z) / x.shape[0]


def softmax_cross_entropy(x, labels):
    shift = np.max(x, axis=1, keepdims=True)
    log_norm = np.log(np.sum(np.exp(x - shift), axis=1, keepdims=True)) + shift
    return -np.mean(np.sum(labels * (x - log_norm), axis=1))


def column_means(x):
    return np.sum(np.mean(x, axis=0) ** 2)


def one_hot(labels):
    return (labels[:, None] == np.arange(COLUMNS)).astype(float)


def assert_close(actual, expected, rtol=RTOL):
    np.testing.assert_allclose(actual, expected, rtol=rtol, atol=rtol * np.max(np.abs(expected)))


def on_cluster(client, *values):
    return dask.compute(*values, scheduler=client.get)


def test_logistic_gradient_in_the_parameters(cluster_client, data, lazy_data):
    with nothing_computes():
        value, gradient = reverse.value_and_grad(logistic_loss)(*lazy_data)
    assert isinstance(gradient, da.Array) and isinstance(value, da.Array)
    value, gradient = on_cluster(cluster_client, value, gradient)
    expected_value, expected = reverse.value_and_grad(logistic_loss)(*data)
    assert_close(value, expected_value)
    assert_close(gradient, expected)
    w, x, labels = data
    by_hand = x.T @ (1 / (1 + np.exp(-(x @ w))) - labels) / ROWS
    assert_close(gradient, by_hand, rtol=1e-9)  # the formula's own rounding


@pytest.mark.parametrize(
    ("f", "argnums"),
    [(logistic_loss, 1), (softmax_cross_entropy, 0), (column_means, 0)],
    ids=["logistic in the data", "softmax cross-entropy", "column means"],
)
def test_gradient_in_the_dask_array_has_its_chunks(cluster_client, data, lazy_data, f, argnums):
    w, x, labels = data
    _, lazy_x, lazy_labels = lazy_data
    args = {
        logistic_loss: ((w, lazy_x, lazy_labels), (w, x, labels)),
        softmax_cross_entropy: ((lazy_x, one_hot(lazy_labels)), (x, one_hot(labels))),
        column_means: ((lazy_x,), (x,)),
    }[f]
    with nothing_computes():
        gradient = reverse.grad(f, argnums)(*args[0])
    assert isinstance(gradient, da.Array)
    assert gradient.chunks == lazy_x.chunks
    (gradient,) = on_cluster(cluster_client, gradient)
    assert_close(gradient, reverse.grad(f, argnums)(*args[1]))


def test_forward_mode_along_the_parameters_and_the_data(cluster_client, data, lazy_data):
    w, x, labels = data
    _, lazy_x, lazy_labels = lazy_data
    dw = np.random.default_rng(1).standard_normal(COLUMNS)
    lazy_dx = da.random.default_rng(1).standard_normal(x.shape, chunks=lazy_x.chunks)
    (dx,) = on_cluster(cluster_client, lazy_dx)
    with nothing_computes():
        _, along_w = forward.jvp(logistic_loss, (w, lazy_x, lazy_labels), (dw, None, None))
        _, along_x = forward.jvp(
            softmax_cross_entropy, (lazy_x, one_hot(lazy_labels)), (lazy_dx, None)
        )
        _, along_means = forward.jvp(column_means, (lazy_x,), (lazy_dx,))
    lazy = on_cluster(cluster_client, along_w, along_x, along_means)
    expected = (
        forward.jvp(logistic_loss, (w, x, labels), (dw, None, None))[1],
        forward.jvp(softmax_cross_entropy, (x, one_hot(labels)), (dx, None))[1],
        forward.jvp(column_means, (x,), (dx,))[1],
    )
    for actual, wanted in zip(lazy, expected, strict=True):
        assert_close(actual, wanted)


def test_hessian_vector_product_of_the_logistic_loss(cluster_client, data, lazy_data):
    w, x, labels = data
    v = np.random.default_rng(2).standard_normal(COLUMNS)

    def hvp(x, labels):
        gradient = reverse.grad(logistic_loss)
        return forward.jvp(lambda w: gradient(w, x, labels), (w,), (v,))[1]

    with nothing_computes():
        product = hvp(*lazy_data[1:])
    assert isinstance(product, da.Array)
    (product,) = on_cluster(cluster_client, product)
    assert_close(product, hvp(x, labels))
    p = 1 / (1 + np.exp(-(x @ w)))
    assert_close(product, x.T @ (p * (1 - p) * (x @ v)) / ROWS, rtol=1e-9)


def test_rrule_on_a_dask_array_is_lazy_to_the_cotangent(cluster_client, lazy_data, data):
    with nothing_computes():
        y, pullback = cr.rrule(np.tanh, lazy_data[1])
        _, dx = pullback(da.ones_like(y))
    assert isinstance(y, da.Array) and dx.chunks == lazy_data[1].chunks
    (dx,) = on_cluster(cluster_client, dx)
    assert_close(dx, 1 - np.tanh(data[1]) ** 2)


def test_a_rule_that_would_compute_raises_naming_the_function(lazy_data):
    x = lazy_data[1][:8, :4].rechunk((4, 2))  # dask's SVD takes one chunked dimension only
    with nothing_computes(), pytest.raises(cr.ChainRulesError, match=r"numpy\.linalg\.svd"):
        reverse.grad(lambda a: np.linalg.svd(a, compute_uv=False).sum())(x)


@cr.with_rules
def _scaled_by_its_sum(x):
    return x * 2.0


@cr.rrule.register(_scaled_by_its_sum)
def _scaled_by_its_sum_rrule(x):
    def scaled_by_its_sum_pullback(dy):
        dy = cr.unthunk(dy)
        return cr.NoTangent(), dy * float(dy.sum())  # float(...) computes the dask array

    return x * 2.0, scaled_by_its_sum_pullback


def test_a_pullback_that_would_compute_raises_naming_the_function():
    # The backward sweep names the function whose pullback asked dask to compute.
    x = da.from_array(np.ones((4, 2)), chunks=(2, 2))
    with pytest.raises(cr.LazyArrayError, match=r"the pullback of .*_scaled_by_its_sum"):
        reverse.grad(lambda a: _scaled_by_its_sum(a).sum())(x)
