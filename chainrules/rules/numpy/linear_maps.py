"""Rules for linear maps: the pushforward is the map itself, the pullback its adjoint.

Shape operations, FFTs and indexing are linear in their array argument. ``linear_rule(f,
adjoint)`` registers both rules of such an ``f(x, *params, **kwargs)`` at once: the frule applies
``f`` to the tangent, the rrule's pullback applies ``adjoint(dy, x_shape, *params, **kwargs)``
and projects the result onto ``x``. Parameters other than ``x`` get ``NoTangent()``.

Gathers (maps whose every output element is one input element, or a constant) also have a
generic adjoint: ``source_map`` runs the map on the numbers ``1 .. x.size`` to learn where each
output element comes from (``0`` for a constant), and ``scatter_add`` sends cotangents back along
that map, adding up elements read more than once. The map is computed on NumPy integers; the
sums are ``np.bincount``'s, which has a rule, so the adjoint is differentiable again.

``np.flip``'s rules, for instance, are ``linear_rule(np.flip, flip_adjoint)`` with an adjoint
that flips the cotangent back:

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.flip, np.array([1.0, 2.0]))
>>> pullback(np.array([1.0, 3.0]))[1]
array([3., 1.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from chainrules.core.dtypes import is_complex
from chainrules.core.names import function_name
from chainrules.core.namespace import array_namespace
from chainrules.core.projection import ProjectTo, unbroadcast_axes
from chainrules.core.registry import frule, rrule
from chainrules.core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NoTangent, Tangent
from chainrules.core.thunks import unthunk

__all__ = [
    "accumulate",
    "call_method",
    "cast",
    "gather_adjoint",
    "has_tangent",
    "dense_nested",
    "dense_tangents",
    "float_zeros",
    "output_cotangents",
    "linear_rule",
    "nest_like",
    "argument_projector",
    "register_rules",
    "sequence_tangent",
    "tangent_value",
    "scatter_add",
    "shape_of",
    "short_name",
    "source_map",
    "value_dtype",
]


def short_name(f: Any) -> str:
    """The last part of ``f``'s qualified name, for naming its pullback: ``reshape``."""
    return function_name(f).rsplit(".", 1)[-1].strip("_")


def shape_of(x: Any) -> tuple[int, ...]:
    """The shape of an array, a Python number or a nested list, as a tuple of Python ints.

    >>> shape_of(np.ones((2, 1))), shape_of(1.5), shape_of([[1.0, 2.0]])
    ((2, 1), (), (1, 2))
    """
    shape = getattr(x, "shape", None)
    return np.shape(x) if shape is None else tuple(shape)


def has_tangent(y: Any) -> bool:
    """Whether a primal output carries a tangent: floats, complex numbers and their arrays."""
    dtype = getattr(y, "dtype", None)
    if dtype is None:
        return isinstance(y, float | complex)
    return not isinstance(dtype, np.dtype) or dtype.kind in "fc"


def call_method(name: str) -> Callable[..., Any]:
    """A function calling method ``name`` on its first argument: the pushforward of a method.

    >>> call_method("reshape")(np.arange(4.0), 2, 2).shape
    (2, 2)
    """

    def method_call(x: Any, *params: Any, **kwargs: Any) -> Any:
        return getattr(x, name)(*params, **kwargs)

    method_call.__name__ = method_call.__qualname__ = name
    return method_call


def linear_rule(
    f: Any,
    adjoint: Callable[..., Any],
    *,
    keywords: tuple[str, ...] = (),
    forward: Callable[..., Any] | None = None,
    primal: Callable[..., Any] | None = None,
    supports: Callable[..., bool] | None = None,
) -> None:
    """Register the rrule and frule of ``f(x, *params, **kwargs)``, a map linear in ``x``.

    ``adjoint(dy, x_shape, *params, **kwargs)`` is the adjoint map applied to a cotangent of
    the output; its result is projected onto ``x`` (so broadcasting, dtype and the real part
    are taken care of). ``forward(dx, *params, **kwargs)`` computes the pushforward (``f``
    itself by default; ``call_method(name)`` for array methods). ``keywords`` are those of
    ``f``'s keywords that the rule passes through; any other raises ``RuleKeywordError``.
    ``primal`` computes ``f`` when ``f`` is not callable itself (an attribute such as
    ``ndarray.T``). ``supports(*params, **kwargs)``, when given, says whether the rule
    applies to a call; where it does not, the rules return ``None`` (no rule: engines trace
    into ``f``).
    """
    run = f if primal is None else primal
    push = run if forward is None else forward
    label = short_name(f)

    def linear_rrule(x: Any, *params: Any, **kwargs: Any) -> Any:
        if supports is not None and not supports(*params, **kwargs):
            return None
        y = run(x, *params, **kwargs)
        project_x = argument_projector(x)
        x_shape = shape_of(x)
        no_tangents = (NO_TANGENT,) * len(params)
        # An integer or boolean result (a cast, say) passes nothing back.
        blocked = not getattr(project_x, "has_tangent_space", True) or not has_tangent(y)

        def linear_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if blocked or isinstance(dy, AbstractZero) or isinstance(dy, NoTangent):
                return (NO_TANGENT, project_x(ZERO_TANGENT), *no_tangents)
            return (NO_TANGENT, project_x(adjoint(dy, x_shape, *params, **kwargs)), *no_tangents)

        linear_pullback.__name__ = linear_pullback.__qualname__ = f"{label}_pullback"
        return y, linear_pullback

    def linear_frule(tangents: tuple, x: Any, *params: Any, **kwargs: Any) -> Any:
        if supports is not None and not supports(*params, **kwargs):
            return None
        y = run(x, *params, **kwargs)
        dx = tangent_value(tangents[1], x)
        if not has_tangent(y) or isinstance(dx, NoTangent):
            return y, NO_TANGENT
        if isinstance(dx, AbstractZero):
            return y, ZERO_TANGENT
        return y, push(dx, *params, **kwargs)

    register_rules(f, linear_rrule, linear_frule, keywords=keywords, name=label)


