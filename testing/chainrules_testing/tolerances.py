"""Default tolerances, chosen by the narrowest float dtype among a rule's inputs and outputs.

====================  ========  =====  ==================================================
narrowest dtype       rtol      atol   finite differences run in
====================  ========  =====  ==================================================
float16               1e-2      0      float64, on upcast copies of the inputs
float32, complex64    1e-3      0      float64, on upcast copies of the inputs
float64, complex128   1e-7      0      float64
====================  ========  =====  ==================================================

A scalar ``actual`` (the rule) passes against ``expected`` (finite differences) when::

    |actual - expected| <= atol + rtol * max(|actual|, |expected|)
                           + 64 * eps(dtype) * magnitude + 4 * smallest_subnormal(dtype)
                           + 4 * fd_error

where ``magnitude`` is the inner product taken with absolute values (the size of the sum
before cancellation, so rounding inside the rule is allowed for), or the size of its terms
when larger (``Setup.term_scale``: a derivative of 0 computed from terms of size 1), and
``fd_error`` is the finite-difference method's own error estimate (times 4: estimates are
estimates). The subnormal term, 2e-323 in float64, matters only for values below the normal
range. In float64 the rtol of 1e-7 leaves a rule that is wrong by a relative 1e-6 a factor of
ten outside the tolerance. A cheap estimate ``settles`` the check only when it agrees without
the last term and its error, times 4, is within the rest: otherwise an adaptive estimate
decides. Passing ``rtol=`` or
``atol=`` to a test function replaces the defaults.

>>> import numpy as np
>>> tolerance_for(np.ones(2, dtype=np.float32), 1.0).rtol
0.001
>>> tolerance_for(1.0).allowed(1.0, 1.0, magnitude=0.0, fd_error=0.0)
1e-07
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from .primals import iter_leaves

__all__ = [
    "DEFAULT_RTOL",
    "ROUNDING_FACTOR",
    "SUBNORMAL_UNITS",
    "Tolerance",
    "agree",
    "settles",
    "tolerance_for",
    "working_dtype",
]

DEFAULT_RTOL = {
    np.dtype(np.float16): 1e-2,
    np.dtype(np.float32): 1e-3,
    np.dtype(np.float64): 1e-7,
}
ROUNDING_FACTOR = 64
# Below the normal range (exp(-740) is 4e-322) rounding is absolute, not relative: each
# operation may be off by one unit of the smallest subnormal, which eps * magnitude
# (underflowing to 0) does not allow for. A few units, so that a rule wrong by a factor of
# two at such a point still fails.
SUBNORMAL_UNITS = 4
# Error estimates of finite differences are estimates: a derivative that is exactly 0 (a
# piecewise-constant function) was seen to come out 1.6 times its estimate from rounding alone.
FD_ERROR_FACTOR = 4


@dataclass(frozen=True)
class Tolerance:
    """How far a rule's value may be from the reference: ``rtol``, ``atol`` and the dtype."""

    rtol: float
    atol: float
    dtype: np.dtype

    @property
    def eps(self) -> float:
        return float(np.finfo(self.dtype).eps)

    def allowed(
        self,
        actual: float,
        expected: float,
        magnitude: float,
        fd_error: float,
        exponent: int = 0,
    ) -> float:
        """The largest acceptable ``|actual - expected|``, for values that are times
        ``2**exponent`` (the absolute terms are scaled alike)."""
        scale = max(abs(actual), abs(expected))
        return float(
            np.ldexp(self.atol + self.floor, exponent)
            + self.rtol * scale
            + ROUNDING_FACTOR * self.eps * magnitude
            + (FD_ERROR_FACTOR * fd_error if np.isfinite(fd_error) else 0.0)
        )

    @property
    def floor(self) -> float:
        """The absolute rounding of values below the normal range (see the module)."""
        return SUBNORMAL_UNITS * float(np.finfo(self.dtype).smallest_subnormal)

    def describe(self) -> str:
        return f"rtol={self.rtol:g}, atol={self.atol:g} for {self.dtype.name}"


def agree(actual: Any, expected: Any, allowed: Any) -> Any:
    """Whether a rule's value and its reference agree: equal (equal infinities included: an
    overflow on both sides is one answer, and ``inf - inf`` says nothing), or within
    ``allowed``; elementwise for arrays. A NaN never agrees.

    >>> bool(agree(float("inf"), float("inf"), 0.0)), bool(agree(float("nan"), 1.0, 1e300))
    (True, False)
    """
    with np.errstate(invalid="ignore"):
        return (np.asarray(actual) == np.asarray(expected)) | (
            np.abs(np.asarray(actual) - np.asarray(expected)) <= allowed
        )


def settles(actual: Any, value: Any, error: Any, allowed: Any) -> bool:
    """Whether a finite-difference estimate ``value`` with error estimate ``error`` decides
    that ``actual`` passes, with no better estimate needed: it agrees within ``allowed`` (the
    tolerance without the estimate's own error) and is certain, ``FD_ERROR_FACTOR * error``
    within ``allowed`` too; elementwise, everywhere.

    >>> settles(1.0, 1.0 + 1e-9, 1e-10, 1e-7), settles(1.0, 1.0 + 1e-9, 1e-7, 1e-7)
    (True, False)
    """
    with np.errstate(invalid="ignore"):
        certain = FD_ERROR_FACTOR * np.abs(np.asarray(error)) <= allowed
    return bool(np.all(certain & agree(actual, value, allowed)))


def _leaf_dtype(leaf: Any) -> np.dtype | None:
    if isinstance(leaf, bool | int):
        return None
    if isinstance(leaf, float | complex):
        return np.dtype(np.float64)
    dtype = getattr(leaf, "dtype", None)
    if dtype is None:
        return None
    if not isinstance(dtype, np.dtype):
        try:
            dtype = np.dtype(str(dtype).rsplit(".", 1)[-1])  # torch.float32 -> float32
        except TypeError:
            return None
    if dtype.kind == "c":
        return np.dtype(np.finfo(dtype).dtype)
    return dtype if dtype.kind == "f" else None


def working_dtype(*values: Any) -> np.dtype:
    """The narrowest real float dtype among the leaves of ``values`` (float64 if none).

    >>> working_dtype(1.0, np.ones(1, dtype=np.complex64))
    dtype('float32')
    """
    widest_eps, found = -1.0, np.dtype(np.float64)
    for value in values:
        for _, leaf in iter_leaves(value):
            dtype = _leaf_dtype(leaf)
            if dtype is not None and float(np.finfo(dtype).eps) > widest_eps:
                widest_eps, found = float(np.finfo(dtype).eps), dtype
    return found


def tolerance_for(*values: Any, rtol: float | None = None, atol: float | None = None) -> Tolerance:
    """The tolerance for a rule whose inputs and outputs are ``values`` (see the table)."""
    dtype = working_dtype(*values)
    default = DEFAULT_RTOL.get(dtype, DEFAULT_RTOL[np.dtype(np.float64)])
    return Tolerance(
        rtol=default if rtol is None else float(rtol),
        atol=0.0 if atol is None else float(atol),
        dtype=dtype,
    )
