"""Rules for ``scipy.linalg``'s QR products and updates: qr_multiply, qr_update, qr_insert,
qr_delete.

**qr_multiply(a, c)** is ``c Q`` (``mode='right'``) or ``Q c`` (``'left'``) with the reduced
``Q`` of ``a = Q R`` (of ``a[:, P]`` with ``pivoting=True``; the permutation is locally
constant), ``conj(Q)`` with ``conjugate=True``, and ``R``: it is differentiated through the
rule of ``scipy.linalg.qr``. With ``mode='left'``, ``overwrite_c=True`` and a tall ``a``,
SciPy multiplies by the complete ``Q``, whose last columns ``a`` does not determine: no rule.

**qr_update, qr_insert, qr_delete** return SciPy's factorization ``(Q1, R1)`` of a modified
matrix: ``A1 = Q R + u v^H`` (``u v^T`` for real input), ``A`` with rows or columns inserted
before ``k``, or ``p`` of them deleted from ``k``. SciPy computes it by plane rotations of
``Q`` and ``R``, and reads ``R`` as upper triangular and ``Q`` as unitary: off those sets
its result is the rotations' by-product, not a function of ``A1``. The rules therefore
differentiate ``(Q1, R1)`` as the QR factorization of ``A1 = A1(Q R, u, ...)``: exact along
every tangent that keeps ``Q`` unitary (``Q S`` with ``S`` skew-Hermitian; for an economic
``Q``, ``Q S + (I - Q Q^H) Z``) and ``R`` upper triangular, which are the tangents of
factorizations. ``R``'s cotangent is upper triangular.

Gauge: SciPy's rotations leave ``R1``'s diagonal with any signs (real) or phases (complex).
The rules hold them fixed: for real input the signs are locally constant, so the derivative
is exact; for complex input the phases move with the rotations, and the rules differentiate
with them frozen, which is exact for every loss invariant under ``Q1 -> Q1 D``,
``R1 -> D^H R1`` (``D`` diagonal unitary), e.g. a function of ``A1``, of ``|R1|``, or of the
products ``Q1[:, j] R1[j, :]``. When ``Q1`` is square and ``A1`` tall (full mode), ``A1``
determines only its first ``n`` columns: a nonzero cotangent for the others raises
``ValueError``, and so does the frule.

For other array types than NumPy's (an engine's tracked values), SciPy computes the values
on the values under the tracking, and the rules rebuild them through the namespace (its
``qr``, turned to SciPy's signs), so that the pullbacks differentiate again; second
derivatives are exact for real input.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> e = np.array([1.0, 0.0])
>>> (q1, r1), pullback = rrule(scipy.linalg.qr_update, np.eye(2), np.diag([2.0, 3.0]), e, e)
>>> r1[0, 0], pullback((np.zeros((2, 2)), np.outer(e, e)))[3]  # R1[0, 0] = |2 + u[0] v[0]|
(np.float64(3.0), array([1., 0.]))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.define import ignore_derivatives
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import mH, output_fields
from ...numpy.linalg.decompositions import qr_pullback_of, qr_pushforward_of

__all__: list[str] = []


def _plain(*arrays: Any) -> tuple:
    """The values under an engine's tracking, for SciPy (NumPy arrays pass unchanged)."""
    return tuple(x if is_numpy(x) else np.asarray(ignore_derivatives(x)) for x in arrays)


def _phases(r: Any, k: int) -> np.ndarray:
    """The signs (phases) of the first ``k`` diagonal entries of ``r`` (NumPy values)."""
    d = np.diagonal(r)[:k]
    magnitude = np.abs(d)
    return np.where(magnitude > 0, d / np.where(magnitude > 0, magnitude, 1), 1).astype(r.dtype)


# ---- qr_multiply --------------------------------------------------------------------------


def _qr_factors(a: Any, pivoting: bool) -> tuple[Any, Any, Any]:
    """The reduced ``(Q, R)`` of ``a[:, P]`` that ``qr_multiply`` uses, and ``P`` (or None).

    Other array types than NumPy's factorize through their namespace, after SciPy has chosen
    the pivots on the values under the tracking; ``R``'s signs are turned to SciPy's.
    """
    if is_numpy(a):
        if pivoting:
            return sla.qr(a, mode="economic", pivoting=True, check_finite=False)
        return (*sla.qr(a, mode="economic", check_finite=False), None)
    xp = array_namespace(a)
    if not pivoting:
        return (*xp.linalg.qr(a, mode="reduced"), None)
    _, r0, p = sla.qr(*_plain(a), mode="economic", pivoting=True, check_finite=False)
    q, r = xp.linalg.qr(a[:, p], mode="reduced")
    k = min(a.shape)
    turn = _phases(r0, k) * np.conj(_phases(np.asarray(ignore_derivatives(r)), k))
    return q * xp.asarray(np.conj(turn)), xp.asarray(turn)[:, None] * r, p


