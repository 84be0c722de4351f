"""The protocol every registered rule follows, applied once, at registration.

A rule author writes the mathematics; registration (``rrule.register``, ``frule.register``)
wraps the rule so that, for every rule alike:

* a pullback receives its cotangent unthunked;
* a pullback given a zero cotangent (``ZeroTangent()``, ``NoTangent()``, or a tuple or
  ``Tangent`` holding only zeros) answers without calling the author's pullback: the zero of
  each argument, ``NoTangent()`` for those without a tangent space (integers, strings), as the
  projector of each argument would give it;
* a pullback is named after its function (``cumsum_pullback``), in tracebacks and reprs;
* a pullback given a cotangent that cannot be the output's (another shape, ``None``, a list
  for an array) raises an error naming the function and both shapes, before the author's
  pullback could broadcast or sum it into a wrong number;
* an frule receives its tangents unthunked, and a tangent of another shape than its argument
  raises the same way;
* a rule given an array whose arithmetic NumPy's functions do not follow (masked arrays, whose
  mask the cotangents would ignore; ``np.matrix``, whose ``*`` multiplies matrices; object
  arrays) refuses it with an ``ArrayTypeError`` naming the function and the argument;
* a rule given dask arrays, and its pullback, run where nothing may compute them: a rule that
  would, or that fails on them, raises ``LazyArrayError`` naming the function
  (``chainrules.core.lazy``).

>>> import numpy as np
>>> from chainrules.core.tangents import ZERO_TANGENT
>>> def cumsum_rrule(x):
...     return np.cumsum(x), lambda dy: (None, np.flip(np.cumsum(np.flip(dy))))
>>> rule = with_rrule_protocol(cumsum_rrule, np.cumsum)
>>> y, pullback = rule(np.array([1.0, 2.0]))
>>> pullback.__name__, pullback(ZERO_TANGENT), pullback(np.array([1.0, 1.0]))
('cumsum_pullback', (NoTangent(), ZeroTangent()), (None, array([2., 1.])))
"""

from __future__ import annotations

import functools
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from .errors import ArrayTypeError, ProjectionError, RuleDefinitionError, TangentTypeError
from .lazy import is_lazy, lazily, lazy_pullback
from .names import function_name, short_name
from .projection import projector
from .structure import has_tangent_space
from .tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, Tangent
from .thunks import AbstractThunk, unthunk

__all__ = [
    "SCALAR_COTANGENTS",
    "CheckedPullback",
    "NamedPullback",
    "check_arguments",
    "check_cotangent",
    "check_cotangent_shape",
    "checked_cotangent",
    "is_all_zero",
    "named_pullback_class",
    "own_code",
    "output_shape",
    "per_argument",
    "renamed_inner",
    "with_frule_protocol",
    "with_rrule_protocol",
    "zero_cotangents",
]


def is_all_zero(t: Any) -> bool:
    """Whether a tangent is zero as a whole: a zero, or a tuple, list or ``Tangent`` of zeros.

    A thunk is not looked into (it may be costly), so a thunk counts as non-zero.

    >>> from chainrules.core.tangents import ZERO_TANGENT
    >>> is_all_zero(ZERO_TANGENT), is_all_zero((ZERO_TANGENT, ())), is_all_zero((0.0,))
    (True, True, False)
    """
    if isinstance(t, AbstractZero):
        return True
    if type(t) is tuple or type(t) is list or isinstance(t, Tangent):
        return all(map(is_all_zero, t))
    return False


def zero_cotangents(args: tuple, y: Any) -> tuple:
    """The pullback's answer to a zero cotangent: ``NoTangent()`` for the function, then each
    argument's projection of the zero (``ZeroTangent()``, or ``NoTangent()`` where the argument
    has no tangent space). An output without a tangent space (integer indices) passes no
    cotangent back at all: ``NoTangent()`` for every argument."""
    if not _has_tangent_space(y):
        return (NO_TANGENT,) * (len(args) + 1)
    return (NO_TANGENT, *map(_zero_of, args))


# Floats and NumPy arrays, the common arguments and outputs, are answered without building a
# projector; every other value asks its projector.
_INEXACT = frozenset("fc")


def _has_tangent_space(y: Any) -> bool:
    cls = type(y)
    if cls is np.ndarray:
        return y.dtype.kind in _INEXACT
    return cls is float or has_tangent_space(y)


