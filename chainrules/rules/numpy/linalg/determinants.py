"""Rules for ``np.linalg.det`` and ``np.linalg.slogdet``.

``det``'s derivative is the adjugate, ``d det(a) = tr(adj(a) da)``, so its pullback is
``adj(a)^H dy``. For NumPy inputs the adjugate comes from the SVD ``a = U S V^H`` as
``det(U) det(V^H) V adj(S) U^H``, where ``adj(S)`` holds the products of all singular values
but one, formed by exclusive cumulative products rather than by dividing ``det(a)`` by
anything: at a singular matrix of rank ``n - 1`` it is the nonzero rank-one adjugate, at rank
``n - 2`` or less it is zero, and never NaN. Other array types (an engine's tracked values,
differentiating the pullback again) use ``det(a) inv(a)`` where ``a`` has full rank, and the
same SVD form where it does not.

``slogdet`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs), reads the sign and the log
of the absolute determinant off the factors, and its pullback solves with ``a^H`` through
the same factors. With ``t = tr(a^{-1} da)``, ``d log|det a| = Re t`` and, for complex ``a``,
``d sign = sign * i Im t``; the pullback combines both cotangents into
``conj(c) a^{-H}`` with ``c = g_logabsdet + i Im(conj(g_sign) sign)``. The sign of a real
matrix is locally constant, so its cotangent is ignored.

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

from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from ...core.thunks import unthunk
from ..matrices import Factored, eye_like, mH, mT, output_fields, output_tangent, trailing

__all__ = ["adjugate", "det_pullback_of", "det_pushforward_of"]


def _all_but_one(s: Any) -> Any:
    """``prod_{j != i} s[..., j]`` for each ``i``, by exclusive products from both ends."""
    xp = array_namespace(s)
    ones = xp.ones((*s.shape[:-1], 1), dtype=s.dtype)
    left = xp.cumulative_prod(xp.concat((ones, s[..., :-1]), axis=-1), axis=-1)
    right = xp.cumulative_prod(xp.concat((ones, xp.flip(s[..., 1:], axis=-1)), axis=-1), axis=-1)
    return left * xp.flip(right, axis=-1)


def adjugate(a: Any, det: Any = None) -> Any:
    """The adjugate (classical adjoint) of a square matrix or stack: ``adj(a) a = det(a) I``.

    Exact at singular matrices (see the module's docstring). Other array types than NumPy's
    use ``det(a) inv(a)`` (with ``det`` reused when given) where every matrix has full rank,
    and the SVD form where one does not (the rank, a plain integer, decides).

    >>> adjugate(np.array([[1.0, 2.0], [3.0, 4.0]]))
    array([[ 4., -2.],
           [-3.,  1.]])
    """
    xp = array_namespace(a)
    if type(a) is not np.ndarray and bool(xp.all(xp.linalg.matrix_rank(a) == a.shape[-1])):
        det = xp.linalg.det(a) if det is None else det
        return trailing(det) * xp.linalg.inv(a)
    u, s, vh = xp.linalg.svd(a)
    phase = xp.linalg.det(u) * xp.linalg.det(vh)
    middle = _all_but_one(s)[..., :, None] * mH(u)
    return trailing(phase) * xp.matmul(mH(vh), middle)


# ---- det --------------------------------------------------------------------------------


def det_pullback_of(a: Any, y: Any, dy: Any) -> Any:
    """The cotangent of ``a`` for ``y = det(a)``: ``adj(a)^H dy`` (stacks of matrices).

    >>> import numpy as np
    >>> det_pullback_of(np.diag([2.0, 3.0]), np.float64(6.0), np.float64(1.0))
    array([[3., 0.],
           [0., 2.]])
    """
    return mH(adjugate(a, y)) * trailing(dy)


def det_pushforward_of(a: Any, y: Any, da: Any) -> Any:
    """The tangent of ``y = det(a)`` along ``da``: ``tr(adj(a) da)``, projected onto ``y``.

    >>> import numpy as np
    >>> float(det_pushforward_of(np.diag([2.0, 3.0]), np.float64(6.0), np.eye(2)))
    5.0
    """
    xp = array_namespace(a)
    return ProjectTo(y)(xp.sum(mT(adjugate(a, y)) * da, axis=(-2, -1)))


@rrule.register(np.linalg.det)
def _det_rrule(a):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    y = xp.linalg.det(a)

    def det_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        return NO_TANGENT, project_a(det_pullback_of(a, y, dy))

    return y, det_pullback


@frule.register(np.linalg.det)
def _det_frule(tangents, a):
    xp = array_namespace(a)
    y = xp.linalg.det(a)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    return y, det_pushforward_of(a, y, da)


# ---- slogdet ------------------------------------------------------------------------------

_SLOGDET = ("sign", "logabsdet")


_SlogdetResult = type(np.linalg.slogdet(np.eye(1)))


def _slogdet_forward(a: Any) -> tuple[Any, Factored]:
    factored = Factored(a)
    if factored.lu is None:
        return array_namespace(a).linalg.slogdet(a), factored
    with np.errstate(divide="ignore", invalid="ignore"):
        sign, logabsdet = factored.logdet()
    dtype = factored.lu[0].dtype
    sign = np.where(np.isfinite(logabsdet), sign, 0).astype(dtype)
    logabsdet = logabsdet.astype(np.zeros((), dtype).real.dtype)
    return _SlogdetResult(sign[()], logabsdet[()]), factored


@rrule.register(np.linalg.slogdet)
def _slogdet_rrule(a):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    result, factored = _slogdet_forward(a)
    complex_a = is_complex(a)

    def slogdet_pullback(dy):
        g_sign, g_log = output_fields(dy, _SLOGDET)
        if complex_a and not isinstance(g_sign, AbstractZero):
            c = xp.imag(xp.conj(g_sign) * result.sign) * 1j
            if not isinstance(g_log, AbstractZero):
                c = c + g_log
        elif isinstance(g_log, AbstractZero):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        else:
            c = g_log
        inv_h = factored.solve(xp.broadcast_to(eye_like(a), a.shape), adjoint=True)
        return NO_TANGENT, project_a(trailing(xp.conj(c) if complex_a else c) * inv_h)

    return result, slogdet_pullback


@frule.register(np.linalg.slogdet)
def _slogdet_frule(tangents, a):
    xp = array_namespace(a)
    result, factored = _slogdet_forward(a)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return result, da
    t = xp.linalg.trace(factored.solve(da))
    d_log = ProjectTo(result.logabsdet)(xp.real(t) if is_complex(a) else t)
    d_sign: Any = ZERO_TANGENT
    if is_complex(a):
        d_sign = result.sign * xp.imag(t) * 1j
    return result, output_tangent(type(result), _SLOGDET, (d_sign, d_log))
