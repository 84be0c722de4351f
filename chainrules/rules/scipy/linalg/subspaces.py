"""Rules for ``scipy.linalg``'s subspaces: null_space, subspace_angles.

* ``null_space(A)`` is an orthonormal basis ``N`` of ``A``'s null space, from the SVD; its
  dimension (the numerical rank) is locally constant along tangents that keep the rank,
  which every tangent does when ``A`` has full row rank. The basis is a gauge (so is any
  ``N R``, ``R`` unitary): the rules give the gauge-fixed derivative ``dN = -pinv(A) dA N``
  (``N^H dN = 0``, the basis moves only out of the null space). That is the derivative of
  ``N`` itself when the null space is real and one-dimensional (``N`` is unique up to its
  sign), and otherwise that of every loss that does not see the gauge (a function of the
  projector ``N N^H``, say).
* ``subspace_angles(A, B)``: ``theta_i = arccos(sigma_i)``, ``sigma`` the singular values of
  ``Q_A^H Q_B`` (bases from ``orth``), with ``d sigma_i = Re(w_i^H dA c_i) + Re(x_i^H dB
  d_i)``: principal vectors ``a_i = Q_A u_i``, ``b_i = Q_B v_i``, ``w_i = b_i - sigma_i
  a_i``, ``x_i = a_i - sigma_i b_i``, ``c_i = pinv(A) a_i``, ``d_i = pinv(B) b_i``. The
  angles are differentiable where distinct and strictly between 0 and pi/2; at equal
  angles their symmetric functions (the sum) still are, and the rules give those exactly.
  At 0 and pi/2 an angle has a kink (as ``|x|`` at 0): the rules give it zero derivative.

``null_space`` and ``subspace_angles`` compute with ``numpy.linalg`` through the array
namespace on an engine's tracked values, so their pullbacks differentiate again.
>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> n, pullback = rrule(scipy.linalg.null_space, np.array([[0.0, 2.0]]))
>>> n.ravel()
array([-1.,  0.])
>>> pullback(np.array([[0.0], [1.0]]))[1] + 0.0  # N of [[e, 2]] is -[2, -e] / |[2, -e]|
array([[0.5, 0. ]])
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
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    mH,
    safe_reciprocal,
)

__all__: list[str] = []


def _plain(x: Any) -> np.ndarray:
    """``x``'s values as a NumPy array (tracked values give up their derivatives)."""
    return x if is_numpy(x) else np.asarray(ignore_derivatives(x))


def _two_dimensional(name: str, *arrays: Any) -> None:
    for x in arrays:
        if x.ndim != 2:
            raise ValueError(f"{name}: the rule takes matrices (no stacks)")


# ---- null_space ---------------------------------------------------------------------------


class _NullSpace:
    """The basis ``N`` and the factors of ``pinv(A) = v_r diag(1 / s_r) u_r^H``."""

    def __init__(self, a: Any, rcond: Any, lapack_driver: str) -> None:
        _two_dimensional("scipy.linalg.null_space", a)
        xp = array_namespace(a)
        m, n = a.shape
        if is_numpy(a):
            u, s, vh = sla.svd(a, full_matrices=True, lapack_driver=lapack_driver)
        else:
            # A square matrix with the same right singular vectors: zero rows below a.
            rows = xp.concat((a, xp.zeros((n - m, n), dtype=a.dtype)), axis=0) if m < n else a
            u, s, vh = xp.linalg.svd(rows, full_matrices=False)
            u = u[:m]
        eps = array_namespace(s).finfo(s.dtype).eps
        tol = (eps * max(m, n) if rcond is None else rcond) * (xp.max(s) if s.shape[0] else 0.0)
        rank = int(np.count_nonzero(s > tol))  # comparisons give plain booleans
        basis = mH(vh[rank:])
        if type(a) is not np.ndarray:  # SciPy's basis, as a rotation of the one found here
            w, _, zh = np.linalg.svd(
                mH(_plain(basis)) @ sla.null_space(_plain(a), rcond, lapack_driver=lapack_driver)
            )
            basis = xp.matmul(basis, xp.asarray(w @ zh))
        self.basis = basis
        self.u_r, self.s_r, self.vh_r = u[:, :rank], s[:rank], vh[:rank]

    def pullback(self, g: Any) -> Any:
        """``-pinv(A)^H g N^H``."""
        xp = array_namespace(g, self.basis)
        inner = xp.matmul(self.vh_r, xp.matmul(g, mH(self.basis)))
        return -xp.matmul(self.u_r, inner / xp.astype(self.s_r, inner.dtype)[:, None])

    def pushforward(self, da: Any) -> Any:
        """``-pinv(A) dA N``."""
        xp = array_namespace(da, self.basis)
        inner = xp.matmul(mH(self.u_r), xp.matmul(da, self.basis))
        return -xp.matmul(mH(self.vh_r), inner / xp.astype(self.s_r, inner.dtype)[:, None])


