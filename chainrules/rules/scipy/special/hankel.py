"""Rules for the Hankel functions ``hankel1 hankel2`` and the scaled ``hankel1e hankel2e``.

The derivative in ``z`` is ``(H_{v-1} - H_{v+1}) / 2`` (DLMF 10.6.2); the scaled
``hankel1e = H1 exp(-iz)`` and ``hankel2e = H2 exp(iz)`` add ``-+ i y``. The derivative in a
real order ``v`` reuses the order derivatives of J and Y (``bessel_order``) at real ``z > 0``
and interpolates the function in its order at complex ``z``, thunked. An integer order has no
tangent.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.hankel1, 0, 1.0)
>>> bool(np.isclose(pullback(1.0)[2], -sc.j1(1.0)))  # the real part of H0' = -H1
True
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.dtypes import is_complex
from ....core.parametric import parametric_rule
from .bessel import asymptotic_slope
from .bessel_order import bessel_order_derivative, chebyshev_order_derivatives

# ---- Hankel functions -----------------------------------------------------------------------


def _hankel_order_partial(f: Any, scale: Any) -> Callable[..., Any]:
    name = f.__name__

    def hankel_order_partial(v: Any, z: Any, y: Any) -> Any:
        if is_complex(z):
            return chebyshev_order_derivatives(f, v, z)[0]
        return bessel_order_derivative(name.removesuffix("e"), v, z) * scale(z)

    hankel_order_partial.__qualname__ = f"{name}_order_partial"
    return hankel_order_partial


def _recurrence(f: Any, v: Any, z: Any) -> Any:
    return (f(np.subtract(v, 1), z) - f(np.add(v, 1), z)) / 2


def _hankel_partial(f: Any, rotation: complex, sign: float, scale: Any) -> Callable[..., Any]:
    def formula(v: Any, z: Any) -> Any:
        if is_complex(z):
            recurrence = _recurrence(f, v, z)
        else:
            # At real x > 0, H' = J' +- i Y' from jv and yv: SciPy's hankel1(1, 1e-100) has
            # the real part 4e83 (true J_1 = 5e-101), rounded on the scale of Y_1.
            positive = z > 0
            x = np.where(positive, z, 1.0)
            parts = _recurrence(sc.jv, v, x) + sign * 1j * _recurrence(sc.yv, v, x)
            recurrence = np.where(
                positive, parts * scale(x), _recurrence(f, v, np.where(positive, 1.0, z))
            )
        return recurrence + rotation * f(v, z) if rotation else recurrence

    def hankel_partial(v: Any, z: Any, y: Any) -> Any:
        if not rotation or is_complex(z):
            return formula(v, z)
        # The scaled functions behave like x^(-1/2) at large real x, where the two terms of
        # the formula cancel (log10(x) digits lost, 2 log10(x) in the second derivative):
        # beyond 20 + 2 v^2, the asymptotic series differentiated term by term.
        threshold = 20 + 2 * (v * v)
        big = z >= threshold
        phase = np.sqrt(2 / np.pi) * np.exp(rotation * (np.multiply(v, np.pi / 2) + np.pi / 4))
        slope = phase * asymptotic_slope(v, np.where(big, z, threshold), -rotation)
        return np.where(big, slope, formula(v, np.where(big, threshold, z)))

    hankel_partial.__qualname__ = f"{f.__name__}_partial"
    return hankel_partial


def _unscaled(z: Any) -> float:
    return 1.0


_HANKEL = {
    sc.hankel1: (0, 1.0, _unscaled),
    sc.hankel2: (0, -1.0, _unscaled),
    sc.hankel1e: (-1j, 1.0, lambda z: np.exp(-1j * z)),
    sc.hankel2e: (1j, -1.0, lambda z: np.exp(1j * z)),
}
for _f, (_rotation, _sign, _scale) in _HANKEL.items():
    parametric_rule(
        _f,
        _hankel_order_partial(_f, _scale),
        _hankel_partial(_f, _rotation, _sign, _scale),
        costly=(0,),
    )
