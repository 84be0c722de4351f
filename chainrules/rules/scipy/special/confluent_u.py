"""Rules for Tricomi's confluent hypergeometric function ``hyperu(a, b, x)``, in every argument.

In ``x``: ``U'(a, b, x) = -a U(a + 1, b + 1, x)`` (DLMF 13.3.22). In ``a`` and ``b``, for
``x > 0``, from the integral (DLMF 13.4.4)

    U(a, b, x) = 1/gamma(a) int_0^inf exp(-x t) t^(a-1) (1 + t)^(b-a-1) dt,   a > 0,

whose parameters enter the integrand as exponents: ``d log U/da = E[log(t / (1 + t))] -
digamma(a)``, ``d log U/db = E[log(1 + t)]``, and the Hessian of ``log U`` is the covariance of
these logarithms minus ``trigamma(a)`` in ``a`` (``moments``, adaptive quadrature at the
relative tolerance 1e-12, in ``u = log t`` so that every scale of ``x`` is one smooth bump).
The integral is taken at ``a + m`` and ``a + m + 1`` with ``a + m`` in ``[1, 2)``, and ``U`` at
``a`` follows on jets by the recurrence ``U(a-1) = (2a + x - b) U(a) - a (a - b + 1) U(a+1)``
(DLMF 13.3.7), downwards, where ``U`` grows (a stable direction): this covers ``a <= 0`` and
keeps the quadrature off the ``1/a`` cancellation of ``E[log t] - digamma(a)`` at small ``a``.
At ``x = 0``, ``U(a, b, 0) = gamma(1 - b) / gamma(a - b + 1)`` for ``b < 1`` (DLMF 13.2.22).

The parameter derivatives are thunked, and ``hyperu_gradient`` is a function with rules of its
own: its Hessian in ``(a, b)`` from the same moments, its derivative in ``x`` from the one
above at ``(a + 1, b + 1)``, so pullbacks differentiate again. SciPy computes on NumPy arrays
only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.hyperu, 1.0, 1.0, 1.0)
>>> round(float(pullback(1.0)[3]), 12) == round(float(-sc.hyperu(2.0, 2.0, 1.0)), 12)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from .jets import (
    Cancellation,
    Jet,
    broadcast_jets,
    compose,
    gradient_of,
    hessian_of,
    jet_exp,
    jet_rgamma,
    jet_where,
    parameter_jets,
)
from .moments import moments
from .parameter_gradients import parameter_gradient_rules

__all__ = ["hyperu_gradient"]

# The grid that locates the integrand's peak in u = log t, around log(max(a, b) / x).
_GRID = np.linspace(-40.0, 40.0, 801)


def _log_integrand(a: float, b: float, x: float) -> Any:
    """The logarithm of the integrand in ``u = log t``, ``t^a`` included (``dt = t du``)."""

    def phi(u: Any) -> Any:
        with np.errstate(over="ignore"):  # exp(u) far out, where the integrand is exp(-inf)
            return -x * np.exp(u) + a * u + (b - a - 1) * np.logaddexp(0.0, u)

    return phi


def _log_u(a: float, b: float, x: float, second: bool) -> tuple[float, Any, Any]:
    """``log U(a, b, x)`` for ``a >= 1``, ``x > 0``, with its gradient and Hessian in (a, b)."""
    phi = _log_integrand(a, b, x)
    grid = _GRID + np.log(max(a, abs(b), 1.0) / x)
    peak = float(grid[np.argmax(phi(grid))])
    top = phi(peak)
    weight = lambda u: np.exp(phi(u) - top)
    ga = lambda u: -np.logaddexp(0.0, -u)  # log(t / (1 + t))
    gb = lambda u: np.logaddexp(0.0, u)  # log(1 + t)
    total, means, covariances = moments(weight, (ga, gb), ((-np.inf, peak), (peak, np.inf)), second)
    gradient = np.array([means[0] - sc.digamma(a), means[1]])
    hessian = np.full((2, 2), np.nan)
    if second:
        vaa, vab, vbb = covariances
        hessian = np.array([[vaa - sc.polygamma(1, a), vab], [vab, vbb]])
    return top + np.log(total) - sc.gammaln(a), gradient, hessian


def _integral(a: Jet, b: Jet, x: Any, inside: Any) -> Jet:
    """``U`` on jets where ``inside`` (``a >= 1``, ``x > 0``) by the integral, NaN elsewhere."""
    second = a.order >= 2
    shape = x.shape
    value = np.full(shape, np.nan)
    gradient = np.full((2, *shape), np.nan)
    hessian = np.full((2, 2, *shape), np.nan)
    for index in np.ndindex(shape):
        if inside[index]:
            found = _log_u(float(a.value[index]), float(b.value[index]), float(x[index]), second)
            value[index] = found[0]
            gradient[(slice(None), *index)] = found[1]
            hessian[(slice(None), slice(None), *index)] = found[2]
    log_u = compose(value, gradient, hessian if second else None, [a, b])
    return jet_exp(log_u)


def _hyperu(a: Any, b: Any, x: Any, order: int) -> Jet:
    """``U(a, b, x)`` with its derivatives in ``a`` and ``b``, on jets."""
    a_jet, b_jet = parameter_jets(a, b, order=order)
    a_jet, b_jet, x = broadcast_jets(a_jet, b_jet, np.asarray(x, dtype=float))
    steps = np.where(a_jet.value < 1, np.ceil(1 - a_jet.value), 0.0)
    steps = np.where(np.isfinite(steps), steps, 0.0)
    inside = (x > 0) & np.isfinite(x) & np.isfinite(a_jet.value) & np.isfinite(b_jet.value)
    lower = _integral(a_jet + steps, b_jet, x, inside)
    upper = _integral(a_jet + steps + 1, b_jet, x, inside)
    # U(A - 1) = (2A + x - b) U(A) - A (A - b + 1) U(A + 1), from A = a + steps down to a + 1;
    # NaN in each component where its two terms cancel by more than 1e-9 of their rounding:
    # where U is small beside U at a + steps (at a negative integer a, U is a polynomial, while
    # U(a + steps, b, x) ~ gamma(b - 1) x^(1 - b): hyperu(-3, 30, 0.3)'s derivative in b came
    # out 2.9e37 for -2826)
    sizes = Cancellation(lower)
    for j in range(int(np.max(steps, initial=0)), 0, -1):
        middle = a_jet + j
        first = (2 * middle + x - b_jet) * lower
        second = middle * (middle - b_jet + 1) * upper
        moving = steps >= j
        sizes.see(first, moving)
        sizes.see(second, moving)
        upper, lower = jet_where(moving, lower, upper), jet_where(moving, first - second, lower)
    lower = sizes.guard(lower)
    at_zero = (x == 0) & (b_jet.value < 1)
    if np.any(at_zero):
        limit = jet_rgamma(a_jet - b_jet + 1) / jet_rgamma(1 - b_jet)
        lower = jet_where(at_zero, limit, lower)
    return lower


def hyperu_gradient(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``hyperu(a, b, x)`` in ``a`` and ``b``.

    >>> [round(float(d), 10) for d in hyperu_gradient(1.0, 1.0, 1.0)]  # mpmath.diff
    [-0.5319307701, 0.265965385]
    """
    return gradient_of(_hyperu(a, b, x, 1))


def _hyperu_slopes(a: Any, b: Any, x: Any) -> tuple:
    # d/dx U_p = d/dp (-a U(a+1, b+1, x))
    a1, b1 = np.add(a, 1), np.add(b, 1)
    ga, gb = call(hyperu_gradient, a1, b1, x)
    return ((-sc.hyperu(a1, b1, x) - a * ga, -a * gb),)


parameter_gradient_rules(
    sc.hyperu,
    hyperu_gradient,
    lambda a, b, x: hessian_of(_hyperu(a, b, x, 2)),
    _hyperu_slopes,
    lambda a, b, x, y: -a * sc.hyperu(np.add(a, 1), np.add(b, 1), x),
)
