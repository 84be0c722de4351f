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
from ..core.errors import ChainRulesError, ProjectionError, TangentTypeError
from ..core.names import function_name
from ..core.structure import has_tangent_space
from ..core.tangents import (
    NO_TANGENT,
    ZERO_TANGENT,
    AbstractZero,
    NotImplementedTangent,
    Tangent,
)
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
from .derived import taint
from .lazy_values import rules_refuse_computation
from .levels import Level
from .tape import rule_keywords, untracked_structure_error
from .tracked import (
    Tracked,
    inexact,
    rebuild_sequence,
    through_own_rules,
    without_rule,
)
from .tripwires import raise_replaced_error, result_error

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
            args, kwargs = rule_keywords(f, args, kwargs, self)
        # The frequent calls told at once, as on the reverse engine's tape: one or two
        # arguments, each a dual of this level or a Python float (``sin(x)``, ``x * 1.01``).
        values: Any = None
        tangents: Any
        if len(args) == 1:
            a = args[0]
            if type(a) is Dual and a.level is self:
                values, tangents = (a.value,), (a.tangent,)
        elif len(args) == 2:
            a, b = args
            if type(a) is Dual and a.level is self:
                if type(b) is Dual and b.level is self:
                    values, tangents = (a.value, b.value), (a.tangent, b.tangent)
                elif type(b) is float:
                    values, tangents = (a.value, b), (a.tangent, ZERO_TANGENT)
            elif type(b) is Dual and b.level is self and type(a) is float:
                values, tangents = (a, b.value), (ZERO_TANGENT, b.tangent)
        if values is None:
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
        # A float result with a zero tangent (floor, sign, a constant's function) stays a dual,
        # as it stays on the reverse engine's tape: what is computed from it (an integer cast
        # whose bits a fast exp reads as a float) is then marked in both modes alike.
        if isinstance(dy, NotImplementedTangent):
            raise ChainRulesError(
                f"the frule for {function_name(f)} does not give the tangent: {dy.info}"
            )
        if inexact(y):
            return Dual(y, self, ZERO_TANGENT if isinstance(dy, AbstractZero) else dy)
        if isinstance(dy, AbstractZero):
            return taint(y)
        if isinstance(y, tuple | list):
            names = getattr(type(y), "_fields", None)
            elements = []
            for index, element in enumerate(y):
                d = unthunk(field_of(dy, index if names is None else names[index], index))
                if inexact(element):
                    element = Dual(
                        element, self, ZERO_TANGENT if isinstance(d, AbstractZero) else d
                    )
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
            return through_own_rules(g)(*a, **kwargs)

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
    argument = [0]

    def make_dual(x: Any, t: Any) -> Any:
        t = unthunk(t)
        if isinstance(t, AbstractZero) or t is None:
            return x
        _check_tangent(f, argument[0], x, t)
        return Dual(x, level, t)

    def constant(x: Any, t: Any) -> None:
        if t is not None and not isinstance(unthunk(t), AbstractZero):
            raise TangentTypeError(
                f"jvp of {function_name(f)}: argument {argument[0]} is {_what(x)}, which has no "
                f"tangent space, but it was given the tangent {_what(t)}; pass a float primal "
                f"(2.0, not 2), or NoTangent() / None as its tangent"
            )

    tracker = Tracker(make_dual, constant)
    duals = []
    for i, (x, t) in enumerate(zip(primals, tangents, strict=True)):
        argument[0] = i
        duals.append(tracker.track(x, t)[0])
    # A pullback that f calls itself (a rule tester does) makes no thunk that could outlive
    # the level, so every operation it defers is recorded while the level is open.
    try:
        with level, eager_thunks(), rules_refuse_computation():
            y = through_own_rules(f)(*duals)
    except ValueError as error:
        raise_replaced_error(error)
        raise
    y_value, plan = untrack(y, lambda v: isinstance(v, Dual) and v.level is level)

    def leaf_tangent(leaf: Leaf) -> Any:
        t = ZERO_TANGENT if leaf.tracked is None else leaf.tracked.tangent
        return zeros_like_leaf(leaf.primal) if isinstance(t, AbstractZero) else t

    return y_value, collect(plan, leaf_tangent)


def _what(x: Any) -> str:
    dtype = getattr(x, "dtype", None)
    if dtype is not None and getattr(x, "shape", ()) != ():
        return f"an array of dtype {dtype} and shape {x.shape}"
    return f"{x!r} (of type {type(x).__name__})"


def _check_tangent(f: Callable, i: int, x: Any, t: Any) -> None:
    """A tangent for a float primal: a float (or complex) of the primal's shape."""
    dtype = getattr(t, "dtype", None)
    kind = dtype.kind if isinstance(dtype, np.dtype) else None
    if isinstance(t, bool | int | str) or (kind is not None and kind not in "fc"):
        raise TangentTypeError(
            f"jvp of {function_name(f)}: the tangent of argument {i} is {_what(t)}, not a float; "
            f"a tangent of a float primal is a float (1.0, not 1)"
        )
    if isinstance(t, Tangent | dict | list | tuple) or (
        dtype is None and not isinstance(t, float | complex)
    ):
        return  # structural tangents are matched field by field
    shape, t_shape = tuple(getattr(x, "shape", ())), tuple(getattr(t, "shape", ()))
    if shape != t_shape:
        raise ProjectionError(
            f"jvp of {function_name(f)}: the tangent of argument {i} has shape {t_shape}, but "
            f"the primal has shape {shape}"
        )


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

        run = through_own_rules(f)

        def g(xi: Any) -> Any:
            full = list(args)
            full[argnums] = xi
            return run(*full, **kwargs)

        columns, y_shape = [], ()
        for basis in unit_basis(x_shape, dtype):
            y, dy = jvp(g, (x,), (basis,))
            if not inexact(y):
                raise result_error("jacobian", f, y)
            y_shape = tuple(getattr(y, "shape", ()))
            columns.append(dy)
        return np.reshape(np.stack(columns, axis=-1), y_shape + x_shape)

    return jacobian_f
