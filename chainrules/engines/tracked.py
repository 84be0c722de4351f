"""The tracked array: a value being differentiated, and how NumPy calls reach the engine.

``Tracked`` is the base of the reverse engine's tracked values and the forward engine's dual
numbers. It holds a ``value`` (a float, a NumPy array, or a value tracked by an outer level)
and the ``level`` that tracks it. Every operation on it becomes a call ``f(*args)`` of a
NumPy function, handed to ``dispatch``:

* operators (``+``, ``@``, ``<``, ...) call the ufunc or function NumPy would (``np.add``...);
* ``__array_ufunc__`` and ``__array_function__`` receive NumPy's own calls (``np.sin(x)``,
  ``np.sum(x)``, ``ndarray + x``); ufunc methods are keyed as ``np.add.reduce`` and so on;
* indexing is ``np.ndarray.__getitem__(x, index)``, the key of the indexing rules; methods
  (``x.sum()``, ``x.reshape(...)``) and ``.T``/``.mT``/``.real``/``.imag`` are the NumPy
  functions of the same name;
* ``__array_namespace__`` returns a namespace whose functions are NumPy's, so a rule computing
  with ``xp = array_namespace(x)`` on tracked values is itself recorded;
* other functions with rules (``scipy.linalg.expm``, ``math.exp``) arrive through
  ``call(f, *args)`` (``chainrules.core.calls``), for which ``Tracked`` registers ``dispatch``;
  that is also how ``chainrules.scipy`` and ``chainrules.with_rules`` reach the engines;
* the function an engine differentiates (``grad(f)``, ``jvp(f, ...)``) is applied through
  its own rules when it has some (``through_own_rules``), not traced into.

``shape``, ``ndim``, ``size`` and ``dtype`` are plain Python values. ``dispatch`` finds the
highest level among the arguments (see ``levels``) and lets it apply its rule. When there is
no rule, ``without_rule`` traces into the function's Python implementation; a compiled
function whose result has a tangent space raises ``NoRuleError``, and one whose result has
none (an integer index, a boolean mask) is computed on the values, since nothing is lost.

>>> import numpy as np
>>> from chainrules.engines import reverse
>>> reverse.grad(lambda x: (x * x.T).sum())(np.array([1.0, 2.0]))
array([2., 4.])
"""

from __future__ import annotations

import inspect
import math
import types
from typing import Any

import numpy as np

from .._compat import NUMPY_NO_VALUE
from ..core.calls import call, register_call_handler
from ..core.names import function_name
from ..core.registry import frule, rrule
from ..core.structure import has_tangent_space
from .derived import DerivedIntegers, plain, taint
from .lazy_values import is_lazy_float, with_dask_counterpart
from .levels import Level
from .tripwires import CoercionError, Tripwires, in_place_error, no_rule_error

__all__ = [
    "NAMESPACE",
    "Tracked",
    "call",
    "dispatch",
    "inexact",
    "keywords_as_positions",
    "rebuild_sequence",
    "through_own_rules",
    "without_rule",
]

_NO_KEYWORDS: dict[str, Any] = {}
# Operands that are never tracked and hold nothing tracked.
_PLAIN_OPERANDS = frozenset({float, int, complex, bool, np.ndarray, np.float64, type(None)})


def _top(args: Any, top: Level | None) -> Level | None:
    for a in args:
        if isinstance(a, Tracked):
            if top is None or a.level.order > top.order:
                top = a.level
        elif type(a) is list or type(a) is tuple:
            top = _top(a, top)
    return top


