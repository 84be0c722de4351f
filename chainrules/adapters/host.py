"""Rules run on NumPy values: the host path that the torch, JAX and autograd adapters share.

A function whose rule only NumPy inputs can reach (most of ``scipy.special`` and
``scipy.linalg``) is run by the adapters on NumPy copies of their arrays. Its first derivative
is its ``rrule``; every further derivative comes from differentiating the previous pullback
with the reverse engine, which is itself built on the rules. ``HostFunction`` is that
recursion: its ``pullback_function()`` is another ``HostFunction``, so an adapter that wraps
both gets derivatives of every order (gammaln -> digamma -> polygamma...).

Only arguments whose positions are in ``active`` are differentiated; the others are constants
(integer orders, axes given positionally, integer arrays).

A derivative the rules do not give (a ``NotImplementedTangent``, such as the quadrature that
differentiates ``betainc`` in its shape parameters, which cannot be differentiated again) is
never a zero: it raises ``ChainRulesError`` naming the function and the argument as soon as a
cotangent that is not exactly zero would have to pass through it.

Host functions compare equal, and hash alike, when they compute the same thing (same
function, keywords, active arguments and outputs; a pullback function of equal functions), so
that adapters can keep one compiled or registered object per function instead of one per call.

>>> import numpy as np
>>> import scipy.special as sc
>>> gammaln = HostFunction(sc.gammaln, {}, active=(0,))
>>> y, pullback = gammaln.vjp(np.array([3.0]))
>>> pullback(np.array([1.0]))  # digamma(3)
(array([0.92278434]),)
>>> gammaln.pullback_function(1)(np.array([3.0]), np.array([1.0]))[0]  # the same, as a function
array([0.92278434])
>>> gammaln.pullback_function(1) == HostFunction(sc.gammaln, {}, (0,)).pullback_function(1)
True
"""

from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from ..core.errors import ChainRulesError, RuleKeywordError
from ..core.names import function_name
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent, Tangent
from ..core.thunks import unthunk

__all__ = ["HostFunction", "densify", "freeze", "is_inexact", "recording_holes"]


def is_inexact(dtype_kind: str) -> bool:
    """Whether a NumPy dtype kind has a tangent space (floats and complex numbers)."""
    return dtype_kind in "fc"