def register_rules(
    f: Any,
    rrule_fn: Callable[..., Any],
    frule_fn: Callable[..., Any],
    *,
    keywords: tuple[str, ...] | None = None,
    name: str | None = None,
    also: tuple[Any, ...] = (),
) -> None:
    """Register ``rrule_fn`` and ``frule_fn`` for ``f`` and for each alias in ``also``.

    ``keywords`` are the keyword arguments the rules accept (by default, those their
    signatures name); ``name`` renames them ``{name}_rrule`` and ``{name}_frule`` (rules made
    in a loop).
    """
    for rule, table in ((rrule_fn, rrule), (frule_fn, frule)):
        if name is not None:
            rule.__name__ = rule.__qualname__ = f"{name}_{table.kind}"
        for key in (f, *also):
            table.register(key, keywords=keywords)(rule)


def source_map(
    gather: Callable[..., Any], x_shape: tuple[int, ...], *params: Any, **kwargs: Any
) -> Any:
    """Where each output element of a gather comes from: ``1 + flat index`` into ``x``, or 0.

    ``gather(x, *params, **kwargs)`` must copy, repeat, drop or reorder elements of ``x`` and
    fill the rest with zeros (callers set constants such as a padding value to 0).

    >>> source_map(np.flip, (3,))
    array([3, 2, 1])
    """
    size = int(np.prod(x_shape))
    numbers = np.arange(1, size + 1, dtype=np.intp).reshape(x_shape)
    return gather(numbers, *params, **kwargs)


def accumulate(index: Any, values: Any, size: int) -> Any:
    """``size`` sums: ``values[k]`` added into bin ``index[k]`` (a flat NumPy integer array).

    Computed with ``np.bincount``, which has a rule itself (its pullback reads ``dy[index]``),
    so that the sum is recorded when an engine differentiates a pullback that calls it.

    >>> accumulate(np.array([2, 0, 2]), np.array([1.0, 2.0, 3.0]), 3)
    array([2., 0., 4.])
    """
    xp = array_namespace(values)
    values = xp.reshape(xp.asarray(values), (-1,))
    if is_complex(values):
        real = np.bincount(index, xp.real(values), size)
        imag = np.bincount(index, xp.imag(values), size)
        return real + 1j * imag
    return np.bincount(index, values, size)


def scatter_add(sources: Any, dy: Any, x_shape: tuple[int, ...]) -> Any:
    """The adjoint of a gather: ``dy`` summed into an array of ``x_shape`` along ``sources``.

    ``sources`` is a ``source_map``: element ``k`` of ``dy`` is added to flat position
    ``sources[k] - 1`` of the result, and dropped where ``sources[k]`` is 0. Repeated sources
    accumulate, as ``np.add.at`` does.

    >>> scatter_add(np.array([1, 1, 0, 2]), np.array([1.0, 2.0, 5.0, 3.0]), (2,))
    array([3., 3.])
    """
    xp = array_namespace(dy)
    size = int(np.prod(x_shape))
    total = accumulate(np.ravel(sources), dy, size + 1)
    return cast(xp.reshape(total[1:], x_shape), value_dtype(dy))


def cast(x: Any, dtype: Any) -> Any:
    """``x`` with ``dtype``, copied only when the dtype changes.

    >>> cast(np.ones(1), np.float32).dtype
    dtype('float32')
    """
    return x if x.dtype == dtype else array_namespace(x).astype(x, dtype)


def value_dtype(x: Any) -> Any:
    """The dtype of an array, of a Python or NumPy number, or of a nested list of numbers.

    >>> value_dtype(1.5), value_dtype(np.ones(1, dtype=np.float32)), value_dtype([[1, 2]])
    (dtype('float64'), dtype('float32'), dtype('int64'))
    """
    dtype = getattr(x, "dtype", None)
    return np.asarray(x).dtype if dtype is None else dtype


def gather_adjoint(gather: Callable[..., Any]) -> Callable[..., Any]:
    """The adjoint of a gather, through its ``source_map``.

    >>> gather_adjoint(np.roll)(np.array([1.0, 2.0, 3.0]), (3,), 1)
    array([2., 3., 1.])
    """

    def gather_adjoint_map(dy: Any, x_shape: tuple[int, ...], *params: Any, **kwargs: Any) -> Any:
        return scatter_add(source_map(gather, x_shape, *params, **kwargs), dy, x_shape)

    gather_adjoint_map.__name__ = gather_adjoint_map.__qualname__ = f"{short_name(gather)}_adjoint"
    return gather_adjoint_map


