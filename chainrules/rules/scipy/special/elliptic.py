"""Rules for incomplete elliptic integrals, Jacobi's elliptic functions, Carlson's forms, agm.

Carlson's symmetric integrals differentiate into one another (DLMF 19.18):
``dR_F/dz = -R_D(x, y, z) / 6`` (and symmetrically), ``R_C(x, y) = R_F(x, y, y)``, and for
``R_D`` and ``R_J`` the derivative in a non-distinguished argument is a difference quotient,
``dR_J/dx = (R_J(x, y, z, p) - R_D(y, z, x)) / (2 (p - x))``, the last one following from
homogeneity (``R_J`` has degree -3/2). ``R_G``'s partials are ``(3 R_F - z R_D(x, y, z)) / 12``.
Legendre's forms are written through them: ``F(phi|m) = s R_F(c**2, 1 - m s**2, 1)`` with
``s, c = sin phi, cos phi``, so ``dF/dm = s**3 R_D(c**2, 1, 1 - m s**2) / 6`` and
``dE/dm = -s**3 R_D(c**2, 1 - m s**2, 1) / 6`` with no division by ``m``; beyond
``|phi| <= pi/2`` the quasi-periods ``2 K(m)`` and ``2 E(m)`` add their derivatives.
``ellipj``'s derivatives in ``m`` follow from ``F(am(u|m)|m) = u``;
``agm(a, b) = pi / (2 R_F(0, a**2, b**2))``. At ``y < 0``, where ``R_C`` is Cauchy's principal
value, its partials come from ``R_C`` itself (``_rc_partial``); huge, tiny and far-apart
arguments of ``R_D`` and ``agm`` are scaled by powers of 4 or taken asymptotically.
Partials are written through rules of the table, so pullbacks differentiate again.
``scipy.special`` computes on NumPy arrays only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.ellipkinc, 0.5, 0.0)  # F(phi|0) = phi
>>> [round(float(g), 12) for g in pullback(1.0)[1:]]
[1.0, 0.019816126899]
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.define import ignore_derivatives, scalar_rule
from ....core.lazy import is_lazy
from ....core.parametric import parametric_rule


def _rd_dx(x: Any, y: Any, z: Any) -> Any:
    """dR_D(x, y, z)/dx, with its limits at the removable points x = z and x = y = z.

    At x = z, dR_D/dx is a third of dR_D/dz (both are R_{-5/2}(1/2, 3; y, z) by DLMF 19.18.1
    and 19.16.9), which Euler's relation then gives from dR_D/dy alone. The quotient is
    -3/4 of the integral of ((t + x)(t + z))**(-3/2) (t + y)**(-1/2): symmetric in x and z, so
    even in (x - z)/2 about the midpoint, where its limit is therefore evaluated: the
    derivatives of the limit in x and in z are then those of the quotient (half the
    derivative along the diagonal each), and second derivatives of R_D are right at x = z.
    """
    equal = x == z
    x_safe = np.where(equal, x + 1.0, x)
    general = (sc.elliprd(y, z, x_safe) - sc.elliprd(x_safe, y, z)) / (2 * (x_safe - z))
    middle = np.where(equal, (x + z) / 2, z)
    limit = _rd_dx_at_z(np.where(equal, y, z + 1.0), middle)
    same = equal & (y == z)
    x_s, y_s, z_s = (np.where(same, v, 1.0) for v in (x, y, z))
    return np.where(equal, np.where(same, _rd_dx_all_equal(x_s, y_s, z_s), limit), general)


def _rd_dx_all_equal(x: Any, y: Any, z: Any) -> Any:
    """dR_D/dx to first order about x = y = z, from DLMF 19.36.2's R_D = A**(-3/2) (1 - 3/14 E2).

    Its value at the point is -0.3 A**(-5/2); its first-order terms carry the right partials
    there, where the limits along a diagonal would not.
    """
    a = (x + y + 3 * z) / 5
    dx, dy, dz = 1 - x / a, 1 - y / a, 1 - z / a
    return a**-2.5 * (-0.3 - 3 / 70 * (dx - 4 * dy - 12 * dz))


def _rd_dx_at_z(y: Any, z: Any) -> Any:
    same, zero = y == z, y == 0
    # y dR_D/dy tends to 0 at y = 0; at y = z all three arguments are equal
    y_safe = np.where(same | zero, z + 1.0, y)
    rd_safe = sc.elliprd(z, y_safe, z)
    y_dy = np.where(zero, 0.0, y_safe * (sc.elliprd(z, z, y_safe) - rd_safe) / (2 * (y_safe - z)))
    return np.where(same, -0.3 * np.power(z, -2.5), (-1.5 * sc.elliprd(z, y, z) - y_dy) / (4 * z))


def _times_rd_dx(x: Any, y: Any, z: Any) -> Any:
    """x dR_D(x, y, z)/dx, which tends to 0 at x = 0, where dR_D/dx itself is infinite."""
    zero = x == 0
    x_safe = np.where(zero, 1.0, x)
    return np.where(zero, 0.0, x_safe * _rd_dx(x_safe, y, z))


def _rd_dz(x: Any, y: Any, z: Any, rd: Any) -> Any:
    # Euler's relation for the degree -3/2
    return (-1.5 * rd - _times_rd_dx(x, y, z) - _times_rd_dx(y, x, z)) / z


def _rj_dp(x: Any, y: Any, z: Any, p: Any, rj: Any) -> Any:
    """dR_J/dp by Euler's relation; where x = p, dR_J/dx is half of it (DLMF 19.18.1)."""
    spatial: Any = 0.0
    halves: Any = 0.0
    for a, b, c in ((x, y, z), (y, z, x), (z, x, y)):
        equal = a == p
        a_safe = np.where(equal, p + 1.0, a)
        zero = a == 0
        a_safe = np.where(zero, 1.0, a_safe)
        term = a_safe * (rj - sc.elliprd(b, c, a_safe)) / (2 * (p - a_safe))
        spatial = spatial + np.where(equal | zero, 0.0, term)
        halves = halves + np.where(equal, 0.5, 0.0)
    return (-1.5 * rj - spatial) / (p * (1 + halves))


