"""mpmath as the reference for derivatives: at special points and across the whole range.

A ``Sweep`` is one row of an accuracy table: a function of one real argument (other arguments
bound, e.g. ``lambda x: scipy.special.struve(0.5, x)``), its mpmath twin, the special points
where it is hard (zeros, branch points, removable singularities, points next to poles, domain
edges), the log-spaced ranges it is swept over, and the relative accuracy it is stated to reach
there for first and second derivatives.

``measure(sweep)`` differentiates the function the way users do, through the reference engines
(``reverse.grad`` and ``forward.jvp`` for the first derivative, reverse-over-reverse and
forward-over-reverse for the second, so every rule, pullback and frule on the way is checked),
and compares each with mpmath's derivative at 50 digits, with steps relative to the argument
(mpmath's default step is absolute, and useless at 1e-300 or 1e300).

Errors are relative, ``|actual - exact| / max(|exact|, tiny)`` with ``tiny`` the smallest
normal float: a derivative that underflows is compared on the scale where floats lose their
relative precision anyway; an exact value beyond the float range must come out as the infinity
of its sign; a NaN where mpmath has a number is an infinite error.

>>> import numpy as np, mpmath
>>> row = Sweep("sin", np.sin, mpmath.sin, points=(0.0, 1.0), ranges=((1e-3, 1e3),), per_decade=1)
>>> worst = measure(row)
>>> worst.first < 1e-14 and worst.second < 1e-14
True
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import mpmath
import numpy as np

from chainrules.engines import forward, hessian, reverse

TINY = float(np.finfo(np.float64).tiny)
HUGE = float(np.finfo(np.float64).max)
DIGITS = 50
EPSILON = mpmath.mpf(10) ** -25


@dataclass(frozen=True)
class Sweep:
    """One function's row: where it is hard, where it is swept, how accurate it is stated to be.

    ``ranges``: ``(lo, hi)`` pairs of one sign, swept at ``per_decade`` log-spaced points per
    decade (``(-1e300, -1e-300)`` sweeps negative arguments). ``rtol``: the stated relative
    accuracy of the first and the second derivative; ``order=1`` where the second derivative
    is not checked, with ``why`` saying why. ``mp1``/``mp2``: mpmath's derivatives where it has
    them in closed form (otherwise ``mpmath.diff`` of ``mp``).
    """

    name: str
    f: Callable[[Any], Any]
    mp: Callable[[Any], Any]
    points: tuple[float, ...] = ()
    ranges: tuple[tuple[float, float], ...] = ()
    rtol: tuple[float, float] = (1e-13, 1e-12)
    order: int = 2
    per_decade: float = 0.5
    mp1: Callable[[Any], Any] | None = None
    mp2: Callable[[Any], Any] | None = None
    why: str = ""
    skip: tuple[float, ...] = field(default=())

    def arguments(self) -> list[float]:
        """Every argument of the row: the special points, then the swept grid."""
        xs = list(self.points)
        for lo, hi in self.ranges:
            xs.extend(log_grid(lo, hi, self.per_decade))
        return [x for x in xs if x not in self.skip]


@dataclass(frozen=True)
class Worst:
    """The largest relative errors of a row, and where they occur."""

    first: float
    first_at: float
    second: float
    second_at: float


def log_grid(lo: float, hi: float, per_decade: float) -> list[float]:
    """Log-spaced arguments from ``lo`` to ``hi`` (both of one sign), ends included."""
    if lo < 0:
        return [-x for x in reversed(log_grid(-hi, -lo, per_decade))]
    decades = np.log10(hi) - np.log10(lo)
    count = max(2, round(decades * per_decade) + 1)
    return [float(x) for x in np.geomspace(lo, hi, count)]


def exact_derivative(mp_f: Callable, x: float, order: int) -> Any:
    """mpmath's ``order``-th derivative of ``mp_f`` at ``x``, to at least 25 digits.

    The step is relative to ``x``, and the working precision doubles until two precisions
    agree (and are not both zero): a derivative far smaller than the function over its argument
    (``sin''`` at 1e-300) cancels hundreds of digits in a difference quotient, and is found only
    at high precision. A zero is believed at the highest precision only.
    """
    previous = None
    digits = DIGITS
    while digits <= 32 * DIGITS:
        with mpmath.workdps(digits):
            x_mp = mpmath.mpf(x)
            scale = abs(x_mp) if x_mp else mpmath.mpf(1)
            h = scale * mpmath.mpf(10) ** (-digits // (order + 2))
            value = mpmath.diff(mp_f, x_mp, order, h=h)
            agree = previous is not None and abs(value - previous) <= abs(value) * EPSILON
            if agree and value:
                return value
            previous = value
        digits *= 2
    return previous


def engine_derivatives(f: Callable, x: float, order: int = 2) -> dict[str, float]:
    """The derivatives of ``f`` at ``x`` as the engines give them, one entry per route."""
    found = {
        "reverse": float(reverse.grad(f)(x)),
        "forward": float(forward.jvp(f, (x,), (1.0,))[1]),
    }
    if order >= 2:
        found["reverse-over-reverse"] = float(reverse.grad(reverse.grad(f))(x))
        found["forward-over-reverse"] = float(np.reshape(hessian(f)(x), ()))
    return found


def relative_error(actual: float, exact: Any) -> float:
    """``|actual - exact| / max(|exact|, tiny)``; beyond the float range, the right infinity."""
    if mpmath.isnan(exact):
        return 0.0 if np.isnan(actual) else float("inf")
    if abs(exact) > HUGE:
        return 0.0 if actual == (np.inf if exact > 0 else -np.inf) else float("inf")
    if not np.isfinite(actual):
        return float("inf")
    with mpmath.workdps(DIGITS):
        return float(abs(mpmath.mpf(actual) - exact) / max(abs(exact), mpmath.mpf(TINY)))


def errors_at(row: Sweep, x: float) -> dict[str, float]:
    """Every route's relative error at ``x``: ``"reverse"``, ..., ``"forward-over-reverse"``."""
    found = engine_derivatives(row.f, x, row.order)
    exact = {1: _exact(row, x, 1)}
    if row.order >= 2:
        exact[2] = _exact(row, x, 2)
    return {
        route: relative_error(value, exact[1 if route in ("reverse", "forward") else 2])
        for route, value in found.items()
    }


