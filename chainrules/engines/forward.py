"""The reference forward-mode engine: dual values pushed through ``frule``s; ``jvp``, ``jacobian``.

A ``Dual`` holds a value and its tangent at one level. Each call with dual arguments runs the
function's ``frule`` through ``CONFIG`` (a ``RuleConfig`` with ``HasForwardMode``), with
``ZeroTangent()`` for constant float arguments and ``NoTangent()`` for the rest. Levels keep
nested differentiations apart, exactly as in the reverse engine, and the two nest in each
other (``hessian`` is forward over reverse).

>>> import numpy as np
>>> jvp(np.sin, (0.0,), (2.0,))
(np.float64(0.0), np.float64(2.0))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.config import HasForwardMode, RuleConfig
from ..core.errors import ChainRulesError
from ..core.names import function_name
from ..core.structure import has_tangent_space
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent
from ..core.thunks import eager_thunks, unthunk
from .arguments import (
    PLAIN,
    Leaf,
    Tracker,
    collect,
    field_of,
    tangent_of,
    unit_basis,
    untrack,
    unwrap,
    zeros_like_leaf,
)
from .levels import Level
from .tape import tracked_keyword_error, untracked_structure_error
from .tracked import (
    Tracked,
    inexact,
    keywords_as_positions,
    rebuild_sequence,
    without_rule,
)
from .tripwires import taint

__all__ = ["CONFIG", "Dual", "ForwardConfig", "ForwardLevel", "jacobian", "jvp"]


class Dual(Tracked):
    """A value and its tangent at one level of the forward engine."""

    __slots__ = ("tangent",)

    def __init__(self, value: Any, level: Level, tangent: Any) -> None:
        self.value = value
        self.level = level
        self.tangent = tangent


def _constant_tangent(a: Any) -> Any:
    return ZERO_TANGENT if inexact(a) else NO_TANGENT


class ForwardLevel(Level):
    """A level of the forward engine: it runs frules on its duals' values and tangents."""

    __slots__ = ("config",)

    def __init__(self, config: Any) -> None:
        super().__init__("forward")
        self.config = config

    def _split(self, args: tuple) -> tuple[Any, list[Any]]:
        """The arguments with this level's duals unwrapped, and one tangent per argument."""
        values: Any = args
        tangents: list[Any] = []
        for i, a in enumerate(args):
            new = a
            if isinstance(a, Tracked):
                if a.level is self:
                    new = a.value
                    tangents.append(a.tangent)  # type: ignore[attr-defined]
                else:
                    tangents.append(ZERO_TANGENT)
            elif type(a) in PLAIN:
                tangents.append(_constant_tangent(a))
            else:
                found: list[tuple] = []
                new = unwrap(a, self, (), found, {})
                pairs = [(path, d.tangent) for path, d in found]
                tangents.append(tangent_of(a, pairs, _constant_tangent))
            if new is not a:
                if values is args:
                    values = list(args)
                values[i] = new
        return values, tangents

    def apply(self, f: Any, args: tuple, kwargs: dict) -> Any:
        if kwargs:
            moved = keywords_as_positions(f, args, kwargs, self)
            if moved is None:
                raise tracked_keyword_error(f, kwargs)
            args, kwargs = moved
        values, tangents = self._split(args)
        result = self.config.frule((NO_TANGENT, *tangents), f, *values, **kwargs)
        if result is None:
            return without_rule(self, f, args, kwargs, values)
        y, dy = result
        if isinstance(y, Tracked) and y.level is self:
            raise ChainRulesError(
                f"the frule for {function_name(f)} computed with values of the "
                f"differentiation that called it, hidden where the engine could not unwrap "
                f"them; their derivative would be lost"
            )
        return self._wrap(f, y, unthunk(dy))

    def _wrap(self, f: Any, y: Any, dy: Any) -> Any:
        if isinstance(dy, AbstractZero):
            return taint(y)
        if isinstance(dy, NotImplementedTangent):
            raise ChainRulesError(
                f"the frule for {function_name(f)} does not give the tangent: {dy.info}"
            )
        if inexact(y):
            return Dual(y, self, dy)
        if isinstance(y, tuple | list):
            names = getattr(type(y), "_fields", None)
            elements = []
            for index, element in enumerate(y):
                d = unthunk(field_of(dy, index if names is None else names[index], index))
                if inexact(element) and not isinstance(d, AbstractZero):
                    element = Dual(element, self, d)
                elif has_tangent_space(element) and not isinstance(d, AbstractZero):
                    raise untracked_structure_error(f)
                elif not isinstance(element, Dual):
                    element = taint(element)
                elements.append(element)
            return rebuild_sequence(y, elements)
        if has_tangent_space(y):
            raise untracked_structure_error(f)
        return taint(y)


