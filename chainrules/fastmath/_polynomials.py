"""The polynomial coefficients of the fast kernels: how they are fitted, and the frozen numbers.

Each polynomial approximates a smooth function on a short interval (the reduced argument of
a kernel). The fit is a weighted least-squares fit in the Chebyshev basis on Chebyshev
nodes (well conditioned, close to the minimax polynomial), converted to the monomial basis for
Horner's rule. The weight ``1/|f|`` minimises the relative error where the kernel needs
relative accuracy, and a unit weight the absolute error. The degrees were chosen as the
smallest that reach float32 rounding (float32) or the least-squares floor near 1e-15
(float64); ``accuracy.py`` states what the kernels then achieve.

The kernels compute with the coefficients frozen in ``_coefficients.py``, not with a fit made on
the machine: a fit follows the machine in its last bits (the least-squares solve runs on the
BLAS kernels of its CPU, and NumPy's elementwise functions on its SIMD level), and the kernels'
results must not. ``frozen_source()`` writes that module from a fresh fit; a test checks that
the frozen polynomials are the fitted ones to rounding.

>>> c = fit(np.exp, -0.5, 0.5, 6)  # a degree-6 fit of exp on [-1/2, 1/2]
>>> bool(abs(np.polynomial.polynomial.polyval(0.25, c) / np.exp(0.25) - 1) < 1e-7)
True
"""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np
import scipy.special as sc
from numpy.polynomial import Chebyshev, Polynomial

from ._coefficients import FROZEN

__all__ = ["FROZEN", "coefficients", "fit", "fitted", "frozen_source"]

LN2 = math.log(2.0)
SQRT_HALF_RANGE = (3.0 - 2.0 * math.sqrt(2.0)) ** 2  # s*s for s = (m-1)/(m+1), m in [1/√2, √2]
ERF_LIMIT: dict[type, float] = {np.float32: 3.92, np.float64: 5.93}  # erf(x) rounds to 1 beyond


def fit(
    f: Callable[[np.ndarray], np.ndarray], lo: float, hi: float, degree: int, relative: bool = True
) -> np.ndarray:
    """Monomial coefficients, lowest first, of a degree-``degree`` fit of ``f`` on [lo, hi]."""
    n = 8 * (degree + 1)
    nodes = np.cos(np.pi * (np.arange(n) + 0.5) / n)
    x = lo + (hi - lo) * (nodes + 1.0) / 2.0
    y = f(x)
    weights = 1.0 / np.abs(y) if relative else np.ones_like(y)
    return Chebyshev.fit(x, y, degree, w=weights).convert(kind=Polynomial).coef


def _expm1_over_x(r: np.ndarray) -> np.ndarray:
    safe = np.where(r == 0.0, 1.0, r)
    return np.where(r == 0.0, 1.0, np.expm1(safe) / safe)


def _atanh_sqrt_over_sqrt(z: np.ndarray) -> np.ndarray:
    s = np.sqrt(np.where(z == 0.0, 0.01, z))
    return np.where(z == 0.0, 1.0, np.arctanh(s) / s)


def _erf_sqrt_over_sqrt(z: np.ndarray) -> np.ndarray:
    s = np.sqrt(np.where(z == 0.0, 1.0, z))
    return np.where(z == 0.0, 2.0 / math.sqrt(math.pi), sc.erf(s) / s)


def _erfcx_of_reciprocal(u: np.ndarray) -> np.ndarray:
    return sc.erfcx(1.0 / u)


# name: (function, interval, relative?, degree for float32, degree for float64)
_TABLE: dict[
    str, tuple[Callable[[np.ndarray], np.ndarray], tuple[float, float], bool, int, int]
] = {
    # expm1(r)/r for the reduced argument |r| <= ln2/2: exp(r) = 1 + r P(r), and
    # expm1(r) = r P(r) keeps relative accuracy near 0
    "expm1": (_expm1_over_x, (-LN2 / 2, LN2 / 2), True, 5, 11),
    # atanh(s)/s in z = s*s: log(m) = 2 s P(s*s) for the mantissa m in [1/sqrt2, sqrt2)
    "log": (_atanh_sqrt_over_sqrt, (0.0, SQRT_HALF_RANGE), True, 3, 7),
    # erf(x)/x in z = x*x for |x| < 1
    "erf_small": (_erf_sqrt_over_sqrt, (0.0, 1.0), True, 6, 10),
}


def fitted(dtype: type) -> dict[str, np.ndarray]:
    """Every kernel polynomial for ``dtype`` (np.float32 or np.float64), fitted now in float64."""
    out = {}
    for name, (f, (lo, hi), relative, degree32, degree64) in _TABLE.items():
        degree = degree32 if dtype is np.float32 else degree64
        out[name] = fit(f, lo, hi, degree, relative)
    # erfc(t) exp(t*t) in u = 1/t for 1 <= t < the limit: erf(t) = 1 - exp(-t*t) P(1/t)
    tail_degree = 9 if dtype is np.float32 else 16
    out["erf_tail"] = fit(
        _erfcx_of_reciprocal, 1.0 / ERF_LIMIT[dtype], 1.0, tail_degree, relative=False
    )
    return out


def coefficients(dtype: type) -> dict[str, tuple]:
    """Every kernel polynomial for ``dtype``, frozen, as tuples of ``dtype`` numbers."""
    return {name: tuple(dtype(c) for c in c64) for name, c64 in FROZEN[dtype.__name__].items()}


def frozen_source() -> str:
    """The text of ``_coefficients.py``, from a fresh fit on this machine."""
    lines = [
        '"""The fast kernels\' polynomial coefficients, frozen: written by',
        "``_polynomials.frozen_source()`` from ``_polynomials.fit`` (see there), so that every",
        'machine computes with the same numbers."""',
        "",
        "FROZEN: dict[str, dict[str, tuple[float, ...]]] = {",
    ]
    for dtype in (np.float32, np.float64):
        lines.append(f'    "{dtype.__name__}": {{')
        for name, c in fitted(dtype).items():
            lines.append(f'        "{name}": (')
            lines += [f"            {float(v)!r}," for v in c]
            lines.append("        ),")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"
