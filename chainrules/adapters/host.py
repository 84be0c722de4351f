"""Rules run on NumPy values: the host path that the torch and JAX adapters share.

A function whose rule only NumPy inputs can reach (most of ``scipy.special`` and
``scipy.linalg``) is run by the adapters on NumPy copies of their arrays. Its first derivative
is its ``rrule``; every further derivative comes from differentiating the previous pullback
with the reverse engine, which is itself built on the rules. ``HostFunction`` is that
recursion: its ``pullback_function()`` is another ``HostFunction``, so an adapter that wraps
both gets derivatives of every order (gammaln -> digamma -> polygamma...).

Only arguments whose positions are in ``active`` are differentiated; the others are constants
(integer orders, axes given positionally, integer arrays).

>>> import numpy as np
>>> import scipy.special as sc
>>> gammaln = HostFunction(sc.gammaln, {}, active=(0,))
>>> y, pullback = gammaln.vjp(np.array([3.0]))
>>> pullback(np.array([1.0]))  # digamma(3)
(array([0.92278434]),)
>>> gammaln.pullback_function(1)(np.array([3.0]), np.array([1.0]))[0]  # the same, as a function
array([0.92278434])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.errors import RuleKeywordError
from ..core.names import function_name
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from ..core.thunks import unthunk

__all__ = ["HostFunction", "densify", "is_inexact"]


def is_inexact(dtype_kind: str) -> bool:
    """Whether a NumPy dtype kind has a tangent space (floats and complex numbers)."""
    return dtype_kind in "fc"


def densify(tangent: Any, like: Any) -> Any:
    """``tangent`` as a NumPy array shaped and typed like ``like``: zeros become arrays.

    A tangent that is not a NumPy value (an engine's tracked array, while a pullback is being
    differentiated) is returned as it is: the rule has projected it already.

    >>> densify(None, np.ones(2, dtype=np.float32))
    array([0., 0.], dtype=float32)
    """
    tangent = unthunk(tangent)
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


class HostFunction:
    """``f(*args, **kwargs)`` on NumPy values, with a pullback for the arguments in ``active``.

    ``vjp(*args)`` gives ``(y, pullback)``, ``pullback(dy)`` one cotangent per active argument,
    dense NumPy arrays in the ChainRules complex convention (conjugation is the adapters'
    business). ``jvp(args, tangents)`` gives ``(y, dy)`` from the frule, or from the forward
    engine when ``f`` has none. ``pullback_function()`` is ``(*args, *dy) -> cotangents`` as a
    ``HostFunction`` of its own, differentiable again.
    """

    def __init__(self, f: Callable, kwargs: dict, active: tuple[int, ...], n_outputs: int = 1):
        self.f = f
        self.kwargs = kwargs
        self.active = active
        self.n_outputs = n_outputs  # 0: one array; n > 0: a tuple of n arrays
        self.__name__ = function_name(f)

    def __repr__(self) -> str:
        return f"HostFunction({self.__name__}, active={self.active})"

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

    def vjp(self, *args: Any) -> tuple[Any, Callable[[Any], tuple]]:
        # The rule first: it is cheaper than the engine and defines the first derivative.
        try:
            found = rrule(self.f, *args, **self.kwargs)
        except RuleKeywordError:  # a keyword the rule does not take: the engine traces f
            found = None
        rule_cotangents: Callable[[Any], tuple]
        if found is not None:
            y, rule_pullback = found

            def rule_cotangents(dy: Any) -> tuple:
                cotangents = rule_pullback(dy)
                return tuple(cotangents[1 + i] for i in self.active)

        else:
            from ..engines import reverse

            y, rule_cotangents = reverse.vjp(
                self._with_active(args), *(args[i] for i in self.active)
            )

        def host_pullback(dy: Any) -> tuple:
            cotangents = rule_cotangents(dy)
            return tuple(
                densify(ct, args[i]) for ct, i in zip(cotangents, self.active, strict=True)
            )

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
            dense = [densify(d, v) for d, v in zip(parts, y, strict=True)]
            return y, (dense if isinstance(y, list) else tuple(dense))
        return y, densify(dy, y)

    def pullback_function(self, n_args: int) -> HostFunction:
        """``(*args, *dy) -> cotangents``: this function's pullback, as a function to wrap.

        It is differentiable in the active arguments and in ``dy``; ``n_args`` is how many
        arguments the primal call had.
        """
        outer = self
        n_dy = max(self.n_outputs, 1)

        def pullback_of(*args_and_dy: Any) -> tuple:
            args, dy = args_and_dy[:n_args], args_and_dy[n_args:]
            _, pullback = outer.vjp(*args)
            return pullback(tuple(dy) if outer.n_outputs else dy[0])

        pullback_of.__name__ = pullback_of.__qualname__ = f"{self.__name__}_pullback"
        active = (*self.active, *range(n_args, n_args + n_dy))
        return HostFunction(pullback_of, {}, active, n_outputs=len(self.active))

    def jvp_function(self, n_args: int) -> HostFunction:
        """``(*args, *dx) -> dy``: this function's frule, as a function to wrap.

        ``dx`` holds one tangent per active argument; the result is differentiable in the
        active arguments and in ``dx``.
        """
        outer = self
        n_dx = len(self.active)

        def jvp_of(*args_and_dx: Any) -> Any:
            args, dx = args_and_dx[:n_args], args_and_dx[n_args:]
            return outer.jvp(args, dx)[1]

        jvp_of.__name__ = jvp_of.__qualname__ = f"{self.__name__}_jvp"
        active = (*self.active, *range(n_args, n_args + n_dx))
        return HostFunction(jvp_of, {}, active, n_outputs=self.n_outputs)
