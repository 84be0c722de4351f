"""Finite differences along one direction, by numdifftools or any method passed as ``fdm=``.

The harness only ever asks for the derivative at ``t = 0`` of a function of one real
variable ``t`` (the primal moved along a tangent, ``x + t * dx``, then reduced to a number
or an array): one directional derivative per check, however large the inputs. numdifftools
(adaptive steps, Richardson extrapolation) is the default and supplies an error estimate;
another method is any callable ``method(g, 0.0)`` such as fdm's ``central_fdm(5, 1)``, whose
``acc`` attribute, when present after the call, is taken as the error estimate.

>>> import math
>>> est = directional_derivative(lambda t: math.sin(1.0 + 2.0 * t))
>>> abs(est.value - 2.0 * math.cos(1.0)) < 1e-12, est.calls > 0
(True, True)
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainrules._compat import derivative_and_error

__all__ = ["FDEstimate", "directional_derivative", "method_name"]


@dataclass(frozen=True)
class FDEstimate:
    """A finite-difference derivative, its error estimate, and how many times ``g`` ran."""

    value: Any
    error: Any
    calls: int


# Largest trial steps numdifftools starts from. They are tried in turn while the estimate is not
# finite (a function defined only near the primal, sqrt close to 0 or a probability close to 1,
# needs steps that stay inside its domain) or, down to _SMALLEST_FOR_TRUST, while its error
# estimate is large (a piecewise smooth function, interp or max, needs steps that stay on one
# piece); below that, rounding makes tiny steps look falsely certain.
_BASE_STEPS = (2.0, 0.25, 1e-2, 1e-4)
_SMALLEST_FOR_TRUST = 1e-2
# An estimate whose error estimate is within this fraction of its size (plus a tiny absolute
# floor for derivatives that are zero) is trusted; otherwise the most certain one is kept.
_TRUSTED_RTOL = 0.1
_TRUSTED_ATOL = 1e-12
# What functions raise, rather than return NaN, outside their domain (math.sqrt(-1), SciPy's
# argument checks): at a trial step away from the primal these mean "no value here".
_DOMAIN_ERRORS = (ValueError, ZeroDivisionError, OverflowError, FloatingPointError)


def directional_derivative(g: Callable[[float], Any], fdm: Any = None) -> FDEstimate:
    """The derivative of ``g`` at 0 by finite differences (numdifftools unless ``fdm``).

    Trial points where ``g`` leaves its domain (a NaN, or one of the errors functions raise
    there) are discarded; ``g(0)`` itself is never excused.
    """
    calls = 0
    shape: tuple[int, ...] = ()

    def counted(t: Any) -> Any:
        nonlocal calls, shape
        calls += 1
        t = float(t)
        if t == 0.0:
            value = g(t)
            shape = np.shape(value)
            return value
        try:
            return g(t)
        except _DOMAIN_ERRORS:
            return np.full(shape, np.nan)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        warnings.filterwarnings("ignore", "All-NaN slice", UserWarning)
        with np.errstate(all="ignore"):
            if fdm is None:
                try:
                    import numdifftools as nd
                except ModuleNotFoundError as missing:
                    raise ModuleNotFoundError(
                        "chainrules_testing's finite differences need numdifftools: "
                        "pip install 'chainrules[testing]' (or pass fdm=, e.g. fdm's "
                        "central_fdm(5, 1))",
                        name="numdifftools",
                    ) from missing
                counted(0.0)  # errors at the primal itself are the caller's to see
                value, error = _numdifftools(nd, counted)
            else:
                value = fdm(counted, 0.0)
                error = getattr(fdm, "acc", None)
                error = 0.0 if error is None else error
    if np.ndim(value) == 0:
        return FDEstimate(float(np.real(value)), float(np.real(error)), calls)
    return FDEstimate(np.asarray(value), np.broadcast_to(np.asarray(error), np.shape(value)), calls)


def _numdifftools(nd: Any, g: Callable) -> tuple[Any, Any]:
    """numdifftools from the largest base step down, until an estimate is finite and trusted."""
    best: tuple[Any, Any] | None = None
    for base_step in _BASE_STEPS:
        if best is not None and np.all(np.isfinite(best[0])) and base_step < _SMALLEST_FOR_TRUST:
            break
        step = nd.MaxStepGenerator(base_step=base_step)
        result = nd.Derivative(g, step=step, full_output=True)(0.0)
        value, error = derivative_and_error(result)
        if not np.all(np.isfinite(value)):
            best = best or (value, error)
            continue
        if best is None or not np.all(np.isfinite(best[0])) or _worst(error) < _worst(best[1]):
            best = (value, error)
        if np.all(np.abs(error) <= _TRUSTED_RTOL * np.abs(value) + _TRUSTED_ATOL):
            break
    assert best is not None
    return best


def _worst(error: Any) -> float:
    return float(np.max(np.abs(error))) if np.size(error) else 0.0


def method_name(fdm: Any) -> str:
    """How to name the finite-difference method in messages."""
    if fdm is None:
        return "numdifftools"
    return getattr(fdm, "__name__", None) or type(fdm).__name__
