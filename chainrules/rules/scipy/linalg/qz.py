"""Rules for ``scipy.linalg``'s generalized Schur decompositions: qz and ordqz.

As for the other condensed forms (``condensed_forms``), the factors are differentiated
through ``Q^H dQ`` and ``Z^H dZ``, which the zeros of the triangular factors determine:

* ``qz``: ``A = Q AA Z^H``, ``B = Q BB Z^H``. For triangular ``AA``, ``BB`` the pivots of
  the recursion are ``AA_ii BB_jj - AA_jj BB_ii``: the generalized eigenvalues must be
  distinct. The diagonal of ``BB`` keeps its phase (LAPACK's is real, non-negative); a
  common phase of the ``j``-th columns of ``Q`` and ``Z`` is a gauge that ``(A, B)`` does
  not fix, so losses are assumed not to depend on it (complex output). LAPACK's real form
  with 2x2 blocks (complex pairs: ``AA`` full there, ``BB`` diagonal there) is solved as one
  dense real system of order ``n (n - 1)``, for moderate ``n``.
* ``ordqz``: the reordering that ``sort`` selects is locally constant: ``qz``'s derivative
  at the reordered factors, ``alpha`` and ``beta`` their diagonals. Real output with 2x2
  blocks has no rule (their ``alpha``, ``beta`` follow LAPACK's internal scaling).

Single-precision factors are accurate to their rounding only, and the derivative amplifies that
error by the inverse gaps between eigenvalues (a relative 1e-4 and more at moderate gaps), however
precisely it is then computed. So for float32 and complex64 input the factors are first refined by
Newton's method in double precision, to the exact generalized Schur form of the input nearest
them (LAPACK's signs and ordering kept); the derivative, computed from those, is rounded once, to
the input's precision, when it is projected.

The rules call LAPACK on NumPy arrays (one matrix pair, no stacks), so their pullbacks are not
differentiable again by an engine.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> a, b = np.array([[2.0, 1.0], [0.0, 3.0]]), np.eye(2)
>>> (aa, bb, q, z), pullback = rrule(scipy.linalg.qz, a, b, output="complex")
>>> sorted(np.round(np.abs(np.diag(aa) / np.diag(bb)), 12).tolist())
[2.0, 3.0]
"""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import densify, is_zero
from ...matrices import mH, output_fields
from .condensed_forms import require_square_matrix

__all__: list[str] = []


# ---- triangular generalized Sylvester systems ---------------------------------------------


def _pair_solve(aa: np.ndarray, bb: np.ndarray, ra: np.ndarray, rb: np.ndarray) -> tuple:
    """Strictly lower ``(X, Y)`` with ``low(X aa - aa Y) = low(ra)`` and
    ``low(X bb - bb Y) = low(rb)``, for upper triangular ``aa``, ``bb``; column by column,
    each column a triangular solve with pivots ``aa_jj bb_ii - bb_jj aa_ii``."""
    n = aa.shape[-1]
    dtype = np.result_type(aa, bb, ra, rb)
    x, y = np.zeros((n, n), dtype), np.zeros((n, n), dtype)
    for j in range(n - 1):
        s = slice(j + 1, n)
        r_a = ra[s, j] - x[s, :j] @ aa[:j, j]
        r_b = rb[s, j] - x[s, :j] @ bb[:j, j]
        a_jj, b_jj = aa[j, j], bb[j, j]
        y_j = sla.solve_triangular(a_jj * bb[s, s] - b_jj * aa[s, s], b_jj * r_a - a_jj * r_b)
        weight = abs(a_jj) ** 2 + abs(b_jj) ** 2
        x[s, j] = (
            np.conj(a_jj) * (r_a + aa[s, s] @ y_j) + np.conj(b_jj) * (r_b + bb[s, s] @ y_j)
        ) / weight
        y[s, j] = y_j
    return x, y


def _pair_solve_adjoint(aa: np.ndarray, bb: np.ndarray, gx: np.ndarray, gy: np.ndarray) -> tuple:
    """The adjoint solve of ``_pair_solve``: strictly lower ``(La, Lb)`` with
    ``low(La aa^H + Lb bb^H) = low(gx)`` and ``low(aa^H La + bb^H Lb) = -low(gy)``, row by
    row."""
    n = aa.shape[-1]
    dtype = np.result_type(aa, bb, gx, gy)
    la, lb = np.zeros((n, n), dtype), np.zeros((n, n), dtype)
    for i in range(1, n):
        s = slice(0, i)
        r2 = -gy[i, s] - np.conj(aa[s, i]) @ la[s, s] - np.conj(bb[s, i]) @ lb[s, s]
        k = aa[i, i] * bb[s, s] - bb[i, i] * aa[s, s]
        rhs_a = np.conj(bb[i, i]) * gx[i, s] - r2 @ mH(bb[s, s])
        rhs_b = np.conj(aa[i, i]) * gx[i, s] - r2 @ mH(aa[s, s])
        la[i, s] = -np.conj(sla.solve_triangular(k, np.conj(rhs_a)))
        lb[i, s] = np.conj(sla.solve_triangular(k, np.conj(rhs_b)))
    return la, lb


