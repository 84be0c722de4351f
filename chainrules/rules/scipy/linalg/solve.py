"""Rules for ``scipy.linalg``'s solvers: solve, solve_triangular, cholesky, cho_factor,
cho_solve; and the table of its functions without derivatives.

The other ``scipy.linalg`` families live beside this module:

====================  =====================================================================
module                functions
====================  =====================================================================
linalg_lu             lu lu_factor lu_solve
linalg_decomp         qr svd eigh det inv pinv polar
linalg_more           eig eigvals eigvalsh svdvals lstsq norm pinvh rq orth
                      orthogonal_procrustes signm
linalg_matfun         expm logm sqrtm cosm sinm tanm coshm sinhm tanhm
                      fractional_matrix_power expm_frechet
linalg_equations      solve_sylvester solve_continuous_lyapunov solve_discrete_lyapunov schur
linalg_riccati        solve_continuous_are solve_discrete_are
linalg_structured     block_diag toeplitz circulant
linalg_constructors   hankel convolution_matrix leslie khatri_rao companion fiedler
                      fiedler_companion diagsvd
linalg_toeplitz       solve_toeplitz matmul_toeplitz solve_circulant
linalg_banded         solve_banded solveh_banded
linalg_banded_eig     eig_banded eigvals_banded eigh_tridiagonal eigvalsh_tridiagonal
                      cholesky_banded cho_solve_banded
linalg_qr_updates     qr_multiply qr_update qr_insert qr_delete
linalg_reductions     hessenberg matrix_balance cdf2rdf rsf2csf
linalg_qz             qz ordqz
linalg_subspaces      null_space subspace_angles ldl cossin
linalg_conditioning   expm_cond
====================  =====================================================================

``solve`` sees the matrix that its ``assume_a`` reads: the whole of ``a`` (``'gen'``), or the
Hermitian (``'her'``, ``'pos'``) or complex-symmetric (``'sym'``) matrix described by one
triangle (the upper one unless ``lower=True``). It factorizes that matrix once (Cholesky for
``'pos'``, LU otherwise) and its pullback solves with the adjoint through the same factors:
one pair of triangular solves, no new factorization. The cotangent of ``a`` is carried back
to the triangle read. ``solve_triangular`` reads one triangle (unit diagonal if asked) and
solves with it, its transpose or its adjoint (``trans``). ``cho_factor`` returns the
Cholesky factor in one triangle and ``a``'s own entries in the other, which pass through;
``cho_solve`` differentiates through the factor's triangle. ``cholesky`` is NumPy's (the rule
of ``np.linalg.cholesky`` with ``upper=not lower``).

The ``check_finite`` keyword is accepted (and ignored); ``overwrite_*`` keywords are not, as
rules never write into their inputs. SciPy's functions take NumPy arrays only; for other
array types (an engine's tracked values) the rules compute with ``numpy.linalg`` through the
array namespace.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> a = np.array([[4.0, 1.0], [1.0, 3.0]])
>>> x, pullback = rrule(scipy.linalg.solve, a, np.array([1.0, 2.0]), assume_a="pos")
>>> np.round(pullback(np.array([1.0, 0.0]))[2], 4)
array([ 0.2727, -0.0909])
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.linalg as sla

from ...core.arguments import positional_cotangents
from ...core.define import non_differentiable
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ...core.thunks import unthunk
from ..matrices import (
    Factored,
    as_given,
    as_matrix,
    eye_like,
    lower_hermitian,
    lower_hermitian_cotangent,
    lower_symmetric,
    lower_symmetric_cotangent,
    mH,
    mT,
    output_fields,
)
from ..numpy.linalg_decomp import cholesky_pullback_of, cholesky_pushforward_of

__all__ = ["matrix_solved", "solve_kind", "solved_cotangent_to_a"]

_KINDS = {
    None: "gen",
    "gen": "gen",
    "general": "gen",
    "sym": "sym",
    "symmetric": "sym",
    "her": "her",
    "hermitian": "her",
    "pos": "pos",
    "positive definite": "pos",
}


def solve_kind(assume_a: Any) -> str:
    kind = _KINDS.get(assume_a)
    if kind is None:
        raise ValueError(
            f"scipy.linalg.solve(assume_a={assume_a!r}) has no rule; the rule covers "
            "'gen', 'sym', 'her' and 'pos'"
        )
    return kind


def matrix_solved(a: Any, kind: str, lower: bool, transposed: bool) -> Any:
    """The matrix that ``solve`` actually solves with."""
    if kind == "gen":
        return mT(a) if transposed else a
    if kind == "sym":
        return lower_symmetric(a, upper=not lower)
    return lower_hermitian(a, upper=not lower)


def solved_cotangent_to_a(g: Any, kind: str, lower: bool, transposed: bool) -> Any:
    """The adjoint of ``matrix_solved``: a cotangent of the matrix solved with, carried to ``a``."""
    if kind == "gen":
        return mT(g) if transposed else g
    if kind == "sym":
        return lower_symmetric_cotangent(g, upper=not lower)
    return lower_hermitian_cotangent(g, upper=not lower)


class _CholeskyFactored:
    """A positive definite matrix factorized once by LAPACK's Cholesky (NumPy inputs only);
    the same ``solve`` interface as ``Factored`` (the matrix is its own adjoint)."""

    __slots__ = ("factor",)

    def __init__(self, m: np.ndarray) -> None:
        self.factor = sla.cho_factor(m, lower=True, check_finite=False)

    def solve(self, b: Any, adjoint: bool = False) -> Any:
        return sla.cho_solve(self.factor, b, check_finite=False)


def _factor(m: Any, kind: str) -> Any:
    if kind == "pos" and type(m) is np.ndarray:
        return _CholeskyFactored(m)
    return Factored(m).require_invertible()


@rrule.register(sla.solve)
@positional_cotangents
def _solve_rrule(a, b, lower=False, *, assume_a=None, transposed=False, check_finite=True):
    xp = array_namespace(a, b)
    kind = solve_kind(assume_a)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    vector = b.ndim == 1
    factored = _factor(matrix_solved(a, kind, lower, transposed), kind)
    x = factored.solve(as_matrix(b, vector))

    def solve_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy), project_b(dy)
        db = factored.solve(as_matrix(dy, vector), adjoint=True)
        dm = -xp.matmul(db, mH(x))
        da = solved_cotangent_to_a(dm, kind, lower, transposed)
        return NO_TANGENT, project_a(da), project_b(as_given(db, vector))

    return as_given(x, vector), solve_pullback


@frule.register(sla.solve)
def _solve_frule(
    tangents, a, b, lower=False, *, assume_a=None, transposed=False, check_finite=True
):
    xp = array_namespace(a, b)
    kind = solve_kind(assume_a)
    vector = b.ndim == 1
    factored = _factor(matrix_solved(a, kind, lower, transposed), kind)
    x = factored.solve(as_matrix(b, vector))
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    rhs: Any = ZERO_TANGENT
    if not isinstance(db, AbstractZero):
        rhs = as_matrix(db, vector)
    if not isinstance(da, AbstractZero):
        rhs = rhs - xp.matmul(matrix_solved(da, kind, lower, transposed), x)
    y = as_given(x, vector)
    if isinstance(rhs, AbstractZero):
        return y, rhs
    return y, as_given(factored.solve(xp.broadcast_to(rhs, x.shape)), vector)


# ---- solve_triangular ---------------------------------------------------------------------

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _triangle(a: Any, lower: bool, unit_diagonal: bool) -> Any:
    xp = array_namespace(a)
    t = xp.tril(a) if lower else xp.triu(a)
    if unit_diagonal:
        t = t - xp.tril(xp.triu(t)) + eye_like(a)
    return t


def _op(t: Any, trans: int) -> Any:
    return (t, mT(t), mH(t))[trans]


def _triangular_solve(t: Any, b: Any, trans: int, lower: bool, adjoint: bool = False) -> Any:
    """``op(t)^{-1} b``, or ``op(t)^{-H} b`` with ``adjoint``, for triangular ``t``."""
    if type(t) is np.ndarray and type(b) is np.ndarray:
        # NumPy-only path: LAPACK's triangular solver, with the adjoint's ``trans``.
        if adjoint:
            if trans == 1:  # (t^T)^{-H} b = conj(t^{-1} conj(b))
                return np.conj(sla.solve_triangular(t, np.conj(b), lower=lower, check_finite=False))
            trans = 2 - trans
        return sla.solve_triangular(t, b, trans=trans, lower=lower, check_finite=False)
    xp = array_namespace(t, b)
    m = _op(t, trans)
    return xp.linalg.solve(mH(m) if adjoint else m, b)


@rrule.register(sla.solve_triangular)
@positional_cotangents
def _solve_triangular_rrule(a, b, trans=0, lower=False, unit_diagonal=False, *, check_finite=True):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    trans = _TRANS[trans]
    t = _triangle(a, lower, unit_diagonal)
    vector = b.ndim == 1
    x = _triangular_solve(t, as_matrix(b, vector), trans, lower)

    def solve_triangular_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy), project_b(dy)
        db = _triangular_solve(t, as_matrix(dy, vector), trans, lower, adjoint=True)
        d_op = -xp.matmul(db, mH(x))
        dt = (d_op, mT(d_op), mH(d_op))[trans]
        da = _triangle(dt, lower, False)
        if unit_diagonal:
            da = da - xp.tril(xp.triu(da))
        return NO_TANGENT, project_a(da), project_b(as_given(db, vector))

    return as_given(x, vector), solve_triangular_pullback


@frule.register(sla.solve_triangular)
def _solve_triangular_frule(
    tangents, a, b, trans=0, lower=False, unit_diagonal=False, *, check_finite=True
):
    xp = array_namespace(a, b)
    trans = _TRANS[trans]
    t = _triangle(a, lower, unit_diagonal)
    vector = b.ndim == 1
    x = _triangular_solve(t, as_matrix(b, vector), trans, lower)
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    rhs: Any = ZERO_TANGENT
    if not isinstance(db, AbstractZero):
        rhs = as_matrix(db, vector)
    if not isinstance(da, AbstractZero):
        dt = _triangle(da, lower, False)
        if unit_diagonal:
            dt = dt - xp.tril(xp.triu(dt))
        rhs = rhs - xp.matmul(_op(dt, trans), x)
    y = as_given(x, vector)
    if isinstance(rhs, AbstractZero):
        return y, rhs
    return y, as_given(_triangular_solve(t, rhs, trans, lower), vector)


# ---- cholesky, cho_factor, cho_solve --------------------------------------------------------


@rrule.register(sla.cholesky)
@positional_cotangents
def _cholesky_rrule(a, lower=False, *, check_finite=True):
    # The same factorization of the same triangle as NumPy's with upper=not lower.
    return rrule(np.linalg.cholesky, a, upper=not lower)


@frule.register(sla.cholesky)
def _cholesky_frule(tangents, a, lower=False, *, check_finite=True):
    return frule(tangents[:2], np.linalg.cholesky, a, upper=not lower)


def _cho_factor(a: Any, lower: bool) -> Any:
    """``cho_factor``'s packed result: the factor's triangle, ``a``'s other strict triangle."""
    xp = array_namespace(a)
    if type(a) is np.ndarray:
        return sla.cho_factor(a, lower=lower, check_finite=False)[0]
    factor = xp.linalg.cholesky(a, upper=not lower)
    other = xp.triu(a, k=1) if lower else xp.tril(a, k=-1)
    return factor + other


