"""Cost of calling a rule through the registry, against hand-written code doing the same work.

Two paths through the registry, each against a hand-written function computing the same
values, timed in the same run, interleaved, best of several repeats:

* ``np.sin`` (a rule made by ``scalar_rule``): ``y, pullback = rrule(np.sin, x); pullback(dy)``
  against ``np.sin(x)``, ``np.cos(x)`` and one multiply;
* ``np.cumsum`` (a rule registered with ``rrule.register``, so wrapped in the protocol of
  ``chainrules.core.protocol``): against ``np.cumsum(x)`` and the reversed cumulative sum of
  ``dy``; and the same rule given ``ZeroTangent()``, which the protocol answers without calling
  the pullback.

Each for a Python float (``sin``) or a 1-element array (``cumsum``), a 0-d array and 1,000
elements.

    python benchmarks/dispatch.py

To compare two versions of chainrules in one sitting, run it under each:
``PYTHONPATH=<a checkout of the other commit> python benchmarks/dispatch.py``.
"""

from __future__ import annotations

import numpy as np
from timing import best_time

import chainrules as cr


def sin_by_hand(x, dy):
    y = np.sin(x)
    return y, dy * np.cos(x)


def sin_by_rule(x, dy):
    y, pullback = cr.rrule(np.sin, x)
    return y, pullback(dy)


def cumsum_by_hand(x, dy):
    y = np.cumsum(x)
    return y, np.flip(np.cumsum(np.flip(dy)))


def cumsum_by_rule(x, dy):
    y, pullback = cr.rrule(np.cumsum, x)
    return y, pullback(dy)


def main() -> None:
    zero = cr.ZeroTangent()
    cases = [
        ("sin", "Python float", sin_by_hand, sin_by_rule, 0.7, 1.3, 20_000),
        ("sin", "0-d array", sin_by_hand, sin_by_rule, np.array(0.7), np.array(1.3), 20_000),
        (
            "sin",
            "1,000 elements",
            sin_by_hand,
            sin_by_rule,
            np.linspace(0, 1, 1000),
            np.ones(1000),
            5_000,
        ),
        ("cumsum", "1 element", cumsum_by_hand, cumsum_by_rule, np.ones(1), np.ones(1), 20_000),
        (
            "cumsum",
            "1,000 elements",
            cumsum_by_hand,
            cumsum_by_rule,
            np.ones(1000),
            np.ones(1000),
            5_000,
        ),
        ("cumsum", "ZeroTangent()", cumsum_by_hand, cumsum_by_rule, np.ones(1000), zero, 5_000),
    ]
    print(f"chainrules from {cr.__file__}")
    print(f"{'rule':<8}{'input':<16}{'hand-written':>16}{'rrule + pullback':>20}{'ratio':>8}")
    for rule, name, by_hand, by_rule, x, dy, number in cases:
        by_rule(x, dy)  # warm the dispatch cache
        base_dy = np.zeros_like(x) if dy is zero else dy  # by hand, a zero is an array of zeros
        base = best_time(lambda f=by_hand, x=x, dy=base_dy: f(x, dy), number)
        timed = best_time(lambda f=by_rule, x=x, dy=dy: f(x, dy), number)
        print(
            f"{rule:<8}{name:<16}{base * 1e6:>13.2f} us{timed * 1e6:>17.2f} us{timed / base:>8.2f}"
        )


if __name__ == "__main__":
    main()
