"""Every rule of a ufunc at the edges of the floats: what raises, hangs, or gives NaN.

    python tests/support/edge_sweep.py OUT NAME...   # ufuncs of scipy.special or NumPy
    python tests/support/edge_sweep.py OUT --all     # every registered ufunc of 1 to 3 inputs
    python tests/support/edge_sweep.py OUT --compare [--moderate] NAME... | --all

For every combination of edge values of the arguments (tiny, huge, zero, infinite, either
sign; a smaller grid for three inputs; with ``--moderate``, ordinary values from 0.3 to 3,000
of either sign instead) it calls ``rrule`` on float64 scalars, unthunks every cotangent of the
output cotangent 1.0, and writes a line to OUT for each:

* ``HANG``: no answer within 10 s (SIGALRM: Unix only; a loop in compiled code, as SciPy's
  ``mathieu_a(1e8, inf)`` has, is not interrupted and stops the sweep);
* ``SLOW``: an answer after more than 1 s;
* ``ERR``: an exception, with its type and message;
* ``NAN``: a NaN cotangent where the function's value is finite and a central difference of
  the function in that argument is finite too;
* with ``--compare``, ``WRONG``: a finite cotangent more than 1% away from the central
  differences of the function in that argument, where those are to be trusted: finite, the
  values a step apart differ by far more than their rounding, and the differences at
  relative steps 1e-4 and 1e-6 agree within 1e-3 (see ``_trusted_difference``). It finds
  the wrong numbers that a sweep for NaN cannot.

A line is a finding, not a verdict: a central difference can be finite where the derivative
does not exist, or meaningless where the step is below the argument's rounding, and SciPy's
own value can be wrong. Each is to be settled against mpmath or an exact limit, and a real
defect fixed with a test of its own that fails without the fix.
"""

from __future__ import annotations

import itertools
import signal
import sys
import time
import warnings
from collections.abc import Iterator
from typing import Any

import numpy as np
import scipy.special as sc

import chainrules as cr

EDGES = [1e-300, 1e-8, 0.5, 1.0, 2.5, 30.0, 1e4, 1e8, 1e300, -0.5, -2.5, -1e4, -1e300]
EDGES += [0.0, np.inf, -np.inf]
EDGES_OF_THREE = [1e-300, 0.5, 1.0, 2.5, 30.0, 1e8, 1e300, -0.5, -2.5, -1e300, 0.0, np.inf]
MODERATE = [0.3, 0.7, 1.5, 3.0, 7.5, 30.0, 300.0, 3000.0]
MODERATE += [-x for x in MODERATE]
MODERATE_OF_THREE = [0.3, 1.5, 7.5, 30.0, 3000.0, -0.7, -3.0, -300.0]
LIMIT = 10  # seconds


class TooLong(Exception):
    pass


def _too_long(*_: Any) -> None:
    raise TooLong


def registered_ufuncs() -> list[Any]:
    """The ufuncs of 1 to 3 inputs and one output with an rrule."""
    return [
        info.function
        for info in cr.registered_functions()
        if info.rrule
        and isinstance(info.function, np.ufunc)
        and 1 <= info.function.nin <= 3
        and info.function.nout == 1
    ]


def _steps(f: Any, args: tuple, i: int, relative: float) -> tuple[float, float, float]:
    """``f`` a step above and below argument ``i``, and the step."""
    x = args[i]
    step = abs(x) * relative if x != 0 else relative * 1e-3
    above, below = list(args), list(args)
    above[i], below[i] = x + step, x - step
    with np.errstate(all="ignore"):
        return f(*above), f(*below), step


def _central_difference(f: Any, args: tuple, i: int, relative: float = 1e-7) -> float:
    above, below, step = _steps(f, args, i, relative)
    with np.errstate(all="ignore"):
        return (above - below) / (2 * step)


def _trusted_difference(f: Any, args: tuple, i: int) -> float | None:
    """The central difference of ``f`` in argument ``i`` at relative step 1e-6, where it is to
    be trusted, else ``None``: the values a step apart differ by more than 1e4 of their
    rounding (not so where the step is below the argument's rounding, or SciPy's value does
    not follow the argument), the difference is a normal float (not underflowed), and the one
    at step 1e-4 agrees with it within 1e-3 (not so across a kink, a pole or a jump)."""
    above, below, step = _steps(f, args, i, 1e-6)
    with np.errstate(all="ignore"):
        change = above - below
        if not abs(change) > 1e4 * np.finfo(float).eps * max(abs(above), abs(below)):
            return None
        fine = change / (2 * step)
        coarse = _central_difference(f, args, i, 1e-4)
    if not (np.isfinite(coarse) and abs(fine) >= np.finfo(float).tiny):  # nor underflowed
        return None
    return fine if abs(coarse - fine) <= 1e-3 * max(abs(coarse), abs(fine)) else None