def tangent_value(t: Any, primal: Any) -> Any:
    """A tangent as a value a NumPy function takes: unthunked; for a list primal, nested lists.

    Zeros stay zeros for an array primal (rules skip them); inside a list they become arrays.

    >>> tangent_value(ZERO_TANGENT, [1.0, 2.0])
    [array(0.), array(0.)]
    """
    t = unthunk(t)
    if isinstance(primal, list | tuple) and not isinstance(t, NoTangent):
        return dense_nested(t, primal)
    return t


def argument_projector(x: Any) -> Any:
    """``ProjectTo(x)``, also taking an array cotangent for a (nested) list or tuple ``x``.

    NumPy functions accept lists where they take arrays; the cotangent of such an argument is
    a ``Tangent`` of the list, laid out by ``nest_like``.

    >>> argument_projector([1.0, 2.0])(np.array([3.0, 4.0]))
    MutableTangent[list](3.0, 4.0)
    """
    project = ProjectTo(x)
    if not isinstance(x, list | tuple):
        return project

    def project_nested(dx: Any) -> Any:
        return project(nest_like(unthunk(dx), x))

    return project_nested


def nest_like(dx: Any, primal: Any) -> Any:
    """An array cotangent laid out like a nested list or tuple primal, for projection onto it.

    Arrays and scalars are left alone; a list primal gets a list of ``dx[i]``, recursively.

    >>> nest_like(np.array([[1.0, 2.0]]), [(3.0, 4.0)])
    [(np.float64(1.0), np.float64(2.0))]
    """
    if not isinstance(primal, list | tuple) or isinstance(dx, AbstractZero):
        return dx
    shape = np.shape(primal)
    if shape_of(dx) != shape:  # broadcast against other arguments: sum back first
        xp = array_namespace(dx)
        dx = xp.reshape(xp.sum(dx, axis=unbroadcast_axes(shape, shape_of(dx))), shape)
    return type(primal)(nest_like(dx[i], p) for i, p in enumerate(primal))


def dense_nested(t: Any, primal: Any) -> Any:
    """The tangent of a nested list of numbers and arrays as nested lists, zeros made dense.

    >>> dense_nested(ZERO_TANGENT, [1.0, np.ones(2)])
    [array(0.), array([0., 0.])]
    """
    t = unthunk(t)
    if isinstance(primal, list | tuple):
        zero = t is None or isinstance(t, AbstractZero)
        items = [ZERO_TANGENT] * len(primal) if zero else list(t)
        return [dense_nested(ti, p) for ti, p in zip(items, primal, strict=True)]
    if t is None or isinstance(t, AbstractZero):
        return np.zeros(np.shape(primal), dtype=np.result_type(primal, np.float64))
    return t


def output_cotangents(dy: Any, outputs: Any) -> list[Any]:
    """The cotangent of each output of a function returning a sequence, zeros made dense.

    ``dy`` is a ``Tangent`` of the sequence, a list or tuple, or a zero; an element that is a
    zero becomes an array of zeros shaped like its output.

    >>> output_cotangents(ZERO_TANGENT, [np.ones(2)])
    [array([0., 0.])]
    """
    items = [ZERO_TANGENT] * len(outputs) if isinstance(dy, AbstractZero) else list(dy)
    return [_dense(unthunk(t), y) for t, y in zip(items, outputs, strict=True)]


def dense_tangents(tangent: Any, primals: Any) -> list[Any]:
    """The tangents of a sequence argument as a list of arrays, zeros made dense.

    >>> dense_tangents(Tangent(list, ZERO_TANGENT, np.ones(1)), [np.ones(2), np.ones(1)])
    [array([0., 0.]), array([1.])]
    """
    return output_cotangents(unthunk(tangent), list(primals))


def _dense(t: Any, primal: Any) -> Any:
    if not isinstance(t, AbstractZero):
        return t
    return float_zeros(shape_of(primal), getattr(primal, "dtype", np.result_type(primal)), primal)


def float_zeros(shape: tuple[int, ...], dtype: Any, like: Any) -> Any:
    """Zeros of ``shape`` in ``like``'s namespace: ``dtype`` if it is inexact, else float64.

    >>> float_zeros((2,), np.dtype(int), 1.0)
    array([0., 0.])
    """
    if isinstance(dtype, np.dtype) and dtype.kind not in "fc":
        dtype = np.float64
    return array_namespace(like).zeros(shape, dtype=dtype)


def sequence_tangent(pieces: list[Any], outputs: Any) -> Any:
    """The tangent of a list or tuple output: a ``Tangent`` of its type.

    >>> sequence_tangent([1.0, 2.0], (0.0, 0.0))
    Tangent[tuple](1.0, 2.0)
    """
    return Tangent(type(outputs), *pieces) if isinstance(outputs, list | tuple) else pieces