def _zero_of(a: Any) -> Any:
    cls = type(a)
    if cls is np.ndarray:
        return ZERO_TANGENT if a.dtype.kind in _INEXACT else NO_TANGENT
    if cls is float:
        return ZERO_TANGENT
    if cls is int or cls is bool or cls is str or a is None:
        return NO_TANGENT
    return projector(a)(ZERO_TANGENT)


class NamedPullback:
    """The base of the pullback classes that registration makes, one per function: an
    instance is one small object (an engine keeps one per recorded operation on its tape, and
    Python's garbage collector visits each), named after its function (``cumsum_pullback``:
    ``__name__``, and its ``__call__`` in tracebacks; see ``named_pullback_class``).

    An instance has no ``__qualname__`` of its own (``function_name`` reads its ``__name__``):
    the ``__getattr__`` that gave it one made every attribute read of every pullback three
    times slower (44 ns against 15), a read the hot paths make several times per call."""

    __slots__ = ()

    def needed(self, positions: tuple[int, ...]) -> None:
        """Told by an engine that it will ask for the cotangents of the arguments at
        ``positions`` only (1-based, as in the pullback's result): a pullback may then let go of
        what only the others need (an engine holds it until its backward pass). This one keeps
        everything."""


class CheckedPullback(NamedPullback):
    """The base of the pullbacks that carry the protocol's cotangent checks themselves, where
    no author's pullback is wrapped: those ``scalar_rule`` makes, and fast paths'
    (``chainrules.core.fast_paths``).

    A NumPy array of the output's ``shape``, or a real number for an output of shape ``()``,
    goes straight to ``cotangents(dy)``; anything else is unthunked, a zero answered by
    ``zeros()``, and a cotangent that cannot be the output's refused with the protocol's error
    naming the function (``checked_cotangent``)."""

    __slots__ = ()
    shape: Any  # the output's, on the instance or its class
    f: Any  # on the subclass of each function

    def __call__(self, dy: Any) -> Any:
        cls = type(dy)
        if not (cls is np.ndarray and dy.shape == self.shape) and not (
            cls in SCALAR_COTANGENTS and self.shape == ()
        ):
            dy = checked_cotangent(self.f, self.shape, dy)
            if dy is None:
                return self.zeros()
        return self.cotangents(dy)

    def cotangents(self, dy: Any) -> Any:
        """The cotangents of a ``dy`` that fits the output (unthunked, not a zero)."""
        raise NotImplementedError

    def zeros(self) -> Any:
        """The cotangents of a zero."""
        raise NotImplementedError


class _ProtocolPullback(NamedPullback):
    """A registered rule's pullback: the protocol around the author's (subclassed per
    function)."""

    __slots__ = ("args", "author", "shape", "y")
    args: tuple  # the rule's arguments, an engine's config first where it takes one
    author: Callable
    shape: Any  # the shape a cotangent must have; None: a structure, checked by component
    y: Any
    f: Any  # these two on the subclass of each function
    skip: int  # 1 for a rule that takes the engine's config first (not an argument of f)

    def __call__(self, dy: Any) -> Any:
        cls = type(dy)
        shape = self.shape
        if cls is np.ndarray:  # the common cases, straight through
            if dy.shape != shape and shape is not None:
                check_cotangent(self.f, self.y, dy)
        elif cls not in SCALAR_COTANGENTS or shape != ():
            if isinstance(dy, AbstractThunk) or isinstance(dy, Tangent):
                dy = unthunk(dy)
            if is_all_zero(dy):
                return zero_cotangents(self.args[self.skip :], self.y)
            check_cotangent(self.f, self.y, dy)
        cotangents = self.author(dy)
        if type(cotangents) is tuple and len(cotangents) == len(self.args) + 1 - self.skip:
            return cotangents
        return per_argument(self.f, cotangents, self.args[self.skip :])


# The types of the cotangents of outputs of shape (), as they come: tested by type alone.
SCALAR_COTANGENTS = frozenset({float, np.float64})


