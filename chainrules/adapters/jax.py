"""The rules inside JAX: ``wrap(f)`` is a jax function whose derivatives are f's rules.

JAX arrays among the arguments, also inside tuples and lists (``cho_solve((c, lower), b)``),
are the operands (those of a float or complex dtype are differentiated); every other argument
is a constant. Where the rule runs is decided once per function, by tracing it abstractly
(``jax.eval_shape``) at its first call:

* **natively**, when the frule computes with ``array_namespace`` on JAX's tracers: the
  function is a ``jax.custom_jvp`` built from the frule, and JAX derives the rest: ``jit``,
  ``vmap``, ``grad`` of ``grad``, ``jvp``, ``jacfwd`` and ``jacrev`` all work. (A function
  with a native rrule and no frule is a ``jax.custom_vjp`` instead: reverse mode only.)
* **on the host** when neither rule can (NumPy functions, most of ``scipy.special`` and
  ``scipy.linalg``): there is none for JAX's arrays, it gives something else, it needs a
  tracer's value (JAX's ``TracerArrayConversionError``, ``ConcretizationTypeError`` and the
  like) or it raises ``ArrayTypeError``. The function is then a ``jax.custom_vjp`` whose
  value and derivatives go through ``jax.pure_callback`` (``chainrules.adapters.jax_host``).
  Shapes and dtypes come from a cheap shape rule: broadcasting for ufuncs, the primal's
  shapes for derivatives, otherwise one evaluation on stand-in arrays (identity matrices
  where square, ones elsewhere), or ``result_shape=`` given to ``wrap``. Reverse mode works
  to every order (``grad``, ``vjp``, ``jacrev``, ``grad`` of ``grad``: each derivative is
  itself wrapped), with ``jit`` and ``vmap``; forward mode (``jvp``, ``jacfwd``) does not,
  since JAX cannot transpose a callback.

A Python float or complex argument, or a NumPy array of them, becomes JAX's array of it
(float32 when x64 is off), as in ``jax.numpy``; a NumPy scalar stays a constant. On the host, a
scalar operand reaches NumPy as a NumPy scalar (SciPy's functions of scalars refuse 0-d
arrays), and arguments inside tuples are run by ``Flattened``. A host function's result has
the precision of its float operands, in the types JAX allows under the current x64 setting.
Each kind of call is built once (``chainrules.adapters.jax_calls``), since JAX caches its
traces and executables by the identity of the functions it is given. A derivative the rules
do not give raises ``ChainRulesError`` naming the function, never a zero.

JAX's cotangents are the conjugates of the project's (its VJP of a holomorphic f is
``f'(z) * g``): the adapter conjugates at the boundary, ``conj(pullback(conj(g)))``.
Any other error of a rule reaches the caller as it was raised.

>>> import pytest
>>> jax = pytest.importorskip("jax")
>>> import scipy.special as sc
>>> gammaln = wrap(sc.gammaln)
>>> float(jax.grad(gammaln)(3.0))  # digamma(3)
0.92278...
>>> float(jax.jit(jax.grad(jax.grad(gammaln)))(3.0))  # trigamma(3)
0.39493...
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.errors import ArrayTypeError, ChainRulesError
from ..core.names import function_name
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, NotImplementedTangent
from ..core.thunks import unthunk
from .flattened import Flattened, holds, is_sequence
from .host import HostFunction
from .jax_calls import assemble, built_for, call_key, constants, forward_through
from .jax_host import host_call

__all__ = ["is_host_only", "rule_mode", "wrap"]

_native: dict[Any, str] = {}  # function -> "jvp", "vjp" (native rule) or "host"
_lock = threading.Lock()


def wrap(
    f: Callable, *, host: bool | None = None, result_shape: Callable | None = None
) -> Callable:
    """A jax-callable computing ``f`` whose derivatives come from the rules.

    ``host=None`` decides at the first call whether the rule runs on tracers; ``True`` always
    runs it through ``jax.pure_callback``. ``result_shape(*args)`` may give the
    ``jax.ShapeDtypeStruct`` (or a tuple of them) of ``f(*args)`` for the host path.
    """

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        args = tuple(_as_operand(a) for a in args) if _FLOATS_AS_OPERANDS else args
        if any(holds(a, _is_jax) for a in args):
            flat = Flattened(f, args)
            leaves = flat.leaves(args)
            positions = tuple(i for i, a in enumerate(leaves) if _is_jax(a))
            active = tuple(i for i in positions if _inexact(leaves[i]))
            return host_call(HostFunction(flat, kwargs, active), leaves, positions)
        positions = tuple(i for i, a in enumerate(args) if _is_jax(a))
        active = tuple(i for i in positions if _inexact(args[i]))
        mode = "host" if host else _mode(f, args, kwargs, positions, active)
        native = {"jvp": _native_jvp_call, "vjp": _native_vjp_call}.get(mode)
        if native is not None:
            try:
                return native(f, kwargs, args, positions, active)
            except _not_on_tracers():  # the probe passed on other arguments: run on the host
                pass
        return host_call(HostFunction(f, kwargs, active), args, positions, result_shape)

    wrapped.__wrapped__ = f
    return wrapped


def is_host_only(f: Callable) -> bool | None:
    """Whether ``f``'s rule was found to need ``pure_callback``; ``None`` before its first call."""
    mode = _native.get(f)
    return None if mode is None else mode == "host"


