"""Fast paths: a rule's twin for the calls most code makes, carrying the protocol itself.

A registered rule runs inside the protocol (``chainrules.core.protocol``): the registry calls
the protocol's wrapper, which checks every argument, calls the author's rule, which makes a
closure, and wraps that closure in a pullback object, whose call checks the cotangent and
calls the closure. Each step is small; together they cost 2 to 6 us a call, more than NumPy's
own work on small arrays.

A fast path computes what the registered rule computes, for the common calls only: NumPy
arrays of a floating dtype (exact ``np.ndarray``: masked arrays, ``np.matrix`` and dask arrays
never take it) with parameters of the plain kinds (numbers, tuples, integer arrays). Its
pullback is one object of a class made per function (``sum_pullback``), a ``FastPullback``,
which checks its cotangent as the protocol would and computes the cotangents with the same
formulas and projectors as the rule. Any other call it hands to the registered rule::

    def fast_sum(general, pullback_class):
        def sum_rrule(x, axis=None, *rest, **kwargs):
            if rest or kwargs or not float_array(x):
                return general(x, axis, *rest, **kwargs)
            ...
        return sum_rrule

    register_fast_path(np.sum, fast_sum, SumPullback)

The registered rule stays what introspection (``rrule.methods``) and the coverage report see;
a rule registered for the function afterwards replaces both. ``general_rule(f)`` gives the
rule a fast path stands in for: the harness's ``test_rrule`` compares the two at every call it
checks, and ``tests/core/test_fast_paths.py`` bit for bit on the calls that matter most.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import RuleDefinitionError
from .names import function_name, short_name
from .primals import FLOAT64
from .projection import array_projector
from .protocol import CheckedPullback, named_pullback_class, own_code
from .registry import rrule
from .tangents import NO_TANGENT, ZERO_TANGENT

__all__ = [
    "FastPullback",
    "float_array",
    "general_rule",
    "no_tangents",
    "onto",
    "plain_parameters",
    "register_fast_path",
]


def float_array(x: Any) -> bool:
    """Whether ``x`` is what fast paths take: an exact ``np.ndarray`` of a real floating dtype.

    >>> float_array(np.ones(2)), float_array(np.ones(2, int)), float_array(np.ma.ones(2))
    (True, False, False)
    """
    # float64 told without reading the dtype's kind (a third of this test's time)
    return type(x) is np.ndarray and (x.dtype is FLOAT64 or x.dtype.kind == "f")


# The parameters a fast path takes as they are: what the protocol's argument check lets through
# without looking (``protocol.check_arguments``), and slices and Ellipsis of indexing keys.
_PLAIN_PARAMETERS = frozenset(
    {int, float, bool, str, tuple, type(None), slice, type(Ellipsis), np.intp, np.float64}
)


def plain_parameters(params: tuple) -> bool:
    """Whether the parameters after the array are of the kinds fast paths take: numbers, strings,
    tuples, None, slices, Ellipsis and exact NumPy arrays not of objects (a list, a masked or a
    dask array, an array of objects takes the rule's way, which checks it).

    >>> plain_parameters((0, slice(None), np.arange(2))), plain_parameters(([0, 1],))
    (True, False)
    """
    for p in params:
        cls = type(p)
        if cls not in _PLAIN_PARAMETERS and not (cls is np.ndarray and p.dtype.kind != "O"):
            return False
    return True


# (NoTangent(),) * n, for the n parameters after the array argument: made once.
_NO_TANGENTS = tuple((NO_TANGENT,) * n for n in range(8))


def onto(shape: tuple[int, ...], dtype: np.dtype, dx: Any) -> Any:
    """``dx`` projected onto a NumPy array of ``shape`` and ``dtype`` (as ``projector(x)(dx)``),
    with nothing looked up when it already has them, as on the fast paths' common calls.

    >>> onto((2,), np.dtype(np.float64), np.ones((3, 2)))
    array([3., 3.])
    """
    if type(dx) is np.ndarray and dx.dtype is dtype and dx.shape == shape:
        return dx
    return array_projector(shape, dtype)(dx)


def no_tangents(n: int) -> tuple:
    """``(NoTangent(),) * n``, shared."""
    return _NO_TANGENTS[n] if n < len(_NO_TANGENTS) else (NO_TANGENT,) * n


class FastPullback(CheckedPullback):
    """The pullback of a fast path (subclassed per function): the protocol's cotangent checks
    (``CheckedPullback``), then ``cotangents(dy)``, which must take any cotangent that fits the
    output (another dtype, complex) and project what it gives onto the arguments."""

    __slots__ = ("rest", "shape")
    rest: tuple  # NoTangent() for each positional parameter after the arrays
    shape: tuple[int, ...]  # the output's

    def zeros(self) -> tuple[Any, ...]:
        """The cotangents of a zero: one array argument, real, then the parameters."""
        return (NO_TANGENT, ZERO_TANGENT, *self.rest)


def register_fast_path(
    f: Any,
    make: Callable[[Callable, type], Callable],
    pullback_base: type[FastPullback],
    *,
    also: tuple[Any, ...] = (),
    **attributes: Any,
) -> None:
    """Give the rrule registered for ``f`` (and for each of ``also``) a fast path.

    ``make(general, pullback_class)`` returns the rule run in its place: ``general`` is the
    registered rule with its protocol, for the calls the fast path does not take;
    ``pullback_class`` is ``pullback_base`` subclassed for the function (``sum_pullback``), with
    ``f`` and the ``attributes`` as class attributes.
    Raises ``RuleDefinitionError`` unless the function has one rule, for any argument types.
    """
    for key in (f, *also):

        def fast(general: Callable, key: Any = key) -> Callable:
            pullback_class = named_pullback_class(pullback_base, key, f=key, **attributes)
            # code of its own: the fast paths of a family (sum, mean) share make's (own_code)
            rule = make(general, pullback_class)
            rule = own_code(rule, f"{rule.__name__}[{short_name(key)}]")
            rule.__wrapped__ = rule.general_rule = general
            return rule

        general = rrule.replace_single(key, fast)
        if general is None:
            raise RuleDefinitionError(
                f"register_fast_path({function_name(key)}): the function has no single rrule "
                f"for any argument types to take the place of"
            )


def general_rule(f: Any) -> Callable | None:
    """The registered rule (with its protocol) that ``f``'s fast path stands in for, or
    ``None`` when ``f`` has no fast path: what a test compares the fast path with (the
    harness's ``test_rrule`` does).

    >>> general_rule(np.sum)(np.ones(2))[0], general_rule(np.cumsum)
    (np.float64(2.0), None)
    """
    methods = rrule.methods(f)
    return getattr(methods[0].fn, "general_rule", None) if len(methods) == 1 else None
