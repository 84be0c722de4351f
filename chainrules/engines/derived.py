"""Integers computed from tracked floats: usable as integers, refused as the bits of a float.

``np.argmax(x)``, ``x.astype(int)``, ``np.frexp(x)[1]``: a result without a tangent space,
computed from tracked values. Its derivative is zero almost everywhere, which is right when it
is used as a number (an index, a count, an exponent). But its bits, read back as a float, are
a float computed from the tracked value with a silently zero derivative: Schraudolph's fast
exp adds a scaled float to an exponent bias, casts it to an integer and reads the integer's
bits as a float. The engines therefore hand such integers out as ``DerivedIntegers``, which is
deliberately not an ``ndarray``: it has no buffer (``np.frombuffer``, ``memoryview``,
``bytes``, ``np.ndarray(buffer=...)`` and ``ctypes`` cannot read it), and every way out of it
to plain values raises ``DerivedIntegersError``:

* ``.view`` to a float dtype, ``.tobytes()``, ``bytes()``, ``.getfield``, ``.data``,
  ``.ctypes``, ``.flat``, assigning ``.dtype``;
* ``np.asarray``, ``np.array``, ``as_strided``, ``np.ma.array`` (``__array__``), ``int()``,
  ``float()``, ``operator.index`` (so ``struct.pack`` and ``range``), ``.tolist()``,
  ``.item()``;
* writing them into a plain array: ``a[i] = k``, ``np.copyto``, ``np.put``, ``out=``,
  ``ufunc.at``.

What stays allowed is computing with them: NumPy functions, ufuncs, operators and methods
give ``DerivedIntegers`` again (integer and float results alike, so a round trip through
``astype(float)`` keeps the mark; boolean results are plain), and reading with them as
indices, of tracked and plain arrays and of Python sequences (``table[k]``,
``coefficients[k]``). The library's own rules, which a second-order differentiation runs on
tracked values, get plain integers when they convert them (``np.unique``'s counts).
``chainrules.ignore_derivatives(k)`` gives the plain integers, for a loop count or whatever
else must leave the engine: saying so is the user's decision, never the engine's.

>>> import numpy as np
>>> from chainrules.engines import reverse
>>> reverse.grad(lambda x: x[np.argmax(x)] * 2.0)(np.array([1.0, 3.0]))
array([0., 2.])
"""

from __future__ import annotations

import builtins
import operator
import sys
from typing import Any

import numpy as np

from ..core.names import function_name
from .tripwires import CoercionError, Tripwires, caller, subscripting

__all__ = ["DerivedIntegers", "DerivedIntegersError", "derive", "plain", "taint"]


class DerivedIntegersError(CoercionError):
    """Integers computed from tracked floats were turned into plain values or float bits."""


_TRUSTED = ("chainrules.", "chainrules_testing")
_UNTRUSTED = ("chainrules.fastmath", "chainrules.engines.")
# Frames that pass a call on: the caller before them decides (the tracked values' namespace
# hands NumPy's functions on from lazy_values).
_PASSING_ON = ("numpy.", "chainrules.engines.lazy_values")


def _trusted(frame: Any) -> bool:
    """Whether the conversion is made by the library's rules, which never read float bits.

    A rule that the engine runs on tracked values (a pullback at second order) computes with
    integers it made from them (``np.unique``'s counts) as plain arrays: they are plain to
    it, also inside the NumPy functions it calls. The fast kernels, which do read float
    bits, are not trusted.
    """
    module = frame.f_globals.get("__name__", "")
    while module.startswith(_PASSING_ON) and frame.f_back is not None:
        frame = frame.f_back
        module = frame.f_globals.get("__name__", "")
    return module.startswith(_TRUSTED) and not module.startswith(_UNTRUSTED)


def _escape(call: str) -> DerivedIntegersError:
    return DerivedIntegersError(
        f"{call} in {caller(3)} on integers computed from a tracked float: as plain values "
        f"their bits can be read back as a float (a fast exp, a bit trick), which would carry a "
        f"silently zero derivative. Compute with them in NumPy (they stay marked), index arrays "
        f"and sequences with them (x[k], table[k]); give a function that reads float bits a "
        f"rule; or, if plain integers are what you need (a loop count), say so with "
        f"chainrules.ignore_derivatives(k)."
    )


def plain(a: Any) -> Any:
    """``a`` with the values of ``DerivedIntegers`` in their place (in lists and tuples too)."""
    cls = type(a)
    if cls is DerivedIntegers:
        return a.value
    if cls is list or cls is tuple:
        elements = [plain(e) for e in a]
        if all(new is old for new, old in zip(elements, a, strict=True)):
            return a
        return elements if cls is list else tuple(elements)
    return a