def _as_operand(x: Any, mode: str) -> Any:
    """``c`` (or its tangent) as a matrix: a 1-D ``c`` is a row (``'right'``) or a column."""
    if x.ndim != 1:
        return x
    return x[None, :] if mode == "right" else x[:, None]


def _times_q(q: Any, c: Any, mode: str, conjugate: bool) -> Any:
    """``c Q`` or ``Q c`` (``conj(Q)`` with ``conjugate``) for a matrix ``c``."""
    xp = array_namespace(q, c)
    q = xp.conj(q) if conjugate and is_complex(q) else q
    return xp.matmul(c, q) if mode == "right" else xp.matmul(q, c)


def _qr_multiply(a: Any, c: Any, factors: tuple, mode: str, conjugate: bool, overwrite_c: bool):
    """SciPy's result for NumPy inputs; otherwise the same product through the namespace."""
    if mode not in ("left", "right"):
        raise ValueError(f"Mode argument can only be 'left' or 'right' but not '{mode}'")
    m, n = a.shape
    if mode == "left" and overwrite_c and m > n:
        raise ValueError(
            "scipy.linalg.qr_multiply(mode='left', overwrite_c=True) of a tall matrix "
            "multiplies by the complete Q, whose last columns the matrix does not "
            "determine: no rule; pass c with min(M, N) rows and overwrite_c=False"
        )
    q, r, p = factors
    if is_numpy(a, c):
        return sla.qr_multiply(a, c, mode=mode, pivoting=p is not None, conjugate=conjugate)
    product = _times_q(q, _as_operand(c, mode), mode, conjugate)
    product = array_namespace(product).reshape(product, (-1,)) if c.ndim == 1 else product
    return (product, r) if p is None else (product, r, p)


@rrule.register(sla.qr_multiply)
def _qr_multiply_rrule(
    a, c, mode="right", pivoting=False, conjugate=False, overwrite_a=False, overwrite_c=False
):
    project_a, project_c = ProjectTo(a), ProjectTo(c)
    factors = _qr_factors(a, pivoting)
    result = _qr_multiply(a, c, factors, mode, conjugate, overwrite_c)
    q, r, p = factors
    a_p = a if p is None else a[:, p]

    def qr_multiply_pullback(dy):
        g_cq, g_r = output_fields(dy, ("CQ", "R", "P"), result, sla.qr_multiply)[:2]
        xp = array_namespace(a, c)
        g_q: Any = ZERO_TANGENT
        g_c: Any = ZERO_TANGENT
        if not is_zero(g_cq):
            g, cm = _as_operand(g_cq, mode), _as_operand(c, mode)
            q_used = xp.conj(q) if conjugate and is_complex(q) else q
            if mode == "right":
                g_c, g_q = xp.matmul(g, mH(q_used)), xp.matmul(mH(cm), g)
            else:
                g_c, g_q = xp.matmul(mH(q_used), g), xp.matmul(g, mH(cm))
            # The cotangent of conj(Q) is conjugated back to Q's.
            g_q = xp.conj(g_q) if conjugate and is_complex(g_q) else g_q
            g_c = xp.reshape(g_c, c.shape)
        g_a = qr_pullback_of(a_p, q, r, g_q, g_r)
        if p is not None:
            g_a = g_a[:, np.argsort(p)]
        return NO_TANGENT, project_a(g_a), project_c(g_c)

    return result, qr_multiply_pullback


