"""Exact twins that NumPy and SciPy lack: ``rsqrt``, ``softplus`` and ``gelu`` (tanh form).

Each is the reference its fast kernel is measured against, computed to the accuracy of the
NumPy/SciPy functions it is built from.

* ``rsqrt(x) = 1 / sqrt(x)``;
* ``softplus(x) = log(1 + exp(x))``, as ``np.logaddexp(0, x)`` (no overflow);
* ``gelu(x) = x (1 + tanh(sqrt(2/pi) (x + 0.044715 x**3))) / 2``, evaluated as
  ``x * expit(2 z)``, the same function without the cancellation of ``1 + tanh(z)`` for
  negative ``x``; ``gelu(-inf)`` is its limit 0.

>>> import numpy as np
>>> rsqrt(np.array([4.0])), softplus(0.0), round(float(gelu(1.0)), 6)
(array([0.5]), np.float64(0.6931471805599453), 0.841192)
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

__all__ = ["GELU_CUBIC", "GELU_SCALE", "gelu", "rsqrt", "softplus"]

GELU_SCALE = math.sqrt(2.0 / math.pi)
GELU_CUBIC = 0.044715


def rsqrt(x: Any) -> Any:
    """The reciprocal square root ``1 / sqrt(x)``, elementwise."""
    return 1.0 / np.sqrt(x)


def softplus(x: Any) -> Any:
    """``log(1 + exp(x))``, elementwise, without overflow."""
    return np.logaddexp(0.0, x)


def gelu(x: Any) -> Any:
    """The GELU activation in its tanh form, elementwise."""
    s = sc.expit(2.0 * GELU_SCALE * (x + GELU_CUBIC * x * x * x))
    with np.errstate(invalid="ignore"):  # -inf * 0 at -inf, where the limit is 0
        y = np.where(s == 0.0, 0.0, x * s)
    return y if y.ndim else y[()]
