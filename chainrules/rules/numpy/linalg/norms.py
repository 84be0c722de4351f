"""Rules for ``np.linalg.norm``, ``matrix_norm``, ``vector_norm`` and ``cond``.

A norm is real, so both rules come from one gradient ``G`` (the cotangent for ``dy = 1``):
the pullback is ``G * dy`` and the pushforward ``sum(Re(conj(G) * dx))`` over the reduced
axes. Every ``ord`` is covered, for vectors (``None``/2, 1, inf, -inf, 0, any other ``p``)
and matrices (``'fro'``, ``'nuc'``, 1, -1, 2, -2, inf, -inf), along any ``axis``, with
``keepdims``.

Non-differentiable points get documented subgradients, finite and never NaN:

* at zero, every norm has gradient zero (``abs'(0) = 0`` extended; no ``0 / 0``);
* ties of the inf-norms, the 1-norm of matrices (column sums), the inf-norm of matrices
  (row sums) and the 2-norm of matrices (largest singular value) split the cotangent
  equally among the tied entries, as ``max`` does; likewise their negative ``ord`` forms;
* ``ord=0`` counts nonzero entries: its gradient is zero;
* ``'nuc'`` uses ``U V^H`` of the reduced SVD, a subgradient at rank-deficient matrices.

``cond`` with ``p`` in ``(None, 2, -2)`` is a ratio of singular values; with other ``p`` it is
``norm(x, p) * norm(inv(x), p)``, differentiated through the rules of both.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.norm, np.zeros(3))
>>> pullback(1.0)[1]
array([0., 0., 0.])
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.shapes import normalize_axis
from ....core.tangents import NO_TANGENT
from ....core.zeros import is_zero
from ...matrices import mH

__all__ = ["complex_sign", "norm_gradient"]


def complex_sign(x: Any) -> Any:
    """``x / |x|``, and 0 at 0."""
    xp = array_namespace(x)
    magnitude = xp.abs(x)
    nonzero = magnitude > 0
    safe = xp.where(nonzero, magnitude, xp.ones_like(magnitude))
    return xp.where(nonzero, x / safe, xp.zeros_like(x))


def _share(mask: Any, axes: Any) -> Any:
    """``mask`` as weights that sum to one over ``axes`` (ties split equally)."""
    xp = array_namespace(mask)
    weights = xp.astype(mask, xp.float64)
    return weights / xp.sum(weights, axis=axes, keepdims=True)


def _vector_gradient(x: Any, y: Any, ord: Any, axes: tuple[int, ...]) -> Any:
    """The gradient of the vector ``ord``-norm over ``axes``; ``y`` has its kept axes."""
    xp = array_namespace(x, y)
    positive = y > 0
    safe_y = xp.where(positive, y, xp.ones_like(y))
    if ord is None or ord == 2:
        return xp.where(positive, x / safe_y, xp.zeros_like(x))
    if ord == 0:
        return xp.zeros_like(x)
    sign = complex_sign(x)
    if ord == 1:
        return sign
    magnitude = xp.abs(x)
    if ord in (math.inf, -math.inf):
        return sign * xp.astype(_share(magnitude == y, axes), sign.dtype)
    nonzero = magnitude > 0
    power = xp.where(nonzero, magnitude, xp.ones_like(magnitude)) ** (ord - 1)
    scale = xp.where(nonzero & positive, power / safe_y ** (ord - 1), xp.zeros_like(power))
    return sign * scale


def _matrix_gradient(x: Any, y: Any, ord: Any) -> Any:
    """The gradient of the matrix ``ord``-norm over the last two axes."""
    xp = array_namespace(x, y)
    if ord in (None, "fro"):
        return _vector_gradient(x, y, None, (-2, -1))
    if ord in ("nuc", 2, -2):
        u, s, vh = xp.linalg.svd(x, full_matrices=False)
        if ord == "nuc":
            return xp.matmul(u, vh)
        extreme = (
            xp.max(s, axis=-1, keepdims=True) if ord == 2 else xp.min(s, axis=-1, keepdims=True)
        )
        weights = xp.astype(_share(s == extreme, -1), u.dtype)
        return xp.matmul(u * weights[..., None, :], vh)
    sums_axis = -2 if ord in (1, -1) else -1
    sums = xp.sum(xp.abs(x), axis=sums_axis, keepdims=True)
    pick = xp.max if ord in (1, math.inf) else xp.min
    extreme = pick(sums, axis=-1 if sums_axis == -2 else -2, keepdims=True)
    weights = _share(sums == extreme, -1 if sums_axis == -2 else -2)
    sign = complex_sign(x)
    return sign * xp.astype(weights, sign.dtype)


def _plan(x: Any, ord: Any, axis: Any) -> tuple[str, tuple[int, ...]]:
    """Which kind of norm ``np.linalg.norm(x, ord, axis)`` computes, and over which axes."""
    ndim = x.ndim
    if axis is None:
        if ord is None:
            return "vector", tuple(range(ndim))
        axis = tuple(range(ndim))
    elif isinstance(axis, int | np.integer):
        axis = (int(axis),)
    axes = tuple(normalize_axis(a, ndim) for a in axis)
    if len(axes) == 1:
        return "vector", axes
    if len(axes) == 2:
        return "matrix", axes
    raise ValueError(f"numpy.linalg.norm: improper number of dimensions to norm ({len(axes)})")


def norm_gradient(x: Any, ord: Any, axes: tuple[int, ...], kind: str) -> Any:
    """The gradient of the ``kind`` (``"vector"`` or ``"matrix"``) ``ord``-norm of ``x`` over
    ``axes``, with the subgradients described in this module's docstring.

    >>> norm_gradient(np.array([3.0, -3.0, 1.0]), np.inf, (0,), "vector")
    array([ 0.5, -0.5,  0. ])
    """
    xp = array_namespace(x)
    if kind == "vector":
        return _vector_gradient(x, _vector_norm_kept(x, ord, axes), ord, axes)
    moved = xp.moveaxis(x, axes, (-2, -1))
    y = xp.linalg.norm(moved, ord=ord, axis=(-2, -1), keepdims=True)
    return xp.moveaxis(_matrix_gradient(moved, y, ord), (-2, -1), axes)


def _vector_norm_kept(x: Any, ord: Any, axes: tuple[int, ...]) -> Any:
    """The vector norm of ``x`` over ``axes``, those kept with length one. Several axes are
    made one first: JAX before 0.5 computes a matrix norm for a pair of them."""
    xp = array_namespace(x)
    ord = 2 if ord is None else ord
    if len(axes) < 2:
        return xp.linalg.vector_norm(x, ord=ord, axis=axes, keepdims=True)
    ends = tuple(range(x.ndim - len(axes), x.ndim))
    moved = xp.moveaxis(x, axes, ends)
    size = math.prod(x.shape[a] for a in axes)  # not -1: other axes may be empty
    flat = xp.reshape(moved, (*moved.shape[: x.ndim - len(axes)], size))
    y = xp.linalg.vector_norm(flat, ord=ord, axis=-1, keepdims=True)
    return xp.reshape(y, tuple(1 if i in axes else n for i, n in enumerate(x.shape)))


def _keep(dy: Any, x: Any, axes: tuple[int, ...], keepdims: bool) -> Any:
    """``dy`` with the reduced axes restored (length one), to broadcast against ``x``."""
    if keepdims or getattr(dy, "ndim", 0) == 0:  # a scalar broadcasts as it is
        return dy
    return array_namespace(dy).reshape(dy, _kept_shape(x, axes))


def _kept_shape(x: Any, axes: tuple[int, ...]) -> tuple[int, ...]:
    """``x``'s shape with ``axes`` of length one."""
    return tuple(1 if i in axes else n for i, n in enumerate(x.shape))


