"""The public fast functions: dtype handling, dispatch, and the kernel or twin that computes them.

Every function takes real input (float32 stays float32; float64, integers and Python numbers
compute in float64) and returns what its exact twin returns (``TWINS`` in ``accuracy``), to
the stated accuracy. For each dtype it runs either its compiled kernel or the twin itself,
whichever this machine runs faster (``choice``); ``KERNEL_FUNCTIONS`` compute with the kernel
whatever the choice, for the accuracy tests and the calibration that measure kernels.

Arrays of other libraries that speak NumPy's ``__array_function__`` protocol (an AD engine's
tracked values) receive the call through it, so an engine applies the function's rule rather
than running the kernel on its values.

>>> import numpy as np
>>> exp(np.zeros(2, np.float32))
array([1., 1.], dtype=float32)
>>> softmax(np.log([1.0, 3.0]))
array([0.25, 0.75])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from . import exact
from .choice import CHOSEN, of

__all__ = [
    "EXACT",
    "KERNEL_FUNCTIONS",
    "erf",
    "exp",
    "exp2",
    "expm1",
    "gelu",
    "log",
    "log1p",
    "log2",
    "log_softmax",
    "logsumexp",
    "pow",
    "rsqrt",
    "sigmoid",
    "softmax",
    "softplus",
    "sqrt",
    "tanh",
]

F32, F64 = np.float32, np.float64

# The exact twin of each function, by name.
EXACT: dict[str, Callable[..., Any]] = {
    "exp": np.exp,
    "exp2": np.exp2,
    "expm1": np.expm1,
    "log": np.log,
    "log2": np.log2,
    "log1p": np.log1p,
    "sqrt": np.sqrt,
    "rsqrt": exact.rsqrt,
    "tanh": np.tanh,
    "sigmoid": sc.expit,
    "softplus": exact.softplus,
    "gelu": exact.gelu,
    "erf": sc.erf,
    "pow": np.power,
    "softmax": sc.softmax,
    "log_softmax": sc.log_softmax,
    "logsumexp": sc.logsumexp,
}


@functools.cache
def _loops(dtype: type) -> dict[str, Callable]:
    from ._kernels import COMPILED, kernels  # numba is imported, loops compiled, on first use

    if COMPILED:
        return kernels(dtype)
    # As plain Python, the loops' NumPy scalars would warn where IEEE results are intended.
    return {name: _quiet(loop) for name, loop in kernels(dtype).items()}


def _quiet(loop: Callable) -> Callable:
    def quiet_loop(*args: Any) -> None:
        with np.errstate(all="ignore"):
            loop(*args)

    return quiet_loop


def _deferred(public: Callable, args: tuple, kwargs: dict) -> Any:
    """The result of an argument's ``__array_function__``, or ``NotImplemented`` if none."""
    for a in args:
        cls = type(a)
        if isinstance(a, np.ndarray | int | float | np.generic):  # subclasses: computed as arrays
            continue
        method = getattr(cls, "__array_function__", None)
        if method is not None:
            types = tuple({type(b) for b in args if hasattr(type(b), "__array_function__")})
            return method(a, public, types, args, kwargs)
    return NotImplemented