@frule.register(sla.qr_multiply)
def _qr_multiply_frule(
    tangents,
    a,
    c,
    mode="right",
    pivoting=False,
    conjugate=False,
    overwrite_a=False,
    overwrite_c=False,
):
    factors = _qr_factors(a, pivoting)
    result = _qr_multiply(a, c, factors, mode, conjugate, overwrite_c)
    q, r, p = factors
    da, dc = tangents[1], tangents[2]
    if is_zero(da) and is_zero(dc):
        return result, ZERO_TANGENT
    xp = array_namespace(a, c)
    d_cq: Any = ZERO_TANGENT
    d_r: Any = ZERO_TANGENT
    if not is_zero(da):
        a_p, da_p = (a, da) if p is None else (a[:, p], da[:, p])
        dq, d_r = qr_pushforward_of(a_p, q, r, da_p)
        d_cq = _times_q(dq, _as_operand(c, mode), mode, conjugate)
        d_r = ProjectTo(result[1])(d_r)
    if not is_zero(dc):
        d_cq = d_cq + _times_q(q, _as_operand(dc, mode), mode, conjugate)
    d_cq = ProjectTo(result[0])(xp.reshape(d_cq, result[0].shape))
    return result, Tangent(tuple, d_cq, d_r, *((NO_TANGENT,) if p is not None else ()))


# ---- qr_update, qr_insert, qr_delete: the factorization of a modified matrix --------------


class _Refactored:
    """SciPy's factorization ``(q1, r1)`` of the modified matrix ``a1`` and its derivative.

    With ``k = min(a1.shape)``, ``q1[:, :k] = Qc D^H`` and ``r1[:k] = D Rc``, where
    ``(Qc, Rc)`` is the reduced QR factorization with a positive diagonal and ``D`` holds the
    signs (phases) SciPy's rotations left on ``r1``'s diagonal, held fixed here. For other
    array types than NumPy's (an engine's tracked values), ``(Qc, Rc)`` come from the
    namespace's ``qr``, so that the result and the pullback differentiate again.
    """

    def __init__(self, a1: Any, result: tuple, call: str) -> None:
        q1, r1 = result
        self.a1, self.call = a1, call
        self.k = k = min(a1.shape)
        self.extra = q1.shape[1] - k
        self.project_q, self.project_r = ProjectTo(q1), ProjectTo(r1)
        self.phase = _phases(r1, k)
        if is_numpy(a1):
            self.q1, self.r1 = q1, r1
            self.qc, self.rc = q1[:, :k] * self.phase, np.conj(self.phase)[:, None] * r1[:k]
            return
        xp = array_namespace(a1)
        qn, rn = xp.linalg.qr(a1)
        own = _phases(np.asarray(ignore_derivatives(rn)), k)
        self.qc = qn * xp.asarray(own)
        self.rc = xp.asarray(np.conj(own))[:, None] * rn
        thin_q = self.qc * xp.asarray(np.conj(self.phase))
        thin_r = xp.asarray(self.phase)[:, None] * self.rc
        # The columns a1 does not determine are SciPy's, constants here.
        self.q1 = xp.concat([thin_q, xp.asarray(q1[:, k:])], axis=1) if self.extra else thin_q
        self.r1 = xp.concat([thin_r, xp.asarray(r1[k:])], axis=0) if self.extra else thin_r

    def pushforward(self, da1: Any) -> Tangent:
        """The tangent of ``(q1, r1)`` along ``da1``."""
        if self.extra:
            raise ValueError(
                f"frule of {self.call}: the last {self.extra} columns of the square Q1 of a "
                f"tall {self.a1.shape[0]}x{self.a1.shape[1]} matrix are not determined by "
                "the matrix; use an economic factorization"
            )
        dqc, drc = qr_pushforward_of(self.a1, self.qc, self.rc, da1)
        dq1 = dqc * np.conj(self.phase)
        dr1 = self.phase[:, None] * drc
        return Tangent(tuple, self.project_q(dq1), self.project_r(dr1))

    def pullback(self, dy: Any) -> Any:
        """The cotangent of ``a1`` from that of ``(q1, r1)`` (a zero when both are zero)."""
        g_q, g_r = output_fields(dy, ("Q1", "R1"), (self.q1, self.r1), self.call)
        if not is_zero(g_q):
            extra = g_q[:, self.k :]
            if type(extra) is np.ndarray and np.any(extra != 0):
                raise ValueError(
                    f"pullback of {self.call}: the last {self.extra} columns of the square Q1 "
                    f"of a tall {self.a1.shape[0]}x{self.a1.shape[1]} matrix are not "
                    "determined by the matrix, so they take no cotangent"
                )
            g_q = g_q[:, : self.k] * self.phase
        if not is_zero(g_r):
            g_r = np.conj(self.phase)[:, None] * g_r[: self.k]
        if is_zero(g_q) and is_zero(g_r):
            return ZERO_TANGENT
        return qr_pullback_of(self.a1, self.qc, self.rc, g_q, g_r)