def measure(row: Sweep) -> Worst:
    """The row's largest first- and second-derivative errors over all its arguments."""
    worst = {1: (0.0, float("nan")), 2: (0.0, float("nan"))}
    for x in row.arguments():
        for route, error in errors_at(row, x).items():
            order = 1 if route in ("reverse", "forward") else 2
            if not error <= worst[order][0]:
                worst[order] = (error, x)
    return Worst(worst[1][0], worst[1][1], worst[2][0], worst[2][1])


def failures(row: Sweep) -> list[str]:
    """Each argument and route where the row misses its stated accuracy, for an assertion."""
    found = []
    for x in row.arguments():
        for route, error in errors_at(row, x).items():
            rtol = row.rtol[0] if route in ("reverse", "forward") else row.rtol[1]
            if not error <= rtol:
                found.append(f"{row.name}'s {route} derivative at {x!r}: rel. error {error:.2e}")
    return found


def markdown_table(rows: Iterable[Sweep]) -> str:
    """The accuracy table of ``rows`` for the docs: stated accuracy, where swept, hard points."""
    lines = [
        "| function | first derivative | second derivative | swept over | special points |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        second = f"{row.rtol[1]:.0e}" if row.order >= 2 else f"not checked: {row.why}"
        swept = ", ".join(f"[{lo:.0e}, {hi:.0e}]" for lo, hi in row.ranges) or "-"
        points = ", ".join(repr(float(p)) for p in row.points) or "-"
        lines.append(f"| `{row.name}` | {row.rtol[0]:.0e} | {second} | {swept} | {points} |")
    return "\n".join(lines)


def _exact(row: Sweep, x: float, order: int) -> Any:
    closed = row.mp1 if order == 1 else row.mp2
    if closed is not None:
        with mpmath.workdps(DIGITS):
            return closed(mpmath.mpf(x))
    return exact_derivative(row.mp, x, order)


# ---- the docs page: docs/accuracy.md is these tables, regenerated by running this file -------

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "accuracy.md"
SWEEPS = ROOT / "tests" / "accuracy"

INTRODUCTION = """\
# Accuracy of the derivatives

Every scalar rule's first and second derivatives are checked against mpmath, at the function's
special points (zeros, branch points, removable singularities, the neighbours of poles, the
edges of its domain, the points where a rule switches formula) and over log-spaced arguments
across its domain, from 1e-300 to 1e300 where the function is defined there. Each derivative
is taken the way users take it, through the reference engines: `reverse.grad` and
`forward.jvp` for the first, reverse-over-reverse and forward-over-reverse for the second, so
that every rule, pullback and frule on the way is checked.

mpmath's derivatives are taken at 50 digits or more (the precision doubles until two
precisions agree), with steps relative to the argument, or in closed form where mpmath has
one. The error is relative, `|actual - exact| / max(|exact|, tiny)` with `tiny` the smallest
normal float64: a derivative that underflows is compared where floats lose relative precision
anyway; an exact value beyond the float range must come out as the infinity of its sign.

The numbers below are the bounds the test suite asserts (`tests/accuracy/`): the worst error
measured over the row's arguments, rounded up with a margin for other CPUs and math libraries.
Where SciPy's own value is less accurate than this, the range is cut or the bound says so.
The page is generated from the tables of the tests: `python tests/support/reference.py`
rewrites it, and `tests/accuracy/test_docs.py` fails when it is out of date.
"""


def sweep_modules() -> list[Any]:
    """The modules of ``tests/accuracy`` that hold a ``ROWS`` table, in file-name order."""
    found = []
    for path in sorted(SWEEPS.glob("test_*.py")):
        spec = importlib.util.spec_from_file_location(f"accuracy_{path.stem}", path)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        if hasattr(module, "ROWS"):
            found.append(module)
    return found


def accuracy_page() -> str:
    """docs/accuracy.md as the tables of ``tests/accuracy`` make it."""
    parts = [INTRODUCTION]
    for module in sweep_modules():
        title = (module.__doc__ or module.__name__).strip().splitlines()[0].rstrip(".")
        parts.append(f"## {title}\n\n{markdown_table(module.ROWS)}\n")
    return "\n".join(parts)


if __name__ == "__main__":
    PAGE.write_text(accuracy_page())
    print(f"wrote {PAGE.relative_to(ROOT)}")
