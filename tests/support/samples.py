"""Test data and table formats shared by the rule tests: arrays, calls, special-function rows.

* ``sample(shape, dtype, seed)``: a standard normal array (complex dtypes: independent parts);
  ``draw`` the same at seeds from 1000 on; ``uniform`` from an interval. The same arguments give
  the same values.
* ``normal(shape, dtype, rng)``: the same draw from a generator the caller goes on using.
* ``invertible``: well-conditioned (stacks of) matrices; ``hermitian_band`` and ``dense``: the
  band storage of a Hermitian matrix and the matrix LAPACK reads from it.
* ``A`` and ``Call``: a call ``f(*args, **kwargs)`` written with array shapes, which ``build``
  draws in a case's dtype, ``check_call`` checks its rules (the table tests of the
  array-manipulation rules).
* ``Row`` and ``cases``: a function of ``scipy.special`` with the interval of each argument,
  crossed with dtypes and broadcasting shapes; ``check_rrule`` / ``check_frule`` run one case,
  ``table_tests`` makes the pair of parametrized tests of a table; ``cotangents`` and
  ``output_derivative`` read a pullback at a point.
* ``check_both``, ``check_factors``, ``rule_checker``: the pair of rule checks of the
  ``scipy.linalg`` tests, with their second-order exceptions; ``check_column_and_row`` the
  checks of a matrix built from its first column and row.
* ``count_calls``: how often the rules call some functions of a module.
* ``LAYOUTS`` and ``check_array_derivative``: a one-input rule's cotangent of a real array,
  in each memory layout and at float32, against a derivative computed with mpmath.

>>> uniform(3, seed=1).shape
(3,)
>>> bool(np.all(uniform((2, 2), np.complex128, low=0.5).real >= 0.5))
True
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pytest
from chainrules_testing import test_frule, test_rrule
from chainrules_testing.strategies import well_conditioned
from hypothesis import find

import chainrules as cr
from chainrules.core.names import short_name

DTYPES = [np.float64, np.complex128]
ARRAY_DTYPES = [np.float64, np.complex128, np.float32]


def ids(dtype: Any) -> str:
    """The test id of a dtype: its name."""
    return np.dtype(dtype).name


def sample(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> Any:
    """A standard normal array of ``shape`` (complex dtypes: independent parts), by ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)


