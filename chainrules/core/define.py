"""Helpers that declare rules: ``scalar_rule``, ``non_differentiable``, ``ignore_derivatives``.

``scalar_rule(f, *partials)`` is for elementwise functions: each partial derivative is given
as a function of the inputs and the output, and the frule and rrule follow, with broadcasting,
un-broadcasting, projection and the complex convention (a holomorphic ``f``'s pullback is
``conj(f'(z)) * dy``) taken care of.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> def softsign(x): return x / (1 + abs(x))
>>> scalar_rule(softsign, lambda x, y: (1 - abs(y)) ** 2)
>>> y, pullback = rrule(softsign, 1.0)
>>> y, pullback(1.0)
(0.5, (NoTangent(), 0.25))
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import RuleDefinitionError
from .libraries import load_owner_before_registering
from .partials import constant as constant
from .registry import _Method, frule, function_name, mark_non_differentiable, rrule
from .scalar_frules import elementwise_frule
from .scalar_frules import fit_to_output as fit_to_output
from .scalar_rules import elementwise_rrule
from .tangents import NO_TANGENT

__all__ = [
    "constant",
    "fit_to_output",
    "ignore_derivatives",
    "non_differentiable",
    "scalar_rule",
    "scalar_rule_like",
]

_partials: dict[Any, tuple] = {}  # what scalar_rule registered each function with
_UFUNC_KEYWORDS = ("dtype", "casting", "order", "subok")


def scalar_rule(f: Any, *partials: Any, keywords: tuple[str, ...] | None = None) -> None:
    """Register the frule and the rrule of an elementwise function from its partials.

    ``partials`` holds one entry per input: a function ``(x1, ..., xn, y) -> df/dxi`` of the
    inputs and the output, ``constant(c)`` for a partial that is the number ``c`` everywhere,
    or ``None`` for an input without a tangent (an integer exponent, say). For a function
    with several outputs, pass one tuple of such entries per output; ``y`` is then the tuple
    of outputs, and an output of integer dtype (``frexp``'s exponent) has no tangent.

    Partials of a complex function are its complex derivative, so they describe holomorphic
    functions; write non-holomorphic ones (``abs``, ``angle``) as full rules. ``keywords`` are
    the keyword arguments passed through to ``f`` (by default those of a ufunc that do not
    change the result's value: dtype, casting, order, subok); any other keyword raises
    ``RuleKeywordError``. ``out=`` and ``where=`` are never accepted.

    >>> import math
    >>> def hypot(x, y): return math.sqrt(x * x + y * y)
    >>> scalar_rule(hypot, lambda x, y, z: x / z, lambda x, y, z: y / z)
    >>> frule((None, 1.0, 0.0), hypot, 3.0, 4.0)
    (5.0, 0.6)
    """
    if not partials:
        raise RuleDefinitionError(f"scalar_rule({function_name(f)}): give at least one partial")
    rows = partials if isinstance(partials[0], tuple) else (partials,)
    arity = len(rows[0])
    for row in rows:
        if not isinstance(row, tuple) or len(row) != arity:
            raise RuleDefinitionError(
                f"scalar_rule({function_name(f)}): every output needs one partial per input "
                f"({arity}), got {row!r}"
            )
        for p in row:
            if p is not None and not callable(p):
                raise RuleDefinitionError(
                    f"scalar_rule({function_name(f)}): partial {p!r} is not callable or None"
                )
    if keywords is None:
        keywords = _UFUNC_KEYWORDS if isinstance(f, np.ufunc) else ()
    multi = len(rows) > 1 or isinstance(partials[0], tuple)
    signature = inspect.Signature(
        [inspect.Parameter(f"x{i + 1}", inspect.Parameter.POSITIONAL_ONLY) for i in range(arity)]
        + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=None) for k in keywords]
    )
    rule_r = elementwise_rrule(f, rows, multi)
    rule_f = elementwise_frule(f, rows, multi, arity)
    for rule, table in ((rule_r, rrule), (rule_f, frule)):
        rule.__signature__ = signature  # type: ignore[attr-defined]
        rule.__qualname__ = f"scalar_{table.kind}[{function_name(f)}]"
        table._add(f, _Method(rule, (object,) * arity, arity, None, frozenset(keywords), None))
    _partials[f] = partials


def scalar_rule_like(f: Any, like: Any, *, keywords: tuple[str, ...] | None = None) -> None:
    """Register for ``f`` the partials that ``scalar_rule`` registered for ``like``.

    For a function that computes the same mathematical function as ``like`` (a fast
    approximation, another implementation): the rule is written once, and its partials are
    evaluated on ``f``'s own inputs and output. ``keywords`` are ``f``'s, as for
    ``scalar_rule``. Raises ``RuleDefinitionError`` when ``like`` has no rule made by
    ``scalar_rule``.

    >>> import math
    >>> def exp_exact(x): return math.exp(x)
    >>> scalar_rule(exp_exact, lambda x, y: y)
    >>> def exp_by_series(x): return sum(x**k / math.factorial(k) for k in range(20))
    >>> scalar_rule_like(exp_by_series, exp_exact)
    >>> frule((None, 1.0), exp_by_series, 0.0)
    (1.0, 1.0)
    """
    load_owner_before_registering(like)
    partials = _partials.get(like)
    if partials is not None:
        scalar_rule(f, *partials, keywords=keywords)
        return
    raise RuleDefinitionError(
        f"scalar_rule_like({function_name(f)}, {function_name(like)}): "
        f"{function_name(like)} has no rule made by scalar_rule"
    )


# ---- functions with no derivative ---------------------------------------------------------


def non_differentiable(*functions: Any) -> None:
    """Declare functions whose outputs have no tangent (predicates, argmax, integer results).

    Their rrule returns the primal and a pullback giving ``NoTangent()`` for every argument;
    their frule gives ``NoTangent()`` as the output tangent. The coverage report lists them as
    declared non-differentiable.

    >>> import numpy as np
    >>> non_differentiable(np.argmax)
    >>> y, pullback = rrule(np.argmax, np.array([1.0, 3.0]))
    >>> y, pullback(1.0)
    (np.int64(1), (NoTangent(), NoTangent()))
    """
    for f in functions:
        rule_r, rule_f = _non_differentiable_rules(f)
        rrule._add(f, _Method(rule_r, (), 0, object, None, None))
        frule._add(f, _Method(rule_f, (), 0, object, None, None))
        mark_non_differentiable(f)


def _non_differentiable_rules(f: Any) -> tuple[Callable, Callable]:
    def non_differentiable_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Callable]:
        y = f(*args, **kwargs)
        cotangents = (NO_TANGENT,) * (len(args) + 1)

        def non_differentiable_pullback(dy: Any) -> tuple[Any, ...]:
            return cotangents

        return y, non_differentiable_pullback

    def non_differentiable_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        return f(*args, **kwargs), NO_TANGENT

    return non_differentiable_rrule, non_differentiable_frule


def ignore_derivatives(x: Any) -> Any:
    """``x`` (or ``x()`` for a callable) with every derivative through it cut off.

    Engines see a rule whose pullback gives ``NoTangent()`` and whose frule gives
    ``NoTangent()``: use it for values that feed a computation but are not differentiated
    (a step size, logging, a running statistic).

    An engine's tracked values, which never reach a rule through this plain Python call,
    cut themselves off: their type's ``_chainrules_ignore_derivatives(value)`` gives the value.

    >>> ignore_derivatives(2.0), ignore_derivatives(lambda: 3.0)
    (2.0, 3.0)
    """
    value = x() if callable(x) else x
    untracked = getattr(type(value), "_chainrules_ignore_derivatives", None)
    return value if untracked is None else untracked(value)


non_differentiable(ignore_derivatives)
