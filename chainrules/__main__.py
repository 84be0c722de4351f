"""``python -m chainrules`` and the ``chainrules`` console script.

With no arguments, a short demonstration: each step of ``DEMO_STEPS`` runs in turn and prints
what it shows; the last one is the coverage summary. ``chainrules coverage ...`` is the coverage
report (see ``chainrules.coverage.cli``); ``chainrules demo`` runs the demonstration again;
``chainrules --version`` prints the version. Output piped into a program that stops reading
early (``chainrules coverage | head``) ends the command quietly, as ``cat`` would.

A step is one function taking the output stream, listed in ``DEMO_STEPS``: a rule called, a
rule checked by the harness, an engine's gradient and Hessian, the coverage summary.

>>> import io
>>> out = io.StringIO()
>>> demo_rrule(out)
>>> print(out.getvalue().splitlines()[0])
rrule(np.sin, x) with x = [0.  0.5 1. ]
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from typing import IO, Any

__all__ = [
    "DEMO_STEPS",
    "TESTING_EXTRA",
    "demo_coverage_summary",
    "demo_engine_gradient",
    "demo_rrule",
    "demo_test_rrule",
    "main",
    "run_demo",
]

USAGE = """\
usage: chainrules [demo | coverage [options] | --version]

  chainrules            a short demonstration, ending with the coverage summary
  chainrules coverage   the rule-coverage report (chainrules coverage --help)
  chainrules --version  the installed version of chainrules
"""


TESTING_EXTRA = (
    "test_rrule: not run; `pip install chainrules[testing]` adds the harness's finite "
    "differences (numdifftools), which check any rule in one line"
)


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


def demo_test_rrule(out: IO[Any]) -> None:
    """Check a rule against finite differences with the harness, in one line."""
    import importlib.util

    import numpy as np

    if importlib.util.find_spec("numdifftools") is None:  # the `testing` extra brings it
        print(TESTING_EXTRA, file=out)
        return
    from chainrules_testing import test_rrule

    x = np.linspace(-1.0, 1.0, 5)
    test_rrule(np.tanh, x, seed=0)
    print("test_rrule(np.tanh, x): passed (finite differences, second order included)", file=out)


def demo_engine_gradient(out: IO[Any]) -> None:
    """Differentiate plain NumPy code with the reference engine, once and twice."""
    import numpy as np

    from .engines import hessian, reverse

    def loss(w: Any) -> Any:
        return np.sum(np.tanh(w) ** 2) + np.prod(w)

    w = np.array([0.5, -1.0, 2.0])
    print("loss(w) = sum(tanh(w)**2) + prod(w), w = [0.5, -1, 2]", file=out)
    print(f"  reverse.grad(loss)(w) = {np.round(reverse.grad(loss)(w), 6)}", file=out)
    print(f"  hessian(loss)(w) diagonal = {np.round(np.diag(hessian(loss)(w)), 6)}", file=out)


def demo_coverage_summary(out: IO[Any]) -> None:
    """The coverage summary: one line per category and the total."""
    from .coverage.columns import headline
    from .coverage.format_terminal import render_summary, wants_color
    from .coverage.report import current_report

    report = current_report()
    print("coverage (chainrules coverage --help for the full report):", file=out)
    print(render_summary(report, color=wants_color(out)), file=out)
    print(headline(report.total), file=out)


DEMO_STEPS: list[Callable[[IO[Any]], None]] = [
    demo_rrule,
    demo_test_rrule,
    demo_engine_gradient,
    demo_coverage_summary,
]


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
    try:
        return _command(list(sys.argv[1:] if argv is None else argv))
    except BrokenPipeError:
        # The reader went away (``| head``): stop writing, and keep Python from reporting the
        # failed flush of stdout at exit.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _command(args: list[str]) -> int:
    if not args or args[0] == "demo":
        return run_demo()
    if args[0] == "coverage":
        from .coverage.cli import main as coverage_main

        return coverage_main(args[1:])
    if args[0] in ("-h", "--help"):
        print(USAGE, end="")
        return 0
    if args[0] in ("-V", "--version"):
        from . import __version__

        print(f"chainrules {__version__}")
        return 0
    print(USAGE, end="", file=sys.stderr)
    print(f"chainrules: unknown command {args[0]!r}", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
