"""Rules for NumPy: products outside ``np.linalg`` (matmul, dot, tensordot, kron, cross...).

Each product is linear in each factor. The pushforward is the sum over factors of the product
with that factor replaced by its tangent; the pullback contracts the output cotangent with the
other factors, conjugated (the holomorphic convention: ``d_a = dy @ conj(b).T`` for
``a @ b``), and projects the result onto the factor, which sums over broadcast axes. ``vdot``,
``vecdot`` and ``vecmat`` conjugate their first factor, whose cotangent is then ``b * conj(dy)``
(summed or contracted as the product asks). ``cross`` also takes two-component vectors
(deprecated by NumPy) as vectors whose third component is zero; the rules compute with them
so, and the third component of their cotangent is dropped. ``einsum`` has a module of its
own. Cotangents of the factors are ``Thunk``\\s, so that an engine that needs one of them never
computes the other, but for small NumPy factors, whose cotangents cost less than a thunk.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> y, pullback = rrule(np.matmul, np.eye(2), np.array([[1.0, 2.0], [3.0, 4.0]]))
>>> unthunk(pullback(np.ones((2, 2)))[1])
array([[3., 7.],
       [3., 7.]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..._compat import matvec, vecmat
from ...core.algebra import add
from ...core.dtypes import has_tangent
from ...core.fast_paths import FastPullback, onto, register_fast_path
from ...core.linear import register_rules
from ...core.namespace import array_namespace
from ...core.primals import FLOAT64
from ...core.sequences import argument_projector, tangent_value
from ...core.shapes import normalize_axis, shape_of
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import Thunk
from ...core.zeros import is_zero

__all__ = ["conj", "multilinear_frule"]


def conj(xp: Any, x: Any) -> Any:
    """``conj(x)``, skipping the copy for real values."""
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return x.conjugate() if isinstance(x, complex) else x
    if isinstance(dtype, np.dtype) and dtype.kind != "c":
        return x
    return xp.conj(x)


def _mT(xp: Any, x: Any) -> Any:
    """The transpose of the last two axes: NumPy's ``.mT`` view, else the namespace's."""
    return x.mT if type(x) is np.ndarray else xp.matrix_transpose(x)


def _inverse(perm: list[int]) -> tuple[int, ...]:
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return tuple(inverse)


def multilinear_frule(f: Callable[..., Any], tangents: tuple, *factors: Any, **kwargs: Any):
    """``(y, dy)`` of ``f(*factors, **kwargs)``, linear in each factor: a sum of products.

    Each term replaces one factor by its tangent; zero tangents drop their term.

    >>> multilinear_frule(np.outer, (None, np.ones(2), ZERO_TANGENT), np.ones(2), np.ones(1))
    (array([[1.],
           [1.]]), array([[1.],
           [1.]]))
    """
    y = f(*factors, **kwargs)
    if not has_tangent(y):
        return y, NO_TANGENT
    total: Any = ZERO_TANGENT
    for i, t in enumerate(tangents[1 : len(factors) + 1]):
        t = tangent_value(t, factors[i])
        if is_zero(t):
            continue
        term = f(*factors[:i], t, *factors[i + 1 :], **kwargs)
        total = add(total, term)
    return y, total


def _register_bilinear(f: Any, rule: Callable[..., Any], also: tuple[Any, ...] = ()) -> None:
    """Register ``rule`` and a product-rule frule for ``f`` and its aliases (array methods)."""

    def bilinear_frule(tangents: tuple, a: Any, b: Any) -> Any:
        return multilinear_frule(f, tangents, a, b)

    register_rules(f, rule, bilinear_frule, also=also)


def _pair(
    project_a: Any,
    project_b: Any,
    da: Callable[[], Any],
    db: Callable[[], Any],
    eager: bool = False,
):
    """The cotangents of two factors, each a thunk (or ``NoTangent()`` without a tangent);
    computed at once when ``eager`` (small factors: a thunk would cost more than its work)."""

    def thunk_of(project: Any, compute: Callable[[], Any]) -> Any:
        space = getattr(project, "has_tangent_space", None)  # not on a list's projector
        if not space if space is not None else project(ZERO_TANGENT) is NO_TANGENT:
            return NO_TANGENT
        if eager:
            return project(compute())
        return Thunk(lambda: project(compute()))

    return NO_TANGENT, thunk_of(project_a, da), thunk_of(project_b, db)


# Factors of at most this many elements in all get their cotangents computed at once.
EAGER_UP_TO = 2048


def _small(a: Any, b: Any) -> bool:
    """Whether NumPy factors ``a`` and ``b`` are small enough for ``_pair`` to be eager."""
    return type(a) is np.ndarray and type(b) is np.ndarray and a.size + b.size <= EAGER_UP_TO


def _bilinear_pullback(name: str, x1: Any, x2: Any, parts: Callable[[Any], tuple]) -> Any:
    """The pullback of a product of ``x1`` and ``x2``, named ``{name}_pullback``.

    ``parts(dy)`` gives the bodies of the two cotangents for a nonzero ``dy``; each becomes a
    projected thunk (see ``_pair``). A zero ``dy`` gives zero cotangents. Call it in the forward
    pass, so that the projectors are built there.
    """
    project_1, project_2 = argument_projector(x1), argument_projector(x2)
    eager = _small(x1, x2)

    def bilinear_pullback(dy: Any) -> tuple[Any, ...]:  # dy: unthunked by registration
        da, db = parts(dy)
        return _pair(project_1, project_2, da, db, eager=eager)

    return bilinear_pullback


# ---- matmul ---------------------------------------------------------------------------------


def _matmul_cotangent_a(xp: Any, b: Any, dy: Any, n1: int, n2: int) -> Any:
    """The cotangent of ``a`` in ``matmul(a, b)`` (real ``b``, or conjugated), before
    projection: ``n1`` and ``n2`` are the factors' numbers of dimensions."""
    if n1 == 1:
        if n2 == 2:  # a vector times a matrix
            return xp.matmul(b, dy)
        return dy * b if n2 == 1 else xp.matmul(b, dy[..., None])[..., 0]
    return dy[..., :, None] * b if n2 == 1 else xp.matmul(dy, _mT(xp, b))


