"""Rules for ``scipy.linalg.expm_cond``, the relative condition number of ``expm``.

``expm_cond(A) = kappa = ||K||_2 ||A||_F / ||expm(A)||_F``, where ``K`` is the Kronecker form
of the Fréchet derivative ``E -> L(A, E)`` of ``expm`` at ``A`` (``K vec(E) = vec(L(A, E))``).
With ``sigma = ||K||_2`` a simple largest singular value and ``u``, ``v`` its singular vectors
read as matrices ``U``, ``V`` (``vec(U) = u``, ``vec(V) = v``),
``sigma = Re <U, L(A, V)>`` and, by Hellmann-Feynman,

    d sigma = Re <U, L2(A, dA, V)>,

with ``L2`` the second Fréchet derivative: the derivative of ``A -> L(A, V)`` for fixed
``V``, which is ``expm_frechet``'s derivative in its first argument (a block of ``expm`` of
a ``4n x 4n`` block matrix, see ``matrix_functions``). Then
``d kappa / kappa = d sigma / sigma + Re <A, dA> / ||A||_F^2 - Re <X, L(A, dA)> / ||X||_F^2``
with ``X = expm(A)``. Building ``K`` costs ``n^2`` Fréchet derivatives and its SVD ``O(n^6)``,
as SciPy's own evaluation does; the pullback and frule do that work once more. At ``A = 0``
the norm's subgradient ``0`` is used. A repeated ``sigma`` (e.g. a normal ``A`` with equal
eigenvalues) has no derivative; the rules use the singular vectors LAPACK returns.

NumPy inputs only; the second derivative is not available: the Kronecker form, its SVD and
the inner products are computed on NumPy values.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> kappa, pullback = rrule(scipy.linalg.expm_cond, np.diag([1.0, 2.0]))
>>> bool(np.isclose(kappa, scipy.linalg.expm_cond(np.diag([1.0, 2.0]))))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from .matrix_functions import frechet, frechet_adjoint

__all__: list[str] = []


def _inner(a: Any, b: Any) -> float:
    """``Re <a, b>``."""
    return float(np.real(np.sum(np.conj(a) * b)))


def _require_matrix(a: Any) -> None:
    if a.ndim != 2:
        # the Kronecker form of the Fréchet derivative is built for one matrix
        raise ValueError(
            f"scipy.linalg.expm_cond: the rule takes argument A as one square matrix "
            f"(no stacks), not shape {a.shape}"
        )


class _Condition:
    """The quantities of ``kappa = sigma ||A|| / ||X||`` that its derivative needs."""

    def __init__(self, a: Any) -> None:
        n = a.shape[0]
        self.a, self.x = a, sla.expm(a)
        basis = np.eye(n)
        columns = [
            np.reshape(frechet(sla.expm, a, np.outer(basis[i], basis[j])), (-1,), order="F")
            for i in range(n)
            for j in range(n)
        ]
        u, s, vh = np.linalg.svd(np.stack(columns, axis=1))
        self.sigma = s[0]
        # K's rows are vec (column-major) indices, its columns E_ij at i * n + j.
        self.u = np.reshape(u[:, 0], (n, n), order="F")
        self.v = np.reshape(np.conj(vh[0]), (n, n))
        self.a_norm = np.linalg.norm(a)
        self.x_norm = np.linalg.norm(self.x)
        self.kappa = self.sigma * self.a_norm / self.x_norm

    def _a_term(self) -> Any:
        return self.a / self.a_norm**2 if self.a_norm > 0 else np.zeros_like(self.a)

    def gradient(self) -> Any:
        """The gradient of ``kappa`` with respect to ``A``."""
        _, pullback = rrule(sla.expm_frechet, self.a, self.v, compute_expm=False)
        g_sigma = unthunk(pullback(self.u)[1])
        g_x = frechet_adjoint(sla.expm, self.a, self.x)
        return self.kappa * (g_sigma / self.sigma + self._a_term() - g_x / self.x_norm**2)

    def derivative(self, da: Any) -> float:
        """The derivative of ``kappa`` along ``da``."""
        zeros = np.zeros_like(self.v)
        tangents = (NO_TANGENT, da, zeros)
        _, second = frule(tangents, sla.expm_frechet, self.a, self.v, compute_expm=False)
        d_sigma = _inner(self.u, second)
        d_x = _inner(self.x, frechet(sla.expm, self.a, da))
        return self.kappa * (
            d_sigma / self.sigma + _inner(self._a_term(), da) - d_x / self.x_norm**2
        )


@rrule.register(sla.expm_cond)
def _expm_cond_rrule(A, check_finite=True):
    project_a = ProjectTo(A)
    _require_matrix(A)
    kappa = sla.expm_cond(A, check_finite=False)

    def expm_cond_pullback(dy):
        return NO_TANGENT, project_a(np.real(dy) * _Condition(A).gradient())

    return kappa, expm_cond_pullback


@frule.register(sla.expm_cond)
def _expm_cond_frule(tangents, A, check_finite=True):
    _require_matrix(A)
    kappa = sla.expm_cond(A, check_finite=False)
    da = tangents[1]
    if is_zero(da):
        return kappa, da
    return kappa, _Condition(A).derivative(da)