def draw(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> Any:
    """``sample`` at seeds from 1000 on: the inputs of the decomposition tests."""
    return sample(shape, dtype, 1000 + seed)


def uniform(
    shape: Any, dtype: Any = np.float64, seed: int = 0, low: float = -1.0, high: float = 1.0
) -> np.ndarray:
    """Data of ``dtype`` with real (and imaginary) parts drawn from [low, high]."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(low, high, shape)
    return x.astype(dtype)


def normal(shape: tuple[int, ...], dtype: Any, rng: np.random.Generator) -> Any:
    """A standard normal array of ``shape`` and ``dtype`` drawn from ``rng`` (complex dtypes:
    independent parts), for tests that draw several arrays from one generator."""
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return np.asarray(x, dtype=dtype)


# ---- matrices ------------------------------------------------------------------------------


def invertible(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> np.ndarray:
    """A (stack of) matrices of condition number about 10 or less, built on the harness'
    well-conditioned strategy (its simplest example), each of the stack a little moved."""
    n, count = shape[-1], int(np.prod(shape[:-2]))
    base = find(well_conditioned(n, dtype=dtype), lambda a: True)
    stack = [base + 0.05 * k * sample((n, n), dtype, seed + k) for k in range(count)]
    return np.reshape(stack, shape).astype(dtype)


def hermitian_band(
    width: int, n: int, dtype: Any, lower: bool, seed: int = 0, shift: float = 0.0
) -> np.ndarray:
    """Band storage of a Hermitian matrix (``shift`` added to its diagonal)."""
    ab = sample((width + 1, n), dtype, seed)
    diagonal = 0 if lower else width
    ab[diagonal] = ab[diagonal] + shift
    return ab


def dense(ab: np.ndarray, lower: bool) -> np.ndarray:
    """The Hermitian matrix LAPACK reads from the band storage ``ab``."""
    width, n = ab.shape[0] - 1, ab.shape[1]
    a = np.zeros((n, n), dtype=ab.dtype)
    for k in range(width + 1):
        offset = k if lower else width - k
        values = ab[k, : n - offset] if lower else ab[k, offset:]
        a += np.diag(values, -offset if lower else offset)
    strict = np.tril(a, -1) if lower else np.triu(a, 1)
    return strict + np.conj(strict.T) + np.diag(np.real(np.diag(a)))


# ---- calls written with array shapes -------------------------------------------------------


@dataclass(frozen=True)
class A:
    """An array argument of this shape, drawn in the case's dtype."""

    shape: tuple[int, ...]


@dataclass(frozen=True)
class Call:
    """A call ``f(*args, **kwargs)``: ``A`` entries become arrays, lists of them lists."""

    f: Any
    args: tuple
    kwargs: dict = field(default_factory=dict)

    def __repr__(self) -> str:
        name = getattr(self.f, "__name__", None) or repr(self.f).split("'")[1]
        return f"{name}{self.args}{self.kwargs or ''}".replace(" ", "")


def build(spec: Any, dtype: Any, rng: np.random.Generator) -> Any:
    """``spec`` with each ``A`` replaced by a standard normal array of its shape."""
    if isinstance(spec, A):
        return normal(spec.shape, dtype, rng)
    if isinstance(spec, list | tuple):
        return type(spec)(build(s, dtype, rng) for s in spec)
    return spec


def check_call(call: Call, dtype: Any) -> None:
    """``test_rrule`` and ``test_frule`` of ``call``, its arrays drawn in ``dtype``."""
    args = build(list(call.args), dtype, np.random.default_rng(0))
    test_rrule(call.f, *args, fkwargs=call.kwargs, seed=1)
    test_frule(call.f, *args, fkwargs=call.kwargs, seed=1)


# ---- rows of special functions ------------------------------------------------------------


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


def row_arguments(row: Row, dtype: Any, shapes: tuple, seed: int = 0) -> list[Any]:
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
        *row_arguments(row, dtype, shapes),
        fkwargs=row.kwargs,
        rtol=row.rtol,
        atol=row.atol,
        check_second_order=second_order(case),
    )


def check_rrule(case: tuple) -> None:
    _check(test_rrule, case)


def check_frule(case: tuple) -> None:
    _check(test_frule, case)


def table_tests(table: list[tuple]) -> tuple[Callable[[tuple], None], Callable[[tuple], None]]:
    """The pair of tests of a table: ``check_rrule`` and ``check_frule`` of each of its cases,
    by ``case_id``. A test module names them, which gives the tests their ids::

        test_rrule_gamma, test_frule_gamma = table_tests(CASES)
    """

    @pytest.mark.parametrize("case", table, ids=case_id)
    def rrule_test(case: tuple) -> None:
        check_rrule(case)

    @pytest.mark.parametrize("case", table, ids=case_id)
    def frule_test(case: tuple) -> None:
        check_frule(case)

    return rrule_test, frule_test


def midpoint(row: Row) -> float:
    low, high = row.domain[0]
    return (low + high) / 2 + 0.05


def cotangents(f: Any, *args: Any) -> tuple:
    """The unthunked cotangents of ``f``'s arguments for the output cotangent 1.0."""
    return tuple(cr.unthunk(g) for g in cr.rrule(f, *args)[1](1.0)[1:])


def output_derivative(f: Any, x: Any, output: int, outputs: int) -> Any:
    """The cotangent of ``x`` when only output ``output`` of the ``outputs`` of ``f`` gets 1.0."""
    seed = tuple(1.0 if k == output else cr.ZeroTangent() for k in range(outputs))
    return cr.rrule(f, x)[1](seed)[1]