def _factor_triangle(c: Any, lower: bool) -> Any:
    xp = array_namespace(c)
    return xp.tril(c) if lower else xp.triu(c)


@rrule.register(sla.cho_factor)
@positional_cotangents
def _cho_factor_rrule(a, lower=False, *, check_finite=True):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    c = _cho_factor(a, lower)
    low = _factor_triangle(c, lower)
    low = low if lower else mH(low)

    def cho_factor_pullback(dy):
        g_c, _ = output_fields(dy, ("c", "lower"))
        if isinstance(g_c, AbstractZero):
            return NO_TANGENT, project_a(g_c)
        g_factor = _factor_triangle(g_c, lower)
        g = cholesky_pullback_of(low, g_factor if lower else mH(g_factor))
        passed = xp.triu(g_c, k=1) if lower else xp.tril(g_c, k=-1)
        return NO_TANGENT, project_a(lower_hermitian_cotangent(g, upper=not lower) + passed)

    return (c, lower), cho_factor_pullback


@frule.register(sla.cho_factor)
def _cho_factor_frule(tangents, a, lower=False, *, check_finite=True):
    xp = array_namespace(a)
    c = _cho_factor(a, lower)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return (c, lower), da
    low = _factor_triangle(c, lower)
    low = low if lower else mH(low)
    d_low = cholesky_pushforward_of(low, lower_hermitian(da, upper=not lower))
    passed = xp.triu(da, k=1) if lower else xp.tril(da, k=-1)
    dc = (d_low if lower else mH(d_low)) + passed
    return (c, lower), Tangent(tuple, dc, NO_TANGENT)


