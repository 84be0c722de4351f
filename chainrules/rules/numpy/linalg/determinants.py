"""Rules for ``np.linalg.det`` and ``np.linalg.slogdet``.

``det``'s derivative is the adjugate, ``d det(a) = tr(adj(a) da)``, so its pullback is
``adj(a)^H dy``. The adjugate (``adjugate`` here, shared with SciPy's
``det``) comes from the SVD for NumPy inputs, exact at singular matrices: at rank ``n - 1``
it is the nonzero rank-one adjugate, at rank ``n - 2`` or less zero, and never NaN. Other
array types (an engine's tracked values, differentiating the pullback again) use
``det(a) inv(a)`` where ``a`` has full rank, and the matrix of cofactors (determinants of
minors, through this same rule) where it does not: a polynomial, so second and higher
derivatives are exact at every rank. ``np.linalg.det`` of one NumPy matrix of a LAPACK dtype
reads the value off LU factors and keeps them: where the inverse they give shows ``a`` well
away from singular (condition number below ``1 / sqrt(eps)``), the derivatives are
``det(a) inv(a)`` through those factors, at a tenth of an SVD's cost, and the SVD is left to
the matrices near or at a singular one.

``slogdet`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs), reads the sign and the log
of the absolute determinant off the factors, and its pullback solves with ``a^H`` through
the same factors. With ``t = tr(a^{-1} da)``, ``d log|det a| = Re t`` and, for complex ``a``,
``d sign = sign * i Im t``; the pullback combines both cotangents into
``conj(c) a^{-H}`` with ``c = g_logabsdet + i Im(conj(g_sign) sign)``. The sign of a real
matrix is locally constant, so its cotangent is ignored.

At a singular matrix the value is honest, ``sign = 0`` and ``logabsdet = -inf``, but
``log|det|`` has no derivative there (``adj(a) / det(a)`` is ``inf`` or ``0 / 0``): the
pullback and the frule raise ``LinAlgError`` naming ``slogdet`` and its argument ``a`` for
any cotangent or tangent but a zero (and, for a real matrix, but one on the sign alone).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.det, np.array([[1.0, 2.0], [2.0, 4.0]]))
>>> y, pullback(1.0)[1]
(np.float64(0.0), array([[ 4., -2.],
       [-2.,  1.]]))
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...._compat import cumulative_prod
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    Factored,
    eye_like,
    matrix_rule,
    mH,
    mT,
    output_fields,
    output_tangent,
    trailing,
)
from .solve import factored, is_lapack_matrix

__all__ = ["adjugate", "det_pullback_of", "det_pushforward_of"]


# ---- the adjugate and det's derivatives (SciPy's det shares them) ----------------------------


def _all_but_one(s: Any) -> Any:
    """``prod_{j != i} s[..., j]`` for each ``i``, by exclusive products from both ends."""
    xp = array_namespace(s)
    ones = xp.ones((*s.shape[:-1], 1), dtype=s.dtype)
    left = cumulative_prod(xp, xp.concat((ones, s[..., :-1]), axis=-1), axis=-1)
    right = cumulative_prod(xp, xp.concat((ones, xp.flip(s[..., 1:], axis=-1)), axis=-1), axis=-1)
    return left * xp.flip(right, axis=-1)


def _cofactor_adjugate(a: Any) -> Any:
    """The adjugate as the transposed matrix of cofactors, ``adj(a)[j, i] = (-1)^(i+j)
    det(a without row i and column j)``: a polynomial in the entries of ``a``, so an engine
    that differentiates it through ``det``'s rule gets the exact derivative at every rank,
    where the SVD's singular vectors (repeated or null singular values) have none. One
    ``det`` of a stack of ``n`` minors per row, ``n**3`` entries at a time."""
    xp = array_namespace(a)
    n = a.shape[-1]
    if n <= 1:
        return xp.ones_like(a)
    others = np.array([[k for k in range(n) if k != i] for i in range(n)])
    signs = (-1.0) ** np.add.outer(np.arange(n), np.arange(n))
    rows = []
    for i in range(n):
        # b[..., :, j, :] is a without row i and column j
        b = a[..., others[i], :][..., others]
        rows.append(xp.linalg.det(xp.moveaxis(b, -2, -3)))
    cofactors = xp.stack(rows, axis=-2) * xp.asarray(signs, dtype=a.dtype)
    return mT(cofactors)


def adjugate(a: Any, det: Any = None) -> Any:
    """The adjugate (classical adjoint) of a square matrix or stack: ``adj(a) a = det(a) I``.

    For NumPy inputs it comes from the SVD ``a = U S V^H`` as ``det(U) det(V^H) V adj(S) U^H``,
    where ``adj(S)`` holds the products of all singular values but one, formed by exclusive
    products rather than by dividing ``det(a)``: at rank ``n - 1`` the nonzero rank-one
    adjugate, at lower rank zero, never NaN. Other array types (an engine's tracked values)
    use ``det(a) inv(a)`` (``det`` reused when given) where every matrix has full rank, and
    the matrix of cofactors where one does not (the rank, a plain integer, decides): both are
    exact to differentiate again, the SVD form is not at repeated or null singular values.

    >>> adjugate(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[ 4., -2.],
           [-3.,  1.]])
    """
    xp = array_namespace(a)
    if not is_numpy(a):
        # 0 x 0 matrices have full rank (NumPy 2.1's matrix_rank refuses them: no maximum)
        full = a.shape[-1] == 0 or bool(xp.all(xp.linalg.matrix_rank(a) == a.shape[-1]))
        if full:
            det = xp.linalg.det(a) if det is None else det
            return trailing(det) * xp.linalg.inv(a)
        return _cofactor_adjugate(a)
    u, s, vh = xp.linalg.svd(a, full_matrices=False)  # square: the same factors
    phase = xp.linalg.det(u) * xp.linalg.det(vh)
    middle = _all_but_one(s)[..., :, None] * mH(u)
    return trailing(phase) * xp.matmul(mH(vh), middle)


def det_pullback_of(a: Any, y: Any, dy: Any) -> Any:
    """The cotangent of ``a`` for ``y = det(a)``: ``adj(a)^H dy`` (stacks of matrices).

    >>> det_pullback_of(np.diag([2.0, 3.0]), np.float64(6.0), np.float64(1.0))
    array([[3., 0.],
           [0., 2.]])
    """
    return mH(adjugate(a, y)) * trailing(dy)


def det_pushforward_of(a: Any, y: Any, da: Any) -> Any:
    """The tangent of ``y = det(a)`` along ``da``: ``tr(adj(a) da)``, projected onto ``y``.

    >>> float(det_pushforward_of(np.diag([2.0, 3.0]), np.float64(6.0), np.eye(2)))
    5.0
    """
    xp = array_namespace(a)
    return ProjectTo(y)(xp.sum(mT(adjugate(a, y)) * da, axis=(-2, -1)))


# ---- det --------------------------------------------------------------------------------


def _determinant(a: Any) -> tuple[Any, tuple]:
    """``det(a)``, with the LU factors of one NumPy matrix of a LAPACK dtype kept for
    ``_adjugate_h`` (``None`` otherwise)."""
    if is_lapack_matrix(a):
        factors = factored(a)
        # NumPy's own formula, sign * exp(sum log|u_ii|), on the same LAPACK factors
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            sign, logabsdet = factors.logdet()
            y = (sign * np.exp(logabsdet)).astype(a.dtype)[()]
        # a zero pivot (0 / 0 in the sign), an overflow or underflow, inf or NaN: NumPy's
        # det says what the value is, and the derivatives take the general way
        if np.isfinite(y) and y != 0:
            return y, (a, y, factors)
    y = array_namespace(a).linalg.det(a)
    return y, (a, y, None)


def _adjugate_h(a: Any, y: Any, factors: Any) -> Any:
    """``adj(a)^H = conj(det a) a^{-H}`` through the forward's LU factors, or ``None`` where
    ``a`` has no factors kept or is too near a singular matrix for the formula.

    Past a condition number of ``1 / sqrt(eps)`` (measured in the 1-norm from the inverse
    computed, so a NaN or an overflow also counts as near) the SVD's adjugate is used: it
    stays exact at rank ``n - 1`` and below, where ``det(a) inv(a)`` is ``0 * inf``."""
    if factors is None:
        return None
    inv_h = factors.solve(eye_like(a), adjoint=True)
    # ||a^{-1}||_1 is the largest row sum of |a^{-H}|
    norms = np.abs(a).sum(axis=0).max() * np.abs(inv_h).sum(axis=1).max()
    if not norms * np.sqrt(np.finfo(a.dtype).eps) <= 1:
        return None
    return (np.conj(y) if is_complex(a) else y) * inv_h


def _det_pullback(a: Any, y: Any, factors: Any, dy: Any) -> Any:
    adjugate_h = _adjugate_h(a, y, factors)
    if adjugate_h is None:
        return det_pullback_of(a, y, dy)
    return adjugate_h * trailing(dy)


def _det_pushforward(a: Any, y: Any, factors: Any, da: Any) -> Any:
    adjugate_h = _adjugate_h(a, y, factors)
    if adjugate_h is None:
        return det_pushforward_of(a, y, da)
    # tr(adj(a) da) = sum(adj(a)^T * da), and adj(a)^T = conj(adj(a)^H)
    adjugate_t = np.conj(adjugate_h) if is_complex(a) else adjugate_h
    return ProjectTo(y)(array_namespace(da).sum(adjugate_t * da, axis=(-2, -1)))


matrix_rule(
    np.linalg.det, primal=_determinant, pullback=_det_pullback, pushforward=_det_pushforward
)


# ---- slogdet ------------------------------------------------------------------------------

_SLOGDET = ("sign", "logabsdet")


_SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


def _slogdet_forward(a: Any) -> tuple[Any, Factored]:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise np.linalg.LinAlgError(
            f"np.linalg.slogdet: argument a must be a square matrix or a stack of them, "
            f"not of shape {a.shape}"
        )
    factors = factored(a)
    if factors.lu is None:
        return array_namespace(a).linalg.slogdet(a), factors
    with np.errstate(divide="ignore", invalid="ignore"):
        sign, logabsdet = factors.logdet()
    dtype = factors.lu[0].dtype
    sign = np.where(np.isfinite(logabsdet), sign, 0).astype(dtype)
    logabsdet = logabsdet.astype(np.zeros((), dtype).real.dtype)
    return _SlogdetResult(sign[()], logabsdet[()]), factors


def _require_nonsingular(result: Any) -> None:
    logabsdet = result.logabsdet
    # a plain value only: a tracked logabsdet (a nested derivative) comes from a solve
    # through the namespace, which raises at a singular matrix by itself
    if isinstance(logabsdet, np.ndarray | np.generic) and np.any(logabsdet == -np.inf):
        raise np.linalg.LinAlgError(
            "np.linalg.slogdet: logabsdet has no derivative at a singular matrix "
            "(argument a has logabsdet = -inf)"
        )


@rrule.register(np.linalg.slogdet)
def _slogdet_rrule(a):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    result, factors = _slogdet_forward(a)
    complex_a = is_complex(a)

    def slogdet_pullback(dy):
        g_sign, g_log = output_fields(dy, _SLOGDET, result, np.linalg.slogdet)
        if complex_a and not is_zero(g_sign):
            c = xp.imag(xp.conj(g_sign) * result.sign) * 1j
            if not is_zero(g_log):
                c = c + g_log
        elif is_zero(g_log):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        else:
            c = g_log
        _require_nonsingular(result)
        eye = eye_like(a)
        inv_h = factors.solve(eye if a.ndim == 2 else xp.broadcast_to(eye, a.shape), adjoint=True)
        return NO_TANGENT, project_a(trailing(xp.conj(c) if complex_a else c) * inv_h)

    return result, slogdet_pullback


@frule.register(np.linalg.slogdet)
def _slogdet_frule(tangents, a):
    xp = array_namespace(a)
    result, factors = _slogdet_forward(a)
    da = tangents[1]
    if is_zero(da):
        return result, da
    _require_nonsingular(result)
    t = xp.linalg.trace(factors.solve(da))
    d_log = ProjectTo(result.logabsdet)(xp.real(t) if is_complex(a) else t)
    d_sign: Any = ZERO_TANGENT
    if is_complex(a):
        d_sign = result.sign * xp.imag(t) * 1j
    return result, output_tangent(type(result), _SLOGDET, (d_sign, d_log))
