"""Rules for the spectral decompositions of ``np.linalg``: svd, svdvals, eigh, eigvalsh, eig,
eigvals.

Conventions, pinned by the tests:

* **Repeated values.** The couplings ``1 / (w_j - w_i)`` (eigh, eig) and, for the svd,
  ``1 / (s_j - s_i)`` and ``1 / (s_j + s_i)`` (the two halves of ``1 / (s_j^2 - s_i^2)``,
  each masked on its own, so that a tie keeps the finite ``1 / (s_j + s_i)`` half: the
  polar factor ``U V^H`` stays differentiable at ``I``) are *masked*: set to zero where the
  gap is below a tolerance of a few hundred ulps of the spectrum's scale
  (``gap_tolerance``). A loss that does not depend on the basis chosen inside a degenerate
  subspace (a function of the singular values or eigenvalues, the projector onto an
  invariant subspace, the polar factor) has no component along the masked couplings, so
  its gradient is finite and right; a loss that does depend on that basis has no derivative
  there, and the mask gives the minimum-norm choice. Null singular values get the same
  treatment in the terms of non-square svd that divide by them.
* **Second derivatives at ties.** Where a pullback is differentiated again (an engine's
  tracked cotangent of the values) at repeated values, the result would lack the cross
  terms ``f''`` between them, which depend on the loss beyond its gradient: it raises
  ``ValueError`` instead (``require_simple_spectrum``). A constant cotangent (the nuclear
  norm, a trace) needs no such terms and is differentiated as usual.
* **svdvals, eigvalsh, eigvals** have their own rules, ``U diag(g) V^H``, ``V diag(g) V^H``
  and ``V^{-H} diag(g) V^H``, well defined at ties.
* **Triangles.** ``eigh`` and ``eigvalsh`` read one triangle of ``a`` (``UPLO``) and the real
  part of its diagonal, as LAPACK does, so their cotangents live on that triangle.
* **Gauges.** The phases of complex singular vectors and of eigh's eigenvectors are not
  determined by ``a``: pullbacks assume a gauge-invariant loss (they ignore the imaginary
  part of ``diag(V^H g_V)``, and for the svd use ``i Im diag(U^H g_U) / s``, which equals the
  ``V`` form when the loss is gauge invariant). ``eig``'s eigenvectors are normalized by
  LAPACK to unit norm with their largest component real; the rules differentiate exactly
  that normalization (its adjoint is applied to the eigenvector cotangent before the usual
  formula), so any cotangent is admissible. Real inputs get real cotangents.
* ``svd(full_matrices=True)`` of a non-square matrix returns singular vectors that ``a``
  does not determine: its pullback accepts cotangents for the singular values only, and
  raises ``ValueError`` for a nonzero cotangent of ``U`` or ``Vh``.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> s, pullback = rrule(np.linalg.svdvals, np.diag([3.0, 3.0]))
>>> pullback(np.ones(2))[1]
array([[1., 0.],
       [0., 1.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.calls import call
from ....core.define import non_differentiable
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    diag_embed,
    lower_hermitian,
    lower_hermitian_cotangent,
    mH,
    output_fields,
    output_tangent,
    safe_reciprocal,
    skew,
)
from .decompositions import hermitian_read
from .ties import differences, gap_tolerance, require_simple_spectrum, svd_couplings

__all__ = [
    "eig_pullback_of",
    "eigenvalue_pushforward_of",
    "eigh_pullback_of",
    "eigh_pushforward_of",
    "svd_pullback_of",
    "svd_pushforward_of",
]


def _real(x: Any) -> Any:
    return array_namespace(x).real(x) if is_complex(x) else x


def _real_diagonal(a: Any) -> Any:
    return _real(array_namespace(a).linalg.diagonal(a))


def _column_inner(v: Any, x: Any) -> Any:
    """``v_j^H x_j`` for each column ``j`` (stacks of matrices)."""
    xp = array_namespace(v, x)
    return xp.sum((xp.conj(v) if is_complex(v) else v) * x, axis=-2)


# ---- svd, svdvals -------------------------------------------------------------------------


def svd_pullback_of(u: Any, s: Any, vh: Any, g_u: Any, g_s: Any, g_vh: Any) -> Any:
    """The cotangent of ``a = u diag(s) vh`` (reduced) from those of its three factors."""
    require_simple_spectrum("svd", s, g_s, squared=True)
    xp = array_namespace(u, s, vh)
    v = mH(vh)
    m, n = u.shape[-2], vh.shape[-1]
    inner: Any = ZERO_TANGENT if is_zero(g_s) else diag_embed(g_s)
    has_u, has_v = not is_zero(g_u), not is_zero(g_vh)
    if has_u or has_v:
        minus, plus = svd_couplings(s)
        s_inv = safe_reciprocal(s, gap_tolerance(s, 1))
    extra: Any = ZERO_TANGENT
    if has_u:
        uh_gu = xp.matmul(mH(u), g_u)
        inner = inner + skew(uh_gu) * (minus + plus) / 2
        if is_complex(uh_gu):
            inner = inner + diag_embed(1j * xp.imag(xp.linalg.diagonal(uh_gu)) * s_inv)
        if m > s.shape[-1]:
            outside = g_u - xp.matmul(u, uh_gu)
            extra = extra + xp.matmul(outside * s_inv[..., None, :], vh)
    if has_v:
        g_v = mH(g_vh)
        vh_gv = xp.matmul(vh, g_v)
        inner = inner + skew(vh_gv) * (minus - plus) / 2
        if n > s.shape[-1]:
            outside = g_v - xp.matmul(v, vh_gv)
            extra = extra + xp.matmul(u * s_inv[..., None, :], mH(outside))
    if is_zero(inner):
        return extra
    return xp.matmul(xp.matmul(u, xp.astype(inner, u.dtype)), vh) + extra


def svd_pushforward_of(a: Any, u: Any, s: Any, vh: Any, da: Any) -> tuple[Any, Any, Any]:
    """The tangents ``(du, ds, dvh)`` of the reduced SVD along ``da``."""
    xp = array_namespace(a, da)
    v = mH(vh)
    dp = xp.matmul(xp.matmul(mH(u), da), v)
    ds = _real_diagonal(dp)
    minus, plus = svd_couplings(s)
    s_inv = safe_reciprocal(s, gap_tolerance(s, 1))
    both, apart = (dp + mH(dp)) / 2, (dp - mH(dp)) / 2
    omega_u = both * minus + apart * plus
    omega_v = both * minus - apart * plus
    if is_complex(dp):
        omega_u = omega_u + diag_embed(1j * xp.imag(xp.linalg.diagonal(dp)) * s_inv)
    du = xp.matmul(u, omega_u)
    dv = xp.matmul(v, omega_v)
    k = s.shape[-1]
    if u.shape[-2] > k:
        outside = xp.matmul(da, v) - xp.matmul(u, dp)
        du = du + outside * s_inv[..., None, :]
    if vh.shape[-1] > k:
        outside = xp.matmul(mH(da), u) - xp.matmul(v, mH(dp))
        dv = dv + outside * s_inv[..., None, :]
    return du, ds, mH(dv)


_SVD = ("U", "S", "Vh")


def _check_full(a: Any, full_matrices: bool, g_u: Any, g_vh: Any) -> None:
    """Raise for a cotangent on the singular vectors that ``a`` does not determine."""
    m, n = a.shape[-2:]
    k = min(m, n)
    if not full_matrices or m == n:
        return
    extra = g_u[..., :, k:] if m > n else g_vh[..., k:, :]
    # Only a NumPy cotangent can be inspected; an engine's values pass with the rest ignored.
    if is_numpy(extra) and np.any(extra != 0):
        raise ValueError(
            "pullback of numpy.linalg.svd with full_matrices=True: the singular vectors "
            f"of a non-square {m}x{n} matrix beyond the first {k} are not determined by the "
            "matrix, so they take no cotangent; call svd with full_matrices=False"
        )


def _reduced(u: Any, vh: Any, k: int) -> tuple[Any, Any]:
    return u[..., :, :k], vh[..., :k, :]


def _reduced_cotangent(g: Any, k: int, axis: int) -> Any:
    if is_zero(g):
        return g
    return g[..., :, :k] if axis == -1 else g[..., :k, :]


def _svd(a: Any, full: bool, hermitian: bool) -> Any:
    """``(u, s, vh)`` of ``a``: the array API's svd, or NumPy's for ``hermitian=True`` (which
    the array API does not have: other arrays then go to the adapters' NumPy copies)."""
    if hermitian:
        return call(np.linalg.svd, a, full_matrices=full, compute_uv=True, hermitian=True)
    # A square matrix's full factors are its economic ones, whose forward derivative JAX
    # before 0.5 has (it has none for full_matrices=True).
    square = a.shape[-1] == a.shape[-2]
    return array_namespace(a).linalg.svd(a, full_matrices=full and not square)


@rrule.register(np.linalg.svd)
def _svd_rrule(a, full_matrices=True, compute_uv=True, hermitian=False):
    project_a = ProjectTo(a)
    k = min(a.shape[-2:])
    full = full_matrices and compute_uv
    result = _svd(a, full, hermitian)
    u, s, vh = result
    u_k, vh_k = _reduced(u, vh, k)
    # With hermitian=True NumPy reads the lower triangle only (through eigh).

    def svd_pullback(dy):
        g_u, g_s, g_vh = output_fields(dy, _SVD, result, np.linalg.svd)
        _check_full(a, full_matrices, g_u, g_vh)
        g_u, g_vh = _reduced_cotangent(g_u, k, -1), _reduced_cotangent(g_vh, k, -2)
        da = svd_pullback_of(u_k, s, vh_k, g_u, g_s, g_vh)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(da) if hermitian else da)

    def svdvals_pullback(ds):
        da = svd_pullback_of(u_k, s, vh_k, ZERO_TANGENT, ds, ZERO_TANGENT)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(da) if hermitian else da)

    if not compute_uv:
        return s, svdvals_pullback
    return result, svd_pullback


