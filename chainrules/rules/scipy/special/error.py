"""Rules for the error-function family of ``scipy.special`` and the normal distribution.

erf, erfc, erfcx, erfi, dawsn, wofz, ndtr and log_ndtr take complex input and are
holomorphic, so their pullbacks are ``conj(f'(z)) * dy``; erfinv, erfcinv, ndtri and owens_t
are real. Partials go through functions with rules of their own, so pullbacks differentiate
again; ``scipy.special`` computes on NumPy arrays only.

``voigt_profile(x, sigma, gamma)`` is the real part of Faddeeva's ``wofz`` scaled,
differentiated through ``wofz' = 2i/sqrt(pi) - 2 z wofz``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.erf, 0.0)
>>> float(pullback(1.0)[1])  # 2 / sqrt(pi)
1.1283791670955126
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.parametric import SharedPartial, parametric_rule

_TWO_OVER_SQRT_PI = 2 / np.sqrt(np.pi)
_SQRT_PI_OVER_TWO = np.sqrt(np.pi) / 2
_SQRT_TWO_PI = np.sqrt(2 * np.pi)
_LOG_SQRT_TWO_PI = np.log(_SQRT_TWO_PI)

# ---- error functions ------------------------------------------------------------------------

scalar_rule(sc.erf, lambda x, y: _TWO_OVER_SQRT_PI * np.exp(-x * x))
scalar_rule(sc.erfc, lambda x, y: -_TWO_OVER_SQRT_PI * np.exp(-x * x))
scalar_rule(sc.erfcx, lambda x, y: 2 * x * y - _TWO_OVER_SQRT_PI)
scalar_rule(sc.erfi, lambda x, y: _TWO_OVER_SQRT_PI * np.exp(x * x))
scalar_rule(sc.dawsn, lambda x, y: 1 - 2 * x * y)
scalar_rule(sc.wofz, lambda z, y: _TWO_OVER_SQRT_PI * 1j - 2 * z * y)
scalar_rule(sc.erfinv, lambda x, y: _SQRT_PI_OVER_TWO * np.exp(y * y))
scalar_rule(sc.erfcinv, lambda x, y: -_SQRT_PI_OVER_TWO * np.exp(y * y))

# ---- the normal distribution ----------------------------------------------------------------

scalar_rule(sc.ndtr, lambda x, y: np.exp(-x * x / 2) / _SQRT_TWO_PI)
scalar_rule(sc.ndtri, lambda p, y: _SQRT_TWO_PI * np.exp(y * y / 2))
scalar_rule(sc.ndtri_exp, lambda t, y: _SQRT_TWO_PI * np.exp(t + y * y / 2))
# phi(x) / Phi(x) in log space: finite far into the left tail, where both underflow.
scalar_rule(sc.log_ndtr, lambda x, y: np.exp(-x * x / 2 - _LOG_SQRT_TWO_PI - y))

# ---- Owen's T: T(h, a) = (1/2pi) integral_0^a exp(-h^2 (1 + t^2) / 2) / (1 + t^2) dt ------------

scalar_rule(
    sc.owens_t,
    lambda h, a, y: -np.exp(-h * h / 2) * sc.erf(h * a / np.sqrt(2)) / (2 * _SQRT_TWO_PI),
    lambda h, a, y: np.exp(-h * h * (1 + a * a) / 2) / (2 * np.pi * (1 + a * a)),
)

# ---- Voigt profile: the real part of the scaled Faddeeva function ------------------------

_SQRT_PI = float(np.sqrt(np.pi))


def _voigt_parts(x: Any, sigma: Any, gamma: Any) -> tuple[Any, Any, Any]:
    """z, w(z) and w'(z) of ``voigt_profile``, whose value is Re w(z) / (sigma sqrt(2 pi))."""
    root2_sigma = np.sqrt(2.0) * sigma
    z = (x + 1j * gamma) / root2_sigma
    w = sc.wofz(z)
    return z, w, 2j / _SQRT_PI - 2 * z * w


def _voigt_partials(x: Any, sigma: Any, gamma: Any, y: Any) -> tuple[Any, Any, Any]:
    z, _, dw = _voigt_parts(x, sigma, gamma)
    scale = 1 / (2 * _SQRT_PI * sigma * sigma)  # dz/dx / (sigma sqrt(2 pi))
    dx = np.real(dw) * scale
    dgamma = -np.imag(dw) * scale
    dsigma = -np.real(dw * z) * np.sqrt(2.0) * scale - y / sigma
    return dx, dsigma, dgamma


parametric_rule(
    sc.voigt_profile,
    SharedPartial(_voigt_partials, 0),
    SharedPartial(_voigt_partials, 1),
    SharedPartial(_voigt_partials, 2),
)
