"""Rules for ``np.linalg.pinv`` and ``np.linalg.lstsq``.

The pseudo-inverse is differentiable where the rank of ``a`` is locally constant (always for
a matrix of full rank; for a rank-deficient one, along perturbations that keep the rank), and
there its derivative is (Golub and Pereyra)

    dP = -P da P + P P^H da^H (I - a P) + (I - P a) da^H P^H P,

with ``P = pinv(a)``. The rules use that formula everywhere: at a rank-deficient ``a`` they
give the derivative along rank-preserving perturbations, which is the documented behaviour
(a perturbation that raises the rank moves ``pinv`` discontinuously, and no derivative
exists). The rank is the one NumPy's cut-off gives (``rcond``/``rtol``).

``lstsq`` computes the SVD of ``a`` once, forms the solution, residuals, rank and singular
values from it as NumPy does, and its pullback applies ``P = V S^+ U^H`` through the same
factors. The residuals (returned when ``a`` has full column rank and more rows than columns)
have cotangent ``2 r g`` on ``b`` and ``-2 r g x^H`` on ``a``; the singular values
``U diag(g) V^H`` on ``a``; the rank has none.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.pinv, np.array([[2.0, 0.0], [0.0, 4.0]]))
>>> pullback(np.eye(2))[1]
array([[-0.25  ,  0.    ],
       [ 0.    , -0.0625]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.calls import call
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import eye_like, lower_hermitian, lower_hermitian_cotangent, mH, output_fields

__all__: list[str] = []

_UNSET: Any = object()


# ---- pinv -------------------------------------------------------------------------------


def _pinv(a: Any, rcond: Any, hermitian: bool, rtol: Any) -> Any:
    options = {} if rtol is _UNSET else {"rtol": rtol}
    # NumPy's signature (rcond, hermitian): other arrays go to the adapters' NumPy copies.
    return call(np.linalg.pinv, a, rcond, hermitian, **options)


def pinv_pullback_of(a: Any, p: Any, g: Any) -> Any:
    """The cotangent of ``a`` from the cotangent ``g`` of ``p = pinv(a)``."""
    xp = array_namespace(a, p, g)
    p_h, g_h = mH(p), mH(g)
    left = eye_like(a, a.shape[-2]) - xp.matmul(a, p)
    right = eye_like(a, a.shape[-1]) - xp.matmul(p, a)
    return (
        -xp.matmul(xp.matmul(p_h, g), p_h)
        + xp.matmul(xp.matmul(left, g_h), xp.matmul(p, p_h))
        + xp.matmul(xp.matmul(p_h, p), xp.matmul(g_h, right))
    )


def pinv_pushforward_of(a: Any, p: Any, da: Any) -> Any:
    """The tangent of ``p = pinv(a)`` along ``da``."""
    xp = array_namespace(a, p, da)
    da_h = mH(da)
    left = eye_like(a, a.shape[-2]) - xp.matmul(a, p)
    right = eye_like(a, a.shape[-1]) - xp.matmul(p, a)
    return (
        -xp.matmul(xp.matmul(p, da), p)
        + xp.matmul(xp.matmul(p, mH(p)), xp.matmul(da_h, left))
        + xp.matmul(xp.matmul(right, da_h), xp.matmul(mH(p), p))
    )


@rrule.register(np.linalg.pinv)
def _pinv_rrule(a, rcond=None, hermitian=False, *, rtol=_UNSET):
    project_a = ProjectTo(a)
    p = _pinv(a, rcond, hermitian, rtol)
    # With hermitian=True NumPy reads the lower triangle only (through eigh).
    seen = lower_hermitian(a) if hermitian else a

    def pinv_pullback(dy):
        da = pinv_pullback_of(seen, p, dy)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(da) if hermitian else da)

    return p, pinv_pullback


@frule.register(np.linalg.pinv)
def _pinv_frule(tangents, a, rcond=None, hermitian=False, *, rtol=_UNSET):
    p = _pinv(a, rcond, hermitian, rtol)
    da = tangents[1]
    if is_zero(da):
        return p, da
    if hermitian:
        a, da = lower_hermitian(a), lower_hermitian(da)
    return p, pinv_pushforward_of(a, p, da)


# ---- lstsq ------------------------------------------------------------------------------


class _LeastSquares:
    """The SVD of ``a`` and what ``lstsq`` reads off it; ``P = pinv(a)`` applied by factors."""

    def __init__(self, a: Any, b: Any, rcond: Any) -> None:
        xp = self.xp = array_namespace(a, b)
        m, n = a.shape[-2:]
        self.a = a
        self.vector = b.ndim == 1
        self.b = b[:, None] if self.vector else b
        self.u, self.s, vh = xp.linalg.svd(a, full_matrices=False)
        self.v = mH(vh)
        eps = xp.finfo(a.dtype).eps
        largest = xp.max(self.s) if min(m, n) else 0.0  # an empty matrix has rank 0
        cutoff = (eps * max(m, n) if rcond is None else rcond) * largest
        keep = self.s > cutoff
        self.rank = int(xp.count_nonzero(keep))
        self.keep = xp.astype(keep, self.s.dtype)
        self.s_inv = self.keep / xp.where(keep, self.s, xp.ones_like(self.s))
        self.x = self.apply(self.b)
        self.r = self.b - xp.matmul(a, self.x)
        self.has_residuals = self.rank == n and m > n

    def apply(self, w: Any) -> Any:
        """``P w``."""
        xp = self.xp
        return xp.matmul(self.v, self.s_inv[:, None] * xp.matmul(mH(self.u), w))

    def apply_adjoint(self, w: Any) -> Any:
        """``P^H w``."""
        xp = self.xp
        return xp.matmul(self.u, self.s_inv[:, None] * xp.matmul(mH(self.v), w))

    def off_row_space(self, w: Any) -> Any:
        """``(I - P a) w``: the part of ``w`` outside ``a``'s row space."""
        xp = self.xp
        return w - xp.matmul(self.v, self.keep[:, None] * xp.matmul(mH(self.v), w))

    def residuals(self) -> Any:
        xp = self.xp
        if not self.has_residuals:
            return xp.zeros((0,), dtype=self.s.dtype)
        r = self.r
        return xp.sum(xp.real(xp.conj(r) * r) if is_complex(r) else r * r, axis=0)

    def result(self) -> tuple:
        x = self.x[:, 0] if self.vector else self.x
        return x, self.residuals(), self.rank, self.s


