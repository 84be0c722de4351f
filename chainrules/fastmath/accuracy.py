"""The stated accuracy of each fast function, its exact twin, and how accuracy is measured.

``ACCURACY[name][dtype]`` is the largest relative error and the largest error in units in
the last place (ulps of the twin's result) of the function's compiled kernel, measured against
the exact twin over ``DOMAINS[name]`` (10**5 points, log-spaced for ``pow``'s base); the tests
measure every kernel again, whether or not it runs here, and fail if one does worse. The bound
holds whichever of the two runs (``choice``): the twin's own error is 0.

``TWINS`` maps each public fast function to its exact twin.

**The same bounds on every x86-64 CPU.** The kernels are compiled for the CPU they run on, from
correctly rounded operations only (``+ - * /``, ``sqrt``, and ``fma`` where the CPU has it:
``rsqrt`` is compiled without the flags that would let LLVM use the CPU's reciprocal
estimates, and the polynomial coefficients are frozen numbers, not fitted on the machine). So a
kernel's results depend on one thing only, whether multiply-adds are fused: they are bit for
bit the same on every CPU with FMA, and on every CPU without. The tests compile the kernels for
the x86-64 baseline (no FMA) and for Haswell (FMA), measure both against these bounds, and
check that the kernels of the machine they run on match one of the two bit for bit. The float32
bounds hold on every float32 of the domain, with FMA and without (``measure_every_float32``;
the maxima are in docs/fastmath.md); the float64 bounds are maxima over 10**5 points, rounded
up. ``rsqrt``'s is derived: ``sqrt`` and the division each round once, so the relative error is
at most ``2 u`` (``u`` the unit roundoff), and the error at most 2 ulps.

>>> import numpy as np
>>> from chainrules import fastmath
>>> TWINS[fastmath.exp] is np.exp, ACCURACY["exp"][np.float32]
(True, Accuracy(max_relative=1.5e-07, max_ulps=2.0))
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from . import functions
from .functions import EXACT, KERNEL_FUNCTIONS

__all__ = [
    "ACCURACY",
    "CASES",
    "DOMAINS",
    "TWINS",
    "Accuracy",
    "axis_keywords",
    "measure",
    "measure_every_float32",
    "sample",
]


class Accuracy(NamedTuple):
    """A stated bound: largest relative error and largest error in ulps."""

    max_relative: float
    max_ulps: float


TWINS: dict[Any, Any] = {getattr(functions, name): twin for name, twin in EXACT.items()}

# (low, high) of the sampled domain; reductions sample rows of 64 normal values times 10.
DOMAINS: dict[str, tuple[float, float]] = {
    "exp": (-87.0, 88.0),
    "exp2": (-126.0, 127.0),
    "expm1": (-10.0, 10.0),
    "log": (1e-30, 1e30),
    "log2": (1e-30, 1e30),
    "log1p": (-0.99, 100.0),
    "sqrt": (0.0, 1e6),
    "rsqrt": (1e-6, 1e6),
    "tanh": (-10.0, 10.0),
    "sigmoid": (-80.0, 80.0),
    "softplus": (-80.0, 80.0),
    "gelu": (-8.0, 8.0),
    "erf": (-5.0, 5.0),
    "pow": (1e-3, 1e3),  # base; the exponent is uniform in [-4, 4]
    "softmax": (-10.0, 10.0),
    "log_softmax": (-10.0, 10.0),
    "logsumexp": (-10.0, 10.0),
}

_A = Accuracy
ACCURACY: dict[str, dict[type, Accuracy]] = {
    "exp": {np.float32: _A(1.5e-7, 2.0), np.float64: _A(4e-15, 32.0)},
    "exp2": {np.float32: _A(1.5e-7, 2.0), np.float64: _A(1e-15, 6.0)},
    "expm1": {np.float32: _A(2e-7, 3.0), np.float64: _A(3e-15, 20.0)},
    "log": {np.float32: _A(2.5e-7, 3.0), np.float64: _A(3e-15, 20.0)},
    "log2": {np.float32: _A(3e-7, 4.0), np.float64: _A(3e-15, 20.0)},
    "log1p": {np.float32: _A(3e-7, 4.0), np.float64: _A(3e-15, 20.0)},
    "sqrt": {np.float32: _A(6e-8, 0.5), np.float64: _A(1.2e-16, 0.5)},
    # sqrt, then a division, each correctly rounded: at most 2 u relative, 2 ulps (derived)
    "rsqrt": {np.float32: _A(1.2e-7, 2.0), np.float64: _A(2.23e-16, 2.0)},
    "tanh": {np.float32: _A(2.5e-7, 4.0), np.float64: _A(3e-15, 16.0)},
    "sigmoid": {np.float32: _A(2.5e-7, 3.0), np.float64: _A(5e-15, 32.0)},
    "softplus": {np.float32: _A(4e-7, 5.0), np.float64: _A(6e-15, 40.0)},
    # x / (1 + exp(-2z)): exp amplifies the rounding of z by |2z|, as for the twin
    "gelu": {np.float32: _A(1e-5, 128.0), np.float64: _A(2e-14, 128.0)},
    "erf": {np.float32: _A(2.5e-7, 3.0), np.float64: _A(1.5e-14, 128.0)},
    # exp(p log x): the rounding of log x, up to 7 in size, is amplified by |p| <= 4
    "pow": {np.float32: _A(2.5e-6, 40.0), np.float64: _A(4e-15, 32.0)},
    # exp(x - max): the rounding of x - max, up to 20 in size, dominates, as for the twin
    "softmax": {np.float32: _A(2e-6, 24.0), np.float64: _A(3e-15, 24.0)},
    "log_softmax": {np.float32: _A(1.2e-6, 16.0), np.float64: _A(3e-15, 16.0)},
    "logsumexp": {np.float32: _A(1e-7, 1.0), np.float64: _A(3e-16, 2.0)},
}


def sample(name: str, dtype: type, n: int = 10**5, seed: int = 0) -> tuple[np.ndarray, ...]:
    """Arguments of ``name`` drawn from its domain, in ``dtype``."""
    rng = np.random.default_rng(seed)
    lo, hi = DOMAINS[name]
    if name in ("log", "log2", "pow"):
        x = np.exp(rng.uniform(np.log(lo), np.log(hi), n))
    elif name in ("softmax", "log_softmax", "logsumexp"):
        x = rng.uniform(lo, hi, (max(n // 64, 1), 64))
    else:
        x = rng.uniform(lo, hi, n)
    if name == "pow":
        return x.astype(dtype), rng.uniform(-4.0, 4.0, n).astype(dtype)
    return (x.astype(dtype),)


def measure(name: str, dtype: type, n: int = 10**5, f: Any = None) -> Accuracy:
    """The largest relative error and ulps of ``name``'s kernel (or of ``f``) against its twin
    on ``sample``.

    The reference is the twin computed in float64 for float32 input, and in long double
    where NumPy has it for float64 input (else float64, which makes the bound include the
    twin's own rounding).
    """
    return _errors(name, dtype, sample(name, dtype, n), f)


def measure_every_float32(
    name: str, low: float | None = None, high: float | None = None
) -> Accuracy:
    """``measure`` over every float32 in ``[low, high]`` (by default ``DOMAINS[name]``), for the
    elementwise functions of one argument: what the float32 bounds of ``ACCURACY`` are.

    The floats are enumerated by their bit patterns, 2**24 at a time; a whole domain takes a
    minute or so (a billion floats).
    """
    lo, hi = DOMAINS[name]
    lo, hi = np.float32(lo if low is None else low), np.float32(hi if high is None else high)
    worst = Accuracy(0.0, 0.0)
    for x in _floats_between(lo, hi):
        found = _errors(name, np.float32, (x,), None)
        worst = Accuracy(max(worst[0], found[0]), max(worst[1], found[1]))
    return worst


def _floats_between(lo: Any, hi: Any, chunk: int = 1 << 24) -> Any:
    """Every float32 in ``[lo, hi]``, in arrays of at most ``chunk``: by bit pattern, the
    magnitudes of the negative ones and the positive ones counted up."""
    spans = []
    if lo < 0:
        spans.append((np.abs(min(hi, np.float32(-0.0))), np.abs(lo), -1))
    if hi >= 0:
        spans.append((max(lo, np.float32(0.0)), hi, 1))
    for first, last, sign in spans:
        a, b = int(np.float32(first).view(np.int32)), int(np.float32(last).view(np.int32))
        for start in range(a, b + 1, chunk):
            x = np.arange(start, min(start + chunk, b + 1), dtype=np.int32).view(np.float32)
            yield x if sign > 0 else -x


def _errors(name: str, dtype: type, args: tuple, f: Any) -> Accuracy:
    f = KERNEL_FUNCTIONS[name] if f is None else f
    fast = np.asarray(f(*args, **axis_keywords(name)), dtype=np.float64)
    wide = np.longdouble if dtype is np.float64 and name in _LONG_DOUBLE else np.float64
    ref = np.asarray(EXACT[name](*[a.astype(wide) for a in args], **axis_keywords(name)))
    err = np.abs(fast - ref).astype(np.float64)
    scale = np.abs(ref).astype(np.float64)
    tiny = float(np.finfo(dtype).smallest_normal)
    ulp = np.spacing(np.maximum(scale, tiny).astype(dtype)).astype(np.float64)
    return Accuracy(float(np.max(err / np.maximum(scale, tiny))), float(np.max(err / ulp)))


_LONG_DOUBLE = {"exp", "expm1", "log", "log2", "log1p", "sqrt", "rsqrt", "tanh", "pow"}


def axis_keywords(name: str) -> dict[str, Any]:
    """The keywords ``name`` is measured with: the last axis for the reductions."""
    return {"axis": -1} if name in ("softmax", "log_softmax", "logsumexp") else {}


# (name, dtype) of every compiled kernel
CASES: tuple[tuple[str, type], ...] = tuple(
    (name, dtype) for name in EXACT for dtype in (np.float32, np.float64)
)