def _matmul_cotangent_b(xp: Any, a: Any, dy: Any, n1: int, n2: int) -> Any:
    """The cotangent of ``b`` in ``matmul(a, b)``, as ``_matmul_cotangent_a``."""
    if n2 == 1:
        if n1 == 2:  # a matrix times a vector
            return xp.matmul(_mT(xp, a), dy)
        return a * dy if n1 == 1 else xp.matmul(_mT(xp, a), dy[..., None])[..., 0]
    return a[:, None] * dy[..., None, :] if n1 == 1 else xp.matmul(_mT(xp, a), dy)


def _matmul_rrule(x1: Any, x2: Any) -> Any:
    xp = array_namespace(x1, x2)
    n1, n2 = len(shape_of(x1)), len(shape_of(x2))

    def matmul_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        a, b = conj(xp, x1), conj(xp, x2)
        return (
            lambda: _matmul_cotangent_a(xp, b, dy, n1, n2),
            lambda: _matmul_cotangent_b(xp, a, dy, n1, n2),
        )

    return xp.matmul(x1, x2), _bilinear_pullback("matmul", x1, x2, matmul_parts)


_register_bilinear(np.matmul, _matmul_rrule, also=(np.ndarray.__matmul__,))


class _MatmulPullback(FastPullback):
    """``matmul``'s pullback for two small float arrays: both cotangents computed at once."""

    __slots__ = ("a", "b")
    a: np.ndarray
    b: np.ndarray

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        a, b = self.a, self.b
        n1, n2 = a.ndim, b.ndim
        if n1 == 2 and type(dy) is np.ndarray and dy.dtype is a.dtype:
            # the frequent cases, with the operator (cheaper to call than np.matmul): products
            # of the factors' shapes (dy has the output's) and dtype, as the helpers below
            if n2 == 2:
                return NO_TANGENT, dy @ b.T, a.T @ dy
            if n2 == 1:
                return NO_TANGENT, np.multiply.outer(dy, b), a.T @ dy
        da = _matmul_cotangent_a(np, b, dy, n1, n2)
        db = _matmul_cotangent_b(np, a, dy, n1, n2)
        return NO_TANGENT, onto(a.shape, a.dtype, da), onto(b.shape, b.dtype, db)

    def zeros(self) -> tuple[Any, ...]:
        return NO_TANGENT, ZERO_TANGENT, ZERO_TANGENT


