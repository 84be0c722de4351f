"""Tripwires: the errors an engine raises instead of returning a silently wrong derivative.

A tracked value stands for a number that is being differentiated. Anything that would turn it
into something the engine cannot follow raises a ``TrackingError`` naming the call:

* ``float(x)``, ``int(x)``, ``complex(x)``, ``x.item()``, ``x.tolist()``: a Python number has no
  derivative attached, so everything computed from it would be a constant;
* ``np.asarray(x)`` and every compiled function that coerces its input to a plain array;
* reinterpreting a float's bits: ``x.view(other_dtype)`` and ``x.tobytes()`` raise here, and
  so do the same calls on integers computed from a tracked float (``DerivedIntegers``);
  ``struct.pack`` fails in its own conversion to float (``struct.error``, which replaces the
  message), and ``np.frombuffer(x)`` with a ``TypeError``, as a tracked value has no buffer;
* in-place updates: ``x[i] = v``, ``out=`` arguments, ``ufunc.at``, and writing a tracked value
  into a plain array (``a[i] = x``, ``a += x``). Augmented assignment on a tracked value
  (``x += 1``) rebinds the name to a new tracked value, as for immutable arrays.

A call that has no rule and cannot be traced raises ``NoRuleError`` (see ``tracked``).

>>> from chainrules.engines import reverse
>>> reverse.grad(lambda x: float(x) * 2.0)(1.0)
Traceback (most recent call last):
...
chainrules.engines.tripwires.TrackingError: float() was called on a tracked value ...
"""

from __future__ import annotations

import builtins
import inspect
import sys
from typing import Any

import numpy as np

from ..core.errors import ChainRulesError
from ..core.names import function_name
from ..core.registry import rrule

__all__ = [
    "CoercionError",
    "DerivedIntegers",
    "EscapedValueError",
    "NoRuleError",
    "TrackingError",
    "Tripwires",
    "caller",
    "taint",
]


class TrackingError(ChainRulesError, TypeError):
    """A tracked value was used in a way that would silently lose its derivative."""


class NoRuleError(ChainRulesError, TypeError):
    """A function reached by the engine has no rule and cannot be traced into."""


class EscapedValueError(ChainRulesError, TypeError):
    """A tracked value was used after the differentiation that made it had finished."""


_ENGINE_PREFIX = __name__.rsplit(".", 1)[0] + "."


def caller(depth: int = 2) -> str:
    """Where the offending call came from: the first frame outside the engines."""
    frame: Any = sys._getframe(depth)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if not module.startswith(_ENGINE_PREFIX):
            code = frame.f_code
            return f"{module}.{code.co_qualname} (line {frame.f_lineno})"
        frame = frame.f_back
    return "<unknown>"


def enclosing_function_with_rule(frame: Any) -> Any:
    """The innermost function running in ``frame`` or its callers that has an rrule, or None."""
    by_code = {}
    for f in rrule.functions():
        code = getattr(inspect.unwrap(f), "__code__", None) if callable(f) else None
        if code is not None and rrule.has_rule(f):
            by_code[code] = f
    while frame is not None:
        found = by_code.get(frame.f_code)
        if found is not None:
            return found
        frame = frame.f_back
    return None


def no_rule_error(f: Any, why: str) -> NoRuleError:
    name = function_name(f)
    return NoRuleError(
        f"{name} has no rule, and {why}. Define one with @chainrules.rrule.register({name}) "
        f"and @chainrules.frule.register({name}) (or chainrules.scalar_rule for an "
        f"elementwise function), or declare it chainrules.non_differentiable if its result "
        f"has no derivative."
    )


def in_place_error(what: str) -> TrackingError:
    return TrackingError(
        f"{what}: tracked arrays are immutable, because an in-place write would change a value "
        f"the derivative has already used. Build a new array instead (x = x + v, np.where, "
        f"np.concatenate)."
    )


