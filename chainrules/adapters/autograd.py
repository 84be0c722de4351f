"""The rules inside autograd: ``install()`` makes every rule autograd's VJP and JVP.

autograd keeps a map from each NumPy and SciPy function to the primitive that wraps it.
``install()`` visits every function of the rule table that has such a primitive and puts, in
autograd's own tables, a VJP built from its rrule and a JVP built from its frule.
``uninstall()`` puts autograd's own back. A call the rule table does not cover (a keyword the
rule does not take, argument types no rule accepts) goes to autograd's own rule, so
installing never removes a derivative.

Rules compute through the array namespace of their inputs, and ``install()`` registers
``autograd.numpy`` as the namespace of autograd's boxes: when autograd differentiates a
gradient, the rule's pullback runs on boxes and is recorded, so higher orders work.

autograd's cotangents are the conjugates of the project's (its VJP of a holomorphic f is
``f'(z) * g``): the VJP is ``conj(pullback(conj(g)))``. Tangents of forward mode need no
conversion.

>>> import pytest
>>> autograd = pytest.importorskip("autograd")
>>> import autograd.numpy as anp
>>> done = install()  # the functions whose rules autograd now uses
>>> float(autograd.grad(autograd.grad(anp.tanh))(0.5))  # -2 tanh (1 - tanh**2), from the rule
-0.7268...
>>> uninstall()
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.errors import RuleKeywordError
from ..core.namespace import register_array_namespace
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from ..core.thunks import unthunk
from .host import HostFunction

__all__ = ["install", "installed", "uninstall"]

# The modules whose import fills autograd's map from functions to primitives.
_AUTOGRAD_MODULES = (
    "autograd.numpy",
    "autograd.numpy.linalg",
    "autograd.numpy.fft",
    "autograd.scipy.special",
    "autograd.scipy.linalg",
    "autograd.scipy.signal",
)

_saved: dict[Any, tuple[Any, Any]] = {}  # primitive -> autograd's own (vjp maker, jvp maker)
_lock = threading.Lock()


def install() -> list[Any]:
    """Make each rule of the table autograd's VJP / JVP for its primitive; the functions done.

    Calling it again is harmless (the rules registered since are added).
    """
    import importlib

    import autograd.numpy as anp
    from autograd.core import primitive_jvps, primitive_vjps
    from autograd.numpy.numpy_boxes import ArrayBox
    from autograd.tracer import trace_primitives_map

    for name in _AUTOGRAD_MODULES:
        importlib.import_module(name)
    register_array_namespace(ArrayBox, lambda x: anp)
    done = []
    with _lock:
        for f in set(rrule.functions()) | set(frule.functions()):
            try:
                primitive = trace_primitives_map.get(f)
            except TypeError:  # an unhashable key cannot be autograd's either
                continue
            if primitive is None:
                continue
            if primitive not in _saved:
                _saved[primitive] = (primitive_vjps.get(primitive), primitive_jvps.get(primitive))
            own_vjp, own_jvp = _saved[primitive]
            if rrule.has_rule(f):
                primitive_vjps[primitive] = _vjp_maker(f, own_vjp)
            if frule.has_rule(f):
                primitive_jvps[primitive] = _jvp_maker(f, own_jvp)
            done.append(f)
    return done


def uninstall() -> None:
    """Give autograd its own VJPs and JVPs back."""
    from autograd.core import primitive_jvps, primitive_vjps

    with _lock:
        for primitive, (own_vjp, own_jvp) in _saved.items():
            for table, own in ((primitive_vjps, own_vjp), (primitive_jvps, own_jvp)):
                if own is None:
                    table.pop(primitive, None)
                else:
                    table[primitive] = own
        _saved.clear()


def installed() -> bool:
    """Whether the rules are installed in autograd."""
    return bool(_saved)


def _is_complex(x: Any) -> bool:
    dtype = getattr(x, "dtype", None)
    if dtype is None:
        return isinstance(x, complex)
    return np.dtype(dtype).kind == "c"


def _no_rule(kind: str, f: Any) -> Any:
    def missing(*args: Any) -> Any:
        raise NotImplementedError(f"{kind} of {getattr(f, '__name__', f)} is not defined")

    return missing


def _vjp_maker(f: Callable, own: Any) -> Callable:
    has_own = own is not None
    own = own or _no_rule("VJP", f)

    def chainrules_vjp_maker(argnums: tuple, ans: Any, args: tuple, kwargs: dict) -> Callable:
        if _boxed(args):
            # Differentiating a gradient: the pullback runs as a primitive of its own.
            if not _rule_applies(rrule, f, args, kwargs):
                return own(argnums, ans, args, kwargs)
            host = HostFunction(f, kwargs, argnums, _n_outputs(ans))
            pullback_of = host.pullback_function(len(args))
            plan = _derivative_plan(pullback_of, args, _cotangent_sample(ans), has_own)
            if plan is None:
                return own(argnums, ans, args, kwargs)
            return _host_vjp(host, args if plan else _raw(args))
        try:
            found = rrule(f, *args, **kwargs)
        except RuleKeywordError:
            found = None
        if found is None:
            return own(argnums, ans, args, kwargs)
        _, pullback = found

        def chainrules_vjp(g: Any) -> tuple:
            if _boxed(g):
                host = HostFunction(f, kwargs, argnums, _n_outputs(ans))
                pullback_of = host.pullback_function(len(args))
                gs = tuple(_raw(g)) if host.n_outputs else (_raw(g),)
                if _derivative_plan(pullback_of, args, gs, has_own, of_args=False) is None:
                    return own(argnums, ans, args, kwargs)(g)
                return _host_vjp(host, args)(g)
            cotangents = pullback(_conj(g))
            return tuple(_conj(_dense(cotangents[1 + i], args[i])) for i in argnums)

        return chainrules_vjp

    return chainrules_vjp_maker


def _jvp_maker(f: Callable, own: Any) -> Callable:
    has_own = own is not None
    own = own or _no_rule("JVP", f)

    def chainrules_jvp_maker(argnums: tuple, gs: tuple, ans: Any, args: tuple, kwargs: dict) -> Any:
        if _boxed(args) or _boxed(gs):
            if not _rule_applies(frule, f, args, kwargs):
                return own(argnums, gs, ans, args, kwargs)
            host = HostFunction(f, kwargs, argnums, _n_outputs(ans))
            jvp_of = host.jvp_function(len(args))
            plan = _derivative_plan(jvp_of, args, _raw(tuple(gs)), has_own, _boxed(args))
            if plan is None:
                return own(argnums, gs, ans, args, kwargs)
            return _host_primitive(jvp_of)(*(args if plan else _raw(args)), *gs)
        tangents: list[Any] = [ZERO_TANGENT] * len(args)
        for i, g in zip(argnums, gs, strict=True):
            tangents[i] = g
        try:
            found = frule((NO_TANGENT, *tangents), f, *args, **kwargs)
        except RuleKeywordError:
            found = None
        if found is None:
            return own(argnums, gs, ans, args, kwargs)
        y, dy = found
        if isinstance(y, tuple | list):
            dense = [_dense(d, v) for d, v in zip(dy, y, strict=True)]
            return dense if isinstance(y, list) else tuple(dense)
        return _dense(dy, y)

    return chainrules_jvp_maker


# ---- higher orders: rules run on raw values, each derivative a primitive of its own --------
#
# A rule may call NumPy-only functions (np.tril, scipy.special...), which autograd's boxes do
# not reach. So when a rule would see boxes (autograd differentiating a derivative), the
# pullback or the frule is called as a primitive on raw values, whose own derivatives come
# from the reverse and forward engines in the same way, to every order.


_plans: dict[tuple, Any] = {}  # see _derivative_plan; keyed by function and argument layout


def _derivative_plan(
    derivative: HostFunction, args: tuple, extra: tuple, has_own: bool, of_args: bool = True
) -> bool | None:
    """How to differentiate ``derivative(*args, *extra)`` (a pullback or frule as a function).

    The reverse engine traces it once, with the boxed ``args`` tracked (``extra``, the
    cotangents or tangents, when ``of_args`` is false). The answer: ``True`` when its result depends on
    ``args``; ``False`` when it does not (a linear function's pullback reads only shapes, and
    then gets raw ``args``, so no box of autograd's outer levels is captured by its result);
    ``None`` when the rule cannot run on tracked values and autograd's own rule takes over.
    Without a rule of autograd's own, that case raises ``NotImplementedError`` naming the
    function. Answers are kept per function and layout of the arguments.
    """
    from ..engines import NoRuleError, TrackingError, reverse
    from ..engines.tracked import Tracked

    raw = _raw(tuple(args))
    values = (*raw, *extra)
    # Every boxed argument, active or not: autograd differentiates the derivative in each.
    boxed = [i for i, a in enumerate(args) if _boxed(a)]
    positions = boxed if of_args else list(range(len(raw), len(values)))
    key = (derivative.__name__, derivative.active, tuple(positions), _layout(values))
    if key not in _plans:
        holds_tracked = []

        def probe(*tracked: Any) -> Any:
            full = list(values)
            for i, v in zip(positions, tracked, strict=True):
                full[i] = v
            out = derivative(*full)
            holds_tracked.append(any(isinstance(v, Tracked) for v in _leaves(out)))
            return out

        try:
            reverse.vjp(probe, *(values[i] for i in positions))
            _plans[key] = holds_tracked[0]
        except (TrackingError, NoRuleError) as error:
            _plans[key] = error
    plan = _plans[key]
    if not isinstance(plan, Exception):
        return plan
    if has_own:
        return None
    raise NotImplementedError(
        f"{derivative.__name__} cannot be differentiated: the rule runs SciPy or other "
        f"compiled code that the engine's tracked values cannot pass through ({plan}), and "
        f"autograd has no rule of its own to use instead"
    ) from plan


def _layout(values: tuple) -> tuple:
    """What a derivative's traceability can depend on: types, shapes, dtypes, lengths."""
    return tuple(
        (
            type(v).__name__,
            np.shape(v) if hasattr(v, "shape") else None,
            str(getattr(v, "dtype", "")),
        )
        if not isinstance(v, tuple | list)
        else _layout(tuple(v))
        for v in values
    )


def _leaves(x: Any) -> list:
    if isinstance(x, tuple | list):
        return [leaf for v in x for leaf in _leaves(v)]
    return [x]


def _raw(x: Any) -> Any:
    """``x`` without autograd's boxes, at every level of nesting."""
    from autograd.tracer import getval, isbox

    while isbox(x):
        x = getval(x)
    if isinstance(x, tuple | list) and not hasattr(x, "_fields"):
        return type(x)(map(_raw, x))
    return x


def _cotangent_sample(ans: Any) -> tuple:
    """Cotangents of ``ans`` to trace a pullback with: one array per output."""
    raw = _raw(ans)
    outputs = raw if isinstance(raw, tuple | list) else (raw,)
    return tuple(np.ones(np.shape(v), np.result_type(v)) for v in outputs)


def _rule_applies(table: Any, f: Callable, args: tuple, kwargs: dict) -> bool:
    """Whether ``table`` has a rule for ``f`` at these arguments that takes these keywords."""
    from autograd.tracer import getval

    method = table._find(f, tuple(map(getval, args)), None)
    if method is None:
        return False
    return method.keywords is None or all(k in method.keywords for k in kwargs)


def _boxed(values: Any) -> bool:
    from autograd.tracer import isbox

    if isinstance(values, tuple | list):
        return any(_boxed(v) for v in values)
    return isbox(values)


def _n_outputs(ans: Any) -> int:
    from autograd.tracer import getval

    ans = getval(ans)
    return len(ans) if isinstance(ans, tuple | list) else 0


def _conj(x: Any) -> Any:
    if isinstance(x, tuple | list):  # the cotangent of a function with several outputs
        return type(x)(map(_conj, x)) if not hasattr(x, "_fields") else tuple(map(_conj, x))
    if not _is_complex(x):
        return x
    from autograd.numpy import conj

    return conj(x)


def _host_vjp(host: HostFunction, args: tuple) -> Callable:
    """autograd's VJP of ``host`` at ``args``: ``conj(pullback(conj(g)))``, differentiable."""
    pullback = _host_primitive(host.pullback_function(len(args)))

    def chainrules_host_vjp(g: Any) -> tuple:
        gs = tuple(g) if host.n_outputs else (g,)
        cotangents = pullback(*args, *map(_conj, gs))
        return tuple(_conj(ct) for ct in cotangents)

    return chainrules_host_vjp


def _host_primitive(host: HostFunction) -> Callable:
    """``host`` as an autograd primitive whose VJP and JVP are ``host``'s, recursively."""
    from autograd.extend import defjvp_argnums, defvjp_argnums, primitive

    call = primitive(host.__call__)

    def host_vjp_maker(argnums: tuple, ans: Any, args: tuple, kwargs: dict) -> Callable:
        inner = HostFunction(host.f, host.kwargs, argnums, host.n_outputs)
        return _host_vjp(inner, args)

    def host_jvp_maker(argnums: tuple, gs: tuple, ans: Any, args: tuple, kwargs: dict) -> Any:
        inner = HostFunction(host.f, host.kwargs, argnums, host.n_outputs)
        return _host_primitive(inner.jvp_function(len(args)))(*args, *gs)

    defvjp_argnums(call, host_vjp_maker)
    defjvp_argnums(call, host_jvp_maker)
    return call


def _dense(tangent: Any, like: Any) -> Any:
    """A tangent that autograd can add up: zeros become zero arrays of ``like``'s space."""
    from autograd.extend import vspace

    tangent = unthunk(tangent)
    if isinstance(tangent, AbstractZero) or tangent is None:
        return vspace(like).zeros()
    return tangent
