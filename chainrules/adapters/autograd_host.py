"""Rules run on the host as autograd primitives: ``wrap(f)``, and each derivative of it.

``wrap(f)`` is a function autograd differentiates through a primitive of its own, whose value
is ``f``'s rule's on the raw arguments, whose VJP is the rule's pullback and whose JVP its
frule, run on NumPy values. A derivative that autograd differentiates again is the pullback
(or frule) as a primitive of its own, differentiated by the reverse and forward engines with
the rules, to every order. Equal host functions share one primitive.

autograd's cotangents are the conjugates of the project's (its VJP of a holomorphic f is
``f'(z) * g``): the VJP is ``conj(pullback(conj(g)))``.

>>> import pytest
>>> autograd = pytest.importorskip("autograd")
>>> import scipy.special as sc
>>> float(autograd.grad(autograd.grad(wrap(sc.gammaln)))(3.0))  # trigamma(3)
0.39493...
"""

from __future__ import annotations

import functools
import threading
import types
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from .._compat import autograd_internals
from ..core.registry import rrule
from ..core.tangents import AbstractZero
from ..core.thunks import unthunk
from .flattened import Flattened, holds
from .host import HostFunction, densify

__all__ = [
    "conjugated",
    "dense",
    "drop_primitives",
    "has_box",
    "host_primitive",
    "host_vjp",
    "n_outputs",
    "unboxed",
    "wrap",
]

_lock = threading.Lock()


def wrap(f: Callable) -> Callable:
    """An autograd-callable computing ``f``, whose derivatives of every order are f's rules.

    Boxed arguments, also inside lists and tuples (``np.stack([a, b])``), are differentiated;
    the others are constants, as are keyword arguments. The value is the rule's, computed on
    the raw arguments as the rule takes them (0-d arrays where SciPy wants numbers, attributes
    such as ``np.ndarray.T``).

    >>> import pytest
    >>> autograd = pytest.importorskip("autograd")
    >>> import scipy.special as sc
    >>> betainc = wrap(sc.betainc)
    >>> float(autograd.grad(betainc)(1.5, 2.0, 0.3))  # in a: no peer has it
    -0.2905...
    """

    hosts: dict[tuple, HostFunction] = {}  # by boxed positions, for calls without keywords

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        isbox = autograd_internals().isbox
        if any(holds(a, isbox) for a in args):  # boxes inside lists: one argument each
            flat = Flattened(f, args)
            leaves = flat.leaves(args)
            active = tuple(i for i, a in enumerate(leaves) if isbox(a))
            return host_primitive(HostFunction(flat, kwargs, active))(*leaves)
        active = tuple(i for i, a in enumerate(args) if isbox(a))
        if not active:
            return _call(f, args, kwargs)
        # The same host function object for the same kind of call: its primitive is then
        # found by identity, without freezing f again.
        host = None if kwargs else hosts.get(active)
        if host is None:
            host = HostFunction(f, kwargs, active)
            if not kwargs:
                hosts[active] = host
        return host_primitive(host)(*args)

    return wrapped


def _call(f: Any, args: tuple, kwargs: dict) -> Any:
    """``f(*args, **kwargs)``; for an attribute of arrays (``np.ndarray.T``), its value."""
    if isinstance(f, types.GetSetDescriptorType | types.MemberDescriptorType):
        return f.__get__(*args)
    return f(*args, **kwargs)


def _is_complex(x: Any) -> bool:
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return isinstance(x, complex)
    return np.dtype(dtype).kind == "c"


def unboxed(x: Any) -> Any:
    """``x`` without autograd's boxes, at every level of nesting."""
    internals = autograd_internals()
    while internals.isbox(x):
        x = internals.getval(x)
    if isinstance(x, tuple | list) and not hasattr(x, "_fields"):
        return type(x)(map(unboxed, x))
    return x


def has_box(values: Any) -> bool:
    if isinstance(values, tuple | list):
        return any(has_box(v) for v in values)
    return autograd_internals().isbox(values)


def n_outputs(ans: Any) -> int:
    ans = autograd_internals().getval(ans)
    return len(ans) if isinstance(ans, tuple | list) else 0


def conjugated(x: Any) -> Any:
    """``x``'s complex conjugate (of each element of a tuple or list of cotangents)."""
    if isinstance(x, tuple | list):  # the cotangent of a function with several outputs
        parts = map(conjugated, x)
        return type(x)(parts) if not hasattr(x, "_fields") else tuple(parts)
    if not _is_complex(x):
        return x
    import autograd.numpy as anp

    return anp.conj(x)


def host_vjp(host: HostFunction, args: tuple, rule_pullback: Any = None) -> Callable:
    """autograd's VJP of ``host`` at ``args``: ``conj(pullback(conj(g)))``, differentiable.

    ``rule_pullback``, the rule's pullback at ``args`` from the forward pass, gives a cotangent
    ``g`` that autograd does not trace (a first derivative) without computing the rule again;
    a traced one goes through the pullback as a primitive of its own.
    """

    def chainrules_host_vjp(g: Any) -> tuple:
        if rule_pullback is not None and not has_box(g):
            cotangents = rule_pullback(conjugated(tuple(g) if host.n_outputs else g))
            name = host.__name__
            return tuple(
                conjugated(densify(cotangents[1 + i], args[i], name, i)) for i in host.active
            )
        gs = tuple(g) if host.n_outputs else (g,)
        pullback = host_primitive(host.pullback_function(len(args)))
        return tuple(conjugated(ct) for ct in pullback(*args, *map(conjugated, gs)))

    return chainrules_host_vjp


