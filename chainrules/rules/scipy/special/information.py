"""Rules for the logistic functions, ``x log y`` forms, entropies and Box-Cox transforms.

Hard points, each chosen so that no derivative divides by an argument that may be zero:

* ``xlogy(x, y)`` and ``xlog1py(x, y)``: where ``x == 0`` the value is 0 for every ``y``, so
  the derivative in ``y`` is 0 there (not ``0 / 0``);
* ``entr(0)`` has derivative ``+inf`` honestly; ``rel_entr`` and ``kl_div`` at ``x == 0`` give
  derivative 0 in ``y`` (and ``kl_div`` gives 1);
* ``boxcox`` and ``boxcox1p`` at ``lmbda == 0`` have derivative ``log(x)**2 / 2`` in
  ``lmbda``; near 0 a Taylor series replaces the closed form, which cancels there; where
  ``x**lmbda`` vanishes with ``log(x)`` infinite (x = 0 or inf) it is ``1 / lmbda**2``;
* ``inv_boxcox`` and ``inv_boxcox1p`` where ``x`` (or ``1 + x``) underflows to 0 have
  derivative 0 in ``lmbda`` (a power of x times a polynomial in its logarithm).

``scipy.special`` computes on NumPy arrays only.

``softplus' = expit``. ``expit' = expit(x) expit(-x)``, never 0 where the true value is a
float (``y (1 - y)`` is 0 once y rounds to 1).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.xlogy, 0.0, 2.0)
>>> pullback(1.0)[2]
0.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import scalar_rule
from ....core.partials import in_two_forms


def _over_where_nonzero(x: Any, y: Any) -> Any:
    """``x / y``, and 0 wherever ``x == 0`` (whatever ``y`` is there)."""
    zero = x == 0
    return np.where(zero, 0.0 * x, x / np.where(zero, 1.0, y))


def _boxcox_dlmbda(log_x: Any, lmbda: Any, y: Any) -> Any:
    """d/dlmbda of (exp(lmbda L) - 1) / lmbda with L = ``log_x``, exact near lmbda = 0.

    Closed form ``(L exp(lmbda L) - y) / lmbda``; where ``|lmbda L| < 1/2`` the series
    sum_{n >= 2} (n - 1) lmbda**(n-2) L**n / n!, 24 terms, error below 1e-17 relatively.
    """
    small = np.abs(lmbda * log_x) < 0.5
    safe = np.where(small, 1.0, lmbda)
    power = np.exp(lmbda * log_x)
    # L exp(lmbda L) tends to 0 where the power vanishes with L infinite (x = 0 with lmbda > 0,
    # x = inf with lmbda < 0), where the derivative is 1 / lmbda**2
    vanishing = power == 0
    closed = (np.where(vanishing, 0.0, log_x) * power - y) / safe
    series = 0.0 * log_x
    term = log_x * log_x / 2  # L**n / n! at n = 2
    for n in range(2, 26):
        series = series + (n - 1) * term
        term = term * lmbda * log_x / (n + 1)
    return np.where(small, series, closed)


# ---- logistic -------------------------------------------------------------------------------


def _expit_derivative(x: Any, y: Any) -> Any:
    """expit(x) expit(-x): y (1 - y) would be 0 once y rounds to 1, from x = 37 on.

    Near 0 it is 1 / (4 cosh(x/2)**2), whose derivative needs no difference
    expit(-x) - expit(x) (which cancels to 0 at tiny x). A real NumPy array (not 0-d), which
    nothing differentiates further, takes ``_expit_derivative_array``.
    """
    if type(x) is np.ndarray and x.ndim and x.dtype.kind == "f" and type(y) is np.ndarray:
        found = _expit_derivative_array(x, y)
        if found is not None:
            return found
    near = np.abs(x) < 1
    half_cosh = np.cosh(np.where(near, x, 0.0) / 2)
    return np.where(near, 0.25 / (half_cosh * half_cosh), sc.expit(x) * sc.expit(-x))


def _expit_derivative_array(x: np.ndarray, y: np.ndarray) -> np.ndarray | None:
    """y (1 - y) below x = 1, where 1 - y does not cancel (y is at most 0.73: expit's rounding
    is magnified at most 2.7 times), and expit(-x) (1 - expit(-x)) from there on, the same
    product with the small factor computed (``in_two_forms``): at most 2 units in the last
    place against mpmath, and a fifth of the passes of the form above; ``None`` where that
    form is left to take all of it.
    """
    if y.dtype is not x.dtype or y.shape != x.shape:
        return None
    return in_two_forms(x, lambda: (1 - y) * y, _expit_times_complement_of_minus)


def _expit_times_complement_of_minus(x: np.ndarray) -> np.ndarray:
    """expit(-x) (1 - expit(-x)), the derivative at x with its small factor computed."""
    e = sc.expit(-x)
    return e * (1 - e)


def _logit_derivative(p: Any, y: Any) -> Any:
    # 1 / (p (1 - p)) near 1/2, whose derivative's 1 - 2p is exact there; in the tails
    # 1/p + 1/(1 - p), whose derivative -1/p**2 + 1/(1 - p)**2 overflows to the right
    # infinity (the product form's overflowing parts would cancel to NaN).
    centre = np.abs(p - 0.5) < 0.25
    tail = np.where(centre, 0.125, p)
    p_centre = np.where(centre, p, 0.5)
    return np.where(centre, np.reciprocal(p_centre * (1 - p_centre)), 1 / tail + 1 / (1 - tail))


scalar_rule(sc.expit, _expit_derivative)
scalar_rule(sc.logit, _logit_derivative)
scalar_rule(sc.log_expit, lambda x, y: sc.expit(-x))

# ---- x log y --------------------------------------------------------------------------------

scalar_rule(sc.xlogy, lambda x, y, z: np.log(y), lambda x, y, z: _over_where_nonzero(x, y))
scalar_rule(sc.xlog1py, lambda x, y, z: np.log1p(y), lambda x, y, z: _over_where_nonzero(x, 1 + y))

# ---- entropies ------------------------------------------------------------------------------

scalar_rule(sc.entr, lambda x, y: -np.log(x) - 1)
scalar_rule(
    sc.rel_entr,
    lambda x, y, z: np.log(np.divide(x, y)) + 1,
    lambda x, y, z: -_over_where_nonzero(x, y),
)
scalar_rule(
    sc.kl_div,
    lambda x, y, z: np.log(np.divide(x, y)),
    lambda x, y, z: 1 - _over_where_nonzero(x, y),
)

# ---- Box-Cox --------------------------------------------------------------------------------

scalar_rule(
    sc.boxcox,
    # a power, not exp(xlogy), which amplifies rounding log(x)-fold at huge x
    lambda x, lmbda, y: np.power(x, np.subtract(lmbda, 1.0)),
    lambda x, lmbda, y: _boxcox_dlmbda(np.log(x), lmbda, y),
)


def _boxcox1p_dx(x: Any, lmbda: Any) -> Any:
    """(1 + x)**(lmbda - 1); for |x| < 1/2 as exp((lmbda - 1) log1p(x)), where 1 + x rounds
    away x and the power amplifies that lmbda-fold (boxcox1p(1e-300, 1e300): e, not 1)."""
    near = np.less(np.abs(x), 0.5)
    x_near, x_far = np.where(near, x, 0.0), np.where(near, 0.0, x)  # 1 + 0: a power of 1
    return np.where(
        near,
        np.exp(sc.xlog1py(np.subtract(lmbda, 1.0), x_near)),
        np.power(np.add(x_far, 1.0), np.subtract(lmbda, 1.0)),
    )


scalar_rule(
    sc.boxcox1p,
    lambda x, lmbda, y: _boxcox1p_dx(x, lmbda),
    lambda x, lmbda, y: _boxcox_dlmbda(np.log1p(x), lmbda, y),
)

# ---- inverse Box-Cox: x with boxcox(x, lmbda) = y, by the implicit function theorem -----------


def _inv_boxcox_dy(y: Any, lmbda: Any, x: Any) -> Any:
    return np.exp(sc.xlogy(1 - lmbda, x))


def _inv_boxcox1p_dy(y: Any, lmbda: Any, x: Any) -> Any:
    return np.exp(sc.xlog1py(1 - lmbda, x))


def _inv_boxcox_dlmbda(log_x: Any, base: Any, y: Any, lmbda: Any, dy: Any) -> Any:
    """-(dboxcox/dlmbda) dx/dy at x = inv_boxcox(y, lmbda) (``base`` x, L = ``log_x`` = log x)
    or inv_boxcox1p(y, lmbda) (``base`` 1 + x, L = log1p x), by the implicit function theorem.

    Where dx/dy = base**(1 - lmbda) underflows or the first factor overflows, the product is
    taken as ``(L base - y dx/dy) / lmbda`` (as base**lmbda = 1 + lmbda y), with ``y dx/dy``
    formed as one exponential (y may be huge where dx/dy underflows); at base = 0 and
    lmbda < 1 it tends to 0, as base log(base) does. At base = 0 and lmbda >= 1 the derivative
    is infinite or one-sided, and what the product gives is left.
    """
    product = -_boxcox_dlmbda(log_x, lmbda, y) * dy
    at_zero = (base == 0) & np.less(lmbda, 1)
    spread = np.abs(lmbda * log_x) >= 0.5
    direct = (base != 0) & spread & ((dy == 0) | np.logical_not(np.isfinite(product)))
    log_d, base_d = np.where(direct, log_x, 0.0), np.where(direct, base, 1.0)
    y_d, lmbda_d = np.where(direct, y, 1.0), np.where(direct, lmbda, 1.0)
    y_dy = np.sign(y_d) * np.exp(np.log(np.abs(y_d)) + (1 - lmbda_d) * log_d)
    bounded = -(log_d * base_d - y_dy) / lmbda_d
    return np.where(at_zero, 0.0, np.where(direct, bounded, product))


scalar_rule(
    sc.inv_boxcox,
    _inv_boxcox_dy,
    lambda y, lmbda, x: _inv_boxcox_dlmbda(np.log(x), x, y, lmbda, _inv_boxcox_dy(y, lmbda, x)),
)
scalar_rule(
    sc.inv_boxcox1p,
    _inv_boxcox1p_dy,
    lambda y, lmbda, x: _inv_boxcox_dlmbda(
        np.log1p(x), 1 + x, y, lmbda, _inv_boxcox1p_dy(y, lmbda, x)
    ),
)

# ---- softplus -----------------------------------------------------------------------------

scalar_rule(sc.softplus, lambda x, y: sc.expit(x))
