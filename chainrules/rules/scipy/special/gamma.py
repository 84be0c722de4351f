"""Rules for the gamma family of ``scipy.special``: gamma, its logarithms, polygamma, beta, poch.

Derivatives are written through other functions of the family that have rules themselves
(``gammaln -> digamma -> polygamma``), so an engine whose arrays answer ``__array_ufunc__``
differentiates the pullbacks again. ``scipy.special`` computes on NumPy arrays only, so these
rules serve NumPy inputs (and engines' arrays that dispatch NumPy ufuncs).

Hard points: ``rgamma`` at the poles of gamma (0, -1, -2, ...) has the finite derivative
``(-1)**n * n!``, which the rule gives exactly where ``y * digamma(x)`` would be ``0 * inf``,
through the reflection formula, so that its second derivative is right there too.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.gammaln, 3.0)
>>> float(pullback(1.0)[1])  # digamma(3) = 3/2 - euler_gamma
0.9227843350984671
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import ignore_derivatives, non_differentiable, scalar_rule
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace, is_numpy
from ....core.parametric import parametric_rule
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT
from ....core.zeros import is_zero
from .integrals import hurwitz_zeta
from .sinpi import sin_cos_pi

__all__ = ["polygamma_via_zeta", "trigamma"]


def polygamma_via_zeta(n: Any, x: Any) -> Any:
    """``scipy.special.polygamma(n, x)``, computed with ufuncs for arrays other than NumPy's.

    SciPy's ``polygamma`` is a Python function that converts its input to NumPy; an engine's
    tracked arrays get ``(-1)**(n+1) n! zeta(n+1, x)`` (``digamma`` for n = 0) instead, ufuncs
    that they dispatch, so the result is differentiated again.

    >>> round(float(polygamma_via_zeta(1, 2.0)), 12)  # pi**2/6 - 1
    0.644934066848
    """
    if hurwitz_zeta is None or is_numpy(x):
        return sc.polygamma(n, x)
    if np.ndim(n) == 0:
        order = int(n)
        if order == 0:
            return sc.digamma(x)
        return (-1) ** (order + 1) * math.factorial(order) * hurwitz_zeta(order + 1.0, x)
    n = np.asarray(n)
    scale = np.where(n % 2 == 0, -1.0, 1.0) * sc.gamma(n + 1.0)
    return np.where(n == 0, sc.digamma(x), scale * hurwitz_zeta(n + 1.0, x))


def trigamma(z: Any) -> Any:
    """The trigamma function psi'(z), for real and complex ``z``.

    Real ``z`` goes to ``polygamma(1, z)``; complex ``z`` (which ``polygamma``
    does not take) is shifted by the recurrence psi'(z) = psi'(z + 1) + 1/z**2 until its real
    part is at least 16, then summed by the asymptotic series in Bernoulli numbers, accurate to
    double precision there.

    >>> round(float(trigamma(1.0)), 13)  # pi**2 / 6
    1.6449340668482
    >>> round(complex(trigamma(1.0 + 0j)).real, 13)
    1.6449340668482
    """
    if not is_complex(z):
        return polygamma_via_zeta(1, z)
    xp = array_namespace(z)
    z = xp.asarray(z)
    # The shift is piecewise constant in z, so it is computed on plain values (the number of
    # recurrence steps is a Python int); the series stays in operations an engine records.
    shift = np.maximum(np.ceil(16.0 - np.real(np.asarray(ignore_derivatives(z)))), 0.0)
    total = 0.0 * z
    for k in range(int(shift.max(initial=0.0))):
        total = total + xp.where(k < shift, 1.0 / (z + k) ** 2, 0.0)
    w = z + shift
    inv = 1.0 / w
    inv2 = inv * inv
    # Bernoulli numbers B_2k over the powers z**(2k+1): 1/6, -1/30, 1/42, -1/30, 5/66, -691/2730
    series = inv2 * (
        1 / 6
        + inv2
        * (-1 / 30 + inv2 * (1 / 42 + inv2 * (-1 / 30 + inv2 * (5 / 66 - inv2 * 691 / 2730))))
    )
    result = total + inv + inv2 / 2 + inv * series
    return result[()] if result.ndim == 0 else result


def _rgamma_derivative(x: Any, y: Any) -> Any:
    """d/dx 1/gamma(x): ``-y * digamma(x)`` for x >= 1/2; below, by reflection.

    1/gamma(x) = gamma(1 - x) sin(pi x) / pi, so its derivative is
    gamma(1 - x) (cos(pi x) - digamma(1 - x) sin(pi x) / pi): smooth through the poles of
    gamma (where it is ``(-1)**n n!``, and ``-y * digamma(x)`` would be ``0 * inf``), and its
    own derivative is right there too. sin and cos are ``sin_cos_pi``'s, exact at their
    zeros.
    """
    if is_complex(x):
        return -y * sc.digamma(x)
    left = x < 0.5  # below -170, gamma(1 - x) is inf: so is the derivative, of its sign
    x_left = np.where(left, x, 0.0)
    sin, cos = sin_cos_pi(x_left)
    reflected = sc.gamma(1 - x_left) * (cos - sc.digamma(1 - x_left) * sin / np.pi)
    return np.where(left, reflected, -y * sc.digamma(np.where(left, 1.0, x)))


# ---- gamma and its logarithms ---------------------------------------------------------------

scalar_rule(sc.gamma, lambda x, y: y * sc.digamma(x))
scalar_rule(sc.gammaln, lambda x, y: sc.digamma(x))
scalar_rule(sc.loggamma, lambda x, y: sc.digamma(x))
scalar_rule(sc.rgamma, _rgamma_derivative)
scalar_rule(sc.digamma, lambda x, y: trigamma(x))  # sc.psi is the same ufunc
non_differentiable(sc.gammasgn)

# ---- beta and Pochhammer --------------------------------------------------------------------


def _is_pole(x: Any) -> Any:
    """Where gamma has a pole: x = 0, -1, -2, ..."""
    return (x <= 0) & (x == np.rint(x))


def _digamma_difference(a: Any, b: Any) -> Any:
    """digamma(a) - digamma(a + b), the partial in ``a`` of betaln; where a and a + b are both
    poles of gamma (b a positive integer), its limit digamma(1 - a) - digamma(1 - a - b): the
    reflection formula's cotangents are equal there. Where a + b alone is a pole, NaN: there
    is no partial (beta is 0, or infinite beside the point when b is a pole too)."""
    s = a + b
    both = _is_pole(a) & _is_pole(s)
    undefined = _is_pole(s) & ~both
    a_both, s_both = np.where(both, a, 0.0), np.where(both, s, -1.0)
    reflected = sc.digamma(1 - a_both) - sc.digamma(1 - s_both)
    a_plain, s_plain = np.where(both | undefined, 1.0, a), np.where(both | undefined, 2.0, s)
    plain = sc.digamma(a_plain) - sc.digamma(s_plain)
    large = np.greater_equal(a, _LARGE_DIGAMMA) & np.greater_equal(s, _LARGE_DIGAMMA)
    if np.any(large):
        a_l, s_l = np.where(large, a, _LARGE_DIGAMMA), np.where(large, s, 2 * _LARGE_DIGAMMA)
        b_l = np.where(large, b, _LARGE_DIGAMMA)  # b itself: a + b may round to a
        plain = np.where(large, _large_digamma_difference(a_l, b_l, s_l), plain)
    return np.where(both, reflected, np.where(undefined, np.nan, plain))


# From here on digamma(a) - digamma(a + b) is its asymptotic series' difference: the two
# digammas, of size log a, cancel to b / a (poch(1e8, 1e-8)'s z-derivative came out 0 for
# 1e-16, beta(1e300, -0.5)'s a-derivative 0 for -1.8e-150).
_LARGE_DIGAMMA = 1e4


def _large_digamma_difference(a: Any, b: Any, s: Any) -> Any:
    """digamma(a) - digamma(s), s = a + b, both at least 1e4, from digamma(z) = log z - 1/(2z)
    - 1/(12 z^2) + 1/(120 z^4) - ...: each difference of powers as a multiple of b, the next
    term 1/(120 a^4) of the first relatively (1e-18)."""
    with np.errstate(over="ignore", under="ignore"):  # a^2 s^2 beyond the floats: 0
        return -np.log1p(b / a) - b / a / s / 2 - (b / s) * (a / s + 1) / (12 * a * a)


def _beta_partial(a: Any, b: Any, y: Any) -> Any:
    """d/da beta(a, b) = y (digamma(a) - digamma(a + b)), through the zeros of beta.

    Where a + b is a pole of gamma and a, b are not, y = 0 and digamma(a + b) is infinite:
    the partial is gamma(a) gamma(b) (digamma(a) / gamma(a + b) + (1/gamma)'(a + b)), whose
    first term is 0 there and keeps the derivative of the expression right. Where b is a
    pole as well, beta is infinite beside the point in a: NaN. beta(a, inf) = 0 for a > 0, in
    every a."""
    s = a + b
    zero = _is_pole(s) & ~_is_pole(a) & ~_is_pole(b)
    a_zero, b_zero = np.where(zero, a, 1.0), np.where(zero, b, 1.0)
    s_zero = a_zero + b_zero
    rgamma_s = sc.rgamma(s_zero)
    through = (
        sc.gamma(a_zero)
        * sc.gamma(b_zero)
        * (sc.digamma(a_zero) * rgamma_s + _rgamma_derivative(s_zero, rgamma_s))
    )
    vanishing = (s == np.inf) & (y == 0)
    a_plain = np.where(zero | vanishing, 1.0, a)
    b_plain = np.where(zero | vanishing, 1.0, b)
    plain = y * _digamma_difference(a_plain, b_plain)
    return np.where(zero, through, np.where(vanishing, 0.0, plain))


def _betaln_partial(a: Any, b: Any, y: Any) -> Any:
    return _digamma_difference(a, b)


def _binom_digamma_term(n: Any, c: Any, w: Any, w_low: Any, y: Any) -> Any:
    """y * digamma(c) for y = binom(n, k) = gamma(n + 1) / (gamma(c) gamma(n + 2 - c)), c being
    k + 1 or n - k + 1, and w = 1 - c given as the unevaluated sum ``w + w_low``.

    For c < 1/2, by reflection, y digamma(w) + beta(n + 1, w) cos(pi w): finite through the
    poles of gamma(c), where y = 0 and digamma(c) is infinite, and exact next to them, where
    c itself is rounded (binom(1e-300, 30): c = -29 + 1e-300). cos takes w less its nearest
    integer plus ``w_low``, exact. Where c is infinite and y = 0 the term's limit is 0."""
    left = c < 0.5
    vanishing = (np.isinf(c) | (n == np.inf)) & (y == 0)
    w_left = np.where(left & ~vanishing, w, 1.0)
    low = np.where(left & ~vanishing, w_low, 0.0)
    j = ignore_derivatives(np.rint(w_left))
    parity = np.where(np.remainder(j, 2) == 0, 1.0, -1.0)
    n_left = np.where(left & ~vanishing, n, 0.0)
    reflected = y * sc.digamma(w_left) + sc.beta(n_left + 1, w_left) * parity * np.cos(
        np.pi * ((w_left - j) + low)
    )
    plain = y * sc.digamma(np.where(left | vanishing, 1.0, c))
    return np.where(vanishing, 0.0, np.where(left, reflected, plain))


def _binom_partials(n: Any, k: Any, y: Any) -> tuple[Any, Any]:
    """The partials of binom(n, k), y (digamma(n + 1) - digamma(n - k + 1)) in n and
    y (digamma(n - k + 1) - digamma(k + 1)) in k, through the zeros of binom.

    Where n - k + 1 or k + 1 is below 1/2, the digamma terms come from
    ``_binom_digamma_term``; there k - n is split exactly into a float and its rounding error
    (Knuth's two-sum), so that a neighbour of a pole keeps its distance to it."""
    rest = n - k + 1
    left = (rest < 0.5) | (k + 1 < 0.5)
    n_plain, k_plain = np.where(left, 1.0, n), np.where(left, 0.0, k)
    psi_rest = sc.digamma(n_plain - k_plain + 1)
    psi_k = sc.digamma(k_plain + 1)
    n_left, k_left = np.where(left, n, 1.0), np.where(left, k, 0.0)
    # inf - inf at an infinite argument: those terms' limits are _binom_digamma_term's
    with np.errstate(invalid="ignore"):
        difference = k_left - n_left
        shift = difference - k_left
        error = (k_left - (difference - shift)) - (n_left + shift)
        at_rest = _binom_digamma_term(n_left, n_left - k_left + 1, difference, error, y)
        at_k = _binom_digamma_term(n_left, k_left + 1, -k_left, 0.0 * k_left, y)
        at_n = np.where(np.isposinf(n_left) & (y == 0), 0.0, y * sc.digamma(n_left + 1))
    # digamma(n + 1) - digamma(n - k + 1), cancelling where both are large
    psi_n_rest = -_digamma_difference(n_plain - k_plain + 1, k_plain)
    dn = np.where(left, at_n - at_rest, y * psi_n_rest)
    dk = np.where(left, at_rest - at_k, y * (psi_rest - psi_k))
    return dn, dk


scalar_rule(sc.beta, _beta_partial, lambda a, b, y: _beta_partial(b, a, y))
scalar_rule(sc.betaln, _betaln_partial, lambda a, b, y: _betaln_partial(b, a, y))
scalar_rule(
    sc.binom,
    lambda n, k, y: _binom_partials(n, k, y)[0],
    lambda n, k, y: _binom_partials(n, k, y)[1],
)


def _poch_partials(z: Any, m: Any, y: Any) -> tuple[Any, Any]:
    """The partials of poch(z, m) = gamma(z + m) / gamma(z): y (digamma(z + m) - digamma(z)) in
    z and y digamma(z + m) in m, through the poles of gamma(z).

    Where z is a pole and z + m is not, y = 0 and the partial in z is
    gamma(z + m) (digamma(z + m) / gamma(z) + (1/gamma)'(z)), whose first term is 0 there.
    For m not an integer, by reflection, poch(1 - z - m, m) (pi cos(pi z) + (digamma(z + m)
    - digamma(1 - z)) sin(pi z)) / sin(pi (z + m)), the same function, which stays in the
    float range where the factors leave it (z = -1e4); sines and cosines take arguments less
    their nearest integers, exact. Where both are poles, y is a finite ratio and the partial
    in z the limit of ``_digamma_difference``; in m there is none (poch(z, m) is 0 beside the
    integers m): NaN. poch(inf, m) = 0 for m < 0, in every m."""
    s = z + m
    z_pole, s_pole = _is_pole(z), _is_pole(s)
    zero = z_pole & ~s_pole
    vanishing = (s == np.inf) & (y == 0)
    z_zero, m_zero = np.where(zero, z, 0.0), np.where(zero, m, 0.5)
    integer = m_zero == np.rint(m_zero)
    s_integer = np.where(integer, z_zero + m_zero, 1.0)
    rgamma_z = sc.rgamma(z_zero)
    direct = sc.gamma(s_integer) * (
        sc.digamma(s_integer) * rgamma_z + _rgamma_derivative(z_zero, rgamma_z)
    )
    m_fraction = np.where(integer, 0.5, m_zero)
    sin_z, cos_z = sin_cos_pi(z_zero)
    sin_m, cos_m = sin_cos_pi(m_fraction)
    reflected = (
        sc.poch(1 - z_zero - m_fraction, m_fraction)
        * (np.pi * cos_z + (sc.digamma(z_zero + m_fraction) - sc.digamma(1 - z_zero)) * sin_z)
        / (sin_z * cos_m + cos_z * sin_m)
    )
    z_plain = np.where(zero | vanishing, 1.0, z)
    m_plain = np.where(zero | vanishing, 1.0, m)
    dz = y * -_digamma_difference(z_plain, m_plain)
    dz = np.where(zero, np.where(integer, direct, reflected), np.where(vanishing, 0.0, dz))
    undefined = z_pole & s_pole
    s_plain = np.where(undefined | vanishing, 1.0, s)
    dm = np.where(undefined, np.nan, np.where(vanishing, 0.0, y * sc.digamma(s_plain)))
    return dz, dm


scalar_rule(
    sc.poch,
    lambda z, m, y: _poch_partials(z, m, y)[0],
    lambda z, m, y: _poch_partials(z, m, y)[1],
)

# ---- polygamma: the order n is an integer, without tangent -----------------------------------

parametric_rule(
    sc.polygamma,
    None,
    lambda n, x, y: polygamma_via_zeta(np.add(n, 1), x),
    forward=polygamma_via_zeta,
)

# ---- multigammaln: log of the multivariate gamma function, d an integer ----------------------


def _multigammaln_derivative(a: Any, d: int) -> Any:
    return sum(sc.digamma(np.subtract(a, j / 2)) for j in range(d))


def _multigammaln(a: Any, d: Any) -> Any:
    if is_numpy(a):
        return sc.multigammaln(a, d)
    # SciPy converts to NumPy; the arrays of engines get the sum of gammaln ufuncs instead.
    d = int(d)
    return d * (d - 1) / 4 * np.log(np.pi) + sum(sc.gammaln(a - j / 2) for j in range(d))


@rrule.register(sc.multigammaln)
def _multigammaln_rrule(a: Any, d: Any) -> tuple[Any, Any]:
    project_a = ProjectTo(a)

    def multigammaln_pullback(dy: Any) -> tuple[Any, ...]:
        return NO_TANGENT, project_a(dy * _multigammaln_derivative(a, d)), NO_TANGENT

    return _multigammaln(a, d), multigammaln_pullback


@frule.register(sc.multigammaln)
def _multigammaln_frule(tangents: tuple, a: Any, d: Any) -> tuple[Any, Any]:
    y = _multigammaln(a, d)
    da = tangents[1]
    if is_zero(da):
        return y, da
    return y, ProjectTo(y)(da * _multigammaln_derivative(a, d))
