"""Value-and-pullback time over value time for sum, cumsum and sort, on 10^6 elements.

For each case: ``y, pullback = rrule(f, x, ...); pullback(dy)`` against ``f(x, ...)`` alone (aim:
3 or less). In the same run, two peers do the same work: hand-written NumPy (the least any
rule can do: for sum a broadcast, for cumsum a reversed cumulative sum, for sort a stable
argsort, a gather and a scatter through the inverse permutation) and, when it is installed,
PyTorch's autograd (forward with ``requires_grad`` then ``backward``, on one thread). Best of
seven repeats.

    python benchmarks/reductions.py
"""

from __future__ import annotations

import numpy as np
from timing import best_time, gradient_ratio, torch_on_one_thread

import chainrules as cr

N = 1_000_000


def sum_by_hand(x, dy, axis):
    y = np.sum(x, axis=axis)
    kept = np.expand_dims(dy, axis) if axis is not None else dy
    return y, np.broadcast_to(kept, x.shape)


def cumsum_by_hand(x, dy, axis):
    y = np.cumsum(x, axis=axis)
    return y, np.flip(np.cumsum(np.flip(dy, axis=axis), axis=axis), axis=axis)


def sort_by_hand(x, dy, axis):
    order = np.argsort(x, axis=axis, stable=True)
    y = np.take_along_axis(x, order, axis=axis)
    dx = np.empty_like(dy)
    np.put_along_axis(dx, order, dy, axis=axis)
    return y, dx


CASES = [
    # name, NumPy function, shape, axis, by hand, PyTorch's function and its axis keyword
    ("sum", np.sum, (N,), None, sum_by_hand, "sum", {}),
    ("sum axis=0", np.sum, (1000, 1000), 0, sum_by_hand, "sum", {"dim": 0}),
    ("cumsum", np.cumsum, (N,), 0, cumsum_by_hand, "cumsum", {"dim": 0}),
    ("cumsum axis=1", np.cumsum, (1000, 1000), 1, cumsum_by_hand, "cumsum", {"dim": 1}),
    ("sort", np.sort, (N,), -1, sort_by_hand, "sort", {"dim": -1, "stable": True}),
    ("sort axis=0", np.sort, (1000, 1000), 0, sort_by_hand, "sort", {"dim": 0, "stable": True}),
]


def torch_ratio(name, kwargs, x, dy):
    """PyTorch's value-and-backward time over its value time, or None without PyTorch."""
    torch = torch_on_one_thread()
    if torch is None:
        return None
    f = getattr(torch, name)
    xt, dyt = torch.from_numpy(x), torch.from_numpy(dy)

    def first(y):
        return y.values if name == "sort" else y

    def value():
        with torch.no_grad():
            return f(xt, **kwargs)

    def value_and_gradient():
        xg = xt.detach().requires_grad_()
        y = first(f(xg, **kwargs))
        y.backward(dyt)
        return y, xg.grad

    return gradient_ratio(value, value_and_gradient, number=3)


def main() -> None:
    rng = np.random.default_rng(0)
    print(f"{N:,} float64 elements, best of 7; ratios are (value and pullback) / value")
    print(f"{'case':<15}{'value':>11}{'rule':>11}{'rule ratio':>12}{'NumPy':>8}{'PyTorch':>9}")
    for name, f, shape, axis, by_hand, torch_name, torch_kwargs in CASES:
        x = rng.standard_normal(shape)
        y = f(x, axis=axis)
        dy = rng.standard_normal(np.shape(y))

        def rule(f=f, x=x, dy=dy, axis=axis):
            y, pullback = cr.rrule(f, x, axis=axis)
            return y, pullback(dy)

        rule()
        value = best_time(lambda f=f, x=x, axis=axis: f(x, axis=axis), 3)
        rule_time = best_time(rule, 3)
        hand_time = best_time(lambda h=by_hand, x=x, dy=dy, axis=axis: h(x, dy, axis), 3)
        dy_torch = dy if np.ndim(dy) else np.asarray(dy)
        peer = torch_ratio(torch_name, torch_kwargs, x, dy_torch)
        peer_text = "-" if peer is None else f"{peer:.2f}"
        print(
            f"{name:<15}{value * 1e3:>8.2f} ms{rule_time * 1e3:>8.2f} ms"
            f"{rule_time / value:>12.2f}{hand_time / value:>8.2f}{peer_text:>9}"
        )


if __name__ == "__main__":
    main()
