"""``python -m chainrules`` and the ``chainrules`` console script.

With no arguments, a short demonstration: each step of ``DEMO_STEPS`` runs in turn and prints
what it shows; the last one is the coverage summary. ``chainrules coverage ...`` is the coverage
report (see ``chainrules.coverage.cli``); ``chainrules demo`` runs the demonstration again.

A later step (a ``test_rrule`` check, an engine's gradient) is one function taking the output
stream, added to ``DEMO_STEPS`` where it belongs.

>>> import io
>>> out = io.StringIO()
>>> demo_rrule(out)
>>> print(out.getvalue().splitlines()[0])
rrule(np.sin, x) with x = [0.  0.5 1. ]
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

__all__ = ["DEMO_STEPS", "demo_coverage_summary", "demo_rrule", "main", "run_demo"]

USAGE = """\
usage: chainrules [demo | coverage [options]]

  chainrules            a short demonstration, ending with the coverage summary
  chainrules coverage   the rule-coverage report (chainrules coverage --help)
"""


def demo_rrule(out: IO[Any]) -> None:
    """Call a rule: ``rrule(np.sin, x)`` gives ``y`` and a pullback; pull back ones."""
    import numpy as np

    import chainrules as cr

    x = np.array([0.0, 0.5, 1.0])
    y, sin_pullback = cr.rrule(np.sin, x)
    df, dx = sin_pullback(np.ones_like(y))
    print(f"rrule(np.sin, x) with x = {x}", file=out)
    print(f"  y      = {np.round(y, 6)}", file=out)
    print(f"  pullback(ones) = ({df!r}, {np.round(dx, 6)})   # cos(x)", file=out)


def demo_coverage_summary(out: IO[Any]) -> None:
    """The coverage summary: one line per category and the total."""
    from .coverage.columns import headline
    from .coverage.format_terminal import render_summary, wants_color
    from .coverage.report import current_report

    report = current_report()
    print("coverage (chainrules coverage --help for the full report):", file=out)
    print(render_summary(report, color=wants_color(out)), file=out)
    print(headline(report.total), file=out)


DEMO_STEPS: list[Callable[[IO[Any]], None]] = [demo_rrule, demo_coverage_summary]


def run_demo(out: IO[Any] | None = None) -> int:
    """Run every step of ``DEMO_STEPS``, a blank line between them."""
    out = out or sys.stdout
    for i, step in enumerate(DEMO_STEPS):
        if i:
            print(file=out)
        step(out)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The entry point of ``chainrules`` and ``python -m chainrules``."""
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] == "demo":
        return run_demo()
    if args[0] == "coverage":
        from .coverage.cli import main as coverage_main

        return coverage_main(args[1:])
    if args[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0
    print(USAGE, end="", file=sys.stderr)
    print(f"chainrules: unknown command {args[0]!r}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
