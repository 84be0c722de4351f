"""Second and third derivatives, and the hard cases that pin the engines on real code.

Cases that need library rules not written yet skip, naming the missing rule.
"""

import contextlib

import numdifftools as nd
import numpy as np
import pytest

from chainrules.engines import NoRuleError, forward, hessian, reverse


@contextlib.contextmanager
def library_rules():
    """Skip, naming the function, while a rule this case needs is still missing."""
    try:
        yield
    except NoRuleError as error:
        pytest.skip(f"waiting for a rule: {str(error).split(',')[0]}")


def reverse_over_reverse(f):
    return reverse.jacobian(reverse.grad(f))


def forward_over_forward(f):
    return forward.jacobian(forward.jacobian(f))


HESSIANS = {
    "forward over reverse": hessian,
    "reverse over reverse": reverse_over_reverse,
    "forward over forward": forward_over_forward,
}


@pytest.mark.parametrize("how", HESSIANS)
@pytest.mark.parametrize(
    ("x", "expected"),
    [
        ([1.0, 2.0], [[0, 1], [1, 0]]),
        ([0.0, 0.0, 3.0], [[0, 3, 0], [3, 0, 0], [0, 0, 0]]),
        ([0.0, 2.0, 3.0], [[0, 3, 2], [3, 0, 0], [2, 0, 0]]),
    ],
)
def test_hessian_of_prod_is_exact_at_zeros(how, x, expected):
    with library_rules():
        h = HESSIANS[how](np.prod)(np.array(x))
    assert np.array_equal(h, np.array(expected, dtype=float))


@pytest.mark.parametrize("how", HESSIANS)
def test_hessian_of_sum_is_zero(how):
    with library_rules():
        h = HESSIANS[how](np.sum)(np.array([1.0, 2.0, 3.0]))
    assert np.array_equal(h, np.zeros((3, 3)))


def sin_cos_square(x):
    return np.sin(np.cos(x**2))


def sin_cos_square_derivatives(x):
    u, c = x * x, np.cos(x * x)
    su, cu, sc, cc = np.sin(u), np.cos(u), np.sin(c), np.cos(c)
    d1 = -2 * x * su * cc
    d2 = -2 * su * cc - 4 * x**2 * cu * cc - 4 * x**2 * su**2 * sc
    d3 = (
        -12 * x * cu * cc
        - 12 * x * su**2 * sc
        + 8 * x**3 * su * cc
        - 24 * x**3 * su * cu * sc
        + 8 * x**3 * su**3 * cc
    )
    return d1, d2, d3


DERIVATIVE = {"reverse": reverse.grad, "forward": lambda f: forward.jacobian(f)}


@pytest.mark.parametrize(
    "modes", [("reverse",) * 3, ("forward",) * 3, ("forward", "reverse", "reverse")]
)
@pytest.mark.parametrize("x", [0.0, 0.7, -1.3])
def test_sin_cos_square_to_third_order(modes, x):
    f, derivatives = sin_cos_square, []
    with library_rules():
        for mode in reversed(modes):
            f = DERIVATIVE[mode](f)
            derivatives.append(f(x))
    assert np.allclose(derivatives, sin_cos_square_derivatives(x), rtol=1e-12, atol=1e-12)


def softmax(x):
    z = x - np.max(x)
    e = np.exp(z)
    return e / np.sum(e)


def cross_entropy(x, label=1):
    log_p = x - np.max(x)
    log_p = log_p - np.log(np.sum(np.exp(log_p)))
    return -log_p[label]


LOGITS = np.array([0.5, -1.0, 2.0, 0.1])
WEIGHTS = np.array([1.0, -2.0, 0.5, 3.0])


@pytest.mark.parametrize(
    ("name", "f"),
    [
        ("softmax", lambda x: np.sum(WEIGHTS * softmax(x))),
        ("log-softmax cross-entropy", cross_entropy),
    ],
)
def test_softmax_once_and_twice(name, f):
    with library_rules():
        g = reverse.grad(f)(LOGITS)
        h = hessian(f)(LOGITS)
    assert np.allclose(g, nd.Gradient(f)(LOGITS), rtol=1e-8, atol=1e-10)
    assert np.allclose(h, nd.Hessian(f)(LOGITS), rtol=1e-6, atol=1e-8)


RNG = np.random.default_rng(0)
INPUTS = RNG.normal(size=(5, 3))
TARGETS = RNG.normal(size=5)


def mlp_loss(w1, b1, w2):
    hidden = np.tanh(INPUTS @ w1 + b1)
    return np.mean((hidden @ w2 - TARGETS) ** 2)


def gaussian_log_likelihood(scale):
    cov = np.eye(3) + scale * scale * (INPUTS.T @ INPUTS)
    x = INPUTS[0]
    _, logdet = np.linalg.slogdet(cov)
    return -0.5 * (x @ np.linalg.solve(cov, x) + logdet)


def ridge(w, lam=0.1):
    residual = INPUTS @ w - TARGETS
    return residual @ residual + lam * w @ w


def test_mlp_gradients():
    w1, b1, w2 = RNG.normal(size=(3, 4)), RNG.normal(size=4), RNG.normal(size=4)
    with library_rules():
        grads = reverse.grad(mlp_loss, argnums=(0, 1, 2))(w1, b1, w2)
    for i, (g, x) in enumerate(zip(grads, (w1, b1, w2), strict=True)):

        def along(v, i=i, x=x):
            args = [w1, b1, w2]
            args[i] = v.reshape(x.shape)
            return mlp_loss(*args)

        assert np.allclose(g.ravel(), nd.Gradient(along)(x.ravel()), rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize(
    ("name", "f", "x"),
    [
        ("gaussian log-likelihood", gaussian_log_likelihood, 0.7),
        ("ridge regression", ridge, np.array([0.5, -0.3, 1.2])),
    ],
)
def test_statistics_gradients_and_hessians(name, f, x):
    with library_rules():
        g = reverse.grad(f)(x)
        h = hessian(f)(x)
    assert np.allclose(g, nd.Gradient(f)(x), rtol=1e-7, atol=1e-9)
    assert np.allclose(h, nd.Hessian(f)(x), rtol=1e-5, atol=1e-7)
