"""Tests of the rules for np.linalg.det and np.linalg.slogdet, singular matrices included."""

import itertools
import math
import re

import mpmath
import numpy as np
import pytest
import scipy.linalg
from chainrules_testing import test_frule, test_rrule
from samples import DTYPES, count_calls, ids, sample

import chainrules as cr
from chainrules.core.zeros import is_zero
from chainrules.engines import call, hessian, reverse
from chainrules.rules.numpy.linalg.determinants import _cofactor_adjugate, adjugate


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.slogdet], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(1, 1), (3, 3), (2, 3, 3)], ids=str)
@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_and_slogdet(f, shape, dtype):
    a = sample(shape, dtype) + 2 * np.eye(shape[-1])
    test_rrule(f, a, check_second_order=True)
    test_frule(f, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_adjugate_of_invertible(dtype):
    a = sample((4, 4), dtype) + 2 * np.eye(4)
    np.testing.assert_allclose(adjugate(a), np.linalg.det(a) * np.linalg.inv(a), rtol=1e-10)


def test_det_of_rank_n_minus_1_is_the_rank_one_adjugate():
    a = np.array([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]])  # rank 2
    _, pullback = cr.rrule(np.linalg.det, a)
    g = pullback(1.0)[1]
    cofactors = np.array(
        [[-3.0, 6.0, -3.0], [6.0, -12.0, 6.0], [-3.0, 6.0, -3.0]]
    )  # the cofactor matrix, computed by hand: adj(a)^T
    np.testing.assert_allclose(g, cofactors, atol=1e-12)
    # rank one: the other singular values are LAPACK's rounding noise, about s1 * s3(a), which
    # matrix_rank's default cutoff sits just above on some BLAS kernels; judge them by scale
    s = np.linalg.svd(g, compute_uv=False)
    assert s[1] <= 1e-12 * s[0]
    test_rrule(np.linalg.det, a)


@pytest.mark.parametrize("dtype", DTYPES, ids=ids)
def test_det_of_rank_n_minus_2_has_zero_gradient(dtype):
    u, v = sample((4, 2), dtype, 1), sample((2, 4), dtype, 2)
    _, pullback = cr.rrule(np.linalg.det, u @ v)
    g = pullback(1.0)[1]
    assert np.all(np.isfinite(g))
    np.testing.assert_allclose(g, 0.0, atol=1e-12)


def test_det_of_zero_matrix():
    _, pullback = cr.rrule(np.linalg.det, np.zeros((3, 3)))
    np.testing.assert_array_equal(pullback(1.0)[1], np.zeros((3, 3)))


def test_slogdet_sign_cotangent_for_complex_input():
    """d sign = sign * i Im tr(a^{-1} da): checked for a cotangent on the sign alone."""
    a = sample((3, 3), np.complex128) + 2 * np.eye(3)
    result = np.linalg.slogdet(a)
    dy = cr.Tangent(type(result), sign=1j * result.sign)
    test_rrule(np.linalg.slogdet, a, output_tangent=dy)


def test_slogdet_of_singular_matrix():
    y, _ = cr.rrule(np.linalg.slogdet, np.zeros((2, 2)))
    assert y.sign == 0.0 and y.logabsdet == -np.inf


def test_slogdet_pullback_reuses_the_factorization(monkeypatch):
    calls = count_calls(monkeypatch, scipy.linalg, "lu_factor")
    routines = count_calls(monkeypatch, scipy.linalg.lapack, "dgetrf", "dgetrs")
    a = sample((3, 3)) + 2 * np.eye(3)
    _, pullback = cr.rrule(np.linalg.slogdet, a)
    result = np.linalg.slogdet(a)
    da = pullback(cr.Tangent(type(result), logabsdet=1.0))[1]
    assert routines == {"dgetrf": 1, "dgetrs": 1} and calls == {"lu_factor": 0}
    np.testing.assert_allclose(da, np.linalg.inv(a).T, rtol=1e-12)
    # a stack: SciPy's batched factorization, once
    _, pullback = cr.rrule(np.linalg.slogdet, np.stack([a, 2 * a]))
    pullback(cr.Tangent(type(result), logabsdet=np.ones(2)))
    assert calls == {"lu_factor": 1} and routines == {"dgetrf": 1, "dgetrs": 1}