_LSTSQ = ("x", "residuals", "rank", "s")


@rrule.register(np.linalg.lstsq)
def _lstsq_rrule(a, b, rcond=None):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    ls = _LeastSquares(a, b, rcond)
    result = ls.result()

    def lstsq_pullback(dy):
        g_x, g_res, _, g_s = output_fields(dy, _LSTSQ, result, np.linalg.lstsq)
        da: Any = ZERO_TANGENT
        db: Any = ZERO_TANGENT
        if not is_zero(g_x):
            g = g_x[:, None] if ls.vector else g_x
            p_h_g = ls.apply_adjoint(g)
            da = (
                -xp.matmul(p_h_g, mH(ls.x))
                + xp.matmul(ls.r, mH(ls.apply(p_h_g)))
                + xp.matmul(ls.apply_adjoint(ls.x), mH(ls.off_row_space(g)))
            )
            db = p_h_g
        if ls.has_residuals and not is_zero(g_res):
            weighted = 2 * ls.r * g_res
            da = da - xp.matmul(weighted, mH(ls.x))
            db = db + weighted
        if not is_zero(g_s):
            da = da + xp.matmul(ls.u * g_s, mH(ls.v))
        if ls.vector and not is_zero(db):
            db = db[:, 0]
        return NO_TANGENT, project_a(da), project_b(db)

    return result, lstsq_pullback


@frule.register(np.linalg.lstsq)
def _lstsq_frule(tangents, a, b, rcond=None):
    xp = array_namespace(a, b)
    ls = _LeastSquares(a, b, rcond)
    result = ls.result()
    da, db = tangents[1], tangents[2]
    dx: Any = ZERO_TANGENT
    d_res: Any = ZERO_TANGENT
    d_s: Any = ZERO_TANGENT
    if not is_zero(db):
        db = db[:, None] if ls.vector else db
        dx = ls.apply(db)
        if ls.has_residuals:
            d_res = 2 * xp.real(xp.sum(xp.conj(ls.r) * db, axis=0))
    if not is_zero(da):
        da_h = mH(da)
        dx = (
            dx
            - ls.apply(xp.matmul(da, ls.x))
            + ls.apply(ls.apply_adjoint(xp.matmul(da_h, ls.r)))
            + ls.off_row_space(xp.matmul(da_h, ls.apply_adjoint(ls.x)))
        )
        if ls.has_residuals:
            d_res = d_res - 2 * xp.real(xp.sum(xp.conj(ls.r) * xp.matmul(da, ls.x), axis=0))
        d_s = xp.real(xp.sum(xp.conj(ls.u) * xp.matmul(da, ls.v), axis=0))
    if ls.vector and not is_zero(dx):
        dx = dx[:, 0]
    if not ls.has_residuals:
        d_res = ZERO_TANGENT
    return result, Tangent(tuple, dx, d_res, NO_TANGENT, d_s)
