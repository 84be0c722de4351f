"""Rules given dask arrays: what ``test_rrule`` and ``test_frule`` check before the rest.

Given a dask array among the arguments (also inside lists and tuples), ``test_rrule`` and
``test_frule`` first check that the rule is lazy, then check its mathematics on the computed
NumPy values, as for NumPy inputs (finite differences need NumPy values: keep such inputs
small). Lazy means:

* nothing is computed while the rule, its pullback or its frule runs (``LazyComputation``);
* every float output is a dask array, and so is every cotangent (or tangent) of a dask
  argument, with that argument's chunks (``NotLazy``);
* computed, the output and the cotangents (tangent) equal the rule's on the computed NumPy
  arguments, given the same cotangent (tangents), within the tolerance (``TangentMismatch``).

A rule that refuses dask arrays raises its error there (``RuleRaised``, the rule's error
chained; a ``NotImplementedTangent`` where NumPy's values get a derivative is one too): that it
names the function is the rule's part.

>>> import numpy as np
>>> import pytest
>>> da = pytest.importorskip("dask.array")
>>> from chainrules_testing import test_rrule
>>> test_rrule(np.tanh, da.from_array(np.linspace(-1.0, 1.0, 6), chunks=3), seed=1)
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

import chainrules
from chainrules.core.errors import ChainRulesError
from chainrules.core.lazy import is_lazy
from chainrules.core.names import function_name
from chainrules.core.tangents import AbstractZero, NoTangent, NotImplementedTangent, Tangent
from chainrules.core.thunks import unthunk

from .compare import primal_difference, tangent_difference
from .failures import RuleRaised, RuleTestFailure, TangentMismatch
from .report import Context
from .seeds import resolve_seed
from .tangents import WithTangent, make_rng, rand_tangent, split_with_tangent
from .tolerances import tolerance_for

__all__ = [
    "LazyComputation",
    "NotLazy",
    "check_lazy_frule",
    "check_lazy_rrule",
    "computed",
    "has_lazy",
    "lazy_leaves",
    "map_arrays",
    "nothing_computes",
]


class LazyComputation(RuleTestFailure):
    """A rule given dask arrays computed one while it ran (it would pull it into memory)."""


class NotLazy(RuleTestFailure):
    """A rule given dask arrays returned a NumPy value, or a cotangent with other chunks."""


@contextlib.contextmanager
def nothing_computes() -> Iterator[None]:
    """Within the block, any dask computation raises ``LazyComputation``."""
    import dask

    def refuse(graph: Any, keys: Any, **kwargs: Any) -> Any:
        raise LazyComputation("a dask array was computed while the rule ran")

    with dask.config.set(scheduler=refuse):
        yield


def map_arrays(fn: Callable[[Any], Any], t: Any) -> Any:
    """``t`` with ``fn`` applied to each leaf inside tuples, lists, namedtuples, ``Tangent``s
    and ``with_tangent`` pairs (thunks unthunked); zeros, strings and integers kept."""
    t = unthunk(t)
    if isinstance(t, Tangent):
        backing = t.backing
        if isinstance(backing, tuple):
            backing = tuple(map_arrays(fn, e) for e in backing)
        else:
            backing = {k: map_arrays(fn, v) for k, v in backing.items()}
        return Tangent._from_backing(t.primal_type, t._kind, backing)
    if isinstance(t, WithTangent):
        return WithTangent(map_arrays(fn, t.primal), t.tangent)
    if type(t) is tuple or type(t) is list:
        return type(t)(map_arrays(fn, e) for e in t)
    if isinstance(t, tuple) and hasattr(type(t), "_fields"):
        return type(t)(*(map_arrays(fn, e) for e in t))
    if isinstance(t, AbstractZero | NotImplementedTangent | str | int | bool) or t is None:
        return t
    return fn(t)


def lazy_leaves(t: Any) -> list[Any]:
    """The dask arrays inside ``t``, as ``map_arrays`` walks it."""
    found: list[Any] = []
    map_arrays(lambda a: found.append(a) if is_lazy(a) else None, t)
    return found


def has_lazy(t: Any) -> bool:
    """Whether a dask array sits inside ``t``.

    >>> has_lazy((1.0, [2.0]))
    False
    """
    return bool(lazy_leaves(t))


def computed(t: Any) -> Any:
    """``t`` with every dask array inside computed, in one pass of the synchronous scheduler."""
    import dask

    arrays = lazy_leaves(t)
    values = iter(dask.compute(*arrays, scheduler="sync"))
    return map_arrays(lambda a: next(values) if is_lazy(a) else a, t)


def _like(y: Any, value: Any) -> Any:
    """``value`` laid out as ``y``: a dask array with ``y``'s chunks where ``y`` is one."""
    if is_lazy(y) and type(value).__module__ == "numpy":
        import dask.array

        return dask.array.from_array(value, chunks=y.chunks)
    if isinstance(y, tuple | list) and isinstance(value, Tangent) and value.is_positional:
        parts = (_like(a, b) for a, b in zip(y, value, strict=True))
        return Tangent._from_backing(value.primal_type, value._kind, tuple(parts))
    return value


