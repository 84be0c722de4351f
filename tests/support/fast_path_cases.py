"""Functions with a rule and a fast path, right or deliberately wrong, for the tests of fast
paths (``chainrules.core.fast_paths``) and of the harness's comparison of the two."""

from __future__ import annotations

from typing import Any

import numpy as np

import chainrules as cr
from chainrules import NoTangent
from chainrules.core.fast_paths import FastPullback, register_fast_path


def tripled_with_fast_path(name: str, value_scale: float = 1.0, cotangent_scale: float = 1.0):
    """A function ``3 x`` named ``name`` with a right rule (``f.rule``) and a fast path for
    NumPy arrays, which computes ``value_scale * 3 x`` and the cotangent
    ``cotangent_scale * 3 dy`` (both right at 1)."""

    def f(x: Any) -> Any:
        return 3.0 * x

    f.__name__ = f.__qualname__ = name

    @cr.rrule.register(f)
    def rule(x: Any) -> Any:
        return f(x), lambda dy: (NoTangent(), 3.0 * dy)

    class Pullback(FastPullback):
        __slots__ = ()

        def cotangents(self, dy: Any) -> Any:
            return NoTangent(), cotangent_scale * 3.0 * dy

    def make(general: Any, pullback_class: Any) -> Any:
        def fast_rule(x: Any) -> Any:
            if type(x) is not np.ndarray:
                return general(x)
            pullback = object.__new__(pullback_class)
            pullback.shape, pullback.rest = x.shape, ()
            return value_scale * f(x), pullback

        return fast_rule

    register_fast_path(f, make, Pullback)
    f.rule = rule  # type: ignore[attr-defined]
    return f
