"""Rules for ``np.linalg.solve``, ``inv``, ``tensorinv`` and ``tensorsolve``.

``solve`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs) and its pullback solves with
``a^H`` through the same factors, so a pullback costs one pair of triangular solves, not a
new factorization. ``inv`` reuses its output. Their mathematics (``solve_pullback_of``,
``inv_pullback_of``, ...) lives in ``chainrules.rules.matrices``, shared with SciPy's rules;
``matrix_rule`` registers both rules of each from it. Every pullback is written in
array-namespace operations, so that an engine can differentiate it again.

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

__all__: list[str] = []


# ---- solve, inv -------------------------------------------------------------------------


def _solved(a: Any, b: Any) -> tuple[Any, tuple]:
    """``a^{-1} b`` by LU factors kept for the derivatives (NumPy 2: only a 1-D ``b`` is a
    vector)."""
    vector = b.ndim == 1
    factored = Factored(a).require_invertible()
    x = factored.solve(as_matrix(b, vector))
    return as_given(x, vector), (factored, x, vector)


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
