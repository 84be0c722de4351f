"""Rules for ``np.linalg``: solves and inverses, powers and chains, and the array-API aliases.

The other ``np.linalg`` families live beside this module: ``linalg_det`` (det, slogdet),
``linalg_pinv`` (pinv, lstsq), ``linalg_decomp`` (cholesky, qr), ``linalg_spectral`` (svd,
svdvals, eig, eigvals, eigh, eigvalsh) and ``norms`` (norm, matrix_norm, vector_norm, cond).

``solve`` factorizes ``a`` once (LAPACK's LU, for NumPy inputs) and its pullback solves with
``a^H`` through the same factors, so a pullback costs one pair of triangular solves, not a
new factorization. ``inv`` reuses its output. Every pullback is written in array-namespace
operations, so that an engine can differentiate it again.

``np.linalg.matmul``, ``outer``, ``cross``, ``matrix_transpose``, ``tensordot``, ``trace``
and ``diagonal`` are distinct objects from their ``np`` namesakes; their rules call those of
the ``np`` functions (``trace`` and ``diagonal`` on the last two axes).

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> a = np.array([[2.0, 0.0], [0.0, 4.0]])
>>> x, pullback = rrule(np.linalg.solve, a, np.array([2.0, 4.0]))
>>> x, pullback(np.array([1.0, 1.0]))[2]
(array([1., 1.]), array([0.5 , 0.25]))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.arguments import positional_cotangents
from ...core.define import non_differentiable
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from ...core.thunks import unthunk
from ..matrices import Factored, as_given, as_matrix, eye_like, mH

__all__ = ["inv_pullback_of", "inv_pushforward_of"]


def _zeros_for(*projectors: Any) -> Callable[[Any], tuple]:
    """The pullback's answer to a zero cotangent: the zero itself for every argument."""

    def zeros(dy: AbstractZero) -> tuple:
        return (NO_TANGENT, *(p(dy) for p in projectors))

    return zeros


# ---- solve ------------------------------------------------------------------------------


@rrule.register(np.linalg.solve)
def _solve_rrule(a, b):
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    vector = b.ndim == 1  # NumPy 2: only a 1-D b is a vector
    factored = Factored(a).require_invertible()
    x = factored.solve(as_matrix(b, vector))

    def solve_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy), project_b(dy)
        db = factored.solve(as_matrix(dy, vector), adjoint=True)
        da = -xp.matmul(db, mH(x))
        return NO_TANGENT, project_a(da), project_b(as_given(db, vector))

    return as_given(x, vector), solve_pullback


@frule.register(np.linalg.solve)
def _solve_frule(tangents, a, b):
    xp = array_namespace(a, b)
    vector = b.ndim == 1
    factored = Factored(a).require_invertible()
    x = factored.solve(as_matrix(b, vector))
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    rhs: Any = ZERO_TANGENT
    if not isinstance(db, AbstractZero):
        rhs = as_matrix(db, vector)
    if not isinstance(da, AbstractZero):
        rhs = rhs - xp.matmul(da, x)
    if isinstance(rhs, AbstractZero):
        return as_given(x, vector), rhs
    dx = factored.solve(xp.broadcast_to(rhs, x.shape))
    return as_given(x, vector), ProjectTo(as_given(x, vector))(as_given(dx, vector))


# ---- inv --------------------------------------------------------------------------------


def inv_pullback_of(y: Any, dy: Any) -> Any:
    """The cotangent of ``a`` for ``y = inv(a)``: ``-y^H dy y^H`` (stacks of matrices).

    >>> import numpy as np
    >>> inv_pullback_of(np.array([[0.5]]), np.array([[1.0]]))
    array([[-0.25]])
    """
    xp = array_namespace(y, dy)
    y_h = mH(y)
    return -xp.matmul(xp.matmul(y_h, dy), y_h)


