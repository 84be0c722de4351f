"""Rules for ``scipy.linalg``'s structured constructors hankel, convolution_matrix, leslie,
khatri_rao, companion, fiedler, fiedler_companion and diagsvd.

They take 1-D arguments (``khatri_rao``: two matrices with as many columns). ``hankel``,
``convolution_matrix`` and ``leslie`` are linear, ``khatri_rao`` bilinear: as in
``structured``, NumPy inputs are built by SciPy, other array types by array-API
gathers and diagonal sums, so the pullbacks differentiate again. ``hankel(c, r)`` ignores
``r[0]`` (zero cotangent). ``companion(a)``'s first row is ``-a[1:] / a[0]``, smooth wherever
SciPy accepts ``a`` (``a[0] != 0``). ``fiedler(a)`` is ``|a[i] - a[j]|`` with
``abs'(0) = 0``: equal entries pass no cotangent. ``fiedler_companion(a)`` places
``-a[k] / a[0]`` (and constants) in a pentadiagonal matrix, the same positions as SciPy (read
off SciPy's function once per length); stacks of polynomials work. ``diagsvd(s, M, N)`` is
``diag(s)`` padded with zeros, linear.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.hankel, np.array([1.0, 2.0]))
>>> pullback(np.ones((2, 2)))[1]
array([1., 2.])
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import diag_embed
from ...numpy.linalg.norms import complex_sign
from .structured import diagonal_sums, toeplitz_matrix

__all__: list[str] = []


# ---- hankel, convolution_matrix (gathers along anti-diagonals and diagonals) ---------------


def _hankel(c: Any, r: Any) -> Any:
    """``scipy.linalg.hankel(c, r)`` for 1-D ``c`` and ``r`` (``r=None``: zeros)."""
    if is_numpy(c) and (r is None or is_numpy(r)):
        return sla.hankel(c, r)
    xp = array_namespace(c, r)
    m = c.shape[0]
    n = m if r is None else r.shape[0]
    tail = xp.zeros((n - 1,), dtype=c.dtype) if r is None else r[1:]
    values = xp.concat([c, xp.astype(tail, xp.result_type(c, tail))]) if n > 1 else c
    i, j = np.indices((m, n))
    return xp.reshape(xp.take(values, xp.asarray((i + j).reshape(-1))), (m, n))


@rrule.register(sla.hankel)
def _hankel_rrule(c, r=None):
    project_c, project_r = ProjectTo(c), ProjectTo(r)
    y = _hankel(c, r)
    m = y.shape[0]

    def hankel_pullback(dy):
        xp = array_namespace(dy)
        # Reversing the columns turns anti-diagonal i + j = k into diagonal k of the sums.
        sums = diagonal_sums(xp.flip(dy, axis=1))
        if r is None:
            return NO_TANGENT, project_c(sums[:m])
        zero = xp.zeros((1,), dtype=sums.dtype)
        return NO_TANGENT, project_c(sums[:m]), project_r(xp.concat([zero, sums[m:]]))

    return y, hankel_pullback


@frule.register(sla.hankel)
def _hankel_frule(tangents, c, r=None):
    y = _hankel(c, r)
    dc = tangents[1]
    dr = tangents[2] if len(tangents) > 2 and r is not None else None
    if is_zero(dc) and (dr is None or is_zero(dr)):
        return y, ZERO_TANGENT
    xp = array_namespace(y)
    dc = xp.zeros(tuple(np.shape(c)), dtype=y.dtype) if is_zero(dc) else dc
    if dr is not None and is_zero(dr):
        dr = xp.zeros(tuple(np.shape(r)), dtype=y.dtype)
    return y, ProjectTo(y)(_hankel(dc, dr))


def _convolution_rows(m: int, n: int, mode: str) -> tuple[int, int]:
    """The rows ``mode`` keeps of the full ``(m + n - 1, n)`` convolution matrix, as SciPy."""
    if mode not in ("full", "same", "valid"):
        raise ValueError(f"convolution_matrix: unknown mode {mode!r}")
    trim = 0 if mode == "full" else min(n, m) - 1
    first = trim // 2 if mode == "same" else trim
    last = trim - trim // 2 if mode == "same" else trim
    return first, m + n - 1 - last


def _convolution_matrix(a: Any, n: int, mode: str) -> Any:
    """``scipy.linalg.convolution_matrix(a, n, mode)`` for 1-D ``a``."""
    if is_numpy(a):
        return sla.convolution_matrix(a, n, mode)
    xp = array_namespace(a)
    zeros = xp.zeros((n - 1,), dtype=a.dtype)
    first, stop = _convolution_rows(a.shape[0], n, mode)
    return toeplitz_matrix(xp.concat([a, zeros]), xp.concat([a[:1], zeros]))[first:stop, :]


@rrule.register(sla.convolution_matrix)
def _convolution_matrix_rrule(a, n, mode="full"):
    project_a = ProjectTo(a)
    y = _convolution_matrix(a, n, mode)
    m = a.shape[0]
    first, stop = _convolution_rows(m, n, mode)

    def convolution_matrix_pullback(dy):
        xp = array_namespace(dy)
        full = xp.concat(
            [
                xp.zeros((first, n), dtype=dy.dtype),
                dy,
                xp.zeros((m + n - 1 - stop, n), dtype=dy.dtype),
            ]
        )
        # Entry (i, j) of the full matrix is a[i - j]: diagonal sums n - 1 ... n + m - 2.
        return NO_TANGENT, project_a(diagonal_sums(full)[n - 1 : n - 1 + m])

    return y, convolution_matrix_pullback


@frule.register(sla.convolution_matrix)
def _convolution_matrix_frule(tangents, a, n, mode="full"):
    y = _convolution_matrix(a, n, mode)
    da = tangents[1]
    if is_zero(da):
        return y, da
    return y, ProjectTo(y)(_convolution_matrix(da, n, mode))


# ---- leslie, khatri_rao, companion, fiedler -----------------------------------------------


def _leslie(f: Any, s: Any) -> Any:
    """``scipy.linalg.leslie(f, s)`` for 1-D ``f`` and ``s``."""
    if is_numpy(f, s):
        return sla.leslie(f, s)
    xp = array_namespace(f, s)
    dtype = xp.result_type(f, s)
    below = xp.concat(
        [diag_embed(xp.astype(s, dtype)), xp.zeros((s.shape[0], 1), dtype=dtype)], axis=1
    )
    return xp.concat([xp.astype(f, dtype)[None, :], below])


@rrule.register(sla.leslie)
def _leslie_rrule(f, s):
    project_f, project_s = ProjectTo(f), ProjectTo(s)
    y = _leslie(f, s)

    def leslie_pullback(dy):
        xp = array_namespace(dy)
        return NO_TANGENT, project_f(dy[0, :]), project_s(xp.linalg.diagonal(dy[1:, :-1]))

    return y, leslie_pullback


@frule.register(sla.leslie)
def _leslie_frule(tangents, f, s):
    y = _leslie(f, s)
    df, ds = tangents[1], tangents[2]
    if is_zero(df) and is_zero(ds):
        return y, ZERO_TANGENT
    xp = array_namespace(y)
    df = xp.zeros(tuple(np.shape(f)), dtype=y.dtype) if is_zero(df) else df
    ds = xp.zeros(tuple(np.shape(s)), dtype=y.dtype) if is_zero(ds) else ds
    return y, ProjectTo(y)(_leslie(df, ds))


def _khatri_rao(a: Any, b: Any) -> Any:
    """Column-wise Kronecker product: column ``k`` is ``kron(a[:, k], b[:, k])``."""
    xp = array_namespace(a, b)
    return xp.reshape(a[:, None, :] * b[None, :, :], (a.shape[0] * b.shape[0], a.shape[1]))


@rrule.register(sla.khatri_rao)
def _khatri_rao_rrule(a, b):
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    y = sla.khatri_rao(a, b) if is_numpy(a, b) else _khatri_rao(a, b)

    def khatri_rao_pullback(dy):
        xp = array_namespace(a, b, dy)
        g = xp.reshape(dy, (a.shape[0], b.shape[0], a.shape[1]))
        da = xp.sum(g * xp.conj(b)[None, :, :], axis=1)
        db = xp.sum(g * xp.conj(a)[:, None, :], axis=0)
        return NO_TANGENT, project_a(da), project_b(db)

    return y, khatri_rao_pullback


@frule.register(sla.khatri_rao)
def _khatri_rao_frule(tangents, a, b):
    y = sla.khatri_rao(a, b) if is_numpy(a, b) else _khatri_rao(a, b)
    da, db = tangents[1], tangents[2]
    dy: Any = ZERO_TANGENT
    if not is_zero(da):
        dy = _khatri_rao(da, b)
    if not is_zero(db):
        dy = dy + _khatri_rao(a, db)
    return y, dy if is_zero(dy) else ProjectTo(y)(dy)


def _companion(a: Any) -> Any:
    """``scipy.linalg.companion(a)`` for 1-D ``a``: first row ``-a[1:] / a[0]``, ones below
    the diagonal."""
    if is_numpy(a):
        return sla.companion(a)
    xp = array_namespace(a)
    row = -a[1:] / a[0]
    n = row.shape[0]
    # A square identity and a column of zeros: dask's eye(N, M) with M > N names column
    # blocks that its graph lacks, and fails when computed.
    ones = xp.concat(
        [xp.eye(n - 1, dtype=row.dtype), xp.zeros((n - 1, 1), dtype=row.dtype)], axis=1
    )
    return xp.concat([row[None, :], ones])


@rrule.register(sla.companion)
def _companion_rrule(a):
    project_a = ProjectTo(a)
    y = _companion(a)

    def companion_pullback(dy):
        xp = array_namespace(y, dy)
        # row = -a[1:] / a[0]: d row / d a[k] = -1 / a[0], d row / d a[0] = -row / a[0].
        g = dy[0, :] / xp.conj(a[0])
        da0 = -xp.sum(g * xp.conj(y[0, :]))
        return NO_TANGENT, project_a(xp.concat([da0[None], -g]))

    return y, companion_pullback


@frule.register(sla.companion)
def _companion_frule(tangents, a):
    y = _companion(a)
    da = tangents[1]
    if is_zero(da):
        return y, da
    xp = array_namespace(y, da)
    d_row = -(da[1:] + y[0, :] * da[0]) / a[0]
    n = d_row.shape[0]
    return y, xp.concat([d_row[None, :], xp.zeros((n - 1, n), dtype=y.dtype)])


def _fiedler(a: Any) -> Any:
    """``scipy.linalg.fiedler(a)`` for 1-D ``a``: ``|a[i] - a[j]|``."""
    if is_numpy(a):
        return sla.fiedler(a)
    return array_namespace(a).abs(a[:, None] - a[None, :])


@rrule.register(sla.fiedler)
def _fiedler_rrule(a):
    project_a = ProjectTo(a)
    y = _fiedler(a)

    def fiedler_pullback(dy):
        xp = array_namespace(a, dy)
        # abs'(0) = 0: equal entries (the diagonal included) pass no cotangent.
        g = dy * complex_sign(a[:, None] - a[None, :])
        return NO_TANGENT, project_a(xp.sum(g, axis=1) - xp.sum(g, axis=0))

    return y, fiedler_pullback


@frule.register(sla.fiedler)
def _fiedler_frule(tangents, a):
    y = _fiedler(a)
    da = tangents[1]
    if is_zero(da):
        return y, da
    xp = array_namespace(a, da)
    d = da[:, None] - da[None, :]
    sign = complex_sign(a[:, None] - a[None, :])
    dy = xp.real(xp.conj(sign) * d) if is_complex(sign) else sign * d
    return y, ProjectTo(y)(dy)


# ---- diagsvd, fiedler_companion -----------------------------------------------------------


def _diagsvd(s: Any, m: int, n: int) -> Any:
    """``scipy.linalg.diagsvd(s, m, n)``: ``diag(s)`` padded with zeros to ``m x n``."""
    if is_numpy(s):
        return sla.diagsvd(s, m, n)
    xp = array_namespace(s)
    k = s.shape[-1]
    if k not in (m, n):
        raise ValueError("Length of s must be M or N.")
    batch = tuple(s.shape[:-1])
    square = diag_embed(s)
    if n > k:
        square = xp.concat([square, xp.zeros((*batch, k, n - k), dtype=s.dtype)], axis=-1)
    if m > k:
        square = xp.concat([square, xp.zeros((*batch, m - k, n), dtype=s.dtype)], axis=-2)
    return square


@rrule.register(sla.diagsvd)
def _diagsvd_rrule(s, M, N):
    project_s = ProjectTo(s)
    y = _diagsvd(s, M, N)

    def diagsvd_pullback(dy):
        return NO_TANGENT, project_s(array_namespace(dy).linalg.diagonal(dy))

    return y, diagsvd_pullback


@frule.register(sla.diagsvd)
def _diagsvd_frule(tangents, s, M, N):
    y = _diagsvd(s, M, N)
    ds = tangents[1]
    if is_zero(ds):
        return y, ds
    return y, ProjectTo(y)(_diagsvd(ds, M, N))


@functools.cache
def _fiedler_companion_map(size: int) -> tuple[np.ndarray, np.ndarray]:
    """``(constant, linear)``: for a monic ``b`` of length ``size``, SciPy's
    ``fiedler_companion(b)`` is ``constant + reshape(b[1:] @ linear)`` (its entries are
    ``-b[k]``, ones and zeros), read off SciPy's own function at the unit vectors."""
    first = np.eye(size)[0]
    constant = np.asarray(sla.fiedler_companion(first), dtype=np.float64)
    rows = [
        np.reshape(sla.fiedler_companion(first + e) - constant, (-1,)) for e in np.eye(size)[1:]
    ]
    return constant, np.array(rows).reshape(size - 1, constant.size)


