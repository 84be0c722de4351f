"""Rules for the Hankel functions ``hankel1 hankel2`` and the scaled ``hankel1e hankel2e``.

The derivative in ``z`` is ``(H_{v-1} - H_{v+1}) / 2`` (DLMF 10.6.2); the scaled
``hankel1e = H1 exp(-iz)`` and ``hankel2e = H2 exp(iz)`` add ``-+ i y``. The derivative in a
real order ``v`` reuses the order derivatives of J and Y (``bessel.bessel_order_derivative``)
at real ``z > 0``, thunked; at complex ``z`` it is ``NotImplementedTangent``. An integer order
has no tangent.

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
from .bessel import bessel_order_derivative, order_not_implemented

# ---- Hankel functions -----------------------------------------------------------------------


def _hankel_order_partial(name: str, scale: Any) -> Callable[..., Any]:
    def hankel_order_partial(v: Any, z: Any, y: Any) -> Any:
        if is_complex(z):
            return order_not_implemented(name)
        return bessel_order_derivative(name.removesuffix("e"), v, z) * scale(z)

    hankel_order_partial.__qualname__ = f"{name}_order_partial"
    return hankel_order_partial


def _hankel_partial(f: Any, rotation: complex) -> Callable[..., Any]:
    def hankel_partial(v: Any, z: Any, y: Any) -> Any:
        recurrence = (f(np.subtract(v, 1), z) - f(np.add(v, 1), z)) / 2
        return recurrence + rotation * y if rotation else recurrence

    hankel_partial.__qualname__ = f"{f.__name__}_partial"
    return hankel_partial


def _unscaled(z: Any) -> float:
    return 1.0


_HANKEL = {
    sc.hankel1: (0, _unscaled),
    sc.hankel2: (0, _unscaled),
    sc.hankel1e: (-1j, lambda z: np.exp(-1j * z)),
    sc.hankel2e: (1j, lambda z: np.exp(1j * z)),
}
for _f, (_rotation, _scale) in _HANKEL.items():
    parametric_rule(
        _f,
        _hankel_order_partial(_f.__name__, _scale),
        _hankel_partial(_f, _rotation),
        costly=(0,),
    )
