"""Rules for the orthogonal polynomials of ``scipy.special``: ``eval_legendre`` and its kin.

The derivative in ``x`` of each polynomial is a polynomial of the next lower degree of the
same or a neighbouring family (DLMF 18.9.15, 18.9.19-21, 18.9.25, 18.9.28, 18.7.9):

* Jacobi: ``P_n^(a,b)' = (n + a + b + 1)/2 P_{n-1}^(a+1,b+1)``; shifted Jacobi
  ``G_n^(p,q)' = n G_{n-1}^(p+2,q+1)``;
* Gegenbauer: ``C_n^(a)' = 2a C_{n-1}^(a+1)``, hence Legendre ``P_n' = C_{n-1}^(3/2)`` and
  Chebyshev ``U_n' = 2 C_{n-1}^(2)``, ``T_n' = n U_{n-1}``;
* Laguerre: ``L_n^(a)' = -L_{n-1}^(a+1)``; Hermite ``H_n' = 2n H_{n-1}``, ``He_n' = n He_{n-1}``;
* the shifted and rescaled forms (``sh_*`` on ``2x - 1``, ``chebyc``, ``chebys`` on ``x/2``)
  by the chain rule.

No formula divides by ``1 - x**2``, so the endpoints ``x = +-1`` are regular, and each
derivative is again a function with a rule, so pullbacks differentiate again. The degree ``n``
is an integer: it has no tangent. The continuous parameters: the Laguerre one is
``sum_{k < n} L_k^(alpha) / (n - k)``; Jacobi's ``alpha`` and ``beta``, Gegenbauer's
``alpha``, ``p`` and ``q`` come from the three-term recurrences in the degree on jets (value,
gradient and Hessian in the parameters), and at degrees that are not integers from the
hypergeometric forms SciPy defines them by; each is a function with rules, so second
derivatives exist. Complex ``x`` is supported where SciPy accepts it; the polynomials are
holomorphic. An integer degree given as a float is evaluated one degree lower as an integer
(SciPy's floating forms overflow from degree 170 on), and at a degree so small that ``n - 1``
rounds to -1 the lower function keeps its factor ``1/Gamma(n)``, about ``n``.

``assoc_laguerre(x, n, k)`` is ``eval_genlaguerre(n, k, x)`` with the argument first, and the
same partials: ``-L_{n-1}^{(k+1)}(x)`` in ``x``, the finite sum over lower degrees in ``k``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.eval_legendre, 2, 1.0)  # P_2 = (3x^2 - 1)/2
>>> float(y), float(pullback(1.0)[2])
(1.0, 3.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import ignore_derivatives
from ....core.parametric import parametric_rule
from .hypergeometric_jets import hyp1f1_jet, hyp2f1_jet
from .jets import (
    Jet,
    as_array,
    broadcast_jets,
    gradient_of,
    hessian_of,
    jet_exp,
    jet_gammaln,
    jet_rgamma,
    jet_where,
    parameter_jets,
)
from .parameter_gradients import (
    derivative_rules,
    parameter_derivative_rules,
    parameter_gradient_rules,
)

__all__ = ["genlaguerre_dalpha", "genlaguerre_dx"]


def _below(n: Any) -> Any:
    """The degree ``n - 1``; 0 for the integer degrees ``n <= 0`` (constants, whose derivative
    is masked out); a degree that is not an integer goes below 0 as it is."""
    return np.where(_constant(n), 0, np.subtract(n, 1))


def _positive(n: Any) -> Any:
    """0 for the constant polynomials (integer degrees ``n <= 0``), 1 for every other degree."""
    return np.logical_not(_constant(n)).astype(float)


def _constant(n: Any) -> Any:
    return np.logical_and(np.less_equal(n, 0), np.equal(n, np.floor(n)))


def _tiny(n: Any) -> Any:
    """Degrees that are not integers, of size below about 1.1e-16, for which ``n - 1`` rounds to
    -1: a function of that degree loses its factor ``1/Gamma(n)``, about n, and is 0 or NaN in
    SciPy."""
    below = np.subtract(n, 1)
    return np.not_equal(n, np.floor(n)) & np.equal(below, np.floor(below))


def _at_lower_degree(n: Any, y: Any, evaluate: Any) -> Any:
    """``evaluate(n - 1)``, an integer degree given as an integer where the value ``y`` is not NaN.

    SciPy's forms at a floating degree overflow in places from degree 170 on (NaN; the
    Gegenbauer one divides gamma functions): an integer degree is evaluated by its recurrence,
    at a cost linear in the degree, as SciPy's value at an integer degree is; where SciPy's
    value at a floating degree is NaN there is no derivative to spend it on. Degrees
    that are not integers stay as they are, except the tiny ones (``_tiny``), which the callers
    evaluate themselves (0 stands in for them).
    """
    below = _below(n)
    integer = np.equal(n, np.floor(n)) & (np.abs(below) < 2.0**31)
    integer = integer & np.logical_not(np.isnan(ignore_derivatives(y)))
    whole = evaluate(np.where(integer, below, 0).astype(np.int64))
    return np.where(integer, whole, evaluate(np.where(integer | _tiny(n), 0, below)))


def _gegenbauer_below(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    """``C_{n-1}^(alpha)(x)``, the Gegenbauer function one degree below n (``_at_lower_degree``).

    A tiny degree (``_tiny``) takes SciPy's hypergeometric form with ``1/Gamma(n)`` kept,
    ``Gamma(n - 1 + 2a) / (Gamma(n) Gamma(2a)) 2F1(1 - n, n - 1 + 2a; a + 1/2; (1 - x)/2)``,
    whose gamma ratio is ``1/Gamma(n) / (2a - 1 + n)`` to a relative n.
    """
    tiny = _tiny(n)
    lower = _at_lower_degree(n, y, lambda degree: sc.eval_gegenbauer(degree, alpha, x))
    return np.where(tiny, _gegenbauer_tiny(n, tiny, alpha, x), lower)


def _gegenbauer_tiny(n: Any, tiny: Any, alpha: Any, x: Any) -> Any:
    """``C_{n-1}^(alpha)(x)`` at a tiny degree n (where ``tiny``; 1 stands in elsewhere).

    Beyond x = -1 a function of a degree that is not an integer is complex: NaN there.
    """
    n_t, x_t = np.where(tiny, n, 1.0), np.where(tiny, x, 0.0)
    lost = sc.rgamma(n_t) / (2 * np.subtract(alpha, 0.5) + n_t)
    series = sc.hyp2f1(1 - n_t, n_t - 1 + 2 * alpha, np.add(alpha, 0.5), (1 - x_t) / 2)
    return np.where(_beyond_minus_one(x), np.nan, lost * series)


def _beyond_minus_one(x: Any) -> Any:
    plain = ignore_derivatives(x)
    return np.isreal(plain) & np.less(np.real(plain), -1)


def _chebyu_below(n: Any, x: Any, y: Any) -> Any:
    """``U_{n-1}(x)``, at a tiny degree (``_tiny``) with its factor n kept: there it is
    ``n theta / sin(theta)``, ``x = cos(theta)``, to a relative n (``n t / sinh(t)`` for
    ``x = cosh(t) > 1``, whose hypergeometric form SciPy gives as inf from about 1e17 on), +inf
    at x = -1 and complex (NaN) beyond; at a complex x the hypergeometric form.
    """
    tiny = _tiny(n)
    lower = _at_lower_degree(n, y, lambda degree: sc.eval_chebyu(degree, x))
    if np.iscomplexobj(ignore_derivatives(x)):
        return np.where(tiny, _gegenbauer_tiny(n, tiny, 1.0, x), lower)
    inside = tiny & np.less(np.abs(x), 1)
    x_in, x_out = np.where(inside, x, 0.0), np.where(tiny & np.greater(x, 1), x, 2.0)
    ratio = np.where(
        inside,
        np.arccos(x_in) / np.sqrt((1 - x_in) * (1 + x_in)),
        np.arccosh(x_out) / np.sqrt((x_out - 1) * (x_out + 1)),
    )
    ratio = np.where(np.equal(x, 1), 1.0, np.where(np.equal(x, -1), np.inf, ratio))
    n_t = np.where(tiny, n, 1.0)
    return np.where(tiny, np.where(_beyond_minus_one(x), np.nan, n_t * ratio), lower)


# ---- Gegenbauer family: Legendre, Chebyshev -------------------------------------------------


def _legendre_dx(n: Any, x: Any, y: Any) -> Any:
    return _positive(n) * _gegenbauer_below(n, 1.5, x, y)


def _chebyt_dx(n: Any, x: Any, y: Any) -> Any:
    return n * _chebyu_below(n, x, y)


def _chebyu_dx(n: Any, x: Any, y: Any) -> Any:
    return 2 * _positive(n) * _gegenbauer_below(n, 2.0, x, y)


def _gegenbauer_dx(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    return 2 * alpha * _positive(n) * _gegenbauer_below(n, np.add(alpha, 1), x, y)


def _reflecting(partial: Any, shift: int, sign: float) -> Any:
    """``partial`` (an x-derivative) with SciPy's negative integer degrees: it evaluates degree
    n < 0 as ``sign`` times degree ``-n - shift``, T_(-n) = T_n (shift 0), U_(-n) = -U_(n-2)
    (shift 2, sign -1), P_(-n-1) = P_n (shift 1). (They were taken as constants: 0, or n.)"""

    def reflected(n: Any, x: Any, y: Any) -> Any:
        negative = np.less(n, 0) & np.equal(n, np.floor(n))
        if not np.any(negative):
            return partial(n, x, y)
        degree = np.where(negative, np.negative(n) - shift, n)
        return np.where(negative, sign, 1.0) * partial(degree, x, y)

    return reflected


_legendre_dx_all = _reflecting(_legendre_dx, 1, 1.0)
_chebyt_dx_all = _reflecting(_chebyt_dx, 0, 1.0)
_chebyu_dx_all = _reflecting(_chebyu_dx, 2, -1.0)
parametric_rule(sc.eval_legendre, None, _legendre_dx_all)
parametric_rule(sc.eval_chebyt, None, _chebyt_dx_all)
parametric_rule(sc.eval_chebyu, None, _chebyu_dx_all)
parametric_rule(
    sc.eval_chebyc,
    None,
    _reflecting(lambda n, x, y: n * _chebyu_below(n, x / 2, y), 0, 1.0),
)
parametric_rule(sc.eval_chebys, None, lambda n, x, y: _chebyu_dx_all(n, x / 2, y) / 2)


def _gegenbauer(n: Any, alpha: Any, x: Any, order: int) -> Jet:
    """C_n^(alpha)(x) on a jet in alpha: the recurrence
    ``k C_k = 2 (k + alpha - 1) x C_(k-1) - (k + 2 alpha - 2) C_(k-2)`` (DLMF 18.9.1) for
    integer n; for other n, ``gamma(n + 2 alpha) / (n! gamma(2 alpha)) 2F1(-n, n + 2 alpha;
    alpha + 1/2; (1 - x)/2)`` as SciPy defines it."""
    (a,) = parameter_jets(alpha, order=order)
    a, n, x = broadcast_jets(a, np.asarray(n, dtype=float), as_array(x))
    integer = n == np.floor(n)
    lower = Jet.constant(np.ones(x.shape), 1, order)
    upper = a * (2 * x)
    for k in range(2, int(np.max(np.where(integer, n, 0), initial=0)) + 1):
        higher = (upper * (k + a - 1) * (2 * x) - lower * (a * 2 + (k - 2))) * (1 / k)
        moving = k <= n
        lower, upper = jet_where(moving, upper, lower), jet_where(moving, higher, upper)
    value = jet_where(n == 0, lower, jet_where(n < 0, lower * 0, upper))
    if np.all(integer):
        return value
    degree = np.where(integer, 0.5, n)
    front = jet_rgamma(a * 2) / jet_rgamma(a * 2 + degree) * sc.rgamma(degree + 1)
    series = hyp2f1_jet(Jet.constant(-degree, 1, order), a * 2 + degree, a + 0.5, (1 - x) / 2)
    return jet_where(integer, value, front * series)


def gegenbauer_dalpha(n: Any, alpha: Any, x: Any) -> Any:
    """The derivative of ``eval_gegenbauer(n, alpha, x)`` in ``alpha``.

    >>> round(float(gegenbauer_dalpha(2, 1.5, 0.5)), 12)  # d/da (2a(a+1)x^2 - a)
    1.0
    """
    return gradient_of(_gegenbauer(n, alpha, x, 1))[0]


def _gegenbauer_dalpha_dx(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    # d/da of 2a C_(n-1)^(a+1)
    lower = _gegenbauer_below(n, np.add(alpha, 1), x, y)
    shifted = call(gegenbauer_dalpha, _below(n), np.add(alpha, 1), x)
    return 2 * _positive(n) * (lower + alpha * shifted)


parameter_derivative_rules(
    sc.eval_gegenbauer,
    gegenbauer_dalpha,
    lambda n, alpha, x: hessian_of(_gegenbauer(n, alpha, x, 2))[0],
    _gegenbauer_dalpha_dx,
    None,
    _gegenbauer_dx,
    position=1,
)
parametric_rule(sc.eval_sh_legendre, None, lambda n, x, y: 2 * _legendre_dx_all(n, 2 * x - 1, y))
parametric_rule(sc.eval_sh_chebyt, None, lambda n, x, y: 2 * _chebyt_dx_all(n, 2 * x - 1, y))
parametric_rule(sc.eval_sh_chebyu, None, lambda n, x, y: 2 * _chebyu_dx_all(n, 2 * x - 1, y))

# ---- Jacobi ---------------------------------------------------------------------------------


def _jacobi_dx(n: Any, alpha: Any, beta: Any, x: Any, y: Any) -> Any:
    scale = (np.add(n, 1) + np.add(alpha, beta)) / 2
    lower = sc.eval_jacobi(_below(n), np.add(alpha, 1), np.add(beta, 1), x)
    return _positive(n) * scale * lower


def _sh_jacobi_dx(n: Any, p: Any, q: Any, x: Any, y: Any) -> Any:
    return n * sc.eval_sh_jacobi(_below(n), np.add(p, 2), np.add(q, 1), x)


def _jacobi_jet(n: Any, a: Jet, b: Jet, x: Any) -> Jet:
    """P_n^(a,b)(x) on jets: the recurrence (DLMF 18.9.2) for integer n, SciPy's
    ``binom(n + a, n) 2F1(-n, n + a + b + 1; a + 1; (1 - x)/2)`` for other n and where the
    recurrence would divide by 0 (``a + b`` a negative integer)."""
    k_, order = a.k, a.order
    a, b, n, x = broadcast_jets(a, b, np.asarray(n, dtype=float), as_array(x))
    s = a + b
    top = int(np.max(np.where(n == np.floor(n), n, 0), initial=0))
    degenerate = np.zeros(x.shape, dtype=bool)
    for k in range(1, top):
        degenerate |= (k < n) & (((s.value + k + 1) == 0) | ((s.value + 2 * k) == 0))
    recurring = (n == np.floor(n)) & (n >= 0) & ~degenerate
    lower = Jet.constant(np.ones(x.shape), k_, order)
    upper = (a + 1) + (s + 2) * ((x - 1) / 2)
    for k in range(1, top):
        t = s + 2 * k
        numerator = (t + 1) * ((t + 2) * t * x + (a * a - b * b)) * upper
        numerator = numerator - (a + k) * (b + k) * (t + 2) * lower * 2
        denominator = (s + (k + 1)) * t * (2 * (k + 1))
        safe = jet_where(recurring, denominator, Jet.constant(np.ones(x.shape), k_, order))
        higher = numerator / safe
        moving = (k < n) & recurring
        lower, upper = jet_where(moving, upper, lower), jet_where(moving, higher, upper)
    value = jet_where(n == 0, lower, upper)
    if np.all(recurring):
        return value
    degree = np.where(recurring, 0.5, n)
    front = jet_rgamma(a + 1) / jet_rgamma(a + (degree + 1)) * sc.rgamma(degree + 1)
    minus_n = Jet.constant(-degree, k_, order)
    series = hyp2f1_jet(minus_n, s + (degree + 1), a + 1, (1 - x) / 2)
    return jet_where(recurring, value, front * series)


def _jacobi(alpha: Any, beta: Any, n: Any, x: Any, order: int) -> Jet:
    a, b = parameter_jets(alpha, beta, order=order)
    return _jacobi_jet(n, a, b, x)


def jacobi_gradient(alpha: Any, beta: Any, n: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``eval_jacobi(n, alpha, beta, x)`` in ``alpha`` and ``beta``
    (parameters first).

    >>> [round(float(d), 12) for d in jacobi_gradient(0.5, 1.5, 1, 0.2)]  # a + 1 + (a+b+2)(x-1)/2
    [0.6, -0.4]
    """
    return gradient_of(_jacobi(alpha, beta, n, x, 1))