def _product(q: Any, r: Any) -> Any:
    """``A = Q R`` with ``R`` read as upper triangular."""
    xp = array_namespace(q, r)
    return xp.matmul(q, xp.triu(r))


def _product_tangent(q: Any, r: Any, dq: Any, dr: Any) -> Any:
    """The tangent of ``Q triu(R)``."""
    xp = array_namespace(q, r)
    da: Any = ZERO_TANGENT
    if not is_zero(dq):
        da = xp.matmul(dq, xp.triu(r))
    if not is_zero(dr):
        da = da + xp.matmul(q, xp.triu(dr))
    return da


def _product_cotangents(q: Any, r: Any, g_a: Any) -> tuple[Any, Any]:
    """The cotangents of ``Q`` and (upper triangular) ``R`` from that of ``Q triu(R)``."""
    xp = array_namespace(q, r, g_a)
    return xp.matmul(g_a, mH(xp.triu(r))), xp.triu(xp.matmul(mH(q), g_a))


def _index(k: Any, size: int) -> int:
    """SciPy's position ``k`` (negative counts from the end, as in ``np.insert``)."""
    k = int(k)
    return k + size if k < 0 else k


# ---- qr_update ----------------------------------------------------------------------------


def _outer(u: Any, v: Any) -> Any:
    """``u v^H`` for vectors or matrices of columns."""
    xp = array_namespace(u, v)
    v_c = xp.conj(v) if is_complex(v) else v
    if u.ndim == 1:
        return u[:, None] * v_c[None, :]
    return xp.matmul(u, xp.matrix_transpose(v_c))


def _updated(Q: Any, R: Any, u: Any, v: Any) -> _Refactored:
    result = sla.qr_update(*_plain(Q, R, u, v), check_finite=False)
    return _Refactored(_product(Q, R) + _outer(u, v), result, "scipy.linalg.qr_update")


@rrule.register(sla.qr_update)
def _qr_update_rrule(Q, R, u, v, overwrite_qruv=False, check_finite=True):
    projects = [ProjectTo(x) for x in (Q, R, u, v)]
    refactored = _updated(Q, R, u, v)

    def qr_update_pullback(dy):
        g = refactored.pullback(dy)
        xp = array_namespace(g, u, v)
        g_q, g_r = _product_cotangents(Q, R, g)
        cotangents = (g_q, g_r, xp.matmul(g, v), xp.matmul(mH(g), u))
        return NO_TANGENT, *(pr(c) for pr, c in zip(projects, cotangents, strict=True))

    return (refactored.q1, refactored.r1), qr_update_pullback


@frule.register(sla.qr_update)
def _qr_update_frule(tangents, Q, R, u, v, overwrite_qruv=False, check_finite=True):
    refactored = _updated(Q, R, u, v)
    dq, dr, du, dv = tangents[1:5]
    da = _product_tangent(Q, R, dq, dr)
    if not is_zero(du):
        da = da + _outer(du, v)
    if not is_zero(dv):
        da = da + _outer(u, dv)
    y = (refactored.q1, refactored.r1)
    return y, da if is_zero(da) else refactored.pushforward(da)


# ---- qr_insert, qr_delete -----------------------------------------------------------------


def _axis(which: str) -> int:
    if which not in ("row", "col"):
        raise ValueError("'which' must be either 'row' or 'col'")
    return 0 if which == "row" else 1


def _inserted(u: Any, which: str) -> Any:
    """The block ``u`` inserts: rows ``(p, N)`` or columns ``(M, p)``."""
    if u.ndim == 2:
        return u
    return u[None, :] if which == "row" else u[:, None]


def _take(a: Any, start: int, stop: int, axis: int) -> Any:
    return a[start:stop] if axis == 0 else a[:, start:stop]


def _insert(a: Any, block: Any, k: int, axis: int) -> Any:
    xp = array_namespace(a, block)
    dtype = xp.result_type(a.dtype, block.dtype)
    parts = (_take(a, 0, k, axis), block, _take(a, k, a.shape[axis], axis))
    return xp.concat([xp.astype(x, dtype) for x in parts], axis=axis)


