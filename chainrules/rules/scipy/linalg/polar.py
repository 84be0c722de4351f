"""Rules for ``scipy.linalg``'s polar decomposition and the orthogonal Procrustes problem it
solves: polar, orthogonal_procrustes.

* ``polar`` goes through the SVD ``a = W S V^H`` (``U = W V^H``, ``P = V S V^H`` or
  ``W S W^H``), so it assumes distinct singular values.
* ``orthogonal_procrustes(a, b)`` is the unitary polar factor ``R`` of ``M = a^H b`` and the
  sum of ``M``'s singular values, whose gradient in ``M`` is ``R`` itself.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> (u, p), pullback = rrule(scipy.linalg.polar, np.diag([2.0, 3.0]))
>>> u, p
(array([[1., 0.],
       [0., 1.]]), array([[2., 0.],
       [0., 3.]]))
"""

from __future__ import annotations

from typing import Any

import scipy.linalg as sla

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import as_returned, mH, output_fields, tangent_like
from ...numpy.linalg.spectral import (
    svd_pullback_of,
    svd_pushforward_of,
)

__all__: list[str] = []


# ---- polar --------------------------------------------------------------------------------


def _polar_factors(a: Any, side: str) -> tuple[Any, Any, Any, Any, Any, Any]:
    """``(w, s, vh, u, basis, p)``: the thin svd ``a = W S V^H``, ``u = W V^H`` and
    ``p = basis S basis^H`` with ``basis`` ``V`` (``side='right'``) or ``W``."""
    xp = array_namespace(a)
    w, s, vh = xp.linalg.svd(a, full_matrices=False)
    u = xp.matmul(w, vh)
    basis = mH(vh) if side == "right" else w
    p = xp.matmul(basis * xp.astype(s, basis.dtype)[..., None, :], mH(basis))
    return w, s, vh, u, basis, p


@rrule.register(sla.polar)
def _polar_rrule(a, side="right"):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    w, s, vh, u, basis, p = _polar_factors(a, side)

    def polar_pullback(dy):
        g_u, g_p = output_fields(dy, ("u", "p"), (u, p), sla.polar)
        g_w: Any = ZERO_TANGENT
        g_vh: Any = ZERO_TANGENT
        g_s: Any = ZERO_TANGENT
        if not is_zero(g_u):
            g_w, g_vh = xp.matmul(g_u, mH(vh)), xp.matmul(mH(w), g_u)
        if not is_zero(g_p):
            g_sym = g_p + mH(g_p)
            g_basis = xp.matmul(g_sym, basis) * xp.astype(s, basis.dtype)[..., None, :]
            g_s = xp.real(xp.sum(xp.conj(basis) * xp.matmul(g_p, basis), axis=-2))
            if side == "right":
                g_vh = g_vh + mH(g_basis)
            else:
                g_w = g_w + g_basis
        return NO_TANGENT, project_a(svd_pullback_of(w, s, vh, g_w, g_s, g_vh))

    return as_returned((u, p), a), polar_pullback


@frule.register(sla.polar)
def _polar_frule(tangents, a, side="right"):
    xp = array_namespace(a)
    w, s, vh, u, basis, p = _polar_factors(a, side)
    s_c = xp.astype(s, basis.dtype)
    da = tangents[1]
    if is_zero(da):
        return as_returned((u, p), a), da
    dw, ds, dvh = svd_pushforward_of(a, w, s, vh, da)
    du = xp.matmul(dw, vh) + xp.matmul(w, dvh)
    d_basis = mH(dvh) if side == "right" else dw
    half = xp.matmul(d_basis * s_c[..., None, :], mH(basis))
    dp = half + mH(half) + xp.matmul(basis * xp.astype(ds, basis.dtype)[..., None, :], mH(basis))
    y = as_returned((u, p), a)
    return y, tangent_like(y, du, dp)


# ---- orthogonal_procrustes, signm ---------------------------------------------------------


@rrule.register(sla.orthogonal_procrustes)
def _orthogonal_procrustes_rrule(a, b, *, check_finite=True):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    (r, p), polar_pullback = rrule(sla.polar, xp.matmul(mH(a), b))
    scale = xp.sum(xp.linalg.diagonal(p))
    scale = xp.real(scale) if is_complex(scale) else scale

    def orthogonal_procrustes_pullback(dy):
        g_r, g_scale = output_fields(dy, ("R", "scale"), (r, scale), sla.orthogonal_procrustes)
        g_m = polar_pullback(Tangent(tuple, g_r, ZERO_TANGENT))[1]
        if not is_zero(g_scale):
            g_m = g_m + g_scale * r
        return NO_TANGENT, project_a(xp.matmul(b, mH(g_m))), project_b(xp.matmul(a, g_m))

    return (r, scale), orthogonal_procrustes_pullback


@frule.register(sla.orthogonal_procrustes)
def _orthogonal_procrustes_frule(tangents, a, b, *, check_finite=True):
    xp = array_namespace(a, b)
    da, db = tangents[1], tangents[2]
    dm: Any = ZERO_TANGENT
    if not is_zero(da):
        dm = xp.matmul(mH(da), b)
    if not is_zero(db):
        dm = dm + xp.matmul(mH(a), db)
    (r, p), d_polar = frule((NO_TANGENT, dm), sla.polar, xp.matmul(mH(a), b))
    scale = xp.sum(xp.linalg.diagonal(p))
    scale = xp.real(scale) if is_complex(scale) else scale
    if is_zero(dm):
        return (r, scale), ZERO_TANGENT
    # d sum(s) = Re tr(R^H dM)
    d_scale = xp.sum(xp.conj(r) * dm) if is_complex(dm) else xp.sum(r * dm)
    d_scale = xp.real(d_scale) if is_complex(d_scale) else d_scale
    return (r, scale), Tangent(tuple, unthunk(d_polar[0]), d_scale)