def inv_pushforward_of(y: Any, da: Any) -> Any:
    """The tangent of ``y = inv(a)`` along ``da``: ``-y da y`` (stacks of matrices).

    >>> import numpy as np
    >>> inv_pushforward_of(np.array([[0.5]]), np.array([[1.0]]))
    array([[-0.25]])
    """
    xp = array_namespace(y, da)
    return -xp.matmul(xp.matmul(y, da), y)


@rrule.register(np.linalg.inv)
def _inv_rrule(a):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    y = xp.linalg.inv(a)

    def inv_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        return NO_TANGENT, project_a(inv_pullback_of(y, dy))

    return y, inv_pullback


@frule.register(np.linalg.inv)
def _inv_frule(tangents, a):
    xp = array_namespace(a)
    y = xp.linalg.inv(a)
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    return y, inv_pushforward_of(y, da)


# ---- tensorinv, tensorsolve -------------------------------------------------------------


@rrule.register(np.linalg.tensorinv)
@positional_cotangents
def _tensorinv_rrule(a, ind=2):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    shape = tuple(a.shape)
    rows = math.prod(shape[ind:])
    y2 = xp.linalg.inv(xp.reshape(a, (math.prod(shape[:ind]), rows)))
    y = xp.reshape(y2, shape[ind:] + shape[:ind])

    def tensorinv_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy)
        da = inv_pullback_of(y2, xp.reshape(dy, y2.shape))
        return NO_TANGENT, project_a(xp.reshape(da, shape))

    return y, tensorinv_pullback


@frule.register(np.linalg.tensorinv)
def _tensorinv_frule(tangents, a, ind=2):
    xp = array_namespace(a)
    shape = tuple(a.shape)
    y2 = xp.linalg.inv(xp.reshape(a, (math.prod(shape[:ind]), math.prod(shape[ind:]))))
    y = xp.reshape(y2, shape[ind:] + shape[:ind])
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
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
@positional_cotangents
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
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_a(dy), project_b(dy)
        db = factored.solve(xp.reshape(dy, (n, 1)), adjoint=True)
        da = xp.reshape(-xp.matmul(db, mH(x)), a_permuted.shape)
        da = xp.permute_dims(da, inverse_order)
        return NO_TANGENT, project_a(da), project_b(xp.reshape(db, b.shape))

    return xp.reshape(x, x_shape), tensorsolve_pullback


@frule.register(np.linalg.tensorsolve)
def _tensorsolve_frule(tangents, a, b, axes=None):
    xp = array_namespace(a, b)
    order, x_shape = _tensorsolve_layout(a, b, axes)
    n = math.prod(x_shape)
    factored = Factored(xp.reshape(xp.permute_dims(a, order), (n, n))).require_invertible()
    x = factored.solve(xp.reshape(b, (n, 1)))
    da, db = unthunk(tangents[1]), unthunk(tangents[2])
    rhs: Any = ZERO_TANGENT
    if not isinstance(db, AbstractZero):
        rhs = xp.reshape(db, (n, 1))
    if not isinstance(da, AbstractZero):
        rhs = rhs - xp.matmul(xp.reshape(xp.permute_dims(da, order), (n, n)), x)
    y = xp.reshape(x, x_shape)
    if isinstance(rhs, AbstractZero):
        return y, rhs
    return y, xp.reshape(factored.solve(rhs), x_shape)


# ---- matrix_power -----------------------------------------------------------------------


def _powers(a: Any, count: int) -> list[Any]:
    """``[I, a, a^2, ..., a^(count-1)]``, the partial products the rules reuse."""
    xp = array_namespace(a)
    powers = [xp.broadcast_to(eye_like(a), a.shape)]
    for _ in range(count - 1):
        powers.append(xp.matmul(powers[-1], a))
    return powers


def _power_base(a: Any, n: int) -> Any:
    return array_namespace(a).linalg.inv(a) if n < 0 else a


