"""Rules for the Kolmogorov-Smirnov distribution functions ``smirnov kolmogorov``.

``smirnov``'s derivative is SciPy's own density ufunc ``_smirnovp`` (which has no rule:
``smirnov``'s second derivative raises ``NoRuleError``). ``kolmogorov``'s is the derivative of
``kolmogorov(x) = 2 sum (-1)**(k-1) exp(-2 k**2 x**2)`` for x > 1, and of
``1 - sqrt(2 pi)/x sum exp(-(2k-1)**2 pi**2/(8 x**2))`` (Jacobi's transform, which converges
fast there) for x <= 1, in NumPy operations, so it differentiates again; six terms of either
are exact to rounding (SciPy's ``_kolmogp`` loses three digits at x = 1), and below x = 0.04
the derivative underflows to 0. The inverses ``smirnovi kolmogi`` are in ``inverses``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.kolmogorov, 1.0)
>>> bool(pullback(1.0)[1] < 0)
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ...._compat import scipy_private_ufunc
from ....core.define import scalar_rule
from ....core.parametric import parametric_rule

__all__ = ["kolmogorov_dx", "smirnov_dd"]

_SMIRNOVP = scipy_private_ufunc("_smirnovp")


def smirnov_dd(n: Any, d: Any, y: Any) -> Any:
    return _SMIRNOVP(n, d)


def kolmogorov_dx(x: Any, y: Any) -> Any:
    small = x <= 1
    underflow = x < 0.04
    u = np.where(small & ~underflow, x, 0.5)  # Jacobi's series, at a safe argument
    far = x > 30  # exp(-2 x**2) underflows; at x = inf the series' product would be NaN
    v = np.where(small | far, 2.0, x)  # the alternating series, at a safe argument
    jacobi: Any = 0.0
    alternating: Any = 0.0
    for k in range(1, 7):
        a = (2 * k - 1) ** 2 * np.pi**2 / 8
        jacobi = jacobi + np.exp(-a / (u * u)) * (2 * a / (u * u) - 1)
        alternating = alternating + (-1) ** (k - 1) * k * k * np.exp(-2 * k * k * v * v)
    small_side = np.where(underflow, 0.0, -np.sqrt(2 * np.pi) * jacobi / (u * u))
    return np.where(small, small_side, np.where(far, 0.0, -8 * v * alternating))


# ---- Kolmogorov-Smirnov ---------------------------------------------------------------------

parametric_rule(sc.smirnov, None, smirnov_dd)
scalar_rule(sc.kolmogorov, kolmogorov_dx)
