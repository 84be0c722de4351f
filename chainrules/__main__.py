"""``python -m chainrules`` and the ``chainrules`` console script.

With no arguments, a short demonstration: each step of ``DEMO_STEPS`` runs in turn and prints
what it shows; the last one is the coverage summary. ``chainrules coverage ...`` is the coverage
report (see ``chainrules.coverage.cli``); ``chainrules demo`` runs the demonstration again;
``chainrules --version`` prints the version. Output piped into a program that stops reading
early (``chainrules coverage | head``) ends the command quietly, as ``cat`` would.

A step is one function taking the output stream, listed in ``DEMO_STEPS``: a rule called, a
rule checked by the harness, an engine's gradient and Hessian, one gradient of ``betainc``
through every installed framework, the coverage summary.

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
    "FRAMEWORKS",
    "COVERAGE_INTRODUCTION",
    "TESTING_EXTRA",
    "demo_betainc_everywhere",
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
  chainrules coverage   the rule-coverage report (its options: chainrules coverage --help)
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


BETAINC_POINT = (2.0, 3.0, 0.4)  # (a, b, x): the demo differentiates betainc in a here


def _betainc_in_a() -> Callable[[Any], Any]:
    """``a -> betainc(a, b, x)`` at BETAINC_POINT's ``b`` and ``x``, by ``chainrules.scipy``."""
    from .scipy import special

    betainc: Any = special.betainc  # the namespace's functions are found when first asked for
    _, b, x = BETAINC_POINT
    return lambda a: betainc(a, b, x)


def _reference_gradient() -> float:
    from .engines import reverse

    return float(reverse.grad(_betainc_in_a())(BETAINC_POINT[0]))


def _torch_gradient() -> float:
    import torch

    a = torch.tensor(BETAINC_POINT[0], dtype=torch.float64, requires_grad=True)
    (g,) = torch.autograd.grad(_betainc_in_a()(a), a)
    return float(g)


def _jax_gradient() -> float:
    import jax

    return float(jax.grad(_betainc_in_a())(BETAINC_POINT[0]))


def _autograd_gradient() -> float:
    import autograd

    return float(autograd.grad(_betainc_in_a())(BETAINC_POINT[0]))


# The frameworks the demo differentiates betainc through: (name, module that must be
# installed, the gradient in a at BETAINC_POINT through chainrules.scipy.special).
FRAMEWORKS: list[tuple[str, str, Callable[[], float]]] = [
    ("chainrules reverse engine", "chainrules", _reference_gradient),
    ("PyTorch", "torch", _torch_gradient),
    ("JAX", "jax", _jax_gradient),
    ("autograd", "autograd", _autograd_gradient),
]


def demo_betainc_everywhere(out: IO[Any]) -> None:
    """One rule in every installed framework: d/da betainc(a, b, x), next to finite differences.

    ``chainrules.scipy.special.betainc`` routes on its argument's type, so the same call is
    differentiated by the reference engine, PyTorch, JAX and autograd; a framework that is not
    installed is named as skipped. JAX computes in float32 unless ``jax_enable_x64`` is on.
    """
    import importlib.util

    import scipy.special as sc

    a, b, x = BETAINC_POINT
    h = 1e-5
    central = (sc.betainc(a + h, b, x) - sc.betainc(a - h, b, x)) / (2 * h)
    print(
        f"d/da chainrules.scipy.special.betainc(a, b, x) at a, b, x = {a:g}, {b:g}, {x:g}", file=out
    )
    print(f"  {'central difference:':<27}{central:.7f}", file=out)
    skipped = []
    for name, module, gradient in FRAMEWORKS:
        if importlib.util.find_spec(module) is None:
            skipped.append((name, module))
            continue
        print(f"  {name + ':':<27}{gradient():.7f}", file=out)
    if skipped:
        names = ", ".join(name for name, _ in skipped)
        extras = ",".join(module for _, module in skipped)  # the extras have the modules' names
        print(f'  skipped, not installed: {names} (pip install "chainrules[{extras}]")', file=out)


COVERAGE_INTRODUCTION = """\
Which functions have rules, per category. Which of them are tested comes from a test run:
  python -m pytest --chainrules-record=test-record.json
  chainrules coverage --results test-record.json    # the full report; --help: its options
"""


def demo_coverage_summary(out: IO[Any]) -> None:
    """The coverage summary: what it shows first, then one line per category and the total."""
    from .coverage.columns import headline
    from .coverage.format_terminal import render_summary, wants_color
    from .coverage.report import current_report

    report = current_report()
    print(COVERAGE_INTRODUCTION, file=out)
    print(render_summary(report, color=wants_color(out)), file=out)
    print(headline(report.total), file=out)


DEMO_STEPS: list[Callable[[IO[Any]], None]] = [
    demo_rrule,
    demo_test_rrule,
    demo_engine_gradient,
    demo_betainc_everywhere,
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
