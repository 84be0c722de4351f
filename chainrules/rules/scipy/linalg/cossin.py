"""Rules for ``scipy.linalg.cossin``: the cosine-sine decomposition of a unitary matrix.

``cossin(X, p, q)`` of a unitary ``X``: see ``_CosSin``. Tangents of ``X`` are taken on
the unitary group (their component ``X K``, ``K`` skew-Hermitian); the derivative exists
where the cosines are distinct and no angle is 0 or pi/2 (``ValueError`` elsewhere).
The signs (phases) of the columns of ``U`` and ``V`` are a gauge: losses are assumed not
to depend on them.

The rules call LAPACK, on NumPy arrays (one matrix) only.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.dtypes import is_complex
from ....core.namespace import require_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import (
    mH,
    output_fields,
)

__all__: list[str] = []


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
        require_numpy(sla.cossin, x)  # other arrays: the adapters' NumPy copies
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
        g_u = np.zeros((m, m)) if is_zero(g_u) else g_u
        g_vh = np.zeros((m, m)) if is_zero(g_vh) else g_vh
        g_theta = np.zeros(self.theta.shape) if is_zero(g_theta) else g_theta
        k_vector = self.solve.T @ (self.j_out.T @ _reals(g_u, g_theta, g_vh))
        half = k_vector.shape[0] // 2
        k = (k_vector[:half] + 1j * k_vector[half:]).reshape(m, m)
        k = (k - mH(k)) / 2
        return self.u @ self.cs @ k @ self.vh


def _block_diagonal(g: Any, split: int, m: int) -> Any:
    """The full cotangent of ``block_diag(a, b)`` from those of ``(a, b)`` (``a`` of order
    ``split``)."""
    g_a, g_b = output_fields(g, ("a", "b"))
    if is_zero(g_a) and is_zero(g_b):
        return ZERO_TANGENT
    full = np.zeros((m, m), complex)
    if not is_zero(g_a):
        full[:split, :split] = g_a
    if not is_zero(g_b):
        full[split:, split:] = g_b
    return full


@rrule.register(sla.cossin)
def _cossin_rrule(
    X, p=None, q=None, separate=False, swap_sign=False, compute_u=True, compute_vh=True
):
    project_x = ProjectTo(X)
    decomposition = _CosSin(X, p, q, swap_sign)
    flags = {"separate": separate, "swap_sign": swap_sign}
    result = sla.cossin(X, p, q, compute_u=compute_u, compute_vh=compute_vh, **flags)
    m = X.shape[0]

    def cossin_pullback(dy):
        g_u, g_middle, g_vh = output_fields(dy, ("u", "cs", "vdh"), result, sla.cossin)
        g_u = g_u if compute_u else ZERO_TANGENT
        g_vh = g_vh if compute_vh else ZERO_TANGENT
        if separate:
            g_u = _block_diagonal(g_u, decomposition.p, m)
            g_vh = _block_diagonal(g_vh, decomposition.q, m)
        elif not is_zero(g_middle):
            g_middle = decomposition.cs_cotangent(g_middle)
        if all(is_zero(g) for g in (g_u, g_middle, g_vh)):
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
    dx = tangents[1]
    if is_zero(dx):
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
