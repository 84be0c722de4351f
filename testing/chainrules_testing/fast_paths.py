"""The check ``test_rrule`` makes of a rule that has a fast path (``chainrules.core.fast_paths``).

A fast path computes, for the plain calls, what the registered rule computes: the same value and
the same cotangents, number for number. Where the function tested has one, the rule it stands in
for is called on copies of the same inputs and pulls back the same ``dy``, and any difference
fails with ``FastPathMismatch``.
"""

from __future__ import annotations

from typing import Any

import chainrules
from chainrules.core.fast_paths import general_rule
from chainrules.core.thunks import unthunk

from .checks import Setup
from .compare import tangent_difference
from .failures import FastPathMismatch
from .primals import copy_primal

__all__ = ["check_fast_path"]


def check_fast_path(setup: Setup, y: Any, dy: Any, cotangents: tuple) -> None:
    """Fail unless the rule behind ``setup.f``'s fast path, if it has one, gives ``y`` and,
    for ``dy``, ``cotangents`` (unthunked), exactly."""
    general = general_rule(setup.f)
    if general is None:
        return
    inputs = copy_primal(setup.inputs[1:])
    args, kwargs = chainrules.rrule.bound_arguments(setup.f, inputs, setup.fkwargs)
    result = setup.run("the rule behind the fast path", general, *args, **kwargs)
    if result is None:  # the rule does not take these arguments: nothing to compare
        return
    y_rule, pullback = result
    expected = tuple(unthunk(c) for c in setup.run("its pullback(dy)", pullback, dy))
    if len(expected) != len(cotangents):
        _fail(setup, f"the rule gives {len(expected)} cotangents, the fast path {len(cotangents)}")
    found = tangent_difference(y, y_rule, rtol=0.0, atol=0.0, path="the value")
    for i, (a, e) in enumerate(zip(cotangents, expected, strict=True)):
        if found is None:
            found = tangent_difference(a, e, rtol=0.0, atol=0.0, path=f"cotangent {i}")
    if found is not None:
        _fail(setup, str(found))


def _fail(setup: Setup, detail: str) -> None:
    setup.ctx.fail(
        FastPathMismatch,
        "the fast path and the rule it stands in for disagree",
        detail,
        "a fast path computes what its rule computes, with the same operations",
    )
