"""Tests of the rules for scipy.linalg.qz and ordqz."""

import numpy as np
import pytest
import scipy.linalg
from fdm import central_fdm
from samples import check_factors, draw, ids

import chainrules as cr
from chainrules.rules.scipy.linalg.qz import _generalized_schur

SMALL_STEPS = central_fdm(5, 1)  # Schur vectors flip sign where eigenvalues cross


# ---- qz, ordqz ----------------------------------------------------------------------------


def real_pencil(n=4, seed=0):
    """``(A, B)`` with distinct real generalized eigenvalues."""
    b = draw((n, n), seed=seed + 1) + 3 * np.eye(n)
    s = draw((n, n), seed=seed) + 2 * np.eye(n)
    return b @ s @ np.diag(np.arange(1.0, n + 1) - n / 2 - 0.3) @ np.linalg.inv(s), b


def phase_free(result, fields, seed=5):
    """A random cotangent of ``qz``'s or ``ordqz``'s result orthogonal to the phases of the
    complex Schur vectors: ``Q`` and ``Z`` times ``diag(exp(i phi))`` (each on its own) move
    ``AA`` and ``BB`` by ``diag(exp(-i phi))`` on the left or right, and no cotangent in
    those directions has a derivative."""
    rng = np.random.default_rng(seed)
    parts = {}
    for name, value in zip(fields, result, strict=True):
        g = rng.standard_normal(value.shape) + 1j * rng.standard_normal(value.shape)
        parts[name] = np.triu(g) if name in ("AA", "BB") else g
    aa, bb, q, z = (dict(zip(fields, result, strict=True))[k] for k in ("AA", "BB", "Q", "Z"))
    n = aa.shape[0]
    directions = []
    for j in range(n):
        e = np.zeros((n, n))
        e[j, j] = 1.0
        left = {"AA": -1j * e @ aa, "BB": -1j * e @ bb, "Q": 1j * q @ e}
        right = {"AA": 1j * aa @ e, "BB": 1j * bb @ e, "Z": 1j * z @ e}
        directions += [left, right]

    def flat(d):
        pieces = [np.asarray(d.get(k, np.zeros_like(parts[k])), complex).ravel() for k in fields]
        v = np.concatenate(pieces)
        return np.concatenate([v.real, v.imag])

    basis = np.stack([flat(d) for d in directions], axis=1)
    g = flat(parts)
    g = g - basis @ np.linalg.lstsq(basis, g, rcond=None)[0]
    g = g[: g.size // 2] + 1j * g[g.size // 2 :]
    out, start = [], 0
    for value in result:
        piece = g[start : start + value.size].reshape(value.shape)
        out.append(piece if np.iscomplexobj(value) else piece.real)
        start += value.size
    return cr.Tangent(tuple, *out)


QZ = ("AA", "BB", "Q", "Z")
ORDQZ = ("AA", "BB", "alpha", "beta", "Q", "Z")


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
def test_qz_real(dtype):
    a, b = (x.astype(dtype) for x in real_pencil())
    # float32: the default tolerance, as the factors are refined to double precision before
    # the derivative divides by eigenvalue gaps. float64: the fixed-step differences that
    # these checks need (SMALL_STEPS) are themselves accurate to a few 1e-7.
    rtol = None if dtype == np.float32 else 1e-6
    check_factors(scipy.linalg.qz, a, b, fdm=SMALL_STEPS, rtol=rtol)


def test_qz_complex():
    """The phases of complex Schur vectors are LAPACK's choice: phase-free cotangents."""
    for a, b in (
        (draw((4, 4), np.complex128), draw((4, 4), np.complex128, 1)),
        (draw((3, 3)), draw((3, 3), seed=1)),
    ):
        result = scipy.linalg.qz(a, b, output="complex")
        dy = phase_free(result, QZ)
        kwargs = {"fkwargs": {"output": "complex"}, "output_tangent": dy, "fdm": SMALL_STEPS}
        check_factors(scipy.linalg.qz, a, b, **kwargs)


def test_qz_real_with_2x2_blocks():
    """(Not in float32: finite differences run in double precision, where LAPACK picks other
    signs for the columns of Q and Z at this pencil.)"""
    a, b = draw((5, 5), seed=6), draw((5, 5), seed=7)
    aa = scipy.linalg.qz(a, b)[0]
    assert np.count_nonzero(np.diagonal(aa, -1)) == 1  # one complex pair
    check_factors(scipy.linalg.qz, a, b, fdm=SMALL_STEPS)


def test_ordqz_real_with_2x2_blocks_has_no_rule():
    with pytest.raises(ValueError, match="output='complex'"):
        cr.rrule(scipy.linalg.ordqz, np.array([[0.0, -1.0], [1.0, 0.0]]), np.eye(2))


def test_qz_eigenvalues_match_finite_differences():
    """AA_jj / BB_jj are the generalized eigenvalues, phase-free: their derivative is exact."""
    a, b = draw((4, 4), np.complex128), draw((4, 4), np.complex128, 1)
    da, db = draw((4, 4), np.complex128, 2), draw((4, 4), np.complex128, 3)
    (aa, bb, _, _), tangent = cr.frule((None, da, db), scipy.linalg.qz, a, b, "complex")
    lam = np.diagonal(aa) / np.diagonal(bb)
    d_lam = (np.diagonal(tangent[0]) - lam * np.diagonal(tangent[1])) / np.diagonal(bb)
    h = 1e-6

    def eigenvalues(s):
        moved = scipy.linalg.qz(a + s * h * da, b + s * h * db, output="complex")
        return np.diagonal(moved[0]) / np.diagonal(moved[1])

    np.testing.assert_allclose((eigenvalues(1) - eigenvalues(-1)) / (2 * h), d_lam, rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float64, np.float32], ids=ids)
