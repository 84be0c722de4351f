"""Rules for ``scipy.linalg``'s algebraic Riccati equations: solve_continuous_are and
solve_discrete_are (the standard problems, ``e=None`` and ``s=None``).

By the implicit function theorem at the stabilizing solution ``X``, with the gain ``K`` and
the closed loop ``F = A - B K``, written in Joseph form where ``K`` is stationary (so its own
derivative drops out), the tangent ``dX`` solves a Lyapunov equation with the closed loop:

* continuous, ``A^H X + X A - X B R^{-1} B^H X + Q = 0``, ``K = R^{-1} B^H X``:
  ``F^H dX + dX F + C = 0``;
* discrete, ``X = A^H X A - A^H X B (R + B^H X B)^{-1} B^H X A + Q``,
  ``K = (R + B^H X B)^{-1} B^H X A``: ``dX = F^H dX F + C``;

with ``C = dQ + K^H dR K + dF^H X W + W^H X dF`` and ``dF = dA - dB K``, where ``W`` is the
identity (continuous) or ``F`` (discrete). The pullback solves the adjoint Lyapunov equation
once for ``C_bar`` (``F L + L F^H = G`` or ``L = F L F^H + G``, up to sign), then
``Q_bar = C_bar``, ``R_bar = K C_bar K^H``, ``A_bar = X W (C_bar + C_bar^H)`` and
``B_bar = -A_bar K^H``. SciPy accepts only Hermitian ``q`` and ``r``: their cotangents are
meant for Hermitian tangents and are not symmetrized here.

These rules call SciPy's solvers as ``call(f, ...)`` (``chainrules.core.calls``), so on an
engine's tracked values the solvers' own rules apply and pullbacks differentiate again.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> one = np.ones((1, 1))
>>> x, pullback = rrule(scipy.linalg.solve_continuous_are, 0 * one, one, one, one)
>>> round(float(x[0, 0]), 12), round(float(pullback(one)[3][0, 0]), 12)
(1.0, 0.5)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.calls import call
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import mH

__all__: list[str] = []


def _closed_loop(a: Any, b: Any, r: Any, x: Any, discrete: bool) -> tuple[Any, Any, Any]:
    """``(K, F, W)``: the gain, the closed loop ``A - B K`` and ``W`` (``I`` or ``F``)."""
    if discrete:
        k = np.linalg.solve(r + mH(b) @ x @ b, mH(b) @ x @ a)
    else:
        k = np.linalg.solve(r, mH(b) @ x)
    f = a - b @ k
    return k, f, (f if discrete else np.eye(a.shape[0], dtype=f.dtype))


def _riccati_rrule(solve: Any, discrete: bool, a: Any, b: Any, q: Any, r: Any) -> Any:
    projectors = [ProjectTo(v) for v in (a, b, q, r)]
    x = solve(a, b, q, r)
    k, f, w = _closed_loop(a, b, r, x, discrete)

    def riccati_pullback(dy):
        if discrete:
            c_bar = call(sla.solve_discrete_lyapunov, f, dy)
        else:
            c_bar = -call(sla.solve_continuous_lyapunov, f, dy)
        a_bar = x @ w @ (c_bar + mH(c_bar))
        cotangents = (a_bar, -a_bar @ mH(k), c_bar, k @ c_bar @ mH(k))
        return (NO_TANGENT, *(p(g) for p, g in zip(projectors, cotangents, strict=True)))

    return x, riccati_pullback


def _riccati_frule(solve: Any, discrete: bool, tangents: tuple, a: Any, b: Any, q: Any, r: Any):
    x = solve(a, b, q, r)
    da, db, dq, dr = tangents[1:]
    if all(is_zero(t) for t in (da, db, dq, dr)):
        return x, ZERO_TANGENT
    k, f, w = _closed_loop(a, b, r, x, discrete)
    zero = np.zeros_like(x)
    d_f = (zero if is_zero(da) else da) - (zero if is_zero(db) else db @ k)
    half = mH(d_f) @ x @ w
    c = half + mH(half)
    if not is_zero(dq):
        c = c + dq
    if not is_zero(dr):
        c = c + mH(k) @ dr @ k
    if discrete:
        dx = call(sla.solve_discrete_lyapunov, mH(f), c)
    else:
        dx = call(sla.solve_continuous_lyapunov, mH(f), -c)
    return x, ProjectTo(x)(dx)


@rrule.register(sla.solve_continuous_are)
def _solve_continuous_are_rrule(a, b, q, r, *, balanced=True):
    solve = _solver(sla.solve_continuous_are, balanced)
    return _riccati_rrule(solve, False, a, b, q, r)


@frule.register(sla.solve_continuous_are)
def _solve_continuous_are_frule(tangents, a, b, q, r, *, balanced=True):
    solve = _solver(sla.solve_continuous_are, balanced)
    return _riccati_frule(solve, False, tangents, a, b, q, r)


@rrule.register(sla.solve_discrete_are)
def _solve_discrete_are_rrule(a, b, q, r, *, balanced=True):
    solve = _solver(sla.solve_discrete_are, balanced)
    return _riccati_rrule(solve, True, a, b, q, r)


@frule.register(sla.solve_discrete_are)
def _solve_discrete_are_frule(tangents, a, b, q, r, *, balanced=True):
    solve = _solver(sla.solve_discrete_are, balanced)
    return _riccati_frule(solve, True, tangents, a, b, q, r)


def _solver(f: Any, balanced: bool) -> Any:
    def solve(a: Any, b: Any, q: Any, r: Any) -> Any:
        return call(f, a, b, q, r, balanced=balanced)

    return solve
