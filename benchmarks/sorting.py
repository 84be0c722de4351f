"""The sort rule against ``np.sort``, and the ways to its permutation, in one run.

For float64 and float32 values (normal, and rounded to one decimal: many ties), at 10^3 and
10^6 elements and on a 1000 x 1000 array along each axis, every time is over ``np.sort``'s
in the same run, best of five interleaved rounds (at 10^3, of fifteen rounds of 100 calls), in
CPU time of the thread (``time.thread_time``: the machine is shared, and other work stretches
the wall clock far more than it stretches this):

* peers: ``np.argsort`` (NumPy's default kind), ``np.argsort(kind="stable")``, and PyTorch's
  ``torch.sort(stable=True)`` (values and indices, one thread);
* ways to the stable permutation and the sorted values: the previous rule's (the unstable
  argsort, a gather and a check for ties, redone with the stable argsort where there are
  ties), the stable argsort and a gather, and the packed keys of
  ``chainrules.rules.numpy.permutations.stable_order``;
* the rule: ``y, pullback = rrule(np.sort, x, axis=...); pullback(dy)``, and the previous
  rule's work done by hand (its permutation, then ``put_along_axis`` of the cotangent), which
  leaves out the cost of calling a rule (a few microseconds, which show at 10^3 elements).

    python benchmarks/sorting.py
    PYTHONPATH=<checkout before packed keys> python benchmarks/sorting.py  # the rule before
"""

from __future__ import annotations

import time
import timeit

import numpy as np
from timing import torch_on_one_thread

import chainrules as cr

try:
    from chainrules.rules.numpy.permutations import stable_order
except ImportError:  # a checkout from before packed keys: its rule, measured the same way
    stable_order = None

CASES = [((1000,), 0), ((1_000_000,), 0), ((1000, 1000), 0), ((1000, 1000), 1)]


def previous_order(x, axis):
    """The previous rule's permutation: the unstable argsort, unless the sort has ties."""
    order = np.argsort(x, axis=axis)
    ordered = np.take_along_axis(x, order, axis=axis)
    lanes = np.moveaxis(ordered, axis, -1)
    if not (np.any(lanes[..., 1:] == lanes[..., :-1]) or np.any(np.isnan(lanes[..., -1]))):
        return order, ordered
    order = np.argsort(x, axis=axis, kind="stable")
    return order, np.take_along_axis(x, order, axis=axis)


def previous_rule(x, dy, axis):
    order, ordered = previous_order(x, axis)
    dx = np.empty_like(dy)
    np.put_along_axis(dx, order, dy, axis=axis)
    return ordered, dx


def stable_argsort(x, axis):
    order = np.argsort(x, axis=axis, kind="stable")
    return order, np.take_along_axis(x, order, axis=axis)


def rule(x, dy, axis):
    y, pullback = cr.rrule(np.sort, x, axis=axis)
    return y, pullback(dy)


def best_times(calls, repeat=5, number=1):
    best = dict.fromkeys(calls, float("inf"))
    for call in calls.values():
        call()
    for _ in range(repeat):
        for name, call in calls.items():
            times = timeit.repeat(call, number=number, repeat=1, timer=time.thread_time)
            best[name] = min(best[name], min(times) / number)
    return best


def main():
    torch = torch_on_one_thread()
    rng = np.random.default_rng(0)
    columns = None
    for dtype in (np.float64, np.float32):
        for data in ("normal", "ties"):
            for shape, axis in CASES:
                x = rng.standard_normal(shape)
                x = (np.round(x, 1) if data == "ties" else x).astype(dtype)
                dy = rng.standard_normal(shape).astype(dtype)
                calls = {
                    "np.sort": lambda x=x, a=axis: np.sort(x, axis=a),
                    "argsort": lambda x=x, a=axis: np.argsort(x, axis=a),
                    "argsort stable": lambda x=x, a=axis: np.argsort(x, axis=a, kind="stable"),
                    "previous order": lambda x=x, a=axis: previous_order(x, a),
                    "stable argsort + gather": lambda x=x, a=axis: stable_argsort(x, a),
                    "previous rule": lambda x=x, dy=dy, a=axis: previous_rule(x, dy, a),
                    "rule": lambda x=x, dy=dy, a=axis: rule(x, dy, a),
                }
                if stable_order is not None:
                    calls["packed keys"] = lambda x=x, a=axis: stable_order(x, a)
                if torch is not None:
                    xt = torch.from_numpy(x)
                    calls["torch.sort"] = lambda xt=xt, a=axis: torch.sort(xt, dim=a, stable=True)
                small = x.size <= 1000  # tens of microseconds: timed 100 calls at a time
                best = best_times(calls, repeat=15 if small else 5, number=100 if small else 1)
                if columns is None:
                    columns = [c for c in calls if c != "np.sort"]
                    print("| dtype | data | shape | axis | np.sort | " + " | ".join(columns) + " |")
                    print("|---" * (5 + len(columns)) + "|")
                base = best["np.sort"]
                ratios = " | ".join(f"{best[c] / base:.2f}" for c in columns)
                print(
                    f"| {np.dtype(dtype).name} | {data} | {'x'.join(map(str, shape))} | {axis} "
                    f"| {base * 1e3:.3f} ms | {ratios} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
