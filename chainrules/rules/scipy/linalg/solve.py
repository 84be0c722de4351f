"""Rules for ``scipy.linalg``'s general and triangular solvers: solve, solve_triangular; and
the table of ``scipy.linalg``'s functions without derivatives.

``solve`` sees the matrix that its ``assume_a`` reads: the whole of ``a`` (``'gen'``), or the
Hermitian (``'her'``, ``'pos'``) or complex-symmetric (``'sym'``) matrix described by one
triangle (the upper one unless ``lower=True``). It factorizes that matrix once (Cholesky for
``'pos'``, LU otherwise) and its pullback solves with the adjoint through the same factors:
one pair of triangular solves, no new factorization. The cotangent of ``a`` is carried back
to the triangle read. ``solve_triangular`` reads one triangle (unit diagonal if asked) and
solves with it, its transpose or its adjoint (``trans``).

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

from ....core.define import non_differentiable
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    Factored,
    Reading,
    as_given,
    as_matrix,
    eye_like,
    lower_hermitian,
    lower_hermitian_cotangent,
    lower_symmetric,
    lower_symmetric_cotangent,
    matrix_rule,
    mH,
    mT,
    solve_pullback_of,
    solve_pushforward_of,
)

__all__ = ["Assumed", "matrix_solved", "solve_kind", "solved_cotangent_to_a"]


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
    if kind == "pos" and is_numpy(m):
        return _CholeskyFactored(m)
    return Factored(m).require_invertible()


class Assumed(Reading):
    """What ``solve`` and ``inv`` assume of ``a`` (``assume_a``, ``lower``, ``transposed``): the
    matrix they read from it, and the adjoint carrying a cotangent of that matrix back."""

    __slots__ = ("kind", "lower", "transposed")

    def __init__(self, assume_a: Any, lower: bool, transposed: bool) -> None:
        self.kind, self.lower, self.transposed = solve_kind(assume_a), lower, transposed

    def read(self, a: Any) -> Any:
        return matrix_solved(a, self.kind, self.lower, self.transposed)

    def adjoint(self, g: Any) -> Any:
        return solved_cotangent_to_a(g, self.kind, self.lower, self.transposed)


def _solve_reading(lower=False, *, assume_a=None, transposed=False) -> Assumed:
    return Assumed(assume_a, lower, transposed)


def _solved(m: Any, b: Any, *, reading: Assumed) -> tuple[Any, tuple]:
    vector = b.ndim == 1
    factored = _factor(m, reading.kind)
    x = factored.solve(as_matrix(b, vector))
    return as_given(x, vector), (factored, x, vector)


matrix_rule(
    sla.solve,
    primal=_solved,
    pullback=solve_pullback_of,
    pushforward=solve_pushforward_of,
    arguments=("a", "b"),
    reads=_solve_reading,
    ignores=("check_finite",),
)


# ---- solve_triangular ---------------------------------------------------------------------

_TRANS = {0: 0, 1: 1, 2: 2, "N": 0, "T": 1, "C": 2}


def _triangle(a: Any, lower: bool, unit_diagonal: bool) -> Any:
    xp = array_namespace(a)
    t = xp.tril(a) if lower else xp.triu(a)
    if unit_diagonal:
        t = t - xp.tril(xp.triu(t)) + eye_like(a)
    return t


def _triangle_tangent(d: Any, lower: bool, unit_diagonal: bool) -> Any:
    """The part of ``d`` that ``_triangle`` keeps: the triangle, without a unit diagonal."""
    xp = array_namespace(d)
    kept = _triangle(d, lower, False)
    return kept - xp.tril(xp.triu(kept)) if unit_diagonal else kept


def _op(t: Any, trans: int) -> Any:
    return (t, mT(t), mH(t))[trans]


class _TriangularSolve:
    """The solves with ``op(t)`` for a triangular ``t``; ``solve(b, adjoint)`` as ``Factored``'s."""

    __slots__ = ("lower", "t", "trans")

    def __init__(self, t: Any, trans: int, lower: bool) -> None:
        self.t, self.trans, self.lower = t, trans, lower

    def solve(self, b: Any, adjoint: bool = False) -> Any:
        """``op(t)^{-1} b``, or ``op(t)^{-H} b`` with ``adjoint``."""
        t, trans, lower = self.t, self.trans, self.lower
        if is_numpy(t, b):
            # NumPy-only path: LAPACK's triangular solver, with the adjoint's ``trans``.
            if adjoint:
                if trans == 1:  # (t^T)^{-H} b = conj(t^{-1} conj(b))
                    b = np.conj(b)
                    return np.conj(sla.solve_triangular(t, b, lower=lower, check_finite=False))
                trans = 2 - trans
            return sla.solve_triangular(t, b, trans=trans, lower=lower, check_finite=False)
        m = _op(t, trans)
        return array_namespace(t, b).linalg.solve(mH(m) if adjoint else m, b)


@rrule.register(sla.solve_triangular)
def _solve_triangular_rrule(a, b, trans=0, lower=False, unit_diagonal=False, *, check_finite=True):
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    trans = _TRANS[trans]
    solver = _TriangularSolve(_triangle(a, lower, unit_diagonal), trans, lower)
    vector = b.ndim == 1
    x = solver.solve(as_matrix(b, vector))

    def solve_triangular_pullback(dy):
        d_op, db = solve_pullback_of(solver, x, vector, dy)
        # op (identity, transpose, conjugate transpose) carries cotangents back as itself.
        dt = _op(d_op, trans)
        return NO_TANGENT, project_a(_triangle_tangent(dt, lower, unit_diagonal)), project_b(db)

    return as_given(x, vector), solve_triangular_pullback


@frule.register(sla.solve_triangular)
def _solve_triangular_frule(
    tangents, a, b, trans=0, lower=False, unit_diagonal=False, *, check_finite=True
):
    trans = _TRANS[trans]
    solver = _TriangularSolve(_triangle(a, lower, unit_diagonal), trans, lower)
    vector = b.ndim == 1
    x = solver.solve(as_matrix(b, vector))
    da, db = tangents[1], tangents[2]
    y = as_given(x, vector)
    if is_zero(da) and is_zero(db):
        return y, ZERO_TANGENT
    d_op = da if is_zero(da) else _op(_triangle_tangent(da, lower, unit_diagonal), trans)
    return y, solve_pushforward_of(solver, x, vector, d_op, db)


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
