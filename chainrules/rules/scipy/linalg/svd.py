"""Rules for ``scipy.linalg``'s singular value decomposition and what is read off it: svd,
svdvals, orth.

They share their derivatives with ``np.linalg.svd``'s rules (``rules.numpy.linalg.spectral``),
whose docstring states the conventions: masked couplings at repeated singular values,
gauge-invariant losses for singular vectors.

* ``svd`` returns a plain tuple; ``full_matrices=True`` behaves as in NumPy's rule.
* ``svdvals`` is ``np.linalg.svdvals``.
* ``orth(A)`` is the first ``rank`` left singular vectors of ``A``, differentiated as the
  svd's (``rules.numpy.linalg.spectral``'s conventions). For complex ``A`` their phases
  are a gauge that ``A`` does not fix: losses are assumed not to depend on them.

For array types other than NumPy's (an engine's tracked values), the rules compute with
``numpy.linalg`` through the array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> s, pullback = rrule(scipy.linalg.svdvals, np.diag([3.0, 2.0]))
>>> pullback(np.array([1.0, 0.0]))[1]
array([[1., 0.],
       [0., 0.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import as_returned, output_fields, tangent_like
from ...numpy.linalg.spectral import (
    svd_pullback_of,
    svd_pushforward_of,
)

__all__: list[str] = []


# ---- svd ----------------------------------------------------------------------------------


def _svd(a: Any, full_matrices: bool, lapack_driver: str) -> tuple:
    if is_numpy(a):
        return sla.svd(
            a, full_matrices=full_matrices, check_finite=False, lapack_driver=lapack_driver
        )
    square = a.shape[-1] == a.shape[-2]  # full factors are economic: see numpy's _svd
    return tuple(array_namespace(a).linalg.svd(a, full_matrices=full_matrices and not square))


@rrule.register(sla.svd)
def _svd_rrule(a, full_matrices=True, compute_uv=True, *, check_finite=True, lapack_driver="gesdd"):
    project_a = ProjectTo(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vh = _svd(a, full_matrices and compute_uv, lapack_driver)
    u_k, vh_k = u[..., :, :k], vh[..., :k, :]

    def svd_pullback(dy):
        if compute_uv:
            g_u, g_s, g_vh = output_fields(dy, ("U", "s", "Vh"), (u, s, vh), sla.svd)
        else:
            g_u, g_s, g_vh = ZERO_TANGENT, dy, ZERO_TANGENT
        if full_matrices and m != n:
            extra = g_u[..., :, k:] if m > n else g_vh[..., k:, :]
            if type(extra) is np.ndarray and np.any(extra != 0):
                raise ValueError(
                    "pullback of scipy.linalg.svd with full_matrices=True: the singular "
                    f"vectors of a non-square {m}x{n} matrix beyond the first {k} are not "
                    "determined by the matrix; call svd with full_matrices=False"
                )
            if not is_zero(g_u):
                g_u = g_u[..., :, :k]
            if not is_zero(g_vh):
                g_vh = g_vh[..., :k, :]
        return NO_TANGENT, project_a(svd_pullback_of(u_k, s, vh_k, g_u, g_s, g_vh))

    return (as_returned((u, s, vh), a) if compute_uv else s), svd_pullback


@frule.register(sla.svd)
def _svd_frule(
    tangents, a, full_matrices=True, compute_uv=True, *, check_finite=True, lapack_driver="gesdd"
):
    m, n = a.shape[-2:]
    k = min(m, n)
    u, s, vh = _svd(a, full_matrices and compute_uv, lapack_driver)
    y = as_returned((u, s, vh), a) if compute_uv else s
    da = tangents[1]
    if is_zero(da):
        return y, da
    du, ds, dvh = svd_pushforward_of(a, u[..., :, :k], s, vh[..., :k, :], da)
    if not compute_uv:
        return y, ds
    if full_matrices and m != n:
        raise ValueError(
            "frule of scipy.linalg.svd with full_matrices=True: the singular vectors of a "
            "non-square matrix beyond the first min(m, n) are not determined by the matrix; "
            "call svd with full_matrices=False"
        )
    return y, tangent_like(y, du, ds, dvh)


@rrule.register(sla.svdvals)
def _svdvals_rrule(a, *, check_finite=True):
    return rrule(np.linalg.svdvals, a)


@frule.register(sla.svdvals)
def _svdvals_frule(tangents, a, *, check_finite=True):
    return frule(tangents, np.linalg.svdvals, a)


# ---- orth (over svd) ----------------------------------------------------------------------


def _orth(a: Any, rcond: Any) -> tuple[Any, Any, Any, int]:
    """The reduced SVD ``(u, s, vh)`` of ``a`` and its numerical rank, as ``orth`` cuts it."""
    xp = array_namespace(a)
    if a.ndim != 2:
        # each matrix of a stack has its own rank, so its own number of columns
        raise ValueError(
            f"scipy.linalg.orth: the rule takes argument A as one matrix (no stacks), "
            f"not shape {a.shape}"
        )
    if 0 in a.shape:
        return xp.zeros((a.shape[0], 0), dtype=a.dtype), None, None, 0
    if is_numpy(a):
        u, s, vh = sla.svd(a, full_matrices=False, check_finite=False)
    else:
        u, s, vh = xp.linalg.svd(a, full_matrices=False)
    eps = array_namespace(s).finfo(s.dtype).eps
    cutoff = (eps * max(a.shape[-2:]) if rcond is None else rcond) * xp.max(s)
    return u, s, vh, int(np.count_nonzero(s > cutoff))


@rrule.register(sla.orth)
def _orth_rrule(A, rcond=None):
    xp = array_namespace(A)
    project_a = ProjectTo(A)
    u, s, vh, rank = _orth(A, rcond)

    def orth_pullback(dy):
        if rank == 0:  # an empty basis: nothing depends on A
            return NO_TANGENT, project_a(ZERO_TANGENT)
        dropped = xp.zeros((u.shape[0], u.shape[1] - rank), dtype=dy.dtype)
        g_u = xp.concat([dy, dropped], axis=1)
        return NO_TANGENT, project_a(svd_pullback_of(u, s, vh, g_u, ZERO_TANGENT, ZERO_TANGENT))

    return u[:, :rank], orth_pullback


@frule.register(sla.orth)
def _orth_frule(tangents, A, rcond=None):
    u, s, vh, rank = _orth(A, rcond)
    da = tangents[1]
    if is_zero(da) or rank == 0:
        return u[:, :rank], ZERO_TANGENT if rank == 0 else da
    du = svd_pushforward_of(A, u, s, vh, da)[0]
    return u[:, :rank], du[:, :rank]