def test_float32_stays_float32():
    a = (sample((3, 3)) + 2 * np.eye(3)).astype(np.float32)
    for f in (np.linalg.det, np.linalg.slogdet):
        test_rrule(f, a)
    _, pullback = cr.rrule(np.linalg.det, a)
    assert pullback(np.float32(1.0))[1].dtype == np.float32


# ---- second derivatives, and what slogdet does at singular matrices ------------------------


def logabsdet_hessian(a):
    """d^2 log|det a| / da_ij da_kl = -inv(a)_jk inv(a)_li, in 40-digit arithmetic."""
    n = a.shape[0]
    with mpmath.workdps(40):
        inverse = mpmath.inverse(mpmath.matrix(a.tolist()))
        hess = np.zeros((n, n, n, n))
        for i, j, k, m in itertools.product(range(n), repeat=4):
            hess[i, j, k, m] = float(-inverse[j, k] * inverse[m, i])
    return hess


@pytest.mark.parametrize("n", [1, 3])
def test_slogdet_hessian(n):
    """A stack of two well-conditioned matrices (the second, negated, has a negative
    determinant for odd n); both orders of the engines. Tolerance: condition numbers below
    ~10, so LAPACK's rounding stays far below 1e-10 relative."""
    well_conditioned = [sample((n, n), seed=s) + 3 * np.eye(n) for s in (n, 9)]
    stack = np.stack([well_conditioned[0], -well_conditioned[1]])

    def total(a):
        return np.sum(np.linalg.slogdet(a).logabsdet)

    for hess in (hessian(total)(stack), reverse.jacobian(reverse.grad(total))(stack)):
        for b in range(2):
            np.testing.assert_allclose(hess[b, :, :, b], logabsdet_hessian(stack[b]), atol=1e-10)


@pytest.mark.parametrize(
    "a", [np.zeros((2, 2)), np.array([[1.0, 2.0], [2.0, 4.0]]), np.zeros((2, 3, 3))], ids=str
)
def test_slogdet_derivative_at_a_singular_matrix_is_an_error(a):
    """The value is (0, -inf); the derivative of -inf does not exist (adj(a) / det(a) is inf or
    0 / 0): the pullback and the frule say so, naming slogdet and its argument."""
    y, pullback = cr.rrule(np.linalg.slogdet, a)
    assert np.all(y.sign == 0) and np.all(y.logabsdet == -np.inf)
    match = "slogdet.*singular.*argument a"
    with pytest.raises(np.linalg.LinAlgError, match=match):
        pullback(cr.Tangent(type(y), logabsdet=np.ones_like(y.logabsdet)))
    with pytest.raises(np.linalg.LinAlgError, match=match):
        cr.frule((cr.NoTangent(), np.ones_like(a)), np.linalg.slogdet, a)
    with pytest.raises(np.linalg.LinAlgError, match=match):
        reverse.grad(lambda m: np.sum(np.linalg.slogdet(m)[1]))(a)
    # the sign of a real matrix is piecewise constant: its cotangent is ignored, as elsewhere
    assert is_zero(pullback(cr.Tangent(type(y), sign=np.ones_like(y.sign)))[1])


def test_slogdet_of_a_complex_singular_matrix_sign_cotangent_is_an_error():
    a = np.zeros((2, 2), np.complex128)
    y, pullback = cr.rrule(np.linalg.slogdet, a)
    with pytest.raises(np.linalg.LinAlgError, match="slogdet"):
        pullback(cr.Tangent(type(y), sign=1j))


def test_inv_of_a_singular_matrix_raises_as_numpy_does():
    with pytest.raises(np.linalg.LinAlgError):
        cr.rrule(np.linalg.inv, np.array([[1.0, 2.0], [2.0, 4.0]]))


