"""Value-and-pullback time over value time for einsum, indexing and rfft, at about 10^6 elements.

For each case: ``y, pullback = rrule(f, *args); pullback(dy)`` against ``f(*args)`` alone (aim:
3 or less). For indexing with repeated integer indices, the pullback alone is also timed
against its peer in the same run, ``np.add.at`` into zeros (aim: not slower). Cotangents are
unthunked, so every cotangent is computed. Best of seven repeats.

    python benchmarks/arrays.py
"""

from __future__ import annotations

import timeit

import numpy as np

import chainrules as cr

N = 1_000_000
RNG = np.random.default_rng(0)


def normal(*shape):
    return RNG.standard_normal(shape)


def getitem(x, index):
    return x[index]


CASES = [
    # name, function, arguments, keyword arguments
    ("einsum ij,jk->ik", np.einsum, ("ij,jk->ik", normal(1000, 1000), normal(1000, 1000)), {}),
    (
        "einsum ij,jk->ik optimize",
        np.einsum,
        ("ij,jk->ik", normal(1000, 1000), normal(1000, 1000)),
        {"optimize": True},
    ),
    (
        "einsum bij,bjk->bik",
        np.einsum,
        ("bij,bjk->bik", normal(100, 100, 100), normal(100, 100, 100)),
        {},
    ),
    (
        "einsum bij,bjk->bik optimize",
        np.einsum,
        ("bij,bjk->bik", normal(100, 100, 100), normal(100, 100, 100)),
        {"optimize": True},
    ),
    ("x[i] repeated, 1-D", np.ndarray.__getitem__, (normal(N), RNG.integers(0, N, N)), {}),
    (
        "x[i] repeated, rows",
        np.ndarray.__getitem__,
        (normal(1000, 1000), RNG.integers(0, 1000, 1000)),
        {},
    ),
    ("rfft", np.fft.rfft, (normal(N),), {}),
    ("rfft axis=-1", np.fft.rfft, (normal(1000, 1000),), {}),
]


def best_time(fn, number=3):
    return min(timeit.repeat(fn, number=number, repeat=7)) / number


def value_and_pullback(f, args, kwargs, dy):
    y, pullback = cr.rrule(f, *args, **kwargs)
    return y, [cr.unthunk(c) for c in pullback(dy)]


def add_at(x, index, dy):
    dx = np.zeros_like(x)
    np.add.at(dx, index, dy)
    return dx


def main() -> None:
    print(f"{'case':<30}{'value':>11}{'value+pullback':>17}{'ratio':>7}{'np.add.at':>12}")
    for name, f, args, kwargs in CASES:
        call = getitem if f is np.ndarray.__getitem__ else f
        y = call(*args, **kwargs)
        dy = RNG.standard_normal(np.shape(y))
        value = best_time(lambda: call(*args, **kwargs))  # noqa: B023
        both = best_time(lambda: value_and_pullback(f, args, kwargs, dy))  # noqa: B023
        peer = ""
        if f is np.ndarray.__getitem__:
            _, pullback = cr.rrule(f, *args)
            mine = best_time(lambda: pullback(dy))  # noqa: B023
            theirs = best_time(lambda: add_at(*args, dy))  # noqa: B023
            peer = f"{theirs * 1e3:>9.2f} ms  (pullback {mine * 1e3:.2f} ms)"
        print(f"{name:<30}{value * 1e3:>8.2f} ms{both * 1e3:>14.2f} ms{both / value:>7.2f}  {peer}")


if __name__ == "__main__":
    main()
