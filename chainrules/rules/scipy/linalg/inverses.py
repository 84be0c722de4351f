"""Rules for ``scipy.linalg`` functions whose mathematics has rules already: eig, eigvals,
eigvalsh, svdvals, lstsq, norm, pinvh (over ``np.linalg``'s), rq (over ``qr``), orth (over ``svd``),
orthogonal_procrustes (over ``polar``) and signm (a primary matrix function, as in
``linalg_matfun``).

Each adapter calls the rule of the same mathematics, translating SciPy's keywords and
output conventions; the derivatives, their conventions at repeated values and the
eigenvector normalization are those of ``chainrules.rules.numpy.linalg_spectral``,
``linalg_pinv`` and ``norms``.

* ``eig`` and ``eigvals`` always return complex eigenvalues (NumPy returns real ones when all
  are real); when NumPy's are real the cotangent's imaginary part has no effect and is dropped.
  Only the right eigenvectors of the standard problem (``b=None``, ``left=False``) have rules.
* ``eigvalsh`` reads the triangle named by ``lower`` (standard problem, whole spectrum).
* ``lstsq`` returns the residues of a 1-D ``b`` as a 0-d array (NumPy: shape ``(1,)``); its
  ``cond`` is NumPy's ``rcond``. The rank has no tangent.
* ``pinvh`` is ``pinv`` of the Hermitian matrix read from one triangle (cut-off ``rtol``).
* ``rq(a) = (R, Q)`` is the QR decomposition ``a^H J = (Q^H J)(J R^H J)``, ``J`` reversing
  the order of the rows; only its economic factors are determined by ``a`` (``mode="full"``
  and ``"r"`` only for ``m >= n``, where they are the economic ones). Tracked values are
  factored by their namespace's ``qr``, whose signs are not LAPACK's RQ ones: no second
  derivative.
* ``orth(A)`` is the first ``rank`` left singular vectors of ``A``, differentiated as the
  svd's (``linalg_spectral``'s conventions). For complex ``A`` their phases are a gauge that
  ``A`` does not fix: losses are assumed not to depend on them.
* ``orthogonal_procrustes(a, b)`` is the unitary polar factor ``R`` of ``M = a^H b`` and the
  sum of ``M``'s singular values, whose gradient in ``M`` is ``R`` itself.
* ``signm`` is not locally constant: its Fréchet derivative ``L(A, E)`` is nonzero for
  perturbations that move the spectral projectors, and is read off ``signm`` of the block
  matrix ``[[A, E], [0, A]]``; it exists where no eigenvalue is on the imaginary axis. Only
  its first derivative is available (SciPy's compiled iteration; ``disp=True`` only).

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> w, pullback = rrule(scipy.linalg.eigvals, np.diag([1.0, 2.0]))
>>> pullback(np.array([1.0 + 0j, 0.0]))[1]
array([[1., 0.],
       [0., 0.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ...core.arguments import positional_cotangents
from ...core.calls import call
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ..matrices import mH, output_fields
from ..numpy.linalg_decomp import qr_pullback_of, qr_pushforward_of
from ..numpy.linalg_spectral import svd_pullback_of, svd_pushforward_of
from .linalg_matfun import frechet, frechet_adjoint

__all__: list[str] = []


def _as_complex(x: Any) -> Any:
    """``x`` as complex numbers of its precision (SciPy's eigenvalue dtype)."""
    if isinstance(x, AbstractZero) or is_complex(x):
        return x
    xp = array_namespace(x)
    return xp.astype(x, xp.result_type(x.dtype, xp.complex64))


def _like(g: Any, w: Any) -> Any:
    """The cotangent ``g`` of SciPy's complex eigenvalues, as one of NumPy's ``w``."""
    if isinstance(g, AbstractZero) or is_complex(w) or not is_complex(g):
        return g
    return array_namespace(g).real(g)


# ---- eig, eigvals -----------------------------------------------------------------------


@rrule.register(sla.eig)
@positional_cotangents
def _eig_rrule(a, *, right=True, check_finite=True):
    (w, v), np_pullback = rrule(np.linalg.eig, a)

    def eig_pullback(dy):
        g_w, g_v = output_fields(dy, ("w", "v")) if right else (unthunk(dy), ZERO_TANGENT)
        return np_pullback((_like(g_w, w), g_v))

    return ((_as_complex(w), v) if right else _as_complex(w)), eig_pullback


@frule.register(sla.eig)
def _eig_frule(tangents, a, *, right=True, check_finite=True):
    (w, v), d_np = frule(tangents, np.linalg.eig, a)
    dw, dv = output_fields(d_np, ("eigenvalues", "eigenvectors"))
    if not right:
        return _as_complex(w), _as_complex(dw)
    return (_as_complex(w), v), Tangent(tuple, _as_complex(dw), dv)


@rrule.register(sla.eigvals)
@positional_cotangents
def _eigvals_rrule(a, *, check_finite=True):
    w, np_pullback = rrule(np.linalg.eigvals, a)

    def eigvals_pullback(dw):
        return np_pullback(_like(unthunk(dw), w))

    return _as_complex(w), eigvals_pullback


@frule.register(sla.eigvals)
def _eigvals_frule(tangents, a, *, check_finite=True):
    w, dw = frule(tangents, np.linalg.eigvals, a)
    return _as_complex(w), _as_complex(unthunk(dw))


# ---- eigvalsh, svdvals --------------------------------------------------------------------


@rrule.register(sla.eigvalsh)
@positional_cotangents
def _eigvalsh_rrule(a, *, lower=True, check_finite=True):
    return rrule(np.linalg.eigvalsh, a, UPLO="L" if lower else "U")


@frule.register(sla.eigvalsh)
def _eigvalsh_frule(tangents, a, *, lower=True, check_finite=True):
    return frule(tangents, np.linalg.eigvalsh, a, UPLO="L" if lower else "U")


@rrule.register(sla.svdvals)
def _svdvals_rrule(a, *, check_finite=True):
    return rrule(np.linalg.svdvals, a)


@frule.register(sla.svdvals)
def _svdvals_frule(tangents, a, *, check_finite=True):
    return frule(tangents, np.linalg.svdvals, a)


# ---- lstsq --------------------------------------------------------------------------------


def _scipy_residues(res: Any, x: Any, vector: bool) -> Any:
    """NumPy's residuals in SciPy's layout: a 0-d array for a 1-D ``b`` that has them, and
    no residues as an empty array of the solution's dtype."""
    if isinstance(res, AbstractZero):
        return res
    xp = array_namespace(res)
    if res.shape[0] == 0:
        return xp.zeros((0,), dtype=x.dtype)
    return xp.reshape(res, ()) if vector else res


@rrule.register(sla.lstsq)
@positional_cotangents
def _lstsq_rrule(a, b, cond=None, *, check_finite=True, lapack_driver=None):
    (x, res, rank, s), np_pullback = rrule(np.linalg.lstsq, a, b, rcond=cond)
    vector = b.ndim == 1

    def lstsq_pullback(dy):
        g_x, g_res, _, g_s = output_fields(dy, ("x", "residues", "rank", "s"))
        if isinstance(g_res, AbstractZero) or res.shape[0] == 0:
            g_res = ZERO_TANGENT
        elif vector:
            g_res = array_namespace(g_res).reshape(g_res, (1,))
        return np_pullback((g_x, g_res, NO_TANGENT, g_s))

    return (x, _scipy_residues(res, x, vector), rank, s), lstsq_pullback


@frule.register(sla.lstsq)
def _lstsq_frule(tangents, a, b, cond=None, *, check_finite=True, lapack_driver=None):
    (x, res, rank, s), d_np = frule(tangents, np.linalg.lstsq, a, b, rcond=cond)
    dx, d_res, _, d_s = output_fields(d_np, ("x", "residues", "rank", "s"))
    vector = b.ndim == 1
    result = (x, _scipy_residues(res, x, vector), rank, s)
    return result, Tangent(tuple, dx, _scipy_residues(d_res, x, vector), NO_TANGENT, d_s)


# ---- norm, pinvh --------------------------------------------------------------------------


@rrule.register(sla.norm)
@positional_cotangents
def _norm_rrule(a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return rrule(np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)


@frule.register(sla.norm)
def _norm_frule(tangents, a, ord=None, axis=None, keepdims=False, *, check_finite=True):
    return frule(tangents, np.linalg.norm, a, ord=ord, axis=axis, keepdims=keepdims)


def _pinvh_rtol(a: Any, rtol: Any) -> Any:
    """SciPy's default relative cut-off, ``max(m, n) * eps``, when ``rtol`` is not given."""
    if rtol is not None:
        return rtol
    return max(a.shape[-2:]) * np.finfo(np.dtype(a.dtype)).eps


@rrule.register(sla.pinvh)
@positional_cotangents
def _pinvh_rrule(a, *, rtol=None, lower=True, check_finite=True):
    # NumPy's hermitian pinv reads the lower triangle; the upper one is the lower of a^H.
    seen = a if lower else mH(a)
    p, np_pullback = rrule(np.linalg.pinv, seen, hermitian=True, rtol=_pinvh_rtol(a, rtol))

    def pinvh_pullback(dy):
        d_self, d_seen = np_pullback(dy)
        if lower or isinstance(d_seen, AbstractZero):
            return d_self, d_seen
        return d_self, mH(d_seen)

    return p, pinvh_pullback


@frule.register(sla.pinvh)
def _pinvh_frule(tangents, a, *, rtol=None, lower=True, check_finite=True):
    da = unthunk(tangents[1])
    if not lower:
        a = mH(a)
        da = da if isinstance(da, AbstractZero) else mH(da)
    return frule((tangents[0], da), np.linalg.pinv, a, hermitian=True, rtol=_pinvh_rtol(a, rtol))


# ---- orthogonal_procrustes, signm ---------------------------------------------------------


@rrule.register(sla.orthogonal_procrustes)
def _orthogonal_procrustes_rrule(a, b, *, check_finite=True):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    (r, p), polar_pullback = rrule(sla.polar, xp.matmul(mH(a), b))
    scale = xp.sum(xp.linalg.diagonal(p))
    scale = xp.real(scale) if is_complex(scale) else scale

    def orthogonal_procrustes_pullback(dy):
        g_r, g_scale = output_fields(dy, ("R", "scale"))
        g_m = polar_pullback(Tangent(tuple, g_r, ZERO_TANGENT))[1]
        if not isinstance(g_scale, AbstractZero):
            g_m = g_m + g_scale * r
        if isinstance(g_m, AbstractZero):
            return NO_TANGENT, project_a(g_m), project_b(g_m)
        return NO_TANGENT, project_a(xp.matmul(b, mH(g_m))), project_b(xp.matmul(a, g_m))

    return (r, scale), orthogonal_procrustes_pullback


@frule.register(sla.orthogonal_procrustes)
def _orthogonal_procrustes_frule(tangents, a, b, *, check_finite=True):
    xp = array_namespace(a, b)
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    dm: Any = ZERO_TANGENT
    if not isinstance(da, AbstractZero):
        dm = xp.matmul(mH(da), b)
    if not isinstance(db, AbstractZero):
        dm = dm + xp.matmul(mH(a), db)
    (r, p), d_polar = frule((NO_TANGENT, dm), sla.polar, xp.matmul(mH(a), b))
    scale = xp.sum(xp.linalg.diagonal(p))
    scale = xp.real(scale) if is_complex(scale) else scale
    if isinstance(dm, AbstractZero):
        return (r, scale), ZERO_TANGENT
    # d sum(s) = Re tr(R^H dM)
    d_scale = xp.sum(xp.conj(r) * dm) if is_complex(dm) else xp.sum(r * dm)
    d_scale = xp.real(d_scale) if is_complex(d_scale) else d_scale
    return (r, scale), Tangent(tuple, unthunk(d_polar[0]), d_scale)


@rrule.register(sla.signm)
def _signm_rrule(A):
    project_a = ProjectTo(A)
    y = call(sla.signm, A)

    def signm_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        return NO_TANGENT, project_a(frechet_adjoint(sla.signm, A, dy))

    return y, signm_pullback


@frule.register(sla.signm)
def _signm_frule(tangents, A):
    y = call(sla.signm, A)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    return y, ProjectTo(y)(frechet(sla.signm, A, da))


# ---- rq (over qr) -------------------------------------------------------------------------


def _rq_check_mode(a: Any, mode: str) -> None:
    m, n = a.shape[-2:]
    if mode != "economic" and not (mode in ("full", "r") and m >= n):
        raise ValueError(
            f"scipy.linalg.rq(mode={mode!r}) of a {m}x{n} matrix has no rule: the factors "
            "beyond the economic ones are not determined by the matrix; use mode='economic'"
        )


def _flip_both(x: Any) -> Any:
    xp = array_namespace(x)
    return xp.flip(xp.flip(x, axis=-1), axis=-2)


def _rq_as_qr(a: Any, mode: str) -> tuple[Any, Any, Any, Any, Any]:
    """``(r, q, m_, q1, r1)``: the economic RQ ``a = r q`` and the QR ``m_ = q1 r1`` of
    ``m_ = a^H J`` it is, with ``J`` the row reversal: ``q1 = q^H J``, ``r1 = J r^H J``."""
    xp = array_namespace(a)
    m_ = xp.flip(mH(a), axis=-1)
    if type(a) is np.ndarray:
        r, q = sla.rq(a, mode="economic", check_finite=False)
        q1, r1 = xp.flip(mH(q), axis=-1), _flip_both(mH(r))
    else:
        q1, r1 = xp.linalg.qr(m_)
        r, q = _flip_both(mH(r1)), xp.flip(mH(q1), axis=-2)
    return r, q, m_, q1, r1


@rrule.register(sla.rq)
def _rq_rrule(a, *, mode="full", check_finite=True):
    _rq_check_mode(a, mode)
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    r, q, m_, q1, r1 = _rq_as_qr(a, mode)

    def rq_pullback(dy):
        g_r, g_q = (unthunk(dy), ZERO_TANGENT) if mode == "r" else output_fields(dy, ("R", "Q"))
        if isinstance(g_r, AbstractZero) and isinstance(g_q, AbstractZero):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        g_q1 = g_q if isinstance(g_q, AbstractZero) else xp.flip(mH(g_q), axis=-1)
        g_r1 = g_r if isinstance(g_r, AbstractZero) else _flip_both(mH(g_r))
        g_m = qr_pullback_of(m_, q1, r1, g_q1, g_r1)
        return NO_TANGENT, project_a(mH(xp.flip(g_m, axis=-1)))

    return (r if mode == "r" else (r, q)), rq_pullback


@frule.register(sla.rq)
def _rq_frule(tangents, a, *, mode="full", check_finite=True):
    _rq_check_mode(a, mode)
    xp = array_namespace(a)
    r, q, m_, q1, r1 = _rq_as_qr(a, mode)
    result = r if mode == "r" else (r, q)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return result, da
    dq1, dr1 = qr_pushforward_of(m_, q1, r1, xp.flip(mH(da), axis=-1))
    dr, dq = _flip_both(mH(dr1)), xp.flip(mH(dq1), axis=-2)
    return result, (dr if mode == "r" else Tangent(tuple, dr, dq))


# ---- orth (over svd) ----------------------------------------------------------------------


def _orth(a: Any, rcond: Any) -> tuple[Any, Any, Any, int]:
    """The reduced SVD ``(u, s, vh)`` of ``a`` and its numerical rank, as ``orth`` cuts it."""
    xp = array_namespace(a)
    if type(a) is np.ndarray:
        u, s, vh = sla.svd(a, full_matrices=False, check_finite=False)
    else:
        u, s, vh = xp.linalg.svd(a, full_matrices=False)
    eps = np.finfo(np.dtype(s.dtype)).eps
    cutoff = (eps * max(a.shape[-2:]) if rcond is None else rcond) * xp.max(s)
    return u, s, vh, int(np.count_nonzero(s > cutoff))


@rrule.register(sla.orth)
def _orth_rrule(A, rcond=None):
    xp = array_namespace(A)
    project_a = ProjectTo(A)
    u, s, vh, rank = _orth(A, rcond)

    def orth_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        dropped = xp.zeros((u.shape[0], u.shape[1] - rank), dtype=dy.dtype)
        g_u = xp.concat([dy, dropped], axis=1)
        return NO_TANGENT, project_a(svd_pullback_of(u, s, vh, g_u, ZERO_TANGENT, ZERO_TANGENT))

    return u[:, :rank], orth_pullback


@frule.register(sla.orth)
def _orth_frule(tangents, A, rcond=None):
    u, s, vh, rank = _orth(A, rcond)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return u[:, :rank], da
    du = svd_pushforward_of(A, u, s, vh, da)[0]
    return u[:, :rank], du[:, :rank]