class Tripwires:
    """The conversions and reinterpretations that tracked values refuse, as methods."""

    __slots__ = ()

    def _conversion(self, call: str) -> TrackingError:
        return TrackingError(
            f"{call} was called on a tracked value in {caller(3)}: a Python number carries no "
            f"derivative, so everything computed from it would be treated as a constant. Keep "
            f"the computation in NumPy operations, or give the function that needs a Python "
            f"number a rule."
        )

    def __float__(self) -> float:
        raise self._conversion("float()")

    def __int__(self) -> int:
        raise self._conversion("int()")

    def __index__(self) -> int:
        raise self._conversion("operator.index()")

    def __complex__(self) -> complex:
        raise self._conversion("complex()")

    def item(self, *args: Any) -> Any:
        raise self._conversion(".item()")

    def tolist(self) -> Any:
        raise self._conversion(".tolist()")

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        ruled = enclosing_function_with_rule(sys._getframe(1))
        if ruled is not None:
            name = function_name(ruled)
            raise CoercionError(
                f"a tracked value was converted to a plain NumPy array in {caller(2)}, inside "
                f"{name}, which has a rule, but NumPy did not hand this call to the engine "
                f"(the function is not dispatched through __array_ufunc__ or "
                f"__array_function__, or not on this argument). Call it as "
                f"chainrules.engines.call({name}, ...)."
            )
        raise CoercionError(
            f"a tracked value was converted to a plain NumPy array in {caller(2)}: the call "
            f"there (np.asarray, np.array of a list holding tracked values, a compiled "
            f"function, or a write into a plain array) would drop the derivative. Give that "
            f"function a rule (@chainrules.rrule.register(f)), build arrays with np.stack or "
            f"np.concatenate, or keep tracked values out of plain arrays."
        )

    def _bits(self, call: str) -> TrackingError:
        return TrackingError(
            f"{call} on a tracked value in {caller(3)} reinterprets the bits of a float: "
            f"the engine cannot differentiate through a bit pattern, and would return a zero "
            f"derivative. Give the function doing this (a fast exp, a bit trick) a rule instead."
        )

    def tobytes(self, order: str = "C") -> bytes:
        raise self._bits(".tobytes()")

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        if dtype is None or (isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray)):
            return self
        if np.dtype(dtype) == self.dtype:  # type: ignore[attr-defined]
            return self
        raise self._bits(f".view({np.dtype(dtype).name})")

    def __setitem__(self, index: Any, value: Any) -> None:
        raise in_place_error("x[...] = v on a tracked array")


class CoercionError(TrackingError):
    """A tracked value was converted to a plain array (``np.asarray``, compiled code)."""


class DerivedIntegers(np.ndarray):
    """Integers computed from tracked floats (``astype(int)``, ``floor_divide``, ``argmax``).

    They carry no derivative, which is right for indices and counts; but their bits, read back
    as floats, are a float computed from the tracked value (Schraudolph's fast exp adds a
    scaled float to an exponent bias, casts to int and views the bits as a float) and would
    come out with a zero derivative. So reading them as floats raises: ``.view`` to another
    dtype and ``.tobytes()``. Integer arithmetic keeps the type (``<<``, ``+``); results the
    engine hands out as NumPy arrays are wrapped, NumPy scalars are not.
    """

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        if dtype is None:
            return self
        if isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray):
            return np.ndarray.view(self, dtype)
        if np.dtype(dtype).kind in "iub":
            if type is None:
                return np.ndarray.view(self, dtype)
            return np.ndarray.view(self, dtype, type)
        raise TrackingError(
            f".view({np.dtype(dtype).name}) in {caller(2)} reads integers computed from a tracked "
            f"float as the bits of a float: the engine cannot differentiate through a bit "
            f"pattern, and would return a zero derivative. Give the function doing this (a "
            f"fast exp, a bit trick) a rule instead."
        )

    def __array_wrap__(self, array: Any, context: Any = None, return_scalar: bool = False) -> Any:
        if array.dtype.kind in "iu":  # integer arithmetic on the bits keeps them marked
            return array.view(DerivedIntegers)
        plain = array.view(np.ndarray)  # values computed from them (floats, masks) are plain
        return plain[()] if return_scalar else plain

    def tobytes(self, order: Any = "C") -> bytes:
        raise TrackingError(
            f".tobytes() in {caller(2)} on integers computed from a tracked float: their bits, "
            f"read back as floats, would carry a zero derivative. Give the function doing this "
            f"(a fast exp, a bit trick) a rule instead."
        )


def taint(y: Any) -> Any:
    """A result without tangent space, integers marked as computed from tracked floats."""
    if type(y) is np.ndarray and y.dtype.kind in "iu":
        return y.view(DerivedIntegers)
    if type(y) is tuple or type(y) is list:
        return type(y)(taint(e) for e in y)
    return y
