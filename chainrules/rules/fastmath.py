"""Rules for ``chainrules.fastmath``: the exact twins' rules, instantiated for the fast kernels.

Elementwise functions share their twin's ``scalar_rule`` row through ``scalar_rule_like``:
the partials are written once, as functions of the input and the output, and evaluated on
the fast output where the ideal derivative is a function of it (exp: ``y``; sigmoid:
``y*(1 - y)``), and on the input where that keeps its accuracy (tanh: ``sech(x)**2``, which
``1 - y*y`` rounds to 0 at saturation). The result is the derivative of the ideal function
at the input, with a relative error bounded by the primal's stated accuracy.

The reductions get their rules from the factories that define the rules of their SciPy twins
(``make_softmax_rules(f, forward)`` and its kin, parameterized by the forward function and,
for logsumexp, by the keywords taken: axis and keepdims here), so each formula is written
once. The twins that NumPy and SciPy lack (``fastmath.exact``: rsqrt, softplus, gelu) get
their scalar rules here.

>>> import numpy as np
>>> from chainrules import fastmath
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(fastmath.exp, np.float32(0.0))
>>> pullback(np.float32(2.0))
(NoTangent(), np.float32(2.0))
"""

from __future__ import annotations

from typing import Any

from .. import fastmath
from ..core.define import scalar_rule, scalar_rule_like
from ..core.namespace import array_namespace
from ..fastmath import exact

# The modules holding the twins' rules (fastmath.TWINS), instantiated below.
from .numpy import arithmetic as _arithmetic  # noqa: F401  power
from .numpy import elementwise as _elementwise  # noqa: F401  exp exp2 expm1 log log2 log1p sqrt tanh
from .scipy.special import error as _error  # noqa: F401  erf
from .scipy.special import information as _information  # noqa: F401  expit
from .scipy.special.softmax import make_log_softmax_rules, make_logsumexp_rules, make_softmax_rules

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


# ---- softmax, log_softmax, logsumexp: the twins' rule factories ------------------------------

make_softmax_rules(fastmath.softmax, fastmath.softmax)
make_log_softmax_rules(fastmath.log_softmax, fastmath.log_softmax)
make_logsumexp_rules(fastmath.logsumexp, fastmath.logsumexp)