def _fast_matmul(general: Any, pullback_class: Any) -> Any:
    """The fast path of ``matmul``: two float arrays of one dtype, small enough for the
    cotangents to be computed at once (``EAGER_UP_TO``), as the rule would."""

    def matmul_rrule(a: Any, b: Any, *rest: Any, **kwargs: Any) -> Any:
        if (
            rest
            or kwargs
            or type(a) is not np.ndarray  # float_array(a), inlined with the next line
            or (a.dtype is not FLOAT64 and a.dtype.kind != "f")
            or type(b) is not np.ndarray
            or b.dtype is not a.dtype
            or a.size + b.size > EAGER_UP_TO
        ):
            return general(a, b, *rest, **kwargs)
        y = a @ b  # exact arrays: np.matmul, by the operator (cheaper to call)
        pullback = pullback_class()
        pullback.a, pullback.b, pullback.shape = a, b, y.shape
        return y, pullback

    return matmul_rrule


register_fast_path(np.matmul, _fast_matmul, _MatmulPullback, also=(np.ndarray.__matmul__,))


# ---- vecdot, matvec, vecmat: vectors along the last axis, batched ---------------------------


def _matvec_rrule(x1: Any, x2: Any) -> Any:
    xp = array_namespace(x1, x2)

    def matvec_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        a, v = conj(xp, x1), conj(xp, x2)
        return (
            lambda: dy[..., :, None] * v[..., None, :],
            lambda: xp.matmul(_mT(xp, a), dy[..., None])[..., 0],
        )

    return matvec(x1, x2), _bilinear_pullback("matvec", x1, x2, matvec_parts)


def _vecmat_rrule(x1: Any, x2: Any) -> Any:
    xp = array_namespace(x1, x2)

    def vecmat_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        # vecmat conjugates its vector: y = conj(v) @ A.
        return (
            lambda: xp.matmul(x2, conj(xp, dy)[..., None])[..., 0],
            lambda: x1[..., :, None] * dy[..., None, :],
        )

    return vecmat(x1, x2), _bilinear_pullback("vecmat", x1, x2, vecmat_parts)


def _vecdot_rrule(x1: Any, x2: Any, *, axis: int = -1) -> Any:
    xp = array_namespace(x1, x2)
    y = np.vecdot(x1, x2, axis=axis)
    ndim = max(len(shape_of(x1)), len(shape_of(x2)))
    axis = normalize_axis(axis, ndim)

    def vecdot_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        # vecdot conjugates its first factor: y = sum(conj(x1) * x2).
        spread = xp.expand_dims(dy, axis=axis)
        return lambda: x2 * conj(xp, spread), lambda: x1 * spread

    return y, _bilinear_pullback("vecdot", x1, x2, vecdot_parts)


def _vecdot_frule(tangents: tuple, x1: Any, x2: Any, *, axis: int = -1) -> Any:
    return multilinear_frule(np.vecdot, tangents, x1, x2, axis=axis)


_register_bilinear(matvec, _matvec_rrule)
_register_bilinear(vecmat, _vecmat_rrule)
register_rules(np.vecdot, _vecdot_rrule, _vecdot_frule)

# ---- tensordot, dot, inner ---------------------------------------------------------------------


def _contracted_axes(n1: int, n2: int, axes: Any) -> tuple[list[int], list[int]]:
    if isinstance(axes, int | np.integer):
        return list(range(n1 - int(axes), n1)), list(range(int(axes)))
    first, second = axes
    first = [first] if isinstance(first, int | np.integer) else list(first)
    second = [second] if isinstance(second, int | np.integer) else list(second)
    return [normalize_axis(a, n1) for a in first], [normalize_axis(b, n2) for b in second]


def _tensordot_pullback_parts(
    xp: Any, a: Any, b: Any, dy: Any, contracted: tuple[list[int], list[int]]
) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """Thunk bodies for the cotangents of ``a`` and ``b`` in ``tensordot(a, b, contracted)``."""
    ca, cb = contracted
    fa = [i for i in range(len(shape_of(a))) if i not in ca]
    fb = [i for i in range(len(shape_of(b))) if i not in cb]
    na, nb = len(fa), len(fb)

    # tensordot leaves the uncontracted axes of its second factor in their own order, so
    # the contracted partners come out sorted by the other factor's axis.
    a_order = fa + [ca[i] for i in sorted(range(len(cb)), key=cb.__getitem__)]
    b_order = [cb[i] for i in sorted(range(len(ca)), key=ca.__getitem__)] + fb

    def da() -> Any:
        out = xp.tensordot(dy, conj(xp, b), axes=(list(range(na, na + nb)), fb))
        return xp.permute_dims(out, _inverse(a_order))

    def db() -> Any:
        out = xp.tensordot(conj(xp, a), dy, axes=(fa, list(range(na))))
        return xp.permute_dims(out, _inverse(b_order))

    return da, db