def _cho_matrix(c: Any, lower: bool) -> Any:
    """The positive definite matrix that a packed Cholesky factor describes."""
    xp = array_namespace(c)
    t = _factor_triangle(c, lower)
    return xp.matmul(t, mH(t)) if lower else xp.matmul(mH(t), t)


def _cho_solve(c: Any, lower: bool, b: Any) -> Any:
    if type(c) is np.ndarray and type(b) is np.ndarray:
        return sla.cho_solve((c, lower), b, check_finite=False)
    return array_namespace(c, b).linalg.solve(_cho_matrix(c, lower), b)


@rrule.register(sla.cho_solve)
def _cho_solve_rrule(c_and_lower, b, *, check_finite=True):
    xp = array_namespace(c_and_lower[0], b)
    c, lower = c_and_lower
    project_pair, project_b = ProjectTo(c_and_lower), ProjectTo(b)
    vector = b.ndim == 1
    x = _cho_solve(c, lower, as_matrix(b, vector))

    def cho_solve_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_pair(dy), project_b(dy)
        db = _cho_solve(c, lower, as_matrix(dy, vector))
        g_m = -xp.matmul(db, mH(x))
        g_m = g_m + mH(g_m)
        t = _factor_triangle(c, lower)
        g_t = xp.matmul(g_m, t) if lower else xp.matmul(t, g_m)
        g_pair = project_pair((_factor_triangle(g_t, lower), NO_TANGENT))
        return NO_TANGENT, g_pair, project_b(as_given(db, vector))

    return as_given(x, vector), cho_solve_pullback


