"""Rules for ``scipy.linalg``'s subspaces and symmetric and unitary factorizations:
null_space, subspace_angles, ldl and cossin.

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
* ``ldl(A)``: ``A = lu d lu^H`` (``lu^T`` when ``hermitian=False``), ``L = lu[perm]`` unit
  triangular with identity blocks where ``d`` has 2x2 pivots. Bunch-Kaufman pivoting is
  locally constant, so with ``P A P^T = L D L^H`` and ``F = L^{-1} P dA P^T L^{-H}``,
  ``dD`` is the block diagonal of ``F`` and ``dL = L F_low D^{-1}``, ``F_low`` the part of
  ``F`` strictly below the diagonal blocks (above for ``lower=False``). Only the triangle
  that ``ldl`` reads is differentiated.
* ``cossin(X, p, q)`` of a unitary ``X``: see ``_CosSin``. Tangents of ``X`` are taken on
  the unitary group (their component ``X K``, ``K`` skew-Hermitian); the derivative exists
  where the cosines are distinct and no angle is 0 or pi/2 (``ValueError`` elsewhere).
  The signs (phases) of the columns of ``U`` and ``V`` are a gauge: losses are assumed not
  to depend on them.

``null_space`` and ``subspace_angles`` compute with ``numpy.linalg`` through the array
namespace on an engine's tracked values, so their pullbacks differentiate again; ``ldl``
and ``cossin`` call LAPACK on NumPy arrays (one matrix) only.

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

from ...core.arguments import positional_cotangents
from ...core.define import ignore_derivatives
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ..matrices import (
    lower_hermitian,
    lower_hermitian_cotangent,
    lower_symmetric,
    lower_symmetric_cotangent,
    mH,
    output_fields,
    safe_reciprocal,
)

__all__: list[str] = []


def _zero(t: Any) -> bool:
    return isinstance(t, AbstractZero)


def _plain(x: Any) -> np.ndarray:
    """``x``'s values as a NumPy array (tracked values give up their derivatives)."""
    return x if type(x) is np.ndarray else np.asarray(ignore_derivatives(x))


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
        if type(a) is np.ndarray:
            u, s, vh = sla.svd(a, full_matrices=True, lapack_driver=lapack_driver)
        else:
            # A square matrix with the same right singular vectors: zero rows below a.
            rows = xp.concat((a, xp.zeros((n - m, n), dtype=a.dtype)), axis=0) if m < n else a
            u, s, vh = xp.linalg.svd(rows, full_matrices=False)
            u = u[:m]
        eps = np.finfo(np.dtype(s.dtype)).eps
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
@positional_cotangents
def _null_space_rrule(A, rcond=None, *, check_finite=True, lapack_driver="gesdd"):
    project_a = ProjectTo(A)
    null = _NullSpace(A, rcond, lapack_driver)

    def null_space_pullback(dy):
        dy = unthunk(dy)
        if _zero(dy):
            return NO_TANGENT, project_a(dy)
        return NO_TANGENT, project_a(null.pullback(dy))

    return null.basis, null_space_pullback


@frule.register(sla.null_space)
def _null_space_frule(tangents, A, rcond=None, *, check_finite=True, lapack_driver="gesdd"):
    null = _NullSpace(A, rcond, lapack_driver)
    da = unthunk(tangents[1])
    if _zero(da):
        return null.basis, da
    return null.basis, ProjectTo(null.basis)(null.pushforward(da))


# ---- subspace_angles ----------------------------------------------------------------------


def _orth_factors(x: Any) -> tuple[Any, Any]:
    """``(Q, V S^{-1})`` of ``x = Q S V^H``, cut at ``orth``'s numerical rank: ``Q`` is
    ``orth(x)`` and ``pinv(x) Q = V S^{-1}``."""
    xp = array_namespace(x)
    u, s, vh = xp.linalg.svd(x, full_matrices=False)
    eps = np.finfo(np.dtype(s.dtype)).eps
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
        eps = np.finfo(np.dtype(sigma.dtype)).eps
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
        if not _zero(da):
            d_sigma = d_sigma + xp.sum(xp.conj(self.w) * xp.matmul(da, self.c), axis=0)
        if not _zero(db):
            d_sigma = d_sigma + xp.sum(xp.conj(self.x) * xp.matmul(db, self.d), axis=0)
        if is_complex(d_sigma):
            d_sigma = xp.real(d_sigma)
        return xp.flip(-d_sigma * self.scale, axis=0)