@frule.register(np.linalg.svd)
def _svd_frule(tangents, a, full_matrices=True, compute_uv=True, hermitian=False):
    k = min(a.shape[-2:])
    full = full_matrices and compute_uv
    result = _svd(a, full, hermitian)
    u, s, vh = result
    da = tangents[1]
    if is_zero(da):
        return (result if compute_uv else s), da
    if hermitian:
        a, da = lower_hermitian(a), lower_hermitian(da)
    u_k, vh_k = _reduced(u, vh, k)
    du, ds, dvh = svd_pushforward_of(a, u_k, s, vh_k, da)
    if not compute_uv:
        return s, ds
    if full_matrices and a.shape[-2] != a.shape[-1]:
        raise ValueError(
            "frule of numpy.linalg.svd with full_matrices=True: the singular vectors of a "
            "non-square matrix beyond the first min(m, n) are not determined by the matrix; "
            "call svd with full_matrices=False"
        )
    return result, output_tangent(type(result), _SVD, (du, ds, dvh))


@rrule.register(np.linalg.svdvals)
def _svdvals_rrule(x):
    xp = array_namespace(x)
    project_x = ProjectTo(x)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)

    def svdvals_pullback(ds):
        require_simple_spectrum("svd", s, ds, squared=True)
        return NO_TANGENT, project_x(xp.matmul(u * ds[..., None, :], vh))

    return s, svdvals_pullback


