"""The table format shared by the tests of the ``scipy.special`` rules: rows, samplers, cases.

A ``Row`` names a function, the interval each argument is drawn from, which arguments are
integers (drawn as integers, without tangent), whether complex input is tested, and any
tolerance exception with its reason. ``cases(rows)`` crosses rows with dtypes and the
broadcasting shapes every row is tested at: (3,), (2, 3) with (3,), (2, 1) with (1, 4), and 0-d.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from chainrules_testing import test_frule, test_rrule

from chainrules.core.names import short_name


@dataclass(frozen=True)
class Row:
    """One function of the table and how to test it."""

    f: Any
    domain: tuple[tuple[float, float], ...]
    integer: tuple[int, ...] = ()  # positions of integer arguments
    complex: bool = False  # complex128 in the last argument
    float32: bool = True
    rtol: float | None = None
    atol: float | None = None
    second_order: bool = True  # pullback differentiated again by the reverse engine
    reason: str = ""  # why a tolerance, an argument or second order is special
    shapes: tuple[tuple[tuple[int, ...], ...], ...] | None = None
    kwargs: dict = field(default_factory=dict, hash=False, compare=False)

    def __repr__(self) -> str:
        return short_name(self.f)


def default_shapes(arity: int) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """The broadcasting shapes of the table, for ``arity`` arguments."""
    if arity == 1:
        return (((3,),), ((2, 3),), ((),))
    rest = ((),) * (arity - 2)
    return (
        ((3,), *rest, (3,)),
        ((2, 3), *rest, (3,)),
        ((2, 1), *rest, (1, 4)),
        ((), *rest, ()),
    )


def cases(rows: list[Row]) -> list[tuple[Row, Any, tuple]]:
    """(row, dtype, shapes) for float64 at every shape, float32 and complex128 at the first."""
    out = []
    for row in rows:
        shapes = row.shapes or default_shapes(len(row.domain))
        out += [(row, np.float64, s) for s in shapes]
        if row.float32:
            out.append((row, np.float32, shapes[0]))
        if row.complex:
            out.append((row, np.complex128, shapes[0]))
    return out


def case_id(case: tuple) -> str:
    row, dtype, shapes = case
    return f"{row!r}-{np.dtype(dtype).name}-{'-'.join(map(str, shapes))}"


def sample(row: Row, dtype: Any, shapes: tuple, seed: int = 0) -> list[Any]:
    """Arguments for one case: drawn uniformly from the row's intervals."""
    rng = np.random.default_rng(seed)
    args: list[Any] = []
    last = len(row.domain) - 1
    for i, ((low, high), shape) in enumerate(zip(row.domain, shapes, strict=True)):
        if i in row.integer:
            n = rng.integers(int(low), int(high) + 1, shape)
            args.append(int(n) if shape == () else n)
            continue
        x = rng.uniform(low, high, shape)
        kind = np.dtype(dtype).kind
        if kind == "c" and i == last:
            x = x + 1j * rng.uniform(-0.5, 0.5, shape)
        value = np.asarray(x, dtype=dtype if (kind != "c" or i == last) else np.float64)
        args.append(value)
    return args


def second_order(case: tuple) -> bool:
    """Second derivatives are checked once per row: float64, the first shape."""
    row, dtype, shapes = case
    first = (row.shapes or default_shapes(len(row.domain)))[0]
    return row.second_order and dtype is np.float64 and shapes == first


def _check(harness: Callable, case: tuple) -> None:
    """Runs ``harness`` (test_rrule or test_frule) on one case with its row's settings."""
    row, dtype, shapes = case
    harness(
        row.f,
        *sample(row, dtype, shapes),
        fkwargs=row.kwargs,
        rtol=row.rtol,
        atol=row.atol,
        check_second_order=second_order(case),
    )


def check_rrule(case: tuple) -> None:
    _check(test_rrule, case)


def check_frule(case: tuple) -> None:
    _check(test_frule, case)


def midpoint(row: Row) -> float:
    low, high = row.domain[0]
    return (low + high) / 2 + 0.05