@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (0, 3), (3,)], ids=str)
def test_slogdet_of_a_non_square_argument_raises_as_numpy_does(shape):
    with pytest.raises(np.linalg.LinAlgError):
        np.linalg.slogdet(np.ones(shape))
    with pytest.raises(np.linalg.LinAlgError, match=r"slogdet.*argument a.*square"):
        cr.rrule(np.linalg.slogdet, np.ones(shape))
    with pytest.raises(np.linalg.LinAlgError, match=r"slogdet.*argument a.*square"):
        cr.frule((cr.NoTangent(), np.ones(shape)), np.linalg.slogdet, np.ones(shape))


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.slogdet], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(0, 0), (0, 3, 3), (2, 0, 0)], ids=str)
def test_det_and_slogdet_of_empty_matrices_and_stacks(f, shape):
    """det of a 0 x 0 matrix is 1 (a constant: zero gradient); an empty stack has empty
    results and cotangents. LAPACK refuses empty stacks, the rules do not."""
    a = np.zeros(shape)
    test_rrule(f, a, check_second_order=False)
    test_frule(f, a)


# ---- det's Hessian at every rank, against the Leibniz formula ---------------------------------


def leibniz(a):
    """det, its gradient and its Hessian of a real ``n x n`` matrix (``n <= 4``) by summing
    over permutations: with integer entries, every value is exact."""
    n = a.shape[0]
    det, grad, hess = 0.0, np.zeros((n, n)), np.zeros((n, n, n, n))
    for perm in itertools.permutations(range(n)):
        sign = np.linalg.det(np.eye(n)[list(perm)]).round()
        factors = [a[i, perm[i]] for i in range(n)]
        det += sign * math.prod(factors)
        for i in range(n):
            grad[i, perm[i]] += sign * math.prod(factors[:i] + factors[i + 1 :])
            for k in range(n):
                if k != i:
                    rest = [f for m, f in enumerate(factors) if m not in (i, k)]
                    hess[i, perm[i], k, perm[k]] += sign * math.prod(rest)
    return det, grad, hess


def of_rank(n, r, seed):
    """Two integer ``n x n`` matrices of rank exactly ``r``: ``L D U`` with unimodular ``L``,
    ``U`` and ``D`` the projector on the first ``r`` axes, and ``D`` itself (a repeated
    singular value, the hard case for an SVD)."""
    rng = np.random.default_rng(seed)
    lower = np.tril(rng.integers(-2, 3, (n, n)), -1) + np.eye(n)
    upper = np.triu(rng.integers(-2, 3, (n, n)), 1) + np.eye(n)
    d = np.diag([1.0] * r + [0.0] * (n - r))
    return [lower @ d @ upper, d]


DETS = [np.linalg.det, scipy.linalg.det]


@pytest.mark.parametrize("det", DETS, ids=["numpy", "scipy"])
@pytest.mark.parametrize("n", [1, 2, 3, 4])
def test_det_hessian_at_every_rank(det, n):
    """A stack of matrices of every rank 0..n: forward over reverse and reverse over reverse
    give Leibniz's Hessian, block by block. Tolerance: the rules go through LAPACK (SVD, LU)
    on matrices with entries up to ~30, so rounding of order 1e-13 relative to that scale."""
    stack = np.stack([m for r in range(n + 1) for m in of_rank(n, r, seed=n * 10 + r)])
    assert [np.linalg.matrix_rank(m) for m in stack] == [r for r in range(n + 1) for _ in (0, 1)]

    def total(a):
        return np.sum(call(det, a))

    expected = [leibniz(m) for m in stack]
    grad = reverse.grad(total)(stack)
    for hess in (hessian(total)(stack), reverse.jacobian(reverse.grad(total))(stack)):
        for b, (_, g, h) in enumerate(expected):
            scale = 1 + np.abs(stack[b]).max() ** n
            np.testing.assert_allclose(grad[b], g, atol=1e-12 * scale)
            np.testing.assert_allclose(hess[b, :, :, b], h, atol=1e-12 * scale)
        off_diagonal = hess.copy()
        for b in range(len(stack)):
            off_diagonal[b, :, :, b] = 0
        assert np.all(off_diagonal == 0)


def test_det_hessian_of_the_2x2_zero_matrix():
    """d^2 det / da_00 da_11 = 1 and d^2 det / da_01 da_10 = -1, exactly."""
    h = hessian(np.linalg.det)(np.zeros((2, 2))).reshape(4, 4)
    np.testing.assert_array_equal(h, np.fliplr(np.diag([1.0, -1.0, -1.0, 1.0])))


@pytest.mark.parametrize("n", [0, 1, 3])
def test_cofactor_adjugate_is_the_adjugate(n):
    """The path that tracked rank-deficient matrices take, on plain arrays."""
    a = of_rank(n, max(n - 1, 0), seed=3)[0] if n else np.zeros((0, 0))
    expected = leibniz(a)[1].T if n else np.zeros((0, 0))
    np.testing.assert_allclose(_cofactor_adjugate(a), expected, atol=1e-12)


