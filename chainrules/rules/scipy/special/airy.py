"""Rules for the Airy functions ``airy airye`` and their integrals ``itairy``.

``Ai' = Aip``, ``Aip' = z Ai`` (and Bi, DLMF 9.2.1); ``airye`` adds ``+-sqrt(z)`` times the
output from the scaling ``exp(+-2/3 z^(3/2))``. ``itairy(x)`` (the integrals of Ai and Bi
from 0 to ``x`` and to ``-x``) has the integrands as derivatives.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.airy, 0.0)
>>> [round(float(p), 6) for p in pullback((1.0, 0.0, 0.0, 0.0))[1:]]  # Ai'(0)
[-0.258819]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.dtypes import is_complex
from ....core.primals import primal_of

# ---- Airy functions -------------------------------------------------------------------------

scalar_rule(
    sc.airy,
    (lambda z, y: y[1],),
    (lambda z, y: z * y[0],),
    (lambda z, y: y[3],),
    (lambda z, y: z * y[2],),
)


def _airye_root(z: Any) -> Any:
    """d/dz of 2/3 z^(3/2): sqrt(z), and 0 for real z < 0, where the exponent is imaginary."""
    if is_complex(z):
        return np.sqrt(z)
    # sqrt at a safe argument where z <= 0, so that its infinite slope at 0 stays out of the
    # second derivative there.
    positive = z > 0
    return np.where(positive, np.sqrt(np.where(positive, z, 1.0)), 0.0)


def _airye_bi_root(z: Any) -> Any:
    # exp(-|Re 2/3 z^(3/2)|) is not holomorphic: a complex partial would be wrong, so NaN.
    if is_complex(z):
        return np.full(np.shape(z), np.nan)
    return _airye_root(z)


scalar_rule(
    sc.airye,
    (lambda z, y: y[1] + _airye_root(z) * y[0],),
    (lambda z, y: z * y[0] + _airye_root(z) * y[1],),
    (lambda z, y: y[3] - _airye_bi_root(z) * y[2],),
    (lambda z, y: z * y[2] - _airye_bi_root(z) * y[3],),
)

# ---- integrals of Airy functions ---------------------------------------------------------

# sc.airy as the rules apply it: on dask arrays chunk by chunk (dask applies no ufunc with
# several outputs), on an engine's values through their rules
_airy = primal_of(sc.airy)

scalar_rule(
    sc.itairy,
    (lambda x, y: _airy(x)[0],),
    (lambda x, y: _airy(x)[2],),
    (lambda x, y: _airy(-x)[0],),
    (lambda x, y: _airy(-x)[2],),
)