def derive(y: Any) -> Any:
    """A value computed from ``DerivedIntegers``: numbers stay marked, booleans are plain."""
    cls = type(y)
    if cls is np.ndarray or isinstance(y, np.number):
        return DerivedIntegers(y) if y.dtype.kind in "iufc" else y
    if cls is tuple or cls is list:
        return cls(derive(e) for e in y)
    return y


def taint(y: Any) -> Any:
    """A result without tangent space, its integers marked as computed from tracked floats."""
    cls = type(y)
    if cls is np.ndarray or isinstance(y, np.integer):
        return DerivedIntegers(y) if y.dtype.kind in "iu" else y
    if cls is tuple or cls is list:
        return cls(taint(e) for e in y)
    return y


# NumPy functions that write their other arguments into their first (a plain array would then
# hold the integers' values unmarked).
_WRITERS = frozenset({np.copyto, np.put, np.place, np.putmask, np.fill_diagonal, np.put_along_axis})

# Methods and attributes of the integers that compute new values from them (never their bits).
_FORWARDED = frozenset(
    """all any argmax argmin argpartition argsort astype byteswap choose clip compress conj
    conjugate copy cumprod cumsum diagonal dot fill flatten max mean min nonzero partition prod
    put ravel repeat reshape round searchsorted sort squeeze std sum swapaxes take trace
    transpose var T mT real imag ndim size itemsize nbytes strides""".split()
)


def _forward(method: Any) -> Any:
    def forwarded(*args: Any, **kwargs: Any) -> Any:
        return derive(method(*plain(args), **{k: plain(v) for k, v in kwargs.items()}))

    return forwarded