def _jacobi_slopes(alpha: Any, beta: Any, n: Any, x: Any) -> tuple:
    # d/dp of (n + a + b + 1)/2 P_(n-1)^(a+1, b+1)
    a1, b1, below = np.add(alpha, 1), np.add(beta, 1), _below(n)
    lower = sc.eval_jacobi(below, a1, b1, x)
    ga, gb = call(jacobi_gradient, a1, b1, below, x)
    scale = (np.add(n, 1) + np.add(alpha, beta)) / 2
    positive = _positive(n)
    return (None, (positive * (lower / 2 + scale * ga), positive * (lower / 2 + scale * gb)))


parameter_gradient_rules(
    sc.eval_jacobi,
    jacobi_gradient,
    lambda alpha, beta, n, x: hessian_of(_jacobi(alpha, beta, n, x, 2)),
    _jacobi_slopes,
    None,
    _jacobi_dx,
    positions=(1, 2),
)


def _sh_jacobi(p: Any, q: Any, n: Any, x: Any, order: int) -> Jet:
    """``G_n^(p,q)(x) = P_n^(p-q, q-1)(2x - 1) / binom(2n + p - 1, n)``, SciPy's definition."""
    pj, qj = parameter_jets(p, q, order=order)
    degree = np.asarray(n, dtype=float)
    ratio = jet_rgamma(pj + 2 * degree) / jet_rgamma(pj + degree) * sc.gamma(degree + 1)
    return _jacobi_jet(n, pj - qj, qj - 1, 2 * as_array(x) - 1) * ratio


