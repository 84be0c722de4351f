"""Sampling shared by the tests of the ``np.linalg`` rules and the norms: dtypes, their ids,
arrays."""

from __future__ import annotations

from typing import Any

import numpy as np

DTYPES = [np.float64, np.complex128]


def ids(dtype: Any) -> str:
    """The test id of a dtype: its name."""
    return np.dtype(dtype).name


def sample(shape: tuple[int, ...], dtype: Any = np.float64, seed: int = 0) -> Any:
    """A standard normal array of ``shape`` (complex dtypes: independent parts), by ``seed``."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal(shape)
    if np.dtype(dtype).kind == "c":
        x = x + 1j * rng.standard_normal(shape)
    return x.astype(dtype)