class _LastValue(threading.local):
    """The value a host primitive computed last on this thread, with the rule's pullback."""

    value: Any = None
    pullback: Any = None


_last_value = _LastValue()


def _pullback_of(ans: Any) -> Any:
    """The rule's pullback that gave ``ans``, when ``ans`` is the value a host primitive just
    computed (autograd records a primitive's node right after computing its value on raw
    arguments); else None. The slot is emptied, so that it keeps no arrays alive."""
    value, pullback = _last_value.value, _last_value.pullback
    _last_value.value = _last_value.pullback = None
    return pullback if value is ans else None


# autograd keeps every primitive's VJP and JVP in global tables, forever: one primitive per
# host function (equal host functions share it), the least recently used dropped, with its
# entries, past a bound.
_PRIMITIVES_LIMIT = 256
_primitives: OrderedDict[HostFunction, Callable] = OrderedDict()


def host_primitive(host: HostFunction) -> Callable:
    """``host`` as an autograd primitive whose VJP and JVP are ``host``'s, recursively."""
    with _lock:
        found = _primitives.get(host)
        if found is not None:
            _primitives.move_to_end(host)
            return found
    made = _new_host_primitive(host)
    internals = autograd_internals()
    with _lock:
        made = _primitives.setdefault(host, made)
        while len(_primitives) > _PRIMITIVES_LIMIT:
            _, dropped = _primitives.popitem(last=False)
            internals.primitive_vjps.pop(dropped, None)
            internals.primitive_jvps.pop(dropped, None)
    return made


def _primal(host: HostFunction) -> Callable:
    """``host``'s value: the rule's where ``f`` has one, which takes what the rule takes.

    Python integers and booleans among the results (an exponent, a rank, a flag) become NumPy
    arrays, which autograd can hold in a result tuple; they have no derivative. A named tuple
    (``np.unique_all``'s) becomes a plain one, which autograd can box."""

    def value(*args: Any) -> Any:
        found = rrule(host.f, *args, **host.kwargs)
        y, pullback = (host(*args), None) if found is None else found
        if isinstance(y, tuple) and type(y) is not tuple:  # a named tuple: autograd boxes none
            y = tuple(y)
        if type(y) is tuple and any(isinstance(v, bool | int) for v in y):
            y = tuple(np.asarray(v) if isinstance(v, bool | int) else v for v in y)
        _last_value.value, _last_value.pullback = y, pullback
        return y

    return value


def _new_host_primitive(host: HostFunction) -> Callable:
    from autograd.extend import defjvp_argnums, defvjp_argnums, primitive, vspace

    call = primitive(_primal(host))

    # The number of outputs is read from the answer: ``wrap`` builds its primitive before the
    # first call has said whether f returns a tuple. autograd differentiates integer arrays
    # too (a pivot passed on to a pullback): they get zero cotangents and no tangents here.
    def host_vjp_maker(argnums: tuple, ans: Any, args: tuple, kwargs: dict) -> Callable:
        pullback = _pullback_of(ans)
        live = _inexact_positions(argnums, args)
        vjp = host_vjp(HostFunction(host.f, host.kwargs, live, n_outputs(ans)), args, pullback)
        if live == argnums:
            return vjp

        def vjp_with_zeros(g: Any) -> tuple:
            cotangents = iter(vjp(g) if live else ())
            return tuple(
                next(cotangents) if i in live else vspace(args[i]).zeros() for i in argnums
            )

        return vjp_with_zeros

    def host_jvp_maker(argnums: tuple, gs: tuple, ans: Any, args: tuple, kwargs: dict) -> Any:
        _pullback_of(ans)  # forward mode uses the frule: the slot is emptied
        live = _inexact_positions(argnums, args)
        if not live:
            return vspace(ans).zeros()
        inner = HostFunction(host.f, host.kwargs, live, n_outputs(ans))
        tangents = [g for i, g in zip(argnums, gs, strict=True) if i in live]
        return host_primitive(inner.jvp_function(len(args)))(*args, *tangents)

    defvjp_argnums(call, host_vjp_maker)
    defjvp_argnums(call, host_jvp_maker)
    return call


def _inexact_positions(argnums: tuple, args: tuple) -> tuple:
    return tuple(i for i in argnums if np.result_type(unboxed(args[i])).kind in "fc")


def dense(tangent: Any, like: Any) -> Any:
    """A tangent that autograd can add up: zeros become zero arrays of ``like``'s space."""
    from autograd.extend import vspace

    tangent = unthunk(tangent)
    if isinstance(tangent, AbstractZero) or tangent is None:
        return vspace(like).zeros()
    return tangent


def drop_primitives() -> None:
    """Forget every host primitive, and take their VJPs and JVPs out of autograd's tables."""
    internals = autograd_internals()
    with _lock:
        for made in _primitives.values():
            internals.primitive_vjps.pop(made, None)
            internals.primitive_jvps.pop(made, None)
        _primitives.clear()