class ForwardConfig(RuleConfig, HasForwardMode):
    """The rule config of the forward engine: ``frule_via_ad`` differentiates with it."""

    __slots__ = ()

    def frule_via_ad(self, tangents: tuple, f: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        """``(y, dy)`` for any ``f``, given ``tangents = (df, dx1, ...)``.

        >>> print(*CONFIG.frule_via_ad((None, 1.0, 0.0), lambda x, y: x * y, 2.0, 5.0))
        10.0 5.0
        """

        def call(g: Any, *a: Any) -> Any:
            return g(*a, **kwargs)

        df = NO_TANGENT if tangents[0] is None else tangents[0]
        return jvp(call, (f, *args), (df, *tangents[1:]))


CONFIG = ForwardConfig()


def jvp(f: Callable, primals: tuple, tangents: tuple) -> tuple[Any, Any]:
    """``(f(*primals), dy)``: the directional derivative of ``f`` along ``tangents``.

    Tangents of structures are ``Tangent``s (or tuples and dicts of the same layout); the
    tangent of a structured result is a ``Tangent``.

    >>> import numpy as np
    >>> jvp(lambda x: x * x, (np.array([1.0, 2.0]),), (np.ones(2),))
    (array([1., 4.]), array([2., 4.]))
    """
    if len(primals) != len(tangents):
        raise ValueError(f"jvp: {len(primals)} primals but {len(tangents)} tangents")
    level = ForwardLevel(CONFIG)

    def make_dual(x: Any, t: Any) -> Any:
        t = unthunk(t)
        return x if isinstance(t, AbstractZero) or t is None else Dual(x, level, t)

    tracker = Tracker(make_dual)
    duals = [tracker.track(x, t)[0] for x, t in zip(primals, tangents, strict=True)]
    # A pullback that f calls itself (a rule tester does) makes no thunk that could outlive
    # the level, so every operation it defers is recorded while the level is open.
    with level, eager_thunks():
        y = f(*duals)
    y_value, plan = untrack(y, lambda v: isinstance(v, Dual) and v.level is level)

    def leaf_tangent(leaf: Leaf) -> Any:
        t = ZERO_TANGENT if leaf.tracked is None else leaf.tracked.tangent
        return zeros_like_leaf(leaf.primal) if isinstance(t, AbstractZero) else t

    return y_value, collect(plan, leaf_tangent)


def jacobian(f: Callable, argnums: int = 0) -> Callable:
    """The Jacobian of ``f`` with respect to one real argument, one ``jvp`` per input element.

    The result has shape ``y.shape + x.shape``.

    >>> import numpy as np
    >>> jacobian(lambda x: x * x)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """

    def jacobian_f(*args: Any, **kwargs: Any) -> Any:
        x = args[argnums]
        x_shape = tuple(getattr(x, "shape", ()))
        dtype = getattr(x, "dtype", np.dtype(type(x)))

        def g(xi: Any) -> Any:
            full = list(args)
            full[argnums] = xi
            return f(*full, **kwargs)

        columns, y_shape = [], ()
        for basis in unit_basis(x_shape, dtype):
            y, dy = jvp(g, (x,), (basis,))
            y_shape = tuple(getattr(y, "shape", ()))
            columns.append(dy)
        return np.reshape(np.stack(columns, axis=-1), y_shape + x_shape)

    return jacobian_f