def rule_mode(f: Callable) -> str | None:
    """How ``f`` runs: ``"jvp"`` (native frule: every transform), ``"vjp"`` (native rrule:
    reverse mode only), ``"host"`` (``pure_callback``: reverse mode only); ``None`` before its
    first call.
    """
    return _native.get(f)


_FLOATS_AS_OPERANDS = True


def _as_operand(a: Any) -> Any:
    """A Python float or complex, or a NumPy array of floats or complex numbers, as JAX's
    array of it (``jnp.asarray``: float32 when x64 is off), as ``jax.numpy``'s functions take
    them (``check_grads`` steps its arguments with NumPy arrays); integers and the rest stay
    constants."""
    if is_sequence(a):
        return type(a)(_as_operand(v) for v in a)
    if type(a) in (float, complex) or (isinstance(a, np.ndarray) and _inexact(a)):
        import jax.numpy as jnp

        return jnp.asarray(a)
    return a


def _is_jax(a: Any) -> bool:
    import jax

    return isinstance(a, jax.Array)


def _inexact(a: Any) -> bool:
    return np.dtype(a.dtype).kind in "fc"


def _mode(f: Callable, args: tuple, kwargs: dict, positions: tuple, active: tuple) -> str:
    """Trace the rules once on abstract values: does the frule, or the rrule, run on tracers?"""
    known = _native.get(f)
    if known is not None:
        return known
    import jax

    operands = tuple(args[i] for i in positions)
    gave_jax: list[bool] = []  # what each probe found; a probe returns nothing to JAX

    def probe_frule(*ops: Any) -> None:
        full = assemble(args, positions, ops)
        tangents = [ZERO_TANGENT] * len(args)
        for i in active:
            tangents[i] = full[i]
        found = frule((NO_TANGENT, *tangents), f, *full, **kwargs)
        gave_jax.append(found is not None and _all_jax(found))

    def probe_rrule(*ops: Any) -> None:
        found = rrule(f, *assemble(args, positions, ops), **kwargs)
        if found is None:
            gave_jax.append(False)
            return
        y, pullback = found
        cts = pullback(y)
        gave_jax.append(_all_jax((y, *(unthunk(cts[1 + i]) for i in active))))

    mode = "host"
    for name, probe in (("jvp", probe_frule), ("vjp", probe_rrule)):
        gave_jax.clear()
        try:
            jax.eval_shape(probe, *operands)
        except _not_on_tracers():
            continue
        if gave_jax[0]:
            mode = name
            break
    with _lock:
        _native[f] = mode
    return mode


@functools.cache
def _not_on_tracers() -> tuple[type[Exception], ...]:
    """The errors that mean a rule cannot run on JAX's tracers, and so runs on the host.

    JAX raises these where code needs a tracer's value, which tracing does not have: NumPy or
    SciPy converting it to an array, ``int()`` or ``bool()`` of it, Python control flow on it,
    indexing with a boolean mask made from it (``TracerBoolConversionError`` is a
    ``ConcretizationTypeError``, named for clarity). A rule says so itself with
    ``ArrayTypeError``.
    """
    import jax

    # jax.errors has all of them in every release the jax extra allows (0.4.35 on).
    return (
        ArrayTypeError,
        jax.errors.TracerArrayConversionError,
        jax.errors.ConcretizationTypeError,
        jax.errors.TracerIntegerConversionError,
        jax.errors.TracerBoolConversionError,
        jax.errors.NonConcreteBooleanIndexError,
    )


