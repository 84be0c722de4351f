"""Rules for exponential and trigonometric integrals, the dilogarithm, zeta and elliptic integrals.

expi, exp1, sici and spence take complex input and are holomorphic. Singular points give
their honest infinities (``expi'(0) = inf``); removable ones are exact: ``Si'(0) = 1``,
``spence'(1) = -1``, ``ellipk'(0) = pi/8``, ``ellipe'(0) = -pi/8`` (near ``m = 0`` the elliptic
derivatives come from their power series, where the closed forms cancel).

``zeta(x, q)`` has derivative ``-x zeta(x + 1, q)`` in ``q``; its derivative in the exponent
``x`` is summed by Euler-Maclaurin (``zeta_ds``, real or complex ``x``, thunked), in
operations an engine records, so zeta is differentiated twice in ``x`` as well. ``expn(n, x)``
takes an integer ``n`` without tangent. ``scipy.special`` computes on NumPy arrays only.

``modfresnelp(x) = (fp, kp)`` with ``fp = int_x^inf exp(i t^2) dt`` and
``kp = exp(-i (x^2 + pi/4)) fp / sqrt(pi)``: ``fp' = -exp(i x^2)``,
``kp' = -2 i x kp - exp(-i pi/4) / sqrt(pi)``; ``modfresnelm`` likewise with ``-i``. The
argument is real and the outputs complex: the cotangent is the real part of
``conj(d) * dy``. (SciPy's values follow this definition for ``x >= 0``.)

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.spence, 1.0)
>>> float(pullback(1.0)[1])
-1.0
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import scipy.special as sc

from ...._compat import scipy_private_ufunc
from ....core.define import ignore_derivatives, scalar_rule
from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.parametric import parametric_rule

_ROOT_PI = np.sqrt(np.pi)

__all__ = ["hurwitz_zeta", "riemann_zeta", "zeta_ds"]

# scipy.special.zeta(x, q) is a Python wrapper, converting its input to NumPy, around these
# ufuncs. Rules on the ufuncs themselves let engines, whose arrays dispatch ufuncs,
# differentiate through zeta and polygamma again. They are private to SciPy, hence the
# fallbacks.
hurwitz_zeta: Any = scipy_private_ufunc("_zeta")
riemann_zeta: Any = scipy_private_ufunc("_riemann_zeta")


def _where_zero(x: Any, at_zero: Any, f: Any) -> Any:
    """``f(x)`` with ``x == 0`` replaced by a safe 1 inside, and ``at_zero`` there."""
    zero = x == 0
    return np.where(zero, at_zero, f(np.where(zero, 1, x)))


def _elliptic_series(m: Any, kind: str) -> Any:
    """dK/dm or dE/dm by their power series in m, for |m| < 1/4 (36 terms, below 1e-17)."""
    total = 0.0 * m
    c2 = 1.0  # c_n**2 with c_n = (2n)! / (2**(2n) n!**2)
    power = 1.0 + 0.0 * m  # m**(n-1)
    for n in range(1, 37):
        c2 = c2 * ((2 * n - 1) / (2 * n)) ** 2
        term = n * c2 * power
        total = total + (term if kind == "K" else term / (1 - 2 * n))
        power = power * m
    return np.pi / 2 * total


def _ellipk_derivative(m: Any, k: Any) -> Any:
    small = np.abs(m) < 0.25
    safe = np.where(small, 0.5, m)
    # E / (1 - m) first: m (1 - m) would overflow for m below -1e154; and 2 m below -9e307
    closed = (sc.ellipe(safe) / (1 - safe) - sc.ellipk(safe)) / safe / 2
    # the series at a safe m too: m**30 of a huge m would put NaN into the unused branch
    return np.where(small, _elliptic_series(np.where(small, m, 0.0), "K"), closed)


def _ellipe_derivative(m: Any, e: Any) -> Any:
    small = np.abs(m) < 0.25
    safe = np.where(small, 0.5, m)
    closed = (sc.ellipe(safe) - sc.ellipk(safe)) / safe / 2  # 2 m overflows below -9e307
    # the series at a safe m too: m**30 of a huge m would put NaN into the unused branch
    return np.where(small, _elliptic_series(np.where(small, m, 0.0), "E"), closed)


def _expn_derivative(n: Any, x: Any, y: Any) -> Any:
    # E_n' = -E_{n-1}; E_0(x) = exp(-x)/x, whose derivative is -exp(-x) (x + 1) / x**2. A
    # float n is SciPy's truncated toward 0 (expn(0.5, x) is E_0(x)).
    n = np.trunc(n)
    lower = sc.expn(np.maximum(n - 1, 0), x)
    # at a safe x where n > 0: the unused branch's 1/x**2 would put NaN into the gradient
    x0 = np.where(np.equal(n, 0), x, 1.0)
    e0_derivative = -np.exp(-x0) * (x0 + 1) / (x0 * x0)
    return np.where(np.equal(n, 0), e0_derivative, -lower)


# B_2j / (2j)! for j = 1..10, the Euler-Maclaurin coefficients.
_BERNOULLI = (
    1 / 6,
    -1 / 30,
    1 / 42,
    -1 / 30,
    5 / 66,
    -691 / 2730,
    7 / 6,
    -3617 / 510,
    43867 / 798,
    -174611 / 330,
)
_EM_COEFFICIENTS = tuple(b / math.factorial(2 * j + 2) for j, b in enumerate(_BERNOULLI))


# Beyond this many terms, |s| + 12 summed directly would cost a Python loop without end in
# sight (s = 1e8 took hours); there the sum is whole after a few terms (see _far_terms).
_DIRECT_TERMS = 10_000


def _hurwitz_zeta_ds(s: Any, q: Any) -> Any:
    """d/ds zeta(s, q) by Euler-Maclaurin summation, for q > 0 and s != 1 (also complex).

    N terms summed directly, q + N >= |s| + 12, then the integral and ten Bernoulli
    corrections, each differentiated in s exactly; the remainder is below 1e-16 relatively.
    Where |s| is farther than that affords (see ``_far_terms``), the terms beyond the first
    few are below rounding and no tail is added. Written in operations an engine records, so
    it is differentiated again (zeta's second derivative).
    """
    xp = array_namespace(s, q)
    # Integer q would make (q + k) ** -s an integer power, and Python floats powers that raise
    # on overflow.
    s, q = s + np.float64(0.0), q + np.float64(0.0)
    # N only sets where the direct sum ends (piecewise
    # constant in s): a Python int from the plain values.
    s_plain = np.asarray(ignore_derivatives(s))
    q_plain = np.asarray(ignore_derivatives(q), dtype=float)
    with np.errstate(invalid="ignore"):  # NaN s: no terms asked for, NaN comes out
        needed = np.ceil(np.abs(s_plain) - np.maximum(q_plain - 1.0, 0.0))
    # |s| from 1e15 on: the corrections' rising products s (s+1)...(s+19) overflow
    far = (needed > _DIRECT_TERMS) | (np.abs(s_plain) > 1e15)
    n = 12 + int(np.max(np.where(far | np.isnan(needed), 0.0, needed), initial=0.0))
    # terms beyond the floats: honest inf and 0; inf * 0 where q = inf (replaced below); the
    # pole at s = 1
    with np.errstate(over="ignore", under="ignore", invalid="ignore", divide="ignore"):
        if np.any(far):
            n = max(n, _far_terms(s_plain, q_plain, far))
            s_near = xp.where(far, 2.0, s)  # the tail's computation gets a safe s where unused
        else:
            s_near = s
        total = -xp.log(q) * q**-s  # not 0 * s, NaN at s = inf
        for k in range(1, n):
            total = total - xp.log(q + k) * (q + k) ** -s
        tail = _euler_maclaurin_tail(xp, s_near, q + n)
    if np.any(far):
        # real s far below 1 (Hurwitz's; Riemann's are reflected): SciPy's zeta(s, q) is NaN
        below = np.broadcast_to(np.isreal(s_plain) & (np.real(s_plain) < 1.0), far.shape)
        tail = xp.where(far, xp.where(below & far, np.nan, 0.0), tail)
    out = xp.where(q > 0, total + tail, np.nan)
    # q = +inf, Re s > 1: zeta(s, q) ~ q**(1 - s) / (s - 1) is 0 there, and so is its
    # derivative, where every term is inf * 0
    vanishing = np.isposinf(q_plain) & (np.real(s_plain) > 1.0)
    return xp.where(vanishing, 0.0, out) if np.any(vanishing) else out


def _euler_maclaurin_tail(xp: Any, s: Any, a: Any) -> Any:
    """-sum over k >= 0 of log(a + k) (a + k) ** -s: the integral and ten corrections."""
    log_a = xp.log(a)
    total = a ** (1 - s) * (-log_a / (s - 1) - 1 / (s - 1) ** 2) - log_a * a**-s / 2
    rising, d_rising = s, 1.0 + 0.0 * s  # s (s+1) ... (s+2j-2) and its derivative in s
    power = a ** (-s - 1)
    for j, c in enumerate(_EM_COEFFICIENTS, start=1):
        total = total + c * power * (d_rising - log_a * rising)
        u, v = s + 2 * j - 1, s + 2 * j
        d_rising = d_rising * u * v + rising * (u + v)
        rising = rising * u * v
        power = power / (a * a)
    return total


def _far_terms(s: np.ndarray, q: np.ndarray, far: np.ndarray) -> int:
    """How many terms make the sum whole where |s| is beyond ``_DIRECT_TERMS`` of q.

    The tail from a = q + N is about log(a) a**(1 - s) / (s - 1), the smallest term summed
    log(q + 1) (q + 1)**-s; their ratio is taken below e**-50 (1e-22). Where even a thousand
    terms leave more (Re s small beside |s|: far along the imaginary axis), no affordable sum
    is accurate, and the derivative is refused rather than given wrong. Re s = +inf takes the
    fewest: its terms are 0, or inf where q + k < 1.
    """
    s, q = np.broadcast_arrays(s, q)
    checked = far & ~(np.isreal(s) & (np.real(s) < 1.0)) & (q > 0)  # the others: NaN
    s, sigma, q = s[checked], np.real(s[checked]), q[checked]
    with np.errstate(over="ignore", invalid="ignore"):
        underflow = sigma * np.log(q)
    for terms in (12, 100, _DIRECT_TERMS):
        a = q + terms
        with np.errstate(divide="ignore", over="ignore", invalid="ignore"):
            margin = np.log(np.log(a) / np.log1p(q))
            decay = sigma * np.log(a / (q + 1.0))
        # or every term below the floats (q >= 2, q**-s < e**-800): the sum rounds to 0 at once
        if np.all((decay >= np.log(a) + margin + 50.0) | ((q >= 2.0) & (underflow >= 800.0))):
            return terms
    worst = complex(s[np.argmin(sigma / np.abs(s))])
    raise ValueError(
        f"zeta's derivative in s is not computed at s = {worst}: there its sum needs more "
        f"than {_DIRECT_TERMS} terms"
    )


def zeta_ds(s: Any, q: Any = None) -> Any:
    """The derivative of ``zeta(s)`` (Riemann, real or complex s) or ``zeta(s, q)`` in ``s``.

    Riemann zeta with Re s < -1 goes through the functional equation
    zeta(s) = chi(s) sin(pi s / 2) zeta(1 - s), chi(s) = 2**s pi**(s-1) gamma(1 - s),
    written so that the trivial zeros need no division.

    >>> round(float(zeta_ds(2.0)), 12)  # zeta'(2)
    -0.937548254316
    >>> round(float(zeta_ds(0.0)), 12)  # -log(2 pi) / 2
    -0.918938533205
    """
    if q is not None:
        return _hurwitz_zeta_ds(s, q)
    xp = array_namespace(s)
    s = xp.asarray(s)
    # Which points are reflected is decided on the plain values, so that it is Python logic.
    left = np.real(np.asarray(ignore_derivatives(s))) < -1.0
    direct = _hurwitz_zeta_ds(xp.where(left, 2.0, s), 1.0)
    if not np.any(left):
        return direct[()] if direct.ndim == 0 else direct
    r = xp.where(left, s, -1.0)  # reflected points only; a safe value elsewhere
    chi = _chi(xp, r)
    with np.errstate(invalid="ignore"):  # s = -inf: NaN, as SciPy's zeta(-inf)
        sin, cos = xp.sin(np.pi * r / 2), xp.cos(np.pi * r / 2)
    # Riemann's own ufunc: the Hurwitz ufunc's value at complex s is NaN
    zeta_1mr = sc.zeta(1 - r) if riemann_zeta is None else riemann_zeta(1 - r)
    reflected = chi * (
        sin * zeta_1mr * (np.log(2 * np.pi) - sc.digamma(1 - r))
        + np.pi / 2 * cos * zeta_1mr
        - sin * _hurwitz_zeta_ds(1 - r, 1.0)
    )
    out = xp.where(left, reflected, direct)
    return out[()] if out.ndim == 0 else out


def _chi(xp: Any, r: Any) -> Any:
    """chi(r) = 2**r pi**(r - 1) gamma(1 - r) for Re r < -1. From r = -150 on (real r), where
    gamma(1 - r) overflows as the powers underflow (inf * 0), from their logarithms: there
    chi is beyond the floats and zeta's derivative infinite, of the sign of what chi
    multiplies."""
    r_plain = np.asarray(ignore_derivatives(r))
    deep = np.isrealobj(r_plain) & (np.real(r_plain) < -150.0)  # complex r: kept direct
    if not np.any(deep):
        return 2.0**r * np.pi ** (r - 1) * sc.gamma(1 - r)
    near, far = xp.where(deep, -2.0, r), xp.where(deep, r, -200.0)  # safe where unused
    direct = 2.0**near * np.pi ** (near - 1) * sc.gamma(1 - near)
    with np.errstate(over="ignore", invalid="ignore"):  # -inf: inf - inf, NaN as SciPy's
        logarithmic = xp.exp(far * np.log(2.0) + (far - 1) * np.log(np.pi) + sc.gammaln(1 - far))
    return xp.where(deep, logarithmic, direct)


# ---- exponential and trigonometric integrals ------------------------------------------------

scalar_rule(sc.expi, lambda x, y: np.exp(x) / x)
scalar_rule(sc.exp1, lambda x, y: -np.exp(-x) / x)
parametric_rule(sc.expn, None, _expn_derivative)
scalar_rule(
    sc.sici,
    (lambda x, y: _where_zero(x, 1.0, lambda t: np.sin(t) / t),),
    (lambda x, y: np.cos(x) / x,),
)

scalar_rule(
    sc.shichi,
    (lambda x, y: _where_zero(x, 1.0, lambda t: np.sinh(t) / t),),
    (lambda x, y: np.cosh(x) / x,),
)
scalar_rule(
    sc.fresnel,
    (lambda z, y: np.sin(np.pi / 2 * z * z),),
    (lambda z, y: np.cos(np.pi / 2 * z * z),),
)

# ---- dilogarithm and elliptic integrals -----------------------------------------------------


def _spence_derivative(z: Any, y: Any) -> Any:
    """log(z) / (1 - z); near z = 1, -sum_n (1 - z)**n / (n + 1), whose derivatives are exact.

    (The quotient's own derivative cancels as z -> 1, and is 0 / 0 at 1.)
    """
    if is_complex(z):
        return np.where(z == 1, -1.0, np.log(z) / (1 - np.where(z == 1, 0, z)))
    near = np.abs(z - 1) < 0.25
    u = np.where(near, 1 - z, 0.0)
    series = 0.0 * u
    power = 1.0 + 0.0 * u
    for n in range(30):  # 0.25**30 / 31 < 1e-19
        series = series - power / (n + 1)
        power = power * u
    safe = np.where(near, 0.5, z)
    return np.where(near, series, np.log(safe) / (1 - safe))


scalar_rule(sc.spence, _spence_derivative)
scalar_rule(sc.ellipk, _ellipk_derivative)
scalar_rule(sc.ellipe, _ellipe_derivative)

# ---- zeta: Riemann zeta(x) and Hurwitz zeta(x, q) -------------------------------------------


def _zeta_dq(x: Any, q: Any, y: Any) -> Any:
    zeta = sc.zeta if hurwitz_zeta is None else hurwitz_zeta
    z = zeta(np.add(x, 1), q)
    with np.errstate(invalid="ignore"):
        product = -x * z
    # x = +inf, q > 1: z = q**(-x - 1) is 0, and x z -> 0 with it (not inf * 0)
    vanishing = np.asarray(ignore_derivatives(z)) == 0
    return array_namespace(product).where(vanishing, 0.0, product) if np.any(vanishing) else product


parametric_rule(
    sc.zeta,
    lambda x, *rest: zeta_ds(x, rest[0] if len(rest) > 1 else None),
    _zeta_dq,
    costly=(0,),
    traceable=(0,),
    keywords=("q",),
    required=1,
)
if hurwitz_zeta is not None:
    parametric_rule(
        hurwitz_zeta, lambda x, q, y: zeta_ds(x, q), _zeta_dq, costly=(0,), traceable=(0,)
    )
if riemann_zeta is not None:
    parametric_rule(riemann_zeta, lambda x, y: zeta_ds(x), costly=(0,), traceable=(0,))

# zetac(x) = zeta(x) - 1, accurate for large x
parametric_rule(sc.zetac, lambda x, y: zeta_ds(x), costly=(0,), traceable=(0,))

# ---- modified Fresnel integrals -------------------------------------------------------------

scalar_rule(
    sc.modfresnelp,
    (lambda x, y: -np.exp(1j * x * x),),
    (lambda x, y: -2j * x * y[1] - np.exp(-0.25j * np.pi) / _ROOT_PI,),
)
scalar_rule(
    sc.modfresnelm,
    (lambda x, y: -np.exp(-1j * x * x),),
    (lambda x, y: 2j * x * y[1] - np.exp(0.25j * np.pi) / _ROOT_PI,),
)
