"""Cost of ``scipy.special.logsumexp``'s value and pullback, against the value alone.

For 10**6 float64 elements: ``y, pullback = rrule(logsumexp, a); pullback(1.0)`` versus
``logsumexp(a)``, and versus a hand-written value-and-gradient (``logsumexp`` then
``softmax``, the gradient SciPy users write by hand). All three are timed in the same run,
interleaved, best of several repeats.

    python benchmarks/special.py
"""

from __future__ import annotations

import timeit

import numpy as np
import scipy.special as sc

import chainrules as cr


def value(a):
    return sc.logsumexp(a)


def hand_written(a):
    return sc.logsumexp(a), sc.softmax(a)


def through_rule(a):
    y, pullback = cr.rrule(sc.logsumexp, a)
    return y, pullback(1.0)


def best_time(fn, a, number=5, repeat=9):
    return min(timeit.repeat(lambda: fn(a), number=number, repeat=repeat)) / number


def main() -> None:
    a = np.random.default_rng(0).standard_normal(10**6)
    through_rule(a)  # warm the dispatch cache
    times = {
        name: best_time(fn, a)
        for name, fn in [
            ("value", value),
            ("hand-written", hand_written),
            ("rrule + pullback", through_rule),
        ]
    }
    base = times["value"]
    print(f"{'logsumexp, 10**6 float64':<28}{'time':>12}{'/ value':>10}")
    for name, t in times.items():
        print(f"{name:<28}{t * 1e3:>9.2f} ms{t / base:>10.2f}")


if __name__ == "__main__":
    main()
