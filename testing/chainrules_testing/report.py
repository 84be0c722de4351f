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

_repr = reprlib.Repr()
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
    """``absolute error A, relative error R`` for two numbers."""
    abs_err = abs(actual - expected)
    denominator = max(abs(actual), abs(expected))
    rel_err = abs_err / denominator if denominator else (0.0 if abs_err == 0 else float("inf"))
    return f"absolute error {abs_err:.3e}, relative error {rel_err:.3e}"


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

    def fail(self, cls: type[BaseException], headline: str, *lines: str) -> NoReturn:
        """Raise ``cls`` with the full message."""
        raise cls(self.message(headline, *lines))
