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

The value is NumPy's, which sums squares or ``p``-th powers as they come: the 2-norm of
``[1e200, 1e200]`` is inf, of ``[1e-200, 1e-200]`` 0. The gradient does not inherit that: a
norm is homogeneous of degree one, so its gradient at ``x`` is its gradient at ``x / s`` for
any ``s > 0``, and it is computed from ``x`` divided, slice by slice, by a power of two near
its largest magnitude (its smallest, for ``p < 0``), where the powers are in range (for
``0 < p < 2``, the power of ``|x|`` itself times that of ``s``). An inf entry gives NaN, but
for ``p < 0`` (whose gradient there is 0).

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
from ....core.namespace import array_namespace, is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.shapes import normalize_axis
from ....core.tangents import NO_TANGENT
from ....core.zeros import is_zero
from ...matrices import mH

__all__ = ["complex_sign", "norm_gradient"]


def complex_sign(x: Any) -> Any:
    """``x / |x|``, and 0 at 0 (the sign of a real ``x``: +-1 at infinities too)."""
    xp = array_namespace(x)
    if not is_complex(x):
        return xp.sign(x)
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
    # (|x| / y)^(p - 1): the quotient first, which stays in range where the powers would not
    nonzero = (magnitude > 0) & positive
    ratio = xp.where(nonzero, magnitude / safe_y, xp.ones_like(magnitude))
    power = xp.where(nonzero, ratio ** (ord - 1), xp.zeros_like(ratio))
    # p < 0: an entry too large for the dtype (after rescaling) has power 0, sign NaN
    return xp.where(power == 0, xp.zeros_like(sign), sign * power)


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
        if ord in (0, 1, math.inf, -math.inf):
            return _vector_gradient(x, _vector_norm_kept(x, ord, axes), ord, axes)
        if ord is None or ord > 1:
            x = _toward_infinity(x, axes)
        s = _scale(x, ord, axes)
        with np.errstate(over="ignore"):  # p < 0: entries far above the smallest, gradient 0
            scaled = x / s
        y = _vector_norm_kept(scaled, ord, axes)
        if ord is not None and 0 < ord < 2:
            return _root_gradient(x, s, y, ord)
        return _vector_gradient(scaled, y, ord, axes)
    moved = xp.moveaxis(x, axes, (-2, -1))
    if ord in (None, "fro"):
        moved = _toward_infinity(moved, (-2, -1))
    moved = moved / _scale(moved, None, (-2, -1))
    y = xp.linalg.norm(moved, ord=ord, axis=(-2, -1), keepdims=True)
    return xp.moveaxis(_matrix_gradient(moved, y, ord), (-2, -1), axes)


def _toward_infinity(x: Any, axes: tuple[int, ...]) -> Any:
    """``x``, but a slice over ``axes`` that holds an infinite entry becomes the direction it
    went there in: the signs of its infinite entries, 0 elsewhere. A norm of order p > 1 is
    homogeneous, so at [t, 1] its gradient is that at [1, 1/t], which tends to the gradient at
    [1, 0] as t grows: the gradient at [inf, 1] is [1, 0], where x / y would be [NaN, 0]. (Real
    NumPy arrays; others as they are.)

    >>> _toward_infinity(np.array([[-np.inf, 2.0, np.inf], [1.0, 2.0, 3.0]]), (1,))
    array([[-1.,  0.,  1.],
           [ 1.,  2.,  3.]])
    """
    if not is_numpy(x) or is_complex(x):
        return x
    infinite = np.isinf(x)
    if not infinite.any():
        return x
    toward = np.any(infinite, axis=axes, keepdims=True)
    return np.where(toward, np.where(infinite, np.sign(x), 0.0), x)