@rrule.register(np.linalg.matrix_power)
def _matrix_power_rrule(a, n):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    base = _power_base(a, n)
    m = abs(n)
    powers = _powers(base, m)
    y = xp.matmul(powers[-1], base) if m else powers[0]

    def matrix_power_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero) or m == 0:
            return NO_TANGENT, project_a(ZERO_TANGENT if m else xp.zeros_like(a)), NO_TANGENT
        d_base = sum(
            xp.matmul(xp.matmul(mH(powers[k]), dy), mH(powers[m - 1 - k])) for k in range(m)
        )
        if n < 0:
            base_h = mH(base)
            d_base = -xp.matmul(xp.matmul(base_h, d_base), base_h)
        return NO_TANGENT, project_a(d_base), NO_TANGENT

    return y, matrix_power_pullback


@frule.register(np.linalg.matrix_power)
def _matrix_power_frule(tangents, a, n):
    xp = array_namespace(a)
    base = _power_base(a, n)
    m = abs(n)
    powers = _powers(base, m)
    y = xp.matmul(powers[-1], base) if m else powers[0]
    da = unthunk(tangents[1])
    if isinstance(da, AbstractZero):
        return y, da
    if m == 0:
        return y, xp.zeros_like(y)
    if n < 0:
        da = -xp.matmul(xp.matmul(base, da), base)
    dy = sum(xp.matmul(xp.matmul(powers[k], da), powers[m - 1 - k]) for k in range(m))
    return y, dy


# ---- multi_dot --------------------------------------------------------------------------


def _chain_factors(arrays: Any) -> tuple[list[Any], bool, bool]:
    """The factors as matrices: a 1-D first (last) array becomes a row (column)."""
    factors = list(arrays)
    first, last = factors[0].ndim == 1, factors[-1].ndim == 1
    if first:
        factors[0] = factors[0][None, :]
    if last:
        factors[-1] = factors[-1][:, None]
    return factors, first, last


def _unchain(y: Any, first: bool, last: bool) -> Any:
    if last:
        y = y[..., 0]
    if first:
        y = y[0, ...]
    return y


def _rechain(dy: Any, first: bool, last: bool) -> Any:
    if first:
        dy = dy[None, ...]
    if last:
        dy = dy[..., None]
    return dy


@rrule.register(np.linalg.multi_dot)
def _multi_dot_rrule(arrays):
    xp = array_namespace(*arrays)
    project_arrays = ProjectTo(arrays)
    factors, first, last = _chain_factors(arrays)
    k = len(factors)
    # prefix[i] = factors[0] @ ... @ factors[i - 1]; suffix[i] = factors[i + 1] @ ... @ last
    prefix: list[Any] = [None, factors[0]]
    for i in range(1, k - 1):
        prefix.append(xp.matmul(prefix[-1], factors[i]))
    suffix: list[Any] = [None] * k
    suffix[k - 2] = factors[-1]
    for i in range(k - 3, -1, -1):
        suffix[i] = xp.matmul(factors[i + 1], suffix[i + 1])
    y = xp.matmul(prefix[-1], factors[-1])

    def multi_dot_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_arrays(ZERO_TANGENT)
        g = _rechain(dy, first, last)
        pieces = []
        for i in range(k):
            d = g if i == 0 else xp.matmul(mH(prefix[i]), g)
            if i < k - 1:
                d = xp.matmul(d, mH(suffix[i]))
            pieces.append(d)
        if first:
            pieces[0] = pieces[0][0]
        if last:
            pieces[-1] = pieces[-1][:, 0]
        return NO_TANGENT, project_arrays(type(arrays)(pieces))

    return _unchain(y, first, last), multi_dot_pullback


