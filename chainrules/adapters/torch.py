"""The rules inside PyTorch: ``wrap(f)`` is a torch function whose derivatives are f's rules.

``wrap(f)(*args, **kwargs)`` calls a ``torch.autograd.Function`` whose backward is ``f``'s
rrule and whose ``jvp`` (forward mode) is its frule: under torch.func's transforms one written
with ``setup_context``, with a ``vmap`` rule that maps it over the batch; outside them a
classic one, which torch calls without binding its arguments to a signature. Tensor
arguments of a float or complex dtype are differentiated, also inside lists and tuples
(``np.concatenate([x, y])``: such a call runs on the host, where the reverse engine traces it
into the rule); every other argument is a constant. Results that are Python flags or labels
(``cho_factor``'s ``lower``) come back as they are; a 0-d tensor reaches a host function as a
NumPy scalar.

Where the rule runs is decided once per function, by a probe at its first call:

* **natively**, on the tensors themselves, when the rule and its pullback compute with
  ``array_namespace`` on tensors that carry a graph; double backward is then PyTorch's own
  differentiation of the pullback;
* **on the host** when the rule cannot (NumPy functions, most of ``scipy.special`` and
  ``scipy.linalg``): it has no rule for tensors, gives something other than tensors, or
  raises ``ArrayTypeError``; and always for the methods and properties of ``ndarray``, whose
  rules would call the tensor's method of the same name (``Tensor.repeat`` tiles). The rule
  then runs on NumPy copies on the CPU and the results come back with the inputs' dtype and
  device. Double backward (and every further order) differentiates the pullback with the
  reverse engine, which uses the rules again (gammaln -> digamma -> polygamma). A CUDA tensor
  given to a host function is moved to the CPU and back, with a warning once per function.

On the host, the frule and the pullback each run as an ``autograd.Function`` of their own,
so torch.func's ``jacfwd``, ``hessian`` and ``vmap`` of ``jvp`` map and differentiate them;
results take the dtype torch's functions would give (that of the float tensors, else the
default dtype). ``wrap(f, host=True)`` (or ``False``) skips the probe. PyTorch's complex
convention is the project's (a holomorphic f's pullback is ``conj(f'(z)) * dy``), so
cotangents pass unchanged.
Any other error of a rule reaches the caller as it was raised.

>>> import numpy as np
>>> import pytest
>>> torch = pytest.importorskip("torch")
>>> import scipy.special as sc
>>> gammaln = wrap(sc.gammaln)
>>> x = torch.tensor([3.0], dtype=torch.float64, requires_grad=True)
>>> (g,) = torch.autograd.grad(gammaln(x).sum(), x, create_graph=True)
>>> g  # digamma(3)
tensor([0.9228], dtype=torch.float64, grad_fn=...)
>>> torch.autograd.grad(g.sum(), x)[0]  # trigamma(3)
tensor([0.3949], dtype=torch.float64)
"""

from __future__ import annotations

import contextlib
import functools
import threading
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np

from .._compat import (
    torch_outside_transforms,
    torch_transforms_active,
    torch_unwrapped,
)
from ..core.errors import ArrayTypeError
from ..core.names import function_name
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from ..core.thunks import unthunk
from .flattened import Flattened, holds
from .host import HostFunction
from .torch_values import dense_tensor, is_flag, result_dtype, to_numpy, to_tensor, transformed

__all__ = ["is_host_only", "wrap"]

_native: dict[Any, bool] = {}  # function -> whether its rule runs on tensors
_warned_device: set[Any] = set()
_lock = threading.Lock()


def wrap(f: Callable, *, host: bool | None = None) -> Callable:
    """A torch-callable computing ``f`` whose derivatives of every order come from the rules.

    ``host=None`` probes at the first call whether the rule runs on tensors; ``True`` always
    runs it on NumPy copies, ``False`` always on the tensors.
    """

    @functools.wraps(f)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        if any(holds(a, _is_tensor) for a in args):
            flat = Flattened(f, args)
            leaves = flat.leaves(args)
            return _apply(_Call(flat, kwargs, leaves, True), leaves)
        return _apply(_Call(f, kwargs, args, host), args)

    wrapped.__wrapped__ = f
    return wrapped


def is_host_only(f: Callable) -> bool | None:
    """Whether ``f``'s rule was found to need NumPy copies; ``None`` before its first call."""
    native = _native.get(f)
    return None if native is None else not native


def _is_tensor(value: Any) -> bool:
    import torch

    return isinstance(value, torch.Tensor)