@pytest.mark.parametrize("sort", ["lhp", "iuc"])
def test_ordqz_real(sort, dtype):
    a, b = (x.astype(dtype) for x in real_pencil())
    result = scipy.linalg.ordqz(a, b, sort=sort)
    np.testing.assert_allclose(result[2], np.diagonal(result[0]))
    np.testing.assert_allclose(result[3], np.diagonal(result[1]))
    # The fixed-step differences (SMALL_STEPS) are accurate to a few 1e-7, as for qz.
    rtol = None if dtype == np.float32 else 1e-6
    check_factors(scipy.linalg.ordqz, a, b, fkwargs={"sort": sort}, fdm=SMALL_STEPS, rtol=rtol)


def test_ordqz_complex():
    a, b = draw((4, 4), np.complex128), draw((4, 4), np.complex128, 1)
    kwargs = {"sort": "ouc", "output": "complex"}
    result = scipy.linalg.ordqz(a, b, **kwargs)
    np.testing.assert_allclose(result[2], np.diagonal(result[0]))
    dy = phase_free(result, ORDQZ)
    check_factors(scipy.linalg.ordqz, a, b, fkwargs=kwargs, output_tangent=dy, fdm=SMALL_STEPS)


# ---- single-precision factors, refined ----------------------------------------------------

REFINED = [  # (A, B, output): a real pencil, complex Schur vectors, a complex pair (2x2 block)
    (*real_pencil(), "real"),
    (draw((3, 3)), draw((3, 3), seed=1), "complex"),
    (draw((4, 4), np.complex128), draw((4, 4), np.complex128, 1), "complex"),
    (draw((5, 5), seed=6), draw((5, 5), seed=7), "real"),
]


@pytest.mark.parametrize(
    ("a", "b", "output"), REFINED, ids=["real", "complex-output", "complex", "2x2-block"]
)
def test_single_precision_factors_are_refined_to_double(a, b, output):
    """The derivative of float32 and complex64 input is taken at LAPACK's double-precision
    factors of the same (rounded) input, in the single-precision factors' gauge: column signs
    or phases, which the two precisions pick differently (so the complex and 2x2-block cases
    cannot be checked against double-precision finite differences)."""
    narrow = np.complex64 if np.iscomplexobj(a) else np.float32
    a, b = a.astype(narrow), b.astype(narrow)
    wide = (
        a.astype(np.promote_types(narrow, np.float64)),
        b.astype(np.promote_types(narrow, np.float64)),
    )
    schur = _generalized_schur(a, b, *scipy.linalg.qz(a, b, output=output))
    aa, bb, q, z = scipy.linalg.qz(*wide, output=output)
    gauge = np.sum(np.conj(q) * schur.q, axis=0)
    gauge = gauge / np.abs(gauge)
    for refined, exact in (
        (schur.aa, np.conj(gauge)[:, None] * aa * gauge),
        (schur.bb, np.conj(gauge)[:, None] * bb * gauge),
        (schur.q, q * gauge),
        (schur.z, z * gauge),
    ):
        assert refined.dtype == exact.dtype
        np.testing.assert_allclose(refined, exact, rtol=0, atol=1e-13 * np.abs(exact).max())
