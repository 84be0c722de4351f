"""Rules for ``scipy.linalg``'s decompositions and inverses: qr, svd, eigh, det, inv, pinv,
polar.

They share their derivatives with the ``np.linalg`` rules (``rules.numpy.linalg_decomp``,
``linalg_spectral``, ``linalg_det``, ``linalg_pinv``), whose docstrings state the conventions:
masked couplings at repeated singular values and eigenvalues, the triangle that ``eigh``
reads (the lower one unless ``lower=False``), gauge-invariant losses for singular vectors.
SciPy's own conventions:

* ``qr``'s ``mode='full'`` of a tall matrix returns columns of ``Q`` that ``a`` does not
  determine (a nonzero cotangent for them raises ``ValueError``); ``mode='r'`` returns the
  1-tuple ``(R,)``; ``mode='raw'`` and ``pivoting=True`` have no rule.
* ``svd`` returns a plain tuple; ``full_matrices=True`` behaves as in NumPy's rule.
* ``eigh`` takes no ``b`` (the generalized problem has no rule). ``subset_by_index`` and
  ``subset_by_value`` work: eigenvalue-only cotangents need only the selected eigenvectors,
  eigenvector cotangents couple to all eigenpairs, so the pullback then computes the full
  decomposition. SciPy's default driver (``'evr'``) may flip an eigenvector's sign under a
  tiny perturbation: the rules differentiate the branch through the vectors returned, which
  is what a sign-free loss needs; ``driver='evd'`` keeps signs.
* ``inv`` takes ``assume_a`` as ``solve`` does (``'gen'``, ``'sym'``, ``'her'``, ``'pos'``).
* ``polar`` goes through the SVD ``a = W S V^H`` (``U = W V^H``, ``P = V S V^H`` or
  ``W S W^H``), so it assumes distinct singular values.

For array types other than NumPy's (an engine's tracked values), the rules of qr, svd, eigh
(without subsets), det and inv compute with ``numpy.linalg`` through the array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.det, np.array([[2.0, 0.0], [0.0, 3.0]]))
>>> pullback(1.0)[1]
array([[3., 0.],
       [0., 2.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ...core.arguments import positional_cotangents
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ..matrices import lower_hermitian, mH, output_fields, safe_reciprocal
from ..numpy.linalg import inv_pullback_of, inv_pushforward_of
from ..numpy.linalg_decomp import (
    cut_complete_qr_cotangents,
    qr_pullback_of,
    qr_pushforward_of,
)
from ..numpy.linalg_det import det_pullback_of, det_pushforward_of
from ..numpy.linalg_pinv import pinv_pullback_of, pinv_pushforward_of
from ..numpy.linalg_spectral import (
    eigh_pullback_of,
    gap_tolerance,
    svd_pullback_of,
    svd_pushforward_of,
)
from .linalg import matrix_solved, solve_kind, solved_cotangent_to_a

__all__ = ["eigenvalue_window", "selection_start"]


# ---- qr -----------------------------------------------------------------------------------

_QR_MODES = {"full": "complete", "economic": "reduced", "r": "r"}


def _qr(a: Any, mode: str) -> tuple:
    if mode not in _QR_MODES:
        raise ValueError(
            f"scipy.linalg.qr(mode={mode!r}) has no rule: use 'full', 'economic' or 'r'"
        )
    if type(a) is np.ndarray:
        return sla.qr(a, mode=mode, check_finite=False)
    xp = array_namespace(a)
    if mode == "r":
        return (xp.linalg.qr(a, mode="complete").R,)
    return tuple(xp.linalg.qr(a, mode=_QR_MODES[mode]))


@rrule.register(sla.qr)
def _qr_rrule(a, *, mode="full", check_finite=True):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    result = _qr(a, mode)
    if mode == "r":
        q = xp.linalg.qr(a, mode="reduced").Q  # R's pullback needs Q
        r = result[0]
    else:
        q, r = result
    q, r = q[..., :, :k], r[..., :k, :]

    def qr_pullback(dy):
        if mode == "r":
            (g_r,) = output_fields(dy, ("R",))
            g_q = ZERO_TANGENT
        else:
            g_q, g_r = output_fields(dy, ("Q", "R"))
        if isinstance(g_q, AbstractZero) and isinstance(g_r, AbstractZero):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        g_q, g_r = cut_complete_qr_cotangents(
            a, g_q, g_r, "scipy.linalg.qr(mode='full')", "economic"
        )
        return NO_TANGENT, project_a(qr_pullback_of(a, q, r, g_q, g_r))

    return result, qr_pullback


@frule.register(sla.qr)
def _qr_frule(tangents, a, *, mode="full", check_finite=True):
    xp = array_namespace(a)
    m, n = a.shape[-2:]
    result = _qr(a, mode)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return result, da
    if mode == "full" and m > n:
        raise ValueError(
            f"frule of scipy.linalg.qr(mode='full') of a {m}x{n} matrix: the last {m - n} "
            "columns of Q are not determined by the matrix; use mode='economic'"
        )
    q, r = xp.linalg.qr(a, mode="reduced")
    dq, dr = qr_pushforward_of(a, q, r, da)
    if mode == "r":
        if m > n:
            dr = xp.concat((dr, xp.zeros((m - n, n), dtype=dr.dtype)), axis=-2)
        return result, Tangent(tuple, dr)
    return result, Tangent(tuple, dq, dr)


# ---- svd ----------------------------------------------------------------------------------


def _svd(a: Any, full_matrices: bool, lapack_driver: str) -> tuple:
    if type(a) is np.ndarray:
        return sla.svd(
            a, full_matrices=full_matrices, check_finite=False, lapack_driver=lapack_driver
        )
    return tuple(array_namespace(a).linalg.svd(a, full_matrices=full_matrices))


@rrule.register(sla.svd)
@positional_cotangents
def _svd_rrule(a, full_matrices=True, compute_uv=True, *, check_finite=True, lapack_driver="gesdd"):
    project_a = ProjectTo(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vh = _svd(a, full_matrices and compute_uv, lapack_driver)
    u_k, vh_k = u[..., :, :k], vh[..., :k, :]

    def svd_pullback(dy):
        if compute_uv:
            g_u, g_s, g_vh = output_fields(dy, ("U", "s", "Vh"))
        else:
            g_u, g_s, g_vh = ZERO_TANGENT, unthunk(dy), ZERO_TANGENT
        if all(isinstance(g, AbstractZero) for g in (g_u, g_s, g_vh)):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        if full_matrices and m != n:
            extra = g_u[..., :, k:] if m > n else g_vh[..., k:, :]
            if type(extra) is np.ndarray and np.any(extra != 0):
                raise ValueError(
                    "pullback of scipy.linalg.svd with full_matrices=True: the singular "
                    f"vectors of a non-square {m}x{n} matrix beyond the first {k} are not "
                    "determined by the matrix; call svd with full_matrices=False"
                )
            if not isinstance(g_u, AbstractZero):
                g_u = g_u[..., :, :k]
            if not isinstance(g_vh, AbstractZero):
                g_vh = g_vh[..., :k, :]
        return NO_TANGENT, project_a(svd_pullback_of(u_k, s, vh_k, g_u, g_s, g_vh))

    return ((u, s, vh) if compute_uv else s), svd_pullback


@frule.register(sla.svd)
def _svd_frule(
    tangents, a, full_matrices=True, compute_uv=True, *, check_finite=True, lapack_driver="gesdd"
):
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vh = _svd(a, full_matrices and compute_uv, lapack_driver)
    y = (u, s, vh) if compute_uv else s
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    du, ds, dvh = svd_pushforward_of(a, u[..., :, :k], s, vh[..., :k, :], da)
    if not compute_uv:
        return y, ds
    if full_matrices and m != n:
        raise ValueError(
            "frule of scipy.linalg.svd with full_matrices=True: the singular vectors of a "
            "non-square matrix beyond the first min(m, n) are not determined by the matrix; "
            "call svd with full_matrices=False"
        )
    return y, Tangent(tuple, du, ds, dvh)


# ---- eigh ---------------------------------------------------------------------------------


def _eigh(a: Any, lower: bool, eigvals_only: bool, by_index: Any, by_value: Any, driver: Any):
    if type(a) is np.ndarray:
        return sla.eigh(
            a,
            lower=lower,
            eigvals_only=eigvals_only,
            check_finite=False,
            subset_by_index=by_index,
            subset_by_value=by_value,
            driver=driver,
        )
    w, v = array_namespace(a).linalg.eigh(a, UPLO="L" if lower else "U")
    if by_value is not None:
        by_index = eigenvalue_window(w, by_value)
    if by_index is not None:
        first, last = by_index
        w, v = w[..., first : last + 1], v[..., :, first : last + 1]
    return w if eigvals_only else (w, v)


def _standard_eigh(
    a: Any, b: Any, lower: bool, by_index: Any, by_value: Any, driver: Any
) -> tuple[Any, Any]:
    """The eigenpairs of the standard problem; the generalized one (``b`` given) has no rule."""
    if b is not None:
        raise ValueError("scipy.linalg.eigh with b (the generalized problem) has no rule")
    return _eigh(a, lower, False, by_index, by_value, driver)


def eigenvalue_window(w: Any, by_value: Any) -> tuple[int, int]:
    """``subset_by_index`` for SciPy's window ``(low, high]`` of the eigenvalues ``w``.

    Comparisons give plain booleans, even on tracked values; the window must select the
    same, non-empty range in every matrix of a stack.
    """
    low, high = by_value
    inside = np.reshape((w > low) & (w <= high), (-1, w.shape[-1]))
    if not np.all(inside == inside[:1]) or not np.any(inside):
        raise ValueError("scipy.linalg.eigh(subset_by_value=...): uneven or empty selection")
    selected = np.flatnonzero(inside[0])
    return int(selected[0]), int(selected[-1])


def selection_start(w_all: Any, w: Any) -> int:
    """Where the selected (consecutive, ascending) eigenvalues start among all of them."""
    xp = array_namespace(w_all, w)
    nearest = xp.argmin(xp.abs(w_all - w[..., :1]), axis=-1)
    return int(xp.reshape(nearest, (-1,))[0])


@rrule.register(sla.eigh)
@positional_cotangents
def _eigh_rrule(
    a,
    b=None,
    *,
    lower=True,
    eigvals_only=False,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    subset = subset_by_index is not None or subset_by_value is not None
    w, v = _standard_eigh(a, b, lower, subset_by_index, subset_by_value, driver)

    def eigh_pullback(dy):
        if eigvals_only:
            g_w, g_v = unthunk(dy), ZERO_TANGENT
        else:
            g_w, g_v = output_fields(dy, ("w", "v"))
        if isinstance(g_v, AbstractZero) or not subset:
            return NO_TANGENT, project_a(eigh_pullback_of(w, v, g_w, g_v, not lower))
        # Eigenvector cotangents couple to every eigenpair: complete the decomposition.
        w_all, v_all = xp.linalg.eigh(a, UPLO="L" if lower else "U")
        first = subset_by_index[0] if subset_by_index is not None else selection_start(w_all, w)
        count = w.shape[-1]
        n = w_all.shape[-1]
        # The selected eigenvectors are the ones returned (SciPy's signs, which the
        # cotangents refer to), not NumPy's.
        v_all = xp.concat((v_all[..., :first], v, v_all[..., first + count :]), axis=-1)
        pad = ((0, 0),) * (w.ndim - 1)
        g_w_all = ZERO_TANGENT
        if not isinstance(g_w, AbstractZero):
            g_w_all = np.pad(g_w, (*pad, (first, n - first - count)))
        g_v_all = np.pad(g_v, (*pad, (0, 0), (first, n - first - count)))
        return NO_TANGENT, project_a(eigh_pullback_of(w_all, v_all, g_w_all, g_v_all, not lower))

    return (w if eigvals_only else (w, v)), eigh_pullback


@frule.register(sla.eigh)
def _eigh_frule(
    tangents,
    a,
    b=None,
    *,
    lower=True,
    eigvals_only=False,
    check_finite=True,
    subset_by_index=None,
    subset_by_value=None,
    driver=None,
):
    xp = array_namespace(a)
    w, v = _standard_eigh(a, b, lower, subset_by_index, subset_by_value, driver)
    y = w if eigvals_only else (w, v)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    dh = lower_hermitian(da, upper=not lower)
    dw = xp.real(xp.linalg.diagonal(xp.matmul(xp.matmul(mH(v), dh), v)))
    if eigvals_only:
        return y, dw
    w_all, v_all = xp.linalg.eigh(a, UPLO="L" if lower else "U")
    gaps = w[..., None, :] - w_all[..., :, None]  # w_j - w_all_i
    coupling = safe_reciprocal(gaps, gap_tolerance(w_all))
    k = xp.matmul(xp.matmul(mH(v_all), dh), v)
    dv = xp.matmul(v_all, xp.astype(coupling, v.dtype) * k)
    return y, Tangent(tuple, dw, dv)


# ---- det, inv, pinv -----------------------------------------------------------------------


def _det(a: Any) -> Any:
    """``scipy.linalg.det``; other array types than NumPy's use their namespace's ``det``."""
    if type(a) is np.ndarray:
        return sla.det(a, check_finite=False)
    return array_namespace(a).linalg.det(a)


@rrule.register(sla.det)
def _det_rrule(a, *, check_finite=True):
    project_a = ProjectTo(a)
    y = _det(a)

    def det_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        return NO_TANGENT, project_a(det_pullback_of(a, y, dy))

    return y, det_pullback


@frule.register(sla.det)
def _det_frule(tangents, a, *, check_finite=True):
    y = _det(a)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    return y, det_pushforward_of(a, y, da)


def _inv(m: Any) -> Any:
    if type(m) is np.ndarray:
        return sla.inv(m, check_finite=False)
    return array_namespace(m).linalg.inv(m)


@rrule.register(sla.inv)
def _inv_rrule(a, *, check_finite=True, assume_a=None, lower=False):
    kind = solve_kind(assume_a)
    project_a = ProjectTo(a)
    y = _inv(matrix_solved(a, kind, lower, False))

    def inv_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        g = inv_pullback_of(y, dy)
        return NO_TANGENT, project_a(solved_cotangent_to_a(g, kind, lower, False))

    return y, inv_pullback


@frule.register(sla.inv)
def _inv_frule(tangents, a, *, check_finite=True, assume_a=None, lower=False):
    kind = solve_kind(assume_a)
    y = _inv(matrix_solved(a, kind, lower, False))
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    return y, inv_pushforward_of(y, matrix_solved(da, kind, lower, False))


def _pinv(a: Any, atol: Any, rtol: Any, return_rank: bool) -> Any:
    """``scipy.linalg.pinv``; other array types than NumPy's use their namespace's ``pinv``
    (and ``matrix_rank``) with SciPy's default cutoff, which an engine records."""
    if type(a) is np.ndarray:
        return sla.pinv(a, atol=atol, rtol=rtol, return_rank=return_rank, check_finite=False)
    if atol:
        raise ValueError("scipy.linalg.pinv(atol=...) takes NumPy arrays only")
    xp = array_namespace(a)
    if rtol is None:
        rtol = max(a.shape[-2:]) * np.finfo(a.dtype).eps
    p = xp.linalg.pinv(a, rtol=rtol)
    return (p, xp.linalg.matrix_rank(a, rtol=rtol)) if return_rank else p