def _subspace_angles(a: Any, b: Any, angles: _PrincipalAngles) -> Any:
    if type(a) is np.ndarray and type(b) is np.ndarray:
        return sla.subspace_angles(a, b)
    return angles.angles()


@rrule.register(sla.subspace_angles)
def _subspace_angles_rrule(A, B):
    project_a, project_b = ProjectTo(A), ProjectTo(B)
    angles = _PrincipalAngles(A, B)

    def subspace_angles_pullback(dy):
        dy = unthunk(dy)
        if _zero(dy):
            return NO_TANGENT, project_a(dy), project_b(dy)
        g_a, g_b = angles.pullback(dy)
        return NO_TANGENT, project_a(g_a), project_b(g_b)

    return _subspace_angles(A, B, angles), subspace_angles_pullback


@frule.register(sla.subspace_angles)
def _subspace_angles_frule(tangents, A, B):
    angles = _PrincipalAngles(A, B)
    theta = _subspace_angles(A, B, angles)
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    if _zero(da) and _zero(db):
        return theta, ZERO_TANGENT
    return theta, ProjectTo(theta)(angles.pushforward(da, db))


# ---- ldl ----------------------------------------------------------------------------------


class _LDL:
    """``P S P^T = L D L^*`` for the matrix ``S`` that ``ldl`` reads (``* = H``, or ``T``
    for ``hermitian=False`` complex), with the masks of ``D``'s blocks."""

    def __init__(self, a: np.ndarray, lower: bool, hermitian: bool) -> None:
        if type(a) is not np.ndarray or a.ndim != 2:
            raise ValueError("scipy.linalg.ldl: the rule takes one NumPy matrix (no stacks)")
        self.lower = lower
        self.symmetric = is_complex(a) and not hermitian
        self.result = lu, d, perm = sla.ldl(a, lower=lower, hermitian=hermitian)
        self.perm, self.inverse = perm, np.argsort(perm)
        self.l, self.d = lu[perm], d
        n = a.shape[0]
        pair = np.diagonal(d, -1) != 0
        same = np.eye(n, dtype=bool) | np.diag(pair, -1) | np.diag(pair, 1)
        self.blocks = same
        below = np.tril(np.ones((n, n), dtype=bool), -1)
        self.outside = (below if lower else below.T) & ~same

    def _star(self, x: np.ndarray) -> np.ndarray:
        return x.T if self.symmetric else mH(x)

    def _solve(self, b: np.ndarray) -> np.ndarray:
        """``L^{-1} b``."""
        return sla.solve_triangular(self.l, b, lower=self.lower, unit_diagonal=True)

    def seen(self, da: Any) -> np.ndarray:
        upper = not self.lower
        return lower_symmetric(da, upper) if self.symmetric else lower_hermitian(da, upper)

    def pushforward(self, da: Any) -> tuple[np.ndarray, np.ndarray]:
        dp = self.seen(np.asarray(da))[np.ix_(self.perm, self.perm)]
        f = self._star(self._solve(self._star(self._solve(dp))))
        dd = np.where(self.blocks, f, 0)
        dl = self.l @ np.linalg.solve(self.d.T, np.where(self.outside, f, 0).T).T
        return dl[self.inverse], dd

    def pullback(self, g_lu: Any, g_d: Any) -> np.ndarray:
        n = self.d.shape[0]
        g_f = np.zeros((n, n), np.result_type(self.l, g_lu, g_d))
        if not _zero(g_d):
            g_f = g_f + np.where(self.blocks, g_d, 0)
        if not _zero(g_lu):
            g_l = np.asarray(g_lu)[self.perm]
            half = np.linalg.solve(np.conj(self.d), (mH(self.l) @ g_l).T).T
            g_f = g_f + np.where(self.outside, half, 0)
        # F = L^{-1} dP L^{-*}: the cotangent of dP is L^{-H} g_F conj(L^{-*})^H
        g_p = sla.solve_triangular(self.l, g_f, lower=self.lower, trans=2, unit_diagonal=True)
        right = np.conj(self.l) if self.symmetric else self.l
        g_p = mH(
            sla.solve_triangular(right, mH(g_p), lower=self.lower, trans=2, unit_diagonal=True)
        )
        g_s = g_p[np.ix_(self.inverse, self.inverse)]
        upper = not self.lower
        if self.symmetric:
            return lower_symmetric_cotangent(g_s, upper)
        return lower_hermitian_cotangent(g_s, upper)


