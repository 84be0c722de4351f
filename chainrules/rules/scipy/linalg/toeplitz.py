"""Rules for ``scipy.linalg``'s fast Toeplitz and circulant operations: solve_toeplitz,
matmul_toeplitz, solve_circulant.

``T`` is ``toeplitz(c, r)`` (``r`` omitted: ``conj(c)``) or ``circulant(c)``. The solves
``x = T^{-1} b`` have the pullback ``b_bar = T^{-H} x_bar``, ``T_bar = -b_bar x^H`` and the
product ``y = T x`` has ``x_bar = T^H y_bar``, ``T_bar = y_bar x^H``; ``T_bar`` goes back to
``c`` and ``r`` through the constructor's own pullback (``structured``), so the
conventions there hold (``r[0]`` gets a zero cotangent). ``T^H`` is again Toeplitz (first
column ``conj`` of ``T``'s first row) or circulant, so NumPy inputs keep SciPy's fast
solvers in the pullback; other array types (an engine's tracked values) solve densely through
their namespace, which makes the pullbacks differentiable again. Pass ``(c, r)`` as a tuple;
its cotangent is a tuple ``Tangent``. ``b`` is 1-D or 2-D; ``solve_circulant`` takes only its
default axes and ``singular="raise"``.

>>> import numpy as np
>>> import scipy.linalg
>>> from chainrules.core.registry import rrule
>>> x, pullback = rrule(scipy.linalg.solve_circulant, np.array([2.0, 0.0]), np.array([2.0, 4.0]))
>>> pullback(np.array([1.0, 0.0]))[2]
array([0.5, 0. ])
"""

from __future__ import annotations

from typing import Any

import scipy.linalg as sla

from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import as_given, as_matrix, mH, solve_pullback_of, solve_pushforward_of
from .structured import circulant_matrix, toeplitz_matrix

__all__: list[str] = []


def _conj(x: Any) -> Any:
    xp = array_namespace(x)
    return xp.conj(x) if xp.isdtype(x.dtype, "complex floating") else x


def _pair(c_or_cr: Any) -> tuple[Any, Any]:
    """``(c, r)`` of a Toeplitz argument, ``r`` None when omitted."""
    if isinstance(c_or_cr, tuple):
        return c_or_cr
    return c_or_cr, None


def _adjoint_pair(c: Any, r: Any) -> tuple[Any, Any]:
    """``(c', r')`` with ``toeplitz(c', r') = toeplitz(c, r)^H``."""
    xp = array_namespace(c, r)
    if r is None:
        # toeplitz(c) keeps c[0] on the diagonal, so it is Hermitian only for a real c[0].
        r = _conj(c)
    first_row = xp.concat([xp.astype(c[:1], xp.result_type(c, r)), r[1:]])
    return _conj(first_row), _conj(c)


def _toeplitz_solve(c: Any, r: Any, b: Any) -> Any:
    if is_numpy(c, b) and (r is None or is_numpy(r)):
        return sla.solve_toeplitz(c if r is None else (c, r), b, check_finite=False)
    return array_namespace(c, b).linalg.solve(toeplitz_matrix(c, r), b)


def _toeplitz_matmul(c: Any, r: Any, x: Any) -> Any:
    if is_numpy(c, x) and (r is None or is_numpy(r)):
        return sla.matmul_toeplitz(c if r is None else (c, r), x)
    return array_namespace(c, x).matmul(toeplitz_matrix(c, r), x)


def _toeplitz_tangent(c: Any, r: Any, d_pair: Any) -> Any:
    """The tangent of ``toeplitz(c, r)`` along the tangent of the ``c_or_cr`` argument."""
    dc, dr = (unthunk(d_pair[0]), unthunk(d_pair[1])) if r is not None else (d_pair, None)
    return frule((NO_TANGENT, dc) + (() if r is None else (dr,)), sla.toeplitz, c, r)[1]


def _toeplitz_cotangent(c: Any, r: Any, toeplitz_pullback: Any, g: Any) -> Any:
    """The cotangent of the ``c_or_cr`` argument from that of ``toeplitz(c, r)``."""
    cotangents = toeplitz_pullback(g)
    return cotangents[1] if r is None else Tangent(tuple, cotangents[1], cotangents[2])


class _StructuredSolve:
    """The solves with a structured matrix, by ``solver(*parameters, b)``; ``solve(b, adjoint)``
    as ``Factored``'s, the adjoint by the parameters of the matrix's conjugate transpose."""

    __slots__ = ("adjoint_parameters", "parameters", "solver")

    def __init__(self, solver: Any, parameters: tuple, adjoint_parameters: tuple) -> None:
        self.solver = solver
        self.parameters, self.adjoint_parameters = parameters, adjoint_parameters

    def solve(self, b: Any, adjoint: bool = False) -> Any:
        return self.solver(*(self.adjoint_parameters if adjoint else self.parameters), b)


def _outer(u: Any, v: Any) -> Any:
    """``u v^H`` for matrices ``u``, ``v`` of one width."""
    return array_namespace(u, v).matmul(u, mH(v))


