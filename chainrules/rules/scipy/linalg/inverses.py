"""Rules for ``scipy.linalg``'s determinant, inverses and least squares: det, inv, pinv,
pinvh, lstsq.

They share their derivatives with the ``np.linalg`` rules (``rules.numpy.linalg.solve``,
``determinants``, ``pseudoinverse``), whose docstrings state the conventions.

* ``inv`` takes ``assume_a`` as ``solve`` does (``'gen'``, ``'sym'``, ``'her'``, ``'pos'``).
* ``pinvh`` is ``pinv`` of the Hermitian matrix read from one triangle (cut-off ``rtol``).
* ``lstsq`` returns the residues of a 1-D ``b`` as a 0-d array (NumPy: shape ``(1,)``); its
  ``cond`` is NumPy's ``rcond``. The rank has no tangent.

For array types other than NumPy's (an engine's tracked values), the rules compute with
``numpy.linalg`` through the array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(scipy.linalg.det, np.array([[2.0, 0.0], [0.0, 3.0]]))
>>> pullback(1.0)[1]
array([[3., 0.],
       [0., 2.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import (
    inv_pullback_of,
    inv_pushforward_of,
    matrix_rule,
    mH,
    output_fields,
)
from ...numpy.linalg.determinants import det_pullback_of, det_pushforward_of
from ...numpy.linalg.pseudoinverse import pinv_pullback_of, pinv_pushforward_of
from .solve import Assumed

__all__: list[str] = []


# ---- det, inv, pinv -----------------------------------------------------------------------


def _det(a: Any) -> Any:
    """``scipy.linalg.det``; other array types than NumPy's use their namespace's ``det``."""
    if is_numpy(a):
        return sla.det(a, check_finite=False)
    return array_namespace(a).linalg.det(a)


def _determinant(a: Any) -> tuple[Any, tuple]:
    y = _det(a)
    return y, (a, y)


def _inv(m: Any) -> Any:
    if is_numpy(m):
        return sla.inv(m, check_finite=False)
    return array_namespace(m).linalg.inv(m)


def _inverse(m: Any) -> tuple[Any, tuple]:
    y = _inv(m)
    return y, (y,)


def _inv_reading(*, assume_a=None, lower=False) -> Assumed:
    return Assumed(assume_a, lower, False)


matrix_rule(
    sla.det,
    primal=_determinant,
    pullback=det_pullback_of,
    pushforward=det_pushforward_of,
    ignores=("check_finite",),
)
matrix_rule(
    sla.inv,
    primal=_inverse,
    pullback=inv_pullback_of,
    pushforward=inv_pushforward_of,
    reads=_inv_reading,
    ignores=("check_finite",),
)


def _pinv(a: Any, atol: Any, rtol: Any, return_rank: bool) -> Any:
    """``scipy.linalg.pinv``; other array types than NumPy's use their namespace's ``pinv``
    (and ``matrix_rank``) with SciPy's default cutoff, which an engine records."""
    if is_numpy(a):
        return sla.pinv(a, atol=atol, rtol=rtol, return_rank=return_rank, check_finite=False)
    if atol:
        raise ValueError("scipy.linalg.pinv(atol=...) takes NumPy arrays only")
    xp = array_namespace(a)
    if rtol is None:
        rtol = max(a.shape[-2:]) * xp.finfo(a.dtype).eps
    p = xp.linalg.pinv(a, rtol=rtol)
    return (p, xp.linalg.matrix_rank(a, rtol=rtol)) if return_rank else p


@rrule.register(sla.pinv)
def _pinv_rrule(a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    project_a = ProjectTo(a)
    result = _pinv(a, atol, rtol, return_rank)
    p = result[0] if return_rank else result

    def pinv_pullback(dy):
        g = output_fields(dy, ("p", "rank"), result, sla.pinv)[0] if return_rank else dy
        return NO_TANGENT, project_a(pinv_pullback_of(a, p, g))

    return result, pinv_pullback


@frule.register(sla.pinv)
def _pinv_frule(tangents, a, *, atol=None, rtol=None, return_rank=False, check_finite=True):
    result = _pinv(a, atol, rtol, return_rank)
    p = result[0] if return_rank else result
    da = tangents[1]
    if is_zero(da):
        return result, da
    dp = pinv_pushforward_of(a, p, da)
    return result, Tangent(tuple, dp, NO_TANGENT) if return_rank else dp


# ---- lstsq --------------------------------------------------------------------------------


def _scipy_residues(res: Any, x: Any, vector: bool) -> Any:
    """NumPy's residuals in SciPy's layout: a 0-d array for a 1-D ``b`` that has them, and
    no residues as an empty array of the solution's dtype."""
    if is_zero(res):
        return res
    xp = array_namespace(res)
    if res.shape[0] == 0:
        return xp.zeros((0,), dtype=x.dtype)
    return xp.reshape(res, ()) if vector else res


@rrule.register(sla.lstsq)
def _lstsq_rrule(a, b, cond=None, *, check_finite=True, lapack_driver=None):
    (x, res, rank, s), np_pullback = rrule(np.linalg.lstsq, a, b, rcond=cond)
    vector = b.ndim == 1
    result = (x, _scipy_residues(res, x, vector), rank, s)

    def lstsq_pullback(dy):
        g_x, g_res, _, g_s = output_fields(dy, ("x", "residues", "rank", "s"), result, sla.lstsq)
        if is_zero(g_res) or res.shape[0] == 0:
            g_res = ZERO_TANGENT
        elif vector:
            g_res = array_namespace(g_res).reshape(g_res, (1,))
        return np_pullback((g_x, g_res, NO_TANGENT, g_s))

    return result, lstsq_pullback


@frule.register(sla.lstsq)
def _lstsq_frule(tangents, a, b, cond=None, *, check_finite=True, lapack_driver=None):
    (x, res, rank, s), d_np = frule(tangents, np.linalg.lstsq, a, b, rcond=cond)
    dx, d_res, _, d_s = output_fields(d_np, ("x", "residues", "rank", "s"))
    vector = b.ndim == 1
    result = (x, _scipy_residues(res, x, vector), rank, s)
    return result, Tangent(tuple, dx, _scipy_residues(d_res, x, vector), NO_TANGENT, d_s)


def _pinvh_rtol(a: Any, rtol: Any) -> Any:
    """SciPy's default relative cut-off, ``max(m, n) * eps``, when ``rtol`` is not given."""
    if rtol is not None:
        return rtol
    return max(a.shape[-2:]) * array_namespace(a).finfo(a.dtype).eps


@rrule.register(sla.pinvh)
def _pinvh_rrule(a, *, rtol=None, lower=True, check_finite=True):
    # NumPy's hermitian pinv reads the lower triangle; the upper one is the lower of a^H.
    seen = a if lower else mH(a)
    p, np_pullback = rrule(np.linalg.pinv, seen, hermitian=True, rtol=_pinvh_rtol(a, rtol))

    def pinvh_pullback(dy):
        d_self, d_seen = np_pullback(dy)
        if lower or is_zero(d_seen):
            return d_self, d_seen
        return d_self, mH(d_seen)

    return p, pinvh_pullback


@frule.register(sla.pinvh)
def _pinvh_frule(tangents, a, *, rtol=None, lower=True, check_finite=True):
    da = tangents[1]
    if not lower:
        a = mH(a)
        da = da if is_zero(da) else mH(da)
    return frule((tangents[0], da), np.linalg.pinv, a, hermitian=True, rtol=_pinvh_rtol(a, rtol))