# ---- qz, ordqz ----------------------------------------------------------------------------


def _zero_patterns(aa: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The entries that the generalized Schur form with this ``AA`` keeps zero, in ``AA`` and
    in ``BB``: below the diagonal, but for ``AA``'s 2x2 blocks, where ``BB`` is diagonal."""
    n = aa.shape[0]
    lower = np.tril(np.ones((n, n), dtype=bool), -1)
    blocks = np.diag(np.diagonal(aa, -1) != 0, -1)
    return lower & ~blocks, lower | blocks.T


class _GeneralizedSchur:
    """The derivative of ``A = Q AA Z^H``, ``B = Q BB Z^H`` (see the module docstring).

    ``Omega_Q = X - X^H`` and ``Omega_Z = Y - Y^H`` (``X``, ``Y`` strictly lower) cancel the
    entries of ``dAA`` and ``dBB`` that the form keeps zero. For triangular ``AA`` that is a
    triangular system (``_pair_solve``); LAPACK's real form with 2x2 blocks (``AA`` full
    there, ``BB`` diagonal there) is solved as one dense real system of order ``n (n - 1)``,
    so for moderate ``n``.
    """

    def __init__(self, aa: np.ndarray, bb: np.ndarray, q: np.ndarray, z: np.ndarray) -> None:
        self.aa, self.bb, self.q, self.z = aa, bb, q, z
        n = aa.shape[0]
        lower = np.tril(np.ones((n, n), dtype=bool), -1)
        self.zero_a, self.zero_b = _zero_patterns(aa)
        self.lu: Any = None
        if np.any(lower & ~self.zero_a):
            self.lower = np.nonzero(lower)
            columns = []
            for sign, side in ((1.0, "left"), (-1.0, "right")):
                for i, j in zip(*self.lower, strict=True):
                    w = np.zeros((n, n))
                    w[i, j], w[j, i] = sign, -sign
                    wa, wb = (w @ aa, w @ bb) if side == "left" else (aa @ w, bb @ w)
                    columns.append(np.concatenate((wa[self.zero_a], wb[self.zero_b])))
            self.lu = sla.lu_factor(np.stack(columns, axis=1))

    def _omegas(self, ca: np.ndarray, cb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.lu is None:
            x, y = _pair_solve(self.aa, self.bb, np.tril(ca, -1), np.tril(cb, -1))
        else:
            xy = sla.lu_solve(self.lu, np.concatenate((ca[self.zero_a], cb[self.zero_b])))
            x, y = np.zeros_like(self.aa), np.zeros_like(self.aa)
            x[self.lower], y[self.lower] = np.split(xy, 2)
        return x - mH(x), y - mH(y)

    def _omegas_adjoint(self, gx: np.ndarray, gy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        if self.lu is None:
            return _pair_solve_adjoint(self.aa, self.bb, np.tril(gx, -1), np.tril(gy, -1))
        lam = sla.lu_solve(self.lu, np.concatenate((gx[self.lower], gy[self.lower])), trans=1)
        la, lb = np.zeros_like(self.aa), np.zeros_like(self.aa)
        la[self.zero_a], lb[self.zero_b] = np.split(lam, [np.count_nonzero(self.zero_a)])
        return la, lb

    def pushforward(self, da: Any, db: Any) -> tuple:
        """``(dAA, dBB, dQ, dZ)`` along ``(dA, dB)``."""
        aa, bb, q, z = self.aa, self.bb, self.q, self.z
        ca, cb = mH(q) @ densify(da, aa) @ z, mH(q) @ densify(db, bb) @ z
        om_q, om_z = self._omegas(ca, cb)
        daa, dbb = ca - om_q @ aa + aa @ om_z, cb - om_q @ bb + bb @ om_z
        if np.iscomplexobj(dbb):  # BB's diagonal keeps its phase: Omega_Z gets a diagonal
            phase = 1j * _phase_step(np.diagonal(bb), np.diagonal(dbb))
            daa, dbb, om_z = daa + aa * phase, dbb + bb * phase, om_z + np.diag(phase)
        daa, dbb = np.where(self.zero_a, 0, daa), np.where(self.zero_b, 0, dbb)
        return daa, dbb, q @ om_q, z @ om_z

    def pullback(self, g_aa: Any, g_bb: Any, g_q: Any, g_z: Any) -> tuple:
        """``(gA, gB)`` from the cotangents of ``(AA, BB, Q, Z)``."""
        aa, bb, q, z = self.aa, self.bb, self.q, self.z
        g_aa = np.where(self.zero_a, 0, densify(g_aa, aa))
        g_bb = np.where(self.zero_b, 0, densify(g_bb, bb))
        g_q, g_z = densify(g_q, q), densify(g_z, z)
        if np.iscomplexobj(g_bb) or np.iscomplexobj(bb):
            m_z = mH(aa) @ g_aa + mH(bb) @ g_bb + mH(z) @ g_z
            d, size = np.diagonal(bb), np.abs(np.diagonal(bb)) ** 2
            step = -1j * np.imag(np.diagonal(m_z)) * d / np.where(size > 0, size, 1.0)
            g_bb = g_bb + np.diag(np.where(size > 0, step, 0))
        m_q = mH(q) @ g_q - g_aa @ mH(aa) - g_bb @ mH(bb)
        m_z = mH(z) @ g_z + mH(aa) @ g_aa + mH(bb) @ g_bb
        la, lb = self._omegas_adjoint(m_q - mH(m_q), m_z - mH(m_z))
        return q @ (g_aa + la) @ mH(z), q @ (g_bb + lb) @ mH(z)


def _unitary_part(q: np.ndarray) -> np.ndarray:
    """The unitary factor of ``q``'s QR factorization, with the signs (phases) that keep it
    next to a nearly unitary ``q``."""
    u, r = np.linalg.qr(q)
    d = np.diagonal(r)
    return u * np.where(d != 0, d / np.where(d != 0, np.abs(d), 1), 1)


def _cayley(omega: np.ndarray) -> np.ndarray:
    """``(I - omega / 2)^-1 (I + omega / 2)``: unitary for skew-Hermitian ``omega``, and
    ``I + omega`` to first order."""
    eye = np.eye(omega.shape[0], dtype=omega.dtype)
    return np.linalg.solve(eye - omega / 2, eye + omega / 2)


# Newton's method doubles the correct digits per step: from single precision, two steps reach
# double precision unless eigenvalues are close, and a third covers part of that.
_NEWTON_STEPS = 3


def _generalized_schur(a: Any, b: Any, aa: Any, bb: Any, q: Any, z: Any) -> _GeneralizedSchur:
    """The derivative of LAPACK's generalized Schur form ``(aa, bb, q, z)`` of ``(a, b)``.

    Factors in double precision are used as they are. Narrower ones are refined first: Newton
    steps ``Q <- Q cayley(Omega_Q)``, ``Z <- Z cayley(Omega_Z)`` with the skew-Hermitian
    ``Omega``s that cancel, to first order, the entries that the form keeps zero (the same
    system as the derivative's), while that residual falls. Complex ``BB`` then gets its real
    diagonal back by a phase of each column of ``Z``.

    >>> import numpy as np
    >>> import scipy.linalg
    >>> a, b = np.array([[2.0, 1.0], [0.5, 3.0]], np.float32), np.eye(2, dtype=np.float32)
    >>> schur = _generalized_schur(a, b, *scipy.linalg.qz(a, b))
    >>> schur.q.dtype, float(abs(schur.q @ schur.aa @ schur.z.T - a).max()) < 1e-14
    (dtype('float64'), True)
    """
    wide = np.promote_types(aa.dtype, np.float64)
    if aa.dtype == wide:
        return _GeneralizedSchur(aa, bb, q, z)
    zero_a, zero_b = _zero_patterns(aa)
    a, b = np.asarray(a, wide), np.asarray(b, wide)
    q, z = _unitary_part(q.astype(wide)), _unitary_part(z.astype(wide))

    def form(q: np.ndarray, z: np.ndarray) -> tuple:
        ma, mb = mH(q) @ a @ z, mH(q) @ b @ z
        residual = max(np.max(np.abs(ma[zero_a]), initial=0), np.max(np.abs(mb[zero_b]), initial=0))
        return residual, ma, mb, q, z

    rounding = 8 * a.shape[0] * np.finfo(wide).eps * max(np.abs(a).max(), np.abs(b).max())
    best = form(q, z)
    for _ in range(_NEWTON_STEPS):
        residual, ma, mb, q, z = best
        if residual <= rounding:
            break
        aa, bb = np.where(zero_a, 0, ma), np.where(zero_b, 0, mb)
        # Repeated eigenvalues make the system singular: the derivative does not exist, and
        # the forward pass keeps the factors it has (the pullback reports the singularity).
        try:
            with np.errstate(all="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", sla.LinAlgWarning)
                om_q, om_z = _GeneralizedSchur(aa, bb, q, z)._omegas(ma, mb)
                trial = form(q @ _cayley(om_q), z @ _cayley(om_z))
        except np.linalg.LinAlgError:
            break
        if not trial[0] < residual:
            break
        best = trial
    _, ma, mb, q, z = best
    if np.iscomplexobj(mb):
        d = np.diagonal(mb)
        size = np.abs(d)
        phase = np.where(size > 0, np.conj(d) / np.where(size > 0, size, 1), 1)
        ma, mb, z = ma * phase, mb * phase, z * phase
    return _GeneralizedSchur(np.where(zero_a, 0, ma), np.where(zero_b, 0, mb), q, z)


def _phase_step(d: np.ndarray, dd: np.ndarray) -> np.ndarray:
    """``phi`` with ``Im(conj(d) (dd + i phi d)) = 0``, zero where ``d`` is."""
    size = np.abs(d) ** 2
    safe = np.where(size > 0, size, 1.0)
    return np.where(size > 0, -np.imag(np.conj(d) * dd) / safe, 0.0)


@rrule.register(sla.qz)
def _qz_rrule(A, B, output="real", lwork=None, sort=None, *, check_finite=True):
    require_square_matrix("scipy.linalg.qz", A, B)
    project_a, project_b = ProjectTo(A), ProjectTo(B)
    result = sla.qz(A, B, output=output, lwork=lwork, sort=sort, check_finite=False)
    schur = _generalized_schur(A, B, *result)

    def qz_pullback(dy):
        g = output_fields(dy, ("AA", "BB", "Q", "Z"), result, sla.qz)
        g_a, g_b = schur.pullback(*g)
        return NO_TANGENT, project_a(g_a), project_b(g_b)

    return result, qz_pullback


@frule.register(sla.qz)
def _qz_frule(tangents, A, B, output="real", lwork=None, sort=None, *, check_finite=True):
    require_square_matrix("scipy.linalg.qz", A, B)
    result = sla.qz(A, B, output=output, lwork=lwork, sort=sort, check_finite=False)
    da, db = tangents[1], tangents[2]
    if is_zero(da) and is_zero(db):
        return result, ZERO_TANGENT
    parts = _generalized_schur(A, B, *result).pushforward(da, db)
    return result, Tangent(tuple, *(ProjectTo(p)(d) for p, d in zip(result, parts, strict=True)))


def _ordqz(a: Any, b: Any, sort: Any, output: str) -> tuple:
    require_square_matrix("scipy.linalg.ordqz", a, b)
    result = sla.ordqz(a, b, sort=sort, output=output, check_finite=False)
    if np.any(np.diagonal(result[0], -1) != 0):
        raise ValueError(
            "scipy.linalg.ordqz(output='real') of a pencil with complex eigenvalues: alpha "
            "and beta of its 2x2 blocks follow LAPACK's internal scaling and have no rule; "
            "use output='complex'"
        )
    aa, bb, _, _, q, z = result
    return result, _generalized_schur(a, b, aa, bb, q, z)


@rrule.register(sla.ordqz)
def _ordqz_rrule(A, B, sort="lhp", output="real", *, check_finite=True):
    project_a, project_b = ProjectTo(A), ProjectTo(B)
    result, schur = _ordqz(A, B, sort, output)

    def ordqz_pullback(dy):
        g_aa, g_bb, g_alpha, g_beta, g_q, g_z = output_fields(
            dy, ("AA", "BB", "alpha", "beta", "Q", "Z"), result, sla.ordqz
        )
        g_aa, g_bb = densify(g_aa, schur.aa), densify(g_bb, schur.bb)
        if not is_zero(g_alpha):
            g_aa = g_aa + np.diag(g_alpha if np.iscomplexobj(schur.aa) else np.real(g_alpha))
        if not is_zero(g_beta):
            g_bb = g_bb + np.diag(g_beta)
        g_a, g_b = schur.pullback(g_aa, g_bb, g_q, g_z)
        return NO_TANGENT, project_a(g_a), project_b(g_b)

    return result, ordqz_pullback


@frule.register(sla.ordqz)
def _ordqz_frule(tangents, A, B, sort="lhp", output="real", *, check_finite=True):
    result, schur = _ordqz(A, B, sort, output)
    da, db = tangents[1], tangents[2]
    if is_zero(da) and is_zero(db):
        return result, ZERO_TANGENT
    daa, dbb, dq, dz = schur.pushforward(da, db)
    alpha = result[2]
    parts = (daa, dbb, np.diagonal(daa).astype(alpha.dtype), np.diagonal(dbb), dq, dz)
    return result, Tangent(tuple, *(ProjectTo(p)(d) for p, d in zip(result, parts, strict=True)))
