"""The rules inside autograd: ``install()`` makes every rule autograd's VJP and JVP.

autograd keeps a map from each NumPy and SciPy function to the primitive that wraps it.
``install()`` visits every function of the rule table that has such a primitive and puts, in
autograd's own tables, a VJP built from its rrule and a JVP built from its frule.
``uninstall()`` puts autograd's own back. Keywords are passed as the rules take them:
``out=None`` is dropped, and a keyword naming one of the NumPy function's positional
parameters (``np.swapaxes(x, axis1=0, axis2=1)``, ``np.clip(x, a_min=0, a_max=1)``) is
passed by position. A call the rule table still does not cover goes to autograd's own rule,
so installing never removes a derivative.

Rules compute through the array namespace of their inputs, and ``install()`` registers
``autograd.numpy`` as the namespace of autograd's boxes. When autograd differentiates a
derivative, the rule's pullback (or frule) is called as a primitive of its own, which the
reverse and forward engines differentiate with the rules again, to every order. A rule whose
pullback calls SciPy's compiled code (``scipy.linalg.sqrtm``, ``solve_sylvester``) has no
derivative of its own: autograd's rule then takes over above the first order when autograd
has one, and otherwise ``NotImplementedError`` names the function.

``wrap(f)`` reaches ``f``'s rules from autograd without installing anything: a function that
autograd differentiates (its boxed arguments), through a primitive of its own whose VJP and
JVP run the rules on the host, to every order (``chainrules.adapters.autograd_host``). It is
how ``chainrules.scipy`` and ``chainrules.with_rules`` hand autograd's boxes to the rules, for
functions that autograd has no primitive for as well.

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

from .._compat import autograd_internals
from ..core.errors import ArrayTypeError, RuleKeywordError
from ..core.names import function_name
from ..core.namespace import register_array_namespace
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT
from .autograd_host import (
    conjugated,
    dense,
    drop_primitives,
    has_box,
    host_primitive,
    host_vjp,
    n_outputs,
    unboxed,
    wrap,
)
from .host import HostFunction, recording_holes

__all__ = ["install", "installed", "uninstall", "wrap"]  # wrap: from autograd_host

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

    internals = autograd_internals()
    primitive_vjps, primitive_jvps = internals.primitive_vjps, internals.primitive_jvps
    trace_primitives_map = internals.trace_primitives_map
    for name in _AUTOGRAD_MODULES:
        importlib.import_module(name)
    register_array_namespace(internals.ArrayBox, lambda x: anp)
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
    internals = autograd_internals()
    with _lock:
        for primitive, (own_vjp, own_jvp) in _saved.items():
            tables = ((internals.primitive_vjps, own_vjp), (internals.primitive_jvps, own_jvp))
            for table, own in tables:
                if own is None:
                    table.pop(primitive, None)
                else:
                    table[primitive] = own
        _saved.clear()
        _plans.clear()
    drop_primitives()


def installed() -> bool:
    """Whether the rules are installed in autograd."""
    return bool(_saved)


def _no_rule(kind: str, f: Any) -> Any:
    def missing(*args: Any) -> Any:
        raise NotImplementedError(f"{kind} of {getattr(f, '__name__', f)} is not defined")

    return missing


def _vjp_maker(f: Callable, own: Any) -> Callable:
    has_own = own is not None
    own = own or _no_rule("VJP", f)

    def chainrules_vjp_maker(argnums: tuple, ans: Any, args: tuple, kwargs: dict) -> Callable:
        call = _as_rule_takes(rrule, f, args, kwargs)
        if call is None:
            return own(argnums, ans, args, kwargs)
        rule_args, rule_kwargs = call
        host = HostFunction(f, rule_kwargs, argnums, n_outputs(ans))
        if has_box(args):
            # Differentiating a gradient: the pullback runs as a primitive of its own.
            pullback_of = host.pullback_function(len(rule_args))
            plan = _derivative_plan(f, pullback_of, rule_args, _cotangent_sample(ans), has_own)
            if plan is None:
                return own(argnums, ans, args, kwargs)
            return host_vjp(host, rule_args if plan else unboxed(rule_args))
        found = rrule(f, *rule_args, **rule_kwargs)
        if found is None:
            return own(argnums, ans, args, kwargs)
        _, pullback = found

        def chainrules_vjp(g: Any) -> tuple:
            if has_box(g):
                pullback_of = host.pullback_function(len(rule_args))
                gs = tuple(unboxed(g)) if host.n_outputs else (unboxed(g),)
                if _derivative_plan(f, pullback_of, rule_args, gs, has_own, of_args=False) is None:
                    return own(argnums, ans, args, kwargs)(g)
                return host_vjp(host, rule_args)(g)
            cotangents = pullback(conjugated(g))
            return tuple(conjugated(dense(cotangents[1 + i], args[i])) for i in argnums)

        return chainrules_vjp

    return chainrules_vjp_maker


def _jvp_maker(f: Callable, own: Any) -> Callable:
    has_own = own is not None
    own = own or _no_rule("JVP", f)

    def chainrules_jvp_maker(argnums: tuple, gs: tuple, ans: Any, args: tuple, kwargs: dict) -> Any:
        call = _as_rule_takes(frule, f, args, kwargs)
        if call is None:
            return own(argnums, gs, ans, args, kwargs)
        rule_args, rule_kwargs = call
        if has_box(args) or has_box(gs):
            host = HostFunction(f, rule_kwargs, argnums, n_outputs(ans))
            jvp_of = host.jvp_function(len(rule_args))
            raw_tangents = unboxed(tuple(gs))
            plan = _derivative_plan(f, jvp_of, rule_args, raw_tangents, has_own, has_box(args))
            if plan is None:
                return own(argnums, gs, ans, args, kwargs)
            return host_primitive(jvp_of)(*(rule_args if plan else unboxed(rule_args)), *gs)
        tangents: list[Any] = [ZERO_TANGENT] * len(rule_args)
        for i, g in zip(argnums, gs, strict=True):
            tangents[i] = g
        found = frule((NO_TANGENT, *tangents), f, *rule_args, **rule_kwargs)
        if found is None:
            return own(argnums, gs, ans, args, kwargs)
        y, dy = found
        if isinstance(y, tuple | list):
            dense_dy = [dense(d, v) for d, v in zip(dy, y, strict=True)]
            return dense_dy if isinstance(y, list) else tuple(dense_dy)
        return dense(dy, y)

    return chainrules_jvp_maker


# ---- keywords: autograd passes the caller's, rules take NumPy's meaning by position --------


def _as_rule_takes(table: Any, f: Callable, args: tuple, kwargs: dict) -> tuple | None:
    """``(args, kwargs)`` in a form that ``table``'s rule for ``f`` takes; ``None``: no rule.

    ``out=None`` is NumPy's default and is dropped. A keyword the rule takes only by position
    (``np.swapaxes(x, axis1=0, axis2=1)``, ``np.clip(x, a_min=0, a_max=1)``,
    ``np.partition(x, kth=2)``) is bound there by the rule table, as for every caller. Any
    other keyword the rule does not take leaves the call to autograd's own rule.
    """
    getval = autograd_internals().getval
    kwargs = {k: v for k, v in kwargs.items() if not (k == "out" and v is None)}
    values = tuple(map(getval, args))
    try:
        bound, kwargs = table.bound_arguments(f, values, kwargs)
    except RuleKeywordError:  # a keyword that cannot reach the rule: autograd's own
        return None
    method = table._find(f, bound, None)
    if method is None or not (method.keywords is None or set(kwargs) <= method.keywords):
        return None
    return args + bound[len(args) :], kwargs


# ---- higher orders: rules run on raw values, each derivative a primitive of its own --------
#
# A rule may call NumPy-only functions (np.tril, scipy.special...), which autograd's boxes do
# not reach. So when a rule would see boxes (autograd differentiating a derivative), the
# pullback or the frule is called as a primitive on raw values, whose own derivatives come
# from the reverse and forward engines in the same way, to every order.


_plans: dict[tuple, Any] = {}  # see _derivative_plan; keyed by function and argument layout


def _derivative_plan(
    f: Callable,
    derivative: HostFunction,
    args: tuple,
    extra: tuple,
    has_own: bool,
    of_args: bool = True,
) -> bool | None:
    """How to differentiate ``derivative(*args, *extra)`` (a pullback or frule as a function).

    The reverse engine traces it once, with the boxed ``args`` tracked (``extra``, the
    cotangents or tangents, when ``of_args`` is false). The answer is ``True`` when its result
    depends on ``args``; ``False`` when it does not (a linear function's pullback reads only
    shapes): it then gets raw ``args``, so its result captures no box of autograd's outer
    levels. ``None`` when the rule cannot run on tracked values (it calls SciPy's compiled
    code: the engine raises ``TrackingError`` or ``NoRuleError``, or the rule
    ``ArrayTypeError``) and autograd has a rule of its own to take over; without one,
    ``NotImplementedError`` names the function. Any other error of the rule propagates.
    Answers are kept per function and layout of the arguments.
    """
    from ..engines import NoRuleError, TrackingError, reverse
    from ..engines.tracked import Tracked

    raw = unboxed(tuple(args))
    values = (*raw, *extra)
    # Every boxed argument, active or not: autograd differentiates the derivative in each.
    boxed = [i for i, a in enumerate(args) if has_box(a)]
    positions = boxed if of_args else list(range(len(raw), len(values)))
    key = (f, derivative.__name__, derivative.active, tuple(positions), _layout(values))
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
            # A derivative the rules do not give is checked where a cotangent meets it.
            with recording_holes() as holes:
                reverse.vjp(probe, *(values[i] for i in positions))
            # A hole is an unknown dependence, not independence: differentiated, it raises.
            _plans[key] = holds_tracked[0] or bool(holes)
        except (TrackingError, NoRuleError, ArrayTypeError) as error:
            # Kept, not raised: autograd's own rule may take over (see the docstring).
            _plans[key] = error
    plan = _plans[key]
    if not isinstance(plan, Exception):
        return plan
    if has_own:
        return None
    raise NotImplementedError(
        f"autograd is differentiating the derivative of {function_name(f)}, which its rule "
        f"cannot give (the rule calls code that the engine's tracked values cannot pass "
        f"through: {type(plan).__name__}), and autograd has no rule of its own to use instead"
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


def _cotangent_sample(ans: Any) -> tuple:
    """Cotangents of ``ans`` to trace a pullback with: one array per output."""
    raw = unboxed(ans)
    outputs = raw if isinstance(raw, tuple | list) else (raw,)
    return tuple(np.ones(np.shape(v), np.result_type(v)) for v in outputs)
