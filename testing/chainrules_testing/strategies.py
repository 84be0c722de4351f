"""Hypothesis strategies for rule inputs in a function's domain.

Scalars and arrays whose elements lie where a function is smooth and well conditioned, and
matrices with the structure a linear-algebra rule needs:

==============================  ====================================================
``reals(low, high)``            floats in ``[low, high]`` (default ``[-3, 3]``)
``positive(low, high)``         floats in ``[low, high]``, ``low > 0`` (default 0.1..10)
``open_unit_interval(margin)``  floats in ``(margin, 1 - margin)``
``away_from(poles, ...)``       floats at least ``margin`` from every pole (a list, or a
                                periodic family ``offset + k * period``)
``complexes(...)``              complex numbers with parts drawn by a real strategy
``arrays(shape, elements)``     NumPy arrays of a dtype, elements from a scalar strategy
``well_conditioned(n)``         square matrices with condition number at most ``condition``
``spd(n)``                      symmetric (Hermitian) positive definite matrices
``distinct_eigenvalues(n)``     symmetric (Hermitian) matrices, eigenvalues ``gap`` apart
``distinct_singular_values``    ``m x n`` matrices, singular values ``gap`` apart, nonzero
==============================  ====================================================

Matrices are built from a drawn seed (random orthogonal factors and a chosen spectrum), so
their structure holds exactly; every strategy takes a ``dtype``.

>>> import math
>>> from hypothesis import find
>>> find(spd(3), lambda a: True).shape
(3, 3)
>>> x = find(away_from([0.0], margin=0.5), lambda v: v > 0)
>>> x >= 0.5
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

__all__ = [
    "arrays",
    "away_from",
    "complexes",
    "distinct_eigenvalues",
    "distinct_singular_values",
    "open_unit_interval",
    "positive",
    "reals",
    "spd",
    "well_conditioned",
]

_SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


def reals(low: float = -3.0, high: float = 3.0) -> st.SearchStrategy[float]:
    """Finite floats in ``[low, high]``."""
    return st.floats(min_value=low, max_value=high, allow_nan=False, allow_infinity=False)


def positive(low: float = 0.1, high: float = 10.0) -> st.SearchStrategy[float]:
    """Floats in ``[low, high]`` with ``low > 0``: away from zero, where ``log`` and
    ``sqrt`` lose smoothness."""
    if low <= 0:
        raise ValueError(f"positive: low must be > 0, got {low}")
    return reals(low, high)


def open_unit_interval(margin: float = 0.05) -> st.SearchStrategy[float]:
    """Floats in ``(margin, 1 - margin)``: inside the open interval, off its ends."""
    return reals(margin, 1.0 - margin)


def away_from(
    poles: Sequence[float] = (),
    *,
    period: float | None = None,
    margin: float = 0.2,
    low: float = -3.0,
    high: float = 3.0,
) -> st.SearchStrategy[float]:
    """Floats in ``[low, high]`` at least ``margin`` from every pole.

    ``poles`` lists the poles; with ``period``, each listed pole stands for the family
    ``pole + k * period`` (``away_from([math.pi / 2], period=math.pi)`` for ``tan``).
    """

    def distance(x: float) -> float:
        if not poles:
            return math.inf
        if period is None:
            return min(abs(x - p) for p in poles)
        return min(abs((x - p + period / 2) % period - period / 2) for p in poles)

    return reals(low, high).filter(lambda x: distance(x) >= margin)


def complexes(parts: st.SearchStrategy[float] | None = None) -> st.SearchStrategy[complex]:
    """Complex numbers whose real and imaginary parts are drawn from ``parts``."""
    parts = reals() if parts is None else parts
    return st.builds(complex, parts, parts)


def arrays(
    shape: Any,
    elements: st.SearchStrategy[Any] | None = None,
    *,
    dtype: Any = np.float64,
) -> st.SearchStrategy[np.ndarray]:
    """Arrays of ``dtype`` and ``shape`` (a tuple or a strategy of tuples), elements from
    ``elements`` (``reals()`` or ``complexes()`` by default)."""
    dtype = np.dtype(dtype)
    if elements is None:
        elements = complexes() if dtype.kind == "c" else reals()
    return hnp.arrays(dtype, shape, elements=elements.map(dtype.type))


def _orthogonal(rng: np.random.Generator, n: int, is_complex: bool) -> np.ndarray:
    a = rng.standard_normal((n, n))
    if is_complex:
        a = a + 1j * rng.standard_normal((n, n))
    q, r = np.linalg.qr(a)
    d = np.diagonal(r)
    return q * (d / np.abs(d))


def _matrix(n: int | st.SearchStrategy[int]) -> st.SearchStrategy[int]:
    return n if isinstance(n, st.SearchStrategy) else st.just(n)


def well_conditioned(
    n: int | st.SearchStrategy[int], *, condition: float = 10.0, dtype: Any = np.float64
) -> st.SearchStrategy[np.ndarray]:
    """Square matrices ``U diag(s) V^H`` with ``s`` in ``[1, condition]``: invertible, with
    condition number at most ``condition``."""
    dtype = np.dtype(dtype)

    def build(size: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        s = np.exp(rng.uniform(0.0, math.log(condition), size))
        u = _orthogonal(rng, size, dtype.kind == "c")
        v = _orthogonal(rng, size, dtype.kind == "c")
        return ((u * s) @ v.conj().T).astype(dtype)

    return st.builds(build, _matrix(n), _SEEDS)


def spd(
    n: int | st.SearchStrategy[int],
    *,
    low: float = 0.5,
    high: float = 5.0,
    dtype: Any = np.float64,
) -> st.SearchStrategy[np.ndarray]:
    """Symmetric (Hermitian, for complex dtypes) positive definite matrices with
    eigenvalues in ``[low, high]``."""
    dtype = np.dtype(dtype)

    def build(size: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        q = _orthogonal(rng, size, dtype.kind == "c")
        a = (q * rng.uniform(low, high, size)) @ q.conj().T
        return ((a + a.conj().T) / 2).astype(dtype)

    return st.builds(build, _matrix(n), _SEEDS)


def _spaced(rng: np.random.Generator, count: int, gap: float, low: float) -> np.ndarray:
    """``count`` increasing values from ``low`` whose neighbours are at least ``gap`` apart."""
    return low + np.cumsum(gap + rng.uniform(0.0, gap, count)) - gap


def distinct_eigenvalues(
    n: int | st.SearchStrategy[int], *, gap: float = 0.5, dtype: Any = np.float64
) -> st.SearchStrategy[np.ndarray]:
    """Symmetric (Hermitian) matrices whose eigenvalues are at least ``gap`` apart (the
    eigenvector derivatives divide by their differences)."""
    dtype = np.dtype(dtype)

    def build(size: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        values = _spaced(rng, size, gap, low=-gap * size / 2)
        q = _orthogonal(rng, size, dtype.kind == "c")
        a = (q * values) @ q.conj().T
        return ((a + a.conj().T) / 2).astype(dtype)

    return st.builds(build, _matrix(n), _SEEDS)


def distinct_singular_values(
    m: int | st.SearchStrategy[int],
    n: int | st.SearchStrategy[int],
    *,
    gap: float = 0.5,
    dtype: Any = np.float64,
) -> st.SearchStrategy[np.ndarray]:
    """``m x n`` matrices whose singular values are at least ``gap`` apart and at least
    ``gap`` from zero (full rank)."""
    dtype = np.dtype(dtype)

    def build(rows: int, cols: int, seed: int) -> np.ndarray:
        rng = np.random.default_rng(seed)
        k = min(rows, cols)
        s = _spaced(rng, k, gap, low=gap)[::-1]
        u = _orthogonal(rng, rows, dtype.kind == "c")[:, :k]
        v = _orthogonal(rng, cols, dtype.kind == "c")[:, :k]
        return ((u * s) @ v.conj().T).astype(dtype)

    return st.builds(build, _matrix(m), _matrix(n), _SEEDS)