def per_argument(f: Any, cotangents: Any, args: tuple) -> Any:
    """A pullback's cotangents, one for ``f`` and one per positional argument: those for
    arguments not given dropped, and ``NoTangent()`` added for trailing arguments without a
    tangent space (axes, dtypes, flags) that the pullback left out. An argument with a tangent
    space left out raises ``RuleDefinitionError`` naming ``f``: its derivative would be lost.

    >>> per_argument(np.sum, (None, 1.0, None, None), (2.0,))
    (None, 1.0)
    >>> per_argument(np.sum, (None, 1.0), (2.0, 0))
    (None, 1.0, NoTangent())
    """
    if type(cotangents) is not tuple:
        return cotangents  # not a pullback's answer: consumers report it
    count = len(args) + 1
    if len(cotangents) >= count:
        return cotangents[:count]
    missing = args[len(cotangents) - 1 :]
    pads = tuple(map(_zero_of, missing))
    for i, pad in enumerate(pads):
        if pad is not NO_TANGENT:
            position = len(cotangents) + i
            raise RuleDefinitionError(
                f"the pullback of {function_name(f)} returned {len(cotangents)} cotangents for "
                f"{count - 1} arguments: none for argument {position}, a "
                f"{type(missing[i]).__name__} with a tangent space"
            )
    return cotangents + pads


def with_rrule_protocol(rule: Callable, f: Any, with_config: bool = False) -> Callable:
    """``rule`` wrapped in the protocol above; ``with_config``: the rule takes a config first."""
    skip = int(with_config)
    pullback_class = named_pullback_class(_ProtocolPullback, f, f=f, skip=skip)

    def rrule_with_protocol(*args: Any, **kwargs: Any) -> Any:
        lazy = check_arguments(f, args, skip)
        result = rule(*args, **kwargs) if not lazy else lazily(f, rule, args, kwargs)
        if type(result) is not tuple or len(result) != 2 or not callable(result[1]):
            return result  # None (no rule here), or not a rule's answer: not ours to change
        y, author = result
        pullback: Any = pullback_class()
        pullback.args, pullback.author, pullback.y = args, author, y
        pullback.shape = y.shape if type(y) is np.ndarray else output_shape(y)
        return y, (pullback if not lazy else lazy_pullback(f, pullback, y))

    own = own_code(rrule_with_protocol, f"rrule_with_protocol[{short_name(f)}]")
    return functools.update_wrapper(own, rule)


def with_frule_protocol(rule: Callable, f: Any, with_config: bool = False) -> Callable:
    """``rule`` (an frule) wrapped in the protocol above; ``with_config``: the rule takes a
    config first, then the tangents."""
    at = int(with_config)

    def frule_with_protocol(*args: Any, **kwargs: Any) -> Any:
        if check_arguments(f, args, at + 1):  # dask arrays: nothing may compute them
            return lazily(f, checked_frule, args, kwargs, "frule")
        return checked_frule(*args, **kwargs)

    def checked_frule(*args: Any, **kwargs: Any) -> Any:
        tangents = args[at]
        if type(tangents) is tuple:
            check_tangents(f, tangents, args[at + 1 :])
            for t in tangents:
                if isinstance(t, AbstractThunk) or isinstance(t, Tangent):
                    unthunked = tuple(map(unthunk, tangents))
                    return rule(*args[:at], unthunked, *args[at + 1 :], **kwargs)
        return rule(*args, **kwargs)

    return functools.update_wrapper(frule_with_protocol, rule)


# ---- what a rule is given: arguments, tangents and cotangents it can be right about -----------

# Types whose arithmetic every rule follows, answered by one set lookup on the hot path.
_PLAIN = frozenset({float, int, bool, complex, str, tuple, type(None), np.float64, np.float32})


def check_arguments(f: Any, args: tuple, skip: int = 0) -> bool:
    """Refuse, naming ``f`` and the argument, the arrays whose arithmetic NumPy's functions do
    not follow: a rule would give a wrong number for them without a word. The answer says
    whether dask arrays are among the arguments (``chainrules.core.lazy``).

    A masked array's result respects its mask, a pullback's cotangent would not; ``np.matrix``
    multiplies matrices with ``*``; an object array holds Python objects with no tangent space
    the rules know.

    >>> check_arguments(np.sin, (np.ma.masked_array([1.0, 2.0], mask=[0, 1]),))
    Traceback (most recent call last):
    ...
    chainrules.core.errors.ArrayTypeError: numpy.sin: argument 1 is a masked array, ...
    """
    lazy = False
    for a in args:  # a config or a tangents tuple before the arguments is neither
        cls = type(a)
        if cls is np.ndarray:
            if a.dtype.kind == "O":
                _refuse(f, args, skip)
        elif cls not in _PLAIN:
            if isinstance(a, np.ndarray):
                _refuse(f, args, skip)
            lazy = lazy or is_lazy(a) or (cls is list and any(map(is_lazy, a)))
    return lazy


def _refuse(f: Any, args: tuple, skip: int) -> None:
    for i in range(skip, len(args)):
        a = args[i]
        if isinstance(a, np.ndarray) and (type(a) is not np.ndarray or a.dtype.kind == "O"):
            _refuse_subclass(f, a, i - skip + 1)