def _delete(a: Any, k: int, p: int, axis: int) -> Any:
    xp = array_namespace(a)
    return xp.concat((_take(a, 0, k, axis), _take(a, k + p, a.shape[axis], axis)), axis=axis)


def _zeros_like(x: Any, dtype: Any = None) -> Any:
    xp = array_namespace(x)
    return xp.zeros(tuple(x.shape), dtype=x.dtype if dtype is None else dtype)


def _with_insertion(Q, R, u, k, which, rcond) -> tuple[_Refactored, Any, int, int]:
    """SciPy's result of ``qr_insert``, and ``A = Q R``, ``k`` and the axis of ``A1``."""
    result = sla.qr_insert(*_plain(Q, R, u), k, which, rcond=rcond, check_finite=False)
    axis = _axis(which)
    a = _product(Q, R)
    k = _index(k, a.shape[axis])
    a1 = _insert(a, _inserted(u, which), k, axis)
    return _Refactored(a1, result, "scipy.linalg.qr_insert"), a, k, axis


@rrule.register(sla.qr_insert)
def _qr_insert_rrule(Q, R, u, k, which="row", rcond=None, overwrite_qru=False, check_finite=True):
    projects = [ProjectTo(x) for x in (Q, R, u)]
    refactored, _, k, axis = _with_insertion(Q, R, u, k, which, rcond)
    p = _inserted(u, which).shape[axis]

    def qr_insert_pullback(dy):
        g = refactored.pullback(dy)
        g_q, g_r = _product_cotangents(Q, R, _delete(g, k, p, axis))
        g_u = array_namespace(g).reshape(_take(g, k, k + p, axis), tuple(u.shape))
        cotangents = (g_q, g_r, g_u)
        return NO_TANGENT, *(pr(c) for pr, c in zip(projects, cotangents, strict=True))

    return (refactored.q1, refactored.r1), qr_insert_pullback


@frule.register(sla.qr_insert)
def _qr_insert_frule(
    tangents, Q, R, u, k, which="row", rcond=None, overwrite_qru=False, check_finite=True
):
    refactored, a, k, axis = _with_insertion(Q, R, u, k, which, rcond)
    y = (refactored.q1, refactored.r1)
    dq, dr, du = tangents[1:4]
    da = _product_tangent(Q, R, dq, dr)
    if is_zero(da) and is_zero(du):
        return y, ZERO_TANGENT
    da = _zeros_like(a) if is_zero(da) else da
    block = _inserted(u, which)
    d_block = _zeros_like(block) if is_zero(du) else _inserted(du, which)
    return y, refactored.pushforward(_insert(da, d_block, k, axis))


def _with_deletion(Q, R, k, p, which) -> tuple[_Refactored, Any, int, int, int]:
    """SciPy's result of ``qr_delete``, and ``A = Q R``, ``k``, ``p`` and the axis."""
    result = sla.qr_delete(*_plain(Q, R), k, p, which, check_finite=False)
    axis = _axis(which)
    a = _product(Q, R)
    k, p = _index(k, a.shape[axis]), int(p)
    return _Refactored(_delete(a, k, p, axis), result, "scipy.linalg.qr_delete"), a, k, p, axis


@rrule.register(sla.qr_delete)
def _qr_delete_rrule(Q, R, k, p=1, which="row", overwrite_qr=False, check_finite=True):
    projects = [ProjectTo(x) for x in (Q, R)]
    refactored, a, k, p, axis = _with_deletion(Q, R, k, p, which)

    def qr_delete_pullback(dy):
        g = refactored.pullback(dy)
        zeros = _zeros_like(_take(a, k, k + p, axis), g.dtype)
        g_q, g_r = _product_cotangents(Q, R, _insert(g, zeros, k, axis))
        return NO_TANGENT, projects[0](g_q), projects[1](g_r)

    return (refactored.q1, refactored.r1), qr_delete_pullback


@frule.register(sla.qr_delete)
def _qr_delete_frule(tangents, Q, R, k, p=1, which="row", overwrite_qr=False, check_finite=True):
    refactored, _, k, p, axis = _with_deletion(Q, R, k, p, which)
    y = (refactored.q1, refactored.r1)
    da = _product_tangent(Q, R, tangents[1], tangents[2])
    if is_zero(da):
        return y, da
    return y, refactored.pushforward(_delete(da, k, p, axis))
