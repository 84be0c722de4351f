"""Cost of calling a rule through the registry, against hand-written code doing the same work.

Each row times ``y, pullback = rrule(f, *args); pullback(dy)`` (thunks unthunked) against a
hand-written function that computes the same value and the same cotangents with the same
NumPy calls, and reports the overhead (the difference) and the ratio. Both are timed in the
same run, in turns, best of several rounds, so that load on the machine hits both alike.

The rows: the elementwise rules of ``scalar_rule`` (unary and binary, with broadcasting),
reductions, products, indexing and shape functions, and a ``scipy.special`` function, at
sizes where the Python around the NumPy call is what costs.

    python benchmarks/dispatch.py            # wall-clock time (a quiet machine)
    python benchmarks/dispatch.py --cpu      # CPU time of this process (a loaded machine)
    python benchmarks/dispatch.py sin sum    # only the rows whose name contains these

To compare two versions of chainrules in one sitting, run it under each:
``PYTHONPATH=<a checkout of the other commit> python benchmarks/dispatch.py``.
"""

from __future__ import annotations

import sys
import time
import timeit

import numpy as np
import scipy.special as sc

import chainrules as cr

x0, dy0 = np.array(0.7), np.array(1.3)
m, v, dm = np.full((100, 10), 0.5), np.full(10, 0.25), np.ones((100, 10))
k, s = np.linspace(0.1, 1.0, 1000), np.linspace(-1.0, 1.0, 1000)
a4, b4, d4 = np.eye(4) + 0.5, np.eye(4) * 2.0, np.ones((4, 4))
idx = np.array([3, 1, 4, 1, 5])


def by_rule(f, *args, dy, **kwargs):
    """Value and cotangents through the rule: a function timing them, which unthunks the
    cotangents when the rule gives thunks (as a consumer must, to have the numbers)."""
    _, pullback = cr.rrule(f, *args, **kwargs)
    if any(isinstance(c, cr.Thunk | cr.InplaceableThunk) for c in pullback(dy)):

        def rule_and_unthunk():
            y, pullback = cr.rrule(f, *args, **kwargs)
            return y, tuple(map(cr.unthunk, pullback(dy)))

        return rule_and_unthunk

    def rule():
        y, pullback = cr.rrule(f, *args, **kwargs)
        return y, pullback(dy)

    return rule


# (name, input, hand-written, through the rule): each hand-written function computes the
# value and every cotangent the pullback returns, as a rule author would inline them.
CASES = [
    (
        "sin",
        "Python float",
        lambda: (np.sin(0.7), 1.3 * np.cos(0.7)),
        by_rule(np.sin, 0.7, dy=1.3),
    ),
    (
        "sin",
        "0-d array",
        lambda: (np.sin(x0), dy0 * np.cos(x0)),
        by_rule(np.sin, x0, dy=dy0),
    ),
    ("sin", "1,000", lambda: (np.sin(k), s * np.cos(k)), by_rule(np.sin, k, dy=s)),
    ("exp", "0-d array", lambda: (y := np.exp(x0), dy0 * y), by_rule(np.exp, x0, dy=dy0)),
    (
        "multiply",
        "0-d arrays",
        lambda: (x0 * dy0, dy0 * dy0, dy0 * x0),
        by_rule(np.multiply, x0, dy0, dy=dy0),
    ),
    (
        "multiply",
        "(100,10) * (10,)",
        lambda: (m * v, dm * v, (dm * m).sum(axis=0)),
        by_rule(np.multiply, m, v, dy=dm),
    ),
    (
        "add",
        "(100,10) + (10,)",
        lambda: (m + v, dm, dm.sum(axis=0)),
        by_rule(np.add, m, v, dy=dm),
    ),
    (
        "sum",
        "1,000",
        lambda: (np.sum(k), np.broadcast_to(1.0, k.shape)),
        by_rule(np.sum, k, dy=1.0),
    ),
    (
        "sum",
        "(100,10), axis=0",
        lambda: (np.sum(m, axis=0), np.broadcast_to(v, m.shape)),
        by_rule(np.sum, m, axis=0, dy=v),
    ),
    (
        "mean",
        "1,000",
        lambda: (np.mean(k), np.broadcast_to(1.0 / k.size, k.shape)),
        by_rule(np.mean, k, dy=1.0),
    ),
    (
        "max",
        "1,000",
        lambda: (y := np.max(k), np.where(k == y, 1.0, 0.0)),
        by_rule(np.max, k, dy=1.0),
    ),
    (
        "matmul",
        "4x4 @ 4x4",
        lambda: (a4 @ b4, d4 @ b4.T, a4.T @ d4),
        by_rule(np.matmul, a4, b4, dy=d4),
    ),
    (
        "matmul",
        "(100,10) @ (10,)",
        lambda: (m @ v, np.multiply.outer(k[:100], v), m.T @ k[:100]),
        by_rule(np.matmul, m, v, dy=k[:100]),
    ),
    (
        "getitem",
        "x[3]",
        lambda: (k[3], np.zeros_like(k).__setitem__(3, 1.0)),
        by_rule(np.ndarray.__getitem__, k, 3, dy=1.0),
    ),
    (
        "getitem",
        "x[idx]",
        lambda: (k[idx], np.add.at(np.zeros_like(k), idx, s[:5])),
        by_rule(np.ndarray.__getitem__, k, idx, dy=s[:5]),
    ),
    (
        "reshape",
        "(100,10) -> (1000,)",
        lambda: (np.reshape(m, (1000,)), np.reshape(s, (100, 10))),
        by_rule(np.reshape, m, (1000,), dy=s),
    ),
    (
        "transpose",
        "(100,10)",
        lambda: (np.transpose(m), np.transpose(dm.T)),
        by_rule(np.transpose, m, dy=dm.T),
    ),
    (
        "gammaln",
        "0-d array",
        lambda: (sc.gammaln(x0), dy0 * sc.digamma(x0)),
        by_rule(sc.gammaln, x0, dy=dy0),
    ),
]


def best_times(contenders, number, rounds, timer):
    """The best time per call of each contender, timed in turns."""
    for fn in contenders:
        fn()  # caches warm
    best = [float("inf")] * len(contenders)
    for _ in range(rounds):
        for i, fn in enumerate(contenders):
            best[i] = min(best[i], timeit.timeit(fn, number=number, timer=timer) / number)
    return best


def main(argv: list[str]) -> None:
    timer = time.process_time if "--cpu" in argv else time.perf_counter
    rounds = 30 if "--cpu" in argv else 9  # the least disturbed of more rounds when loaded
    only = [a for a in argv if not a.startswith("--")]  # rows whose name contains one of these
    print(f"chainrules from {cr.__file__}; timer: {timer.__name__}")
    print("| rule | input | hand-written | rrule + pullback | overhead | ratio |")
    print("|---|---|---:|---:|---:|---:|")
    for name, what, by_hand, through_rule in CASES:
        if only and not any(o in f"{name} {what}" for o in only):
            continue
        base, timed = best_times((by_hand, through_rule), number=2000, rounds=rounds, timer=timer)
        print(
            f"| {name} | {what} | {base * 1e6:.2f} us | {timed * 1e6:.2f} us "
            f"| {(timed - base) * 1e6:+.2f} us | {timed / base:.2f} |"
        )


if __name__ == "__main__":
    main(sys.argv[1:])