def _refuse_subclass(f: Any, a: Any, position: int) -> None:
    if isinstance(a, np.ma.MaskedArray):
        raise ArrayTypeError(
            f"{function_name(f)}: argument {position} is a masked array, whose mask the rules' "
            f"cotangents would not respect; differentiate np.ma.filled(x, fill) or "
            f"x.compressed() instead"
        )
    if isinstance(a, np.matrix):
        raise ArrayTypeError(
            f"{function_name(f)}: argument {position} is an np.matrix, whose * multiplies "
            f"matrices where the rules multiply elements; pass np.asarray(m)"
        )
    if a.dtype.kind == "O":
        raise ArrayTypeError(
            f"{function_name(f)}: argument {position} is an array of Python objects "
            f"(dtype object), which has no tangent space the rules know; convert it with "
            f".astype(float) (or complex)"
        )


def output_shape(y: Any) -> Any:
    """The shape a cotangent of ``y`` must have: ``y.shape`` for arrays of any library, ``()``
    for Python numbers, ``None`` (nothing checked) for structured outputs."""
    cls = type(y)
    if cls is np.ndarray or cls is np.float64:
        return y.shape
    if cls is float or cls is complex:
        return ()
    shape = getattr(y, "shape", None)
    if type(shape) is tuple:
        return shape
    return tuple(shape) if isinstance(shape, tuple) else None  # torch.Size: a tuple's subclass


def check_cotangent(f: Any, y: Any, dy: Any) -> None:
    """Raise, naming ``f`` and both shapes, unless ``dy`` can be a cotangent of output ``y``.

    Outputs that are arrays (or numbers) take arrays (or numbers) of their own shape; a
    structured output's components are checked where both sides are arrays.

    >>> check_cotangent(np.sin, np.zeros(3), np.ones((2, 3)))
    Traceback (most recent call last):
    ...
    chainrules.core.errors.ProjectionError: the pullback of numpy.sin was given a cotangent of \
shape (2, 3) for an output of shape (3,)
    """
    shape = output_shape(y)
    if shape is None and dy is not None:
        for which, y_i, dy_i in _components(y, dy):
            if not isinstance(dy_i, AbstractZero) and dy_i is not None:
                _check_shape(f, output_shape(y_i), dy_i, which)
        return
    check_cotangent_shape(f, shape, dy)


def checked_cotangent(f: Any, shape: Any, dy: Any) -> Any:
    """``dy`` unthunked, or ``None`` for a zero; raises naming ``f`` unless it fits the
    output's ``shape``."""
    if isinstance(dy, AbstractThunk):
        dy = dy.unthunk()
    if isinstance(dy, AbstractZero):
        return None
    check_cotangent_shape(f, shape, dy)
    return dy


def check_cotangent_shape(f: Any, shape: Any, dy: Any) -> None:
    """``check_cotangent`` for an output known by its shape alone (``None``: not checked)."""
    if dy is None:
        raise TangentTypeError(
            f"the pullback of {function_name(f)} was given None as a cotangent; pass "
            f"ZeroTangent() for a zero cotangent"
        )
    _check_shape(f, shape, dy, "")


def _components(y: Any, dy: Any) -> list[tuple[str, Any, Any]]:
    """The (name, output, cotangent) of each component of a tuple or list output that ``dy``
    gives in the same layout: by position, or by field for a named tuple's ``Tangent``."""
    if not isinstance(y, tuple | list):
        return []
    if isinstance(dy, Tangent):
        if dy.is_positional and len(dy) == len(y):
            return [(f" {i}", y_i, dy_i) for i, (y_i, dy_i) in enumerate(zip(y, dy, strict=True))]
        fields = getattr(y, "_fields", None)
        if fields is not None and not dy.is_positional:
            return [(f" {name!r}", getattr(y, name), dy[name]) for name in fields]
        return []
    if isinstance(dy, tuple | list) and len(dy) == len(y):
        return [(f" {i}", y_i, dy_i) for i, (y_i, dy_i) in enumerate(zip(y, dy, strict=True))]
    return []