@rrule.register(sla.ldl)
@positional_cotangents
def _ldl_rrule(A, lower=True, hermitian=True, *, check_finite=True):
    project_a = ProjectTo(A)
    ldl = _LDL(A, lower, hermitian)

    def ldl_pullback(dy):
        g_lu, g_d, _ = output_fields(dy, ("lu", "d", "perm"))
        if _zero(g_lu) and _zero(g_d):
            return NO_TANGENT, project_a(ZERO_TANGENT)
        return NO_TANGENT, project_a(ldl.pullback(g_lu, g_d))

    return ldl.result, ldl_pullback


@frule.register(sla.ldl)
def _ldl_frule(tangents, A, lower=True, hermitian=True, *, check_finite=True):
    ldl = _LDL(A, lower, hermitian)
    lu, d, _ = ldl.result
    da = unthunk(tangents[1])
    if _zero(da):
        return ldl.result, ZERO_TANGENT
    d_lu, d_d = ldl.pushforward(da)
    return ldl.result, Tangent(tuple, ProjectTo(lu)(d_lu), ProjectTo(d)(d_d), NO_TANGENT)


# ---- cossin -------------------------------------------------------------------------------


def _skew_basis(k: int, complex_: bool) -> list[np.ndarray]:
    """A basis of the real vector space of skew-Hermitian ``k x k`` matrices."""
    basis: list[np.ndarray] = []
    for i in range(k):
        for j in range(i):
            e = np.zeros((k, k))
            e[i, j], e[j, i] = 1.0, -1.0
            basis += [e, 1j * np.abs(e)] if complex_ else [e]
        if complex_:
            e = np.zeros((k, k), complex)
            e[i, i] = 1j
            basis.append(e)
    return basis


def _reals(*parts: Any) -> np.ndarray:
    """The real coordinates of arrays: their entries, real and imaginary parts apart."""
    flat = np.concatenate([np.ravel(np.asarray(x, dtype=complex)) for x in parts])
    return np.concatenate([flat.real, flat.imag])


