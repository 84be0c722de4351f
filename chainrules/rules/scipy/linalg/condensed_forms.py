"""Rules for ``scipy.linalg``'s reductions to condensed forms: hessenberg, matrix_balance,
cdf2rdf and rsf2csf (qz and ordqz are in ``qz``).

A factorization ``A = Q H Q^H`` is differentiated through ``Omega = Q^H dQ`` (skew-Hermitian):
``Q^H dA Q = dH + Omega H - H Omega``, and the zeros that the condensed form keeps determine
``Omega`` by a triangular recursion (``O(n^3)``).

* ``hessenberg``: ``Q e1 = e1`` zeroes ``Omega``'s first row and column; the zeros of ``dH``
  below its subdiagonal give ``Omega`` column by column. LAPACK makes the subdiagonal of a
  complex ``H`` real, which fixes the phases of ``Q``: the rules keep it real, so they are
  LAPACK's derivatives. A reduced ``H`` (a zero subdiagonal entry) leaves ``Q``
  undetermined: no derivative (``ValueError``). Orders 1 and 2 give ``H = a``, ``Q = I``.
* ``matrix_balance``: ``B = T^{-1} A T``, ``T`` a permutation (decided by exact zeros of
  ``A``: tangents must keep them) times powers of two, locally constant; ``T`` (or
  ``(scale, perm)``) has no tangent.
* ``cdf2rdf(w, v)``: linear in ``(w, v)`` for the pairing that the exact zeros of ``Im w``
  select (the imaginary part of a real eigenvalue's tangent is ignored).
* ``rsf2csf(T, Z)``: SciPy's Givens rotations ``U``, one per 2x2 block of ``T`` (built from
  the block and the eigenvalue it moves up), give ``(U^H T U, Z U)``; the rotations are
  differentiated explicitly. Entries of ``T`` below its subdiagonal pass through, its
  subdiagonal entries outside the blocks are dropped. A block with a repeated eigenvalue
  has no derivative.

The rules of ``hessenberg`` and ``rsf2csf`` call LAPACK on NumPy arrays
(one matrix, no stacks), so their pullbacks are not differentiable again by an engine;
``matrix_balance`` and ``cdf2rdf`` are linear given their discrete choices and compute on
tracked values too.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> (b, t), pullback = rrule(scipy.linalg.matrix_balance, np.array([[1.0, 64.0], [1.0, 1.0]]))
>>> b
array([[1., 8.],
       [8., 1.]])
>>> pullback((np.array([[0.0, 1.0], [0.0, 0.0]]), np.zeros((2, 2))))[1]  # B[0, 1] = A[0, 1] / 8
array([[0.   , 0.125],
       [0.   , 0.   ]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.define import ignore_derivatives
from ....core.dtypes import is_complex
from ....core.errors import ArrayTypeError
from ....core.namespace import array_namespace, is_numpy, numpy_dispatches, require_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import densify, is_zero
from ...matrices import diag_embed, mH, output_fields

__all__ = ["require_square_matrix"]


def require_square_matrix(name: str, *arrays: Any) -> None:
    """Raise unless the arrays are square NumPy matrices: LAPACK computes these factors.
    Arrays NumPy does not take raise ``ArrayTypeError`` (the adapters then run the rule on
    NumPy copies); an engine's tracked values, stacks and the rest raise ``ValueError``."""
    foreign = sorted({type(x).__name__ for x in arrays if not numpy_dispatches(x)})
    if foreign:
        raise ArrayTypeError(
            f"{name} computes with LAPACK, which does not take {', '.join(foreign)}"
        )
    for x in arrays:
        if type(x) is not np.ndarray or x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f"{name}: the rule takes one square NumPy matrix (no stacks)")


# ---- hessenberg ---------------------------------------------------------------------------


