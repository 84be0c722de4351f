"""Fast kernels against their exact twins, on 10^6 float32 and float64 elements, in one run.

For every function of ``chainrules.fastmath`` and both dtypes: the time of its compiled kernel
(``functions.KERNEL_FUNCTIONS``, whether or not it runs here) and of its exact twin
(``fastmath.TWINS``), best of seven rounds of three calls each, interleaved, both allocating
their result, in CPU time of the thread (``time.thread_time``: the machine is shared, and other
work stretches the wall clock far more than this); the speed ratio (twin time over kernel
time); the kernel's measured accuracy against the twin (largest relative error and ulps over
the stated domain, 10^5 points, ``fastmath.accuracy.measure``); what runs here
(``fastmath.choice.of``: kernel or twin, and what decided it); and, as the peer this choice
replaced, what the fixed table measured on one AVX-512 machine ran (``FIXED_TABLE``), with the
time of each. Elementwise functions run on a vector of 10^6 values; softmax, log_softmax and
logsumexp on 1000 x 1000 along the last axis. The first call of each kernel compiles it (or
loads it from numba's cache) and is not timed.

    python benchmarks/fastmath.py

Another instruction set, on the same machine: ``NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512_ICL"``
(NumPy's AVX2 loops) with ``NUMBA_CPU_NAME=znver3 NUMBA_CPU_FEATURES=`` (kernels compiled for
an AVX2 CPU) and a ``NUMBA_CACHE_DIR`` of its own.
"""

from __future__ import annotations

import functools
import time
import timeit

import numpy as np

from chainrules.fastmath import accuracy, choice
from chainrules.fastmath.functions import EXACT, KERNEL_FUNCTIONS

REDUCTIONS = ("softmax", "log_softmax", "logsumexp")
N = 1_000_000
F32, F64 = np.float32, np.float64

# Where the fixed table that the machine's choice replaced ran the kernel (on every machine).
FIXED_TABLE = {
    "exp": (F32,),
    "exp2": (F32,),
    "expm1": (F64,),
    "log": (F32, F64),
    "log2": (F64,),
    "log1p": (F32, F64),
    "sqrt": (F32, F64),
    "rsqrt": (F32, F64),
    "tanh": (F64,),
    "sigmoid": (F32, F64),
    "softplus": (F32, F64),
    "gelu": (F32, F64),
    "erf": (F32,),
    "pow": (),
    "softmax": (F32, F64),
    "log_softmax": (F32, F64),
    "logsumexp": (F32, F64),
}


def arguments(name, dtype):
    rng = np.random.default_rng(0)
    if name in REDUCTIONS:
        return (rng.uniform(-10, 10, (1000, 1000)).astype(dtype),), {"axis": -1}
    lo, hi = accuracy.DOMAINS[name]
    if name in ("log", "log2", "pow"):
        x = np.exp(rng.uniform(np.log(lo), np.log(hi), N))
    else:
        x = rng.uniform(lo, hi, N)
    if name == "pow":
        return (x.astype(dtype), rng.uniform(-4, 4, N).astype(dtype)), {}
    return (x.astype(dtype),), {}


def best_times(calls, repeat=7):
    best = [float("inf")] * len(calls)
    for _ in range(repeat):
        for i, call in enumerate(calls):
            times = timeit.repeat(call, number=1, repeat=3, timer=time.thread_time)
            best[i] = min(best[i], min(times))
    return best


def measure_row(name, dtype):
    """(kernel time, twin time, kernel accuracy) for one function and dtype."""
    kernel, twin = KERNEL_FUNCTIONS[name], EXACT[name]
    args, kwargs = arguments(name, dtype)
    with np.errstate(all="ignore"):
        kernel(*args, **kwargs)  # compile, or load from numba's cache
        t_kernel, t_twin = best_times(
            [functools.partial(kernel, *args, **kwargs), functools.partial(twin, *args, **kwargs)]
        )
        return t_kernel, t_twin, accuracy.measure(name, dtype)


HEADER = (
    "| function | dtype | kernel | exact twin | speed-up | max rel. error | max ulps "
    "| runs here | fixed table ran | fixed table's time / this choice's |\n"
    "|---|---|---|---|---|---|---|---|---|---|"
)


def main():
    rows = []
    for name in EXACT:
        for dtype in (F32, F64):
            rows.append((name, dtype, *measure_row(name, dtype), choice.of(name, dtype)))
    print(HEADER)
    for name, dtype, t_kernel, t_twin, measured, chosen in rows:
        here = f"{'kernel' if chosen.kernel else 'twin'} ({chosen.source})"
        fixed = dtype in FIXED_TABLE[name]
        t_here, t_fixed = (t_kernel if chosen.kernel else t_twin), (t_kernel if fixed else t_twin)
        print(
            f"| {name} | {np.dtype(dtype).name} | {t_kernel * 1e3:.3f} ms | {t_twin * 1e3:.3f} ms "
            f"| {t_twin / t_kernel:.2f} | {measured.max_relative:.1e} | {measured.max_ulps:.1f} "
            f"| {here} | {'kernel' if fixed else 'twin'} | {t_fixed / t_here:.2f} |"
        )


if __name__ == "__main__":
    main()
