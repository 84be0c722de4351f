"""Rules for the derivatives of Bessel functions: ``jvp yvp ivp kvp h1vp h2vp``.

``jvp(v, z, n)`` is the ``n``-th derivative in ``z``; its derivative in ``z`` is the derivative
of order ``n + 1``. The values are computed here with SciPy's binomial formula written in
ufuncs (``bessel_derivative``), so that an engine's arrays pass through. Derivatives in a real
order ``v`` reuse the order derivatives of J, Y, I, K and the Hankel functions
(``bessel_order.bessel_order_derivative``; by Chebyshev interpolation at complex ``z``),
thunked, on NumPy values. Integer orders and the derivative order ``n`` have no tangent.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.jvp, 0, 1.5)
>>> bool(abs(pullback(1.0)[2] - sc.jvp(0, 1.5, 2)) < 1e-12)
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.parametric import parametric_rule
from .bessel_order import bessel_order_derivative

__all__ = ["bessel_derivative"]


# ---- derivatives of Bessel functions: jvp yvp ivp kvp h1vp h2vp ------------------------------


def bessel_derivative(f: Any, v: Any, z: Any, n: int) -> Any:
    """The ``n``-th derivative in ``z`` of the Bessel function ``f`` (jv yv iv kv hankel1 hankel2).

    The binomial formula of ``scipy.special.jvp`` (DLMF 10.6.7, 10.29.5) in ufuncs only:
    ``2**-n sum_i (+-1)**i C(n, i) f(v - n + 2i, z)``, times ``(-1)**n`` for ``kv``.

    >>> import scipy.special as sc
    >>> bool(np.isclose(bessel_derivative(sc.jv, 0.0, 1.5, 1), -sc.j1(1.5)))
    True
    """
    return _binomial_sum(f, v, z, n, _phase(f)) * _sign(f, n)


def _phase(f: Any) -> float:
    return 1.0 if f in (sc.iv, sc.kv) else -1.0


def _sign(f: Any, n: int) -> float:
    return -1.0 if f is sc.kv and n % 2 else 1.0


def _binomial_sum(f: Callable[..., Any], v: Any, z: Any, n: int, phase: float) -> Any:
    coefficient = 1.0
    total = f(np.subtract(v, n), z)
    for i in range(1, n + 1):
        coefficient = phase * coefficient * (n - i + 1) / i
        total = total + coefficient * f(np.add(np.subtract(v, n), 2 * i), z)
    return total / 2.0**n


def _derivative_order(rest: tuple) -> int:
    # The partials see (v, z, n, y) when n is given, (v, z, y) otherwise.
    return int(rest[0]) if len(rest) == 2 else 1


def _derivative_rule(g: Any, f: Any) -> None:
    name = g.__name__

    def derivative_forward(v: Any, z: Any, n: int = 1) -> Any:
        if int(n) != n or n < 0:
            return g(v, z, n)  # SciPy's own error for a bad order
        return bessel_derivative(f, v, z, int(n))

    def derivative_z_partial(v: Any, z: Any, *rest: Any) -> Any:
        return bessel_derivative(f, v, z, _derivative_order(rest) + 1)

    def derivative_order_partial(v: Any, z: Any, *rest: Any) -> Any:
        n = _derivative_order(rest)

        def order(w: Any, x: Any) -> Any:
            return bessel_order_derivative(f.__name__, w, x)

        total = _binomial_sum(order, v, z, n, _phase(f)) * _sign(f, n)
        if n == 0:
            return total
        # Below -2**53 the orders v - n + 2i all round to v, an even integer, where the order
        # derivatives (signed infinities from the reflection formulas) have the sign of even
        # orders; the sum's meaning is lost: no derivative.
        return np.where(np.asarray(v) <= -(2.0**53), np.nan, total)

    derivative_z_partial.__qualname__ = f"{name}_partial"
    derivative_order_partial.__qualname__ = f"{name}_order_partial"
    parametric_rule(
        g,
        derivative_order_partial,
        derivative_z_partial,
        None,
        costly=(0,),
        required=2,
        keywords=("n",),
        forward=derivative_forward,
    )


for _g, _f in (
    (sc.jvp, sc.jv),
    (sc.yvp, sc.yv),
    (sc.ivp, sc.iv),
    (sc.kvp, sc.kv),
    (sc.h1vp, sc.hankel1),
    (sc.h2vp, sc.hankel2),
):
    _derivative_rule(_g, _f)