def _is_two_norm(ord: Any, kind: str) -> bool:
    """Whether the ``kind`` ``ord``-norm is the square root of the sum of squares: the vector
    2-norm, or the Frobenius norm of matrices."""
    return ord is None or (kind == "vector" and ord == 2) or (kind == "matrix" and ord == "fro")


def _gradient_given_norm(
    x: Any, y: Any, ord: Any, axes: tuple[int, ...], kind: str, keepdims: bool
) -> Any:
    """``norm_gradient(x, ord, axes, kind)``, using the norm ``y`` the rule computed.

    The gradient of a 2-norm (or Frobenius norm) is ``x / y``: from the forward's ``y`` it
    costs one division, where computing it afresh would sum the squares again.
    """
    if not _is_two_norm(ord, kind):
        return norm_gradient(x, ord, axes, kind)
    if type(x) is np.ndarray and type(y) in _NUMPY_VALUES:
        # A NumPy scalar broadcasts as it is; where every norm is positive, the masked form
        # below gives this same quotient.
        if type(y) is not np.ndarray:
            if y > 0:
                return x / y
        else:
            y = y if keepdims else y.reshape(_kept_shape(x, axes))
            if (y > 0).all():
                return x / y
    return _vector_gradient(x, _keep(y, x, axes, keepdims), None, axes)