@frule.register(np.linalg.multi_dot)
def _multi_dot_frule(tangents, arrays):
    xp = array_namespace(*arrays)
    factors, first, last = _chain_factors(arrays)
    dts = unthunk(tangents[1])
    d_factors = [ZERO_TANGENT] * len(factors) if isinstance(dts, AbstractZero) else list(dts)
    d_factors = [unthunk(d) for d in d_factors]
    if not isinstance(d_factors[0], AbstractZero) and first:
        d_factors[0] = d_factors[0][None, :]
    if not isinstance(d_factors[-1], AbstractZero) and last:
        d_factors[-1] = d_factors[-1][:, None]
    y, dy = factors[0], d_factors[0]
    for f, df in zip(factors[1:], d_factors[1:], strict=True):
        if isinstance(dy, AbstractZero):
            dy = dy if isinstance(df, AbstractZero) else xp.matmul(y, df)
        else:
            dy = xp.matmul(dy, f) + (0 if isinstance(df, AbstractZero) else xp.matmul(y, df))
        y = xp.matmul(y, f)
    y = _unchain(y, first, last)
    return y, dy if isinstance(dy, AbstractZero) else _unchain(dy, first, last)


# ---- vecdot -----------------------------------------------------------------------------


@rrule.register(np.linalg.vecdot)
def _vecdot_rrule(x1, x2, *, axis=-1):
    xp = array_namespace(x1, x2)
    project_1, project_2 = ProjectTo(x1), ProjectTo(x2)
    y = xp.linalg.vecdot(x1, x2, axis=axis)

    def vecdot_pullback(dy):
        dy = unthunk(dy)
        if isinstance(dy, AbstractZero):
            return NO_TANGENT, project_1(dy), project_2(dy)
        g = xp.expand_dims(xp.asarray(dy), axis=axis)
        d1 = x2 * (xp.conj(g) if is_complex(g) else g)
        return NO_TANGENT, project_1(d1), project_2(x1 * g)

    return y, vecdot_pullback


@frule.register(np.linalg.vecdot)
def _vecdot_frule(tangents, x1, x2, *, axis=-1):
    xp = array_namespace(x1, x2)
    y = xp.linalg.vecdot(x1, x2, axis=axis)
    d1, d2 = unthunk(tangents[1]), unthunk(tangents[2])
    dy: Any = ZERO_TANGENT
    if not isinstance(d1, AbstractZero):
        dy = xp.linalg.vecdot(d1, x2, axis=axis)
    if not isinstance(d2, AbstractZero):
        dy = dy + xp.linalg.vecdot(x1, d2, axis=axis)
    return y, dy


# ---- aliases of np functions --------------------------------------------------------------


def _register_alias(f: Any, target: Any, keywords: dict[str, Any], fixed: dict[str, Any]) -> None:
    """Rules for ``f`` that call ``target``'s, passing ``f``'s keywords and ``fixed`` ones."""

    def alias_rrule(*args: Any, **kwargs: Any) -> Any:
        return rrule(target, *args, **{**keywords, **kwargs, **fixed})

    def alias_frule(tangents: tuple, *args: Any, **kwargs: Any) -> Any:
        return frule(tangents, target, *args, **{**keywords, **kwargs, **fixed})

    for rule, table in ((alias_rrule, rrule), (alias_frule, frule)):
        rule.__qualname__ = f"{table.kind}[linalg.{f.__name__} -> {target.__name__}]"
        table.register(f, keywords=keywords)(rule)


_register_alias(np.linalg.matmul, np.matmul, {}, {})
_register_alias(np.linalg.outer, np.outer, {}, {})
_register_alias(np.linalg.cross, np.cross, {"axis": -1}, {})
_register_alias(np.linalg.matrix_transpose, np.matrix_transpose, {}, {})
_register_alias(np.linalg.tensordot, np.tensordot, {"axes": 2}, {})
_register_alias(np.linalg.trace, np.trace, {"offset": 0, "dtype": None}, {"axis1": -2, "axis2": -1})
_register_alias(np.linalg.diagonal, np.diagonal, {"offset": 0}, {"axis1": -2, "axis2": -1})


# ---- integer-valued -----------------------------------------------------------------------

non_differentiable(np.linalg.matrix_rank)
