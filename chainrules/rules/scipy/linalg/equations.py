"""Rules for ``scipy.linalg``'s matrix equations (solve_sylvester, solve_continuous_lyapunov,
solve_discrete_lyapunov) and for ``schur``, whose derivative solves one.

Each equation is linear in its unknown, ``S(X) = Q``, so ``dX = S^{-1}(dQ - dS(X))`` and the
pullback solves the adjoint equation once, ``S^*(L) = G``, which is an equation of the same
kind with ``A^H`` (and ``B^H``):

* Sylvester ``A X + X B = Q``: ``A^H L + L B^H = G``; ``g_Q = L``, ``g_A = -L X^H``,
  ``g_B = -X^H L``.
* continuous Lyapunov ``A X + X A^H = Q``: ``A^H L + L A = G``; ``g_A = -(L X^H + L^H X)``.
* discrete Lyapunov ``A X A^H - X + Q = 0``: ``L - A^H L A = G``; ``g_A = L A X^H + L^H A X``.

``schur(a, output='complex')`` gives ``a = Z T Z^H`` with ``T`` upper triangular. With
``Omega = Z^H dZ`` skew-Hermitian (its diagonal, a gauge, set to zero), the strictly lower
part of ``Z^H da Z = dT + Omega T - T Omega`` determines the strictly lower part of
``Omega`` through a triangular Sylvester system, solved here as one linear system of size
``n (n - 1) / 2`` (so for moderate ``n``); then ``dZ = Z Omega`` and ``dT`` is the upper part.
The real Schur form is covered where it is triangular (real eigenvalues); its 2x2 blocks of
complex pairs have no rule (use ``output='complex'``). ``sort`` is not supported. The phases
of the Schur vectors are a gauge: losses are assumed not to depend on them.

The equations' rules call SciPy's solvers as ``call(f, ...)`` (``chainrules.core.calls``), so
on an engine's tracked values the solver's own rule applies and pullbacks differentiate again.
``schur``'s rule takes NumPy arrays only and has no second derivative: the decomposition is
SciPy's compiled routine and its pullback solves with the factors in place.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> x, pullback = rrule(scipy.linalg.solve_sylvester, np.eye(2), np.eye(2), np.eye(2))
>>> pullback(np.eye(2))[3]
array([[0.5, 0. ],
       [0. , 0.5]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.calls import call
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.zeros import is_zero
from ...matrices import mH, output_fields

__all__: list[str] = []


# ---- solve_sylvester ----------------------------------------------------------------------


@rrule.register(sla.solve_sylvester)
def _solve_sylvester_rrule(a, b, q):
    project_a, project_b, project_q = ProjectTo(a), ProjectTo(b), ProjectTo(q)
    x = call(sla.solve_sylvester, a, b, q)

    def solve_sylvester_pullback(dy):
        lam = call(sla.solve_sylvester, mH(a), mH(b), dy)
        return (
            NO_TANGENT,
            project_a(-lam @ mH(x)),
            project_b(-mH(x) @ lam),
            project_q(lam),
        )

    return x, solve_sylvester_pullback


@frule.register(sla.solve_sylvester)
def _solve_sylvester_frule(tangents, a, b, q):
    x = call(sla.solve_sylvester, a, b, q)
    da, db, dq = tangents[1:]
    rhs: Any = ZERO_TANGENT if is_zero(dq) else dq
    if not is_zero(da):
        rhs = rhs - da @ x
    if not is_zero(db):
        rhs = rhs - x @ db
    if is_zero(rhs):
        return x, rhs
    return x, ProjectTo(x)(call(sla.solve_sylvester, a, b, rhs))


# ---- solve_continuous_lyapunov ------------------------------------------------------------


@rrule.register(sla.solve_continuous_lyapunov)
def _solve_continuous_lyapunov_rrule(a, q):
    project_a, project_q = ProjectTo(a), ProjectTo(q)
    x = call(sla.solve_continuous_lyapunov, a, q)

    def solve_continuous_lyapunov_pullback(dy):
        lam = call(sla.solve_continuous_lyapunov, mH(a), dy)
        return NO_TANGENT, project_a(-(lam @ mH(x) + mH(lam) @ x)), project_q(lam)

    return x, solve_continuous_lyapunov_pullback


@frule.register(sla.solve_continuous_lyapunov)
def _solve_continuous_lyapunov_frule(tangents, a, q):
    x = call(sla.solve_continuous_lyapunov, a, q)
    da, dq = tangents[1:]
    rhs: Any = ZERO_TANGENT if is_zero(dq) else dq
    if not is_zero(da):
        rhs = rhs - da @ x - x @ mH(da)
    if is_zero(rhs):
        return x, rhs
    return x, ProjectTo(x)(call(sla.solve_continuous_lyapunov, a, rhs))


# ---- solve_discrete_lyapunov --------------------------------------------------------------


@rrule.register(sla.solve_discrete_lyapunov)
def _solve_discrete_lyapunov_rrule(a, q, method=None):
    project_a, project_q = ProjectTo(a), ProjectTo(q)
    x = call(sla.solve_discrete_lyapunov, a, q, method=method)

    def solve_discrete_lyapunov_pullback(dy):
        lam = call(sla.solve_discrete_lyapunov, mH(a), dy, method=method)
        da = lam @ a @ mH(x) + mH(lam) @ a @ x
        return NO_TANGENT, project_a(da), project_q(lam)

    return x, solve_discrete_lyapunov_pullback


@frule.register(sla.solve_discrete_lyapunov)
def _solve_discrete_lyapunov_frule(tangents, a, q, method=None):
    x = call(sla.solve_discrete_lyapunov, a, q, method=method)
    da, dq = tangents[1:3]
    rhs: Any = ZERO_TANGENT if is_zero(dq) else dq
    if not is_zero(da):
        rhs = rhs + da @ x @ mH(a) + a @ x @ mH(da)
    if is_zero(rhs):
        return x, rhs
    return x, ProjectTo(x)(call(sla.solve_discrete_lyapunov, a, rhs, method=method))


# ---- schur --------------------------------------------------------------------------------


class _SchurSystem:
    """The map from the strictly lower part of ``Omega`` to that of ``Omega T - T Omega``."""

    def __init__(self, t: np.ndarray) -> None:
        n = t.shape[-1]
        eye = np.eye(n)
        # vec(Omega T - T Omega) = (T^T kron I - I kron T) vec(Omega), vec stacking columns
        full = np.kron(t.T, eye) - np.kron(eye, t)
        rows, cols = np.tril_indices(n, k=-1)
        self.n = n
        self.rows, self.cols = rows, cols
        self.index = cols * n + rows
        self.matrix = full[np.ix_(self.index, self.index)]

    def solve(self, lower: np.ndarray, adjoint: bool = False) -> np.ndarray:
        """The strictly lower ``Omega`` (as a full matrix) with the given lower image."""
        m = mH(self.matrix) if adjoint else self.matrix
        values = np.linalg.solve(m, lower[self.rows, self.cols])
        out = np.zeros((self.n, self.n), dtype=values.dtype)
        out[self.rows, self.cols] = values
        return out


def _schur(a: np.ndarray, output: str) -> tuple[np.ndarray, np.ndarray]:
    if a.ndim != 2:
        # the Sylvester-type system below is built for one matrix at a time
        raise ValueError(
            f"scipy.linalg.schur: the rule takes argument a as one square matrix (no stacks), "
            f"not shape {a.shape}"
        )
    t, z = sla.schur(a, output=output, check_finite=False)
    if np.any(np.tril(t, k=-1) != 0):
        raise ValueError(
            "scipy.linalg.schur(output='real') of a matrix with complex eigenvalues has 2x2 "
            "blocks, which have no rule; use output='complex'"
        )
    return t, z


@rrule.register(sla.schur)
def _schur_rrule(a, output="real", *, check_finite=True):
    project_a = ProjectTo(a)
    t, z = _schur(a, output)
    system = _SchurSystem(t)

    def schur_pullback(dy):
        g_t, g_z = output_fields(dy, ("T", "Z"), (t, z), sla.schur)
        g_t = np.zeros_like(t) if is_zero(g_t) else np.triu(g_t)
        w = -(g_t @ mH(t) - mH(t) @ g_t)
        if not is_zero(g_z):
            w = w + mH(z) @ g_z
        r = np.tril(w - mH(w), k=-1)
        g_c = g_t + system.solve(r, adjoint=True)
        return NO_TANGENT, project_a(z @ g_c @ mH(z))

    return (t, z), schur_pullback


@frule.register(sla.schur)
def _schur_frule(tangents, a, output="real", *, check_finite=True):
    t, z = _schur(a, output)
    da = tangents[1]
    if is_zero(da):
        return (t, z), da
    c = mH(z) @ da @ z
    low = _SchurSystem(t).solve(np.tril(c, k=-1))
    omega = low - mH(low)
    dt = np.triu(c - (omega @ t - t @ omega))
    return (t, z), Tangent(tuple, ProjectTo(t)(dt), ProjectTo(z)(z @ omega))