def _contraction_rrule(f: Any, contracted_of: Callable[[int, int], Any]) -> Callable[..., Any]:
    """The rrule of a product that is a ``tensordot`` (or a plain product for scalars)."""

    def contraction_rrule(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        rest = (NO_TANGENT,) * len(args)  # keyword arguments get no cotangent
        args = (*args, *kwargs.values())
        xp = array_namespace(a, b)
        y = f(a, b, *args)
        project_a, project_b = argument_projector(a), argument_projector(b)
        n1, n2 = len(shape_of(a)), len(shape_of(b))
        contracted = None if n1 == 0 or n2 == 0 else contracted_of(n1, n2, *args)
        eager = _small(a, b)

        def contraction_pullback(dy: Any) -> tuple[Any, ...]:
            if contracted is None:  # a scalar factor: an elementwise product
                parts = (lambda: dy * conj(xp, b), lambda: conj(xp, a) * dy)
            else:
                parts = _tensordot_pullback_parts(xp, a, b, dy, contracted)
            da, db = parts
            return (*_pair(project_a, project_b, da, db, eager=eager), *rest)

        return y, contraction_pullback

    return contraction_rrule


def _tensordot_axes(n1: int, n2: int, axes: Any = 2) -> tuple[list[int], list[int]]:
    return _contracted_axes(n1, n2, axes)


def _dot_axes(n1: int, n2: int) -> tuple[list[int], list[int]]:
    return [n1 - 1], [max(n2 - 2, 0)]


def _inner_axes(n1: int, n2: int) -> tuple[list[int], list[int]]:
    return [n1 - 1], [n2 - 1]


def _register_contraction(
    f: Any, contracted_of: Callable[..., Any], keywords: tuple[str, ...] = (), also: tuple = ()
) -> None:
    rule = _contraction_rrule(f, contracted_of)

    def contraction_frule(tangents: tuple, a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
        args = (*args, *kwargs.values())
        return multilinear_frule(lambda x, y: f(x, y, *args), tangents, a, b)

    register_rules(f, rule, contraction_frule, keywords=keywords, also=also)


_register_contraction(np.tensordot, _tensordot_axes, keywords=("axes",))
_register_contraction(np.dot, _dot_axes, also=(np.ndarray.dot,))
_register_contraction(np.inner, _inner_axes)

# ---- vdot, outer ------------------------------------------------------------------------------


def _vdot_rrule(a: Any, b: Any) -> Any:
    xp = array_namespace(a, b)
    a_shape, b_shape = shape_of(a), shape_of(b)

    def vdot_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        # vdot conjugates its first factor: y = sum(conj(a) * b).
        return (
            lambda: xp.reshape(b * conj(xp, dy), a_shape),
            lambda: xp.reshape(a * dy, b_shape),
        )

    return np.vdot(a, b), _bilinear_pullback("vdot", a, b, vdot_parts)


def _outer_rrule(a: Any, b: Any) -> Any:
    xp = array_namespace(a, b)
    a_shape, b_shape = shape_of(a), shape_of(b)

    def outer_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        a_flat = xp.reshape(conj(xp, a), (-1,))
        b_flat = xp.reshape(conj(xp, b), (-1,))
        return (
            lambda: xp.reshape(xp.matmul(dy, b_flat), a_shape),
            lambda: xp.reshape(xp.matmul(a_flat, dy), b_shape),
        )

    return np.outer(a, b), _bilinear_pullback("outer", a, b, outer_parts)


_register_bilinear(np.vdot, _vdot_rrule)
_register_bilinear(np.outer, _outer_rrule)

# ---- kron -------------------------------------------------------------------------------------


def _kron_rrule(a: Any, b: Any) -> Any:
    xp = array_namespace(a, b)
    a_shape, b_shape = shape_of(a), shape_of(b)
    ndim = max(len(a_shape), len(b_shape))
    a_full = (1,) * (ndim - len(a_shape)) + a_shape
    b_full = (1,) * (ndim - len(b_shape)) + b_shape
    interleaved = tuple(n for pair in zip(a_full, b_full, strict=True) for n in pair)
    a_axes, b_axes = list(range(0, 2 * ndim, 2)), list(range(1, 2 * ndim, 2))

    def kron_parts(dy: Any) -> tuple[Callable[[], Any], Callable[[], Any]]:
        blocks = xp.reshape(dy, interleaved)  # axes (a0, b0, a1, b1, ...)
        a_c = xp.reshape(conj(xp, a), a_full)
        b_c = xp.reshape(conj(xp, b), b_full)
        return (
            lambda: xp.reshape(
                xp.tensordot(blocks, b_c, axes=(b_axes, list(range(ndim)))), a_shape
            ),
            lambda: xp.reshape(
                xp.tensordot(a_c, blocks, axes=(list(range(ndim)), a_axes)), b_shape
            ),
        )

    return np.kron(a, b), _bilinear_pullback("kron", a, b, kron_parts)


_register_bilinear(np.kron, _kron_rrule)

# ---- cross ------------------------------------------------------------------------------------


def _cross_axes(
    axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: Any = None
) -> tuple[int, int, int]:
    return (axisa, axisb, axisc) if axis is None else (axis, axis, axis)


def _vector_length(x: Any, axis: int) -> int | None:
    shape = shape_of(x)
    return shape[axis] if shape and -len(shape) <= axis < len(shape) else None


def _three_components(xp: Any, v: Any, axis: int) -> Any:
    """``v`` with its vector axis last and, for a two-component vector, a zero third component."""
    v = np.moveaxis(v, axis, -1)
    if v.shape[-1] == 2:
        v = xp.concat([v, xp.zeros_like(v[..., :1])], axis=-1)
    return v


def _cross_rrule(a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
    axisa, axisb, axisc = _cross_axes(*args, **kwargs)
    rest = (NO_TANGENT,) * len(args)
    n_a, n_b = _vector_length(a, axisa), _vector_length(b, axisb)
    if n_a not in (2, 3) or n_b not in (2, 3):
        return None  # NumPy raises for these
    y = np.cross(a, b, axisa, axisb, axisc)
    project_a, project_b = argument_projector(a), argument_projector(b)
    a_shape, b_shape = shape_of(a), shape_of(b)
    # The vector axis as counted from the end, so that it survives broadcasting.
    back_a = normalize_axis(axisa, len(a_shape)) - len(a_shape)
    back_b = normalize_axis(axisb, len(b_shape)) - len(b_shape)
    # Two two-component vectors give only the third component, without a vector axis.
    scalar = n_a == 2 and n_b == 2

    def cross_pullback(dy: Any) -> tuple[Any, ...]:
        xp = array_namespace(dy, a, b)
        if scalar:
            dy = xp.asarray(dy)
            zero = xp.zeros_like(dy)
            g = xp.stack([zero, zero, dy], axis=-1)
        else:
            g = np.moveaxis(dy, axisc, -1)
        a_c = conj(xp, _three_components(xp, a, axisa))
        b_c = conj(xp, _three_components(xp, b, axisb))
        return (
            *_pair(
                project_a,
                project_b,
                lambda: np.moveaxis(np.cross(b_c, g)[..., :n_a], -1, back_a),
                lambda: np.moveaxis(np.cross(g, a_c)[..., :n_b], -1, back_b),
            ),
            *rest,
        )

    return y, cross_pullback


def _cross_of_three(a: Any, b: Any, *, axisa: int, axisb: int, axisc: int) -> Any:
    """``np.cross`` with two-component vectors read as three-component ones (no deprecation)."""
    xp = array_namespace(a, b)
    scalar = _vector_length(a, axisa) == 2 and _vector_length(b, axisb) == 2
    a3, b3 = _three_components(xp, a, axisa), _three_components(xp, b, axisb)
    y = np.cross(a3, b3)
    return y[..., 2] if scalar else np.moveaxis(y, -1, axisc)


def _cross_frule(tangents: tuple, a: Any, b: Any, *args: Any, **kwargs: Any) -> Any:
    axisa, axisb, axisc = _cross_axes(*args, **kwargs)
    n_a, n_b = _vector_length(a, axisa), _vector_length(b, axisb)
    if n_a not in (2, 3) or n_b not in (2, 3):
        return None
    y = np.cross(a, b, axisa, axisb, axisc)
    _, dy = multilinear_frule(
        _cross_of_three, tangents, a, b, axisa=axisa, axisb=axisb, axisc=axisc
    )
    return y, dy


register_rules(np.cross, _cross_rrule, _cross_frule, keywords=("axisa", "axisb", "axisc", "axis"))
