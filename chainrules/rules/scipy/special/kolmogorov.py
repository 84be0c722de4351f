"""Rules for the Kolmogorov-Smirnov distribution functions ``smirnov kolmogorov``.

Their derivatives are SciPy's own density ufuncs (``_smirnovp``, ``_kolmogp``); the inverses
``smirnovi kolmogi`` are in ``inverses``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.kolmogorov, 1.0)
>>> bool(pullback(1.0)[1] < 0)
True
"""

from __future__ import annotations

from typing import Any

import scipy.special as sc

from ...._compat import scipy_private_ufunc
from ....core.define import scalar_rule
from ....core.parametric import parametric_rule

__all__ = ["kolmogorov_dx", "smirnov_dd"]

_SMIRNOVP = scipy_private_ufunc("_smirnovp")
_KOLMOGP = scipy_private_ufunc("_kolmogp")


def smirnov_dd(n: Any, d: Any, y: Any) -> Any:
    return _SMIRNOVP(n, d)


def kolmogorov_dx(x: Any, y: Any) -> Any:
    return _KOLMOGP(x)


# ---- Kolmogorov-Smirnov ---------------------------------------------------------------------

parametric_rule(sc.smirnov, None, smirnov_dd)
scalar_rule(sc.kolmogorov, kolmogorov_dx)
