"""Rules for spheroidal wave functions: characteristic values, angular and radial functions.

* **In the argument.** Every function returns ``(w, dw/dx)``; ``w`` solves the spheroidal
  equation with the characteristic value ``cv`` (``pro_cv(m, n, c)``, or the ``cv`` given to
  the ``*_cv`` variants), which gives ``w''``: for the prolate functions (angular, |x| < 1,
  and radial, x > 1) and the oblate angular ones
  ``(1 - x^2) w'' - 2x w' + (cv -+ c^2 x^2 - m^2/(1 - x^2)) w = 0`` (``-`` prolate, ``+``
  oblate); for the oblate radial functions (x >= 0)
  ``(x^2 + 1) w'' + 2x w' - (cv - c^2 x^2 - m^2/(x^2 + 1)) w = 0``. These pullbacks are
  written through rules of the table and differentiate again.
* **In c: characteristic values.** In the basis of normalized associated Legendre functions
  ``P^m_l`` (l = m, m+2, ... or m+1, m+3, ...), the angular equation is the eigenproblem of
  the symmetric tridiagonal matrix ``diag(l (l+1)) +- c^2 X2``, where ``X2`` is
  multiplication by ``x^2``; ``cv`` is its ``(n - m)//2``-th eigenvalue, and
  Hellmann-Feynman gives ``dcv/dc = +-2c v' X2 v`` exactly (no quadrature). ``pro_cv_seq``
  and ``obl_cv_seq`` take the same formula for each entry.
* **In c: angular and radial functions of the first kind.** The eigenvector's derivative
  solves a bordered system (as for the Mathieu coefficients). ``pro_ang1`` is
  ``sum v_l P^m_l(x)`` in Flammer's normalization (its value, or for odd ``n - m`` its
  slope, at 0 is that of ``P^m_n``), ``pro_rad1`` the series
  ``((x^2 -+ 1)/x^2)^(m/2) sum i^(l-n) d_l (l+m)!/(l-m)! j_l(c x) / sum d_l (l+m)!/(l-m)!``
  of spherical Bessel functions (Flammer's ``d_l`` are ``v_l`` times the normalization of
  ``P^m_l``); both differentiate term by term.

The derivatives in ``c`` are computed on NumPy values (thunked; ``NotImplementedTangent``
on an engine's tracked arrays). They are ``NotImplementedTangent`` for the radial functions
of the second kind (their series in ``y_l(c x)`` needs the coefficients' far tails to full
relative accuracy) and, in ``c`` and ``cv``, for the ``*_cv`` variants: these are the
functions only when ``cv`` is the characteristic value of ``(m, n, c)``, so moving one of
the two alone leaves the family (the ``c``-derivative on that curve is the one of the
variant without ``_cv``). ``m`` and ``n`` are integers without tangent.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> from chainrules.core.thunks import unthunk
>>> cv, pullback = rrule(sc.pro_cv, 0, 0, 0.0)   # n (n + 1) at c = 0, stationary there
>>> float(cv), float(unthunk(pullback(1.0)[3]))
(0.0, 0.0)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented
from .mathieu import elementwise, pair_rules, perturbed_eigenvector, vector_in_last_rules

__all__ = ["legendre_slopes"]

PROLATE, OBLATE = 1.0, -1.0


# ---- the eigenproblem in the Legendre basis ---------------------------------------------------


def _x_coupling(m: int, degree: np.ndarray) -> np.ndarray:
    """``a_l`` in ``x P^m_l = a_{l+1} P^m_{l+1} + a_l P^m_{l-1}``, normalized functions."""
    return np.sqrt((degree - m) * (degree + m) / ((2 * degree - 1) * (2 * degree + 1.0)))


@functools.lru_cache(maxsize=1024)
def legendre_slopes(m: int, n: int, c: float, sign: float) -> tuple[np.ndarray, ...]:
    """``(degrees, v, dv/dc, (cv, dcv/dc))`` of the spheroidal eigenproblem in the Legendre basis.

    ``sign`` is ``PROLATE`` (1) or ``OBLATE`` (-1). ``v`` holds the coefficients of the angular
    function in the normalized associated Legendre functions ``P^m_l``, ``l`` of the parity
    of ``n - m``, as a unit vector. Cached: the arrays must not be modified.

    >>> degrees, v, dv, (cv, slope) = legendre_slopes(0, 0, 0.0, PROLATE)
    >>> degrees[:3].tolist(), float(v[0]) ** 2, float(cv), float(slope)
    ([0, 2, 4], 1.0, 0.0, 0.0)
    """
    index = (n - m) // 2
    size = index + 24 + int(2 * abs(c))
    degree = m + (n - m) % 2 + 2 * np.arange(size)
    a_up, a_down = _x_coupling(m, degree + 1), _x_coupling(m, degree)
    beside = (a_up * _x_coupling(m, degree + 2))[:-1]
    squared = np.diag(a_up**2 + a_down**2) + np.diag(beside, 1) + np.diag(beside, -1)
    matrix = np.diag(degree * (degree + 1.0)) + sign * c * c * squared
    values, vectors = np.linalg.eigh(matrix)
    v = vectors[:, index]
    slope, dv = perturbed_eigenvector(matrix, 2 * sign * c * squared, values[index], v)
    return degree, v, dv, np.array([values[index], slope])


def _modes(m: float, n: float) -> tuple[int, int] | None:
    """``(m, n)`` as ints, or None when they are not integers with 0 <= m <= n."""
    if not (0 <= m <= n < np.inf and m == int(m) and n == int(n)):
        return None
    return int(m), int(n)


# ---- characteristic values ------------------------------------------------------------------


def _cv_slope_scalar(sign: float, m: float, n: float, c: float) -> tuple[float]:
    modes = _modes(m, n)
    if modes is None or not np.isfinite(c):
        return (np.nan,)
    return (float(legendre_slopes(*modes, c, sign)[3][1]),)


def _cv_slope(sign: float) -> Callable[..., Any]:
    def slope(m: Any, n: Any, c: Any, y: Any) -> Any:
        return elementwise(functools.partial(_cv_slope_scalar, sign), 1, m, n, c)[0]

    return slope


parametric_rule(sc.pro_cv, None, None, _cv_slope(PROLATE), costly=(2,))
parametric_rule(sc.obl_cv, None, None, _cv_slope(OBLATE), costly=(2,))


def _sequence_slopes(sign: float) -> Callable[..., Any]:
    """``dcv/dc`` of the characteristic values for n' = m..n (``pro_cv_seq``, ``obl_cv_seq``)."""

    def slopes(m: Any, n: Any, c: Any, y: Any) -> np.ndarray:
        return np.array([_cv_slope_scalar(sign, m, k, c)[0] for k in range(int(m), int(n) + 1)])

    return slopes


