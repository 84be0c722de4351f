"""Rules for ``scipy.linalg``'s banded solvers: solve_banded and solveh_banded.

The matrix ``A`` (``n x n``) is stored by diagonals: ``ab[u + i - j, j] = A[i, j]`` with
``(l, u)`` the numbers of sub- and super-diagonals (``solveh_banded``: the upper triangle,
``u = ab.shape[0] - 1``, or with ``lower=True`` the lower one, ``ab[i - j, j] = A[i, j]``).
For ``x = A^{-1} b`` the pullback is ``b_bar = A^{-H} x_bar`` and ``A_bar = -b_bar x^H`` read
on the stored band only: entries of ``ab`` outside the matrix (the corners) are never read
and get zero cotangents. ``solveh_banded`` reads one triangle of a Hermitian ``A``: a stored
off-diagonal entry collects ``A_bar[i, j] + conj(A_bar[j, i])``, a diagonal one the real
part. ``A^H`` is banded again (``(u, l)``), so NumPy inputs keep SciPy's banded solvers in
the pullback; other array types (an engine's tracked values) solve densely through their
namespace, built by gathers, so the pullbacks differentiate again. ``b`` is 1-D or 2-D.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> x, pullback = rrule(scipy.linalg.solve_banded, (0, 0), np.array([[2.0, 4.0]]), np.ones(2))
>>> pullback(np.ones(2))[2]
array([[-0.25  , -0.0625]])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import as_given, as_matrix, mH

__all__ = ["Band", "band_of", "hermitian_band", "hermitian_matrix"]


class Band:
    """Index maps between the band storage of an ``n x n`` matrix and the matrix, with
    ``below`` sub- and ``above`` super-diagonals.

    ``rows[k, j]`` is the row ``i = k - above + j`` of stored entry ``(k, j)``, ``inside`` whether
    it lies in the matrix; ``dense[i, j]`` the flat index into ``ab`` of ``A[i, j]``, or the
    padding slot ``ab.size`` outside the band.
    """

    def __init__(self, below: int, above: int, n: int) -> None:
        self.below, self.above, self.n = below, above, n
        k, j = np.indices((below + above + 1, n))
        rows = k - above + j
        self.inside = (rows >= 0) & (rows < n)
        self.rows = np.where(self.inside, rows, 0)
        i, j = np.indices((n, n))
        in_band = (i - j <= below) & (j - i <= above)
        self.dense = np.where(in_band, (above + i - j) * n + j, (below + above + 1) * n)
        # A^H is stored with (above, below): ab_h[k, j] = conj(ab[width - k, j + k - below]).
        width = below + above
        k, j = np.indices((width + 1, n))
        cols = j + k - below
        ok = (cols >= 0) & (cols < n)
        self.adjoint = np.where(ok, (width - k) * n + np.where(ok, cols, 0), (width + 1) * n)

    def _padded(self, ab: Any) -> Any:
        xp = array_namespace(ab)
        return xp.concat(
            [xp.reshape(ab, (ab.shape[0] * ab.shape[1],)), xp.zeros((1,), dtype=ab.dtype)]
        )

    def matrix(self, ab: Any) -> Any:
        """The dense ``A`` of ``ab``."""
        xp = array_namespace(ab)
        flat = xp.take(self._padded(ab), xp.asarray(self.dense.reshape(-1)))
        return xp.reshape(flat, (self.n, self.n))

    def adjoint_storage(self, ab: Any) -> Any:
        """The band storage ``(above, below)`` of ``A^H``."""
        xp = array_namespace(ab)
        flat = xp.take(self._padded(ab), xp.asarray(self.adjoint.reshape(-1)))
        flat = xp.conj(flat) if is_complex(ab) else flat
        return xp.reshape(flat, self.adjoint.shape)

    def of_outer(self, p: Any, q: Any) -> Any:
        """``p q^H`` (``p``, ``q`` of shape ``(n, k)``) read on the band, zero outside."""
        xp = array_namespace(p, q)
        taken = xp.take(p, xp.asarray(self.rows.reshape(-1)), axis=0)
        taken = xp.reshape(taken, (*self.rows.shape, p.shape[-1]))
        q_c = xp.conj(q) if is_complex(q) else q
        values = xp.sum(taken * q_c[None, :, :], axis=-1)
        return values * xp.asarray(self.inside, dtype=values.dtype)


def _solve(band: Band, l_u: tuple[int, int], ab: Any, b: Any) -> Any:
    if is_numpy(ab, b):
        return sla.solve_banded(l_u, ab, b, check_finite=False)
    return array_namespace(ab, b).linalg.solve(band.matrix(ab), b)


@rrule.register(sla.solve_banded)
def _solve_banded_rrule(l_and_u, ab, b, *, check_finite=True):
    below, above = (int(v) for v in l_and_u)
    project_ab, project_b = ProjectTo(ab), ProjectTo(b)
    band = Band(below, above, ab.shape[1])
    vector = b.ndim == 1
    x = _solve(band, (below, above), ab, as_matrix(b, vector))
    adjoint = band.adjoint_storage(ab)
    adjoint_band = Band(above, below, ab.shape[1])

    def solve_banded_pullback(dy):
        db = _solve(adjoint_band, (above, below), adjoint, as_matrix(dy, vector))
        d_ab = -band.of_outer(db, x)
        return NO_TANGENT, NO_TANGENT, project_ab(d_ab), project_b(as_given(db, vector))

    return as_given(x, vector), solve_banded_pullback


@frule.register(sla.solve_banded)
def _solve_banded_frule(tangents, l_and_u, ab, b, *, check_finite=True):
    below, above = (int(v) for v in l_and_u)
    xp = array_namespace(ab, b)
    band = Band(below, above, ab.shape[1])
    vector = b.ndim == 1
    x = _solve(band, (below, above), ab, as_matrix(b, vector))
    d_ab, db = tangents[2], tangents[3]
    rhs: Any = ZERO_TANGENT if is_zero(db) else as_matrix(db, vector)
    if not is_zero(d_ab):
        rhs = rhs - xp.matmul(band.matrix(d_ab), x)
    if is_zero(rhs):
        return as_given(x, vector), rhs
    return as_given(x, vector), as_given(_solve(band, (below, above), ab, rhs), vector)


# ---- solveh_banded ------------------------------------------------------------------------


def hermitian_band(ab: Any, lower: bool) -> Band:
    width = ab.shape[0] - 1
    return Band(width, 0, ab.shape[1]) if lower else Band(0, width, ab.shape[1])


def hermitian_matrix(band: Band, ab: Any, lower: bool) -> Any:
    """The Hermitian matrix LAPACK reads: the stored triangle, its conjugate transpose, and
    the real part of the diagonal."""
    xp = array_namespace(ab)
    t = band.matrix(ab)
    strict = xp.tril(t, k=-1) if lower else xp.triu(t, k=1)
    diagonal = xp.linalg.diagonal(t)
    diagonal = xp.real(diagonal) if is_complex(t) else diagonal
    return (
        strict + mH(strict) + xp.astype(diagonal, t.dtype)[:, None] * xp.eye(band.n, dtype=t.dtype)
    )


def _solveh(band: Band, ab: Any, b: Any, lower: bool) -> Any:
    if is_numpy(ab, b):
        return sla.solveh_banded(ab, b, lower=lower, check_finite=False)
    xp = array_namespace(ab, b)
    return xp.linalg.solve(hermitian_matrix(band, ab, lower), b)


@rrule.register(sla.solveh_banded)
def _solveh_banded_rrule(ab, b, *, lower=False, check_finite=True):
    project_ab, project_b = ProjectTo(ab), ProjectTo(b)
    band = hermitian_band(ab, lower)
    vector = b.ndim == 1
    x = _solveh(band, ab, as_matrix(b, vector), lower)
    diagonal_row = 0 if lower else ab.shape[0] - 1

    def solveh_banded_pullback(dy):
        xp = array_namespace(ab, dy)
        db = _solveh(band, ab, as_matrix(dy, vector), lower)
        # A_bar = -db x^H on the stored triangle plus conj(A_bar^T) there; the diagonal once.
        both = -band.of_outer(db, x) - band.of_outer(x, db)
        on_diagonal = np.arange(ab.shape[0])[:, None] == diagonal_row
        half = both / 2
        d_ab = xp.where(xp.asarray(on_diagonal), xp.real(half) if is_complex(half) else half, both)
        return NO_TANGENT, project_ab(d_ab), project_b(as_given(db, vector))

    return as_given(x, vector), solveh_banded_pullback


@frule.register(sla.solveh_banded)
def _solveh_banded_frule(tangents, ab, b, *, lower=False, check_finite=True):
    xp = array_namespace(ab, b)
    band = hermitian_band(ab, lower)
    vector = b.ndim == 1
    x = _solveh(band, ab, as_matrix(b, vector), lower)
    d_ab, db = tangents[1], tangents[2]
    rhs: Any = ZERO_TANGENT if is_zero(db) else as_matrix(db, vector)
    if not is_zero(d_ab):
        rhs = rhs - xp.matmul(hermitian_matrix(band, d_ab, lower), x)
    if is_zero(rhs):
        return as_given(x, vector), rhs
    return as_given(x, vector), as_given(_solveh(band, ab, rhs, lower), vector)


def band_of(band: Band, dense: Any) -> Any:
    """The band storage of ``dense``: its entries on the band, zero in the corners."""
    xp = array_namespace(dense)
    n = band.n
    index = band.rows * n + np.arange(n)[None, :]
    flat = xp.take(xp.reshape(dense, (n * n,)), xp.asarray(index.reshape(-1)))
    values = xp.reshape(flat, band.rows.shape)
    return values * xp.asarray(band.inside, dtype=values.dtype)