class _Call:
    """What one call of a wrapped function needs besides its tensors."""

    __slots__ = ("active", "f", "host", "host_outputs", "kwargs", "n_args", "pullback", "single")

    def __init__(self, f: Callable, kwargs: dict, args: tuple, host: bool | None) -> None:
        import torch

        self.f = f
        self.kwargs = kwargs
        self.n_args = len(args)
        self.active = tuple(
            i
            for i, a in enumerate(args)
            if isinstance(a, torch.Tensor) and (a.is_floating_point() or a.is_complex())
        )
        if host is None:
            host = not _runs_natively(f, args, kwargs, self.active)
        self.host: HostFunction | None = HostFunction(f, kwargs, self.active) if host else None
        self.pullback: Any = None  # the rule's pullback, once the forward pass has run
        self.single = True
        self.host_outputs = 0

    @classmethod
    def of_host(cls, host: HostFunction, n_args: int) -> _Call:
        """A call of a function that has no rule but is run on the host (a pullback)."""
        call = object.__new__(cls)
        call.f, call.kwargs, call.n_args, call.active = host, {}, n_args, host.active
        call.host, call.pullback, call.single = host, None, True
        call.host_outputs = host.n_outputs
        return call

    def fresh(self) -> _Call:
        """The same call for another batch element (each call keeps its own pullback)."""
        other = object.__new__(_Call)
        for name in _Call.__slots__:
            setattr(other, name, getattr(self, name))
        other.pullback = None
        return other


def _apply(call: _Call, args: tuple) -> Any:
    """``call`` applied to ``args`` through the ``autograd.Function`` for the context.

    Outside torch.func's transforms, the one with a classic ``forward(ctx, ...)``: torch binds
    the arguments of one written with ``setup_context`` to its signature at every call
    (``inspect.signature``, about 20 us), which only the transforms need.
    """
    plain, transformable = _rule_functions()
    function = transformable if torch_transforms_active() else plain
    return function.apply(call, *args)


def _runs_natively(f: Callable, args: tuple, kwargs: dict, active: tuple[int, ...]) -> bool:
    """Probe once whether ``f``'s rule and pullback compute on tensors that carry a graph."""
    known = _native.get(f)
    if known is not None:
        return known
    if getattr(f, "__objclass__", None) is np.ndarray:
        # A method or property of ndarray: on a tensor its rule would call the tensor's
        # method of the same name, which may mean something else (Tensor.repeat tiles).
        ok = False
    else:
        try:
            ok = _probe(f, args, kwargs, active)
        except ArrayTypeError:  # the rule's own word that it needs NumPy arrays
            ok = False
    with _lock:
        _native[f] = ok
    return ok


def _probe(f: Callable, args: tuple, kwargs: dict, active: tuple[int, ...]) -> bool:
    """Whether ``f``'s rule runs on copies of the tensors that require grad.

    The copies are plain tensors and the probe runs outside torch.func's transforms, which
    allow no ``requires_grad_()``: a first call under ``vmap`` or ``grad`` decides as any other.
    """
    import torch

    with torch_outside_transforms(), torch.enable_grad(), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        probe = [torch_unwrapped(a) if isinstance(a, torch.Tensor) else a for a in args]
        for i in active:
            probe[i] = probe[i].detach().clone().requires_grad_(True)
        with _numpy_only_rule(f):
            return _rule_runs_on(f, probe, kwargs, active)


def _rule_runs_on(f: Callable, probe: list, kwargs: dict, active: tuple[int, ...]) -> bool:
    """Whether ``f`` has a rule for ``probe`` that gives tensors in the graph, and a pullback
    that gives tensors (or zeros)."""
    import torch

    found = rrule(f, *probe, **kwargs)
    if found is None:
        return False
    y, pullback = found
    outputs = y if isinstance(y, tuple | list) else (y,)
    if not all(isinstance(o, torch.Tensor) and o.requires_grad for o in outputs):
        return False
    seeds = tuple(torch.ones_like(o) for o in outputs)
    cts = pullback(seeds if isinstance(y, tuple | list) else seeds[0])
    return all(isinstance(unthunk(cts[1 + i]), torch.Tensor | AbstractZero) for i in active)


# torch's refusal, in Tensor.__array__, to give NumPy a tensor that requires grad.
_NUMPY_ON_GRAD_TENSOR = "Can't call numpy() on Tensor that requires grad"


