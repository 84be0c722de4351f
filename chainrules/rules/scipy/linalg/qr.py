"""Rules for ``scipy.linalg``'s QR and RQ decompositions: qr, rq.

They share their derivative with ``np.linalg.qr``'s rule (``rules.numpy.linalg.decompositions``).

* ``qr``'s ``mode='full'`` of a tall matrix returns columns of ``Q`` that ``a`` does not
  determine (a nonzero cotangent for them raises ``ValueError``); ``mode='r'`` returns the
  1-tuple ``(R,)``; ``mode='raw'`` and ``pivoting=True`` have no rule.
* ``rq(a) = (R, Q)`` is the QR decomposition ``a^H J = (Q^H J)(J R^H J)``, ``J`` reversing
  the order of the rows; only its economic factors are determined by ``a`` (``mode="full"``
  and ``"r"`` only for ``m >= n``, where they are the economic ones). Tracked values are
  factored by their namespace's ``qr``, with the signs of the diagonal of ``R`` set to
  LAPACK's RQ ones, so that second derivatives are of the factors SciPy returns.

For array types other than NumPy's (an engine's tracked values), the rules compute with
``numpy.linalg`` through the array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> (q, r), pullback = rrule(scipy.linalg.qr, np.diag([2.0, 3.0]), mode="economic")
>>> np.abs(np.diag(r))
array([2., 3.])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.define import ignore_derivatives
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import as_returned, mH, output_fields, tangent_like
from ...numpy.linalg.decompositions import (
    cut_complete_qr_cotangents,
    qr_pullback_of,
    qr_pushforward_of,
)

__all__: list[str] = []


# ---- qr -----------------------------------------------------------------------------------

_QR_MODES = {"full": "complete", "economic": "reduced", "r": "r"}


def _qr(a: Any, mode: str) -> tuple:
    if mode not in _QR_MODES:
        raise ValueError(
            f"scipy.linalg.qr(mode={mode!r}) has no rule: use 'full', 'economic' or 'r'"
        )
    if is_numpy(a):
        return sla.qr(a, mode=mode, check_finite=False)
    xp = array_namespace(a)
    if mode == "r":
        return (xp.linalg.qr(a, mode="complete").R,)
    return tuple(xp.linalg.qr(a, mode=_QR_MODES[mode]))


@rrule.register(sla.qr)
def _qr_rrule(a, *, mode="full", check_finite=True):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    result = _qr(a, mode)
    if mode == "r":
        q = xp.linalg.qr(a, mode="reduced").Q  # R's pullback needs Q
        r = result[0]
    else:
        q, r = result
    q, r = q[..., :, :k], r[..., :k, :]

    def qr_pullback(dy):
        if mode == "r":
            (g_r,) = output_fields(dy, ("R",), result, sla.qr)
            g_q = ZERO_TANGENT
        else:
            g_q, g_r = output_fields(dy, ("Q", "R"), result, sla.qr)
        g_q, g_r = cut_complete_qr_cotangents(
            a, g_q, g_r, "scipy.linalg.qr(mode='full')", "economic"
        )
        return NO_TANGENT, project_a(qr_pullback_of(a, q, r, g_q, g_r))

    return result, qr_pullback


@frule.register(sla.qr)
def _qr_frule(tangents, a, *, mode="full", check_finite=True):
    xp = array_namespace(a)
    m, n = a.shape[-2:]
    result = _qr(a, mode)
    da = tangents[1]
    if is_zero(da):
        return result, da
    if mode == "full" and m > n:
        raise ValueError(
            f"frule of scipy.linalg.qr(mode='full') of a {m}x{n} matrix: the last {m - n} "
            "columns of Q are not determined by the matrix; use mode='economic'"
        )
    q, r = xp.linalg.qr(a, mode="reduced")
    dq, dr = qr_pushforward_of(a, q, r, da)
    if mode == "r":
        if m > n:
            dr = xp.concat((dr, xp.zeros((m - n, n), dtype=dr.dtype)), axis=-2)
        return result, tangent_like(result, dr)
    return result, tangent_like(result, dq, dr)


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
    if is_numpy(a):
        r, q = sla.rq(a, mode="economic", check_finite=False)
        q1, r1 = xp.flip(mH(q), axis=-1), _flip_both(mH(r))
    else:
        q1, r1 = xp.linalg.qr(m_)
        # QR's signs are not LAPACK's RQ ones: the diagonal of r takes those of SciPy's r, so
        # that the factors traced are the ones returned (a constant sign per column of r).
        k = min(a.shape[-2:])
        reference = sla.rq(np.asarray(ignore_derivatives(a)), mode="economic")[0]
        traced = np.asarray(ignore_derivatives(r1))
        same = np.sign(np.diagonal(reference, offset=k - a.shape[-2], axis1=-2, axis2=-1))
        same = same * np.sign(np.diagonal(traced, axis1=-2, axis2=-1))[..., ::-1]
        same = xp.asarray(np.where(same == 0, 1.0, same))
        q1, r1 = q1 * same[..., None, ::-1], r1 * same[..., ::-1, None]
        r, q = _flip_both(mH(r1)), xp.flip(mH(q1), axis=-2)
    return r, q, m_, q1, r1


@rrule.register(sla.rq)
def _rq_rrule(a, *, mode="full", check_finite=True):
    _rq_check_mode(a, mode)
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    r, q, m_, q1, r1 = _rq_as_qr(a, mode)

    def rq_pullback(dy):
        g_r, g_q = (
            (dy, ZERO_TANGENT) if mode == "r" else output_fields(dy, ("R", "Q"), (r, q), sla.rq)
        )
        g_q1 = g_q if is_zero(g_q) else xp.flip(mH(g_q), axis=-1)
        g_r1 = g_r if is_zero(g_r) else _flip_both(mH(g_r))
        g_m = qr_pullback_of(m_, q1, r1, g_q1, g_r1)
        return NO_TANGENT, project_a(mH(xp.flip(g_m, axis=-1)))

    return (r if mode == "r" else as_returned((r, q), a)), rq_pullback


@frule.register(sla.rq)
def _rq_frule(tangents, a, *, mode="full", check_finite=True):
    _rq_check_mode(a, mode)
    xp = array_namespace(a)
    r, q, m_, q1, r1 = _rq_as_qr(a, mode)
    result = r if mode == "r" else as_returned((r, q), a)
    da = tangents[1]
    if is_zero(da):
        return result, da
    dq1, dr1 = qr_pushforward_of(m_, q1, r1, xp.flip(mH(da), axis=-1))
    dr, dq = _flip_both(mH(dr1)), xp.flip(mH(dq1), axis=-2)
    return result, (dr if mode == "r" else tangent_like(result, dr, dq))