def dispatch(f: Any, args: tuple, kwargs: dict) -> Any:
    """``f(*args, **kwargs)`` where some arguments are tracked: the highest level applies it."""
    n = len(args)
    if n == 1 and isinstance(args[0], Tracked):  # the most frequent calls: f(x), x op y
        top: Level | None = args[0].level
    elif n == 2 and type(args[1]) in _PLAIN_OPERANDS and isinstance(args[0], Tracked):
        top = args[0].level
    elif n == 2 and type(args[0]) in _PLAIN_OPERANDS and isinstance(args[1], Tracked):
        top = args[1].level
    else:
        top = _top(args, None)
    if kwargs:
        out = kwargs.get("out")
        if out is not None and not (type(out) is tuple and all(o is None for o in out)):
            raise in_place_error(f"out= given to {function_name(f)} with tracked arguments")
        top = _top(kwargs.values(), top)
    if top is None:  # tracked values only inside a dict or an object among the arguments
        return without_rule(None, f, args, kwargs, args)
    if top.closed:
        raise top.escaped()
    return top.apply(f, args, kwargs)


def through_own_rules(f: Any) -> Any:
    """``f``, or ``f`` applied by ``dispatch`` when ``f`` has rules of its own.

    An engine calls what it differentiates through this, so that ``grad(f)`` uses ``f``'s
    rule (a numerically careful one, or one for compiled code that cannot be traced) instead of
    tracing ``f``'s implementation. NumPy's ufuncs and functions dispatch by themselves.
    """
    if isinstance(f, np.ufunc) or not (rrule.has_rule(f) or frule.has_rule(f)):
        return f

    def applied(*args: Any, **kwargs: Any) -> Any:
        return dispatch(f, args, kwargs)

    applied.__wrapped__ = f  # type: ignore[attr-defined]
    return applied


_signatures: dict[Any, Any] = {}


