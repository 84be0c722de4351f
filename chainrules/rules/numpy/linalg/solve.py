"""Rules for ``np.linalg.solve``, ``inv``, ``tensorinv`` and ``tensorsolve``.

``solve`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs) and its pullback solves with
``a^H`` through the same factors, so a pullback costs one pair of triangular solves, not a
new factorization. One NumPy matrix of a LAPACK dtype goes to LAPACK's routines directly
(``factored``, shared with ``det`` and ``slogdet``): at moderate sizes SciPy's checks and
batching around them cost more than the solves. ``inv`` reuses its output. Their
mathematics (``solve_pullback_of``, ``inv_pullback_of``, ...) lives in
``chainrules.rules.matrices``, shared with SciPy's rules; ``matrix_rule`` registers both
rules of each from it. Every pullback is written in array-namespace operations, so that an
engine can differentiate it again.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> a = np.array([[2.0, 0.0], [0.0, 4.0]])
>>> x, pullback = rrule(np.linalg.solve, a, np.array([2.0, 4.0]))
>>> x, pullback(np.array([1.0, 1.0]))[2]
(array([1., 1.]), array([0.5 , 0.25]))
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.linalg import lapack

from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.zeros import is_zero
from ...matrices import (
    Factored,
    as_given,
    as_matrix,
    inv_pullback_of,
    inv_pushforward_of,
    matrix_rule,
    solve_pullback_of,
    solve_pushforward_of,
)

__all__ = ["factored", "is_lapack_matrix"]


# ---- one plain matrix, factorized by LAPACK directly ------------------------------------

# LAPACK's prefix of each dtype it takes as it is. f2py casts an argument to the routine's
# type, a complex right-hand side to a real one included: a routine is called only where
# every array has the dtype it is named for
_LAPACK_PREFIX = {
    np.dtype(np.float32): "s",
    np.dtype(np.float64): "d",
    np.dtype(np.complex64): "c",
    np.dtype(np.complex128): "z",
}


class _LapackFactored(Factored):
    """``Factored`` for one nonempty NumPy matrix of a LAPACK dtype: ``getrf`` and ``getrs``
    called directly, the same factors and solutions as SciPy's ``lu_factor`` and
    ``lu_solve`` without their checks and batching. A right-hand side it does not take as
    it is (another dtype, a stack, a tracked value) goes through ``Factored.solve``."""

    __slots__ = ()

    def __init__(self, a: np.ndarray) -> None:
        self.a = a
        self.batch = ()
        # info > 0, an exact zero pivot, is for the caller to judge, as in Factored
        lu, piv, _ = getattr(lapack, _LAPACK_PREFIX[a.dtype] + "getrf")(a)
        self.lu = (lu, piv)

    def solve(self, b: Any, adjoint: bool = False) -> Any:
        lu, piv = self.lu
        if type(b) is np.ndarray and b.ndim == 2 and b.dtype == lu.dtype:
            if b.shape[0] == lu.shape[0]:
                getrs = getattr(lapack, _LAPACK_PREFIX[lu.dtype] + "getrs")
                x, _ = getrs(lu, piv, b, trans=2 if adjoint else 0)
                return x
        return super().solve(b, adjoint)


def is_lapack_matrix(a: Any) -> bool:
    """Whether ``a`` is one nonempty square NumPy matrix (not a stack) of a dtype LAPACK
    takes as it is: what ``factored`` hands to LAPACK's routines directly.

    >>> is_lapack_matrix(np.eye(2)), is_lapack_matrix(np.eye(2, dtype=int))
    (True, False)
    """
    if type(a) is not np.ndarray or a.ndim != 2 or a.dtype not in _LAPACK_PREFIX:
        return False
    return a.shape[0] == a.shape[1] > 0


def factored(a: Any) -> Factored:
    """``a`` factorized once for repeated solves: ``Factored(a)``, by LAPACK's routines
    called directly where ``is_lapack_matrix(a)``.

    >>> factored(np.array([[2.0, 0.0], [0.0, 4.0]])).solve(np.ones((2, 1)))
    array([[0.5 ],
           [0.25]])
    """
    return _LapackFactored(a) if is_lapack_matrix(a) else Factored(a)


# ---- solve, inv -------------------------------------------------------------------------


def _solvable(a: Any, b: Any) -> bool:
    """Whether ``solve(a, b)`` is defined by shape: ``a`` a square matrix or a stack of them,
    ``b`` a vector of its size (NumPy 2: only a 1-D ``b`` is one) or a stack of matrices with
    its number of rows and a batch that broadcasts against ``a``'s.

    >>> _solvable(np.ones((2, 2)), np.ones(2)), _solvable(np.ones((2, 3)), np.ones(2))
    (True, False)
    """
    if a.ndim < 2 or a.shape[-1] != a.shape[-2] or b.ndim == 0:
        return False
    n = a.shape[-1]
    if b.ndim == 1:
        return b.shape[0] == n
    pairs = zip(reversed(a.shape[:-2]), reversed(b.shape[:-2]), strict=False)
    return b.shape[-2] == n and all(p == q or 1 in (p, q) for p, q in pairs)


def _solved(a: Any, b: Any) -> tuple[Any, tuple]:
    """``a^{-1} b`` by LU factors kept for the derivatives (NumPy 2: only a 1-D ``b`` is a
    vector). Arguments ``solve`` refuses get the error of the namespace's own ``solve``: LU
    factors exist for any shape, and their solve raised LAPACK's errors or, for a ``0 x n``
    ``a``, returned a value."""
    if not _solvable(a, b):
        array_namespace(a, b).linalg.solve(a, b)  # raises what the library raises
        raise ValueError(
            f"np.linalg.solve: argument a of shape {a.shape} is not a square matrix or a stack "
            f"of them, or argument b of shape {b.shape} does not match it"
        )
    vector = b.ndim == 1
    factors = factored(a).require_invertible()
    x = factors.solve(as_matrix(b, vector))
    return as_given(x, vector), (factors, x, vector)


def _inverse(a: Any) -> tuple[Any, tuple]:
    y = array_namespace(a).linalg.inv(a)
    return y, (y,)


matrix_rule(
    np.linalg.solve,
    primal=_solved,
    pullback=solve_pullback_of,
    pushforward=solve_pushforward_of,
    arguments=("a", "b"),
)
matrix_rule(
    np.linalg.inv, primal=_inverse, pullback=inv_pullback_of, pushforward=inv_pushforward_of
)


# ---- tensorinv, tensorsolve -------------------------------------------------------------


@rrule.register(np.linalg.tensorinv)
def _tensorinv_rrule(a, ind=2):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    shape = tuple(a.shape)
    rows = math.prod(shape[ind:])
    y2 = xp.linalg.inv(xp.reshape(a, (math.prod(shape[:ind]), rows)))
    y = xp.reshape(y2, shape[ind:] + shape[:ind])

    def tensorinv_pullback(dy):
        da = inv_pullback_of(y2, xp.reshape(dy, y2.shape))
        return NO_TANGENT, project_a(xp.reshape(da, shape))

    return y, tensorinv_pullback


@frule.register(np.linalg.tensorinv)
def _tensorinv_frule(tangents, a, ind=2):
    xp = array_namespace(a)
    shape = tuple(a.shape)
    y2 = xp.linalg.inv(xp.reshape(a, (math.prod(shape[:ind]), math.prod(shape[ind:]))))
    y = xp.reshape(y2, shape[ind:] + shape[:ind])
    da = tangents[1]
    if is_zero(da):
        return y, da
    dy2 = inv_pushforward_of(y2, xp.reshape(da, y2.shape))
    return y, xp.reshape(dy2, y.shape)


def _tensorsolve_layout(a: Any, b: Any, axes: Any) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The permutation NumPy applies to ``a`` (given ``axes``) and the solution's shape."""
    order = list(range(a.ndim))
    if axes is not None:
        for k in axes:
            order.remove(k)
            order.insert(a.ndim, k)
    permuted = tuple(a.shape[i] for i in order)
    return tuple(order), permuted[b.ndim :]


