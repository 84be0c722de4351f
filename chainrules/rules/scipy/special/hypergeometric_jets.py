"""The hypergeometric functions with their derivatives in the parameters, as jets.

``hyp2f1_jet(a, b, c, z)``, ``hyp1f1_jet(a, b, x)`` and ``hyp0f1_jet(v, z)`` take their
parameters as ``Jet``\\s (``jets``) and return the function's value with its gradient and
Hessian in whatever those jets are derivatives in: the power series summed term by term on jets
is the series differentiated term by term.

* ``1F1`` and ``0F1`` are entire: their series converge everywhere. ``1F1`` is summed after
  Kummer's transformation ``M(a, b, x) = exp(x) M(b - a, b, -x)`` (DLMF 13.2.39) where
  ``Re x < 0``, so that on the real line its terms never alternate once ``n > -a``.
* ``2F1`` is summed where ``|z| <= 1/2`` (terms at most halving), after Pfaff's transformation
  ``F(a, b; c; z) = (1 - z)^(-a) F(a, c - b; c; z/(z - 1))`` (DLMF 15.8.1) where
  ``|1 - z| > 1`` (the negative real axis, down to -inf). Beyond, up to ``z = 1``, it is
  continued from ``z = 1/2`` by its differential equation (DLMF 15.10.1) written on jets and
  integrated in ``t = -log(1 - z)``, where the two solutions near ``z = 1`` are ``1`` and
  ``(1 - z)^(c - a - b) = exp((a + b - c) t)``: smooth exponentials, with no special case when
  ``c - a - b`` is an integer. The faster exponential is divided out, and SciPy's eighth-order
  Runge-Kutta method (DOP853) integrates at the relative tolerance 1e-11; measured against
  mpmath, values and derivatives reach about 1e-11. At ``z = 1`` itself, Gauss's sum
  ``gamma(c) gamma(c - a - b) / (gamma(c - a) gamma(c - b))`` where ``c > a + b``.
* Three cases the differential equation cannot take in milliseconds: large ``c`` (its solution
  ``(1 - z)^(c - a - b)`` makes it stiff), summed as 2F1's own series in ``z``, its expansion
  in large ``c`` (DLMF 15.12.2), where its first terms provably fall fast; ``w`` within 1e-6 of 1
  (``|z| > 1e6`` on Pfaff's side), Gauss's sum times a few terms in ``1 - w`` where what they
  leave out is negligible (DLMF 15.8.4); and parameters so far apart that the equation would
  need more steps than it may take, NaN at once.

>>> from chainrules.rules.scipy.special.jets import Jet
>>> a = Jet.seed(1.0, 0, 1)
>>> y = hyp2f1_jet(a, Jet.constant(1.0, 1), Jet.constant(2.0, 1), 0.5)  # -log(1 - z)/z, d/da
>>> round(float(y.value), 12), round(float(y.gradient[0]), 12)
(1.38629436112, 0.480453013918)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from .jets import (
    Cancellation,
    Jet,
    as_array,
    as_jet,
    broadcast_jets,
    jet_gammaln,
    jet_power,
    jet_rgamma,
    jet_where,
    sum_series,
    sum_terms,
)

__all__ = ["hyp0f1_jet", "hyp1f1_jet", "hyp2f1_jet"]

# The ODE's tolerance (relative, and absolute on the scale of the starting values).
_RTOL = 1e-11
_ATOL = 1e-16
# 2F1's series is summed up to |z| = 1/2; the ODE starts there.
_SERIES_RADIUS = 0.5
# Right-hand sides the ODE may take (a few seconds) before its result is NaN: parameters so
# far apart (|c - a - b| in the hundreds) that steps become tiny.
_MAX_EVALUATIONS = 50000
# The first terms of the series in z that must each be at most a quarter of the one before for
# it to be summed as an expansion in large c: 4^-32 is below 1e-19.
_LARGE_C_TERMS = 32
# Near w = 1, 2F1(w) is Gauss's sum times a few terms of a series in 1 - w where 1 - w is below
# _NEAR_ONE (|z| above 1e6 on Pfaff's side), the series has at most _NEAR_ONE_TERMS terms before
# its poles, and what it leaves out (``_near_one_terms``) is below _NEGLIGIBLE of the sum.
_NEAR_ONE = 1e-6
_NEAR_ONE_TERMS = 16
_NEGLIGIBLE = 1e-20


class _Unresolved(Exception):
    """The ODE needs more steps than it may take."""


# ---- 2F1 ----------------------------------------------------------------------------------


def _hyp2f1_series(a: Jet, b: Jet, c: Jet, z: Any) -> Jet:
    one = Jet.constant(np.ones(z.shape, dtype=z.dtype), a.k, a.order)
    return sum_series(one, lambda n: (a + n) * (b + n) / ((c + n) * (n + 1)) * z)


def _flatten(j: Jet) -> Any:
    parts = [j.value[None], j.gradient]
    if j.hessian is not None:
        parts.append(j.hessian.reshape((-1, *j.value.shape)))
    return np.concatenate(parts)


def _unflatten(y: Any, k: int, order: int) -> Jet:
    hessian = y[1 + k :].reshape((k, k, *y.shape[1:])) if order == 2 else None
    return Jet(y[0], y[1 : 1 + k], hessian)


def _hyp2f1_continued(a: Jet, b: Jet, c: Jet, t_end: Any) -> Jet:
    """2F1 at ``w = 1 - exp(-t_end)``, ``|w| > 1/2``, from its values at ``w0 = 1/2`` by its
    differential equation in ``t = -log(1 - z)``: ``z F_tt + (c - (a + b) z) F_t - a b (1 - z)
    F = 0``.

    ``G = F exp(-lam (t - t0))``, ``lam = max(0, a + b - c)``, leaves the solutions ``exp(-lam
    t)`` and ``exp((a + b - c - lam) t)``, neither growing. The path is the straight line from
    ``t0 = log 2`` to ``t_end`` (complex ``w``: inside the strip ``|Im t| < pi``, away from the
    cut ``z >= 1``). The end is given in ``t`` because on Pfaff's side ``w = z/(z - 1)`` rounds
    to 1 from ``|z| = 1e16`` on, while ``t_end = log(1 - z)`` stays exact.

    Where the equation is too stiff for the explicit method (``_too_stiff``), NaN at once.
    """
    k, order = a.k, a.order
    shape = t_end.shape
    t0 = -np.log1p(-_SERIES_RADIUS)
    stiff = _too_stiff(a, b, c, t_end - t0)
    # stiff points ride along at harmless parameters, on a short path, and are NaN at the end
    a, b, c = _safe_where_not(~stiff, a, b, c)
    span = np.where(stiff, 0.5, t_end - t0)
    half = np.full(shape, _SERIES_RADIUS, dtype=span.dtype)
    start = _hyp2f1_series(a, b, c, half)
    slope = _hyp2f1_series(a + 1, b + 1, c + 1, half) * (a * b / c) * (1 - _SERIES_RADIUS)
    lam = np.maximum(0.0, np.real(a.value + b.value - c.value))
    ab, apb = a * b, a + b
    begin = np.stack([_flatten(start), _flatten(slope - start * lam)])
    finite = np.all(np.isfinite(begin), axis=(0, 1)) & ~stiff
    begin = np.where(finite, begin, 0.0)
    count = begin.shape[1]

    from scipy.integrate import solve_ivp  # loaded when first needed (bessel_order._quad)

    evaluations = [0]

    def equation(tau: float, y: Any) -> Any:
        evaluations[0] += 1
        if evaluations[0] > _MAX_EVALUATIONS:
            raise _Unresolved
        y = y.reshape((2, count, *shape))
        g, dg = _unflatten(y[0], k, order), _unflatten(y[1], k, order)
        z = -np.expm1(-(t0 + tau * span))
        p = apb - c * (1 / z)
        q = ab * ((1 - z) / z)
        ddg = (p - 2 * lam) * dg + (p * lam + q - lam * lam) * g
        return (np.stack([_flatten(dg), _flatten(ddg)]) * span).ravel()

    scale = np.max(np.abs(begin), axis=(0, 1))
    atol = np.broadcast_to(_ATOL * np.where(scale > 0, scale, 1.0), begin.shape).ravel()
    try:
        solution = solve_ivp(
            equation, (0.0, 1.0), begin.ravel(), method="DOP853", rtol=_RTOL, atol=atol
        )
    except _Unresolved:
        return Jet.nan(shape, k, order)
    end = solution.y[:, -1].reshape(begin.shape)
    end = np.where(finite & (solution.status == 0), end, np.nan)
    return _unflatten(end[0], k, order) * np.exp(lam * span)


def _too_stiff(a: Jet, b: Jet, c: Jet, span: Any) -> Any:
    """Where the differential equation would take more than ``_MAX_EVALUATIONS`` right-hand
    sides, which would be spent (seconds) on a NaN.

    Its rates in ``t`` solve ``r^2 + (c/z - a - b) r - a b (1 - z)/z = 0``, at most ``|c|/|z| +
    |a + b| + sqrt|a b|`` in size, and ``|z| >= 1/2`` on the path. An explicit method's steps
    are at most its stability interval over the rate, about 6/|r| for DOP853, at 12
    right-hand sides a step: at least 2 |r| |span| of them. Where the fast rate is real, as for
    large ``c``, about 3 |r| |span| were measured; oscillating solutions and the tolerance take
    more, so this bound only marks what is certain to fail.
    """
    rate = 2 * np.abs(c.value) + np.abs(a.value + b.value) + np.sqrt(np.abs(a.value * b.value))
    return 2 * rate * np.abs(span) > _MAX_EVALUATIONS


def _safe_where_not(used: Any, a: Jet, b: Jet, c: Jet) -> tuple[Jet, Jet, Jet]:
    """``a``, ``b``, ``c`` where ``used``, and ``1/2, 1/2, 2`` elsewhere: parameters at which
    every form of 2F1 is finite and quick, for the points that another form is taken at."""
    k, order = a.k, a.order
    safe = [Jet.constant(q, k, order) for q in (0.5, 0.5, 2.0)]
    return jet_where(used, a, safe[0]), jet_where(used, b, safe[1]), jet_where(used, c, safe[2])


def _gauss_sum(a: Jet, b: Jet, c: Jet) -> Jet:
    """``F(a, b; c; 1) = gamma(c) gamma(c - a - b) / (gamma(c - a) gamma(c - b))`` (c > a + b).

    Its value is the quotient of reciprocal gammas, exact at their zeros. Away from the poles of
    the four gammas, its derivatives are those of ``exp`` of the sum of log-gammas (digammas,
    trigammas): the quotient's own Hessian divides by the cube of a reciprocal gamma, which
    overflows from about ``gamma(x) = 1e102`` (x near 70) on.
    """
    args = (c, c - a - b, c - a, c - b)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        quotient = jet_rgamma(args[2]) * jet_rgamma(args[3]) / (jet_rgamma(c) * jet_rgamma(args[1]))
    pole = np.zeros(quotient.value.shape, dtype=bool)
    for x in args:
        pole |= (x.value <= 0) & (x.value == np.floor(x.value))
    if np.all(pole):
        return quotient
    safe = [jet_where(pole, Jet.constant(1.0, x.k, x.order), x) for x in args]
    logs = jet_gammaln(safe[0]) + jet_gammaln(safe[1]) - jet_gammaln(safe[2]) - jet_gammaln(safe[3])
    value = quotient.value
    return jet_where(pole, quotient, logs.chain(value, value, value))


def _near_one_terms(a: Jet, b: Jet, c: Jet, gap: Any) -> Any:
    """How many terms of ``F(a, b; 1 - s; gap)``, ``s = c - a - b``, give ``F(a, b; c; w)``,
    ``1 - w = gap``, as ``A F(a, b; 1 - s; gap)``, ``A`` Gauss's sum, to double precision in its
    value, gradient and Hessian; 0 where no number of them does.

    With ``s > 0``, DLMF 15.8.4 writes ``F(a, b; c; w) = A F(a, b; 1 - s; gap) + B gap^s F(c -
    a, c - b; 1 + s; gap)``, ``B / A = gamma(-s) gamma(c - a) gamma(c - b) / (gamma(s) gamma(a)
    gamma(b))``. The first series is summed while the factors ``1 - s + k`` of ``(1 - s)_n``
    are at least 1/2 in size, up to ``n = s - 1/2`` (at most ``_NEAR_ONE_TERMS`` terms); left
    out are its next term and ``B gap^s``, each with at most two factors ``log(gap)`` in the
    derivatives. Where ``s`` is an integer the poles of the two cancel into logarithms (DLMF
    15.8.10): there ``sin(pi s) / pi`` and the small factor ``1 - s + k`` are taken as ``1 / (2
    (|log gap| + 1))`` at the least.
    """
    s = c.value - a.value - b.value
    size = np.abs(gap)
    if not np.any((s > 0) & (size <= _NEAR_ONE)):
        return np.zeros(s.shape)
    log_gap = np.log(np.where(size > 0, size, 1.0))
    logs = np.abs(log_gap) + 1
    positive = np.where(s > 0, s, 1.0)
    count = np.clip(np.ceil(positive - 0.5), 1, _NEAR_ONE_TERMS)  # factors 1 - s + k >= 1/2
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        next_term = np.ones(s.shape)
        for k in range(_NEAR_ONE_TERMS):
            pole = np.maximum(np.abs(1 - s + k), 1 / (2 * logs))
            ratio = size * np.abs((a.value + k) * (b.value + k)) / (pole * (k + 1))
            next_term = np.where(k < count, next_term * ratio, next_term)
        reflection = np.minimum(np.pi / np.abs(np.sin(np.pi * positive)), 2 * logs)
        log_second = (
            np.log(reflection / positive)
            - 2 * sc.gammaln(positive)
            + sc.gammaln(c.value - a.value)
            + sc.gammaln(c.value - b.value)
            - sc.gammaln(a.value)
            - sc.gammaln(b.value)
            + positive * log_gap
        )
        left_out = (next_term + np.exp(log_second)) * logs * logs
    usable = (s > 0) & (size <= _NEAR_ONE) & (left_out <= _NEGLIGIBLE)
    return np.where(usable, count, 0)


def _hyp2f1_near_one(a: Jet, b: Jet, c: Jet, gap: Any, count: Any) -> Jet:
    """``A sum_(n < count) (a)_n (b)_n / ((1 - s)_n n!) gap^n``, ``A`` Gauss's sum, ``s = c - a -
    b``: ``F(a, b; c; 1 - gap)`` where ``count`` is ``_near_one_terms``."""
    term = Jet.constant(np.ones(gap.shape, dtype=gap.dtype), a.k, a.order)
    total = term
    lower = a + b - c + 1  # 1 - s
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        for n in range(1, int(np.max(count, initial=1))):
            term = term * ((a + (n - 1)) * (b + (n - 1)) / ((lower + (n - 1)) * n) * gap)
            total = jet_where(n < count, total + term, total)
    return _gauss_sum(a, b, c) * total


def _large_lower(a: Jet, b: Jet, c: Jet, z: Any) -> Any:
    """Where 2F1's own series in ``z`` is summed as its expansion in large ``c`` (DLMF 15.12.2):
    ``c > 0``, ``|z| < 1`` or ``Re z <= 0``, and the first ``_LARGE_C_TERMS`` terms each at most
    a quarter of the one before, ``|z| (|a| + n)(|b| + n) / (c (n + 1)) <= 1/4``.

    Beyond ``|z| = 1`` the series diverges, but by Euler's integral (DLMF 15.6.1, with ``0 < b <
    c``) the sum of its first ``n`` terms misses the function by at most the next term where
    ``Re z <= 0``: summed until its terms no longer change the sum, it is exact to rounding.
    Where the differential equation would have to follow ``exp(-c t)`` (large ``c``, stiff),
    this is the form that returns at once.
    """
    n = np.arange(_LARGE_C_TERMS, dtype=float).reshape((-1,) + (1,) * np.ndim(z))
    worst = np.max((np.abs(a.value) + n) * (np.abs(b.value) + n) / (n + 1), axis=0)
    region = (np.abs(z) < 1) | (np.real(z) <= 0)
    return (c.value > 0) & region & (4 * np.abs(z) * worst <= c.value)


def hyp2f1_jet(a: Any, b: Any, c: Any, z: Any) -> Jet:
    """``2F1(a, b; c; z)`` with its derivatives in what the jets ``a``, ``b``, ``c`` hold.

    Real ``z`` up to 1 (NaN beyond, and at 1 unless ``c > a + b``), complex ``z`` off the cut
    ``[1, inf)``.
    """
    k, order = a.k, a.order
    a, b, c = (as_jet(p, k, order) for p in (a, b, c))
    a, b, c, z = broadcast_jets(a, b, c, z)
    z = as_array(z)
    at_one = z == 1
    # on the cut (real z > 1) and at z = 1, nothing is summed or integrated
    outside = at_one | (np.isreal(z) & (np.real(z) > 1)) | ~np.isfinite(z)
    z = np.where(outside, 0.0, z)
    # Pfaff's transformation keeps the smaller of a, b: F ~ (-z)^(-min(a, b)) at -inf.
    pfaff = np.abs(1 - z) > 1
    keep_a = a.value <= b.value
    a_in = jet_where(pfaff & ~keep_a, c - a, a)
    b_in = jet_where(pfaff & keep_a, c - b, b)
    kept = jet_where(keep_a, a, b)
    w = np.where(pfaff, z / np.where(pfaff, z - 1, -1.0), z)
    near = np.abs(w) <= _SERIES_RADIUS
    large = ~near & _large_lower(a, b, c, z)
    value = _hyp2f1_series(a_in, b_in, c, np.where(near, w, 0.0))
    beyond = ~near & ~large
    if np.any(beyond):
        value = jet_where(beyond, _hyp2f1_beyond(a_in, b_in, c, z, pfaff, beyond), value)
    factor = jet_power(np.where(pfaff, 1 - z, 1.0), -kept)
    value = jet_where(pfaff, factor * value, value)
    if np.any(large):
        # 2F1's own series in z, without Pfaff's transformation
        direct = _hyp2f1_series(*_safe_where_not(large, a, b, c), np.where(large, z, 0.0))
        value = jet_where(large, direct, value)
    if np.any(outside):
        convergent = at_one & ((c.value - a.value - b.value) > 0)
        # Gauss's sum where it converges, at parameters where it is finite elsewhere
        gauss = _gauss_sum(*_safe_where_not(convergent, a, b, c))
        nan = Jet.nan(z.shape, k, order)
        value = jet_where(outside, jet_where(convergent, gauss, nan), value)
    return value


def _hyp2f1_beyond(a: Jet, b: Jet, c: Jet, z: Any, pfaff: Any, used: Any) -> Jet:
    """``F(a, b; c; w)`` where ``used`` (``|w| > 1/2``), ``w`` being ``z`` or, on Pfaff's side,
    ``z / (z - 1)``: Gauss's sum and a few terms in ``1 - w`` where ``w`` is so near 1 that
    the rest is negligible (``_near_one_terms``), the differential equation elsewhere.

    ``1 - w`` is ``1 / (1 - z)`` on Pfaff's side, exactly, and ``t = -log(1 - w)`` is ``log(1 -
    z)``: ``w`` itself rounds to 1 from ``|z| = 1e16`` on.
    """
    gap = np.where(pfaff, 1 / (1 - z), 1 - z)
    t_end = np.where(pfaff, np.log(1 - z), -np.log1p(-z))
    count = np.where(used, _near_one_terms(a, b, c, gap), 0)
    limit = count > 0
    rest = used & ~limit
    value = None
    if np.any(limit):
        params = _safe_where_not(limit, a, b, c)
        value = _hyp2f1_near_one(*params, np.where(limit, gap, 0.0), count)
    if np.any(rest):
        params = _safe_where_not(rest, a, b, c)
        continued = _hyp2f1_continued(*params, np.where(rest, t_end, np.log(4.0)))
        value = continued if value is None else jet_where(rest, continued, value)
    assert value is not None  # some point is used
    return value


# ---- 1F1 and 0F1 ----------------------------------------------------------------------------


def hyp1f1_jet(a: Any, b: Any, x: Any) -> Jet:
    """``1F1(a; b; x)`` with its derivatives in what the jets ``a``, ``b`` hold, from its series
    (after Kummer's transformation at x < 0). NaN in each component whose terms cancel by more
    than 1e-9 of their rounding (``Cancellation``): a large upper parameter with x < 0
    (hyp1f1(300, 0.3, -3)'s derivative in a came out 2.8e6 for 0.041)."""
    k, order = a.k, a.order
    a, b = (as_jet(p, k, order) for p in (a, b))
    a, b, x = broadcast_jets(a, b, x)
    x = as_array(x)
    kummer = np.real(x) < 0
    a_in = jet_where(kummer, b - a, a)
    x_in = np.where(kummer, -x, x)
    one = Jet.constant(np.ones(x.shape, dtype=x.dtype), k, order)
    sizes = Cancellation(one)
    state = [one]

    def term(n: int) -> Jet:
        if n:
            state[0] = state[0] * ((a_in + (n - 1)) / ((b + (n - 1)) * n) * x_in)
        sizes.see(state[0])
        return state[0]

    series = sizes.guard(sum_terms(term))
    return jet_where(kummer, series * np.exp(np.where(kummer, x, 0.0)), series)


def hyp0f1_jet(v: Jet, z: Any) -> Jet:
    """``0F1(; v; z)`` with its derivatives in what the jet ``v`` holds, by its series."""
    v, z = broadcast_jets(v, z)
    z = as_array(z)
    one = Jet.constant(np.ones(z.shape, dtype=z.dtype), v.k, v.order)
    return sum_series(one, lambda n: (v + n).reciprocal() * (z / (n + 1)))
