"""Rules for ``scipy.linalg``'s LU family: lu, lu_factor, lu_solve.

With the rows of ``a`` permuted so that ``a_p = L U`` (``L`` unit lower triangular, ``U``
upper triangular), the derivative is ``dL = L tril(X, -1)``, ``dU = triu(X) U`` with
``X = L^{-1} da_p U^{-1}``, and the pullback is
``g_{a_p} = L^{-H} (tril(L^H g_L, -1) + triu(g_U U^H)) U^{-H}``, carried back through the
permutation, which is locally constant and gets no cotangent. ``lu`` of a tall or a wide
matrix splits it into its leading square block (as above) and the rest: ``L_2 = A_2 U^{-1}``
(tall), ``U_2 = L^{-1} A_2`` (wide). ``lu_factor``'s packed ``lu`` holds ``L``'s strict lower
triangle and ``U``; ``lu_solve`` differentiates the solve with ``a = P L U`` (or its
transpose or adjoint, ``trans``) through both factors. Pivot indices have no tangent.

NumPy arrays go to SciPy's LAPACK wrappers. Other array types (an engine's tracked values,
differentiating a pullback again) are factorized by Gaussian elimination with the same
partial pivoting, written in array-API operations, and ``lu_solve`` solves with their
namespace's ``linalg.solve``; both are recorded by an engine.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> (lu, piv), pullback = rrule(scipy.linalg.lu_factor, np.array([[2.0, 1.0], [1.0, 3.0]]))
>>> pullback((np.eye(2), None))[1]
array([[ 1.25, -0.5 ],
       [-0.5 ,  1.  ]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.define import ignore_derivatives
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy, require_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import mH, mT, output_fields, solve_triangular, solve_triangular_right

__all__ = ["lu_pullback_of", "lu_pushforward_of"]


def _unpack(lu: Any) -> tuple[Any, Any]:
    xp = array_namespace(lu)
    k = min(lu.shape[-2:])
    low = xp.tril(lu[..., :, :k], k=-1) + xp.eye(lu.shape[-2], k, dtype=lu.dtype)
    return low, xp.triu(lu[..., :k, :])


def _rows_of_pivots(piv: np.ndarray, m: int) -> np.ndarray:
    """``rows`` with ``a = (L U)[rows]``, from LAPACK's sequential row interchanges."""
    perm = np.broadcast_to(np.arange(m), (*piv.shape[:-1], m)).copy()
    batch = np.indices(piv.shape[:-1])
    for i in range(piv.shape[-1]):
        j = piv[..., i]
        at_i, at_j = perm[(*batch, i)].copy(), perm[(*batch, j)].copy()
        perm[(*batch, i)], perm[(*batch, j)] = at_j, at_i
    return np.argsort(perm, axis=-1)  # perm gives a[perm] = L U


def _rows_take(x: Any, rows: np.ndarray) -> Any:
    xp = array_namespace(x)
    return xp.take_along_axis(x, xp.asarray(rows[..., :, None]), axis=-2)


def _rows_put(g: Any, rows: np.ndarray) -> Any:
    """The adjoint of ``_rows_take``: ``out[rows] = g``."""
    return _rows_take(g, np.argsort(rows, axis=-1))


def _square_pullback(low: Any, up: Any, g_low: Any, g_up: Any) -> Any:
    xp = array_namespace(low, up, g_low, g_up)
    middle = xp.tril(xp.matmul(mH(low), g_low), k=-1) + xp.triu(xp.matmul(g_up, mH(up)))
    left = solve_triangular(low, middle, lower=True, adjoint=True)
    return solve_triangular_right(left, up, lower=False, adjoint=True)