# ---- one NumPy matrix: det(a) inv(a) through the forward's LU factors ---------------------

ALL_DTYPES = [np.float64, np.complex128, np.float32, np.complex64]


def exact_det_and_adjugate(a):
    """``det(a)`` and ``adj(a) = det(a) a^{-1}`` of an invertible matrix, in 40 digits."""
    with mpmath.workdps(40):
        m = mpmath.matrix(a.astype(np.complex128).tolist())
        det, inverse = mpmath.det(m), mpmath.inverse(m)
        adj = [[complex(det * inverse[i, j]) for j in range(m.cols)] for i in range(m.rows)]
        return complex(det), np.array(adj)


@pytest.mark.parametrize("shape", [(4, 4), (2, 4, 4), (4, 4, 4)], ids=str)
@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids)
def test_det_pullback_and_pushforward_against_the_adjugate(shape, dtype):
    """y = det(a), the cotangent conj(adj(a))^T dy and the tangent tr(adj(a) da), against
    40-digit arithmetic: one matrix (through LU factors) and a stack (through the SVD).
    Tolerance: condition numbers about 10, so rounding of a few eps of the dtype."""
    a = (sample(shape, dtype) + 3 * np.eye(4)).astype(dtype)
    y, pullback = cr.rrule(np.linalg.det, a)
    dy = sample(np.shape(y), dtype, 1)
    da = sample(shape, dtype, 2)
    _, ty = cr.frule((cr.NoTangent(), da), np.linalg.det, a)
    g = pullback(dy)[1]
    assert np.asarray(y).dtype == g.dtype == np.asarray(ty).dtype == dtype
    rtol = 1e-12 if np.finfo(dtype).eps < 1e-10 else 1e-4
    for k, m in enumerate(a.reshape(-1, 4, 4)):
        det, adj = exact_det_and_adjugate(m)
        dy_k, da_k = np.reshape(dy, -1)[k % np.size(dy)], da.reshape(-1, 4, 4)[k]
        expected_g = np.conj(adj).T * dy_k
        expected_ty = np.sum(adj.T * da_k)
        if not is_complex(dtype):
            det, expected_g, expected_ty = det.real, expected_g.real, expected_ty.real
        np.testing.assert_allclose(np.reshape(y, -1)[k], det, rtol=rtol)
        np.testing.assert_allclose(g.reshape(-1, 4, 4)[k], expected_g, rtol=rtol, atol=rtol)
        np.testing.assert_allclose(np.reshape(ty, -1)[k], expected_ty, rtol=rtol)


def is_complex(dtype):
    return np.dtype(dtype).kind == "c"


def test_det_takes_one_factorization_and_no_svd(monkeypatch):
    routines = count_calls(monkeypatch, scipy.linalg.lapack, "dgetrf", "dgetrs")

    def refused(*args, **kwargs):
        raise AssertionError("an SVD or a second factorization")

    det = np.linalg.det
    for name in ("svd", "det", "inv"):
        monkeypatch.setattr(np.linalg, name, refused)
    a = sample((5, 5)) + 3 * np.eye(5)
    _, pullback = cr.rrule(det, a)
    pullback(1.0)
    assert routines == {"dgetrf": 1, "dgetrs": 1}


# matrices where det(a) inv(a) is not the adjugate in floating point, so the rule must take
# the SVD: a determinant that overflows, one that underflows to zero, one that is subnormal
# (inv(a) far from singular-safe: a condition number of 1e277), exactly singular matrices
# of rank n - 1 and n - 2; each with the exact cotangent of dy = 1
HARD_POINTS = [
    (np.diag([1e200, 1e200]), np.diag([1e200, 1e200])),
    (1e-200 * np.eye(2), 1e-200 * np.eye(2)),
    (np.diag([1e-300, 3e-23]), np.diag([3e-23, 1e-300])),
    (np.diag([1e-300, 3e-23]) * (0.6 + 0.8j), np.diag([3e-23, 1e-300]) * (0.6 - 0.8j)),
    (np.array([[1.0, 2.0], [2.0, 4.0]]), np.array([[4.0, -2.0], [-2.0, 1.0]])),
    (np.diag([2.0, 0.0, 0.0]), np.zeros((3, 3))),
]


