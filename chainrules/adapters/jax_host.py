"""Rules on the host inside JAX: ``host_call`` runs a function through ``jax.pure_callback``.

A function whose rule cannot run on JAX's tracers is computed by a callback to NumPy, wrapped
in a ``jax.custom_vjp``. Each derivative is a host function of its own, wrapped the same way,
so reverse mode works to every order. A callback costs about 100 us whatever it computes
(JAX converts its operands to ``jax.Array``s and back), so the derivatives take as few as
they can:

* **elementwise functions** (ufuncs of one output, every differentiated operand of the
  result's shape, real floats): the forward pass computes the value and the partial
  derivatives in the perturbed operands in one callback, and the backward pass multiplies
  them by the cotangent, in JAX. ``jit(grad(f))`` and ``jit(value_and_grad(f))`` each make
  one callback; the partials' own derivatives (second order) come from the rules again;
* **every other function**: the forward pass is the value's callback, which ``jit`` drops
  when only the gradient is used, and the backward pass one callback of the pullback, which
  gives only the cotangents of the perturbed operands (betainc's in its shape parameters are
  quadratures).

JAX's cotangents are the conjugates of the project's (its VJP of a holomorphic f is
``f'(z) * g``), so the pullback path conjugates at the boundary: ``conj(pullback(conj(g)))``.
JAX cannot differentiate a callback in forward mode: ``jvp`` of a host function raises
``MissingCapabilityError`` saying so.

>>> import pytest
>>> jax = pytest.importorskip("jax")
>>> import scipy.special as sc
>>> from chainrules.adapters.host import HostFunction
>>> gammaln = lambda v: host_call(HostFunction(sc.gammaln, {}, (0,)), (v,), (0,))
>>> float(jax.grad(gammaln)(jax.numpy.asarray(3.0)))  # digamma(3), from the forward's partials
0.92278...
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.errors import MissingCapabilityError
from . import jax_shapes
from .host import HostFunction, freeze
from .jax_calls import assemble, built_for, call_key, constants, forward_through
from .jax_shapes import canonical, host_value

__all__ = ["host_call"]


def host_call(
    host: HostFunction,
    args: tuple,
    positions: tuple,
    result_shape: Callable | None = None,
    shapes: Any = None,
) -> Any:
    """``host(*args)`` through ``pure_callback``, with a custom_vjp from its rules.

    The operands are the arguments at ``positions``. The result's shapes and dtypes are
    ``shapes`` (``jax.ShapeDtypeStruct``s) when given, else ``result_shape(*args)``, else
    those ``jax_shapes.result_shape`` finds.
    """
    key = call_key("host", host.key(), {}, args, positions, freeze(result_shape), shapes)

    def build() -> Callable:
        found = shapes
        if found is None:
            find = result_shape or functools.partial(jax_shapes.result_shape, host.f, host.kwargs)
            found = canonical(find(*args), tuple(args[i] for i in positions), result_shape)
        n_outputs = len(found) if isinstance(found, tuple) else 0
        inner = HostFunction(host.f, host.kwargs, host.active, n_outputs)
        elementwise = _is_elementwise(inner, args, found)
        return _host_custom(inner, constants(args, positions), positions, found, elementwise)

    custom = built_for(key, build)
    try:
        return custom(*(args[i] for i in positions))
    except TypeError as error:
        if "forward-mode" not in str(error):
            raise
        raise MissingCapabilityError(
            f"{host.__name__} runs on the host (jax.pure_callback, with its pullback as a "
            "custom_vjp), which JAX cannot differentiate in forward mode (jvp, jacfwd, "
            "jax.hessian): use reverse mode (grad, vjp, jacrev, jacrev of jacrev)"
        ) from error


def _is_elementwise(host: HostFunction, args: tuple, shapes: Any) -> bool:
    """Whether the pullback of a ones cotangent is each differentiated operand's partial
    derivative, element by element: a ufunc of one real output, no keywords, every active
    operand real and of the result's shape."""
    f = host.f
    if not isinstance(f, np.ufunc) or f.nout != 1 or f.signature is not None or host.kwargs:
        return False
    if isinstance(shapes, tuple) or np.dtype(shapes.dtype).kind != "f":
        return False
    return bool(host.active) and all(
        tuple(args[i].shape) == tuple(shapes.shape) and np.dtype(args[i].dtype).kind == "f"
        for i in host.active
    )


