"""One JAX function per kind of call, which the JAX adapter's native and host paths share.

JAX caches what it traces and compiles by the identity of the functions it is given (the
custom_jvp/custom_vjp object, its rules, the pure_callback's callback). A new closure per call
is a new trace and a new executable, kept by JAX's caches: megabytes and tens of milliseconds
per eager grad. So each kind of call (function, keywords, constants, operand shapes and
dtypes, x64 flag) is built once and kept in ``BUILT``, the least recently used dropped past a
bound.

>>> import numpy as np
>>> constants((np.float64(2.0), "x", 3), positions=(1,))
(np.float64(2.0), None, 3)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import numpy as np

from .host import freeze

__all__ = ["BUILT", "assemble", "built_for", "call_key", "constants", "forward_through"]

_BUILT_LIMIT = 256
BUILT: OrderedDict[Any, Callable] = OrderedDict()
_lock = threading.Lock()


def built_for(key: Any, build: Callable[[], Callable]) -> Callable:
    """The function kept for ``key``, made by ``build()`` the first time."""
    with _lock:
        found = BUILT.get(key)
        if found is not None:
            BUILT.move_to_end(key)
            return found
    made = build()
    with _lock:
        made = BUILT.setdefault(key, made)
        while len(BUILT) > _BUILT_LIMIT:
            BUILT.popitem(last=False)
    return made


def call_key(kind: str, f: Any, kwargs: dict, args: tuple, positions: tuple, *extra: Any):
    """What a call computes: ``f``, its keywords and constants, its operands' shapes, dtypes
    and weak types (the arguments at ``positions``) and JAX's x64 flag, hashable."""
    import jax

    avals = tuple(
        (tuple(args[i].shape), np.dtype(args[i].dtype).str, bool(getattr(args[i], "weak_type", 0)))
        for i in positions
    )
    x64 = bool(jax.config.jax_enable_x64)
    fixed = freeze(constants(args, positions))
    return (kind, freeze(f), freeze(kwargs), fixed, positions, avals, x64, *extra)


def constants(args: tuple, positions: tuple) -> tuple:
    """``args`` with the operands (at ``positions``) left out, as ``None``."""
    return tuple(None if i in positions else a for i, a in enumerate(args))


def assemble(args: tuple, positions: tuple[int, ...], operands: tuple) -> list:
    """``args`` with the ``operands`` put back at ``positions``, as JAX arrays."""
    import jax.numpy as jnp

    full = list(args)
    for i, o in zip(positions, operands, strict=True):
        # JAX may hand a rule its constants as NumPy arrays; the rule must still see JAX's.
        full[i] = o if isinstance(o, jnp.ndarray) else jnp.asarray(o)
    return full


def forward_through(custom: Callable) -> Callable:
    """A custom_vjp's forward pass that computes the value through ``custom`` itself, so that
    an outer differentiation of the forward pass sees a custom_vjp call and not the bare
    primal; the residuals are the operands and which of them are perturbed, known here while
    tracing, in their structure (None or an empty tuple, no arrays), for the backward pass
    to compute only their cotangents."""

    def forward(*primals: Any) -> tuple[Any, Any]:
        ops = tuple(p.value for p in primals)
        perturbed = tuple(() if p.perturbed else None for p in primals)
        return custom(*ops), (ops, perturbed)

    return forward