@contextlib.contextmanager
def _numpy_only_rule(f: Callable) -> Iterator[None]:
    """Inside, torch's refusal to hand NumPy a tensor that requires grad is an
    ``ArrayTypeError`` naming ``f``; every other error passes unchanged.

    The library's rules say it themselves (``require_numpy``, ``call``, ``scalar_rule``'s
    ufuncs raise ``ArrayTypeError`` on tensors; the adapter tests check them with this
    recognition switched off). A rule written elsewhere that computes with NumPy directly
    meets a tensor with this refusal, and is read the same way: it runs on NumPy copies.
    """
    try:
        yield
    except RuntimeError as error:
        if _NUMPY_ON_GRAD_TENSOR not in str(error):
            raise
        raise ArrayTypeError(
            f"the rule for {function_name(f)} hands a tensor that requires grad to NumPy"
        ) from error


# ---- results on the device of the inputs --------------------------------------------------


def _reference(call: _Call, args: tuple) -> Any:
    """The tensor whose device the results go back to (the first differentiated one)."""
    import torch

    for a in args:
        if isinstance(a, torch.Tensor):
            if not a.is_cpu and call.f not in _warned_device:
                _warned_device.add(call.f)
                warnings.warn(
                    f"{function_name(call.f)} has no rule that runs on {a.device.type} "
                    "tensors: its rule runs on NumPy copies on the CPU",
                    stacklevel=5,
                )
            return a
    return None


def _as_outputs(y: Any) -> tuple[tuple, bool]:
    if isinstance(y, tuple | list):
        return tuple(y), False
    return (y,), True


# ---- the autograd.Functions ---------------------------------------------------------------
#
# Two Functions share one forward, backward and jvp: a classic ``forward(ctx, ...)`` for calls
# outside torch.func's transforms, and one written with ``setup_context`` (which the
# transforms require) with a ``vmap`` rule. ``_apply`` picks one per call.


@functools.cache
def _rule_functions() -> tuple[Any, Any]:
    """The ``autograd.Function``s: (outside torch.func's transforms, under them)."""
    import torch

    class ChainRulesFunction(torch.autograd.Function):
        """``f`` with its rrule as backward and its frule as jvp."""

        @staticmethod
        def forward(ctx: Any, call: _Call, *args: Any) -> Any:
            outputs = _forward(call, args)
            _keep_inputs(ctx, call, args)
            return outputs

        backward = staticmethod(_backward)
        jvp = staticmethod(_jvp)

    class TransformableChainRulesFunction(torch.autograd.Function):
        """``f`` with its rrule as backward, its frule as jvp and a batch loop as vmap."""

        @staticmethod
        def forward(call: _Call, *args: Any) -> Any:
            return _forward(call, args)

        @staticmethod
        def setup_context(ctx: Any, inputs: tuple, output: Any) -> None:
            _keep_inputs(ctx, inputs[0], inputs[1:])

        backward = staticmethod(_backward)
        jvp = staticmethod(_jvp)
        vmap = staticmethod(_vmap)

    return ChainRulesFunction, TransformableChainRulesFunction


def _forward(call: _Call, args: tuple) -> Any:
    """``f``'s outputs, its pullback kept in ``call``."""
    if call.host is None:
        native = _native_forward(call, args)
        if native is not None:
            return native
        # The probe passed on other arguments; these need NumPy copies.
        call.host = HostFunction(call.f, call.kwargs, call.active)
    like = _reference(call, args)
    y, call.pullback = call.host.vjp(*map(to_numpy, args))
    outputs, call.single = _as_outputs(y)
    call.host.n_outputs = call.host_outputs = 0 if call.single else len(outputs)
    dtype = result_dtype(args)
    tensors = tuple(o if is_flag(o) else to_tensor(o, like, dtype) for o in outputs)
    return tensors[0] if call.single else tensors


def _keep_inputs(ctx: Any, call: _Call, args: tuple) -> None:
    """What backward and jvp need: ``call``, the constants, and the tensors saved by torch."""
    ctx.call = call
    ctx.args = tuple(None if i in call.active else a for i, a in enumerate(args))
    tensors = tuple(args[i] for i in call.active)
    ctx.save_for_backward(*tensors)
    ctx.save_for_forward(*tensors)


