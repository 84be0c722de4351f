"""Rules for ``np.linalg.cholesky`` and ``np.linalg.qr``.

**cholesky** reads one triangle of ``a`` (the lower one; the upper with ``upper=True``) and
the real part of its diagonal, and factorizes the Hermitian matrix ``H`` they describe as
``H = L L^H``. With ``Phi(X) = tril(X, -1) + diag(X) / 2``, the derivative is
``dL = L Phi(L^{-1} dH L^{-H})`` and the pullback (Murray 2016) is
``S = L^{-H} Phi(L^H g_L) L^{-1}``, carried back to the triangle read. Only triangular solves
with ``L`` are needed; ``L``'s diagonal is real, for complex input too.

**qr** is differentiated for tall, square and wide matrices. For ``m >= n`` and ``a = Q R``
(reduced), with ``W = Q^H g_Q - g_R R^H``, the pullback is
``(g_Q + Q (skewtril(W) - W)) R^{-H}``, where ``skewtril(W) = tril(W - W^H, -1) + i Im diag(W)``
comes from ``Q^H dQ`` being skew-Hermitian with the gauge LAPACK fixes (a real diagonal of
``R``). A wide ``a = [X | Y]`` is ``X = Q R_1`` (square) and ``R_2 = Q^H Y``. ``mode='r'``
gives ``R`` alone. ``mode='complete'`` of a tall matrix returns columns of ``Q`` that ``a`` does
not determine: they take no cotangent (a nonzero one raises ``ValueError``). ``mode='raw'``
(Householder reflectors) has no rule and raises.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> l, pullback = rrule(np.linalg.cholesky, np.array([[4.0, 0.0], [0.0, 9.0]]))
>>> pullback(np.eye(2))[1]
array([[0.25      , 0.        ],
       [0.        , 0.16666667]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    cholesky_factor,
    diag_embed,
    lower_hermitian,
    lower_hermitian_cotangent,
    mH,
    output_fields,
    output_tangent,
    solve_triangular,
    solve_triangular_right,
)

__all__ = [
    "cholesky_pullback_of",
    "cut_complete_qr_cotangents",
    "hermitian_read",
    "qr_pullback_of",
]


def _half_lower(x: Any) -> Any:
    """``tril(x, -1) + diag(x) / 2``: the map ``Phi`` and, being diagonal in the entries,
    its own adjoint."""
    xp = array_namespace(x)
    return xp.tril(x, k=-1) + diag_embed(xp.linalg.diagonal(x) / 2)


# ---- cholesky ---------------------------------------------------------------------------


def cholesky_pullback_of(low: Any, g_low: Any) -> Any:
    """The gradient with respect to ``H = low low^H`` (as a general matrix) from ``g_low``."""
    xp = array_namespace(low, g_low)
    inner = _half_lower(xp.matmul(mH(low), g_low))
    return solve_triangular_right(
        solve_triangular(low, inner, lower=True, adjoint=True), low, lower=True
    )


def cholesky_pushforward_of(low: Any, dh: Any) -> Any:
    """The tangent of ``low`` along the tangent ``dh`` of ``H = low low^H``.

    ``dL = L Phi(M)`` with ``M = L^{-1} dH L^{-H}`` Hermitian, so ``M``'s diagonal is real;
    rounding leaves it a little complex, so ``Phi`` takes its real part. ``dL``'s diagonal,
    ``L_ii Re(M_ii) / 2``, is then set apart from the product: real by construction, as
    ``L``'s is, whatever rounding the matrix product adds.
    """
    xp = array_namespace(low, dh)
    m = solve_triangular_right(solve_triangular(low, dh, lower=True), low, lower=True, adjoint=True)
    m_ii, low_ii = xp.linalg.diagonal(m), xp.linalg.diagonal(low)
    if is_complex(m) or is_complex(low):
        m_ii, low_ii = xp.real(m_ii), xp.real(low_ii)
    half = m_ii / 2
    phi = xp.tril(m, k=-1) + diag_embed(xp.astype(half, m.dtype))
    strict = xp.tril(xp.matmul(low, phi), k=-1)
    return strict + diag_embed(xp.astype(low_ii * half, strict.dtype))


def hermitian_read(a: Any, upper: bool = False) -> Any:
    """``a`` for a function that reads one triangle of it (eigh, cholesky): NumPy arrays as
    they are (LAPACK reads the triangle), others as the Hermitian matrix the triangle describes.

    Another library's own derivative of such a function (PyTorch's) assumes a Hermitian input,
    and is differentiated again when a pullback computed with it is: given the Hermitian matrix,
    its derivative is that of the triangle, as the rules' is.
    """
    return a if is_numpy(a) else lower_hermitian(a, upper=upper)


def _cholesky_factor(a: Any, upper: bool) -> Any:
    """The Cholesky factor of the Hermitian matrix one triangle of ``a`` describes."""
    h = hermitian_read(a, upper)
    return np.linalg.cholesky(h, upper=upper) if is_numpy(h) else cholesky_factor(h, upper)


@rrule.register(np.linalg.cholesky)
def _cholesky_rrule(a, *, upper=False):
    project_a = ProjectTo(a)
    factor = _cholesky_factor(a, upper)
    low = mH(factor) if upper else factor

    def cholesky_pullback(dy):
        g = cholesky_pullback_of(low, mH(dy) if upper else dy)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(g, upper=upper))

    return factor, cholesky_pullback


@frule.register(np.linalg.cholesky)
def _cholesky_frule(tangents, a, *, upper=False):
    factor = _cholesky_factor(a, upper)
    da = tangents[1]
    if is_zero(da):
        return factor, da
    low = mH(factor) if upper else factor
    d_low = cholesky_pushforward_of(low, lower_hermitian(da, upper=upper))
    return factor, mH(d_low) if upper else d_low


# ---- qr ---------------------------------------------------------------------------------


def _skew_lower(w: Any) -> Any:
    """``tril(w - w^H, -1) + i Im diag(w)``: the skew-Hermitian matrix with ``w``'s lower part."""
    xp = array_namespace(w)
    out = xp.tril(w - mH(w), k=-1)
    if is_complex(w):
        out = out + diag_embed(1j * xp.imag(xp.linalg.diagonal(w)))
    return out