@pytest.mark.parametrize("a, expected", HARD_POINTS, ids=range(len(HARD_POINTS)))
def test_det_cotangent_at_hard_points_is_the_adjugate(a, expected):
    """Tolerance: the SVD of a diagonal or 2 x 2 matrix is exact to an ulp or two."""
    with np.errstate(over="ignore"):  # NumPy's det warns of the overflow to inf
        y, pullback = cr.rrule(np.linalg.det, a)
        _, ty = cr.frule((cr.NoTangent(), np.ones_like(a)), np.linalg.det, a)
        assert y == np.linalg.det(a)
    g = pullback(1.0)[1]
    np.testing.assert_allclose(g, expected, rtol=1e-14, atol=0)
    np.testing.assert_allclose(ty, np.sum(np.conj(expected)), rtol=1e-14)


def test_det_with_nan_is_as_before():
    """NaN in, NaN out, and the SVD's refusal in the pullback, as the general rule gives."""
    a = np.array([[1.0, np.nan], [0.0, 1.0]])
    with np.errstate(invalid="ignore"):
        y, pullback = cr.rrule(np.linalg.det, a)
    assert np.isnan(y)
    with pytest.raises(np.linalg.LinAlgError):
        pullback(1.0)


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.slogdet], ids=lambda f: f.__name__)
def test_det_and_slogdet_of_an_integer_matrix_are_numpys(f):
    a = np.array([[3, 1], [1, 2]])
    y, _ = cr.rrule(f, a)
    np.testing.assert_allclose(y, f(a), rtol=1e-15)


@pytest.mark.parametrize("f", [np.linalg.det, np.linalg.inv], ids=lambda f: f.__name__)
@pytest.mark.parametrize("layout", ["C", "F"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.complex128, np.int64], ids=ids)
@pytest.mark.parametrize("shape", [(2, 3), (3, 2), (2, 2, 3), (0, 3), (3,)], ids=str)
def test_a_non_square_matrix_raises_as_numpy_does(f, shape, dtype, layout):
    """NumPy's error, type and message, where LU factors of a non-square matrix of full rank
    (no zero pivot) exist, from the rrule and the frule."""
    a = (10 * sample(shape)).astype(dtype)
    a = np.asfortranarray(a) if layout == "F" else a
    with pytest.raises(np.linalg.LinAlgError) as raised:
        f(a)
    expected = f"^{re.escape(str(raised.value))}$"
    with pytest.raises(np.linalg.LinAlgError, match=expected):
        cr.rrule(f, a)
    with pytest.raises(np.linalg.LinAlgError, match=expected):
        cr.frule((cr.NoTangent(), np.ones_like(a)), f, a)


@pytest.mark.parametrize("dtype", ALL_DTYPES, ids=ids)
def test_slogdet_pullback_of_one_matrix_against_the_inverse(dtype):
    """The cotangent conj(c) a^{-H}, c = g_logabsdet + i Im(conj(g_sign) sign), against
    NumPy's inverse in double precision (no sign cotangent on a real matrix)."""
    a = (sample((4, 4), dtype) - 3 * np.eye(4)).astype(dtype)
    y, pullback = cr.rrule(np.linalg.slogdet, a)
    sign, logabsdet = np.linalg.slogdet(a.astype(np.complex128))
    rtol = 1e-12 if np.finfo(dtype).eps < 1e-10 else 1e-5
    np.testing.assert_allclose(y.logabsdet, logabsdet, rtol=rtol)
    np.testing.assert_allclose(y.sign, sign if is_complex(dtype) else sign.real, rtol=rtol)
    g_sign = 0.3 + 0.2j if is_complex(dtype) else 0.0
    g = pullback(cr.Tangent(type(y), sign=g_sign, logabsdet=1.3))[1]
    assert g.dtype == dtype
    c = 1.3 + 1j * np.imag(np.conj(g_sign) * sign)
    expected = np.conj(c) * np.linalg.inv(a.astype(np.complex128)).conj().T
    expected = expected if is_complex(dtype) else expected.real
    np.testing.assert_allclose(g, expected, rtol=rtol, atol=rtol)
