"""Rules for ``scipy.linalg.ldl``: the Bunch-Kaufman factorization of a Hermitian or
symmetric matrix.

``ldl(A)``: ``A = lu d lu^H`` (``lu^T`` when ``hermitian=False``), ``L = lu[perm]`` unit
triangular with identity blocks where ``d`` has 2x2 pivots. Bunch-Kaufman pivoting is
locally constant, so with ``P A P^T = L D L^H`` and ``F = L^{-1} P dA P^T L^{-H}``,
``dD`` is the block diagonal of ``F`` and ``dL = L F_low D^{-1}``, ``F_low`` the part of
``F`` strictly below the diagonal blocks (above for ``lower=False``). Only the triangle
that ``ldl`` reads is differentiated.

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
    lower_hermitian,
    lower_hermitian_cotangent,
    lower_symmetric,
    lower_symmetric_cotangent,
    mH,
    output_fields,
)

__all__: list[str] = []


# ---- ldl ----------------------------------------------------------------------------------


class _LDL:
    """``P S P^T = L D L^*`` for the matrix ``S`` that ``ldl`` reads (``* = H``, or ``T``
    for ``hermitian=False`` complex), with the masks of ``D``'s blocks."""

    def __init__(self, a: np.ndarray, lower: bool, hermitian: bool) -> None:
        require_numpy(sla.ldl, a)  # other arrays: the adapters' NumPy copies
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
        if not is_zero(g_d):
            g_f = g_f + np.where(self.blocks, g_d, 0)
        if not is_zero(g_lu):
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
def _ldl_rrule(A, lower=True, hermitian=True, *, check_finite=True):
    project_a = ProjectTo(A)
    ldl = _LDL(A, lower, hermitian)

    def ldl_pullback(dy):
        g_lu, g_d, _ = output_fields(dy, ("lu", "d", "perm"), ldl.result, sla.ldl)
        return NO_TANGENT, project_a(ldl.pullback(g_lu, g_d))

    return ldl.result, ldl_pullback


@frule.register(sla.ldl)
def _ldl_frule(tangents, A, lower=True, hermitian=True, *, check_finite=True):
    ldl = _LDL(A, lower, hermitian)
    lu, d, _ = ldl.result
    da = tangents[1]
    if is_zero(da):
        return ldl.result, ZERO_TANGENT
    d_lu, d_d = ldl.pushforward(da)
    return ldl.result, Tangent(tuple, ProjectTo(lu)(d_lu), ProjectTo(d)(d_d), NO_TANGENT)
