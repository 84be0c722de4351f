"""Tangent types: the two zeros, structural tangents, and the not-implemented tangent.

Semantics of the zeros
----------------------
``ZeroTangent()``
    The tangent is zero. The primal has a tangent space; it just happens that the
    derivative vanishes (``floor``'s output, a constant).
``NoTangent()``
    There is no tangent space at all: integers, booleans, strings, indices, the function
    object of a plain function. A cotangent for an integer argument is ``NoTangent()``,
    never ``ZeroTangent()``.

Both are singletons, falsy, and follow this algebra (``x`` is an array, a scalar, a thunk
or a structural ``Tangent``; ``Z`` is ``ZeroTangent()``, ``N`` is ``NoTangent()``)::

    operation       result        operation      result
    Z + x, x + Z    x             Z * x, x * Z   Z
    N + x, x + N    x             N * x, x * N   N
    Z + Z           Z             Z * N, N * Z   N
    N + N           N             Z * Z          Z
    Z + N, N + Z    N             N * N          N
    x - Z           x             Z / x          Z
    Z - x           -x            N / x          N
    -Z, +Z          Z             Z @ x, x @ Z   Z
    -N, +N          N             N @ x, x @ N   N

So both zeros are the additive identity and absorb multiplication; when the two meet
``NoTangent`` wins, because "no tangent space" is the stronger statement.

>>> import numpy as np
>>> ZeroTangent() + np.ones(2)
array([1., 1.])
>>> 3.0 * NoTangent()
NoTangent()
>>> ZeroTangent() + NoTangent()
NoTangent()
"""

from __future__ import annotations

import reprlib
import threading
from typing import Any

__all__ = [
    "AbstractZero",
    "MutableTangent",
    "NoTangent",
    "NotImplementedTangent",
    "Tangent",
    "ZeroTangent",
    "not_implemented",
]


class AbstractZero:
    """Base of the two zero tangents; never instantiated itself."""

    __slots__ = ()
    _instance: AbstractZero
    # NumPy must hand every operation with an array back to our reflected operators.
    __array_ufunc__ = None
    __array_priority__ = 1000

    def __new__(cls) -> Any:
        return cls._instance

    def __repr__(self) -> str:
        return f"{type(self).__name__}()"

    def __reduce__(self) -> tuple:
        return (type(self), ())

    def __copy__(self) -> AbstractZero:
        return self

    def __deepcopy__(self, memo: dict) -> AbstractZero:
        return self

    def __bool__(self) -> bool:
        return False

    def __add__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):
            return NO_TANGENT if (self is NO_TANGENT or other is NO_TANGENT) else self
        return other

    __radd__ = __add__

    def __sub__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):
            return self + other
        return -other

    def __rsub__(self, other: Any) -> Any:
        return self + other

    def __mul__(self, other: Any) -> Any:
        if isinstance(other, AbstractZero):
            return self + other
        return self

    __rmul__ = __mul__
    __matmul__ = __mul__
    __rmatmul__ = __mul__

    def __truediv__(self, other: Any) -> Any:
        return self

    def __neg__(self) -> AbstractZero:
        return self

    __pos__ = __neg__

    def __getitem__(self, index: Any) -> AbstractZero:
        return self

    def conj(self) -> AbstractZero:
        return self

    conjugate = conj

    @property
    def real(self) -> AbstractZero:
        return self

    @property
    def imag(self) -> AbstractZero:
        return self

    @property
    def T(self) -> AbstractZero:
        return self

    @property
    def mT(self) -> AbstractZero:
        return self


class ZeroTangent(AbstractZero):
    """The zero tangent: the primal has a tangent space, and the tangent is zero.

    >>> ZeroTangent() is ZeroTangent()
    True
    >>> ZeroTangent() + 1.5
    1.5
    """

    __slots__ = ()


class NoTangent(AbstractZero):
    """No tangent space: the tangent of an integer, a boolean, a string, a plain function.

    >>> NoTangent() + ZeroTangent()
    NoTangent()
    """

    __slots__ = ()


ZeroTangent._instance = object.__new__(ZeroTangent)
NoTangent._instance = object.__new__(NoTangent)
ZERO_TANGENT: ZeroTangent = ZeroTangent._instance
NO_TANGENT: NoTangent = NoTangent._instance