_NUMPY_VALUES = frozenset({np.ndarray, np.float64, np.float32, np.float16, np.longdouble})


def _norm_rules(compute: Any, plan: Any) -> tuple[Any, Any]:
    """The rrule and frule of a norm ``compute(x, ord, axis, keepdims)``; ``plan(x, ord,
    axis)`` says which kind of norm it is and which axes it reduces."""

    def norm_rrule(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
        project_x = ProjectTo(x)
        y = compute(x, ord, axis, keepdims)
        kind, axes = plan(x, ord, axis)

        def norm_pullback(dy: Any) -> tuple:
            g = _gradient_given_norm(x, y, ord, axes, kind, keepdims)
            return NO_TANGENT, project_x(g * _keep(dy, x, axes, keepdims))

        return y, norm_pullback

    def norm_frule(tangents: tuple, x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
        xp = array_namespace(x)
        y = compute(x, ord, axis, keepdims)
        dx = tangents[1]
        if is_zero(dx):
            return y, dx
        kind, axes = plan(x, ord, axis)
        g = _gradient_given_norm(x, y, ord, axes, kind, keepdims)
        inner = xp.real(xp.conj(g) * dx) if is_complex(g) or is_complex(dx) else g * dx
        dy = xp.sum(inner, axis=axes, keepdims=keepdims)
        return y, ProjectTo(y)(dy)

    return norm_rrule, norm_frule


def _norm(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    return array_namespace(x).linalg.norm(x, ord, axis, keepdims)


def _matrix_norm(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    return array_namespace(x).linalg.matrix_norm(x, ord=ord, keepdims=keepdims)


def _matrix_plan(x: Any, ord: Any, axis: Any) -> tuple[str, tuple[int, ...]]:
    return "matrix", (x.ndim - 2, x.ndim - 1)


def _vector_norm(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
    return array_namespace(x).linalg.vector_norm(x, axis=axis, keepdims=keepdims, ord=ord)


_norm_r, _norm_f = _norm_rules(_norm, _plan)


@rrule.register(np.linalg.norm)
def _linalg_norm_rrule(x, ord=None, axis=None, keepdims=False):
    return _norm_r(x, ord, axis, keepdims)


@frule.register(np.linalg.norm)
def _linalg_norm_frule(tangents, x, ord=None, axis=None, keepdims=False):
    return _norm_f(tangents, x, ord, axis, keepdims)


_matrix_r, _matrix_f = _norm_rules(_matrix_norm, _matrix_plan)


@rrule.register(np.linalg.matrix_norm)
def _matrix_norm_rrule(x, *, keepdims=False, ord="fro"):
    return _matrix_r(x, ord, None, keepdims)


@frule.register(np.linalg.matrix_norm)
def _matrix_norm_frule(tangents, x, *, keepdims=False, ord="fro"):
    return _matrix_f(tangents, x, ord, None, keepdims)


def _vector_plan(x: Any, ord: Any, axis: Any) -> tuple[str, tuple[int, ...]]:
    if axis is None:
        return "vector", tuple(range(x.ndim))
    axes = (axis,) if isinstance(axis, int | np.integer) else axis
    return "vector", tuple(normalize_axis(int(a), x.ndim) for a in axes)


_vector_r, _vector_f = _norm_rules(_vector_norm, _vector_plan)


@rrule.register(np.linalg.vector_norm)
def _vector_norm_rrule(x, *, axis=None, keepdims=False, ord=2):
    return _vector_r(x, ord, axis, keepdims)


@frule.register(np.linalg.vector_norm)
def _vector_norm_frule(tangents, x, *, axis=None, keepdims=False, ord=2):
    return _vector_f(tangents, x, ord, axis, keepdims)


# ---- cond -------------------------------------------------------------------------------


def _cond_gradient(x: Any, p: Any) -> Any:
    """The gradient of ``np.linalg.cond(x, p)``."""
    xp = array_namespace(x)
    if p in (None, 2, -2):
        u, s, vh = xp.linalg.svd(x, full_matrices=False)
        big, small = s[..., :1], s[..., -1:]
        if p == -2:
            # cond = s_min / s_max
            weights = xp.concat((-small / big**2, xp.zeros_like(s[..., 1:-1]), 1 / big), axis=-1)
        else:
            weights = xp.concat((1 / small, xp.zeros_like(s[..., 1:-1]), -big / small**2), axis=-1)
        if s.shape[-1] == 1:
            weights = xp.zeros_like(s)
        return xp.matmul(u * xp.astype(weights, u.dtype)[..., None, :], vh)
    inverse = xp.linalg.inv(x)
    axes = (-2, -1)
    n_x = xp.linalg.norm(x, ord=p, axis=axes, keepdims=True)
    n_inv = xp.linalg.norm(inverse, ord=p, axis=axes, keepdims=True)
    matrix = (x.ndim - 2, x.ndim - 1)
    g_inv = norm_gradient(inverse, p, matrix, "matrix") * n_x
    inv_h = mH(inverse)
    return norm_gradient(x, p, matrix, "matrix") * n_inv - xp.matmul(xp.matmul(inv_h, g_inv), inv_h)


def _require_finite_condition(y: Any) -> None:
    # a singular x has cond = inf, which has no derivative (the gradient formulas divide by
    # the vanishing smallest singular value and came out NaN)
    if isinstance(y, np.ndarray | np.generic) and np.any(np.isinf(y)):
        raise np.linalg.LinAlgError(
            "np.linalg.cond: the condition number of a singular argument x is inf and has "
            "no derivative"
        )


@rrule.register(np.linalg.cond)
def _cond_rrule(x, p=None):
    xp = array_namespace(x)
    project_x = ProjectTo(x)
    y = xp.linalg.cond(x, p)

    def cond_pullback(dy):
        _require_finite_condition(y)
        if is_complex(dy):
            # cond is real; NumPy before 2.3 returns it as a complex number for complex x and
            # p other than None, 2, -2, whose imaginary part is 0: only Re(dy) pulls back.
            dy = xp.real(dy)
        return NO_TANGENT, project_x(
            _cond_gradient(x, p) * _keep(dy, x, (x.ndim - 2, x.ndim - 1), False)
        )

    return y, cond_pullback


@frule.register(np.linalg.cond)
def _cond_frule(tangents, x, p=None):
    xp = array_namespace(x)
    y = xp.linalg.cond(x, p)
    dx = tangents[1]
    if is_zero(dx):
        return y, dx
    _require_finite_condition(y)
    g = _cond_gradient(x, p)
    inner = xp.real(xp.conj(g) * dx) if is_complex(g) or is_complex(dx) else g * dx
    return y, ProjectTo(y)(xp.sum(inner, axis=(-2, -1)))
