"""chainrules.scipy.linalg: SciPy's matrix functions with rules, differentiable in every engine.

Gradients are compared with central differences of SciPy itself, element by element (step
1e-6 on well-conditioned 2 x 2 and 3 x 3 matrices: errors near 1e-9, hence rtol 1e-6).
"""

import numpy as np
import pytest
import scipy.linalg as sla

import chainrules as cr
from chainrules.engines import hessian, reverse
from chainrules.scipy import linalg

A = np.array([[1.0, 0.2, 0.1], [0.1, 0.5, 0.3], [0.0, 0.2, 0.8]])
B = np.array([1.0, -2.0, 0.5])


def numerical_gradient(f, a, h=1e-6):
    g = np.zeros_like(a)
    for index in np.ndindex(a.shape):
        e = np.zeros_like(a)
        e[index] = h
        g[index] = (f(a + e) - f(a - e)) / (2 * h)
    return g


LOSSES = [
    ("expm", lambda m, a: m.expm(a).sum()),
    ("sqrtm", lambda m, a: m.sqrtm(a @ a.T + np.eye(3))[0, 1]),
    ("logm", lambda m, a: m.logm(a + np.eye(3)).sum()),
    ("solve", lambda m, a: m.solve(a, B) @ B),
    ("solve_triangular", lambda m, a: m.solve_triangular(a, B, lower=False).sum()),
    ("cho_solve", lambda m, a: m.cho_solve(m.cho_factor(a @ a.T + np.eye(3)), B).sum()),
    ("inv", lambda m, a: m.inv(a)[2, 0]),
    ("det", lambda m, a: m.det(a)),
]


@pytest.mark.parametrize(("name", "loss"), LOSSES, ids=[n for n, _ in LOSSES])
def test_reverse_engine_gradient_matches_finite_differences(name, loss):
    g = reverse.grad(lambda a: loss(linalg, a))(A)
    np.testing.assert_allclose(
        g, numerical_gradient(lambda a: loss(sla, a), A), rtol=1e-6, atol=1e-9
    )


def test_second_order_of_expm():
    h = hessian(lambda a: linalg.expm(a).sum())(A)
    g = lambda a: reverse.grad(lambda b: linalg.expm(b).sum())(a)
    column = numerical_gradient(lambda a: g(a)[0, 1], A)  # d/dA of one gradient element
    np.testing.assert_allclose(h[0, 1], column, rtol=1e-6, atol=1e-9)


def test_dir_and_missing_functions():
    names = dir(linalg)
    assert {"expm", "sqrtm", "logm", "schur", "solve", "cho_solve", "lu_factor"} <= set(names)
    assert all(
        cr.rrule.has_rule(getattr(sla, n)) or cr.frule.has_rule(getattr(sla, n)) for n in names
    )
    with pytest.raises(AttributeError, match=r"scipy.linalg.get_blas_funcs has no rules"):
        linalg.get_blas_funcs  # noqa: B018


def test_plain_values_are_scipys():
    np.testing.assert_array_equal(linalg.expm(A), sla.expm(A))
    np.testing.assert_array_equal(linalg.solve(A, B), sla.solve(A, B))


def test_torch_expm_and_sqrtm_twice():
    torch = pytest.importorskip("torch")
    a = torch.tensor(A, requires_grad=True)
    assert torch.autograd.gradcheck(linalg.expm, (a,))
    assert torch.autograd.gradgradcheck(linalg.expm, (a,))
    spd = torch.tensor(A @ A.T + np.eye(3), requires_grad=True)
    assert torch.autograd.gradgradcheck(lambda s: linalg.sqrtm(s), (spd,))


def test_jax_jit_grad_of_logm():
    jax = pytest.importorskip("jax")
    previous = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    try:
        g = jax.jit(jax.grad(lambda a: linalg.logm(a + jax.numpy.eye(3)).sum()))(
            jax.numpy.asarray(A)
        )
    finally:
        jax.config.update("jax_enable_x64", previous)
    expected = numerical_gradient(lambda a: sla.logm(a + np.eye(3)).sum(), A)
    np.testing.assert_allclose(np.asarray(g), expected, rtol=1e-6, atol=1e-9)


def test_autograd_gradient_of_schur_based_sqrtm():
    autograd = pytest.importorskip("autograd")
    spd = A @ A.T + np.eye(3)
    g = autograd.grad(lambda s: linalg.sqrtm(s)[0, 1])(spd)
    expected = numerical_gradient(lambda s: sla.sqrtm(s)[0, 1], spd)
    np.testing.assert_allclose(g, expected, rtol=1e-6, atol=1e-9)