def _backward(ctx: Any, *grads: Any) -> Any:
    import torch

    call: _Call = ctx.call
    args = _fill(ctx.args, call.active, ctx.saved_tensors)
    dy = grads[0] if call.single else tuple(grads)
    pullback = call.pullback
    if torch.is_grad_enabled() or (torch_transforms_active() and transformed((*args, *grads))):
        # Differentiable, or under torch.func's transforms: a function of its own, so
        # that vmap sees it batch element by batch element.
        cts = _differentiable_cotangents(call, args, grads, dy)
    elif call.host is None:
        full = pullback(dy)
        cts = tuple(full[1 + i] for i in call.active)
    else:
        cts = pullback(to_numpy(dy) if call.single else tuple(map(to_numpy, dy)))
    out: list[Any] = [None] * (1 + call.n_args)
    for i, ct in zip(call.active, cts, strict=True):
        # A pullback's seed for a flag among the results is None, and takes nothing.
        if isinstance(args[i], torch.Tensor):
            out[1 + i] = dense_tensor(ct, args[i])
    return tuple(out)


def _jvp(ctx: Any, *tangents: Any) -> Any:
    import torch

    call: _Call = ctx.call
    args = _fill(ctx.args, call.active, ctx.saved_tensors)
    dxs = tuple(tangents[1 + i] for i in call.active)
    if call.host is None:
        found = _native_frule(call, args, dxs)
        if found is not None:
            return found
    host = call.host or HostFunction(
        call.f, call.kwargs, call.active, 0 if call.single else call.host_outputs
    )
    # The frule on the host as a function of its own: differentiable again (hessian
    # is jacfwd of jacrev), and mapped element by element under vmap (jacfwd).
    dense = tuple(
        torch.zeros_like(args[i]) if t is None else t for i, t in zip(call.active, dxs, strict=True)
    )
    inner = _Call.of_host(host.jvp_function(call.n_args), call.n_args + len(dense))
    return _apply(inner, (*args, *dense))


def _vmap(info: Any, in_dims: tuple, call: _Call, *args: Any) -> Any:
    import torch

    results = []
    for b in range(info.batch_size):
        sliced = tuple(
            a if d is None else a.select(d, b) for a, d in zip(args, in_dims[1:], strict=True)
        )
        results.append(_apply(call.fresh(), sliced))
    if isinstance(results[0], tuple):
        stacked = tuple(torch.stack(r) for r in zip(*results, strict=True))
        return stacked, (0,) * len(stacked)
    return torch.stack(results), 0


def _native_forward(call: _Call, args: tuple) -> Any:
    """The rule's outputs on the tensors themselves, its pullback kept in ``call``; ``None``
    when the rule cannot compute on these tensors."""
    import torch

    try:
        found = rrule(call.f, *args, **call.kwargs)
    except ArrayTypeError:
        return None
    except RuntimeError as error:  # see _numpy_only_rule, which costs a generator per call
        if _NUMPY_ON_GRAD_TENSOR not in str(error):
            raise
        return None
    if found is None:
        return None
    y, pullback = found
    outputs, single = _as_outputs(y)
    if not all(isinstance(o, torch.Tensor) for o in outputs):
        return None
    call.pullback, call.single = pullback, single
    call.host_outputs = 0 if single else len(outputs)
    # torch gives the returned tensors their grad_fn, which holds ``call`` and so the
    # pullback; the pullback may hold its outputs. Aliases returned in their place keep that
    # cycle (which Python's collector cannot see through torch's graph) from forming.
    outputs = tuple(o.detach() for o in outputs)
    return outputs[0] if single else outputs


def _fill(args: tuple, active: tuple[int, ...], tensors: tuple) -> tuple:
    full = list(args)
    for i, t in zip(active, tensors, strict=True):
        full[i] = t
    return tuple(full)


def _differentiable_cotangents(call: _Call, args: tuple, grads: tuple, dy: Any) -> tuple:
    """Cotangents that PyTorch can differentiate again (``create_graph=True``)."""
    if call.host is None:
        _, pullback = rrule(call.f, *args, **call.kwargs)
        full = pullback(dy)
        return tuple(full[1 + i] for i in call.active)
    inner = _Call.of_host(call.host.pullback_function(call.n_args), call.n_args + len(grads))
    cts = _apply(inner, (*args, *grads))
    return cts if isinstance(cts, tuple) else (cts,)


def _native_frule(call: _Call, args: tuple, dxs: tuple) -> Any:
    tangents: list[Any] = [ZERO_TANGENT] * call.n_args
    for i, t in zip(call.active, dxs, strict=True):
        tangents[i] = ZERO_TANGENT if t is None else t
    found = frule((NO_TANGENT, *tangents), call.f, *args, **call.kwargs)
    if found is None:
        return None
    y, dy = found
    if call.single:
        return dense_tensor(dy, y) if not isinstance(dy, AbstractZero) else y * 0
    return tuple(
        d if not isinstance(d, AbstractZero) else o * 0 for d, o in zip(dy, y, strict=True)
    )