# ---- a one-input rule on arrays in each layout ---------------------------------------------

# C order; Fortran order; a view with a stride of 2; float32; and ``far`` of the values (where
# a rule that takes another form from some |x| on has most elements there).
LAYOUTS = ("C", "F", "strided", "float32", "far")


def check_array_derivative(
    f: Any, values: np.ndarray, derivative: Callable[[Any], Any], layout: str, far: Callable
) -> None:
    """The cotangent of ``f``'s rule at ``values`` (tiled to 3 rows) in ``layout``, for a
    cotangent of ones, against ``derivative(mpmath.mpf)``: at most 8 eps relative (the rules
    measured here at most 3 units in the last place; the rest is room for another libm) and 4
    steps of the subnormal grid absolute, and the value ``f``'s own; nothing mutated."""
    import mpmath

    x = np.tile(values, (3, 1))
    if layout == "F":
        x = np.asfortranarray(x)
    elif layout == "strided":
        x = np.repeat(x, 2, axis=1)[:, ::2]
    elif layout == "float32":
        x = x.astype(np.float32)
    elif layout == "far":
        x = far(x)
    before = x.copy()
    y, pullback = cr.rrule(f, x)
    assert np.array_equal(y, f(before))
    got = pullback(np.ones_like(x))[1]
    assert got.dtype == x.dtype and got.shape == x.shape
    want = np.vectorize(lambda v: float(derivative(mpmath.mpf(float(v)))))(x)
    info = np.finfo(x.dtype)  # subnormal results: a few steps of the subnormal grid
    assert np.all(np.abs(got - want) <= 8 * info.eps * want + 4 * info.smallest_subnormal)
    assert np.array_equal(x, before)


# ---- the pair of rule checks of the linalg tests -------------------------------------------


def check_both(f: Any, *args: Any, **kwargs: Any) -> None:
    """``test_rrule`` and ``test_frule`` of ``f`` with the same arguments and options."""
    test_rrule(f, *args, **kwargs)
    test_frule(f, *args, **kwargs)


def check_factors(f: Any, *args: Any, **kwargs: Any) -> None:
    """``check_both`` without second order unless asked: LAPACK computes the factors of
    hessenberg, qz, ordqz and rsf2csf, and tracked values cannot pass through it."""
    kwargs.setdefault("check_second_order", False)
    check_both(f, *args, **kwargs)


def check_column_and_row(f: Any, dtype: Any) -> None:
    """``check_both`` of a matrix ``f(c)`` or ``f(c, r)`` given by its first column and row."""
    c, r = sample((3,), dtype), sample((4,), dtype, 1)
    check_both(f, c)
    check_both(f, c, r)


def rule_checker(no_second_order: Mapping[Any, str]) -> Callable[..., None]:
    """``check_rules(f, *args, **kwargs)``: ``test_rrule`` and ``test_frule`` of ``f``, the
    second-order checks included unless ``no_second_order`` gives the reason they are not
    available for ``f``."""

    def check_rules(f: Any, *args: Any, **kwargs: Any) -> None:
        check_both(f, *args, check_second_order=f not in no_second_order, **kwargs)

    return check_rules


# ---- spies -------------------------------------------------------------------------------------


def count_calls(monkeypatch: Any, module: Any, *names: str) -> dict[str, int]:
    """How often each function ``names`` of ``module`` is called from now on, as a dict that
    counts on: ``monkeypatch`` wraps each of them for the rest of the test."""
    calls = dict.fromkeys(names, 0)
    for name in names:
        original = getattr(module, name)

        def counted(*args: Any, _original: Any = original, _name: str = name, **kwargs: Any) -> Any:
            calls[_name] += 1
            return _original(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)
    return calls