# ---- solve_toeplitz, matmul_toeplitz ------------------------------------------------------


@rrule.register(sla.solve_toeplitz)
def _solve_toeplitz_rrule(c_or_cr, b, *, check_finite=True):
    c, r = _pair(c_or_cr)
    project_b = ProjectTo(b)
    _, toeplitz_pullback = rrule(sla.toeplitz, *((c,) if r is None else (c, r)))
    vector = b.ndim == 1
    solver = _StructuredSolve(_toeplitz_solve, (c, r), _adjoint_pair(c, r))
    x = solver.solve(as_matrix(b, vector))

    def solve_toeplitz_pullback(dy):
        dt, db = solve_pullback_of(solver, x, vector, dy)
        return NO_TANGENT, _toeplitz_cotangent(c, r, toeplitz_pullback, dt), project_b(db)

    return as_given(x, vector), solve_toeplitz_pullback


@frule.register(sla.solve_toeplitz)
def _solve_toeplitz_frule(tangents, c_or_cr, b, *, check_finite=True):
    c, r = _pair(c_or_cr)
    vector = b.ndim == 1
    solver = _StructuredSolve(_toeplitz_solve, (c, r), _adjoint_pair(c, r))
    x = solver.solve(as_matrix(b, vector))
    dt, db = _toeplitz_tangent(c, r, tangents[1]), tangents[2]
    if is_zero(dt) and is_zero(db):
        return as_given(x, vector), ZERO_TANGENT
    return as_given(x, vector), solve_pushforward_of(solver, x, vector, dt, db)


@rrule.register(sla.matmul_toeplitz)
def _matmul_toeplitz_rrule(c_or_cr, x, *, check_finite=False):
    c, r = _pair(c_or_cr)
    project_x = ProjectTo(x)
    _, toeplitz_pullback = rrule(sla.toeplitz, *((c,) if r is None else (c, r)))
    vector = x.ndim == 1
    x_m = as_matrix(x, vector)
    y = _toeplitz_matmul(c, r, x_m)
    adjoint = _adjoint_pair(c, r)

    def matmul_toeplitz_pullback(dy):
        g = as_matrix(dy, vector)
        dx = _toeplitz_matmul(*adjoint, g)
        d_pair = _toeplitz_cotangent(c, r, toeplitz_pullback, _outer(g, x_m))
        return NO_TANGENT, d_pair, project_x(as_given(dx, vector))

    return as_given(y, vector), matmul_toeplitz_pullback


@frule.register(sla.matmul_toeplitz)
def _matmul_toeplitz_frule(tangents, c_or_cr, x, *, check_finite=False):
    c, r = _pair(c_or_cr)
    xp = array_namespace(c, x)
    vector = x.ndim == 1
    x_m = as_matrix(x, vector)
    y = _toeplitz_matmul(c, r, x_m)
    dt, dx = _toeplitz_tangent(c, r, tangents[1]), tangents[2]
    dy: Any = ZERO_TANGENT
    if not is_zero(dx):
        dy = _toeplitz_matmul(c, r, as_matrix(dx, vector))
    if not is_zero(dt):
        dy = dy + xp.matmul(dt, x_m)
    if is_zero(dy):
        return as_given(y, vector), dy
    return as_given(y, vector), as_given(dy, vector)


# ---- solve_circulant ----------------------------------------------------------------------


def _circulant_solve(c: Any, b: Any) -> Any:
    if is_numpy(c, b):
        return sla.solve_circulant(c, b)
    return array_namespace(c, b).linalg.solve(circulant_matrix(c), b)


def _circulant_adjoint(c: Any) -> Any:
    """``c'`` with ``circulant(c') = circulant(c)^H``: ``conj`` of ``circulant(c)``'s first row."""
    xp = array_namespace(c)
    return _conj(xp.concat([c[:1], xp.flip(c[1:], axis=0)]))


@rrule.register(sla.solve_circulant)
def _solve_circulant_rrule(c, b):
    project_b = ProjectTo(b)
    _, circulant_pullback = rrule(sla.circulant, c)
    vector = b.ndim == 1
    solver = _StructuredSolve(_circulant_solve, (c,), (_circulant_adjoint(c),))
    x = solver.solve(as_matrix(b, vector))

    def solve_circulant_pullback(dy):
        dt, db = solve_pullback_of(solver, x, vector, dy)
        return NO_TANGENT, circulant_pullback(dt)[1], project_b(db)

    return as_given(x, vector), solve_circulant_pullback


@frule.register(sla.solve_circulant)
def _solve_circulant_frule(tangents, c, b):
    vector = b.ndim == 1
    solver = _StructuredSolve(_circulant_solve, (c,), (_circulant_adjoint(c),))
    x = solver.solve(as_matrix(b, vector))
    dc, db = tangents[1], tangents[2]
    if is_zero(dc) and is_zero(db):
        return as_given(x, vector), ZERO_TANGENT
    dt = dc if is_zero(dc) else frule((NO_TANGENT, dc), sla.circulant, c)[1]
    return as_given(x, vector), solve_pushforward_of(solver, x, vector, dt, db)