def keywords_as_positions(f: Any, args: tuple, kwargs: dict, level: Level) -> tuple | None:
    """``(args, kwargs)`` with ``level``'s tracked keyword arguments moved to their positions.

    Pullbacks give cotangents only for positional arguments, so a tracked value passed by
    keyword (``np.diff(x, prepend=p)``) is passed by position instead, with the defaults of
    the parameters in between. ``None`` when ``f``'s signature does not allow it.
    """
    tracked = [k for k, v in kwargs.items() if _top((v,), None) is level]
    if not tracked:
        return args, kwargs
    try:
        signature = _signatures.get(f) or _signatures.setdefault(f, inspect.signature(f))
    except (TypeError, ValueError):
        return None
    params = list(signature.parameters.values())
    names = [p.name for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(k not in names for k in tracked):
        return None
    last = max(names.index(k) for k in tracked)
    kwargs = dict(kwargs)
    moved = list(args)
    for p in params[len(args) : last + 1]:
        if p.name in kwargs:
            moved.append(kwargs.pop(p.name))
        elif p.default is not p.empty and p.default is not NUMPY_NO_VALUE:
            moved.append(p.default)
        else:  # no value to pass there (NumPy's "not given" is not one)
            return None
    return tuple(moved), kwargs


def _python_implementation(f: Any) -> Any:
    """The Python code behind ``f`` to trace into, or ``None`` for compiled code and ufuncs."""
    impl = getattr(f, "_implementation", None)  # NumPy functions behind __array_function__
    if isinstance(impl, types.FunctionType):
        return impl
    if impl is None and isinstance(f, types.FunctionType):
        return f
    return None


def without_rule(level: Level | None, f: Any, args: tuple, kwargs: dict, values: tuple) -> Any:
    """What a level does with ``f(*args)`` when no rule applies; ``values`` are unwrapped.

    Trace into ``f``'s Python implementation; or, for compiled code (or a NumPy
    implementation that calls back into the array's own method), compute ``f`` on the values
    when its result has no tangent space; else raise ``NoRuleError`` naming ``f``.
    """
    impl = _python_implementation(f)
    tracing = level.tracing if level is not None else set()
    if impl is not None and f not in tracing:
        tracing.add(f)
        try:
            return impl(*plain(args), **kwargs)  # integers given to numpy code are plain
        except CoercionError as error:
            raise no_rule_error(f, f"tracing into its implementation failed: {error}") from None
        finally:
            tracing.discard(f)
    if level is None:
        raise no_rule_error(f, "its tracked arguments sit inside a dict or an object")
    y = f(*values, **kwargs)
    if y is None:
        raise no_rule_error(f, "it returns nothing, so it works by writing into its arguments")
    if getattr(y, "dtype", None) == np.dtype(object):
        raise no_rule_error(
            f,
            "it returns Python objects (an np.frompyfunc ufunc, np.vectorize), numbers "
            "computed from the tracked values without their derivative",
        )
    if has_tangent_space(y):
        why = (
            "its implementation calls back into the array's own method"
            if impl is not None
            else "it is compiled code the engine cannot trace into"
        )
        raise no_rule_error(f, why)
    return taint(y)


def inexact(y: Any) -> bool:
    """Whether a result is a single value with a tangent space (float or complex)."""
    cls = type(y)
    if cls is np.ndarray or isinstance(y, np.ndarray | np.generic):
        return y.dtype.kind in "fc"
    if cls is float or cls is complex or isinstance(y, Tracked):
        return True
    return is_lazy_float(y)


def rebuild_sequence(y: tuple | list, elements: list) -> Any:
    """A result sequence like ``y`` (tuple, namedtuple, list) holding ``elements``."""
    cls = type(y)
    if hasattr(cls, "_fields"):
        return cls(*elements)
    return elements if cls is list else cls(elements)


class _Namespace:
    """The array namespace of tracked values: NumPy's functions, which dispatch on them."""

    __name__ = "chainrules.engines"
    takes_dask_arrays = True  # NumPy hands a call mixing tracked values and dask arrays here

    def __getattr__(self, name: str) -> Any:
        value = getattr(np, name)
        if callable(value) and not isinstance(value, np.ufunc | type):
            value = with_dask_counterpart(name, value)
        setattr(self, name, value)
        return value

    @staticmethod
    def asarray(x: Any, dtype: Any = None, copy: Any = None, **kwargs: Any) -> Any:
        if isinstance(x, Tracked | DerivedIntegers) or is_lazy_float(x):
            return x if dtype is None or np.dtype(dtype) == x.dtype else np.astype(x, dtype)
        if isinstance(x, list | tuple) and _top(x, None) is not None:
            return np.stack(x) if dtype is None else np.astype(np.stack(x), dtype)
        return np.asarray(x, dtype=dtype, copy=copy, **kwargs)


NAMESPACE = _Namespace()


def _method(f: Any, name: str) -> Any:
    def method(self: Tracked, *args: Any, **kwargs: Any) -> Any:
        return dispatch(f, (self, *args), kwargs)

    method.__name__ = method.__qualname__ = name
    method.__doc__ = f"``{function_name(f)}`` of this value."
    return method


_deferring: dict[type, bool] = {}


def _defers(other: Any) -> bool:
    """Whether ``other`` opts out of NumPy (``__array_ufunc__ = None``), as the tangent types do.

    An operator then returns ``NotImplemented``, so that ``other``'s reflected operator runs:
    ``tracked + ZeroTangent()`` is the tracked value, as ``ndarray + ZeroTangent()`` is.
    """
    cls = type(other)
    answer = _deferring.get(cls)
    if answer is None:
        answer = _deferring[cls] = getattr(cls, "__array_ufunc__", False) is None
    return answer


def _binary(f: Any, name: str) -> tuple[Any, Any]:
    # With a Python float, the operand of ``x * 1.01``, this value's level applies ``f`` at
    # once: what ``dispatch`` would decide, without its call.
    def forward_op(self: Tracked, other: Any) -> Any:
        if type(other) is float:
            level = self.level
            if not level.closed:
                return level.apply(f, (self, other), _NO_KEYWORDS)
        elif _defers(other):
            return NotImplemented
        return dispatch(f, (self, other), _NO_KEYWORDS)

    def reflected_op(self: Tracked, other: Any) -> Any:
        if type(other) is float:
            level = self.level
            if not level.closed:
                return level.apply(f, (other, self), _NO_KEYWORDS)
        elif _defers(other):
            return NotImplemented
        return dispatch(f, (other, self), _NO_KEYWORDS)

    forward_op.__name__ = f"__{name}__"
    reflected_op.__name__ = f"__r{name}__"
    return forward_op, reflected_op


class Tracked(Tripwires):
    """A value tracked by one level of differentiation; subclasses add what the level needs."""

    __slots__ = ("level", "value")
    level: Level
    value: Any

    # ---- NumPy's protocols ---------------------------------------------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if method == "__call__":
            if len(inputs) == 1 and not kwargs:  # f(x), x this value: as forward_op's float
                level = self.level
                if not level.closed:
                    return level.apply(ufunc, inputs, kwargs)
            return dispatch(ufunc, inputs, kwargs)
        if method == "at":
            raise in_place_error(f"{function_name(ufunc)}.at on a tracked value")
        return dispatch(getattr(ufunc, method), inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: tuple, kwargs: dict) -> Any:
        return dispatch(func, args, kwargs)

    def __array_namespace__(self, api_version: str | None = None) -> Any:
        return NAMESPACE

    # ---- plain Python attributes ---------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        return getattr(self.value, "shape", ())

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def dtype(self) -> np.dtype:
        value = self.value
        dtype = getattr(value, "dtype", None)
        return np.dtype(type(value)) if dtype is None else dtype

    @dtype.setter
    def dtype(self, dtype: Any) -> None:
        raise self._bits(f"assigning .dtype = {np.dtype(dtype).name}")

    @property
    def data(self) -> Any:
        raise self._bits(".data")

    @property
    def ctypes(self) -> Any:
        raise self._bits(".ctypes")

    @property
    def device(self) -> str:
        return "cpu"

    def to_device(self, device: Any, /, stream: Any = None) -> Tracked:
        if device != "cpu":
            raise ValueError(f"tracked values live on the CPU, not on {device!r}")
        return self

    @property
    def strides(self) -> tuple[int, ...]:
        return getattr(self.value, "strides", ())

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    def __len__(self) -> int:
        shape = self.shape
        if not shape:
            raise TypeError("len() of a 0-d tracked value")
        return shape[0]

    def __iter__(self) -> Any:
        for i in range(len(self)):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(self.value)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.value!r}, level={self.level.order})"

    def _chainrules_ignore_derivatives(self) -> Any:
        """The value under every level: what ``chainrules.ignore_derivatives`` gives."""
        value = self.value
        while isinstance(value, Tracked):
            value = value.value
        return value

    def __format__(self, spec: str) -> str:
        return format(self._chainrules_ignore_derivatives(), spec)

    def __copy__(self) -> Tracked:
        return self

    def __deepcopy__(self, memo: dict) -> Tracked:
        return self

    def __reduce_ex__(self, protocol: Any) -> Any:
        raise self._bits("pickling")

    # ---- operators -----------------------------------------------------------------------

    __add__, __radd__ = _binary(np.add, "add")
    __sub__, __rsub__ = _binary(np.subtract, "sub")
    __mul__, __rmul__ = _binary(np.multiply, "mul")
    __truediv__, __rtruediv__ = _binary(np.divide, "truediv")
    __floordiv__, __rfloordiv__ = _binary(np.floor_divide, "floordiv")
    __mod__, __rmod__ = _binary(np.remainder, "mod")
    __divmod__, __rdivmod__ = _binary(np.divmod, "divmod")
    __pow__, __rpow__ = _binary(np.power, "pow")
    __matmul__, __rmatmul__ = _binary(np.matmul, "matmul")
    __lt__, __gt__ = _binary(np.less, "lt")[0], _binary(np.greater, "gt")[0]
    __le__, __ge__ = _binary(np.less_equal, "le")[0], _binary(np.greater_equal, "ge")[0]
    __eq__, __ne__ = _binary(np.equal, "eq")[0], _binary(np.not_equal, "ne")[0]
    __hash__ = None  # type: ignore[assignment]

    def __neg__(self) -> Any:
        return dispatch(np.negative, (self,), _NO_KEYWORDS)

    def __pos__(self) -> Any:
        return dispatch(np.positive, (self,), _NO_KEYWORDS)

    def __abs__(self) -> Any:
        return dispatch(np.absolute, (self,), _NO_KEYWORDS)

    def __getitem__(self, index: Any) -> Any:
        return dispatch(np.ndarray.__getitem__, (self, index), _NO_KEYWORDS)

    # ---- attributes and methods that are NumPy functions ---------------------------------

    @property
    def T(self) -> Any:
        return dispatch(np.transpose, (self,), _NO_KEYWORDS)

    @property
    def mT(self) -> Any:
        return dispatch(np.matrix_transpose, (self,), _NO_KEYWORDS)

    @property
    def real(self) -> Any:
        return dispatch(np.real, (self,), _NO_KEYWORDS)

    @property
    def imag(self) -> Any:
        return dispatch(np.imag, (self,), _NO_KEYWORDS)

    def reshape(self, *shape: Any, **kwargs: Any) -> Any:
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return dispatch(np.reshape, (self, shape), kwargs)

    def transpose(self, *axes: Any) -> Any:
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return dispatch(np.transpose, (self, axes or None), _NO_KEYWORDS)

    def compress(self, condition: Any, *args: Any, **kwargs: Any) -> Any:
        return dispatch(np.compress, (condition, self, *args), kwargs)

    def sort(self, *args: Any, **kwargs: Any) -> None:
        raise in_place_error("x.sort() on a tracked array (use np.sort(x))")

    def fill(self, value: Any) -> None:
        raise in_place_error("x.fill(v) on a tracked array (use np.full_like(x, v))")

    def put(self, *args: Any, **kwargs: Any) -> None:
        raise in_place_error("x.put(...) on a tracked array")

    def resize(self, *args: Any, **kwargs: Any) -> None:
        raise in_place_error("x.resize(...) on a tracked array (use np.resize(x, shape))")

    @property
    def flat(self) -> Any:
        raise in_place_error("x.flat on a tracked array (read with x.ravel()[i])")

    sum = _method(np.sum, "sum")
    mean = _method(np.mean, "mean")
    prod = _method(np.prod, "prod")
    max = _method(np.max, "max")
    min = _method(np.min, "min")
    std = _method(np.std, "std")
    var = _method(np.var, "var")
    cumsum = _method(np.cumsum, "cumsum")
    cumprod = _method(np.cumprod, "cumprod")
    all = _method(np.all, "all")
    any = _method(np.any, "any")
    argmax = _method(np.argmax, "argmax")
    argmin = _method(np.argmin, "argmin")
    argsort = _method(np.argsort, "argsort")
    nonzero = _method(np.nonzero, "nonzero")
    astype = _method(np.astype, "astype")
    conj = _method(np.conjugate, "conj")
    conjugate = _method(np.conjugate, "conjugate")
    copy = _method(np.copy, "copy")
    clip = _method(np.clip, "clip")
    dot = _method(np.dot, "dot")
    diagonal = _method(np.diagonal, "diagonal")
    trace = _method(np.trace, "trace")
    round = _method(np.round, "round")
    repeat = _method(np.repeat, "repeat")
    take = _method(np.take, "take")
    squeeze = _method(np.squeeze, "squeeze")
    swapaxes = _method(np.swapaxes, "swapaxes")
    ravel = _method(np.ravel, "ravel")
    flatten = _method(np.ravel, "flatten")
    searchsorted = _method(np.searchsorted, "searchsorted")
    choose = _method(np.choose, "choose")
    argpartition = _method(np.argpartition, "argpartition")


# Compiled functions with rules that NumPy does not route here (scipy.special.logsumexp,
# scipy.linalg, math), called as chainrules.core.calls.call(f, ...) by rules and users, reach
# the engines through this handler, so that f's rules are used instead of its code.
register_call_handler(Tracked, dispatch)
