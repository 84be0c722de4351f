"""Fast kernels against their exact twins, on 10^6 float32 and float64 elements, in one run.

For every function of ``chainrules.fastmath`` and both dtypes: the time of its compiled
kernel and of its exact twin (``fastmath.TWINS``), best of seven repeats each, interleaved,
both allocating their result; the speed ratio (twin time over kernel time); the kernel's
measured accuracy against the twin (largest relative error and ulps over the stated domain,
10^5 points, ``fastmath.accuracy.measure``); and whether the kernel is used. A kernel is
used only where it is at least 10% faster than the twin; elsewhere the function computes
its twin (``functions.KERNEL_DTYPES``) and the row says "removed". Elementwise functions run
on a vector of 10^6 values, softmax, log_softmax and logsumexp on 1000 x 1000 along the last
axis. The first call of each kernel compiles it (or loads it from numba's cache) and is not
timed.

    python benchmarks/fastmath.py
"""

from __future__ import annotations

import contextlib
import functools
import timeit

import numpy as np

from chainrules import fastmath
from chainrules.fastmath import accuracy, functions

REDUCTIONS = ("softmax", "log_softmax", "logsumexp")
N = 1_000_000


@contextlib.contextmanager
def every_kernel():
    """Run the compiled kernel for every function and dtype, used or removed."""
    saved = dict(functions.KERNEL_DTYPES)
    functions.KERNEL_DTYPES.update({name: (np.float32, np.float64) for name in saved})
    try:
        yield
    finally:
        functions.KERNEL_DTYPES.update(saved)


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
            best[i] = min(best[i], min(timeit.repeat(call, number=1, repeat=3)))
    return best


def measure_row(name, dtype):
    """(kernel time, twin time, kernel accuracy) for one function and dtype."""
    fast, twin = getattr(fastmath, name), functions.EXACT[name]
    args, kwargs = arguments(name, dtype)
    with np.errstate(all="ignore"):
        fast(*args, **kwargs)  # compile, or load from numba's cache
        t_fast, t_twin = best_times(
            [functools.partial(fast, *args, **kwargs), functools.partial(twin, *args, **kwargs)]
        )
        return t_fast, t_twin, accuracy.measure(name, dtype, f=fast)


HEADER = (
    "| function | dtype | kernel | exact twin | speed-up | max rel. error | max ulps | kernel |\n"
    "|---|---|---|---|---|---|---|---|"
)


def main():
    rows = []
    with every_kernel():
        for name in functions.KERNEL_DTYPES:
            for dtype in (np.float32, np.float64):
                rows.append((name, dtype, *measure_row(name, dtype)))
    print(HEADER)
    for name, dtype, t_fast, t_twin, measured in rows:
        used = "used" if dtype in functions.KERNEL_DTYPES[name] else "removed: twin"
        print(
            f"| {name} | {np.dtype(dtype).name} | {t_fast * 1e3:.3f} ms | {t_twin * 1e3:.3f} ms "
            f"| {t_twin / t_fast:.2f} | {measured.max_relative:.1e} | {measured.max_ulps:.1f} "
            f"| {used} |"
        )


if __name__ == "__main__":
    main()
