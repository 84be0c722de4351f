"""The reference reverse-mode engine: ``grad``, ``value_and_grad``, ``vjp``, ``jacobian``.

Every derivative comes from the rule table, called through ``CONFIG`` (a ``RuleConfig`` with
``HasReverseMode``, so rules registered with ``needs=HasReverseMode`` apply and may call
``CONFIG.rrule_via_ad``). Arguments may be floats, arrays (real or complex) and structures of
them (tuples, lists, dicts, namedtuples, dataclasses, objects, closures); the cotangent of a
structure is a ``Tangent`` (see ``arguments`` for how aliasing is treated). Calls nest: a
gradient of a gradient, and a gradient inside ``forward.jvp``, each get their own level.

>>> import numpy as np
>>> grad(lambda x: np.sin(x) * x)(0.0)
0.0
>>> y, pullback = vjp(lambda x, y: x * y, 2.0, 3.0)
>>> print(y, pullback(1.0))
6.0 (3.0, 2.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.config import HasReverseMode, RuleConfig
from ..core.names import function_name
from ..core.projection import ProjectTo
from ..core.tangents import AbstractZero
from ..core.thunks import eager_thunks
from .arguments import Leaf, Tracker, collect, unit_basis, untrack, zeros_like_leaf
from .lazy_values import rules_refuse_computation
from .tape import ReverseLevel, ReverseTracked, backward, seeds_for
from .tracked import inexact, through_own_rules
from .tripwires import raise_replaced_error, result_error

__all__ = [
    "CONFIG",
    "ReverseConfig",
    "grad",
    "jacobian",
    "value_and_grad",
    "vjp",
]


class ReverseConfig(RuleConfig, HasReverseMode):
    """The rule config of the reverse engine: ``rrule_via_ad`` differentiates with it."""

    __slots__ = ()

    def rrule_via_ad(self, f: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        """``(y, pullback)`` for any ``f``; ``pullback(dy)`` gives ``(df, dx1, ...)``.

        ``df`` is the cotangent of ``f`` itself: a ``Tangent`` of a closure's captured
        values, ``NoTangent()`` for a plain function.

        >>> import numpy as np
        >>> y, pullback = CONFIG.rrule_via_ad(np.multiply, 2.0, 5.0)
        >>> pullback(1.0)
        (NoTangent(), 5.0, 2.0)
        """

        def call(g: Any, *a: Any) -> Any:
            return through_own_rules(g)(*a, **kwargs)

        return vjp(call, f, *args)


CONFIG = ReverseConfig()


def vjp(f: Callable, *args: Any) -> tuple[Any, Callable[[Any], tuple]]:
    """``(f(*args), pullback)``: ``pullback(dy)`` gives one cotangent per argument.

    ``dy`` has the layout of the result (an array for an array, a ``Tangent`` or a tuple for
    a tuple). The pullback may be called many times, and differentiated in turn.

    >>> import numpy as np
    >>> y, pullback = vjp(np.sin, np.zeros(2))
    >>> pullback(np.array([1.0, 2.0]))
    (array([1., 2.]),)
    """
    run = through_own_rules(f)
    level = ReverseLevel(CONFIG)
    tracker = Tracker(lambda x, t: level.input(x))
    tracked, plans = [], []
    for a in args:
        value, plan = tracker.track(a)
        tracked.append(value)
        plans.append(plan)
    # A pullback that f calls itself (a rule tester does) makes no thunk that could outlive
    # the level, so every operation it defers is recorded while the level is open.
    try:
        with level, eager_thunks(), rules_refuse_computation():
            y = run(*tracked)
    except ValueError as error:
        raise_replaced_error(error)
        raise
    y_value, y_plan = untrack(y, lambda v: isinstance(v, ReverseTracked) and v.level is level)

    def pullback(dy: Any) -> tuple:
        seeds: list[tuple[Any, Any]] = []

        def seed(leaf: Leaf, d: Any) -> None:
            if leaf.tracked is not None and d is not None and not isinstance(d, AbstractZero):
                seeds.append((leaf.tracked.index, d))

        seeds_for(y_plan, dy, seed, f)
        with rules_refuse_computation():
            cotangents = backward(level, seeds)

        def leaf_cotangent(leaf: Leaf) -> Any:
            index = leaf.tracked.index
            ct = cotangents[index] if index < len(cotangents) else None
            if ct is None:
                return zeros_like_leaf(leaf.primal)
            return ProjectTo(leaf.primal)(ct)

        return tuple(collect(plan, leaf_cotangent) for plan in plans)

    return y_value, pullback


def _argnums(argnums: int | Sequence[int]) -> tuple[int, ...]:
    return (argnums,) if isinstance(argnums, int) else tuple(argnums)


def _select(f: Callable, args: tuple, nums: tuple[int, ...], kwargs: dict) -> Callable:
    run = through_own_rules(f)

    def with_selected(*selected: Any) -> Any:
        full = list(args)
        for n, value in zip(nums, selected, strict=True):
            full[n] = value
        return run(*full, **kwargs)

    return with_selected


def _unit_seed(f: Callable, y: Any) -> Any:
    if not inexact(y):
        raise result_error("grad", f, y)
    shape = getattr(y, "shape", ())
    dtype = getattr(y, "dtype", None)
    if shape != () or isinstance(y, complex) or (dtype is not None and dtype.kind == "c"):
        raise TypeError(
            f"grad of {function_name(f)} needs a real scalar result, got shape {shape} and "
            f"dtype {dtype or type(y).__name__}; use vjp or jacobian for other results"
        )
    if isinstance(y, float):
        return 1.0
    return np.ones((), dtype=dtype)[()] if isinstance(y, np.generic) else np.ones((), dtype)


def value_and_grad(f: Callable, argnums: int | Sequence[int] = 0) -> Callable:
    """``(f(*args), gradient)`` of a real scalar function; a tuple of them for several argnums.

    >>> print(*value_and_grad(lambda x, y: x * y, argnums=(0, 1))(2.0, 3.0))
    6.0 (3.0, 2.0)
    """
    nums = _argnums(argnums)

    def value_and_grad_f(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y, pullback = vjp(_select(f, args, nums, kwargs), *(args[n] for n in nums))
        cotangents = pullback(_unit_seed(f, y))
        return y, (cotangents[0] if isinstance(argnums, int) else cotangents)

    return value_and_grad_f


def grad(f: Callable, argnums: int | Sequence[int] = 0) -> Callable:
    """The gradient of a real scalar function with respect to the arguments ``argnums``.

    >>> import numpy as np
    >>> grad(lambda x: np.exp(x).sum())(np.zeros(3))
    array([1., 1., 1.])
    """

    def grad_f(*args: Any, **kwargs: Any) -> Any:
        return value_and_grad(f, argnums)(*args, **kwargs)[1]

    return grad_f


def jacobian(f: Callable, argnums: int = 0) -> Callable:
    """The Jacobian of ``f`` with respect to one array argument, one pullback per output.

    The result has shape ``y.shape + x.shape``.

    >>> import numpy as np
    >>> jacobian(lambda x: x * x)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """

    def jacobian_f(*args: Any, **kwargs: Any) -> Any:
        x = args[argnums]
        y, pullback = vjp(_select(f, args, (argnums,), kwargs), x)
        if not inexact(y):
            raise result_error("jacobian", f, y)
        y_shape = tuple(getattr(y, "shape", ()))
        dtype = getattr(y, "dtype", np.dtype(type(y)))
        rows = [pullback(seed)[0] for seed in unit_basis(y_shape, dtype)]
        return np.reshape(np.stack(rows), y_shape + tuple(np.shape(x)))

    return jacobian_f
