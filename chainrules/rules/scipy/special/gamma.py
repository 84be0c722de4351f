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
    own derivative is right there too. sin and cos take ``x - n`` with ``n`` the nearest
    integer, exact, so that the zeros of sin(pi x) keep their relative accuracy.
    """
    if is_complex(x):
        return -y * sc.digamma(x)
    left = x < 0.5  # below -170, gamma(1 - x) is inf: so is the derivative, of its sign
    x_left = np.where(left, x, 0.0)
    n = ignore_derivatives(np.rint(x_left))
    r = x_left - n
    parity = np.where(np.remainder(n, 2) == 0, 1.0, -1.0)
    reflected = (
        parity
        * sc.gamma(1 - x_left)
        * (np.cos(np.pi * r) - sc.digamma(1 - x_left) * np.sin(np.pi * r) / np.pi)
    )
    return np.where(left, reflected, -y * sc.digamma(np.where(left, 1.0, x)))


# ---- gamma and its logarithms ---------------------------------------------------------------

scalar_rule(sc.gamma, lambda x, y: y * sc.digamma(x))
scalar_rule(sc.gammaln, lambda x, y: sc.digamma(x))
scalar_rule(sc.loggamma, lambda x, y: sc.digamma(x))
scalar_rule(sc.rgamma, _rgamma_derivative)
scalar_rule(sc.digamma, lambda x, y: trigamma(x))  # sc.psi is the same ufunc
non_differentiable(sc.gammasgn)

# ---- beta and Pochhammer --------------------------------------------------------------------

scalar_rule(
    sc.beta,
    lambda a, b, y: y * (sc.digamma(a) - sc.digamma(a + b)),
    lambda a, b, y: y * (sc.digamma(b) - sc.digamma(a + b)),
)
scalar_rule(
    sc.betaln,
    lambda a, b, y: sc.digamma(a) - sc.digamma(a + b),
    lambda a, b, y: sc.digamma(b) - sc.digamma(a + b),
)
scalar_rule(
    sc.binom,
    lambda n, k, y: y * (sc.digamma(n + 1) - sc.digamma(n - k + 1)),
    lambda n, k, y: y * (sc.digamma(n - k + 1) - sc.digamma(k + 1)),
)
scalar_rule(
    sc.poch,
    lambda z, m, y: y * (sc.digamma(z + m) - sc.digamma(z)),
    lambda z, m, y: y * sc.digamma(z + m),
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