def _hessenberg_omega(h: np.ndarray, c: np.ndarray) -> np.ndarray:
    """``Omega`` from ``C = Q^H dA Q``: column ``j + 1`` of ``Omega`` below its diagonal
    cancels ``dH`` below the subdiagonal in column ``j``; its diagonal (complex ``h``) keeps
    ``dH``'s subdiagonal real."""
    n = h.shape[-1]
    om = np.zeros((n, n), np.result_type(h, c))
    for j in range(n - 1):
        s = slice(j + 1, n)
        r = c[s, j] - om[s, : j + 1] @ h[: j + 1, j] + h[s, :] @ om[:, j]
        below = r[1:] / h[j + 1, j]
        om[j + 2 :, j + 1] = below
        om[j + 1, j + 2 :] = -np.conj(below)
        if np.iscomplexobj(om):
            om[j + 1, j + 1] = 1j * np.imag(r[0]) / np.real(h[j + 1, j])
    return om


def _hessenberg_omega_adjoint(h: np.ndarray, m: np.ndarray) -> np.ndarray:
    """The cotangent of ``C`` from the cotangent ``m`` of ``Omega``: ``_hessenberg_omega``
    run backwards."""
    n = h.shape[-1]
    m = np.array(m, dtype=np.result_type(h, m))
    g = np.zeros((n, n), m.dtype)
    for j in range(n - 2, -1, -1):
        s = slice(j + 1, n)
        g_r = np.zeros(n - j - 1, m.dtype)
        g_r[1:] = (m[j + 2 :, j + 1] - np.conj(m[j + 1, j + 2 :])) / np.conj(h[j + 1, j])
        if np.iscomplexobj(m):
            g_r[0] = 1j * np.imag(m[j + 1, j + 1]) / np.real(h[j + 1, j])
        g[s, j] += g_r
        m[s, : j + 1] -= np.outer(g_r, np.conj(h[: j + 1, j]))
        m[:, j] += mH(h[s, :]) @ g_r
    return g