def _root_gradient(x: Any, s: Any, y: Any, ord: Any) -> Any:
    """The gradient of the vector ``ord``-norm for ``0 < ord < 2``, given ``y``, the norm of
    ``x / s``: ``sign(x) |x|^(p - 1) s^(1 - p) y^(1 - p)``. With ``|p - 1| < 1`` each power is
    in range where the gradient is, left to right; the quotient ``|x| / s`` of the other
    orders is not, for entries below ``s`` by more than the dtype's range, whose gradient
    (``(|x| / s)^(p - 1)``, larger than the quotient) may still be."""
    xp = array_namespace(x, y)
    magnitude = xp.abs(x)
    positive = y > 0
    nonzero = (magnitude > 0) & positive
    safe_y = xp.where(positive, y, xp.ones_like(y))
    base = xp.where(nonzero, magnitude, xp.ones_like(magnitude))
    power = base ** (ord - 1) * s ** (1 - ord) * safe_y ** (1 - ord)
    power = xp.where(nonzero, power, xp.zeros_like(power))
    sign = complex_sign(x)
    return xp.where(power == 0, xp.zeros_like(sign), sign * power)


def _scale(x: Any, ord: Any, axes: tuple[int, ...]) -> Any:
    """A divisor of ``x``, one per slice over ``axes``, that brings the powers a norm sums into
    range: the largest magnitude (the smallest for a negative ``ord``, whose powers the
    smallest dominate), as a power of two for NumPy arrays so that dividing by it is exact.
    Every norm's gradient is unchanged by it (the norm is homogeneous), where the powers of
    ``x`` itself may overflow or underflow. Slices of zeros, inf or NaN keep a power of two
    near 1, which changes nothing of what they give; empty slices, 1.

    >>> _scale(np.array([[3.0, -4.0], [0.5, 0.0]]), 2, (1,))
    array([[4. ],
           [0.5]])
    """
    if any(x.shape[a] == 0 for a in axes):
        return 1
    xp = array_namespace(x)
    pick = xp.min if isinstance(ord, int | float) and ord < 0 else xp.max
    largest = pick(xp.abs(x), axis=axes, keepdims=True)
    if is_numpy(largest):
        # frexp: largest = f 2^e with 1/2 <= f < 1, so largest / 2^(e-1) is in [1, 2) and
        # 2^(e-1) never overflows; 0, inf and NaN have e = 0
        return np.ldexp(np.ones_like(largest), np.frexp(largest)[1] - 1)
    usable = (largest > 0) & (largest < math.inf)
    return xp.where(usable, largest, xp.ones_like(largest))


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
    costs one division, where computing it afresh would sum the squares again. That ``y`` is
    NumPy's sum of squares, which overflows to inf past the square root of the largest float
    and loses digits to subnormals below that of the smallest: the quotient is taken only
    where every norm is within ``_ACCURATE_TWO_NORMS``, and the gradient is computed anew,
    from a rescaled ``x``, elsewhere (zero norms included).
    """
    if _is_two_norm(ord, kind) and type(x) is np.ndarray and type(y) in _NUMPY_VALUES:
        low, high = _ACCURATE_TWO_NORMS[y.dtype]
        # A NumPy scalar broadcasts as it is
        if type(y) is not np.ndarray:
            if low < y <= high:
                return x / y
        else:
            y = y if keepdims else y.reshape(_kept_shape(x, axes))
            if y.size == 0 or low < y.min() <= y.max() <= high:  # False with a NaN
                return x / y
    return norm_gradient(x, ord, axes, kind)


_NUMPY_VALUES = frozenset({np.ndarray, np.float64, np.float32, np.float16, np.longdouble})


def _accurate_two_norms(dtype: Any) -> tuple[Any, Any]:
    """The 2-norms the forward's sum of squares gives to full precision in ``dtype``: above
    ``sqrt(tiny / eps)`` the squares' rounding to subnormals or to zero (at most ``tiny * eps``
    each) is below ``eps`` of their sum for any count under ``1 / eps``; at most the largest
    float, where the sum has not overflowed. Outside, x / y is wrong (0 at an overflowed inf,
    0 or too large at an underflowed or subnormal sum) and the gradient is computed anew."""
    info = np.finfo(dtype)
    return np.sqrt(info.tiny / info.eps), info.max


_ACCURATE_TWO_NORMS = {
    np.dtype(t): _accurate_two_norms(t) for t in (np.float16, np.float32, np.float64, np.longdouble)
}


def _norm_rules(compute: Any, plan: Any) -> tuple[Any, Any]:
    """The rrule and frule of a norm ``compute(x, ord, axis, keepdims)``; ``plan(x, ord,
    axis)`` says which kind of norm it is and which axes it reduces."""

    def norm_rrule(x: Any, ord: Any, axis: Any, keepdims: bool) -> Any:
        project_x = ProjectTo(x)
        y = compute(x, ord, axis, keepdims)
        kind, axes = plan(x, ord, axis)
        # a float ord given by position has a tangent space to the protocol: none here
        rest = (NO_TANGENT,) if isinstance(ord, float) else ()

        def norm_pullback(dy: Any) -> tuple:
            g = _gradient_given_norm(x, y, ord, axes, kind, keepdims)
            return NO_TANGENT, project_x(g * _keep(dy, x, axes, keepdims)), *rest

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
    """The gradient of ``np.linalg.cond(x, p)``: ``cond`` is homogeneous of degree zero, so
    its gradient at ``x`` is that at ``x / s`` over ``s``, ``s`` a power of two near the
    largest magnitude of each matrix, where the squares in its norms and in the formulas
    below neither overflow nor underflow."""
    s = _scale(x, None, (-2, -1))
    return _scaled_cond_gradient(x / s, p) / s


def _scaled_cond_gradient(x: Any, p: Any) -> Any:
    xp = array_namespace(x)
    if p in (None, 2, -2):
        u, s, vh = xp.linalg.svd(x, full_matrices=False)
        big, small = s[..., :1], s[..., -1:]
        # the quotients first: big / small**2 overflows where (big / small) / small need not
        if p == -2:
            # cond = s_min / s_max
            weights = xp.concat(
                (-(small / big) / big, xp.zeros_like(s[..., 1:-1]), 1 / big), axis=-1
            )
        else:
            weights = xp.concat(
                (1 / small, xp.zeros_like(s[..., 1:-1]), -(big / small) / small), axis=-1
            )
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


def _require_finite_condition(x: Any, y: Any, p: Any) -> None:
    # a singular x has cond = inf, which has no derivative (the gradient formulas divide by
    # the vanishing smallest singular value and came out NaN); NumPy's 'fro' cond of a huge
    # or tiny x is inf too, from norms that overflow, where that of a rescaled x is finite
    if not (isinstance(y, np.ndarray | np.generic) and np.any(np.isinf(y))):
        return
    with np.errstate(divide="ignore", over="ignore", under="ignore", invalid="ignore"):
        rescaled = np.linalg.cond(x / _scale(x, None, (-2, -1)), p)
    if np.any(np.isinf(rescaled)):
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
        _require_finite_condition(x, y, p)
        if is_complex(dy):
            # cond is real; NumPy before 2.3 returns it as a complex number for complex x and
            # p other than None, 2, -2, whose imaginary part is 0: only Re(dy) pulls back.
            dy = xp.real(dy)
        dx = _cond_gradient(x, p) * _keep(dy, x, (x.ndim - 2, x.ndim - 1), False)
        # a float p given by position has a tangent space to the protocol: none here
        return NO_TANGENT, project_x(dx), *((NO_TANGENT,) if isinstance(p, float) else ())

    return y, cond_pullback


@frule.register(np.linalg.cond)
def _cond_frule(tangents, x, p=None):
    xp = array_namespace(x)
    y = xp.linalg.cond(x, p)
    dx = tangents[1]
    if is_zero(dx):
        return y, dx
    _require_finite_condition(x, y, p)
    g = _cond_gradient(x, p)
    inner = xp.real(xp.conj(g) * dx) if is_complex(g) or is_complex(dx) else g * dx
    return y, ProjectTo(y)(xp.sum(inner, axis=(-2, -1)))