def _host_custom(
    host: HostFunction, args: tuple, positions: tuple, shapes: Any, elementwise: bool
) -> Callable:
    import jax
    import jax.numpy as jnp

    vmap_method = "expand_dims" if isinstance(host.f, np.ufunc) else "sequential"
    n = len(args)

    def run(*ops: Any) -> Any:
        full = list(args)
        for i, o in zip(positions, ops, strict=True):
            full[i] = host_value(o)
        y = host(*full)
        if isinstance(shapes, tuple):
            return tuple(np.asarray(v, dtype=s.dtype) for v, s in zip(y, shapes, strict=True))
        return np.asarray(y, dtype=shapes.dtype)

    def primal(*ops: Any) -> Any:
        return jax.pure_callback(run, shapes, *ops, vmap_method=vmap_method)

    # The forward passes go through ``custom`` or another host call, so that an outer
    # differentiation sees a custom_vjp call and not the bare callback. Only the derivatives
    # in the perturbed operands are computed (betainc's in its shape parameters are
    # quadratures).

    def pullback_backward(residuals: tuple, g: Any) -> tuple:
        ops, perturbed = residuals
        wanted = {i for i, p in zip(positions, perturbed, strict=True) if p is not None}
        needed = tuple(i for i in host.active if i in wanted)
        if not needed:
            return (None,) * len(positions)
        full = tuple(assemble(args, positions, ops))
        gs = tuple(g) if isinstance(g, tuple | list) else (g,)
        gs = tuple(_instantiate(d, s) for d, s in zip(gs, _leaves(shapes), strict=True))
        cts = host_call(
            host.pullback_function(n, needed),
            (*full, *(jnp.conj(d) for d in gs)),
            (*positions, *range(n, n + len(gs))),
            shapes=tuple(_aval(full[i]) for i in needed),
        )
        by_position = dict(zip(needed, cts, strict=True))
        return tuple(jnp.conj(by_position[i]) if i in by_position else None for i in positions)

    def partials_forward(*primals: Any) -> tuple[Any, Any]:
        # The value and the partials in one callback; the residuals are the partials, None
        # for an operand not perturbed (known here, while tracing).
        ops = tuple(p.value for p in primals)
        wanted = tuple(
            i for i, p in zip(positions, primals, strict=True) if p.perturbed and i in host.active
        )
        if not wanted:
            return custom(*ops), tuple(None for _ in positions)
        full = tuple(assemble(args, positions, ops))
        partial_shapes = tuple(jax.ShapeDtypeStruct(shapes.shape, full[i].dtype) for i in wanted)
        y, *partials = host_call(
            host.partials_function(n, wanted), full, positions, shapes=(shapes, *partial_shapes)
        )
        by_position = dict(zip(wanted, partials, strict=True))
        return y, tuple(by_position.get(i) for i in positions)

    def partials_backward(partials: tuple, g: Any) -> tuple:
        g = _instantiate(g, shapes)
        return tuple(None if p is None else (g * p).astype(p.dtype) for p in partials)

    custom = jax.custom_vjp(primal)
    if elementwise:
        custom.defvjp(partials_forward, partials_backward, symbolic_zeros=True)
    else:
        custom.defvjp(forward_through(custom), pullback_backward, symbolic_zeros=True)
    return custom


def _leaves(shapes: Any) -> tuple:
    return tuple(shapes) if isinstance(shapes, tuple) else (shapes,)


def _instantiate(cotangent: Any, shape: Any) -> Any:
    """A symbolic zero cotangent (an unused output) as an array of zeros."""
    import jax.numpy as jnp
    from jax.custom_derivatives import SymbolicZero

    if isinstance(cotangent, SymbolicZero):
        return jnp.zeros(shape.shape, shape.dtype)
    return cotangent


def _aval(a: Any) -> Any:
    import jax

    return jax.ShapeDtypeStruct(tuple(a.shape), a.dtype)