vector_in_last_rules(sc.pro_cv_seq, _sequence_slopes(PROLATE))
vector_in_last_rules(sc.obl_cv_seq, _sequence_slopes(OBLATE))

# ---- angular functions of the first kind ----------------------------------------------------


def _legendre_values(m: int, degree: np.ndarray, x: float) -> tuple[np.ndarray, np.ndarray]:
    """Normalized ``P^m_l(x)`` and their derivatives (DLMF 14.10.5), for |x| < 1."""
    scale = np.sqrt(
        (2 * degree + 1) / 2 * np.exp(sc.gammaln(degree - m + 1) - sc.gammaln(degree + m + 1))
    )
    value = sc.lpmv(m, degree, x)
    lower = np.where(degree > m, sc.lpmv(m, np.maximum(degree - 1, m), x), 0.0)
    slope = ((degree + m) * lower - degree * x * value) / (1 - x * x)
    return scale * value, scale * slope


def _angular_slopes_scalar(
    sign: float, m: float, n: float, c: float, x: float
) -> tuple[float, float]:
    modes = _modes(m, n)
    if modes is None or not np.isfinite(c) or not abs(x) < 1:
        return np.nan, np.nan
    mi, ni = modes
    degree, v, dv, _ = legendre_slopes(mi, ni, c, sign)
    p, dp = _legendre_values(mi, degree, x)
    p0, dp0 = _legendre_values(mi, degree, 0.0)
    # Flammer's normalization: the value (even n - m) or slope (odd) at 0 is that of P^m_n.
    at_zero = p0 if (ni - mi) % 2 == 0 else dp0
    if (ni - mi) % 2 == 0:
        target = sc.lpmv(mi, ni, 0.0)
    else:
        target = (ni + mi) * sc.lpmv(mi, ni - 1, 0.0)
    anchor = v @ at_zero
    scale = (-1.0) ** mi * target / anchor
    drift = (dv @ at_zero) / anchor
    return (
        float(scale * (dv @ p - drift * (v @ p))),
        float(scale * (dv @ dp - drift * (v @ dp))),
    )