def _square_qr_pullback(q: Any, r: Any, g_q: Any, g_r: Any) -> Any:
    """The cotangent of ``a = q r`` with ``r`` square (``m >= n``)."""
    xp = array_namespace(q, r)
    w: Any = ZERO_TANGENT
    if not is_zero(g_q):
        w = xp.matmul(mH(q), g_q)
    if not is_zero(g_r):
        w = w - xp.matmul(g_r, mH(r))
    inner = _skew_lower(w) - w
    lead = xp.matmul(q, inner)
    if not is_zero(g_q):
        lead = lead + g_q
    return solve_triangular_right(lead, r, lower=False, adjoint=True)


def qr_pullback_of(a: Any, q: Any, r: Any, g_q: Any, g_r: Any) -> Any:
    """The cotangent of ``a`` from those of its reduced ``q`` and ``r``, any shape of ``a``."""
    xp = array_namespace(a, q, r)
    m, n = a.shape[-2:]
    if m >= n:
        return _square_qr_pullback(q, r, g_q, g_r)
    y = a[..., :, m:]
    g_r1 = g_r if is_zero(g_r) else g_r[..., :, :m]
    g_r2 = g_r if is_zero(g_r) else g_r[..., :, m:]
    if not is_zero(g_r2):
        shifted = xp.matmul(y, mH(g_r2))
        g_q = shifted if is_zero(g_q) else g_q + shifted
    g_x = _square_qr_pullback(q, r[..., :, :m], g_q, g_r1)
    g_y = xp.zeros_like(y) if is_zero(g_r2) else xp.matmul(q, g_r2)
    return xp.concat((g_x, g_y), axis=-1)


