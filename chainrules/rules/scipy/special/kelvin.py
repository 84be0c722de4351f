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

import scipy.special as sc

from ....core.define import scalar_rule
from .bessel import over_x

# ---- Kelvin functions -----------------------------------------------------------------------

scalar_rule(sc.ber, lambda x, y: sc.berp(x))
scalar_rule(sc.bei, lambda x, y: sc.beip(x))
scalar_rule(sc.ker, lambda x, y: sc.kerp(x))
scalar_rule(sc.kei, lambda x, y: sc.keip(x))
scalar_rule(sc.berp, lambda x, y: -over_x(x, y, 0.0) - sc.bei(x))
scalar_rule(sc.beip, lambda x, y: -over_x(x, y, 0.5) + sc.ber(x))
scalar_rule(sc.kerp, lambda x, y: -y / x - sc.kei(x))
scalar_rule(sc.keip, lambda x, y: -y / x + sc.ker(x))
scalar_rule(
    sc.kelvin,
    (lambda x, y: y[2],),
    (lambda x, y: y[3],),
    (lambda x, y: 1j * y[0] - over_x(x, y[2], 0.5j),),
    (lambda x, y: 1j * y[1] - y[3] / x,),
)