def sh_jacobi_gradient(p: Any, q: Any, n: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``eval_sh_jacobi(n, p, q, x)`` in ``p`` and ``q`` (parameters
    first)."""
    return gradient_of(_sh_jacobi(p, q, n, x, 1))


def _sh_jacobi_slopes(p: Any, q: Any, n: Any, x: Any) -> tuple:
    # d/dp of n G_(n-1)^(p+2, q+1)
    ga, gb = call(sh_jacobi_gradient, np.add(p, 2), np.add(q, 1), _below(n), x)
    return (None, (n * ga, n * gb))


parameter_gradient_rules(
    sc.eval_sh_jacobi,
    sh_jacobi_gradient,
    lambda p, q, n, x: hessian_of(_sh_jacobi(p, q, n, x, 2)),
    _sh_jacobi_slopes,
    None,
    _sh_jacobi_dx,
    positions=(1, 2),
)

# ---- Laguerre and Hermite -------------------------------------------------------------------


def genlaguerre_dx(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    """``-L_{n-1}^(alpha+1)(x)``; at a tiny degree (``_tiny``) with ``1/Gamma(n)`` kept in
    SciPy's ``binom(n + alpha, n - 1) 1F1(1 - n; alpha + 2; x)``, whose binomial is
    ``1/Gamma(n) / (alpha + 1 + n)`` to a relative n.

    Where the value ``y`` is NaN the lower degree is not evaluated (NaN): SciPy's series at a
    floating degree sums about n terms for x < 0, seconds at n = 1e8, for a value that is then
    NaN (it overflows).
    """
    tiny, lost_value = _tiny(n), np.isnan(ignore_derivatives(y))
    below = np.where(tiny | lost_value, 0, _below(n))  # an integer degree stays one
    lower = np.where(lost_value, np.nan, sc.eval_genlaguerre(below, np.add(alpha, 1), x))
    n_t, x_t = np.where(tiny, n, 1.0), np.where(tiny, x, 0.0)
    lost = sc.rgamma(n_t) / (np.add(alpha, 1) + n_t)
    at_tiny = lost * sc.hyp1f1(1 - n_t, np.add(alpha, 2), x_t)
    return -_positive(n) * np.where(tiny, at_tiny, lower)


def _genlaguerre(n: Any, alpha: Any, x: Any, order: int) -> Jet:
    """``L_n^(alpha)(x) = binom(n + alpha, n) 1F1(-n; alpha + 1; x)`` on a jet in alpha (SciPy's
    definition at a non-integer degree)."""
    (a,) = parameter_jets(alpha, order=order)
    a, n, x = broadcast_jets(a, np.asarray(n, dtype=float), as_array(x))
    # gamma(a + n + 1) / gamma(a + 1): from the log-gammas where either reciprocal is below
    # 1e-100 (their squares, in the jet's derivatives, underflow from about a = 170: it was
    # NaN there), from the reciprocals elsewhere (poles included)
    low, high = a.value + 1, a.value + n + 1
    with np.errstate(all="ignore"):
        large = (low > 0) & (high > 0) & (np.minimum(sc.rgamma(low), sc.rgamma(high)) < 1e-100)
    one = Jet.constant(np.ones(a.value.shape), 1, order)
    big, small = jet_where(large, a, one), jet_where(large, one, a)
    ratio = jet_where(
        large,
        jet_exp(jet_gammaln(big + (n + 1)) - jet_gammaln(big + 1)),
        jet_rgamma(small + 1) / jet_rgamma(small + (n + 1)),
    )
    return ratio * sc.rgamma(n + 1) * hyp1f1_jet(Jet.constant(-n, 1, order), a + 1, x)


def genlaguerre_da(n: Any, alpha: Any, x: Any) -> Any:
    """The derivative of ``eval_genlaguerre(n, alpha, x)`` in ``alpha`` at any degree, from the
    confluent series (``genlaguerre_dalpha`` sums lower degrees at integer ones).

    >>> round(float(genlaguerre_da(1.0, 0.5, 2.0)), 12)  # L_1 = 1 + alpha - x
    1.0
    """
    return gradient_of(_genlaguerre(n, alpha, x, 1))[0]


derivative_rules(
    genlaguerre_da,
    lambda n, alpha, x: hessian_of(_genlaguerre(n, alpha, x, 2))[0],
    lambda n, alpha, x, y: -call(genlaguerre_da, np.subtract(n, 1), np.add(alpha, 1), x),
    3,
    position=1,
)


def genlaguerre_dalpha(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    """``sum_{k < n} L_k^(alpha)(x) / (n - k)``, the derivative in ``alpha`` for integer ``n``
    (``genlaguerre_da`` at other degrees)."""
    degrees = np.asarray(n)
    if np.any(degrees != np.floor(degrees)):
        return call(genlaguerre_da, n, alpha, x)
    total = 0 * y
    for k in range(int(np.max(degrees, initial=0))):
        weight = np.greater(degrees, k) / np.maximum(degrees - k, 1)
        total = total + weight * sc.eval_genlaguerre(k, alpha, x)
    return total


parametric_rule(sc.eval_laguerre, None, lambda n, x, y: genlaguerre_dx(n, 0.0, x, y))
parametric_rule(
    sc.eval_genlaguerre, None, genlaguerre_dalpha, genlaguerre_dx, costly=(1,), traceable=(1,)
)
parametric_rule(sc.eval_hermite, None, lambda n, x, y: 2 * n * sc.eval_hermite(_below(n), x))
parametric_rule(sc.eval_hermitenorm, None, lambda n, x, y: n * sc.eval_hermitenorm(_below(n), x))

# ---- generalized Laguerre polynomials, argument first ------------------------------------------


def _laguerre_dx(x: Any, n: Any, *rest: Any) -> Any:
    """``d/dx L_n^(k)(x) = -L_{n-1}^(k+1)(x)``; ``rest`` is ``(k, y)`` or ``(y,)``."""
    k = rest[0] if len(rest) == 2 else 0.0
    return genlaguerre_dx(n, k, x, rest[-1])


def _laguerre_dk(x: Any, n: Any, k: Any, y: Any) -> Any:
    return genlaguerre_dalpha(n, k, x, y)


parametric_rule(
    sc.assoc_laguerre,
    _laguerre_dx,
    None,
    _laguerre_dk,
    keywords=("k",),
    required=2,
    costly=(2,),
    traceable=(2,),
)