def qr_pushforward_of(a: Any, q: Any, r: Any, da: Any) -> tuple[Any, Any]:
    """The tangents of the reduced ``q`` and ``r`` along ``da``."""
    xp = array_namespace(a, q, r, da)
    m, n = a.shape[-2:]
    k = min(m, n)
    r1, da1 = r[..., :, :k], da[..., :, :k]
    x = solve_triangular_right(xp.matmul(mH(q), da1), r1, lower=False)
    # x - C, with C = Q^H dQ skew-Hermitian and x - C upper triangular with a real diagonal
    lower = xp.tril(x, k=-1)
    x_minus_c = x - lower + mH(lower)
    if is_complex(x):
        x_minus_c = x_minus_c - diag_embed(1j * xp.imag(xp.linalg.diagonal(x)))
    dr1 = xp.matmul(x_minus_c, r1)
    dq = solve_triangular_right(da1, r1, lower=False) - xp.matmul(q, x_minus_c)
    if m >= n:
        return dq, dr1
    dr2 = xp.matmul(mH(dq), a[..., :, m:]) + xp.matmul(mH(q), da[..., :, m:])
    return dq, xp.concat((dr1, dr2), axis=-1)


_QR = ("Q", "R")


def _qr_check_mode(mode: str) -> None:
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(
            f"numpy.linalg.qr(mode={mode!r}) has no rule: its Householder reflectors are "
            "LAPACK's internal representation; use mode='reduced', 'complete' or 'r'"
        )


def cut_complete_qr_cotangents(
    a: Any, g_q: Any, g_r: Any, call: str, reduced: str
) -> tuple[Any, Any]:
    """Cut the cotangents of a complete QR of ``a`` to the reduced factors.

    The last m - n columns of Q of a tall m x n matrix are not determined by it: a nonzero
    cotangent there raises a ValueError naming ``call`` and suggesting ``mode=reduced``.
    Only a NumPy cotangent can be inspected; an engine's values pass with that part ignored.

    >>> import numpy as np
    >>> g_q, g_r = cut_complete_qr_cotangents(
    ...     np.ones((3, 2)), np.zeros((3, 3)), np.ones((3, 2)), "qr", "reduced"
    ... )
    >>> g_q.shape, g_r.shape
    ((3, 2), (2, 2))
    """
    m, n = a.shape[-2:]
    if m <= n:
        return g_q, g_r
    if not is_zero(g_q):
        extra, g_q = g_q[..., :, n:], g_q[..., :, :n]
        if is_numpy(extra) and np.any(extra != 0):
            raise ValueError(
                f"pullback of {call} of a {m}x{n} matrix: the last {m - n} columns of Q are "
                f"not determined by the matrix, so they take no cotangent; use mode='{reduced}'"
            )
    if not is_zero(g_r):
        g_r = g_r[..., :n, :]
    return g_q, g_r


@rrule.register(np.linalg.qr)
def _qr_rrule(a, mode="reduced"):
    _qr_check_mode(mode)
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    m, n = a.shape[-2:]
    complete = mode == "complete" and m > n
    result = xp.linalg.qr(a, mode=mode if complete else "reduced")
    q, r = result
    if complete:
        q, r = q[..., :, :n], r[..., :n, :]

    def qr_pullback(dy):
        if mode == "r":
            g_q, g_r = ZERO_TANGENT, dy
        else:
            g_q, g_r = output_fields(dy, _QR, result, np.linalg.qr)
        if complete:
            g_q, g_r = cut_complete_qr_cotangents(
                a, g_q, g_r, "numpy.linalg.qr(mode='complete')", "reduced"
            )
        return NO_TANGENT, project_a(qr_pullback_of(a, q, r, g_q, g_r))

    return (result.R if mode == "r" else result), qr_pullback


@frule.register(np.linalg.qr)
def _qr_frule(tangents, a, mode="reduced"):
    _qr_check_mode(mode)
    xp = array_namespace(a)
    m, n = a.shape[-2:]
    complete = mode == "complete" and m > n
    result = xp.linalg.qr(a, mode=mode if complete else "reduced")
    y = result.R if mode == "r" else result
    da = tangents[1]
    if is_zero(da):
        return y, da
    if complete:
        raise ValueError(
            f"frule of numpy.linalg.qr(mode='complete') of a {m}x{n} matrix: the last "
            f"{m - n} columns of Q are not determined by the matrix; use mode='reduced'"
        )
    dq, dr = qr_pushforward_of(a, result.Q, result.R, da)
    if mode == "r":
        return y, dr
    return y, output_tangent(type(result), _QR, (dq, dr))
