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
# Closer to +-1 than this, lpmv's derivative comes from its hypergeometric series.
_NEAR_ONE = 0.9

# ---- Legendre functions: lpmv, and legendre_p family with its diff_n keyword ----------------


def _lpmv_partial(m: Any, v: Any, x: Any, y: Any) -> Any:
    """DLMF 14.10.5: ``(1 - x^2) P' = (m + v) P^m_{v-1} - v x P``, away from ``x = +-1``.

    Near ``x = 1`` (and ``x = -1`` for integer degrees, by ``P_n(-x) = (-1)^n P_n(x)``) the
    quotient cancels, and at the points its limit is no derivative of the rest: for ``m = 0``
    the rule differentiates ``P_v(x) = 2F1(-v, v + 1; 1; (1 - x)/2)`` (DLMF 14.3.1) instead,
    ``P_v' = v (v + 1)/2 2F1(1 - v, v + 2; 2; (1 - x)/2)``, which an engine differentiates again.
    """
    order_zero = np.equal(m, 0)
    integer = np.equal(v, np.floor(v))
    right = np.logical_and(order_zero, x > _NEAR_ONE)
    left = np.logical_and(np.logical_and(order_zero, integer), x < -_NEAR_ONE)
    near = np.logical_or(right, left)
    t = np.where(right, x, np.where(left, -x, 1.0))
    series = v * np.add(v, 1) / 2 * sc.hyp2f1(np.subtract(1, v), np.add(v, 2), 2.0, (1 - t) / 2)
    parity = np.where(np.remainder(np.where(integer, v, 0), 2) == 0, -1.0, 1.0)
    series = np.where(left, parity * series, series)
    edge = np.abs(x) == 1
    safe = np.where(near, 0.0, np.where(edge, 0.0, x))
    lower = sc.lpmv(m, np.subtract(v, 1), safe)
    inner = (np.add(m, v) * lower - v * safe * np.where(near, 0.0, y)) / (1 - safe * safe)
    end = np.where(
        order_zero, np.where(edge, x, 1.0) ** np.add(v, 1) * v * np.add(v, 1) / 2, np.nan
    )
    return np.where(near, series, np.where(edge, end, inner))


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
