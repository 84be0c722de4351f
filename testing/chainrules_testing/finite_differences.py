"""Finite differences along one direction, by numdifftools or any method passed as ``fdm=``.

The harness only ever asks for the derivative at ``t = 0`` of a function of one real
variable ``t`` (the primal moved along a tangent, ``x + t * dx``, then reduced to a number
or an array): one directional derivative per check, however large the inputs. numdifftools
(adaptive steps, Richardson extrapolation) is the default and supplies an error estimate;
another method is any callable ``method(g, 0.0)`` such as fdm's ``central_fdm(5, 1)``, whose
``acc`` attribute, when present after the call, is taken as the error estimate.

A check that knows what it expects passes ``settles=``: a cheap estimate comes first (a
sixth-order central stencil, six calls of ``g`` besides ``g(0)``, with an error estimate from
two step sizes), and numdifftools runs only when ``settles`` says that estimate does not
decide the check, because it disagrees with the rule or is itself uncertain.

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

__all__ = [
    "FDEstimate",
    "central_stencil",
    "directional_derivative",
    "method_name",
    "step_scale",
]


@dataclass(frozen=True)
class FDEstimate:
    """A finite-difference derivative, its error estimate, and how many times ``g`` ran;
    ``exact`` when no differences ran because the derivative is known exactly (along a
    direction that moves nothing, see ``exactly_zero``)."""

    value: Any
    error: Any
    calls: int
    exact: bool = False

    @classmethod
    def exactly_zero(cls, like: Any) -> FDEstimate:
        """The derivative along a direction with no non-zero entry: 0 exactly, shaped like
        ``like`` (what ``g`` returns), with no error."""
        if np.ndim(like) == 0:
            return cls(0.0, 0.0, 0, exact=True)
        zeros = np.zeros(np.shape(like))
        return cls(zeros, zeros, 0, exact=True)


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
# Rounding bounds what a difference of two values of g can resolve: over a step h, an error of
# about noise / h (noise: the spacing of g's values, or what the caller knows it to be), which
# numdifftools' own estimate leaves out where the values are subnormal (its rounding term is
# eps * |g|, and there the spacing is far larger). A tiny step whose difference rounds away
# then looks exact: 0 with error 0. Central differences and the extrapolation amplify the
# noise by about 2.
_NOISE_FACTOR = 2.0
# When no base step gives a trusted estimate, a last try with few and large steps: on values
# with few significant digits (subnormal outputs) large steps are the only ones that see a
# change.
_COARSE = (2.0, 6)
# Inputs whose magnitude lies outside this band move relative to themselves (see step_scale).
_ABSOLUTE_STEPS = (1e-2, 1e6)
# The cheap estimate's steps are t = +-h, +-2h, +-4h with h = _STENCIL_STEP. Small enough
# that a sampled domain rarely ends within 4h (log at 0.1 along a tangent of 4 still has room)
# and that the fourth-order estimates of smooth functions agree to 1e-8 or better, large
# enough that the rounding of g's values, amplified some 13,500 times by the stencil, stays
# near 1e-12 of them. 2**-10 left five times as many checks to numdifftools in the linear
# algebra and Bessel tests, for want of agreement.
_STENCIL_STEP = 2.0**-12
# What functions raise, rather than return NaN, outside their domain (math.sqrt(-1), SciPy's
# argument checks): at a trial step away from the primal these mean "no value here".
_DOMAIN_ERRORS = (ValueError, ZeroDivisionError, OverflowError, FloatingPointError)


def step_scale(x: Any) -> Any:
    """How far a finite-difference step moves each element of ``x`` per unit of ``t``.

    1 for elements of moderate size (and for zeros); ``|x|`` for tiny and huge ones, so that
    ``x + t * scale * dx`` neither steps a positive 1e-300 below zero (out of the domain of
    ``log``, ``sqrt``, ``power``) nor rounds a step away from 1e150. The directions the
    harness draws are scaled by it; the checks hold for any direction.

    >>> step_scale(np.array([0.0, 0.5, 1e-300, -1e150]))
    array([1.e+000, 1.e+000, 1.e-300, 1.e+150])
    """
    magnitude = np.abs(np.asarray(x, dtype=complex if np.iscomplexobj(x) else float))
    low, high = _ABSOLUTE_STEPS
    relative = (magnitude > 0) & ((magnitude < low) | (magnitude > high)) & np.isfinite(magnitude)
    return np.where(relative, magnitude, 1.0)


def directional_derivative(
    g: Callable[[float], Any],
    fdm: Any = None,
    noise: Callable[[], Any] | None = None,
    settles: Callable[[FDEstimate], bool] | None = None,
) -> FDEstimate:
    """The derivative of ``g`` at 0 by finite differences (numdifftools unless ``fdm``).

    Trial points where ``g`` leaves its domain (a NaN, or one of the errors functions raise
    there) are discarded; ``g(0)`` itself is never excused, and runs once. ``noise()``, asked
    after ``g(0)`` ran, is how much ``g``'s values are uncertain from rounding (by default the
    spacing of ``g(0)``); error estimates are never smaller than what it allows.

    ``settles(estimate)`` (numdifftools only) judges the cheap ``central_stencil`` estimate
    first: when it says the estimate decides the check, that estimate is the answer (seven
    calls of ``g`` in all); otherwise numdifftools' adaptive one is.

    >>> cheap = directional_derivative(np.exp, settles=lambda estimate: True)
    >>> bool(abs(cheap.value - 1.0) < 1e-12), cheap.calls
    (True, 7)
    >>> directional_derivative(np.exp, settles=lambda estimate: False).calls > 7
    True
    """
    calls = 0
    shape: tuple[int, ...] = ()
    at_zero: list = []

    def counted(t: Any) -> Any:
        nonlocal calls, shape
        t = float(t)
        if t == 0.0:
            if not at_zero:
                calls += 1
                at_zero.append(g(t))
                shape = np.shape(at_zero[0])
            return at_zero[0]
        calls += 1
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
                floor = _spacing(at_zero[0]) if noise is None else np.abs(noise())
                if settles is not None:
                    value, error = central_stencil(counted, floor)
                    cheap = _estimate(value, error, calls)
                    if np.all(np.isfinite(value)) and np.all(np.isfinite(error)):
                        if settles(cheap):
                            return cheap
                size = max(1.0, _worst(at_zero[0]))
                value, error = _numdifftools(nd, counted, floor, size)
            else:
                value = fdm(counted, 0.0)
                error = getattr(fdm, "acc", None)
                error = 0.0 if error is None else error
    return _estimate(value, error, calls)


def _estimate(value: Any, error: Any, calls: int) -> FDEstimate:
    if np.ndim(value) == 0:
        return FDEstimate(float(np.real(value)), float(np.real(error)), calls)
    return FDEstimate(np.asarray(value), np.broadcast_to(np.asarray(error), np.shape(value)), calls)


def central_stencil(
    g: Callable[[float], Any], noise: Any = 0.0, h: float | None = None
) -> tuple[Any, Any]:
    """The derivative of ``g`` at 0 from ``g(+-h)``, ``g(+-2h)``, ``g(+-4h)``, and its error.

    Central differences ``d(s) = (g(s) - g(-s)) / 2s`` at the three steps, extrapolated
    twice (Richardson) to ``(64 d(h) - 20 d(2h) + d(4h)) / 45``, exact for polynomials of
    degree six. The error estimate is the gap between the fourth-order estimates from steps
    ``h`` and ``2h`` (about fifteen times the error of the first, itself far larger than that
    of the sixth-order value for a smooth ``g``; for a kink or jump within ``4h`` the two
    disagree), plus ``noise`` (the rounding of each value of ``g``) through the stencil's
    weights. NaNs from steps outside ``g``'s domain make both NaN.

    >>> value, error = central_stencil(lambda t: (1.0 + t) ** 6)
    >>> bool(abs(value - 6.0) < 1e-12), bool(error < 1e-8)
    (True, True)
    """
    h = _STENCIL_STEP if h is None else h
    # The same formulas in rises g(s) - g(-s) = 2 s d(s), at s = h, 2h, 4h:
    rise1, rise2, rise4 = (_rise(g, s) for s in (h, 2 * h, 4 * h))
    sixth_order = (256 * rise1 - 40 * rise2 + rise4) / (360 * h)
    gap = (16 * rise1 - 10 * rise2 + rise4) / (24 * h)  # fourth order at h minus at 2h
    # The weights of the six values in sixth_order add up to 594 / (360 h).
    rounding = _NOISE_FACTOR * 594 / (360 * h) * np.abs(noise)
    return sixth_order, np.abs(gap) + rounding


def _rise(g: Callable[[float], Any], s: float) -> Any:
    return np.asarray(g(s), dtype=float) - np.asarray(g(-s), dtype=float)


def _spacing(value: Any) -> Any:
    with np.errstate(all="ignore"):
        return np.spacing(np.abs(np.asarray(value)))


def _numdifftools(nd: Any, g: Callable, noise: Any = 0.0, size: float = 1.0) -> tuple[Any, Any]:
    """numdifftools from the largest base step down, until an estimate is finite and trusted;
    then, if none was trusted, once with a few large steps. ``size`` is that of ``g``'s values
    (at least 1), for the absolute part of trust."""
    best: tuple[Any, Any] | None = None
    for base_step, num_steps in [(b, None) for b in _BASE_STEPS] + [_COARSE]:
        if best is not None and np.all(np.isfinite(best[0])) and base_step < _SMALLEST_FOR_TRUST:
            continue
        # num_steps only where it is meant: None is not numdifftools' default (15 steps, down
        # to base_step / 2**14) but its minimum (10, down to base_step / 2**9), from which an
        # estimate from 2.0 can be off by a percent and still look certain.
        step = (
            nd.MaxStepGenerator(base_step=base_step)
            if num_steps is None
            else nd.MaxStepGenerator(base_step=base_step, num_steps=num_steps)
        )
        result = nd.Derivative(g, step=step, full_output=True)(0.0)
        value, error, final_step = derivative_and_error(result)
        if np.any(noise):
            with np.errstate(all="ignore"):
                error = np.maximum(error, _NOISE_FACTOR * noise / np.abs(final_step))
        if not np.all(np.isfinite(value)):
            best = best or (value, error)
            continue
        if best is None or not np.all(np.isfinite(best[0])) or _worst(error) < _worst(best[1]):
            best = (value, error)
        if np.all(np.abs(error) <= _TRUSTED_RTOL * np.abs(value) + _TRUSTED_ATOL * size):
            break
    assert best is not None
    return best


def _worst(error: Any) -> float:
    with np.errstate(all="ignore"):
        return float(np.nanmax(np.abs(error), initial=0.0)) if np.size(error) else 0.0


def method_name(fdm: Any) -> str:
    """How to name the finite-difference method in messages."""
    if fdm is None:
        return "numdifftools"
    return getattr(fdm, "__name__", None) or type(fdm).__name__
