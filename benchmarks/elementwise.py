"""Value-and-pullback time over value time for elementwise rules, on 10^6 elements.

For ``exp`` and ``tanh``: ``y, pullback = rrule(f, x); pullback(dy)`` against ``f(x)`` alone,
the ratio the rule costs over evaluating the function (aim: 2 or less). In the same run, two
peers do the same work: hand-written NumPy (``y = f(x)`` and the cotangent from ``y``, the
least any rule can do) and, when it is installed, PyTorch's autograd (forward with
``requires_grad`` then ``backward``, over ``torch.exp`` / ``torch.tanh`` alone). Best of
seven repeats, interleaved.

    python benchmarks/elementwise.py

Each value-and-pullback step allocates two fresh 8 MB arrays. With glibc's default malloc
thresholds that memory goes back to the system when freed and is faulted in again on the
next step, which costs more than ``exp`` itself, for the rule and the hand-written NumPy
alike. Running with ``MALLOC_MMAP_THRESHOLD_=67108864 MALLOC_TRIM_THRESHOLD_=268435456``
keeps it, and leaves the cost of the arithmetic alone.
"""

from __future__ import annotations

import numpy as np
from timing import best_time, gradient_ratio, torch_on_one_thread

import chainrules as cr

N = 1_000_000


def hand_written(name):
    if name == "exp":

        def exp_value_and_gradient(x, dy):
            y = np.exp(x)
            return y, y * dy

        return exp_value_and_gradient

    def tanh_value_and_gradient(x, dy):
        y = np.tanh(x)
        return y, (1 - y * y) * dy

    return tanh_value_and_gradient


def through_rule(f):
    def rule_value_and_gradient(x, dy):
        y, pullback = cr.rrule(f, x)
        return y, pullback(dy)

    return rule_value_and_gradient


def torch_ratio(name, x, dy):
    """PyTorch's value-and-backward time over its value time, or None without PyTorch."""
    torch = torch_on_one_thread()
    if torch is None:
        return None
    f = getattr(torch, name)
    xt, dyt = torch.from_numpy(x), torch.from_numpy(dy)

    def value():
        with torch.no_grad():
            return f(xt)

    def value_and_gradient():
        xg = xt.detach().requires_grad_()
        y = f(xg)
        y.backward(dyt)
        return y, xg.grad

    return gradient_ratio(value, value_and_gradient, number=5)


def main() -> None:
    rng = np.random.default_rng(0)
    x = rng.uniform(-2.0, 2.0, N)
    dy = rng.standard_normal(N)
    print(f"{N:,} float64 elements, best of 7; ratios are (value and pullback) / value")
    print(f"{'function':<10}{'value':>10}{'rule':>10}{'rule ratio':>12}{'NumPy':>8}{'PyTorch':>9}")
    for name in ("exp", "tanh"):
        f = getattr(np, name)
        rule, hand = through_rule(f), hand_written(name)
        rule(x, dy)
        value = best_time(lambda f=f: f(x), 5)
        rule_time = best_time(lambda rule=rule: rule(x, dy), 5)
        hand_time = best_time(lambda hand=hand: hand(x, dy), 5)
        peer = torch_ratio(name, x, dy)
        peer_text = "-" if peer is None else f"{peer:.2f}"
        print(
            f"{name:<10}{value * 1e3:>7.2f} ms{rule_time * 1e3:>7.2f} ms"
            f"{rule_time / value:>12.2f}{hand_time / value:>8.2f}{peer_text:>9}"
        )


if __name__ == "__main__":
    main()
