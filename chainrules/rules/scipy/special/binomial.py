"""Rules for the binomial and negative binomial distribution functions and their inverses.

``bdtr(k, n, p) = betainc(n - k, k + 1, 1 - p)`` and ``nbdtr(k, n, p) = betainc(n, k + 1, p)``
(with their complements ``bdtrc nbdtrc``) have integer ``k`` and ``n`` (no tangent; SciPy
rounds a float ``k`` down in ``bdtr``, truncates it in ``nbdtr`` and truncates a float ``n``,
and so do the rules) and a beta density as derivative in ``p``. The inverses ``bdtri nbdtri``
in ``y`` have ``1 / density`` at their own result.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.bdtr, 0, 1, 0.25)  # 1 - p
>>> float(y), pullback(1.0)
(0.75, (NoTangent(), NoTangent(), NoTangent(), -1.0))
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.parametric import parametric_rule
from .distributions import beta_density


def _bdtr_dp(k: Any, n: Any, p: Any) -> Any:
    k, n = np.floor(k), np.trunc(n)  # as SciPy takes them
    # k >= n: bdtr is 1 for every p; betaln(0, .) would be infinite
    full = np.greater_equal(k, n)
    a = np.where(full, 1.0, np.subtract(n, k))
    return np.where(full, 0.0, -beta_density(k + 1, a, p))


def _nbdtr_dp(k: Any, n: Any, p: Any) -> Any:
    return beta_density(np.trunc(n), np.trunc(k) + 1, p)


# ---- binomial and negative binomial: derivative in p ----------------------------------------

parametric_rule(sc.bdtr, None, None, lambda k, n, p, y: _bdtr_dp(k, n, p))
parametric_rule(sc.bdtrc, None, None, lambda k, n, p, y: -_bdtr_dp(k, n, p))
parametric_rule(sc.nbdtr, None, None, lambda k, n, p, y: _nbdtr_dp(k, n, p))
parametric_rule(sc.nbdtrc, None, None, lambda k, n, p, y: -_nbdtr_dp(k, n, p))

# ---- inverses: 1 / density at the result ----------------------------------------------------

parametric_rule(sc.bdtri, None, None, lambda k, n, y, p: 1 / _bdtr_dp(k, n, p))
parametric_rule(sc.nbdtri, None, None, lambda k, n, y, p: 1 / _nbdtr_dp(k, n, p))