@frule.register(np.linalg.svdvals)
def _svdvals_frule(tangents, x):
    xp = array_namespace(x)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    dx = tangents[1]
    if is_zero(dx):
        return s, dx
    return s, _real_diagonal(xp.matmul(xp.matmul(mH(u), dx), mH(vh)))


# ---- eigh, eigvalsh -----------------------------------------------------------------------

_EIGH = ("eigenvalues", "eigenvectors")


def eigh_pullback_of(w: Any, v: Any, g_w: Any, g_v: Any, upper: bool) -> Any:
    """The cotangent of the triangle ``eigh`` reads, from those of its eigenpairs."""
    require_simple_spectrum("eigh", w, g_w)
    xp = array_namespace(w, v)
    inner: Any = ZERO_TANGENT if is_zero(g_w) else diag_embed(g_w)
    if not is_zero(g_v):
        coupling = safe_reciprocal(differences(w), gap_tolerance(w))
        inner = inner + coupling * xp.matmul(mH(v), g_v)
    if is_zero(inner):
        return inner
    g = xp.matmul(xp.matmul(v, xp.astype(inner, v.dtype)), mH(v))
    return lower_hermitian_cotangent(g, upper=upper)


def eigenvalue_pushforward_of(v: Any, dh: Any) -> Any:
    """The tangents ``dw_i = v_i^H dh v_i`` of a Hermitian matrix's eigenvalues along its
    Hermitian tangent ``dh``, from their eigenvectors ``v`` (by columns, stacks allowed): real
    by construction."""
    return _real(_column_inner(v, array_namespace(v, dh).matmul(dh, v)))