def _check_shape(f: Any, shape: Any, dy: Any, which: str) -> None:
    if shape is None or isinstance(dy, AbstractZero | AbstractThunk):
        return
    got = getattr(dy, "shape", None)
    if got is None:
        if type(dy) in _NUMBERS or isinstance(dy, np.generic):
            got = ()
        else:
            raise TangentTypeError(
                f"the pullback of {function_name(f)} was given a cotangent of type "
                f"{type(dy).__name__} for output{which} of shape {tuple(shape)}; pass an array "
                f"of that shape"
            )
    if tuple(got) != tuple(shape) and _known(got) and _known(shape):
        raise ProjectionError(
            f"the pullback of {function_name(f)} was given a cotangent of shape {tuple(got)} "
            f"for {'an output' if not which else 'output' + which} of shape {tuple(shape)}"
        )


def check_tangents(f: Any, tangents: tuple, args: tuple) -> None:
    """Raise, naming ``f``, the argument and both shapes, where an array tangent's shape is
    not its NumPy argument's (it would broadcast the output tangent into a wrong shape)."""
    for i, (t, a) in enumerate(zip(tangents[1:], args, strict=False)):
        if type(t) is np.ndarray and type(a) is np.ndarray and t.shape != a.shape:
            raise ProjectionError(
                f"the frule of {function_name(f)} was given a tangent of shape {t.shape} for "
                f"argument {i + 1} of shape {a.shape}"
            )


_NUMBERS = frozenset({float, int, complex, bool})


def _known(shape: Any) -> bool:
    """Whether every extent of ``shape`` is known (dask's unknown chunks are NaN)."""
    return all(type(n) is int or isinstance(n, np.integer) for n in shape)


def renamed_inner(template: Callable, names: dict[str, str]) -> Callable:
    """``template`` with the functions it defines inside renamed by ``names``.

    Renaming the code objects once, here, names every pullback the rule later creates at no
    cost per call (setting ``__name__`` on each new closure would be one).
    """
    code = _renamed_code(template.__code__, names)
    return types.FunctionType(code, template.__globals__, template.__name__)


def _renamed_code(code: types.CodeType, names: dict[str, str]) -> types.CodeType:
    consts = tuple(
        _renamed_code(c, names) if isinstance(c, types.CodeType) else c for c in code.co_consts
    )
    name = names.get(code.co_name, code.co_name)
    return code.replace(co_consts=consts, co_name=name, co_qualname=name)


def own_code(fn: Any, qualname: str, name: str | None = None) -> Any:
    """A copy of the function ``fn`` with a code object of its own (``qualname``, and
    ``name`` for tracebacks, else ``fn``'s).

    CPython (3.11 on) specialises each attribute read and write of a code object for the type
    it meets there, and takes the slow way while the types it meets change. The rules of many
    functions share code (a rule's closure, the methods of a pullback base class), and an
    engine's loop calls them in turn (``sin``, ``multiply``, ``add``), each with a pullback
    class of its own: a copy per function keeps its code's types the same.
    """
    code = fn.__code__.replace(co_qualname=qualname, co_name=name or fn.__code__.co_name)
    copy = types.FunctionType(
        code, fn.__globals__, name or fn.__name__, fn.__defaults__, fn.__closure__
    )
    copy.__kwdefaults__ = fn.__kwdefaults__
    copy.__qualname__ = qualname
    return copy


@functools.cache
def _methods(base: type) -> tuple[tuple[str, types.FunctionType], ...]:
    """The plain functions ``base`` has as methods, each as its MRO finds it (a name a subclass
    gives another kind of value, a ``staticmethod`` or a constant, is not one)."""
    found: dict[str, Any] = {}
    for klass in base.__mro__:
        for key, value in vars(klass).items():
            found.setdefault(key, value)
    return tuple((key, value) for key, value in found.items() if type(value) is types.FunctionType)


def named_pullback_class(base: type, function: Any, **attributes: Any) -> type:
    """A subclass of ``base`` (a pullback class: ``__slots__``, ``__call__``) for
    ``function``, with class ``attributes``: named ``{function}_pullback``, as are its
    instances (``__name__``) and its ``__call__`` in tracebacks. Its methods are copies of the
    bases' with code of their own (see ``own_code``)."""
    name = f"{short_name(function)}_pullback"
    methods = {
        key: own_code(value, name, name) if key == "__call__" else own_code(value, f"{name}.{key}")
        for key, value in _methods(base)
    }
    # Each attribute as it is: a function kept as a class attribute would bind as a method.
    kept = {key: staticmethod(value) for key, value in attributes.items()}
    namespace = {"__slots__": (), **methods, "__name__": name, **kept}
    cls = type(name, (base,), namespace)
    cls.__qualname__ = name
    cls.__module__ = base.__module__
    return cls