class NotImplementedTangent:
    """A tangent the rule cannot give yet, carrying a message that says which and why.

    It absorbs addition and multiplication with anything that is not a zero (an unknown plus
    anything is unknown); the zeros still absorb it under multiplication and are its additive
    identity. Engines that need its value raise an error quoting the message.

    >>> t = not_implemented("derivative in the order of the Bessel function")
    >>> t + 1.0 is t
    True
    """

    __slots__ = ("info",)
    __array_ufunc__ = None
    __array_priority__ = 1000

    def __init__(self, info: str) -> None:
        self.info = info

    def __repr__(self) -> str:
        return f"NotImplementedTangent({self.info!r})"

    def __add__(self, other: Any) -> NotImplementedTangent:
        return self

    __radd__ = __add__
    __sub__ = __add__
    __rsub__ = __add__

    def __mul__(self, other: Any) -> Any:
        return other if isinstance(other, AbstractZero) else self

    __rmul__ = __mul__
    __matmul__ = __mul__
    __rmatmul__ = __mul__
    __truediv__ = __add__

    def __neg__(self) -> NotImplementedTangent:
        return self

    def conj(self) -> NotImplementedTangent:
        return self


def conj_value(v: Any) -> Any:
    """The complex conjugate of a tangent value; Python numbers spell it ``conjugate``."""
    if hasattr(v, "conj"):
        return v.conj()
    return v.conjugate() if hasattr(v, "conjugate") else v


def not_implemented(info: str) -> NotImplementedTangent:
    """Mark a cotangent or tangent that this rule does not compute (yet).

    >>> not_implemented("derivative in nu")
    NotImplementedTangent('derivative in nu')
    """
    return NotImplementedTangent(info)


_POSITIONAL, _NAMED, _MAPPING = "positional", "named", "mapping"
_REPR_DEPTH = 12  # levels of nested tangents a repr shows
_repr_depth = threading.local()


def _is_namedtuple_type(t: type) -> bool:
    return issubclass(t, tuple) and hasattr(t, "_fields")