def _real_array(x: Any, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.dtype == F32 or a.dtype == F64:
        return np.asarray(a, order="C")
    if a.dtype.kind in "biuf":
        return np.asarray(a, dtype=F64, order="C")
    raise TypeError(f"chainrules.fastmath.{name} takes real input, not {a.dtype}")


def _elementwise(public: Callable, name: str, *args: Any) -> Any:
    deferred = _deferred(public, args, {})
    if deferred is not NotImplemented:
        return deferred
    arrays, dtype = _real_arrays(name, args)
    if not _kernel_runs(name, dtype):
        return EXACT[name](*[a.astype(dtype, copy=False) for a in arrays])
    return _elementwise_kernel(name, dtype, arrays)


def _kernel_runs(name: str, dtype: type) -> bool:
    """Whether ``name``'s kernel computes ``dtype`` here: decided once, then a dict lookup."""
    runs = CHOSEN.get((name, dtype))
    return of(name, dtype).kernel if runs is None else runs


def _real_arrays(name: str, args: tuple) -> tuple[list[np.ndarray], type]:
    """The arguments as real arrays, and the dtype they compute in."""
    arrays = [_real_array(a, name) for a in args]
    common = np.result_type(*args) if len(args) > 1 else arrays[0].dtype
    return arrays, F32 if common == F32 else F64


def _elementwise_kernel(name: str, dtype: type, arrays: list[np.ndarray]) -> Any:
    if len(arrays) > 1:
        arrays = [np.asarray(a, dtype=dtype, order="C") for a in np.broadcast_arrays(*arrays)]
    out = np.empty(arrays[0].shape, dtype)
    _loops(dtype)[name](*[a.reshape(-1) for a in arrays], out.reshape(-1))
    return out if out.ndim else out[()]


def exp(x: Any) -> Any:
    """Fast ``np.exp``."""
    return _elementwise(exp, "exp", x)


def exp2(x: Any) -> Any:
    """Fast ``np.exp2``."""
    return _elementwise(exp2, "exp2", x)


def expm1(x: Any) -> Any:
    """Fast ``np.expm1``."""
    return _elementwise(expm1, "expm1", x)


def log(x: Any) -> Any:
    """Fast ``np.log``."""
    return _elementwise(log, "log", x)


def log2(x: Any) -> Any:
    """Fast ``np.log2``."""
    return _elementwise(log2, "log2", x)


def log1p(x: Any) -> Any:
    """Fast ``np.log1p``."""
    return _elementwise(log1p, "log1p", x)


def sqrt(x: Any) -> Any:
    """Fast ``np.sqrt``."""
    return _elementwise(sqrt, "sqrt", x)


def rsqrt(x: Any) -> Any:
    """Fast ``1 / np.sqrt(x)`` (twin: ``exact.rsqrt``)."""
    return _elementwise(rsqrt, "rsqrt", x)


def tanh(x: Any) -> Any:
    """Fast ``np.tanh``."""
    return _elementwise(tanh, "tanh", x)


def sigmoid(x: Any) -> Any:
    """Fast ``scipy.special.expit``, the logistic sigmoid."""
    return _elementwise(sigmoid, "sigmoid", x)


def softplus(x: Any) -> Any:
    """Fast ``log(1 + exp(x))`` (twin: ``exact.softplus``)."""
    return _elementwise(softplus, "softplus", x)


def gelu(x: Any) -> Any:
    """Fast GELU in its tanh form (twin: ``exact.gelu``)."""
    return _elementwise(gelu, "gelu", x)


def erf(x: Any) -> Any:
    """Fast ``scipy.special.erf``."""
    return _elementwise(erf, "erf", x)


def pow(x: Any, p: Any) -> Any:
    """``np.power(x, p)``, broadcasting; where its kernel runs (``choice``), computed as
    exp(p log x) for bases x >= 0, and a negative base gives NaN."""
    return _elementwise(pow, "pow", x, p)


# ---- reductions over an axis ----------------------------------------------------------------


def _rows(a: np.ndarray, axis: Any) -> tuple[np.ndarray, tuple[int, ...]]:
    """``a`` as contiguous rows along ``axis`` (None: one row), and the moved shape."""
    if axis is None:
        return a.reshape(1, -1), a.shape
    moved = np.moveaxis(a, axis, -1)
    return np.ascontiguousarray(moved).reshape(-1, moved.shape[-1]), moved.shape


def _unrows(rows: np.ndarray, shape: tuple[int, ...], axis: Any) -> np.ndarray:
    out = rows.reshape(shape)
    return out if axis is None else np.moveaxis(out, -1, axis)


def _exp_shifted(a: np.ndarray, axis: Any) -> tuple[np.ndarray, np.ndarray, tuple[int, ...]]:
    """(exp(rows - m), m) with m each row's maximum (0 where it is not finite)."""
    rows, shape = _rows(a, axis)
    m = rows.max(axis=1)
    m = np.where(np.isfinite(m), m, 0).astype(a.dtype)
    e = np.empty_like(rows)
    _loops(F32 if a.dtype == F32 else F64)["exp_shifted"](rows, m, e)
    return e, m, shape


def _reduction(
    public: Callable, name: str, x: Any, axis: Any, kernel: bool = False, **kwargs: Any
) -> Any:
    """``("array", a)`` when the kernel is to compute ``x`` as the real array ``a``, else
    ``("result", the result)``; ``kernel``: the kernel wherever it can run, whatever the choice.
    """
    deferred = _deferred(public, (x,), {"axis": axis, **kwargs})
    if deferred is not NotImplemented:
        return ("result", deferred)
    a = _real_array(x, name)
    runs = kernel or _kernel_runs(name, a.dtype.type)
    if not runs or a.size == 0 or a.ndim == 0:
        return ("result", EXACT[name](a, axis=axis, **kwargs))
    if axis is not None and not isinstance(axis, int | np.integer):
        raise TypeError(f"chainrules.fastmath.{name}: axis must be an int or None, not {axis!r}")
    return ("array", a)


def softmax(x: Any, axis: Any = None) -> Any:
    """Fast ``scipy.special.softmax`` over ``axis`` (None: all elements)."""
    return _softmax(x, axis, False)


def _softmax(x: Any, axis: Any, kernel: bool) -> Any:
    kind, a = _reduction(softmax, "softmax", x, axis, kernel)
    if kind != "array":
        return a
    e, _, shape = _exp_shifted(a, axis)
    e *= (1 / e.sum(axis=1, keepdims=True)).astype(a.dtype)
    return _unrows(e, shape, axis)


def log_softmax(x: Any, axis: Any = None) -> Any:
    """Fast ``scipy.special.log_softmax`` over ``axis`` (None: all elements)."""
    return _log_softmax(x, axis, False)


def _log_softmax(x: Any, axis: Any, kernel: bool) -> Any:
    kind, a = _reduction(log_softmax, "log_softmax", x, axis, kernel)
    if kind != "array":
        return a
    e, m, shape = _exp_shifted(a, axis)
    rows, _ = _rows(a, axis)
    with np.errstate(divide="ignore"):  # a row of -inf sums to 0: its log is -inf
        out = rows - (m + np.log(e.sum(axis=1)))[:, None]
    return _unrows(out, shape, axis)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    """Fast ``scipy.special.logsumexp`` over ``axis`` (None: all elements)."""
    return _logsumexp(x, axis, keepdims, False)


def _logsumexp(x: Any, axis: Any, keepdims: bool, kernel: bool) -> Any:
    kind, a = _reduction(logsumexp, "logsumexp", x, axis, kernel, keepdims=keepdims)
    if kind != "array":
        return a
    e, m, shape = _exp_shifted(a, axis)
    with np.errstate(divide="ignore"):  # a row of -inf sums to 0: its log is -inf
        y = (m + np.log(e.sum(axis=1))).reshape(shape[:-1] if axis is not None else ())
    if keepdims:
        y = np.expand_dims(y, tuple(range(a.ndim)) if axis is None else axis)
    return y if y.ndim else y[()]


# ---- the kernels, whatever the choice -------------------------------------------------------


def _by_kernel(name: str) -> Callable[..., Any]:
    def kernel_function(*args: Any) -> Any:
        arrays, dtype = _real_arrays(name, args)
        return _elementwise_kernel(name, dtype, arrays)

    kernel_function.__name__ = kernel_function.__qualname__ = f"{name}_kernel"
    return kernel_function


def _softmax_kernel(x: Any, axis: Any = None) -> Any:
    return _softmax(x, axis, True)


def _log_softmax_kernel(x: Any, axis: Any = None) -> Any:
    return _log_softmax(x, axis, True)


def _logsumexp_kernel(x: Any, axis: Any = None, keepdims: bool = False) -> Any:
    return _logsumexp(x, axis, keepdims, True)


# Each function computed by its compiled kernel (in Python where numba is absent), whatever
# runs for the public function: what the accuracy tests and the calibration measure.
KERNEL_FUNCTIONS: dict[str, Callable[..., Any]] = {
    **{name: _by_kernel(name) for name in EXACT if "softmax" not in name and name != "logsumexp"},
    "softmax": _softmax_kernel,
    "log_softmax": _log_softmax_kernel,
    "logsumexp": _logsumexp_kernel,
}