def _hessenberg(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    require_square_matrix("scipy.linalg.hessenberg", a)
    if a.shape[0] <= 2:
        return a.copy(), np.eye(a.shape[0])
    return sla.hessenberg(a, calc_q=True, check_finite=False)


def _require_unreduced(h: np.ndarray) -> None:
    if h.shape[0] > 2 and np.any(np.diagonal(h, -1) == 0):
        raise ValueError(
            "scipy.linalg.hessenberg: H has a zero subdiagonal entry (a reduced Hessenberg "
            "matrix), where Q is not determined by the matrix; no derivative there"
        )


@rrule.register(sla.hessenberg)
def _hessenberg_rrule(a, calc_q=False, *, check_finite=True):
    project_a = ProjectTo(a)
    h, q = _hessenberg(a)

    def hessenberg_pullback(dy):
        g_h, g_q = (
            output_fields(dy, ("H", "Q"), (h, q), sla.hessenberg) if calc_q else (dy, ZERO_TANGENT)
        )
        g_h = np.triu(densify(g_h, h), -1)
        if h.shape[0] <= 2:
            return NO_TANGENT, project_a(g_h)
        _require_unreduced(h)
        m = mH(h) @ g_h - g_h @ mH(h) + mH(q) @ densify(g_q, q)
        g_c = g_h + _hessenberg_omega_adjoint(h, m)
        return NO_TANGENT, project_a(q @ g_c @ mH(q))

    return ((h, q) if calc_q else h), hessenberg_pullback


@frule.register(sla.hessenberg)
def _hessenberg_frule(tangents, a, calc_q=False, *, check_finite=True):
    h, q = _hessenberg(a)
    y = (h, q) if calc_q else h
    da = tangents[1]
    if is_zero(da):
        return y, da
    if h.shape[0] <= 2:
        dh, dq = np.asarray(da), np.zeros_like(q)
    else:
        _require_unreduced(h)
        c = mH(q) @ da @ q
        om = _hessenberg_omega(h, c)
        dh, dq = np.triu(c - om @ h + h @ om, -1), q @ om
    dh = ProjectTo(h)(dh)
    return y, (Tangent(tuple, dh, ProjectTo(q)(dq)) if calc_q else dh)


# ---- matrix_balance -----------------------------------------------------------------------


def _matrix_balance(a: Any, permute: bool, scale: bool, separate: bool) -> tuple:
    """SciPy's result (``B`` recomputed from ``a`` for tracked values), ``s`` and ``p``, with
    ``B[k, l] = A[p_k, p_l] s_l / s_k``."""
    plain = a if is_numpy(a) else np.asarray(ignore_derivatives(a))
    require_square_matrix("scipy.linalg.matrix_balance", plain)
    b, (s, p) = sla.matrix_balance(plain, permute=permute, scale=scale, separate=True)
    if plain is not a:
        b = a[np.ix_(p, p)] * (s[None, :] / s[:, None])
    if separate:
        return (b, (s, p)), s, p
    return (b, sla.matrix_balance(plain, permute=permute, scale=scale)[1]), s, p


@rrule.register(sla.matrix_balance)
def _matrix_balance_rrule(A, permute=True, scale=True, separate=False):
    project_a = ProjectTo(A)
    result, s, p = _matrix_balance(A, permute, scale, separate)
    inverse = np.argsort(p)
    ratio = s[None, :] / s[:, None]

    def matrix_balance_pullback(dy):
        g_b = output_fields(dy, ("B", "T"), result, sla.matrix_balance)[0]
        return NO_TANGENT, project_a((g_b * ratio)[np.ix_(inverse, inverse)])

    return result, matrix_balance_pullback


@frule.register(sla.matrix_balance)
def _matrix_balance_frule(tangents, A, permute=True, scale=True, separate=False):
    result, s, p = _matrix_balance(A, permute, scale, separate)
    da = tangents[1]
    if is_zero(da):
        return result, ZERO_TANGENT
    db = da[np.ix_(p, p)] * (s[None, :] / s[:, None])
    return result, Tangent(tuple, ProjectTo(result[0])(db), NO_TANGENT)


# ---- cdf2rdf ------------------------------------------------------------------------------


def _conjugate_pairs(w: Any) -> tuple[np.ndarray, np.ndarray]:
    """``(both, u)``: a mask with ones at ``(j, k)`` and ``(k, j)`` for each conjugate pair
    ``(j, k)``, and SciPy's constant complex matrix ``u`` with ``vr = Re(v u)``."""
    require_numpy(sla.cdf2rdf, w)  # the pairs are found with NumPy: adapters use the host
    if w.ndim != 1:
        raise ValueError("scipy.linalg.cdf2rdf: the rule takes one set of eigenpairs (no stacks)")
    n = w.shape[0]
    # Comparisons give plain booleans, on tracked values too.
    index = np.flatnonzero(np.asarray(array_namespace(w).imag(w) != 0))
    j, k = index[0::2], index[1::2]
    both = np.zeros((n, n))
    both[j, k] = both[k, j] = 1.0
    u = np.eye(n, dtype=complex)
    u[j, j], u[j, k], u[k, j], u[k, k] = 0.5j, 0.5, -0.5j, 0.5
    return both, u


def _cdf2rdf_map(w: Any, v: Any, both: np.ndarray, u: np.ndarray) -> tuple[Any, Any]:
    """``cdf2rdf`` for a fixed pairing, a linear map of ``(w, v)`` (zeros pass through)."""
    wr: Any = ZERO_TANGENT
    vr: Any = ZERO_TANGENT
    if not is_zero(w):
        xp = array_namespace(w)
        wr = diag_embed(xp.real(w)) + both * xp.imag(w)[:, None]
    if not is_zero(v):
        xp = array_namespace(v)
        vr = xp.real(xp.matmul(v, xp.asarray(u)))
    return wr, vr


@rrule.register(sla.cdf2rdf)
def _cdf2rdf_rrule(w, v):
    project_w, project_v = ProjectTo(w), ProjectTo(v)
    both, u = _conjugate_pairs(w)
    numpy = is_numpy(w, v)
    result = sla.cdf2rdf(w, v) if numpy else _cdf2rdf_map(w, v, both, u)

    def cdf2rdf_pullback(dy):
        g_wr, g_vr = output_fields(dy, ("wr", "vr"), result, sla.cdf2rdf)
        g_w: Any = ZERO_TANGENT
        g_v: Any = ZERO_TANGENT
        if not is_zero(g_wr):
            xp = array_namespace(g_wr)
            g_wr = xp.real(g_wr) if is_complex(g_wr) else g_wr
            g_w = xp.linalg.diagonal(g_wr) + 1j * xp.sum(both * g_wr, axis=1)
        if not is_zero(g_vr):
            xp = array_namespace(g_vr)
            g_vr = xp.real(g_vr) if is_complex(g_vr) else g_vr
            g_v = xp.matmul(g_vr, xp.asarray(mH(u)))
        return NO_TANGENT, project_w(g_w), project_v(g_v)

    return result, cdf2rdf_pullback


@frule.register(sla.cdf2rdf)
def _cdf2rdf_frule(tangents, w, v):
    both, u = _conjugate_pairs(w)
    numpy = is_numpy(w, v)
    wr, vr = result = sla.cdf2rdf(w, v) if numpy else _cdf2rdf_map(w, v, both, u)
    d_wr, d_vr = _cdf2rdf_map(tangents[1], tangents[2], both, u)
    return result, Tangent(tuple, ProjectTo(wr)(d_wr), ProjectTo(vr)(d_vr))


# ---- rsf2csf ------------------------------------------------------------------------------


def _rsf_blocks(t: np.ndarray) -> list[int]:
    """The rows ``m`` whose subdiagonal entry ``T[m, m-1]`` opens a 2x2 block, as SciPy
    decides (relative to machine epsilon)."""
    eps = np.finfo(float).eps
    n = t.shape[0]
    found = [
        m for m in range(1, n) if abs(t[m, m - 1]) > eps * (abs(t[m - 1, m - 1]) + abs(t[m, m]))
    ]
    if any(m + 1 in found for m in found):
        raise ValueError(
            "scipy.linalg.rsf2csf: T is not in real Schur form (overlapping 2x2 blocks)"
        )
    return found


def _rotation(block: np.ndarray, lam: complex, d_block: np.ndarray | None = None) -> np.ndarray:
    """SciPy's rotation ``G^H`` for the real block ``[[a, b], [c, d]]`` whose eigenvalue
    ``lam`` it moves up, or (with ``d_block``) its tangent along ``d_block``."""
    a, b, c, d = block.ravel()
    mu = lam - d
    r = np.sqrt(abs(mu) ** 2 + c * c)
    cs, sn = mu / r, c / r
    if d_block is None:
        return np.array([[cs, -sn], [sn, np.conj(cs)]])
    da, db, dc, dd = d_block.ravel()
    gap = 2 * lam - (a + d)
    if gap == 0:
        raise ValueError(
            "scipy.linalg.rsf2csf: a 2x2 block with a repeated eigenvalue has no derivative"
        )
    d_lam = (lam * (da + dd) - (a * dd + d * da - b * dc - c * db)) / gap
    d_mu = d_lam - dd
    dr = (np.real(np.conj(mu) * d_mu) + c * dc) / r
    d_cs, d_sn = d_mu / r - mu * dr / r**2, dc / r - c * dr / r**2
    return np.array([[d_cs, -d_sn], [d_sn, np.conj(d_cs)]])


class _Rotations:
    """The unitary ``U`` of ``rsf2csf(T, Z) = (U^H T_q U + T_low, Z U)``, with ``T_q`` the
    quasi-triangular part of ``T`` that the rotations act on and ``T_low`` its part below
    the subdiagonal, which passes through."""

    def __init__(self, t: np.ndarray, t_out: np.ndarray) -> None:
        if np.iscomplexobj(t):
            raise ValueError("scipy.linalg.rsf2csf: T must be real (a real Schur form)")
        n = t.shape[0]
        self.blocks = _rsf_blocks(t)
        self.t = t
        self.lams = {m: t_out[m - 1, m - 1] for m in self.blocks}
        self.u = np.eye(n, dtype=t_out.dtype)
        for m in self.blocks:
            self.u[m - 1 : m + 1, m - 1 : m + 1] = _rotation(self._block(t, m), self.lams[m])
        self.low = np.tril(np.ones((n, n), bool), -2)
        self.quasi = ~self.low & ~np.eye(n, k=-1, dtype=bool)
        for m in self.blocks:
            self.quasi[m, m - 1] = True

    @staticmethod
    def _block(x: np.ndarray, m: int) -> np.ndarray:
        return x[m - 1 : m + 1, m - 1 : m + 1]

    def tangent(self, dt: np.ndarray) -> np.ndarray:
        """``dU`` along ``dT``."""
        du = np.zeros_like(self.u)
        for m in self.blocks:
            block, d_block = self._block(self.t, m), self._block(dt, m)
            du[m - 1 : m + 1, m - 1 : m + 1] = _rotation(block, self.lams[m], d_block)
        return du

    def cotangent(self, g_u: np.ndarray) -> np.ndarray:
        """The cotangent of ``T`` from that of ``U``, block by block (4 directions each)."""
        g_t = np.zeros(self.t.shape)
        for m in self.blocks:
            block, g_block = self._block(self.t, m), self._block(g_u, m)
            for e in range(4):
                unit = np.zeros(4)
                unit[e] = 1.0
                tangent = _rotation(block, self.lams[m], unit.reshape(2, 2))
                g_t[m - 1 + e // 2, m - 1 + e % 2] += np.real(np.vdot(g_block, tangent))
        return g_t


@rrule.register(sla.rsf2csf)
def _rsf2csf_rrule(T, Z, *, check_finite=True):
    project_t, project_z = ProjectTo(T), ProjectTo(Z)
    require_square_matrix("scipy.linalg.rsf2csf", T, Z)
    t_out, z_out = result = sla.rsf2csf(T, Z, check_finite=False)
    rot = _Rotations(T, t_out)
    u, t_q = rot.u, np.where(rot.quasi, T, 0)

    def rsf2csf_pullback(dy):
        g_t, g_z = output_fields(dy, ("T", "Z"), result, sla.rsf2csf)
        g_t, g_z = densify(g_t, t_out), densify(g_z, z_out)
        g_up = np.triu(g_t)
        g_u = t_q @ u @ mH(g_up) + t_q.T @ u @ g_up + mH(Z) @ g_z
        g_tq = np.where(rot.quasi, u @ g_up @ mH(u), 0) + rot.cotangent(g_u)
        return NO_TANGENT, project_t(g_tq + np.where(rot.low, g_t, 0)), project_z(g_z @ mH(u))

    return result, rsf2csf_pullback


@frule.register(sla.rsf2csf)
def _rsf2csf_frule(tangents, T, Z, *, check_finite=True):
    require_square_matrix("scipy.linalg.rsf2csf", T, Z)
    t_out, z_out = result = sla.rsf2csf(T, Z, check_finite=False)
    dt, dz = tangents[1], tangents[2]
    if is_zero(dt) and is_zero(dz):
        return result, ZERO_TANGENT
    rot = _Rotations(T, t_out)
    u = rot.u
    dt, dz = densify(dt, T), densify(dz, Z)
    du = rot.tangent(dt)
    t_q, dt_q = np.where(rot.quasi, T, 0), np.where(rot.quasi, dt, 0)
    d_out = mH(du) @ t_q @ u + mH(u) @ dt_q @ u + mH(u) @ t_q @ du
    d_out = np.triu(d_out) + np.where(rot.low, dt, 0)
    return result, Tangent(tuple, ProjectTo(t_out)(d_out), ProjectTo(z_out)(dz @ u + Z @ du))