class Tangent:
    """The tangent of a structured primal: one tangent per field.

    * ``Tangent(tuple, *elements)`` and ``Tangent(list, *elements)``: positional.
    * ``Tangent(dict, mapping)``: one tangent per key.
    * ``Tangent(PrimalType, **fields)``: named fields, for namedtuples, dataclasses, objects
      with ``__dict__`` or ``__slots__``, and closures (``types.FunctionType``, one field per
      free variable).

    A field that is absent is a ``ZeroTangent()``. Addition works over the union of fields,
    multiplication by a scalar field by field; equality compares field values.

    >>> from collections import namedtuple
    >>> Point = namedtuple("Point", "x y")
    >>> t = Tangent(Point, x=1.0)
    >>> t.x, t.y
    (1.0, ZeroTangent())
    >>> t + Tangent(Point, y=2.0)
    Tangent[Point](x=1.0, y=2.0)
    >>> Tangent(tuple, 1.0, 2.0)[1]
    2.0
    """

    __slots__ = ("_backing", "_kind", "primal_type")
    __array_ufunc__ = None
    __array_priority__ = 1000

    def __init__(self, primal_type: type, *args: Any, **fields: Any) -> None:
        backing: Any
        if issubclass(primal_type, dict):
            if fields or len(args) > 1:
                raise TypeError("Tangent(dict, mapping) takes exactly one mapping")
            kind, backing = _MAPPING, dict(args[0]) if args else {}
        elif issubclass(primal_type, tuple | list) and not _is_namedtuple_type(primal_type):
            if fields:
                raise TypeError(f"Tangent({primal_type.__name__}, ...) takes positional elements")
            kind, backing = _POSITIONAL, tuple(args)
        else:
            if args:
                raise TypeError(
                    f"Tangent({primal_type.__name__}, ...) takes named fields, got positional ones"
                )
            kind, backing = _NAMED, dict(fields)
        object.__setattr__(self, "primal_type", primal_type)
        object.__setattr__(self, "_kind", kind)
        object.__setattr__(self, "_backing", backing)

    @classmethod
    def _from_backing(cls, primal_type: type, kind: str, backing: Any) -> Tangent:
        new = object.__new__(cls)
        object.__setattr__(new, "primal_type", primal_type)
        object.__setattr__(new, "_kind", kind)
        object.__setattr__(new, "_backing", backing)
        return new

    @property
    def backing(self) -> Any:
        """The fields: a tuple (positional) or a dict (named fields and mappings)."""
        return self._backing

    @property
    def is_positional(self) -> bool:
        return self._kind == _POSITIONAL

    def __getattr__(self, name: str) -> Any:
        # Own slots land here only while unset (during copying): never look them up again.
        if name.startswith("__") or name in _TANGENT_SLOTS or self._kind == _POSITIONAL:
            raise AttributeError(name)
        return self._backing.get(name, ZERO_TANGENT)

    def __reduce__(self) -> tuple:
        # Fields travel as state, set once the new tangent exists, so cyclic tangents copy too.
        return (_empty_tangent, (type(self), self.primal_type, self._kind), self._backing)

    def __setstate__(self, backing: Any) -> None:
        # A copy never shares its container of fields with the original.
        object.__setattr__(self, "_backing", backing if type(backing) is tuple else dict(backing))

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError(f"{type(self).__name__} is immutable; use MutableTangent")

    def __getitem__(self, key: Any) -> Any:
        if self._kind == _POSITIONAL:
            return self._backing[key]
        return self._backing.get(key, ZERO_TANGENT)

    def __len__(self) -> int:
        return len(self._backing)

    def __iter__(self) -> Any:
        return iter(self._backing if self._kind == _POSITIONAL else self._backing.values())

    def keys(self) -> Any:
        return range(len(self._backing)) if self._kind == _POSITIONAL else self._backing.keys()

    def items(self) -> Any:
        if self._kind == _POSITIONAL:
            return enumerate(self._backing)
        return self._backing.items()

    def map(self, fn: Any) -> Tangent:
        """A tangent of the same kind with ``fn`` applied to every field."""
        if self._kind == _POSITIONAL:
            backing: Any = tuple(fn(v) for v in self._backing)
        else:
            backing = {k: fn(v) for k, v in self._backing.items()}
        return type(self)._from_backing(self.primal_type, self._kind, backing)

    @reprlib.recursive_repr("Tangent[...]")
    def __repr__(self) -> str:
        name = getattr(self.primal_type, "__name__", repr(self.primal_type))
        prefix = f"{type(self).__name__}[{name}]"
        depth = getattr(_repr_depth, "value", 0)
        if depth >= _REPR_DEPTH:  # a deep structure (a long linked list) is shown in part
            return f"{prefix}(...)"
        _repr_depth.value = depth + 1
        try:
            if self._kind == _POSITIONAL:
                return f"{prefix}({', '.join(map(repr, self._backing))})"
            if self._kind == _MAPPING:
                return f"{prefix}({self._backing!r})"
            return f"{prefix}({', '.join(f'{k}={v!r}' for k, v in self._backing.items())})"
        finally:
            _repr_depth.value = depth

    def __eq__(self, other: object) -> bool:
        from .algebra import tangents_equal

        return tangents_equal(self, other)

    __hash__ = None  # type: ignore[assignment]

    def __add__(self, other: Any) -> Any:
        from .algebra import add

        return add(self, other)

    def __radd__(self, other: Any) -> Any:
        from .algebra import add

        return add(other, self)

    def __sub__(self, other: Any) -> Any:
        from .algebra import add

        return add(self, -other)

    def __rsub__(self, other: Any) -> Any:
        from .algebra import add

        return add(other, -self)

    def __mul__(self, scalar: Any) -> Any:
        if isinstance(scalar, AbstractZero | NotImplementedTangent):
            return scalar * self
        return self.map(lambda v: v * scalar)

    def __rmul__(self, scalar: Any) -> Any:
        if isinstance(scalar, AbstractZero | NotImplementedTangent):
            return scalar * self
        return self.map(lambda v: scalar * v)

    def __truediv__(self, scalar: Any) -> Tangent:
        return self.map(lambda v: v / scalar)

    def __neg__(self) -> Tangent:
        return self.map(lambda v: -v)

    def conj(self) -> Tangent:
        return self.map(conj_value)


_TANGENT_SLOTS = frozenset(Tangent.__slots__)


def _empty_tangent(cls: type[Tangent], primal_type: type, kind: str) -> Tangent:
    return cls._from_backing(primal_type, kind, () if kind == _POSITIONAL else {})


class MutableTangent(Tangent):
    """The tangent of a mutable primal (an object, a non-frozen dataclass): fields can be set.

    Aliasing follows the primal's: ``zero_tangent`` gives one ``MutableTangent`` per distinct
    mutable object, so two references to the same object share one tangent, and ``add_``
    accumulates into it in place.

    >>> class Box:
    ...     def __init__(self, v): self.v = v
    >>> t = MutableTangent(Box, v=0.0)
    >>> t.v = 2.0
    >>> t
    MutableTangent[Box](v=2.0)
    """

    __slots__ = ()

    def __setattr__(self, name: str, value: Any) -> None:
        if self._kind == _POSITIONAL:
            raise AttributeError("positional tangents are set by index")
        self._backing[name] = value

    def __setitem__(self, key: Any, value: Any) -> None:
        if self._kind == _POSITIONAL:
            elements = list(self._backing)
            elements[key] = value
            object.__setattr__(self, "_backing", tuple(elements))
        else:
            self._backing[key] = value