@rrule.register(sla.null_space)
def _null_space_rrule(A, rcond=None, *, check_finite=True, lapack_driver="gesdd"):
    project_a = ProjectTo(A)
    null = _NullSpace(A, rcond, lapack_driver)

    def null_space_pullback(dy):
        return NO_TANGENT, project_a(null.pullback(dy))

    return null.basis, null_space_pullback


@frule.register(sla.null_space)
def _null_space_frule(tangents, A, rcond=None, *, check_finite=True, lapack_driver="gesdd"):
    null = _NullSpace(A, rcond, lapack_driver)
    da = tangents[1]
    if is_zero(da):
        return null.basis, da
    return null.basis, ProjectTo(null.basis)(null.pushforward(da))


# ---- subspace_angles ----------------------------------------------------------------------


def _orth_factors(x: Any) -> tuple[Any, Any]:
    """``(Q, V S^{-1})`` of ``x = Q S V^H``, cut at ``orth``'s numerical rank: ``Q`` is
    ``orth(x)`` and ``pinv(x) Q = V S^{-1}``."""
    xp = array_namespace(x)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    eps = array_namespace(s).finfo(s.dtype).eps
    cutoff = eps * max(x.shape) * (xp.max(s) if s.shape[0] else 0.0)
    rank = int(np.count_nonzero(s > cutoff))
    return u[:, :rank], mH(vh[:rank]) / xp.astype(s[:rank], vh.dtype)[None, :]


class _PrincipalAngles:
    """The principal vectors of ``(A, B)`` and what the derivatives of the angles need."""

    def __init__(self, a: Any, b: Any) -> None:
        _two_dimensional("scipy.linalg.subspace_angles", a, b)
        xp = array_namespace(a, b)
        q_a, c = _orth_factors(a)
        q_b, d = _orth_factors(b)
        u, sigma, vh = xp.linalg.svd(xp.matmul(mH(q_a), q_b), full_matrices=False)
        v = mH(vh)
        vec_a, vec_b = xp.matmul(q_a, u), xp.matmul(q_b, v)
        sigma_c = xp.astype(sigma, vec_a.dtype)[None, :]
        self.w, self.x = vec_b - vec_a * sigma_c, vec_a - vec_b * sigma_c
        self.c, self.d = xp.matmul(c, u), xp.matmul(d, v)
        self.sigma = sigma
        eps = array_namespace(sigma).finfo(sigma.dtype).eps
        kink = 16 * eps * max(1, sigma.shape[0])
        # |w_i| = sin(theta_i), accurate to eps / theta_i for small angles
        sine = xp.linalg.vector_norm(self.w, axis=0)
        # Zero at the kinks: sin(theta) = 0 (theta = 0) and sigma = 0 (theta = pi / 2).
        self.scale = safe_reciprocal(sine, kink) * xp.astype(sigma > kink, sine.dtype)

    def angles(self) -> Any:
        """``arccos(sigma)`` in SciPy's order, the largest angle first."""
        xp = array_namespace(self.sigma)
        return xp.acos(xp.clip(xp.flip(self.sigma, axis=0), -1.0, 1.0))

    def pullback(self, g_theta: Any) -> tuple[Any, Any]:
        xp = array_namespace(g_theta, self.w)
        g_sigma = -xp.flip(g_theta, axis=0) * self.scale
        weights = xp.astype(g_sigma, self.w.dtype)[None, :]
        return (
            xp.matmul(self.w * weights, mH(self.c)),
            xp.matmul(self.x * weights, mH(self.d)),
        )

    def pushforward(self, da: Any, db: Any) -> Any:
        xp = array_namespace(self.w)
        d_sigma: Any = 0.0
        if not is_zero(da):
            d_sigma = d_sigma + xp.sum(xp.conj(self.w) * xp.matmul(da, self.c), axis=0)
        if not is_zero(db):
            d_sigma = d_sigma + xp.sum(xp.conj(self.x) * xp.matmul(db, self.d), axis=0)
        if is_complex(d_sigma):
            d_sigma = xp.real(d_sigma)
        return xp.flip(-d_sigma * self.scale, axis=0)


def _subspace_angles(a: Any, b: Any, angles: _PrincipalAngles) -> Any:
    if is_numpy(a, b):
        return sla.subspace_angles(a, b)
    return angles.angles()


@rrule.register(sla.subspace_angles)
def _subspace_angles_rrule(A, B):
    project_a, project_b = ProjectTo(A), ProjectTo(B)
    angles = _PrincipalAngles(A, B)

    def subspace_angles_pullback(dy):
        g_a, g_b = angles.pullback(dy)
        return NO_TANGENT, project_a(g_a), project_b(g_b)

    return _subspace_angles(A, B, angles), subspace_angles_pullback


@frule.register(sla.subspace_angles)
def _subspace_angles_frule(tangents, A, B):
    angles = _PrincipalAngles(A, B)
    theta = _subspace_angles(A, B, angles)
    da, db = tangents[1], tangents[2]
    if is_zero(da) and is_zero(db):
        return theta, ZERO_TANGENT
    return theta, ProjectTo(theta)(angles.pushforward(da, db))
