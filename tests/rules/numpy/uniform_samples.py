"""Seeded test data drawn uniformly, shared by the table tests of the statistics rules.

``sample(shape, dtype, seed, low, high)`` draws real parts (and, for a complex dtype, imaginary
parts) uniformly from ``[low, high]``, the same values for the same arguments.

>>> sample(3, seed=1).shape
(3,)
>>> bool(np.all(sample((2, 2), np.complex128, low=0.5).real >= 0.5))
True
"""

from __future__ import annotations

from typing import Any

import numpy as np


def sample(
    shape: Any, dtype: Any = np.float64, seed: int = 0, low: float = -1.0, high: float = 1.0
) -> np.ndarray:
    """Data of ``dtype`` with real (and imaginary) parts drawn from [low, high]."""
    rng = np.random.default_rng(seed)
    x = rng.uniform(low, high, shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.uniform(low, high, shape)
    return x.astype(dtype)