def eigh_pushforward_of(
    w: Any, v: Any, dh: Any, w_all: Any = None, v_all: Any = None
) -> tuple[Any, Any]:
    """The tangents ``(dw, dv)`` of the eigenpairs ``(w, v)`` of a Hermitian matrix along its
    Hermitian tangent ``dh``. When the pairs are a selection, the eigenvectors couple to the
    whole decomposition ``(w_all, v_all)``: ``dv = V_all (C * V_all^H dh v)`` with the masked
    couplings ``C[i, j] = 1 / (w_j - w_all_i)``."""
    xp = array_namespace(w, v, dh)
    if w_all is None:
        w_all, v_all = w, v
    gaps = w[..., None, :] - w_all[..., :, None]
    coupling = safe_reciprocal(gaps, gap_tolerance(w_all))
    dh_v = xp.matmul(dh, v)
    dv = xp.matmul(v_all, xp.astype(coupling, v.dtype) * xp.matmul(mH(v_all), dh_v))
    return _real(_column_inner(v, dh_v)), dv


@rrule.register(np.linalg.eigh)
def _eigh_rrule(a, UPLO="L"):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    result = xp.linalg.eigh(hermitian_read(a, UPLO == "U"), UPLO=UPLO)
    w, v = result

    def eigh_pullback(dy):
        g_w, g_v = output_fields(dy, _EIGH, result, np.linalg.eigh)
        return NO_TANGENT, project_a(eigh_pullback_of(w, v, g_w, g_v, UPLO == "U"))

    return result, eigh_pullback


@frule.register(np.linalg.eigh)
def _eigh_frule(tangents, a, UPLO="L"):
    xp = array_namespace(a)
    result = xp.linalg.eigh(hermitian_read(a, UPLO == "U"), UPLO=UPLO)
    w, v = result
    da = tangents[1]
    if is_zero(da):
        return result, da
    dw, dv = eigh_pushforward_of(w, v, lower_hermitian(da, upper=UPLO == "U"))
    return result, output_tangent(type(result), _EIGH, (dw, dv))


@rrule.register(np.linalg.eigvalsh)
def _eigvalsh_rrule(a, UPLO="L"):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    w, v = xp.linalg.eigh(hermitian_read(a, UPLO == "U"), UPLO=UPLO)

    def eigvalsh_pullback(dw):
        return NO_TANGENT, project_a(eigh_pullback_of(w, v, dw, ZERO_TANGENT, UPLO == "U"))

    return w, eigvalsh_pullback


@frule.register(np.linalg.eigvalsh)
def _eigvalsh_frule(tangents, a, UPLO="L"):
    xp = array_namespace(a)
    w, v = xp.linalg.eigh(hermitian_read(a, UPLO == "U"), UPLO=UPLO)
    da = tangents[1]
    if is_zero(da):
        return w, da
    return w, eigenvalue_pushforward_of(v, lower_hermitian(da, upper=UPLO == "U"))


# ---- eig, eigvals -----------------------------------------------------------------------

_EIG = ("eigenvalues", "eigenvectors")


def _largest(v: Any) -> tuple[Any, Any]:
    """For each eigenvector, a one-hot mask of its largest component, and that component."""
    xp = array_namespace(v)
    index = xp.argmax(xp.abs(v), axis=-2)
    mask = xp.astype(xp.arange(v.shape[-2])[:, None] == index[..., None, :], v.dtype)
    return mask, xp.sum(mask * v, axis=-2)