def _angular_slopes(sign: float) -> Callable[..., Any]:
    def slopes(m: Any, n: Any, c: Any, x: Any, y: Any) -> tuple[Any, Any]:
        return elementwise(functools.partial(_angular_slopes_scalar, sign), 2, m, n, c, x)

    return slopes


def _angular_bend(sign: float, m: Any, c: Any, cv: Any, x: Any, y: tuple) -> Any:
    """``w''`` from ``(1 - x^2) w'' - 2x w' + (cv - sign c^2 x^2 - m^2/(1 - x^2)) w = 0``."""
    inside = 1 - x * x
    potential = cv - sign * c * c * x * x - np.multiply(m, m) / inside
    return (2 * x * y[1] - potential * y[0]) / inside


def _oblate_radial_bend(m: Any, c: Any, cv: Any, x: Any, y: tuple) -> Any:
    """``w''`` from ``(x^2 + 1) w'' + 2x w' - (cv - c^2 x^2 - m^2/(x^2 + 1)) w = 0``."""
    outside = x * x + 1
    potential = cv - c * c * x * x - np.multiply(m, m) / outside
    return (potential * y[0] - 2 * x * y[1]) / outside


def _prolate_bend(m: Any, n: Any, c: Any, x: Any, y: tuple) -> Any:
    return _angular_bend(PROLATE, m, c, sc.pro_cv(m, n, c), x, y)


def _oblate_angular_bend(m: Any, n: Any, c: Any, x: Any, y: tuple) -> Any:
    return _angular_bend(OBLATE, m, c, sc.obl_cv(m, n, c), x, y)


def _oblate_radial_bend_cv(m: Any, n: Any, c: Any, x: Any, y: tuple) -> Any:
    return _oblate_radial_bend(m, c, sc.obl_cv(m, n, c), x, y)


def _prolate_bend_given(m: Any, n: Any, c: Any, cv: Any, x: Any, y: tuple) -> Any:
    return _angular_bend(PROLATE, m, c, cv, x, y)


def _oblate_angular_bend_given(m: Any, n: Any, c: Any, cv: Any, x: Any, y: tuple) -> Any:
    return _angular_bend(OBLATE, m, c, cv, x, y)


def _oblate_radial_bend_given(m: Any, n: Any, c: Any, cv: Any, x: Any, y: tuple) -> Any:
    return _oblate_radial_bend(m, c, cv, x, y)


# ---- radial functions of the first kind -----------------------------------------------------