def lu_pullback_of(low: Any, up: Any, g_low: Any, g_up: Any) -> Any:
    """The cotangent of ``a_p = low up`` (any shape) from those of its factors."""
    xp = array_namespace(low, up)
    m, n = low.shape[-2], up.shape[-1]
    g_low = xp.zeros_like(low) if is_zero(g_low) else g_low
    g_up = xp.zeros_like(up) if is_zero(g_up) else g_up
    if m == n:
        return _square_pullback(low, up, g_low, g_up)
    if m > n:
        low_1, low_2 = low[..., :n, :], low[..., n:, :]
        g_2 = solve_triangular_right(g_low[..., n:, :], up, lower=False, adjoint=True)
        g_up = g_up - xp.matmul(mH(low_2), g_2)
        return xp.concat((_square_pullback(low_1, up, g_low[..., :n, :], g_up), g_2), axis=-2)
    up_1, up_2 = up[..., :, :m], up[..., :, m:]
    g_2 = solve_triangular(low, g_up[..., :, m:], lower=True, adjoint=True)
    g_low = g_low - xp.matmul(g_2, mH(up_2))
    return xp.concat((_square_pullback(low, up_1, g_low, g_up[..., :, :m]), g_2), axis=-1)


def lu_pushforward_of(low: Any, up: Any, da: Any) -> tuple[Any, Any]:
    """The tangents of ``low`` and ``up`` along the tangent ``da`` of ``a_p = low up``."""
    xp = array_namespace(low, up, da)
    m, n = low.shape[-2], up.shape[-1]
    k = min(m, n)
    low_1, up_1, da_1 = low[..., :k, :], up[..., :, :k], da[..., :k, :k]
    x = solve_triangular_right(solve_triangular(low_1, da_1, lower=True), up_1, lower=False)
    d_low_1 = xp.matmul(low_1, xp.tril(x, k=-1))
    d_up_1 = xp.matmul(xp.triu(x), up_1)
    if m > n:
        rest = da[..., n:, :] - xp.matmul(low[..., n:, :], d_up_1)
        d_low_2 = solve_triangular_right(rest, up, lower=False)
        return xp.concat((d_low_1, d_low_2), axis=-2), d_up_1
    if m < n:
        rest = da[..., :, m:] - xp.matmul(d_low_1, up[..., :, m:])
        d_up_2 = solve_triangular(low, rest, lower=True)
        return d_low_1, xp.concat((d_up_1, d_up_2), axis=-1)
    return d_low_1, d_up_1


def _eliminate(a: Any) -> tuple[Any, np.ndarray]:
    """``lu_factor(a)`` for arrays other than NumPy's, in operations an engine records.

    Gaussian elimination with LAPACK's partial pivoting (the first entry of largest
    ``|re| + |im|`` in the column), one column at a time, for stacks too. The pivots depend
    on comparisons only, so they are plain integers; the factors are built by gathers and
    concatenation, never written in place, so the result differentiates again.
    """
    xp = array_namespace(a)
    m, n = a.shape[-2:]
    batch = tuple(a.shape[:-2])
    piv = np.zeros((*batch, min(m, n)), dtype=np.int32)
    work = a
    for j in range(min(m, n)):
        column = work[..., j:, j]
        size = (
            xp.abs(xp.real(column)) + xp.abs(xp.imag(column)) if is_complex(a) else xp.abs(column)
        )
        # the pivots are plain integers, chosen by comparisons: no derivative flows through them
        chosen = j + np.asarray(ignore_derivatives(xp.argmax(size, axis=-1)))
        piv[..., j] = chosen
        order = np.broadcast_to(np.arange(m), (*batch, m)).copy()
        order[..., j] = chosen
        np.put_along_axis(order, chosen[..., None], j, axis=-1)
        work = xp.take_along_axis(work, xp.asarray(order[..., :, None]), axis=-2)
        multipliers = work[..., j + 1 :, j : j + 1] / work[..., j : j + 1, j : j + 1]
        trailing = work[..., j + 1 :, j + 1 :] - multipliers * work[..., j : j + 1, j + 1 :]
        lower = xp.concat((work[..., j + 1 :, :j], multipliers, trailing), axis=-1)
        work = xp.concat((work[..., : j + 1, :], lower), axis=-2)
    return work, piv


def _lu_factor(a: Any) -> tuple[Any, Any]:
    """``scipy.linalg.lu_factor(a)``: LAPACK for NumPy arrays, ``_eliminate`` otherwise."""
    if is_numpy(a):
        return sla.lu_factor(a, check_finite=False)  # a tuple, or a list for stacks
    return _eliminate(a)