@rrule.register(np.linalg.tensorsolve)
def _tensorsolve_rrule(a, b, axes=None):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    order, x_shape = _tensorsolve_layout(a, b, axes)
    n = math.prod(x_shape)
    a_permuted = xp.permute_dims(a, order)
    factored = Factored(xp.reshape(a_permuted, (n, n))).require_invertible()
    x = factored.solve(xp.reshape(b, (n, 1)))
    inverse_order = tuple(int(i) for i in np.argsort(order))

    def tensorsolve_pullback(dy):
        da, db = solve_pullback_of(factored, x, False, xp.reshape(dy, (n, 1)))
        da = xp.permute_dims(xp.reshape(da, a_permuted.shape), inverse_order)
        return NO_TANGENT, project_a(da), project_b(xp.reshape(db, b.shape))

    return xp.reshape(x, x_shape), tensorsolve_pullback


@frule.register(np.linalg.tensorsolve)
def _tensorsolve_frule(tangents, a, b, axes=None):
    xp = array_namespace(a, b)
    order, x_shape = _tensorsolve_layout(a, b, axes)
    n = math.prod(x_shape)
    factored = Factored(xp.reshape(xp.permute_dims(a, order), (n, n))).require_invertible()
    x = factored.solve(xp.reshape(b, (n, 1)))
    da, db = tangents[1], tangents[2]
    y = xp.reshape(x, x_shape)
    if is_zero(da) and is_zero(db):
        return y, ZERO_TANGENT
    da = da if is_zero(da) else xp.reshape(xp.permute_dims(da, order), (n, n))
    db = db if is_zero(db) else xp.reshape(db, (n, 1))
    return y, xp.reshape(solve_pushforward_of(factored, x, False, da, db), x_shape)
