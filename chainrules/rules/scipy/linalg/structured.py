"""Rules for ``scipy.linalg``'s structured-matrix constructors: block_diag, toeplitz,
circulant.

All three are linear: the frule applies the constructor to the tangents, the pullback
gathers the cotangent back. ``block_diag`` treats 1-D arguments as rows and scalars as
1x1 blocks, as SciPy does. ``toeplitz(c, r)`` ignores ``r[0]``, so its cotangent is zero; with
``r`` omitted the first row is ``conj(c)`` (a Hermitian Toeplitz matrix), whose cotangent
comes back conjugated. ``toeplitz`` and ``circulant`` take 1-D arguments here.

NumPy inputs are built by SciPy; other array types (an engine's tracked values) by the same
maps written in array-API operations (concatenation, gathers, diagonal sums as a skewed
reshape), which an engine records, so the pullbacks differentiate again.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.circulant, np.array([1.0, 2.0, 3.0]))
>>> pullback(np.ones((3, 3)))[1]
array([3., 3., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT
from ....core.zeros import is_zero

__all__ = ["circulant_matrix", "diagonal_sums", "toeplitz_matrix"]


# ---- block_diag ---------------------------------------------------------------------------


def _block_shapes(arrs: tuple) -> list[tuple[int, int]]:
    shapes = []
    for a in arrs:
        shape = tuple(np.shape(a))
        shapes.append((1, 1) if len(shape) == 0 else (1, shape[0]) if len(shape) == 1 else shape)
    return shapes


def _block_diag(arrs: tuple) -> Any:
    """``scipy.linalg.block_diag(*arrs)``, in array-API operations for non-NumPy arrays."""
    if is_numpy(*arrs):
        return sla.block_diag(*arrs)
    xp = array_namespace(*arrs)
    shapes = _block_shapes(arrs)
    dtype = xp.result_type(*arrs)
    width = sum(n for _, n in shapes)
    rows, col = [], 0
    for a, (m, n) in zip(arrs, shapes, strict=True):
        block = xp.astype(xp.reshape(xp.asarray(a), (m, n)), dtype)
        left = xp.zeros((m, col), dtype=dtype)
        right = xp.zeros((m, width - col - n), dtype=dtype)
        rows.append(xp.concat([left, block, right], axis=1))
        col += n
    return xp.concat(rows, axis=0)


@rrule.register(sla.block_diag)
def _block_diag_rrule(*arrs):
    projectors = [ProjectTo(a) for a in arrs]
    y = _block_diag(arrs)
    shapes = _block_shapes(arrs)

    def block_diag_pullback(dy):
        xp = array_namespace(dy)
        pieces = []
        row = col = 0
        for a, (m, n), project in zip(arrs, shapes, projectors, strict=True):
            block = dy[row : row + m, col : col + n]
            pieces.append(project(xp.reshape(block, tuple(np.shape(a)))))
            row, col = row + m, col + n
        return (NO_TANGENT, *pieces)

    return y, block_diag_pullback


@frule.register(sla.block_diag)
def _block_diag_frule(tangents, *arrs):
    y = _block_diag(arrs)
    dxs = list(tangents[1:])
    if all(is_zero(d) for d in dxs):
        return y, dxs[0] if dxs else NO_TANGENT
    xp = array_namespace(y)
    blocks = tuple(
        xp.zeros(tuple(np.shape(a)), dtype=y.dtype) if is_zero(d) else d
        for a, d in zip(arrs, dxs, strict=True)
    )
    return y, ProjectTo(y)(_block_diag(blocks))


# ---- toeplitz, circulant ------------------------------------------------------------------


def _toeplitz_index(m: int, n: int) -> np.ndarray:
    """``T[i, j] = values[index[i, j]]`` with ``values = concat(c, r[1:])``."""
    i, j = np.indices((m, n))
    return np.where(i >= j, i - j, m + j - i - 1)


def toeplitz_matrix(c: Any, r: Any) -> Any:
    """``scipy.linalg.toeplitz(c, r)`` for 1-D ``c`` and ``r`` (``r=None``: ``conj(c)``)."""
    if is_numpy(c) and (r is None or is_numpy(r)):
        return sla.toeplitz(c, r)
    xp = array_namespace(c, r)
    if r is None:
        r = xp.conj(c) if xp.isdtype(c.dtype, "complex floating") else c
    m, n = c.shape[0], r.shape[0]
    values = xp.concat([c, xp.astype(r[1:], xp.result_type(c, r))]) if n > 1 else c
    index = xp.asarray(_toeplitz_index(m, n).reshape(-1))
    return xp.reshape(xp.take(values, index), (m, n))


def diagonal_sums(g: Any) -> Any:
    """``s[k] = sum of g[i, j] over i - j = k - (n - 1)`` for ``g`` of shape (m, n).

    A gather's adjoint without a scatter: with the columns reversed and ``m`` zero columns
    appended, dropping the last ``m`` entries of the flattened matrix and re-reading it
    with rows of ``m + n - 1`` shifts row ``i`` right by ``i``, so each column collects one
    diagonal.
    """
    xp = array_namespace(g)
    m, n = g.shape
    padded = xp.concat([xp.flip(g, axis=1), xp.zeros((m, m), dtype=g.dtype)], axis=1)
    skewed = xp.reshape(xp.reshape(padded, (m * (m + n),))[: m * (m + n - 1)], (m, m + n - 1))
    return xp.sum(skewed, axis=0)


@rrule.register(sla.toeplitz)
def _toeplitz_rrule(c, r=None):
    project_c, project_r = ProjectTo(c), ProjectTo(r)
    y = toeplitz_matrix(c, r)
    n = y.shape[1]

    def toeplitz_pullback(dy):
        xp = array_namespace(dy)
        sums = diagonal_sums(dy)
        dc = sums[n - 1 :]
        zero = xp.zeros((1,), dtype=sums.dtype)
        d_rest = xp.concat([zero, xp.flip(sums[: n - 1], axis=0)])
        if r is None:
            conj_rest = xp.conj(d_rest) if xp.isdtype(sums.dtype, "complex floating") else d_rest
            return NO_TANGENT, project_c(dc + conj_rest)
        return NO_TANGENT, project_c(dc), project_r(d_rest)

    return y, toeplitz_pullback


@frule.register(sla.toeplitz)
def _toeplitz_frule(tangents, c, r=None):
    y = toeplitz_matrix(c, r)
    dc = tangents[1]
    dr = tangents[2] if len(tangents) > 2 else None
    if is_zero(dc) and (dr is None or is_zero(dr)):
        return y, dc
    xp = array_namespace(y)
    dc = xp.zeros(tuple(np.shape(c)), dtype=y.dtype) if is_zero(dc) else dc
    if r is None:
        return y, ProjectTo(y)(toeplitz_matrix(dc, None))
    dr = xp.zeros(tuple(np.shape(r)), dtype=y.dtype) if is_zero(dr) else dr
    return y, ProjectTo(y)(toeplitz_matrix(dc, dr))


def circulant_matrix(c: Any) -> Any:
    """``scipy.linalg.circulant(c)`` for 1-D ``c``."""
    if is_numpy(c):
        return sla.circulant(c)
    xp = array_namespace(c)
    n = c.shape[0]
    i, j = np.indices((n, n))
    index = xp.asarray(((i - j) % n).reshape(-1))
    return xp.reshape(xp.take(c, index), (n, n))


@rrule.register(sla.circulant)
def _circulant_rrule(c):
    project_c = ProjectTo(c)
    y = circulant_matrix(c)
    n = y.shape[-1]

    def circulant_pullback(dy):
        xp = array_namespace(dy)
        sums = diagonal_sums(dy)
        # i - j = k and i - j = k - n both land on c[k].
        wrapped = xp.concat([xp.zeros((1,), dtype=sums.dtype), sums[: n - 1]])
        return NO_TANGENT, project_c(sums[n - 1 :] + wrapped)

    return y, circulant_pullback


@frule.register(sla.circulant)
def _circulant_frule(tangents, c):
    y = circulant_matrix(c)
    dc = tangents[1]
    if is_zero(dc):
        return y, dc
    return y, ProjectTo(y)(circulant_matrix(dc))
