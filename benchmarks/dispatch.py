"""Cost of calling a rule through the registry, against hand-written code doing the same work.

For ``np.sin``: ``y, pullback = rrule(np.sin, x); pullback(dy)`` versus a hand-written
function computing ``np.sin(x)``, ``np.cos(x)`` and one multiply, for a Python float, a 0-d
array and 1,000 elements. Both are timed in the same run, interleaved, best of several repeats.

    python benchmarks/dispatch.py
"""

from __future__ import annotations

import numpy as np
from timing import best_time

import chainrules as cr


def hand_written(x, dy):
    y = np.sin(x)
    return y, dy * np.cos(x)


def through_rule(x, dy):
    y, pullback = cr.rrule(np.sin, x)
    return y, pullback(dy)


def main() -> None:
    cases = [
        ("Python float", 0.7, 1.3, 20_000),
        ("0-d array", np.array(0.7), np.array(1.3), 20_000),
        ("1,000 elements", np.linspace(0, 1, 1000), np.linspace(1, 2, 1000), 5_000),
    ]
    print(f"{'input':<16}{'hand-written':>16}{'rrule + pullback':>20}{'ratio':>8}")
    for name, x, dy, number in cases:
        through_rule(x, dy)  # warm the dispatch cache
        base = best_time(lambda x=x, dy=dy: hand_written(x, dy), number)
        rule = best_time(lambda x=x, dy=dy: through_rule(x, dy), number)
        print(f"{name:<16}{base * 1e6:>13.2f} us{rule * 1e6:>17.2f} us{rule / base:>8.2f}")


if __name__ == "__main__":
    main()
