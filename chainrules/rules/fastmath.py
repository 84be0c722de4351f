"""Rules for ``chainrules.fastmath``: the exact twins' rules, instantiated for the fast kernels.

Elementwise functions share their twin's ``scalar_rule`` row through ``scalar_rule_like``:
the partials are written once, as functions of the input and the output, and evaluated on
the fast output where the ideal derivative is a function of it (exp: ``y``; tanh:
``1 - y*y``; sigmoid: ``y*(1 - y)``). The result is the derivative of the ideal function
at the input, with a relative error bounded by the primal's stated accuracy.

The reductions get their rules from factories that take the forward function
(``make_softmax_rules(f, forward)`` and its kin), so the same rules serve the fast kernels
and, by passing SciPy's functions, their exact twins. The twins that NumPy and SciPy lack
(``fastmath.exact``: rsqrt, softplus, gelu) get their scalar rules here.

>>> import numpy as np
>>> from chainrules import fastmath
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(fastmath.exp, np.float32(0.0))
>>> pullback(np.float32(2.0))
(NoTangent(), np.float32(2.0))
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .. import fastmath
from ..core.define import scalar_rule, scalar_rule_like
from ..core.namespace import array_namespace
from ..core.projection import ProjectTo
from ..core.registry import frule, rrule
from ..core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero
from ..core.thunks import unthunk
from ..fastmath import exact
from . import numpy as _numpy_rules  # noqa: F401  the twins' rules, instantiated below
from . import scipy as _scipy_rules  # noqa: F401

__all__ = ["make_log_softmax_rules", "make_logsumexp_rules", "make_softmax_rules"]

# ---- exact twins that NumPy and SciPy lack --------------------------------------------------


def _gelu_partial(x: Any, y: Any) -> Any:
    """d/dx [x s(t)] = s + x s (1 - s) t' with t = 2 sqrt(2/pi) (x + 0.044715 x**3)."""
    xp = array_namespace(x)
    scale = 2.0 * exact.GELU_SCALE
    t = scale * (x + exact.GELU_CUBIC * x * x * x)
    # exp(-|t|), a sigmoid without overflow on either side; each branch carries its own slope
    # into a second derivative, where abs'(0) = 0 would lose it at t = 0.
    e = xp.exp(xp.where(t >= 0, -t, t))
    s = xp.where(t >= 0, 1.0 / (1.0 + e), e / (1.0 + e))
    return s + x * s * (1.0 - s) * scale * (1.0 + 3.0 * exact.GELU_CUBIC * x * x)


scalar_rule(exact.rsqrt, lambda x, y: -0.5 * y * y * y)
# sigmoid(x) = 1 - exp(-y) for y = softplus(x): exact in y, even where y underflows
scalar_rule(exact.softplus, lambda x, y: -array_namespace(y).expm1(-y))
scalar_rule(exact.gelu, _gelu_partial)

# ---- elementwise kernels: their twins' rules ------------------------------------------------

for _fast, _twin in fastmath.TWINS.items():
    if _fast not in (fastmath.softmax, fastmath.log_softmax, fastmath.logsumexp):
        scalar_rule_like(_fast, _twin)


# ---- softmax, log_softmax, logsumexp: rule factories ----------------------------------------


def make_softmax_rules(f: Any, forward: Callable[[Any, Any], Any]) -> None:
    """Register the rrule and frule of ``f(x, axis=None)``, a softmax computed by ``forward``.

    The derivative is the ideal softmax's, evaluated on the output ``y``:
    ``dx = y * (dy - sum(dy * y, axis))``.
    """

    @rrule.register(f)
    def softmax_rrule(x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        project_x = ProjectTo(x)

        def softmax_pullback(dy: Any) -> tuple[Any, Any]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return NO_TANGENT, ZERO_TANGENT
            xp = array_namespace(y, dy)
            return NO_TANGENT, project_x(y * (dy - xp.sum(dy * y, axis=axis, keepdims=True)))

        return y, softmax_pullback

    @frule.register(f)
    def softmax_frule(tangents: tuple, x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        dx = unthunk(tangents[1])
        if isinstance(dx, AbstractZero):
            return y, dx
        xp = array_namespace(y, dx)
        return y, ProjectTo(y)(y * (dx - xp.sum(y * dx, axis=axis, keepdims=True)))


def make_log_softmax_rules(f: Any, forward: Callable[[Any, Any], Any]) -> None:
    """Register the rrule and frule of ``f(x, axis=None)``, a log_softmax computed by ``forward``.

    ``dx = dy - exp(y) * sum(dy, axis)``, from the output ``y``.
    """

    @rrule.register(f)
    def log_softmax_rrule(x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        project_x = ProjectTo(x)

        def log_softmax_pullback(dy: Any) -> tuple[Any, Any]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return NO_TANGENT, ZERO_TANGENT
            xp = array_namespace(y, dy)
            return NO_TANGENT, project_x(dy - xp.exp(y) * xp.sum(dy, axis=axis, keepdims=True))

        return y, log_softmax_pullback

    @frule.register(f)
    def log_softmax_frule(tangents: tuple, x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        dx = unthunk(tangents[1])
        if isinstance(dx, AbstractZero):
            return y, dx
        xp = array_namespace(y, dx)
        return y, ProjectTo(y)(dx - xp.sum(xp.exp(y) * dx, axis=axis, keepdims=True))


def _kept(xp: Any, v: Any, ndim: int, axis: Any, keepdims: bool) -> Any:
    """A reduced value with the reduced axes back, as size 1, for broadcasting."""
    if keepdims:
        return v
    if axis is None:
        return xp.reshape(xp.asarray(v), (1,) * ndim)
    return xp.expand_dims(xp.asarray(v), axis=axis)


def make_logsumexp_rules(f: Any, forward: Callable[[Any, Any, bool], Any]) -> None:
    """Register the rrule and frule of ``f(x, axis=None, keepdims=False)``, a logsumexp.

    ``dx = exp(x - y) * dy``: the softmax, from the output ``y``.
    """

    @rrule.register(f)
    def logsumexp_rrule(x: Any, axis: Any = None, keepdims: bool = False) -> tuple[Any, Any]:
        y = forward(x, axis, keepdims)
        project_x = ProjectTo(x)
        ndim = len(getattr(x, "shape", ()))

        def logsumexp_pullback(dy: Any) -> tuple[Any, Any]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return NO_TANGENT, ZERO_TANGENT
            xp = array_namespace(x, y, dy)
            weights = xp.exp(x - _kept(xp, y, ndim, axis, keepdims))
            return NO_TANGENT, project_x(weights * _kept(xp, dy, ndim, axis, keepdims))

        return y, logsumexp_pullback

    @frule.register(f)
    def logsumexp_frule(
        tangents: tuple, x: Any, axis: Any = None, keepdims: bool = False
    ) -> tuple[Any, Any]:
        y = forward(x, axis, keepdims)
        dx = unthunk(tangents[1])
        if isinstance(dx, AbstractZero):
            return y, dx
        xp = array_namespace(x, y, dx)
        ndim = len(getattr(x, "shape", ()))
        weights = xp.exp(x - _kept(xp, y, ndim, axis, keepdims))
        return y, ProjectTo(y)(xp.sum(weights * dx, axis=axis, keepdims=keepdims))


make_softmax_rules(fastmath.softmax, fastmath.softmax)
make_log_softmax_rules(fastmath.log_softmax, fastmath.log_softmax)
make_logsumexp_rules(fastmath.logsumexp, fastmath.logsumexp)