@rrule.register(sla.pinv)
def _pinv_rrule(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    project_a = ProjectTo(a)
    result = _pinv(a, atol, rtol, return_rank)
    p = result[0] if return_rank else result

    def pinv_pullback(dy):
        g = output_fields(dy, ("p", "rank"))[0] if return_rank else unthunk(dy)
        if isinstance(g, AbstractZero):
            return NO_TANGENT, project_a(g)
        return NO_TANGENT, project_a(pinv_pullback_of(a, p, g))

    return result, pinv_pullback


@frule.register(sla.pinv)
def _pinv_frule(tangents, a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    result = _pinv(a, atol, rtol, return_rank)
    p = result[0] if return_rank else result
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return result, da
    dp = pinv_pushforward_of(a, p, da)
    return result, Tangent(tuple, dp, NO_TANGENT) if return_rank else dp


# ---- polar --------------------------------------------------------------------------------


def _polar_factors(a: Any, side: str) -> tuple[Any, Any, Any, Any, Any, Any]:
    """``(w, s, vh, u, basis, p)``: the thin svd ``a = W S V^H``, ``u = W V^H`` and
    ``p = basis S basis^H`` with ``basis`` ``V`` (``side='right'``) or ``W``."""
    xp = array_namespace(a)
    w, s, vh = xp.linalg.svd(a, full_matrices=False)
    u = xp.matmul(w, vh)
    basis = mH(vh) if side == "right" else w
    p = xp.matmul(basis * xp.astype(s, basis.dtype)[..., None, :], mH(basis))
    return w, s, vh, u, basis, p


@rrule.register(sla.polar)
@positional_cotangents
def _polar_rrule(a, side="right"):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    w, s, vh, u, basis, p = _polar_factors(a, side)

    def polar_pullback(dy):
        g_u, g_p = output_fields(dy, ("u", "p"))
        g_w: Any = ZERO_TANGENT
        g_vh: Any = ZERO_TANGENT
        g_s: Any = ZERO_TANGENT
        if not isinstance(g_u, AbstractZero):
            g_w, g_vh = xp.matmul(g_u, mH(vh)), xp.matmul(mH(w), g_u)
        if not isinstance(g_p, AbstractZero):
            g_sym = g_p + mH(g_p)
            g_basis = xp.matmul(g_sym, basis) * xp.astype(s, basis.dtype)[..., None, :]
            g_s = xp.real(xp.sum(xp.conj(basis) * xp.matmul(g_p, basis), axis=-2))
            if side == "right":
                g_vh = g_vh + mH(g_basis)
            else:
                g_w = g_w + g_basis
        if all(isinstance(g, AbstractZero) for g in (g_w, g_s, g_vh)):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        return NO_TANGENT, project_a(svd_pullback_of(w, s, vh, g_w, g_s, g_vh))

    return (u, p), polar_pullback


@frule.register(sla.polar)
def _polar_frule(tangents, a, side="right"):
    xp = array_namespace(a)
    w, s, vh, u, basis, p = _polar_factors(a, side)
    s_c = xp.astype(s, basis.dtype)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return (u, p), da
    dw, ds, dvh = svd_pushforward_of(a, w, s, vh, da)
    du = xp.matmul(dw, vh) + xp.matmul(w, dvh)
    d_basis = mH(dvh) if side == "right" else dw
    half = xp.matmul(d_basis * s_c[..., None, :], mH(basis))
    dp = half + mH(half) + xp.matmul(basis * xp.astype(ds, basis.dtype)[..., None, :], mH(basis))
    return (u, p), Tangent(tuple, du, dp)