def _wrong(c: float, d: float) -> bool:
    """Whether the cotangent ``c`` is more than 1% away from the trusted difference ``d``."""
    return not abs(c - d) <= 1e-2 * max(abs(c), abs(d)) + 1e-300


def findings(
    f: Any,
    grid: list[float] | None = None,
    limit: int = 0,
    compare: bool = False,
    rule: Any = cr.rrule,
) -> Iterator[str]:
    """The findings of the ufunc ``f`` at every combination of ``grid``'s values (by default
    ``EDGES``, or ``EDGES_OF_THREE`` for three inputs), one line each; with a ``limit`` in
    seconds, a SIGALRM handler raising ``TooLong`` must be installed (``main`` does). With
    ``compare``, finite cotangents are compared with trusted central differences too (the
    ``WRONG`` lines). ``rule`` is the rrule called (``chainrules.rrule``)."""
    name = f.__name__
    if grid is None:
        grid = EDGES if f.nin <= 2 else EDGES_OF_THREE
    for args in itertools.product(grid, repeat=f.nin):
        start = time.perf_counter()
        signal.alarm(limit)
        try:
            with np.errstate(all="ignore"):
                y = f(*args)
                pullback = rule(f, *(np.float64(a) for a in args))[1]
                cotangents = [cr.unthunk(c) for c in pullback(1.0)[1:]]
        except TooLong:
            yield f"HANG {name}{args}"
            continue
        except Exception as error:  # every exception is a finding
            yield f"ERR {name}{args} {type(error).__name__}: {error}"[:200]
            continue
        finally:
            signal.alarm(0)
        took = time.perf_counter() - start
        if took > 1.0:
            yield f"SLOW {name}{args} {took:.1f}s"
        if not np.isfinite(y):
            continue
        for i, c in enumerate(cotangents):
            if not isinstance(c, float | np.floating) or not np.isfinite(args[i]):
                continue
            if np.isnan(c):
                if np.isfinite(d := _central_difference(f, args, i)):
                    yield f"NAN {name}{args} d{i} y={y:.4g} fd={d:.4g}"
            elif compare and (d := _trusted_difference(f, args, i)) is not None and _wrong(c, d):
                yield f"WRONG {name}{args} d{i} y={y:.4g} rule={c:.6g} fd={d:.6g}"


def sweepable(f: Any) -> bool:
    """Whether ``f`` is a ufunc the sweep calls: elementwise, with a float64 loop in every
    input (not SciPy's ``zeta``, a function whose ufuncs are ``_zeta`` and ``_riemann_zeta``;
    not the spherical Bessel functions, of an integer order; not ``matmul``)."""
    return isinstance(f, np.ufunc) and f.signature is None and "d" * f.nin + "->d" in f.types


def sweep(f: Any, out: Any, compare: bool = False, moderate: bool = False) -> None:
    """Write the findings of ``f`` at the edges (or at moderate values) to the file ``out``."""
    print("#", f.__name__, file=out, flush=True)
    if sweepable(f):
        grid = (MODERATE if f.nin <= 2 else MODERATE_OF_THREE) if moderate else None
        for line in findings(f, grid, LIMIT, compare):
            print(line, file=out, flush=True)


def main(argv: list[str]) -> None:
    if not argv or argv[0].startswith("-"):  # no OUT: the usage, not a file named --help
        sys.exit(__doc__)
    out_path, names = argv[0], argv[1:]
    compare, moderate = "--compare" in names, "--moderate" in names
    names = [n for n in names if n not in ("--compare", "--moderate")]
    registered = {f.__name__: f for f in registered_ufuncs()}
    if names == ["--all"]:
        names = list(registered)
    functions = [registered.get(n) or getattr(sc, n, None) or getattr(np, n) for n in names]
    signal.signal(signal.SIGALRM, _too_long)
    warnings.simplefilter("ignore")
    with open(out_path, "w") as out:
        for f in functions:
            sweep(f, out, compare, moderate)
        print("done", file=out, flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