def _fiedler_companion(a: Any) -> tuple[Any, Any]:
    """``(fiedler_companion(a), a[..., 1:] / a[..., :1])`` for ``a`` of length at least 2."""
    xp = array_namespace(a)
    b = a[..., 1:] / a[..., :1]
    if is_numpy(a):
        return sla.fiedler_companion(a), b
    constant, linear = _fiedler_companion_map(a.shape[-1])
    flat = xp.matmul(b, xp.asarray(linear, dtype=b.dtype))
    shape = (*b.shape[:-1], *constant.shape)
    return xp.reshape(flat, shape) + xp.asarray(constant, dtype=b.dtype), b


@rrule.register(sla.fiedler_companion)
def _fiedler_companion_rrule(a):
    project_a = ProjectTo(a)
    size = a.shape[-1]
    # Fewer than two coefficients give an empty matrix.
    y, b = _fiedler_companion(a) if size >= 2 else (sla.fiedler_companion(a), None)

    def fiedler_companion_pullback(dy):
        if b is None:
            return NO_TANGENT, project_a(ZERO_TANGENT)
        xp = array_namespace(b, dy)
        linear = _fiedler_companion_map(size)[1]
        flat = xp.reshape(dy, (*b.shape[:-1], linear.shape[1]))
        g_b = xp.matmul(flat, xp.asarray(linear.T, dtype=flat.dtype))
        # b = a[1:] / a[0]: d b / d a[k] = 1 / a[0], d b / d a[0] = -b / a[0].
        g_tail = g_b / (xp.conj(a[..., :1]) if is_complex(a) else a[..., :1])
        g_head = -xp.sum(g_tail * (xp.conj(b) if is_complex(b) else b), axis=-1, keepdims=True)
        return NO_TANGENT, project_a(xp.concat([g_head, g_tail], axis=-1))

    return y, fiedler_companion_pullback


@frule.register(sla.fiedler_companion)
def _fiedler_companion_frule(tangents, a):
    da = tangents[1]
    if a.shape[-1] < 2:
        return sla.fiedler_companion(a), ZERO_TANGENT
    y, b = _fiedler_companion(a)
    if is_zero(da):
        return y, da
    xp = array_namespace(b, da)
    linear = _fiedler_companion_map(a.shape[-1])[1]
    db = (da[..., 1:] - b * da[..., :1]) / a[..., :1]
    flat = xp.matmul(db, xp.asarray(linear, dtype=db.dtype))
    return y, ProjectTo(y)(xp.reshape(flat, tuple(y.shape)))