def _normalized_adjoint(v: Any, g_v: Any) -> Any:
    """The adjoint of LAPACK's normalization (unit norm, largest component real) at ``v``."""
    xp = array_namespace(v, g_v)
    d = _column_inner(v, g_v)
    g = g_v - v * _real(d)[..., None, :]
    if is_complex(v):
        mask, largest = _largest(v)
        g = g - 1j * mask * (xp.imag(d) / xp.real(largest))[..., None, :]
    return g


def _normalized(v: Any, dv: Any) -> Any:
    """The tangent of LAPACK's normalization of eigenvectors at ``v`` along ``dv``."""
    xp = array_namespace(v, dv)
    dv = dv - v * _real(_column_inner(v, dv))[..., None, :]
    if is_complex(v):
        mask, largest = _largest(v)
        phase = xp.imag(xp.sum(mask * dv, axis=-2)) / xp.real(largest)
        dv = dv - 1j * v * phase[..., None, :]
    return dv


def eig_pullback_of(w: Any, v: Any, g_w: Any, g_v: Any) -> Any:
    """The cotangent of ``a`` from those of ``eig(a)``'s eigenvalues and eigenvectors."""
    require_simple_spectrum("eig", w, g_w)
    xp = array_namespace(w, v)
    inner: Any = ZERO_TANGENT if is_zero(g_w) else diag_embed(g_w)
    if not is_zero(g_v):
        coupling = safe_reciprocal(differences(w), gap_tolerance(w))
        g = _normalized_adjoint(v, g_v)
        inner = inner + (xp.conj(coupling) if is_complex(w) else coupling) * xp.matmul(mH(v), g)
    if is_zero(inner):
        return inner
    v_h = mH(v)
    return xp.linalg.solve(v_h, xp.matmul(xp.astype(inner, v.dtype), v_h))


@rrule.register(np.linalg.eig)
def _eig_rrule(a):
    project_a = ProjectTo(a)
    # NumPy's: the array API has no eig, and PyTorch's gives complex eigenvectors of another
    # gauge; other arrays go to the adapters' NumPy copies.
    result = call(np.linalg.eig, a)
    w, v = result

    def eig_pullback(dy):
        g_w, g_v = output_fields(dy, _EIG, result, np.linalg.eig)
        return NO_TANGENT, project_a(eig_pullback_of(w, v, g_w, g_v))

    return result, eig_pullback


@frule.register(np.linalg.eig)
def _eig_frule(tangents, a):
    xp = array_namespace(a)
    # NumPy's: the array API has no eig, and PyTorch's gives complex eigenvectors of another
    # gauge; other arrays go to the adapters' NumPy copies.
    result = call(np.linalg.eig, a)
    w, v = result
    da = tangents[1]
    if is_zero(da):
        return result, da
    k = xp.linalg.solve(v, xp.matmul(xp.astype(da, v.dtype), v))
    coupling = safe_reciprocal(differences(w), gap_tolerance(w))
    dv = _normalized(v, xp.matmul(v, xp.astype(coupling, v.dtype) * k))
    return result, output_tangent(type(result), _EIG, (xp.linalg.diagonal(k), dv))


@rrule.register(np.linalg.eigvals)
def _eigvals_rrule(a):
    project_a = ProjectTo(a)
    w, v = call(np.linalg.eig, a)  # NumPy's, as for eig

    def eigvals_pullback(dw):
        return NO_TANGENT, project_a(eig_pullback_of(w, v, dw, ZERO_TANGENT))

    return w, eigvals_pullback


@frule.register(np.linalg.eigvals)
def _eigvals_frule(tangents, a):
    xp = array_namespace(a)
    w, v = call(np.linalg.eig, a)  # NumPy's, as for eig
    da = tangents[1]
    if is_zero(da):
        return w, da
    return w, xp.linalg.diagonal(xp.linalg.solve(v, xp.matmul(xp.astype(da, v.dtype), v)))


# ---- integer-valued -----------------------------------------------------------------------

non_differentiable(np.linalg.matrix_rank)