class _Lazy:
    """One lazy check: its context, the NumPy arguments, the tolerance."""

    def __init__(
        self, check: str, f: Any, args: tuple, fkwargs: Any, seed: Any, rtol: Any, atol: Any
    ) -> None:
        self.seed = resolve_seed(seed)
        self.rng = make_rng(self.seed)
        self.f = split_with_tangent(f)[0]
        self.ctx = Context(check, function_name(self.f), self.seed)
        self.args = tuple(split_with_tangent(a)[0] for a in args)
        self.fkwargs = dict(fkwargs or {})
        self.numpy_args = computed(self.args)
        self.tol = tolerance_for(*self.numpy_args, rtol=rtol, atol=atol)

    def run(self, what: str, fn: Callable, /, *args: Any, **kwargs: Any) -> Any:
        try:
            with nothing_computes():
                return fn(*args, **kwargs)
        except LazyComputation as error:
            self.ctx.fail(
                LazyComputation,
                f"{what} computed a dask array while it ran",
                "a rule computes through its arguments' namespace, lazily; one that cannot "
                "raises an error naming the function",
                cause=error,
            )
        except RuleTestFailure:
            raise
        except Exception as error:  # the rule's own (a refusal among them), chained
            self.ctx.fail(
                RuleRaised,
                f"{what} raised {type(error).__name__} on dask arrays: {error}"[:500],
                cause=error,
            )

    def check_output(self, what: str, value: Any) -> None:
        """Every float leaf of ``value`` a dask array."""
        for leaf in _float_leaves(value):
            if not is_lazy(leaf):
                self.ctx.fail(NotLazy, f"{what} is a {type(leaf).__name__}, not a dask array")

    def check_tangents(self, what: str, values: Any) -> None:
        """Each cotangent (tangent) of a dask argument a dask array with its chunks."""
        for i, (x, dx) in enumerate(zip(self.args, values, strict=True)):
            dx = unthunk(dx)
            if not is_lazy(x) or isinstance(dx, AbstractZero | NotImplementedTangent):
                continue
            if not is_lazy(dx):
                self.ctx.fail(
                    NotLazy, f"the {what} of args[{i}] is a {type(dx).__name__}, not a dask array"
                )
            if dx.chunks != x.chunks:
                self.ctx.fail(
                    NotLazy,
                    f"the {what} of args[{i}] has chunks {dx.chunks}, its primal {x.chunks}",
                )

    def compare(self, what: str, actual: Any, expected: Any) -> None:
        actual = unthunk(actual)
        if isinstance(actual, NotImplementedTangent) and not isinstance(
            unthunk(expected), NotImplementedTangent
        ):  # a derivative that NumPy values alone get: the rule's refusal of dask arrays
            self.ctx.fail(
                RuleRaised,
                f"on dask arrays, {what} is not implemented: {actual.info}",
                cause=ChainRulesError(f"the rule for {self.ctx.name}: {actual.info}"),
            )
        tol = {"rtol": self.tol.rtol, "atol": self.tol.atol}
        if what == "y":  # outputs (lists, tuples, namedtuples of values), as primals compare
            found = primal_difference(computed(actual), expected, **tol)
        else:
            found = tangent_difference(computed(actual), expected, path=what, **tol)
        if found is not None:
            self.ctx.fail(
                TangentMismatch,
                f"on dask arrays, {what} differs from the rule's on NumPy arrays",
                str(found),
            )


def _float_leaves(t: Any) -> list[Any]:
    found: list[Any] = []

    def visit(leaf: Any) -> None:
        kind = getattr(getattr(leaf, "dtype", None), "kind", None)
        if kind in ("f", "c") or isinstance(leaf, float | complex):
            found.append(leaf)

    map_arrays(visit, t)
    return found


def check_lazy_rrule(
    f: Any, args: tuple, fkwargs: Any, seed: Any, rtol: Any, atol: Any, rule: Any = None
) -> tuple:
    """The lazy checks of ``test_rrule`` (see the module docstring); the computed arguments
    (NumPy values, each ``with_tangent`` pair kept) are returned for the rest of the test."""
    lazy = _Lazy("test_rrule", f, args, fkwargs, seed, rtol, atol)
    rule = chainrules.rrule if rule is None else rule
    result = lazy.run("the rrule", rule, lazy.f, *lazy.args, **lazy.fkwargs)
    if result is None:
        lazy.ctx.fail(RuleRaised, "no rule applies to these dask arguments")
    y, pullback = result
    lazy.check_output("the output", y)
    y_numpy, pullback_numpy = rule(lazy.f, *lazy.numpy_args, **lazy.fkwargs)
    dy = rand_tangent(y_numpy, lazy.rng)
    cotangents = lazy.run("pullback(dy)", pullback, _like(y, dy))
    lazy.check_tangents("cotangent", cotangents[1:])
    lazy.compare("y", y, y_numpy)
    for i, (c, expected) in enumerate(zip(cotangents, pullback_numpy(dy), strict=True)):
        lazy.compare(f"the cotangent of args[{i - 1}]" if i else "the cotangent of f", c, expected)
    return computed(tuple(args))


def check_lazy_frule(
    f: Any, args: tuple, fkwargs: Any, seed: Any, rtol: Any, atol: Any, rule: Any = None
) -> tuple:
    """The lazy checks of ``test_frule`` (see the module docstring); the computed arguments
    are returned for the rest of the test."""
    lazy = _Lazy("test_frule", f, args, fkwargs, seed, rtol, atol)
    rule = chainrules.frule if rule is None else rule
    tangents = tuple(rand_tangent(a, lazy.rng) for a in lazy.numpy_args)
    lazy_tangents = tuple(_like(a, t) for a, t in zip(lazy.args, tangents, strict=True))
    result = lazy.run(
        "the frule", rule, (NoTangent(), *lazy_tangents), lazy.f, *lazy.args, **lazy.fkwargs
    )
    if result is None:
        lazy.ctx.fail(RuleRaised, "no rule applies to these dask arguments")
    y, dy = result
    lazy.check_output("the output", y)
    lazy.check_output("the tangent", dy)
    y_numpy, dy_numpy = rule((NoTangent(), *tangents), lazy.f, *lazy.numpy_args, **lazy.fkwargs)
    lazy.compare("y", y, y_numpy)
    lazy.compare("the tangent", dy, dy_numpy)
    return computed(tuple(args))