def _radial_slopes_scalar(
    sign: float, m: float, n: float, c: float, x: float
) -> tuple[float, float]:
    modes = _modes(m, n)
    if modes is None or not 0 < c < np.inf or not (x > 1 if sign > 0 else x > 0) or x == np.inf:
        return np.nan, np.nan
    mi, ni = modes
    degree, v, dv, _ = legendre_slopes(mi, ni, c, sign)
    r = degree - mi
    # Flammer's d_r are v_l times the normalization of P^m_l; the series weighs them by
    # (2m + r)!/r! (a common factor cancels in the ratio).
    log_weight = sc.gammaln(2 * mi + r + 1) - sc.gammaln(r + 1)
    log_norm = 0.5 * (
        np.log((2 * degree + 1) / 2) + sc.gammaln(degree - mi + 1) - sc.gammaln(degree + mi + 1)
    )
    weight = np.exp(log_weight + log_norm - np.max(log_weight + log_norm))
    phase = (-1.0) ** ((r - (ni - mi)) // 2)
    d, dd = v * weight, dv * weight
    total, dtotal = np.sum(d), np.sum(dd)
    z = c * x
    j = sc.spherical_jn(degree, z)
    jp = sc.spherical_jn(degree, z, derivative=True)
    jpp = -2 / z * jp - (1 - degree * (degree + 1) / (z * z)) * j
    front = (1 - sign / (x * x)) ** (mi / 2)
    front_slope = front * mi * sign / (x * (x * x - sign))
    series = phase * d @ j
    series_c = phase * dd @ j + x * (phase * d @ jp)
    value = front * series / total
    slope = front_slope * series / total + front * c * (phase * d @ jp) / total
    value_c = front * series_c / total - value * dtotal / total
    slope_c = (
        front_slope * series_c / total
        + front * (c * (phase * dd @ jp) + phase * d @ (jp + z * jpp)) / total
        - slope * dtotal / total
    )
    return float(value_c), float(slope_c)


def _radial_slopes(sign: float) -> Callable[..., Any]:
    def slopes(m: Any, n: Any, c: Any, x: Any, y: Any) -> tuple[Any, Any]:
        return elementwise(functools.partial(_radial_slopes_scalar, sign), 2, m, n, c, x)

    return slopes


# ---- registrations --------------------------------------------------------------------------

_SECOND_KIND = not_implemented(
    "derivative of a spheroidal radial function of the second kind in c: in double precision "
    "its series in y_l(c x) cancels unless the Legendre coefficients are known to full "
    "relative accuracy far into their tails, which the known accurate methods reach only in "
    "arbitrary precision (Adelman, Gumerov and Duraiswami, arXiv:1408.0074; DLMF 30.16)"
)


def _off_the_curve(name: str, argument: str) -> Any:
    plain = name.removesuffix("_cv")
    return not_implemented(
        f"derivative of {name} in {argument} alone: it is the spheroidal function only when cv "
        f"is the characteristic value of (m, n, c), so moving {argument} alone leaves the "
        f"family; the derivative in c along that curve is the one of {plain}"
    )


pair_rules(sc.pro_ang1, _prolate_bend, (None, None, _angular_slopes(PROLATE)))
pair_rules(sc.obl_ang1, _oblate_angular_bend, (None, None, _angular_slopes(OBLATE)))
pair_rules(sc.pro_rad1, _prolate_bend, (None, None, _radial_slopes(PROLATE)))
pair_rules(sc.obl_rad1, _oblate_radial_bend_cv, (None, None, _radial_slopes(OBLATE)))
pair_rules(sc.pro_rad2, _prolate_bend, (None, None, _SECOND_KIND))
pair_rules(sc.obl_rad2, _oblate_radial_bend_cv, (None, None, _SECOND_KIND))

for _f, _bend in (
    (sc.pro_ang1_cv, _prolate_bend_given),
    (sc.obl_ang1_cv, _oblate_angular_bend_given),
    (sc.pro_rad1_cv, _prolate_bend_given),
    (sc.pro_rad2_cv, _prolate_bend_given),
    (sc.obl_rad1_cv, _oblate_radial_bend_given),
    (sc.obl_rad2_cv, _oblate_radial_bend_given),
):
    _name = _f.__name__
    _parameters = (None, None, _off_the_curve(_name, "c"), _off_the_curve(_name, "cv"))
    pair_rules(_f, _bend, _parameters)
