"""Rules for the Kelvin functions ``ber bei ker kei berp beip kerp keip kelvin``.

``ber' = berp`` and so on; ``w = ber + i bei`` (and ``ker + i kei``) solves
``w'' = i w - w'/x`` (DLMF 10.61, order 0), which gives the derivatives of
``berp beip kerp keip`` and of ``kelvin(x) = (Be, Ke, Bep, Kep)``; at ``x = 0`` the limits
``ber''(0) = 0``, ``bei''(0) = 1/2``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.ber, 1.0)
>>> bool(pullback(1.0)[1] == sc.berp(1.0))
True
"""

from __future__ import annotations

import math
from typing import Any

import scipy.special as sc

from ....core.define import scalar_rule
from .bessel import near_zero

# ---- Kelvin functions -----------------------------------------------------------------------

scalar_rule(sc.ber, lambda x, y: sc.berp(x))
scalar_rule(sc.bei, lambda x, y: sc.beip(x))
scalar_rule(sc.ker, lambda x, y: sc.kerp(x))
scalar_rule(sc.kei, lambda x, y: sc.keip(x))
# ber'(x)/x and bei'(x)/x near 0, from ber = sum_k (-1)^k (x/2)^(4k) / (2k)!^2 and
# bei = sum_k (-1)^k (x/2)^(4k+2) / (2k+1)!^2 (DLMF 10.65.1): the quotients' derivatives
# would cancel there.
_TERMS = 8
_BERP_OVER_X = tuple(
    (-1) ** k * k / (2 ** (4 * k - 2) * math.factorial(2 * k) ** 2) for k in range(1, _TERMS + 1)
)
_BEIP_OVER_X = tuple(
    (-1) ** k * (2 * k + 1) / (2 ** (4 * k + 1) * math.factorial(2 * k + 1) ** 2)
    for k in range(_TERMS)
)


def _berp_over_x(x: Any) -> Any:
    return near_zero(x, 1.0, _BERP_OVER_X, lambda t: sc.berp(t) / t, power=2, step=4)


def _beip_over_x(x: Any) -> Any:
    return near_zero(x, 1.0, _BEIP_OVER_X, lambda t: sc.beip(t) / t, step=4)


scalar_rule(sc.berp, lambda x, y: -_berp_over_x(x) - sc.bei(x))
scalar_rule(sc.beip, lambda x, y: -_beip_over_x(x) + sc.ber(x))
scalar_rule(sc.kerp, lambda x, y: -y / x - sc.kei(x))
scalar_rule(sc.keip, lambda x, y: -y / x + sc.ker(x))
scalar_rule(
    sc.kelvin,
    (lambda x, y: y[2],),
    (lambda x, y: y[3],),
    (lambda x, y: 1j * y[0] - _berp_over_x(x) - 1j * _beip_over_x(x),),
    (lambda x, y: 1j * y[1] - y[3] / x,),
)
