"""Failure messages: every one names the function, the place, the values and the seed.

>>> ctx = Context("test_rrule", "numpy.sin", seed=3)
>>> try:
...     ctx.fail(AssertionError, "the pullback returned 1 value", "expected 2")
... except AssertionError as e:
...     print(e)
test_rrule(numpy.sin): the pullback returned 1 value
  expected 2
  seed=3 reproduces the random draws (pass seed=3, or --chainrules-seed 3)
"""

from __future__ import annotations

import reprlib
from dataclasses import dataclass
from typing import Any, NoReturn

import numpy as np

__all__ = ["Context", "errors_line", "show"]


class _Repr(reprlib.Repr):
    """reprlib's limits, also for structural tangents: their own repr recurses field by field
    and would overflow the stack on a tangent a thousand levels deep (a linked list)."""

    def repr_Tangent(self, x: Any, level: int) -> str:  # reprlib's naming
        name = f"{type(x).__name__}[{getattr(x.primal_type, '__name__', x.primal_type)}]"
        if level <= 0:
            return f"{name}(...)"
        items = list(x.items())
        if x.is_positional:
            shown = [self.repr1(v, level - 1) for _, v in items[: self.maxdict]]
        elif x.primal_type is dict:
            shown = [f"{k!r}: {self.repr1(v, level - 1)}" for k, v in items[: self.maxdict]]
        else:
            shown = [f"{k}={self.repr1(v, level - 1)}" for k, v in items[: self.maxdict]]
        more = ", ..." if len(items) > self.maxdict else ""
        body = f"{{{', '.join(shown)}{more}}}" if x.primal_type is dict else ", ".join(shown) + more
        return f"{name}({body})"

    repr_MutableTangent = repr_Tangent


_repr = _Repr()
_repr.maxstring = 80
_repr.maxother = 200


def show(value: Any) -> str:
    """A short, readable rendering of a value for a message."""
    if isinstance(value, np.ndarray):
        with np.printoptions(precision=17, threshold=12, edgeitems=3, linewidth=100):
            text = np.array2string(value, separator=", ")
        return f"array({text}, dtype={value.dtype}, shape={value.shape})"
    if isinstance(value, float | np.floating):
        return repr(float(value)) if isinstance(value, float) else repr(value)
    return _repr.repr(value)


def errors_line(actual: Any, expected: Any) -> str:
    """``absolute error A, relative error R`` for two numbers; for a NaN or an infinity on
    either side, what differs instead (an absolute error of ``inf - inf`` says nothing).

    >>> errors_line(1.0, 1.5)
    'absolute error 5.000e-01, relative error 3.333e-01'
    >>> errors_line(float("inf"), -float("inf"))
    'the infinities differ in sign'
    """
    if not (_finite(actual) and _finite(expected)):
        return _nonfinite_difference(actual, expected)
    abs_err = abs(actual - expected)
    denominator = max(abs(actual), abs(expected))
    rel_err = abs_err / denominator if denominator else (0.0 if abs_err == 0 else float("inf"))
    return f"absolute error {abs_err:.3e}, relative error {rel_err:.3e}"


def _finite(x: Any) -> bool:
    return bool(np.all(np.isfinite(x)))


def _nonfinite_difference(actual: Any, expected: Any) -> str:
    if isinstance(actual, complex | np.complexfloating) or isinstance(
        expected, complex | np.complexfloating
    ):
        a, e = complex(actual), complex(expected)
        for part, pa, pe in (("real", a.real, e.real), ("imaginary", a.imag, e.imag)):
            if pa == pe or (np.isnan(pa) and np.isnan(pe)):
                continue
            how = errors_line(pa, pe) if _finite(pa) and _finite(pe) else _kind(pa, pe)
            return f"the {part} parts differ: {how}"
        return "the values agree"
    return _kind(float(actual), float(expected))


def _kind(a: float, e: float) -> str:
    if np.isnan(a) and np.isnan(e):
        return "both are NaN"
    if np.isnan(a):
        return f"a NaN where {_name(e)} belongs"
    if np.isnan(e):
        return f"{_name(a)} where a NaN belongs"
    if np.isinf(a) and np.isinf(e):
        return "the infinities differ in sign" if a != e else "the values agree"
    return f"{_name(a)} where {_name(e)} belongs"


def _name(x: float) -> str:
    if np.isinf(x):
        return "+inf" if x > 0 else "-inf"
    return "a finite value"


@dataclass
class Context:
    """Who is being tested (``test_rrule(numpy.sin)``) and with which seed."""

    check: str
    name: str
    seed: int

    def message(self, headline: str, *lines: str) -> str:
        body = "".join(f"\n  {line}" for line in lines if line)
        return (
            f"{self.check}({self.name}): {headline}{body}\n  seed={self.seed} reproduces the "
            f"random draws (pass seed={self.seed}, or --chainrules-seed {self.seed})"
        )

    def fail(
        self,
        cls: type[BaseException],
        headline: str,
        *lines: str,
        cause: BaseException | None = None,
    ) -> NoReturn:
        """Raise ``cls`` with the full message (chained to ``cause`` when given)."""
        raise cls(self.message(headline, *lines)) from cause
