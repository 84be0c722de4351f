"""Rules for Legendre functions: ``lpmv``, and ``legendre_p assoc_legendre_p sph_legendre_p``.

``lpmv`` is differentiated in ``x`` by DLMF 14.10.5 (the degree ``v`` has no closed form:
``NotImplementedTangent``; the order ``m`` is an integer). ``legendre_p``,
``assoc_legendre_p``, ``sph_legendre_p`` stack the value and its ``diff_n`` derivatives: their
rows differentiate into the rows of ``diff_n + 1``, and at ``diff_n = 2`` the third derivative
is exact, as for the ``*_all`` functions (``harmonics``): ``P_n''' = 15 C_{n-3}^{(7/2)}``,
Legendre's equation differentiated once, the ladder relation in the order. These rules call
SciPy as ``call(f, ...)``, so pullbacks differentiate again.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.lpmv, 0, 1, 0.5)  # P_1(x) = x
>>> float(pullback(1.0)[3])
1.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented
from .harmonics import assoc_legendre_third, ladder_slope, legendre_third, stacked_rules

_NO_FORMULA = "no closed form, not implemented"

# ---- Legendre functions: lpmv, and legendre_p family with its diff_n keyword ----------------


def _lpmv_partial(m: Any, v: Any, x: Any, y: Any) -> Any:
    """DLMF 14.10.5: ``(1 - x^2) P' = (m + v) P^m_{v-1} - v x P``; ``v (v+1)/2`` at x = 1, m = 0."""
    edge = np.abs(x) == 1
    lower = sc.lpmv(m, np.subtract(v, 1), x)
    inner = (np.add(m, v) * lower - v * x * y) / np.where(edge, 1.0, 1 - x * x)
    end = np.where(
        np.equal(m, 0), np.where(edge, x, 1.0) ** np.add(v, 1) * v * np.add(v, 1) / 2, np.nan
    )
    return np.where(edge, end, inner)


parametric_rule(
    sc.lpmv,
    None,
    not_implemented(f"derivative of lpmv in the degree v: {_NO_FORMULA}"),
    _lpmv_partial,
)


def _legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, z = args
    return legendre_third(z, np.asarray(n))


def _assoc_legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, z = args
    return assoc_legendre_third(z, np.asarray(n), np.asarray(m), out, options.get("norm", False))


def _sph_legendre_p_third(args: tuple, options: dict, out: Any) -> Any:
    n, m, theta = args
    up, down = (call(sc.sph_legendre_p, n, np.add(m, k), theta, diff_n=2)[2] for k in (1, -1))
    return ladder_slope(n, m, up, down)


stacked_rules(sc.legendre_p, 1, _legendre_p_third)
stacked_rules(sc.assoc_legendre_p, 1, _assoc_legendre_p_third, ("branch_cut", "norm"))
stacked_rules(sc.sph_legendre_p, 1, _sph_legendre_p_third)
