"""Cost of ``scipy.special.logsumexp``'s value and pullback, against its value alone.

For 10**6 float64 elements: ``y, pullback = rrule(logsumexp, a); pullback(1.0)`` over
``logsumexp(a)``, with two peers measured in the same run, interleaved: hand-written SciPy
(``logsumexp`` then ``softmax``, the gradient users write by hand) over the same value, and
PyTorch autograd (``torch.logsumexp`` then ``backward``, one thread) over its own value,
when PyTorch is installed. Best of 11 rounds.

    python benchmarks/special.py
"""

from __future__ import annotations

import timeit

import numpy as np
import scipy.special as sc

import chainrules as cr

N = 10**6


def best_times(fns, number=5, repeat=11):
    """Best time per call of each function, the functions interleaved in every round."""
    best = [float("inf")] * len(fns)
    for _ in range(repeat):
        for i, fn in enumerate(fns):
            best[i] = min(best[i], timeit.timeit(fn, number=number) / number)
    return best


def torch_times(a):
    """PyTorch's (value, value and backward) times, or None without PyTorch."""
    try:
        import torch
    except ImportError:
        return None
    torch.set_num_threads(1)
    at = torch.from_numpy(a)

    def value():
        with torch.no_grad():
            return torch.logsumexp(at, 0)

    def value_and_gradient():
        ag = at.detach().requires_grad_()
        y = torch.logsumexp(ag, 0)
        y.backward()
        return y, ag.grad

    value_and_gradient()
    return best_times([value, value_and_gradient])


def main() -> None:
    a = np.random.default_rng(0).standard_normal(N)

    def through_rule():
        y, pullback = cr.rrule(sc.logsumexp, a)
        return y, pullback(1.0)

    through_rule()  # warm the dispatch cache
    value, rule, hand = best_times(
        [lambda: sc.logsumexp(a), through_rule, lambda: (sc.logsumexp(a), sc.softmax(a))]
    )
    rows = [
        ("scipy value", value, value),
        ("rrule + pullback", rule, value),
        ("hand-written SciPy", hand, value),
    ]
    torch = torch_times(a)
    if torch is not None:
        rows.append(("PyTorch autograd", torch[1], torch[0]))
    print(f"logsumexp, {N:,} float64 elements; ratio: (value and gradient) / value")
    for name, t, base in rows:
        print(f"{name:<22}{t * 1e3:>9.2f} ms{t / base:>8.2f}")


if __name__ == "__main__":
    main()
