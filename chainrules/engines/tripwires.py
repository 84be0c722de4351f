"""Tripwires: the errors an engine raises instead of returning a silently wrong derivative.

A tracked value stands for a number that is being differentiated. Anything that would turn it
into something the engine cannot follow raises a ``TrackingError`` naming the call:

* ``float(x)``, ``int(x)``, ``complex(x)``, ``x.item()``, ``x.tolist()``: a Python number has no
  derivative attached, so everything computed from it would be a constant;
* ``np.asarray(x)`` and every compiled function that coerces its input to a plain array;
* reinterpreting a float's bits: ``x.view(other_dtype)``, ``x.tobytes()``, ``x.data``,
  ``x.ctypes``, assigning ``x.dtype`` and pickling raise here; ``struct.pack`` fails in its own
  conversion to float (``struct.error``, which replaces the message), and ``np.frombuffer(x)``,
  ``memoryview(x)``, ``np.ndarray(buffer=x)`` with a ``TypeError``, as a tracked value has no
  buffer. Integers computed from a tracked float (``x.astype(int)``, ``np.argmax(x)``) are
  handed out as ``derived.DerivedIntegers``, whose bits cannot be read as floats either;
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
import dis
import inspect
import linecache
import sys
from typing import Any

import numpy as np

from ..core.errors import ChainRulesError
from ..core.names import function_name
from ..core.registry import rrule

__all__ = [
    "CoercionError",
    "EscapedValueError",
    "NoRuleError",
    "TrackingError",
    "Tripwires",
    "caller",
    "raise_replaced_error",
    "describe_result",
    "result_error",
]


class TrackingError(ChainRulesError, TypeError):
    """A tracked value was used in a way that would silently lose its derivative."""


class NoRuleError(ChainRulesError, TypeError):
    """A function reached by the engine has no rule and cannot be traced into."""


class EscapedValueError(ChainRulesError, TypeError):
    """A tracked value was used after the differentiation that made it had finished."""


_ENGINE_PREFIX = __name__.rsplit(".", 1)[0] + "."


def _opcodes(*names: str) -> frozenset[int]:
    return frozenset(dis.opmap[name] for name in names if name in dis.opmap)


_READ_OPS = _opcodes("BINARY_SUBSCR", "BINARY_SLICE", "DELETE_SUBSCR")
_STORE_OPS = _opcodes("STORE_SUBSCR", "STORE_SLICE")
# Python 3.14 spells a read subscript as BINARY_OP with the NB_SUBSCR argument.
_BINARY_OP = dis.opmap.get("BINARY_OP")
_NB_SUBSCR = next(
    (i for i, (name, _) in enumerate(getattr(dis, "_nb_ops", ())) if name == "NB_SUBSCR"), None
)


def subscripting(frame: Any) -> bool:
    """Whether ``frame`` is executing ``container[k]`` (a read): the conversion is for an index."""
    code = frame.f_code.co_code
    op = code[frame.f_lasti]
    if op in _READ_OPS:
        return True
    return _NB_SUBSCR is not None and op == _BINARY_OP and code[frame.f_lasti + 1] == _NB_SUBSCR


def storing(frame: Any) -> bool:
    """Whether ``frame`` is executing ``container[i] = v``."""
    return frame.f_code.co_code[frame.f_lasti] in _STORE_OPS


def called_function(frame: Any) -> tuple[str, Any] | None:
    """``(source, function)`` of the call ``frame`` is executing (``math.exp``), if it can tell.

    Read from the source columns of the current instruction, and resolved as a dotted name
    in the frame's variables; ``None`` when the callee is not a plain dotted name.
    """
    try:
        positions = list(frame.f_code.co_positions())[frame.f_lasti // 2]
    except (AttributeError, IndexError):
        return None
    line, end_line, start, end = positions
    if line is None or line != end_line or start is None:
        return None
    text = linecache.getline(frame.f_code.co_filename, line)[start:end]
    name = text.split("(", 1)[0].strip()
    parts = name.split(".")
    if not name or not all(part.isidentifier() for part in parts):
        return None
    scopes = (frame.f_locals, frame.f_globals, vars(builtins))
    found = next((scope[parts[0]] for scope in scopes if parts[0] in scope), None)
    for part in parts[1:]:
        found = getattr(found, part, None)
    return (name, found) if callable(found) else None


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


def describe_result(y: Any) -> str:
    """What a differentiated function returned, for an error saying it has no derivative."""
    if y is None:
        return "None (is a return statement missing?)"
    if isinstance(y, str | bytes):
        return f"a {type(y).__name__} {y!r}"
    dtype = getattr(y, "dtype", None)
    kind = dtype.kind if isinstance(dtype, np.dtype) else None
    if isinstance(y, bool | np.bool_) or kind == "b":
        return f"a boolean {y!r} (a comparison's result has no derivative)"
    if isinstance(y, int | np.integer) or kind in ("i", "u"):
        return f"an integer {y!r} (an index or count, as np.argmax gives, has no derivative)"
    return f"a {type(y).__name__} {y!r}"


def result_error(engine: str, f: Any, y: Any) -> TypeError:
    return TypeError(
        f"{engine} of {function_name(f)} needs a float result to differentiate, but "
        f"{function_name(f)} returned {describe_result(y)}"
    )


def raise_replaced_error(error: ValueError) -> None:
    """Raise the engine's error that NumPy replaced by its own ``ValueError``, if it did.

    Writing a tracked value into a plain array (``a[0] = x``) makes NumPy call ``float(x)``,
    and NumPy reports the engine's ``TrackingError`` as "setting an array element with a
    sequence"; the engines call this where a differentiated function returns, so that the
    user sees what happened and what to do.
    """
    cause = error.__cause__
    if isinstance(cause, TrackingError):
        raise cause.with_traceback(error.__traceback__) from None


def in_place_error(what: str) -> TrackingError:
    return TrackingError(
        f"{what}: tracked arrays are immutable, because an in-place write would change a value "
        f"the derivative has already used. Build a new array instead (x = x + v, np.where, "
        f"np.concatenate)."
    )


def _user_frame(frame: Any) -> Any:
    """The first frame outside the engines: the code that made the offending call."""
    while frame is not None and frame.f_globals.get("__name__", "").startswith(_ENGINE_PREFIX):
        frame = frame.f_back
    return frame


def _is_numpy(f: Any) -> bool:
    return isinstance(f, np.ufunc) or getattr(f, "__module__", "").startswith("numpy")


def reach(name: str, f: Any) -> str:
    """How ordinary code calls ``f`` so that the engines use its rules."""
    module = getattr(f, "__module__", None) or ""
    for namespace in ("scipy.special", "scipy.linalg"):
        if module.startswith(namespace) or module.startswith(namespace.replace(".", "._")):
            short = getattr(f, "__name__", name)
            return (
                f"call chainrules.{namespace}.{short} instead (SciPy's function, differentiable "
                f"in every engine)"
            )
    return (
        f"wrap it once as {name} = chainrules.with_rules({name}), or call it as "
        f"chainrules.engines.call({name}, ...)"
    )


class Tripwires:
    """The conversions and reinterpretations that tracked values refuse, as methods."""

    __slots__ = ()

    def _conversion(self, call: str) -> TrackingError:
        frame = _user_frame(sys._getframe(2))
        where = caller(3)
        if frame is not None and storing(frame):
            return TrackingError(
                f"a tracked value was written into a plain NumPy array (a[i] = x) in {where}: "
                f"a plain array holds numbers without derivatives, so the derivative through "
                f"it would be lost (NumPy reports this as 'setting an array element with a "
                f"sequence'). Build the array from tracked values instead: np.stack([x, y]), "
                f"np.concatenate, or a = np.where(np.arange(a.size) == i, x, a)."
            )
        called = None if frame is None else called_function(frame)
        if called is not None and not _is_numpy(called[1]) and not isinstance(called[1], type):
            name, function = called
            advice = (
                f"{name} has a rule, but called directly it turns its argument into a Python "
                f"number before any engine sees it: {reach(name, function)}"
                if rrule.has_rule(function)
                else f"give {name} a rule (@chainrules.rrule.register({name})) and "
                f"{reach(name, function)}"
            )
            return TrackingError(
                f"{call} was called on a tracked value by {name} in {where}: a Python number "
                f"carries no derivative, so everything computed from it would be treated as a "
                f"constant. {advice}, or use a NumPy function on the tracked value."
            )
        ruled = enclosing_function_with_rule(sys._getframe(2))
        if ruled is not None:
            name = function_name(ruled)
            return TrackingError(
                f"{call} was called on a tracked value in {where}, inside {name}, which has a "
                f"rule that the call did not use: {reach(name, ruled)}."
            )
        return TrackingError(
            f"{call} was called on a tracked value in {where}: a Python number carries no "
            f"derivative, so everything computed from it would be treated as a constant. Keep "
            f"the computation in NumPy operations; a compiled function with a rule is called "
            f"as chainrules.engines.call(f, x)."
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
                f"__array_function__, or not on this argument): {reach(name, ruled)}."
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

    def __bytes__(self) -> bytes:
        raise self._bits("bytes()")

    def __buffer__(self, flags: int) -> memoryview:  # Python >= 3.12; before, no buffer at all
        raise self._bits("the buffer protocol (memoryview, np.frombuffer, ctypes)")

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