@frule.register(sla.cho_solve)
def _cho_solve_frule(tangents, c_and_lower, b, *, check_finite=True):
    xp = array_namespace(c_and_lower[0], b)
    c, lower = c_and_lower
    vector = b.ndim == 1
    x = _cho_solve(c, lower, as_matrix(b, vector))
    d_pair, db = unthunk(tangents[1]), unthunk(tangents[2])
    dc = ZERO_TANGENT if isinstance(d_pair, AbstractZero) else unthunk(d_pair[0])
    rhs: Any = ZERO_TANGENT
    if not isinstance(db, AbstractZero):
        rhs = as_matrix(db, vector)
    if not isinstance(dc, AbstractZero):
        t, dt = _factor_triangle(c, lower), _factor_triangle(dc, lower)
        dm = xp.matmul(dt, mH(t)) if lower else xp.matmul(mH(dt), t)
        rhs = rhs - xp.matmul(dm + mH(dm), x)
    y = as_given(x, vector)
    if isinstance(rhs, AbstractZero):
        return y, rhs
    return y, as_given(_cho_solve(c, lower, xp.broadcast_to(rhs, x.shape)), vector)


# ---- without derivatives: integers, predicates, matrices made from a size ------------------

non_differentiable(
    sla.bandwidth,
    sla.ishermitian,
    sla.issymmetric,
    sla.dft,
    sla.hadamard,
    sla.helmert,
    sla.hilbert,
    sla.invhilbert,
    sla.pascal,
    sla.invpascal,
)
