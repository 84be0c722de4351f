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

import sys
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .dtypes import cast, has_tangent, is_complex, value_dtype
from .fast_paths import (
    FastPullback,
    no_tangents,
    plain_parameters,
    register_fast_path,
)
from .lazy import is_lazy, lazy_like
from .names import short_name
from .namespace import array_namespace
from .primals import FLOAT64
from .projection import array_projector, projector
from .registry import frule, rrule
from .sequences import argument_projector, tangent_value
from .shapes import shape_of
from .tangents import NO_TANGENT, ZERO_TANGENT, NoTangent
from .zeros import is_zero

__all__ = [
    "accumulate",
    "call_method",
    "gather_adjoint",
    "linear_pushforward",
    "linear_rule",
    "register_rules",
    "scatter_add",
    "source_map",
]


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
    method: tuple[str, int] | None = None,
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
    into ``f``). ``method=(name, n)`` says that ``f`` is NumPy's function around the array
    method ``name``, which takes ``f``'s first ``n`` parameters in the same places
    (``np.transpose``: ``("transpose", 1)``): the fast path calls the method on a NumPy array
    directly, without the Python that NumPy's function runs first. ``f`` that is a method of
    ``np.ndarray`` itself is called so without being told.
    """
    run = f if primal is None else primal
    push = run if forward is None else forward

    def linear_rrule(x: Any, *params: Any, **kwargs: Any) -> Any:
        if supports is not None and not supports(*params, **kwargs):
            return None
        y = run(x, *params, **kwargs)
        if type(x) is np.ndarray:
            project_x, x_shape = projector(x), x.shape
        else:
            project_x, x_shape = argument_projector(x), shape_of(x)
        no_tangents = (NO_TANGENT,) * len(params)
        # An integer or boolean result (a cast, say) passes nothing back.
        blocked = not getattr(project_x, "has_tangent_space", True) or not has_tangent(y)

        def linear_pullback(dy: Any) -> tuple[Any, ...]:
            if blocked:
                return (NO_TANGENT, project_x(ZERO_TANGENT), *no_tangents)
            return (NO_TANGENT, project_x(adjoint(dy, x_shape, *params, **kwargs)), *no_tangents)

        return y, linear_pullback

    def linear_frule(tangents: tuple, x: Any, *params: Any, **kwargs: Any) -> Any:
        if supports is not None and not supports(*params, **kwargs):
            return None
        y = run(x, *params, **kwargs)
        dx = tangent_value(tangents[1], x)
        return y, linear_pushforward(y, dx, lambda t: push(t, *params, **kwargs))

    register_rules(f, linear_rrule, linear_frule, keywords=keywords)
    if supports is None:
        direct, most = _direct_call(f, run, method)
        register_fast_path(f, _fast_linear(run, direct, most), _LinearPullback, adjoint=adjoint)


def _direct_call(
    f: Any, run: Callable[..., Any], method: tuple[str, int] | None
) -> tuple[Callable[..., Any], int]:
    """What computes ``f`` on a NumPy array on the fast path, and for at most how many
    positional parameters without keywords (beyond, ``run`` does)."""
    if method is not None:
        name, most = method
        return getattr(np.ndarray, name), most
    if isinstance(f, types.MethodDescriptorType | types.WrapperDescriptorType) and (
        f.__objclass__ is np.ndarray
    ):
        return f, sys.maxsize  # np.ndarray.transpose: the method itself, whatever it is given
    return run, sys.maxsize


class _LinearPullback(FastPullback):
    """The pullback of a linear map of a float array: the adjoint, projected onto ``x``."""

    __slots__ = ("dtype", "kwargs", "params", "x_shape")
    dtype: np.dtype  # x's
    kwargs: dict
    params: tuple
    x_shape: tuple[int, ...]
    adjoint: Callable[..., Any]  # on the subclass of each function

    def cotangents(self, dy: Any) -> tuple[Any, ...]:
        x_shape, params, kwargs = self.x_shape, self.params, self.kwargs
        if kwargs:
            dx = self.adjoint(dy, x_shape, *params, **kwargs)
        else:  # without unpacking empty ones: 0.1 us of a call
            dx = self.adjoint(dy, x_shape, *params) if params else self.adjoint(dy, x_shape)
        dtype = self.dtype  # onto(x_shape, dtype, dx), inlined
        if type(dx) is not np.ndarray or dx.dtype is not dtype or dx.shape != x_shape:
            dx = array_projector(x_shape, dtype)(dx)
        return (NO_TANGENT, dx, *self.rest)


def _fast_linear(
    run: Callable[..., Any], direct: Callable[..., Any], most: int
) -> Callable[..., Any]:
    """The fast path of a linear map computed by ``run``, or by ``direct`` with at most
    ``most`` parameters and no keywords: a float array and parameters of the plain kinds,
    giving an array or number of a floating dtype (anything else, a tuple or an integer cast,
    is handed to the rule, which computes the map again)."""

    def make(general: Any, pullback_class: Any) -> Any:
        def linear_rrule(x: Any, *params: Any, **kwargs: Any) -> Any:
            # float_array(x), inlined: a call is a tenth of this path's cost; float64 told
            # without reading the dtype's kind
            if type(x) is not np.ndarray:
                return general(x, *params, **kwargs)
            dtype = x.dtype
            if dtype is not FLOAT64 and dtype.kind != "f":
                return general(x, *params, **kwargs)
            if params and not plain_parameters(params):
                return general(x, *params, **kwargs)
            if kwargs or len(params) > most:
                y = run(x, *params, **kwargs)
            else:  # without unpacking empty ones: see cotangents
                y = direct(x, *params) if params else direct(x)
            cls = type(y)
            if cls is np.ndarray:
                if y.dtype is not dtype and y.dtype.kind not in "fc":  # x's dtype: a float
                    return general(x, *params, **kwargs)
            elif cls is not np.float64 and cls is not float and not isinstance(y, np.inexact):
                return general(x, *params, **kwargs)
            pullback = pullback_class()
            pullback.x_shape, pullback.dtype, pullback.params, pullback.kwargs = (
                x.shape,
                dtype,
                params,
                kwargs,
            )
            pullback.shape = () if cls is float else y.shape
            pullback.rest = no_tangents(len(params)) if params else ()
            return y, pullback

        return linear_rrule

    return make


def linear_pushforward(primal: Any, dx: Any, push: Callable[[Any], Any]) -> Any:
    """The tangent of a map linear in its argument: ``push(dx)``; ``ZeroTangent()`` for a zero
    ``dx``; ``NoTangent()`` when ``dx`` is one or ``primal`` (the output, or whatever decides
    its dtype) carries no tangent.

    >>> linear_pushforward(np.ones(2), ZERO_TANGENT, np.flip), linear_pushforward(1, 2.0, abs)
    (ZeroTangent(), NoTangent())
    """
    if not has_tangent(primal) or isinstance(dx, NoTangent):
        return NO_TANGENT
    if is_zero(dx):
        return ZERO_TANGENT
    return push(dx)


def register_rules(
    f: Any,
    rrule_fn: Callable[..., Any],
    frule_fn: Callable[..., Any],
    *,
    keywords: tuple[str, ...] | None = None,
    also: tuple[Any, ...] = (),
) -> None:
    """Register ``rrule_fn`` and ``frule_fn`` for ``f`` and for each alias in ``also``.

    ``keywords`` are the keyword arguments the rules accept (by default, those their
    signatures name).
    """
    for rule, table in ((rrule_fn, rrule), (frule_fn, frule)):
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
    if type(values) is np.ndarray and values.dtype.kind != "c":
        return np.bincount(index, values.ravel(), size)
    xp = array_namespace(values)
    values = xp.reshape(xp.asarray(values), (-1,))
    if is_lazy(values):  # dask counts with its own arrays, chunked as the values are
        index = lazy_like(values, index)
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


def gather_adjoint(gather: Callable[..., Any]) -> Callable[..., Any]:
    """The adjoint of a gather, through its ``source_map``.

    >>> gather_adjoint(np.roll)(np.array([1.0, 2.0, 3.0]), (3,), 1)
    array([2., 3., 1.])
    """

    def gather_adjoint_map(dy: Any, x_shape: tuple[int, ...], *params: Any, **kwargs: Any) -> Any:
        return scatter_add(source_map(gather, x_shape, *params, **kwargs), dy, x_shape)

    gather_adjoint_map.__name__ = gather_adjoint_map.__qualname__ = f"{short_name(gather)}_adjoint"
    return gather_adjoint_map