class DerivedIntegers:
    """Integers computed from tracked floats, and the numbers computed from them (see above)."""

    __slots__ = ("value",)
    __hash__ = None  # type: ignore[assignment]

    def __init__(self, value: Any) -> None:
        self.value = value

    # ---- NumPy's protocols: compute on the values, mark the results ------------------------

    def __array_ufunc__(self, ufunc: np.ufunc, method: str, *inputs: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, Tripwires) for a in inputs):
            return NotImplemented  # a tracked value among the inputs: its engine handles it
        out = kwargs.get("out")
        if out is not None:
            outs = out if type(out) is tuple else (out,)
            if any(type(o) is np.ndarray for o in outs) and not _trusted(sys._getframe(1)):
                raise _escape(f"out= given a plain array in {function_name(ufunc)}")
            kwargs = {**kwargs, "out": plain(out)}
        if method == "at" and type(inputs[0]) is np.ndarray and not _trusted(sys._getframe(1)):
            raise _escape(f"{function_name(ufunc)}.at writing into a plain array")
        return derive(getattr(ufunc, method)(*plain(inputs), **kwargs))

    def __array_function__(self, func: Any, types: Any, args: tuple, kwargs: dict) -> Any:
        if any(issubclass(t, Tripwires) for t in types):
            return NotImplemented
        if func in _WRITERS and args and type(args[0]) is np.ndarray:
            if not _trusted(sys._getframe(1)):
                raise _escape(f"{function_name(func)} writing into a plain array")
        out = kwargs.get("out")
        if type(out) is np.ndarray and not _trusted(sys._getframe(1)):
            raise _escape(f"out= given a plain array in {function_name(func)}")
        return derive(func(*plain(args), **{k: plain(v) for k, v in kwargs.items()}))

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        frame = sys._getframe(1)
        if subscripting(frame) or _trusted(frame):
            return np.asarray(self.value, dtype=dtype)
        raise _escape("a conversion to a plain NumPy array (np.asarray, np.array, as_strided)")

    def __index__(self) -> int:
        frame = sys._getframe(1)
        if subscripting(frame) or _trusted(frame):
            return operator.index(self.value)
        raise _escape("operator.index() (struct.pack, range, bytes)")

    def __int__(self) -> int:
        if _trusted(sys._getframe(1)):
            return int(self.value)
        raise _escape("int()")

    def __float__(self) -> float:
        if _trusted(sys._getframe(1)):
            return float(self.value)
        raise _escape("float()")

    def __complex__(self) -> complex:
        if _trusted(sys._getframe(1)):
            return complex(self.value)
        raise _escape("complex()")

    def item(self, *args: Any) -> Any:
        if _trusted(sys._getframe(1)):
            return self.value.item(*args)
        raise _escape(".item()")

    def tolist(self) -> Any:
        if _trusted(sys._getframe(1)):
            return self.value.tolist()
        raise _escape(".tolist()")

    def tobytes(self, order: Any = "C") -> bytes:
        raise _escape(".tobytes()")

    def __bytes__(self) -> bytes:
        raise _escape("bytes()")

    def __buffer__(self, flags: int) -> memoryview:  # Python >= 3.12; before, no buffer at all
        raise _escape("the buffer protocol (memoryview, np.frombuffer, ctypes)")

    def tofile(self, *args: Any, **kwargs: Any) -> None:
        raise _escape(".tofile()")

    def getfield(self, *args: Any, **kwargs: Any) -> Any:
        raise _escape(".getfield()")

    @property
    def data(self) -> Any:
        raise _escape(".data")

    @property
    def ctypes(self) -> Any:
        raise _escape(".ctypes")

    @property
    def base(self) -> Any:
        raise _escape(".base")

    @property
    def flat(self) -> Any:
        raise _escape(".flat (use k.ravel()[i])")

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        if dtype is None or (isinstance(dtype, builtins.type) and issubclass(dtype, np.ndarray)):
            return self
        if np.dtype(dtype).kind in "iub":
            return DerivedIntegers(self.value.view(dtype))
        raise _escape(f".view({np.dtype(dtype).name}) (reading integers as the bits of a float)")

    # ---- a plain Python surface ------------------------------------------------------------

    @property
    def dtype(self) -> np.dtype:
        return self.value.dtype

    @dtype.setter
    def dtype(self, dtype: Any) -> None:
        raise _escape(f"assigning .dtype = {np.dtype(dtype).name}")

    @property
    def shape(self) -> tuple[int, ...]:
        return self.value.shape

    def __getattr__(self, name: str) -> Any:
        if name in _FORWARDED:
            attribute = getattr(self.value, name)
            return _forward(attribute) if callable(attribute) else derive(attribute)
        if name.startswith("__array_"):  # NumPy asks; an AttributeError tells it there is none
            raise AttributeError(
                f"integers computed from a tracked float have no {name}: their memory is not "
                f"exposed, as its bits read as a float would carry a silently zero derivative"
            )
        raise AttributeError(f"integers computed from a tracked float have no attribute {name!r}")

    def __getitem__(self, index: Any) -> Any:
        return derive(self.value[plain(index)])

    def __setitem__(self, index: Any, value: Any) -> None:
        self.value[plain(index)] = plain(value)

    def __len__(self) -> int:
        return len(self.value)

    def __iter__(self) -> Any:
        for i in range(len(self.value)):
            yield self[i]

    def __bool__(self) -> bool:
        return bool(self.value)

    def __repr__(self) -> str:
        return f"DerivedIntegers({self.value!r})"

    def __str__(self) -> str:
        return str(self.value)

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)

    def _chainrules_ignore_derivatives(self) -> Any:
        """The plain values: what ``chainrules.ignore_derivatives`` gives."""
        return self.value


def _operators() -> None:
    binary = {
        "add": np.add, "sub": np.subtract, "mul": np.multiply, "truediv": np.true_divide,
        "floordiv": np.floor_divide, "mod": np.remainder, "pow": np.power, "divmod": np.divmod,
        "lshift": np.left_shift, "rshift": np.right_shift, "and": np.bitwise_and,
        "or": np.bitwise_or, "xor": np.bitwise_xor, "matmul": np.matmul,
    }  # fmt: skip
    compare = {"lt": np.less, "le": np.less_equal, "gt": np.greater, "ge": np.greater_equal}
    compare |= {"eq": np.equal, "ne": np.not_equal}
    unary = {"neg": np.negative, "pos": np.positive, "abs": np.absolute, "invert": np.invert}
    for name, ufunc in (binary | compare).items():
        _set_operator(f"__{name}__", ufunc, reflected=False)
    for name, ufunc in binary.items():
        _set_operator(f"__r{name}__", ufunc, reflected=True)
    for name, ufunc in unary.items():
        _set_operator(f"__{name}__", ufunc, reflected=None)


def _set_operator(name: str, ufunc: np.ufunc, reflected: bool | None) -> None:
    """An operator of ``DerivedIntegers`` as the ufunc NumPy would call (it dispatches here)."""

    def unary(a: Any) -> Any:
        return ufunc(a)

    def binary(a: Any, b: Any) -> Any:
        return ufunc(b, a) if reflected else ufunc(a, b)

    operator_method = unary if reflected is None else binary
    operator_method.__name__ = operator_method.__qualname__ = name
    setattr(DerivedIntegers, name, operator_method)


_operators()