class _CosSin:
    """The CS decomposition ``X = U CS V^H`` and its derivative, by one linear system.

    Along a tangent ``dX`` of the unitary group, ``K = CS^H U^H dX V`` is skew-Hermitian
    and ``K = CS^H Omega_U CS - Omega_V + CS^H dCS(d theta)``, with ``Omega_U = U^H dU``
    and ``Omega_V = V^H dV`` skew-Hermitian and block diagonal. The rules solve it for
    ``(Omega_U, Omega_V, d theta)`` by the least-norm solution of a dense real system of
    order ``m^2`` (for moderate ``m``), which fixes the gauge (common phases of the
    columns, rotations inside the identity blocks of ``CS``).
    """

    def __init__(self, x: Any, p: Any, q: Any, swap_sign: bool) -> None:
        if type(x) is not np.ndarray or x.ndim != 2 or p is None or q is None:
            raise ValueError("scipy.linalg.cossin: the rule takes one NumPy matrix X with p, q")
        m, p, q = x.shape[0], int(p), int(q)
        self.u, self.cs, self.vh = sla.cossin(x, p, q, swap_sign=swap_sign)
        r = min(p, q, m - p, m - q)
        n11, n21, n22 = min(p, q) - r, min(m - p, q) - r, min(m - p, m - q) - r
        i = np.arange(r)
        self.c_at = (np.r_[n11 + i, p + n22 + i], np.r_[n11 + i, n11 + r + n21 + n22 + i])
        self.s_at = (np.r_[n11 + i, p + n22 + i], np.r_[n11 + n21 + n22 + r + i, n11 + i])
        plus, minus = np.ones(r), -np.ones(r)
        self.s_sign = np.r_[plus, minus] if swap_sign else np.r_[minus, plus]
        c, s = np.real(self.cs[self.c_at][:r]), np.real(self.cs[self.s_at][:r]) * self.s_sign[:r]
        self.theta = np.arctan2(s, c)
        self.m, self.p, self.q = m, p, q
        cplx = is_complex(x)
        k_columns, out_columns = [], []
        zero_m, zero_r = np.zeros((m, m)), np.zeros(r)
        for lo, hi, side in ((0, p, "u"), (p, m, "u"), (0, q, "v"), (q, m, "v")):
            for e in _skew_basis(hi - lo, cplx):
                w = np.zeros((m, m), e.dtype)
                w[lo:hi, lo:hi] = e
                if side == "u":
                    k_columns.append(mH(self.cs) @ w @ self.cs)
                    out_columns.append(_reals(self.u @ w, zero_r, zero_m))
                else:
                    k_columns.append(-w)
                    out_columns.append(_reals(zero_m, zero_r, -w @ self.vh))
        for k in range(r):
            e = np.zeros(r)
            e[k] = 1.0
            k_columns.append(mH(self.cs) @ self.cs_tangent(e))
            out_columns.append(_reals(zero_m, e, zero_m))
        j_k = np.stack([_reals(c) for c in k_columns], axis=1)
        self.j_out = np.stack(out_columns, axis=1)
        u_k, s_k, vh_k = np.linalg.svd(j_k, full_matrices=False)
        rank = m * m if cplx else m * (m - 1) // 2
        if s_k[rank - 1] <= 1e3 * m * np.finfo(float).eps * s_k[0]:
            raise ValueError(
                "scipy.linalg.cossin: repeated cosines (or an angle of 0 or pi/2), where "
                "the decomposition has no derivative"
            )
        # z = solve @ K: the least-norm solution for every skew-Hermitian K
        self.solve = mH(vh_k[:rank]) @ (mH(u_k[:, :rank]) / s_k[:rank, None])

    def cs_tangent(self, d_theta: np.ndarray) -> np.ndarray:
        """``dCS`` along ``d_theta``."""
        out = np.zeros((self.m, self.m))
        out[self.c_at] = np.tile(-np.sin(self.theta) * d_theta, 2)
        out[self.s_at] = self.s_sign * np.tile(np.cos(self.theta) * d_theta, 2)
        return out

    def cs_cotangent(self, g: np.ndarray) -> np.ndarray:
        """The adjoint of ``cs_tangent``."""
        g = np.real(g)
        r = self.theta.shape[0]
        g_c, g_s = g[self.c_at], g[self.s_at] * self.s_sign
        return -np.sin(self.theta) * (g_c[:r] + g_c[r:]) + np.cos(self.theta) * (g_s[:r] + g_s[r:])

    def pushforward(self, dx: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(dU, d theta, dV^H)`` along ``dx`` (its component tangent to the unitary group)."""
        k = mH(self.cs) @ mH(self.u) @ np.asarray(dx) @ mH(self.vh)
        z = self.solve @ _reals((k - mH(k)) / 2)
        out = self.j_out @ z
        m2, r = self.m * self.m, self.theta.shape[0]
        n = m2 * 2 + r
        values = out[:n] + 1j * out[n:]
        du, d_theta, dvh = values[:m2], values[m2 : m2 + r], values[m2 + r :]
        return du.reshape(self.m, self.m), np.real(d_theta), dvh.reshape(self.m, self.m)

    def pullback(self, g_u: Any, g_theta: Any, g_vh: Any) -> np.ndarray:
        """The cotangent of ``X`` (tangent to the unitary group) from those of the factors."""
        m = self.m
        g_u = np.zeros((m, m)) if _zero(g_u) else g_u
        g_vh = np.zeros((m, m)) if _zero(g_vh) else g_vh
        g_theta = np.zeros(self.theta.shape) if _zero(g_theta) else g_theta
        k_vector = self.solve.T @ (self.j_out.T @ _reals(g_u, g_theta, g_vh))
        half = k_vector.shape[0] // 2
        k = (k_vector[:half] + 1j * k_vector[half:]).reshape(m, m)
        k = (k - mH(k)) / 2
        return self.u @ self.cs @ k @ self.vh


def _block_diagonal(g: Any, split: int, m: int) -> Any:
    """The full cotangent of ``block_diag(a, b)`` from those of ``(a, b)`` (``a`` of order
    ``split``)."""
    g_a, g_b = output_fields(g, ("a", "b"))
    if _zero(g_a) and _zero(g_b):
        return ZERO_TANGENT
    full = np.zeros((m, m), complex)
    if not _zero(g_a):
        full[:split, :split] = g_a
    if not _zero(g_b):
        full[split:, split:] = g_b
    return full


@rrule.register(sla.cossin)
@positional_cotangents
def _cossin_rrule(
    X, p=None, q=None, separate=False, swap_sign=False, compute_u=True, compute_vh=True
):
    project_x = ProjectTo(X)
    decomposition = _CosSin(X, p, q, swap_sign)
    flags = {"separate": separate, "swap_sign": swap_sign}
    result = sla.cossin(X, p, q, compute_u=compute_u, compute_vh=compute_vh, **flags)
    m = X.shape[0]

    def cossin_pullback(dy):
        g_u, g_middle, g_vh = output_fields(dy, ("u", "cs", "vdh"))
        g_u = g_u if compute_u else ZERO_TANGENT
        g_vh = g_vh if compute_vh else ZERO_TANGENT
        if separate:
            g_u = _block_diagonal(g_u, decomposition.p, m)
            g_vh = _block_diagonal(g_vh, decomposition.q, m)
        elif not _zero(g_middle):
            g_middle = decomposition.cs_cotangent(g_middle)
        if all(_zero(g) for g in (g_u, g_middle, g_vh)):
            return NO_TANGENT, project_x(ZERO_TANGENT)
        return NO_TANGENT, project_x(decomposition.pullback(g_u, g_middle, g_vh))

    return result, cossin_pullback


@frule.register(sla.cossin)
def _cossin_frule(
    tangents, X, p=None, q=None, separate=False, swap_sign=False, compute_u=True, compute_vh=True
):
    decomposition = _CosSin(X, p, q, swap_sign)
    flags = {"separate": separate, "swap_sign": swap_sign}
    result = u, middle, vh = sla.cossin(
        X, p, q, compute_u=compute_u, compute_vh=compute_vh, **flags
    )
    dx = unthunk(tangents[1])
    if _zero(dx):
        return result, ZERO_TANGENT
    du, d_theta, dvh = decomposition.pushforward(dx)
    if not separate:
        du = du if compute_u else np.zeros_like(u)
        dvh = dvh if compute_vh else np.zeros_like(vh)
        parts = (du, decomposition.cs_tangent(d_theta), dvh)
        return result, Tangent(
            tuple, *(ProjectTo(y)(d) for y, d in zip(result, parts, strict=True))
        )
    sp, sq = decomposition.p, decomposition.q

    def blocks(y: tuple, d: np.ndarray, k: int, computed: bool) -> Any:
        if not computed:
            return Tangent(tuple, *(np.zeros_like(b) for b in y))
        return Tangent(tuple, ProjectTo(y[0])(d[:k, :k]), ProjectTo(y[1])(d[k:, k:]))

    d_middle = ProjectTo(middle)(d_theta)
    return result, Tangent(
        tuple, blocks(u, du, sp, compute_u), d_middle, blocks(vh, dvh, sq, compute_vh)
    )