def _rj_dx(x: Any, y: Any, z: Any, p: Any, rj: Any) -> Any:
    equal = x == p
    x_safe = np.where(equal, p + 1.0, x)
    general = (rj - sc.elliprd(y, z, x_safe)) / (2 * (p - x_safe))
    return np.where(equal, _rj_dp(x, y, z, p, rj) / 2, general)


def _rg_dz(x: Any, y: Any, z: Any) -> Any:
    return (3 * sc.elliprf(x, y, z) - z * sc.elliprd(x, y, z)) / 12


_FAR = np.float64(2.0**400)  # float64, so that float32 arguments are compared without overflow


def _power_of_four_near(size: Any) -> Any:
    """A power of 4 about ``1 / size`` where ``size`` is beyond 2**+-400, 1 elsewhere.

    Piecewise constant, so computed on the plain values. Multiplying by a power of 2 is exact,
    and by 1 leaves every ordinary number as it was.
    """
    plain = np.abs(ignore_derivatives(size))
    far = np.greater(plain, _FAR) | np.less(plain, 1 / _FAR)
    return np.where(
        far & (plain > 0), np.ldexp(np.ones_like(plain), -2 * (np.frexp(plain)[1] // 2)), 1.0
    )


def _rd_scaled(x: Any, y: Any, z: Any) -> Any:
    """R_D(x, y, z) through its homogeneity of degree -3/2, ``R_D = s**(3/2) R_D(s x, s y, s z)``
    (``s`` a power of 4): SciPy's R_D is NaN where its value overflows (arguments below about
    1e-205), where this gives the right infinity."""
    s = _power_of_four_near(np.maximum(np.maximum(x, y), z))
    return sc.elliprd(s * x, s * y, s * z) * s * np.sqrt(s)


def _rc_partial(x: Any, y: Any, rc: Any, in_y: bool) -> Any:
    """dR_C(x, y)/dx (``in_y`` false) or /dy.

    For y >= 0 they are ``-R_D(y, y, x) / 6`` and ``-R_D(x, y, y) / 3`` (R_C = R_F(x, y, y)).
    For y < 0, where R_C is Cauchy's principal value and R_D is not defined,
    ``(R_C - 1/sqrt(x)) / (2 (y - x))`` and ``(sqrt(x)/y - R_C) / (2 (y - x))``, which follow
    from R_C's closed forms and satisfy Euler's relation for degree -1/2; ``y - x < 0`` there,
    so the divisor does not cancel, and at x = 0 the x-derivative is +inf, its limit. At
    y = -inf both are 0.
    """
    negative = y < 0
    x_n, y_n = np.where(negative, x, 1.0), np.where(negative, y, -1.0)
    rc_n = np.where(negative, rc, 0.0)
    root = np.sqrt(x_n)
    if in_y:
        principal = (root / y_n - rc_n) / (2 * (y_n - x_n))
    else:
        principal = (rc_n - 1 / root) / (2 * (y_n - x_n))
    y_p = np.where(negative, 1.0, y)
    carlson = -_rd_scaled(x, y_p, y_p) / 3 if in_y else -_rd_scaled(y_p, y_p, x) / 6
    # y = -inf: R_C is 0 for every x, and so are its derivatives (not inf / inf)
    return np.where(np.equal(y, -np.inf), 0.0, np.where(negative, principal, carlson))


def _agm_da(a: Any, b: Any, y: Any) -> Any:
    """d agm(a, b)/da = 2 |a| y**2 R_D(0, b**2, a**2) / (3 pi), even under (a, b) -> (-a, -b).

    The partial has degree 0, so a, b and y are first scaled by a power of 4 where they are
    huge or tiny (their squares would overflow or underflow). Where one argument is below
    2**-400 times the other, the squares would still underflow, and the asymptotic form
    ``agm = pi a / (2 L)``, ``L = log(4 |a| / |b|)``, exact to a relative ``(b/a)**2``, gives
    ``(y/a) (1 - 1/L)`` in the larger argument and ``y / (a L)`` in the smaller. At a = 0 the
    partial is +inf (one-sided: agm is real only where a and b share a sign), and 0 where b = 0
    too (agm vanishes on both axes there).
    """
    a_small = np.less(np.abs(a), np.abs(b) / _FAR)
    b_small = np.less(np.abs(b), np.abs(a) / _FAR)
    zero = np.equal(a, 0) | np.equal(b, 0)
    apart = (a_small | b_small) & np.logical_not(zero)
    ordinary = np.logical_not(apart | zero)
    a_o, b_o, y_o = (np.where(ordinary, v, 1.0) for v in (a, b, y))
    s = _power_of_four_near(np.maximum(np.abs(a_o), np.abs(b_o)))
    a_s, b_s, y_s = a_o * s, b_o * s, y_o * s
    general = 2 * np.abs(a_s) * y_s * y_s * sc.elliprd(0.0, b_s * b_s, a_s * a_s) / (3 * np.pi)
    a_t, b_t, y_t = np.where(apart, a, 1.0), np.where(apart, b, 0.5), np.where(apart, y, 1.0)
    larger, smaller = np.where(a_small, b_t, a_t), np.where(a_small, a_t, b_t)
    log_ratio = np.log(4 * np.abs(larger)) - np.log(np.abs(smaller))
    asymptotic = np.where(a_small, y_t / (a_t * log_ratio), y_t / a_t * (1 - 1 / log_ratio))
    at_zero = np.where(np.equal(a, 0) & np.not_equal(b, 0), np.inf, 0.0)
    return np.where(ordinary, general, np.where(apart, asymptotic, at_zero))


def _reduce(phi: Any) -> tuple[Any, Any]:
    """``phi = j pi + rest`` with ``|rest| <= pi/2``: the number of half periods ``j`` and ``rest``.

    ``j`` is piecewise constant, so it is computed on the plain values; a dask array's stay
    lazy (``np.asarray`` would compute them).
    """
    plain = ignore_derivatives(phi)
    j = np.round(np.real(plain if is_lazy(plain) else np.asarray(plain)) / np.pi)
    return j, phi - j * np.pi


def _periods(j: Any, m: Any) -> tuple[Any, Any]:
    """``j`` and ``1 - m`` where half periods are added, 1/2 elsewhere: within ``|phi| <= pi/2``
    the integrals are defined up to ``m = 1/sin(phi)**2``, where ``K(m)`` is infinite or NaN."""
    periodic = j != 0
    return np.where(periodic, j, 0.0), np.where(periodic, 1 - m, 0.5)


def _ellipkinc_dm(phi: Any, m: Any) -> Any:
    j, rest = _reduce(phi)
    s, c = np.sin(rest), np.cos(rest)
    incomplete = s**3 * sc.elliprd(c * c, 1.0, 1 - m * s * s) / 6
    j, complement = _periods(j, m)
    return incomplete + 2 * j * sc.elliprd(0.0, 1.0, complement) / 6


def _ellipeinc_dm(phi: Any, m: Any) -> Any:
    j, rest = _reduce(phi)
    s, c = np.sin(rest), np.cos(rest)
    incomplete = -(s**3) * sc.elliprd(c * c, 1 - m * s * s, 1.0) / 6
    j, complement = _periods(j, m)
    return incomplete - 2 * j * sc.elliprd(0.0, complement, 1.0) / 6


def _ellipj_dm(u: Any, m: Any, y: tuple) -> tuple[Any, Any, Any, Any]:
    """d(sn, cn, dn, ph)/dm at fixed u, from F(ph|m) = u: dph/dm = -dn dF/dm."""
    sn, cn, dn, ph = y
    dph = -dn * _ellipkinc_dm(ph, m)
    return cn * dph, -sn * dph, -(sn * sn + 2 * m * sn * cn * dph) / (2 * dn), dph


# ---- Legendre's incomplete integrals and the complete K(1 - p) ------------------------------


def _ellipkinc_dphi(phi: Any, m: Any) -> Any:
    """1 / sqrt(1 - m sin(phi)**2), and 0 at m = -inf, where F(phi | m) is 0 for every phi
    (not inf * 0 where sin(phi)**2 underflows or phi = 0)."""
    with np.errstate(invalid="ignore"):
        derivative = 1 / np.sqrt(1 - m * np.sin(phi) ** 2)
    return np.where(np.equal(m, -np.inf), 0.0, derivative)


parametric_rule(
    sc.ellipkinc,
    lambda phi, m, y: _ellipkinc_dphi(phi, m),
    lambda phi, m, y: _ellipkinc_dm(phi, m),
)
parametric_rule(
    sc.ellipeinc,
    lambda phi, m, y: np.sqrt(1 - m * np.sin(phi) ** 2),
    lambda phi, m, y: _ellipeinc_dm(phi, m),
)
scalar_rule(sc.ellipkm1, lambda p, y: -sc.elliprd(0.0, 1.0, p) / 6)

# ---- Jacobi's elliptic functions: sn cn dn ph -----------------------------------------------

scalar_rule(
    sc.ellipj,
    (lambda u, m, y: y[1] * y[2], lambda u, m, y: _ellipj_dm(u, m, y)[0]),
    (lambda u, m, y: -y[0] * y[2], lambda u, m, y: _ellipj_dm(u, m, y)[1]),
    (lambda u, m, y: -m * y[0] * y[1], lambda u, m, y: _ellipj_dm(u, m, y)[2]),
    (lambda u, m, y: y[2], lambda u, m, y: _ellipj_dm(u, m, y)[3]),
)

# ---- Carlson's symmetric forms (DLMF 19.18) -------------------------------------------------

scalar_rule(
    sc.elliprf,
    lambda x, y, z, r: -sc.elliprd(y, z, x) / 6,
    lambda x, y, z, r: -sc.elliprd(z, x, y) / 6,
    lambda x, y, z, r: -sc.elliprd(x, y, z) / 6,
)
scalar_rule(
    sc.elliprc,
    lambda x, y, r: _rc_partial(x, y, r, in_y=False),
    lambda x, y, r: _rc_partial(x, y, r, in_y=True),
)
scalar_rule(
    sc.elliprd,
    lambda x, y, z, r: _rd_dx(x, y, z),
    lambda x, y, z, r: _rd_dx(y, x, z),
    lambda x, y, z, r: _rd_dz(x, y, z, r),
)
scalar_rule(
    sc.elliprj,
    lambda x, y, z, p, r: _rj_dx(x, y, z, p, r),
    lambda x, y, z, p, r: _rj_dx(y, z, x, p, r),
    lambda x, y, z, p, r: _rj_dx(z, x, y, p, r),
    lambda x, y, z, p, r: _rj_dp(x, y, z, p, r),
)
scalar_rule(
    sc.elliprg,
    lambda x, y, z, r: _rg_dz(y, z, x),
    lambda x, y, z, r: _rg_dz(z, x, y),
    lambda x, y, z, r: _rg_dz(x, y, z),
)

# ---- arithmetic-geometric mean ------------------------------------------------------------

parametric_rule(sc.agm, lambda a, b, y: _agm_da(a, b, y), lambda a, b, y: _agm_da(b, a, y))