def _pack(d_low: Any, d_up: Any) -> Any:
    """The packed (m, n) ``lu`` from ``L`` (m, k) and ``U`` (k, n), ``k = min(m, n)``: the
    strict lower triangle of ``L`` and the upper triangle of ``U``, each padded with zeros."""
    xp = array_namespace(d_low, d_up)
    (m, k), n = d_low.shape[-2:], d_up.shape[-1]
    low = xp.tril(d_low, k=-1)
    if n > k:
        low = xp.concat((low, xp.zeros((*low.shape[:-1], n - k), dtype=low.dtype)), axis=-1)
    if m > k:
        d_up = xp.concat((d_up, xp.zeros((*d_up.shape[:-2], m - k, n), dtype=d_up.dtype)), axis=-2)
    return low + d_up


def _split(g_lu: Any) -> tuple[Any, Any]:
    """The cotangents of ``L`` (m, k) and ``U`` (k, n) from that of the packed ``lu``: the
    adjoint of ``_pack``."""
    xp = array_namespace(g_lu)
    k = min(g_lu.shape[-2:])
    return xp.tril(g_lu[..., :, :k], k=-1), xp.triu(g_lu[..., :k, :])


# ---- lu_factor ----------------------------------------------------------------------------


@rrule.register(sla.lu_factor)
def _lu_factor_rrule(a, *, check_finite=True):
    project_a = ProjectTo(a)
    result = _lu_factor(a)
    lu, piv = result
    low, up = _unpack(lu)
    rows = _rows_of_pivots(piv, a.shape[-2])

    def lu_factor_pullback(dy):
        g_lu, _ = output_fields(dy, ("lu", "piv"), result, sla.lu_factor)
        g_p = lu_pullback_of(low, up, *_split(g_lu))
        return NO_TANGENT, project_a(_rows_take(g_p, rows))

    return result, lu_factor_pullback


@frule.register(sla.lu_factor)
def _lu_factor_frule(tangents, a, *, check_finite=True):
    result = _lu_factor(a)
    lu, piv = result
    da = tangents[1]
    if is_zero(da):
        return result, da
    low, up = _unpack(lu)
    rows = _rows_of_pivots(piv, a.shape[-2])
    d_low, d_up = lu_pushforward_of(low, up, _rows_put(da, rows))
    return result, Tangent(type(result), _pack(d_low, d_up), NO_TANGENT)


# ---- lu_solve -----------------------------------------------------------------------------


def _lu_solve(lu_and_piv: tuple, b: Any, trans: int, adjoint: bool = False) -> Any:
    """``op(a)^{-1} b``, or ``op(a)^{-H} b`` with ``adjoint``.

    NumPy inputs reuse the factors through LAPACK (``lu_solve``); other array types (an
    engine's tracked values) solve with ``op(a)``, rebuilt from the factors, through their
    namespace's ``linalg.solve``, which an engine records.
    """
    lu, piv = lu_and_piv
    if not (is_numpy(lu, b)):
        xp = array_namespace(lu, b)
        low, up = _unpack(lu)
        a = _op_back(_rows_take(xp.matmul(low, up), _rows_of_pivots(piv, lu.shape[-2])), trans)
        return xp.linalg.solve(mH(a) if adjoint else a, b)
    if adjoint:
        if trans == 1:  # (a^T)^{-H} b = conj(a^{-1} conj(b))
            return np.conj(sla.lu_solve(lu_and_piv, np.conj(b), check_finite=False))
        trans = 2 - trans
    return sla.lu_solve(lu_and_piv, b, trans=trans, check_finite=False)


def _op_back(g: Any, trans: int) -> Any:
    return (g, mT(g), mH(g))[trans]


