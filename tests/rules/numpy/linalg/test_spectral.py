"""Tests of the rules for np.linalg.svd, svdvals, eigh, eigvalsh, eig and eigvals, at repeated
singular values and eigenvalues too."""

import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import distinct_eigenvalues, distinct_singular_values
from fdm import central_fdm
from hypothesis import find
from samples import DTYPES, ids, sample

import chainrules as cr
from chainrules import NoTangent
from chainrules.engines import hessian, reverse
from chainrules.rules.matrices import mH


def orthogonal(n, dtype=np.float64, seed=0):
    q, _ = np.linalg.qr(sample((n, n), dtype, seed))
    return q


def with_singular_values(s, m, n, dtype=np.float64, seed=0):
    """An ``m x n`` matrix with the given singular values (repeats allowed)."""
    k = len(s)
    u, v = orthogonal(m, dtype, seed)[:, :k], orthogonal(n, dtype, seed + 1)[:, :k]
    return (u * np.asarray(s)) @ mH(v)


def with_eigenvalues(w, dtype=np.float64, seed=0):
    """A Hermitian matrix with the given eigenvalues (repeats allowed)."""
    q = orthogonal(len(w), dtype, seed)
    return (q * np.asarray(w)) @ mH(q)


def gauge_invariant(result, dtype, seed=1):
    """A random cotangent of ``svd``'s or ``eigh``'s result that does not depend on the phases
    of complex singular vectors or eigenvectors (the imaginary part of diag(V^H g_V) is
    projected out): the only cotangents for which a derivative exists."""
    shapes = [np.shape(r) for r in result]
    parts = [sample(s, dtype if k != 1 else np.float64, seed + k) for k, s in enumerate(shapes)]
    if np.dtype(dtype).kind == "c":
        if len(result) == 3:  # svd: U, S, Vh
            u, _, vh = result
            phase = np.imag(
                np.linalg.diagonal(mH(u) @ parts[0]) + np.linalg.diagonal(vh @ mH(parts[2]))
            )
            parts[0] = parts[0] - u * (1j * phase)[..., None, :]
        else:  # eigh: eigenvalues, eigenvectors
            v = result[1]
            phase = np.imag(np.linalg.diagonal(mH(v) @ parts[1]))
            parts[1] = parts[1] - v * (1j * phase)[..., None, :]
    names = result._fields
    return cr.Tangent(type(result), **dict(zip(names, parts, strict=True)))


# Eigenvectors and singular vectors flip sign where eigenvalues cross, which the default
# finite differences' largest trial steps can reach: these checks use small steps.
SMALL_STEPS = central_fdm(5, 1)
SVD_SHAPES = [(3, 3), (4, 2), (2, 4)]