class _Identity:
    """A key for a value that cannot be hashed: equal only to itself, and keeping it alive."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Identity) and other.value is self.value

    def __hash__(self) -> int:
        return id(self.value)


def freeze(value: Any) -> Any:
    """A hashable key for ``value``: equal keys for values a rule cannot tell apart.

    Arrays are keyed by dtype, shape and bytes; containers element by element; the type is
    part of every key (``1``, ``1.0`` and ``True`` differ). A value that cannot be hashed is
    keyed by its identity.

    >>> freeze(np.arange(2)) == freeze(np.arange(2)), freeze(1) == freeze(1.0)
    (True, False)
    """
    if isinstance(value, np.ndarray):
        if value.dtype.hasobject:
            return _Identity(value)
        data = value.tobytes()
        if len(data) > 1024:  # a digest, so that a key does not keep a second copy
            data = hashlib.blake2b(data, digest_size=16).digest()
        return ("ndarray", value.dtype.str, value.shape, data)
    if isinstance(value, np.generic):
        return ("generic", value.dtype.str, value.tobytes())
    if isinstance(value, tuple | list):
        return (type(value).__qualname__, tuple(freeze(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple((k, freeze(v)) for k, v in value.items()))
    try:
        hash(value)
    except TypeError:
        return _Identity(value)
    return (type(value).__qualname__, value)


# The holes found while the reverse engine traces a host function: (output index, info).
_HOLES: contextvars.ContextVar[list | None] = contextvars.ContextVar("holes", default=None)


@contextlib.contextmanager
def recording_holes() -> Iterator[list]:
    """Inside, a missing derivative met while a pullback is being traced becomes a zero
    output recorded in the list yielded (index, info), for the caller to check its seed."""
    holes: list = []
    token = _HOLES.set(holes)
    try:
        yield holes
    finally:
        _HOLES.reset(token)


@functools.cache
def _tracked_type() -> type:
    from ..engines.tracked import Tracked

    return Tracked


def _is_tracked(value: Any) -> bool:
    if isinstance(value, tuple | list):
        return any(_is_tracked(v) for v in value)
    return isinstance(value, _tracked_type())


def _missing(name: str, position: int, info: str) -> ChainRulesError:
    return ChainRulesError(
        f"{name} has no derivative in its argument {position} that the rules can give "
        f"(it would be a silent zero): {info}"
    )


def densify(tangent: Any, like: Any, name: str = "", position: int = 0) -> Any:
    """``tangent`` as a NumPy array shaped and typed like ``like``: zeros become arrays.

    A tangent that is not a NumPy value (an engine's tracked array, while a pullback is being
    differentiated) is returned as it is: the rule has projected it already. A
    ``NotImplementedTangent`` raises ``ChainRulesError`` naming ``name`` and ``position``.

    >>> densify(None, np.ones(2, dtype=np.float32))
    array([0., 0.], dtype=float32)
    """
    tangent = unthunk(tangent)
    if isinstance(tangent, NotImplementedTangent):
        raise _missing(name or "the function", position, tangent.info)
    shape = tuple(getattr(like, "shape", ()))
    dtype = getattr(like, "dtype", None)
    dtype = np.result_type(like) if dtype is None else np.dtype(dtype)
    if tangent is None or isinstance(tangent, AbstractZero):
        return np.zeros(shape, dtype)
    if not isinstance(tangent, np.ndarray | np.generic | float | int | complex):
        return tangent
    out = np.asarray(tangent)
    if out.shape != shape:
        out = np.broadcast_to(out, shape)
    if out.dtype != dtype:
        out = out.real if dtype.kind != "c" and out.dtype.kind == "c" else out
        out = out.astype(dtype)
    return out


def _seed_is_zero(seed: Any) -> bool:
    seed = unthunk(seed)
    if seed is None or isinstance(seed, AbstractZero):
        return True
    if _is_tracked(seed):  # it carries an outer level's perturbation: not a constant zero
        return False
    return not np.any(np.asarray(seed))


class HostFunction:
    """``f(*args, **kwargs)`` on NumPy values, with a pullback for the arguments in ``active``.

    ``vjp(*args)`` gives ``(y, pullback)``, ``pullback(dy)`` one cotangent per active argument,
    dense NumPy arrays in the ChainRules complex convention (conjugation is the adapters'
    business). ``jvp(args, tangents)`` gives ``(y, dy)`` from the frule, or from the forward
    engine when ``f`` has none. ``pullback_function()`` is ``(*args, *dy) -> cotangents`` as a
    ``HostFunction`` of its own, differentiable again.
    """

    def __init__(self, f: Callable, kwargs: dict, active: tuple[int, ...], n_outputs: int = 0):
        self.f = f
        self.kwargs = kwargs
        self.active = tuple(active)
        self.n_outputs = n_outputs  # 0: one array; n > 0: a tuple of n arrays
        self.__name__ = function_name(f)

    def __repr__(self) -> str:
        return f"HostFunction({self.__name__}, active={self.active})"

    @functools.cached_property
    def _frozen(self) -> tuple:
        return (freeze(self.f), freeze(self.kwargs))  # neither changes: frozen once

    def key(self) -> tuple:
        """What this function computes, hashable: see ``__eq__``."""
        return (*self._frozen, self.active, self.n_outputs)

    def __eq__(self, other: object) -> bool:
        return other is self or (isinstance(other, HostFunction) and other.key() == self.key())

    def __hash__(self) -> int:
        return hash(self.key())

    def __call__(self, *args: Any) -> Any:
        return self.f(*args, **self.kwargs)

    def _with_active(self, args: tuple) -> Callable:
        """``f`` as a function of the active arguments alone, the others held fixed."""

        def of_active(*values: Any) -> Any:
            full = list(args)
            for i, v in zip(self.active, values, strict=True):
                full[i] = v
            return self.f(*full, **self.kwargs)

        return of_active

    def vjp(self, *args: Any) -> tuple[Any, Callable[..., tuple]]:
        # The rule first: it is cheaper than the engine and defines the first derivative.
        try:
            found = rrule(self.f, *args, **self.kwargs)
        except RuleKeywordError:  # a keyword the rule does not take: the engine traces f
            found = None
        holes: list = []
        rule_pullback: Any = None
        traced_pullback: Any = None
        if found is not None:
            y, rule_pullback = found
        else:
            from ..engines import reverse

            with recording_holes() as holes:
                y, traced_pullback = reverse.vjp(
                    self._with_active(args), *(args[i] for i in self.active)
                )
            if holes:  # the trace has zeros there: the values come from a call of its own
                plain = self.f(*args, **self.kwargs)
                missing = {k for k, _ in holes}
                y = plain if not self.n_outputs else _merge(y, plain, missing)
        active, name = self.active, self.__name__

        def host_pullback(dy: Any) -> tuple:
            for k, info in holes:
                if not _seed_is_zero(dy[k] if self.n_outputs else dy):
                    raise ChainRulesError(
                        f"differentiating {name} needs the derivative of its output {k}, "
                        f"which the rules do not give (it would be a silent zero): {info}"
                    )
            if rule_pullback is not None:
                full = rule_pullback(dy)
                cotangents = [full[1 + i] for i in active]
            else:
                cotangents = traced_pullback(dy)
            out = []
            for ct, i in zip(cotangents, active, strict=True):
                ct = unthunk(ct)
                if isinstance(ct, NotImplementedTangent) and _is_tracked(args):
                    out.append(ct)  # the caller's trace records it as a hole
                else:
                    out.append(densify(ct, args[i], name, i))
            return tuple(out)

        return y, host_pullback

    def jvp(self, args: tuple, tangents: tuple) -> tuple[Any, Any]:
        """``(y, dy)`` for tangents of the active arguments (``None`` for a zero tangent)."""
        full: list[Any] = [ZERO_TANGENT] * len(args)
        for i, t in zip(self.active, tangents, strict=True):
            full[i] = ZERO_TANGENT if t is None else t
        try:
            found = frule((NO_TANGENT, *full), self.f, *args, **self.kwargs)
        except RuleKeywordError:
            found = None
        if found is None:
            from ..engines import forward

            found = forward.jvp(
                self._with_active(args),
                tuple(args[i] for i in self.active),
                tuple(densify(full[i], args[i]) for i in self.active),
            )
        y, dy = found
        if isinstance(y, tuple | list):
            parts = dy if isinstance(dy, Tangent | tuple | list) else (dy,) * len(y)
            dense = [densify(d, v, self.__name__) for d, v in zip(parts, y, strict=True)]
            return y, (dense if isinstance(y, list) else tuple(dense))
        return y, densify(dy, y, self.__name__)

    def pullback_function(self, n_args: int, wanted: tuple[int, ...] | None = None) -> HostFunction:
        """``(*args, *dy) -> cotangents``: this function's pullback, as a function to wrap.

        It gives the cotangents of the arguments in ``wanted`` (by default every active one)
        and is differentiable in all the active arguments and in ``dy``; ``n_args`` is how
        many arguments the primal call had.
        """
        wanted = self.active if wanted is None else tuple(wanted)
        n_dy = max(self.n_outputs, 1)
        active = (*self.active, *range(n_args, n_args + n_dy))
        pullback = _PullbackOf(self, n_args, wanted)
        return HostFunction(pullback, {}, active, n_outputs=len(wanted))

    def partials_function(self, n_args: int, wanted: tuple[int, ...]) -> HostFunction:
        """``(*args) -> (y, *partials)``: the value and its partial derivatives in the
        arguments in ``wanted``, as a function to wrap; differentiable in the active ones.

        Only for an elementwise function of one output whose arguments in ``wanted`` have the
        result's shape: each partial is then the pullback of a ones cotangent (conjugated,
        for complex values), element by element.
        """
        partials = _ValueAndPartials(self, n_args, tuple(wanted))
        return HostFunction(partials, {}, self.active, n_outputs=1 + len(wanted))

    def jvp_function(self, n_args: int) -> HostFunction:
        """``(*args, *dx) -> dy``: this function's frule, as a function to wrap.

        ``dx`` holds one tangent per active argument; the result is differentiable in the
        active arguments and in ``dx``.
        """
        active = (*self.active, *range(n_args, n_args + len(self.active)))
        return HostFunction(_JvpOf(self, n_args), {}, active, n_outputs=self.n_outputs)


def _merge(traced: Any, plain: Any, missing: set) -> tuple:
    return tuple(
        p if k in missing else t for k, (t, p) in enumerate(zip(traced, plain, strict=True))
    )


class _DerivativeOf:
    """A derivative of a host function as a function of its own, equal when the host is."""

    suffix = ""

    def __init__(self, outer: HostFunction, n_args: int, wanted: tuple = ()) -> None:
        self.outer = outer
        self.n_args = n_args
        self.wanted = wanted
        self.__name__ = self.__qualname__ = f"{outer.__name__}_{self.suffix}"
        self.__module__ = ""  # the outer name is qualified already

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, _DerivativeOf)
            and type(other) is type(self)
            and other.outer == self.outer
            and other.n_args == self.n_args
            and other.wanted == self.wanted
        )

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.outer, self.n_args, self.wanted))

    @functools.cached_property
    def _wanted_only(self) -> HostFunction:
        # Traced in the wanted arguments alone: the others (constants of the caller, made
        # operands) may have no derivative the rules give, and none is asked of them here.
        outer = self.outer
        return HostFunction(outer.f, outer.kwargs, self.wanted, outer.n_outputs)

    def _checked(self, cotangents: tuple, args: tuple, first_output: int) -> tuple:
        """``cotangents`` of the wanted arguments, each derivative the rules do not give
        recorded as a hole (at its output, counted from ``first_output``) for the trace that
        checks its seed, or raised when nothing traces this function."""
        holes = _HOLES.get()
        out = []
        for k, (ct, i) in enumerate(zip(cotangents, self.wanted, strict=True)):
            if isinstance(ct, NotImplementedTangent):
                if holes is None:  # traced by someone who would not check: refuse now
                    raise _missing(self.outer.__name__, i, ct.info)
                holes.append((first_output + k, ct.info))
                ct = densify(None, args[i])
            out.append(ct)
        return tuple(out)


class _PullbackOf(_DerivativeOf):
    suffix = "pullback"

    def __call__(self, *args_and_dy: Any) -> tuple:
        args, dy = args_and_dy[: self.n_args], args_and_dy[self.n_args :]
        _, pullback = self._wanted_only.vjp(*args)
        cotangents = pullback(tuple(dy) if self.outer.n_outputs else dy[0])
        return self._checked(cotangents, args, first_output=0)


class _ValueAndPartials(_DerivativeOf):
    suffix = "partials"

    def __call__(self, *args: Any) -> tuple:
        y, pullback = self._wanted_only.vjp(*args)
        partials = pullback(np.ones(np.shape(y), y.dtype))
        return (y, *self._checked(partials, args, first_output=1))


class _JvpOf(_DerivativeOf):
    suffix = "jvp"

    def __call__(self, *args_and_dx: Any) -> Any:
        args, dx = args_and_dx[: self.n_args], args_and_dx[self.n_args :]
        return self.outer.jvp(args, dx)[1]