@rrule.register(sla.lu_solve)
def _lu_solve_rrule(lu_and_piv, b, trans=0, *, check_finite=True):
    trans = {"N": 0, "T": 1, "C": 2}.get(trans, trans)
    lu, piv = lu_and_piv
    xp = array_namespace(lu, b)
    project_pair, project_b = ProjectTo(lu_and_piv), ProjectTo(b)
    vector = b.ndim == 1
    x = _lu_solve(lu_and_piv, b[..., None] if vector else b, trans)
    low, up = _unpack(lu)
    rows = _rows_of_pivots(piv, lu.shape[-2])

    def lu_solve_pullback(dy):
        db = _lu_solve(lu_and_piv, dy[..., None] if vector else dy, trans, adjoint=True)
        g_a = _op_back(-xp.matmul(db, mH(x)), trans)
        g_p = _rows_put(g_a, rows)  # a = (L U)[rows]: the cotangent of L U
        g_lu = xp.tril(xp.matmul(g_p, mH(up)), k=-1) + xp.triu(xp.matmul(mH(low), g_p))
        g_pair = project_pair((g_lu, NO_TANGENT))
        return NO_TANGENT, g_pair, project_b(db[..., 0] if vector else db)

    return (x[..., 0] if vector else x), lu_solve_pullback


@frule.register(sla.lu_solve)
def _lu_solve_frule(tangents, lu_and_piv, b, trans=0, *, check_finite=True):
    trans = {"N": 0, "T": 1, "C": 2}.get(trans, trans)
    lu, piv = lu_and_piv
    xp = array_namespace(lu, b)
    vector = b.ndim == 1
    x = _lu_solve(lu_and_piv, b[..., None] if vector else b, trans)
    d_pair, db = tangents[1], tangents[2]
    d_lu = ZERO_TANGENT if is_zero(d_pair) else unthunk(d_pair[0])
    rhs: Any = ZERO_TANGENT
    if not is_zero(db):
        rhs = db[..., None] if vector else db
    if not is_zero(d_lu):
        low, up = _unpack(lu)
        rows = _rows_of_pivots(piv, lu.shape[-2])
        d_p = xp.matmul(xp.tril(d_lu, k=-1), up) + xp.matmul(low, xp.triu(d_lu))
        rhs = rhs - xp.matmul(_op_back(_rows_take(d_p, rows), trans), x)
    y = x[..., 0] if vector else x
    if is_zero(rhs):
        return y, rhs
    dx = _lu_solve(lu_and_piv, xp.broadcast_to(rhs, x.shape), trans)
    return y, dx[..., 0] if vector else dx


# ---- lu -----------------------------------------------------------------------------------


def _lu_outputs(a: np.ndarray, permute_l: bool, p_indices: bool) -> tuple[tuple, Any, Any, Any]:
    """``lu``'s result, built from one factorization, with ``rows``, ``L`` and ``U``."""
    require_numpy(sla.lu, a)  # the elimination below takes NumPy's and the engines' arrays
    if is_numpy(a):
        rows, low, up = sla.lu(a, check_finite=False, p_indices=True)
    else:
        lu, piv = _eliminate(a)
        rows, (low, up) = _rows_of_pivots(piv, a.shape[-2]), _unpack(lu)
    if permute_l:
        return (_rows_take(low, rows), up), rows, low, up
    p = rows if p_indices else np.eye(a.shape[-2], dtype=np.zeros((), a.dtype).real.dtype)[rows]
    return (p, low, up), rows, low, up


@rrule.register(sla.lu)
def _lu_rrule(a, permute_l=False, *, check_finite=True, p_indices=False):
    project_a = ProjectTo(a)
    result, rows, low, up = _lu_outputs(a, permute_l, p_indices)

    def lu_pullback(dy):
        if permute_l:
            g_pl, g_up = output_fields(dy, ("pl", "u"), result, sla.lu)
            g_low = g_pl if is_zero(g_pl) else _rows_put(g_pl, rows)
        else:
            _, g_low, g_up = output_fields(dy, ("p", "l", "u"), result, sla.lu)
        return NO_TANGENT, project_a(_rows_take(lu_pullback_of(low, up, g_low, g_up), rows))

    return result, lu_pullback


@frule.register(sla.lu)
def _lu_frule(tangents, a, permute_l=False, *, check_finite=True, p_indices=False):
    result, rows, low, up = _lu_outputs(a, permute_l, p_indices)
    da = tangents[1]
    if is_zero(da):
        return result, da
    d_low, d_up = lu_pushforward_of(low, up, _rows_put(da, rows))
    if permute_l:
        return result, Tangent(tuple, _rows_take(d_low, rows), d_up)
    return result, Tangent(tuple, NO_TANGENT, d_low, d_up)