def _all_jax(values: Any) -> bool:
    """Whether every leaf of a rule's result is a JAX array (or tracer) or a zero tangent."""
    if isinstance(values, tuple | list):
        return all(_all_jax(v) for v in values)
    return _is_jax(values) or isinstance(values, AbstractZero)


# ---- native rules -------------------------------------------------------------------------


def _native_jvp_call(f: Callable, kwargs: dict, args: tuple, positions: tuple, active: tuple):
    key = call_key("jvp", f, kwargs, args, positions, active)
    custom = built_for(
        key, lambda: _native_jvp(f, kwargs, constants(args, positions), positions, active)
    )
    return custom(*(args[i] for i in positions))


def _native_jvp(f: Callable, kwargs: dict, args: tuple, positions: tuple, active: tuple):
    import jax
    import jax.numpy as jnp

    def primal(*ops: Any) -> Any:
        # The frule's primal, not ``f``'s: the rule computes through the namespace, ``f`` may not.
        zeros = (ZERO_TANGENT,) * len(args)
        return frule((NO_TANGENT, *zeros), f, *assemble(args, positions, ops), **kwargs)[0]

    def primal_jvp(primals: tuple, tangents: tuple) -> tuple[Any, Any]:
        full = assemble(args, positions, primals)
        cr_tangents = [ZERO_TANGENT] * len(args)
        for i, t in zip(positions, tangents, strict=True):
            if i in active:
                cr_tangents[i] = t
        y, dy = frule((NO_TANGENT, *cr_tangents), f, *full, **kwargs)
        dy = unthunk(dy)
        if isinstance(y, tuple | list):
            return tuple(y), tuple(
                _zeros_if_zero(d, o, jnp, f, k) for k, (d, o) in enumerate(zip(dy, y, strict=True))
            )
        return y, _zeros_if_zero(dy, y, jnp, f, 0)

    custom = jax.custom_jvp(primal)
    custom.defjvp(primal_jvp)
    return custom


def _zeros_if_zero(d: Any, like: Any, jnp: Any, f: Callable, k: int) -> Any:
    d = unthunk(d)
    if isinstance(d, NotImplementedTangent):
        raise ChainRulesError(
            f"the frule for {function_name(f)} does not give the tangent of its output {k}: "
            f"{d.info}"
        )
    return jnp.zeros_like(like) if isinstance(d, AbstractZero) else d


def _native_vjp_call(f: Callable, kwargs: dict, args: tuple, positions: tuple, active: tuple):
    key = call_key("vjp", f, kwargs, args, positions, active)
    custom = built_for(
        key, lambda: _native_vjp(f, kwargs, constants(args, positions), positions, active)
    )
    return custom(*(args[i] for i in positions))


def _native_vjp(f: Callable, kwargs: dict, args: tuple, positions: tuple, active: tuple):
    import jax
    import jax.numpy as jnp

    def primal(*ops: Any) -> Any:
        return rrule(f, *assemble(args, positions, ops), **kwargs)[0]

    def backward(residuals: tuple, g: Any) -> tuple:
        ops, perturbed = residuals
        full = assemble(args, positions, ops)
        _, pullback = rrule(f, *full, **kwargs)
        cts = pullback(jax.tree.map(jnp.conj, _instantiate_all(g)))
        out = []
        for i, o, p in zip(positions, ops, perturbed, strict=True):
            ct = unthunk(cts[1 + i]) if i in active and p is not None else ZERO_TANGENT
            if isinstance(ct, NotImplementedTangent):
                raise ChainRulesError(
                    f"the rule for {function_name(f)} does not give the cotangent of its "
                    f"argument {i}: {ct.info}"
                )
            # result_type: JAX 0.4.35 hands the residual of a Python float back as one
            out.append(
                None if isinstance(ct, AbstractZero) else jnp.conj(ct).astype(jnp.result_type(o))
            )
        return tuple(out)

    # A constant made an operand (a Python float) is not perturbed: it needs no cotangent, so
    # one the rule does not give is no error.
    custom = jax.custom_vjp(primal)
    custom.defvjp(forward_through(custom), backward, symbolic_zeros=True)
    return custom


def _instantiate_all(g: Any) -> Any:
    """``g`` with each symbolic zero cotangent (an unused output) as an array of zeros."""
    import jax
    import jax.numpy as jnp
    from jax.custom_derivatives import SymbolicZero

    def dense(d: Any) -> Any:
        return jnp.zeros(d.aval.shape, d.aval.dtype) if isinstance(d, SymbolicZero) else d

    return jax.tree.map(dense, g, is_leaf=lambda d: isinstance(d, SymbolicZero))