@pytest.mark.parametrize("shape", SVD_SHAPES, ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_svd(shape, dtype):
    a = find(distinct_singular_values(*shape, dtype=dtype), lambda a: True)
    dy = gauge_invariant(np.linalg.svd(a, full_matrices=False), dtype)
    real = np.dtype(dtype).kind == "f"
    test_rrule(np.linalg.svd, a, False, output_tangent=dy, check_second_order=real, fdm=SMALL_STEPS)
    if real:  # the phases of complex singular vectors are LAPACK's choice, not a function
        test_frule(np.linalg.svd, a, False, fdm=SMALL_STEPS)
    test_rrule(np.linalg.svd, a, fkwargs={"compute_uv": False}, check_second_order=True)
    test_frule(np.linalg.svd, a, fkwargs={"compute_uv": False})
    test_rrule(np.linalg.svdvals, a, check_second_order=True)
    test_frule(np.linalg.svdvals, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_svd_frule_agrees_with_rrule(dtype):
    """<g, frule(da)> = <rrule(g), da> for a gauge-invariant g, complex inputs included."""
    a, da = sample((4, 3), dtype), sample((4, 3), dtype, 5)
    result, tangent = cr.frule((None, da), np.linalg.svd, a, False)
    g = gauge_invariant(result, dtype)
    _, pullback = cr.rrule(np.linalg.svd, a, False)
    lhs = sum(np.real(np.vdot(g[k], tangent[k])) for k in result._fields)
    np.testing.assert_allclose(lhs, np.real(np.vdot(pullback(g)[1], da)), rtol=1e-10)


def test_svd_stacked_and_hermitian():
    a = sample((2, 3, 3))
    test_rrule(np.linalg.svd, a, False, fdm=SMALL_STEPS)
    test_frule(np.linalg.svd, a, False, fdm=SMALL_STEPS)
    h = with_eigenvalues([3.0, -2.0, 1.0])
    test_rrule(np.linalg.svd, h, fkwargs={"hermitian": True}, fdm=SMALL_STEPS)
    test_frule(np.linalg.svd, h, fkwargs={"hermitian": True}, fdm=SMALL_STEPS)


def test_svd_full_matrices_rejects_cotangents_of_undetermined_vectors():
    a = sample((4, 2))
    result, pullback = cr.rrule(np.linalg.svd, a)
    with pytest.raises(ValueError, match="full_matrices=False"):
        pullback(cr.Tangent(type(result), U=np.ones((4, 4))))
    g_s = np.array([1.0, 2.0])
    np.testing.assert_allclose(
        pullback(cr.Tangent(type(result), S=g_s))[1],
        cr.rrule(np.linalg.svdvals, a)[1](g_s)[1],
    )


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_sum_of_singular_values_at_repeated_values(dtype):
    """Masking: sum(s) is basis-free, so its gradient at s = (2, 2, 1) is finite and right."""
    a = with_singular_values([2.0, 2.0, 1.0], 4, 3, dtype)
    result, pullback = cr.rrule(np.linalg.svd, a, False)
    g = pullback(cr.Tangent(type(result), S=np.ones(3)))[1]
    u, _, vh = result
    np.testing.assert_allclose(g, u @ vh, atol=1e-12)
    da = sample((4, 3), dtype, 3)
    h = 1e-6
    fd = (np.sum(np.linalg.svdvals(a + h * da)) - np.sum(np.linalg.svdvals(a - h * da))) / (2 * h)
    np.testing.assert_allclose(np.real(np.vdot(g, da)), fd, rtol=1e-6)


def test_svdvals_at_ties_is_exact():
    _, pullback = cr.rrule(np.linalg.svdvals, np.diag([3.0, 3.0, 3.0]))
    np.testing.assert_allclose(pullback(np.ones(3))[1], np.eye(3), atol=1e-15)


@pytest.mark.parametrize("shape", [(3, 3), (2, 4, 4)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eigh(shape, dtype):
    a = find(distinct_eigenvalues(shape[-1], dtype=dtype), lambda a: True)
    a = np.broadcast_to(a, shape) + sample(shape, dtype) * 0.01
    dy = gauge_invariant(np.linalg.eigh(a), dtype)
    real = np.dtype(dtype).kind == "f"
    test_rrule(np.linalg.eigh, a, output_tangent=dy, check_second_order=real, fdm=SMALL_STEPS)
    if real:
        test_frule(np.linalg.eigh, a, fdm=SMALL_STEPS)
    for uplo in ("L", "U"):
        test_rrule(np.linalg.eigvalsh, a, uplo, check_second_order=True)
        test_frule(np.linalg.eigvalsh, a, uplo)


def test_eigh_reads_one_triangle():
    a = sample((3, 3))
    _, pullback = cr.rrule(np.linalg.eigvalsh, a, "U")
    g = pullback(np.array([1.0, 2.0, 3.0]))[1]
    np.testing.assert_array_equal(np.tril(g, -1), 0)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eigh_projector_at_repeated_eigenvalues(dtype):
    """Masking: the projector onto the eigenspace of a repeated eigenvalue is basis-free."""
    a = with_eigenvalues([1.0, 1.0, 3.0, 4.0], dtype)
    weights = sample((4, 4), dtype, 2)

    def loss(m):
        v = np.linalg.eigh(m).eigenvectors[:, :2]
        return np.real(np.vdot(weights, v @ mH(v)))

    result, pullback = cr.rrule(np.linalg.eigh, a)
    v = result.eigenvectors
    g_v = np.zeros_like(v)
    g_v[:, :2] = (weights + mH(weights)) @ v[:, :2]
    g = pullback(cr.Tangent(type(result), eigenvectors=g_v))[1]
    assert np.all(np.isfinite(g))
    da = sample((4, 4), dtype, 3)
    h = 1e-6
    fd = (loss(a + h * da) - loss(a - h * da)) / (2 * h)
    np.testing.assert_allclose(np.real(np.vdot(g, da)), fd, rtol=1e-6)


def test_eigvalsh_at_ties_is_exact():
    _, pullback = cr.rrule(np.linalg.eigvalsh, np.eye(3))
    np.testing.assert_allclose(pullback(np.ones(3))[1], np.eye(3), atol=1e-15)


def general(n, dtype, seed=0):
    """A non-normal matrix with distinct eigenvalues (complex pairs, for a real one)."""
    return sample((n, n), dtype, seed) + np.diag(np.arange(n, dtype=float))


@pytest.mark.parametrize("shape", [(3, 3), (4, 4), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_eig(shape, dtype):
    a = np.reshape([general(shape[-1], dtype, k) for k in range(int(np.prod(shape[:-2])))], shape)
    for f in (np.linalg.eig, np.linalg.eigvals):
        test_rrule(f, a, check_second_order=shape == (3, 3), fdm=SMALL_STEPS)
        test_frule(f, a, fdm=SMALL_STEPS)


def test_eig_of_real_input_gives_real_cotangents():
    a = np.array([[0.0, -1.0, 0.5], [1.0, 0.0, 0.2], [0.1, 0.3, 2.0]])  # a complex pair
    result, pullback = cr.rrule(np.linalg.eig, a)
    assert result.eigenvalues.dtype.kind == "c"
    g = pullback(cr.Tangent(type(result), eigenvalues=np.ones(3), eigenvectors=np.ones((3, 3))))
    assert g[1].dtype == np.float64


def test_matrix_rank_has_no_derivative():
    rank, pullback = cr.rrule(np.linalg.matrix_rank, np.eye(3))
    assert rank == 3 and pullback(1.0) == (NoTangent(), NoTangent())


@pytest.mark.parametrize("f", [np.linalg.eigvals, np.linalg.eig], ids=lambda f: f.__name__)
def test_eig_of_an_empty_stack(f):
    a = np.zeros((0, 3, 3))
    test_rrule(f, a, check_second_order=False)
    test_frule(f, a)


# ---- repeated singular values: the finite half of the couplings, and second derivatives -------

W = np.array([[0.3, 1.0, -0.5], [0.2, -0.7, 0.4], [1.1, 0.6, 0.9]])


def polar_factor_loss(a):
    u, _, vh = np.linalg.svd(a)
    return np.sum(W * (u @ vh))


@pytest.mark.parametrize("a", [np.eye(3), np.diag([2.0, 2.0, 1.0]), 2 * np.eye(3)], ids=str)
def test_polar_factor_through_svd_at_repeated_singular_values(a):
    """U V^H is smooth wherever a is invertible, ties or not: at a = s I its derivative along
    E is (E - E^T) / (2 s), so the gradient of <W, U V^H> is (W - W^T) / (2 s); at diag(2, 2,
    1) the finite differences of scipy's polar factor decide. The coupling 1 / (s_j^2 - s_i^2)
    must be masked only in its 1 / (s_j - s_i) half: masking the whole gave zero."""
    g = reverse.grad(polar_factor_loss)(a)
    if np.all(a == a[0, 0] * np.eye(3)):
        expected = (W - W.T) / (2 * a[0, 0])
    else:
        expected = np.zeros((3, 3))
        for i, j in np.ndindex(3, 3):
            e = np.zeros((3, 3))
            e[i, j] = 1e-6
            plus, minus = scipy.linalg.polar(a + e)[0], scipy.linalg.polar(a - e)[0]
            expected[i, j] = np.sum(W * (plus - minus)) / 2e-6
    # central differences of a smooth function at step 1e-6: about 1e-9
    np.testing.assert_allclose(g, expected, atol=1e-12 if a[0, 0] == a[1, 1] == a[2, 2] else 1e-8)
    da = sample((3, 3), seed=4)
    _, (du, _, dvh) = cr.frule((NoTangent(), da), np.linalg.svd, a)
    u, _, vh = np.linalg.svd(a)
    np.testing.assert_allclose(np.sum(W * (du @ vh + u @ dvh)), np.sum(g * da), atol=1e-9)


def test_nuclear_norm_hessian_at_the_identity():
    """sum(svdvals(I + t K)) = 2 sqrt(1 + t^2) for K = [[0, 1], [-1, 0]]: second derivative 2,
    all of it through the finite half of the couplings; along I it is 0."""
    k = np.array([[0.0, 1.0], [-1.0, 0.0]])
    for f in (lambda a: np.sum(np.linalg.svdvals(a)), lambda a: np.linalg.norm(a, "nuc")):
        for h in (hessian(f)(np.eye(2)), reverse.jacobian(reverse.grad(f))(np.eye(2))):
            np.testing.assert_allclose(np.einsum("ij,ijkl,kl", k, h, k), 2.0, rtol=1e-12)
            np.testing.assert_allclose(
                np.einsum("ij,ijkl,kl", np.eye(2), h, np.eye(2)), 0.0, atol=1e-12
            )


@pytest.mark.parametrize(
    "f, a",
    [
        (lambda a: np.sum(np.linalg.svdvals(a) ** 2), np.zeros((2, 2))),
        (lambda a: np.sum(np.linalg.svd(a)[1] ** 2), np.diag([1.0, 0.0, 0.0])),
        (lambda a: np.sum(np.linalg.eigvalsh(a) ** 2), np.eye(3)),
        (lambda a: np.sum(np.linalg.eigh(a)[0] ** 2), np.zeros((2, 2))),
        (lambda a: np.sum(np.real(np.linalg.eigvals(a)) ** 2), np.eye(2)),
    ],
    ids=["svdvals-zero", "svd-rank-one", "eigvalsh-identity", "eigh-zero", "eigvals-identity"],
)
def test_second_derivative_at_repeated_values_is_an_error(f, a):
    """The Hessian of sum(f(values)) at a tie has cross terms f'' that the rules cannot see
    (its cotangent g = f'(values) is all they get): before, they came out zero (the Hessian of
    ||a||_F^2 at 0 was 0, not 2 I). Now a clear error; the first derivative stays available."""
    assert np.all(np.isfinite(reverse.grad(f)(a)))
    for second in (hessian(f), reverse.jacobian(reverse.grad(f))):
        with pytest.raises(
            ValueError,
            match=r"second derivative through the (svd|eigh|eig) of argument a at repeated",
        ):
            second(a)


def test_second_derivative_of_squared_singular_values_off_ties():
    """||a||_F^2 through the singular values: Hessian 2 I at distinct values of every rank."""
    for a in (np.diag([3.0, 2.0, 1.0]), np.diag([3.0, 1.0, 0.0])):
        h = hessian(lambda m: np.sum(np.linalg.svdvals(m) ** 2))(a).reshape(9, 9)
        np.testing.assert_allclose(h, 2 * np.eye(9), atol=1e-12)
