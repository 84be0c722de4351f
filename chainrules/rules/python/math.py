"""Rules for Python's ``math`` module: Python floats in, Python floats out.

Each differentiable function is one ``scalar_rule`` row (the partials are computed through the
array namespace, so a pullback runs on an engine's tracked values too; for plain floats that
is NumPy, whose result projection turns back into a Python float). Integer arguments have no
tangent. ``log`` takes its optional base; ``hypot`` any number of coordinates, with derivative
0 at the origin; ``pow`` shares NumPy's ``power`` partials (exact at base 0, 0 in the exponent
where the base is 0). ``sqrt'(0)`` is ``inf``, honestly. ``fsum``, ``prod`` and ``dist``
take sequences and give structural cotangents (``prod``'s from the other factors, exact at a
zero factor). ``floor``, ``ceil`` and ``trunc`` return integers, so they are declared
non-differentiable with the predicates.

The rules run on Python numbers, and compute ``math``'s functions through ``call``
(``chainrules.core.calls``): on an engine's tracked values, which ``float()`` refuses, the
function's own rule applies, so pullbacks differentiate again.

>>> import math
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(math.exp, 0.0)
>>> y, pullback(2.0)
(1.0, (NoTangent(), 2.0))
>>> rrule(math.log, 8.0, 2.0)[0]
3.0
"""

import math

import scipy.special

from ...core.calls import call
from ...core.define import non_differentiable, scalar_rule
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero
from ..numpy.arithmetic import (
    over_hypot,
    over_squared_radius,
    power_base_partial,
    power_exponent_partial,
)
from ..numpy.elementwise import (
    arcsinh_derivative,
    arctan_derivative,
    one_minus_square,
    sinpi_cospi,
    tanh_derivative,
)

__all__: list[str] = []

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)
_TWO_OVER_SQRT_PI = 2 / math.sqrt(math.pi)


def _xp(*values):
    return array_namespace(*values)


# ---- exponentials, logarithms, powers and roots ---------------------------------------------

scalar_rule(math.exp, lambda x, y: y)
scalar_rule(math.exp2, lambda x, y: y * _LN2)
# exp(x), not y + 1: below x = -37, expm1(x) rounds to -1 and y + 1 to 0.
scalar_rule(math.expm1, lambda x, y: _xp(x).exp(x))
scalar_rule(math.log1p, lambda x, y: 1 / (x + 1))
# (1 / ln b) / x: x * ln 10 overflows for x near the largest float, whose log10' is normal.
scalar_rule(math.log2, lambda x, y: (1 / _LN2) / x)
scalar_rule(math.log10, lambda x, y: (1 / _LN10) / x)
# Through the namespace's divide: 1/0 is inf there, where Python's float division raises.
scalar_rule(math.sqrt, lambda x, y: _xp(y).divide(0.5, y))
scalar_rule(math.cbrt, lambda x, y: _xp(y).divide(1.0, 3 * y * y))
scalar_rule(math.pow, power_base_partial, power_exponent_partial)


@rrule.register(math.log)
def _log_rrule(x, base=None):
    """log(x) or log(x, base) = log(x) / log(base).

    The partials are 1 / x / log(base) and -log(x) / log(base)^2 / base: divided in this
    order, no intermediate overflows (x log(base) near the largest float) or underflows
    (base log(base)^2 there) before the partial does.
    """
    y = call(math.log, x) if base is None else call(math.log, x, base)
    project_x, project_base = ProjectTo(x), ProjectTo(base)
    xp = _xp(x, base)
    log_base = 1.0 if base is None else xp.log(base)

    def log_pullback(dy):
        dx = project_x(dy / x / log_base)
        if base is None:
            return NO_TANGENT, dx
        return NO_TANGENT, dx, project_base(-dy * (xp.log(x) / (log_base * log_base)) / base)

    return y, log_pullback


@frule.register(math.log)
def _log_frule(tangents, x, base=None):
    y = call(math.log, x) if base is None else call(math.log, x, base)
    dx, dbase = (unthunk(t) for t in (*tangents[1:], None)[:2])
    xp = _xp(x, base)
    log_base = 1.0 if base is None else xp.log(base)
    dy = ZERO_TANGENT
    if not is_zero(dx):
        dy = dy + dx / x / log_base
    if not (base is None or is_zero(dbase)):
        dy = dy - dbase * (xp.log(x) / (log_base * log_base)) / base
    return y, ProjectTo(y)(dy)


# ---- trigonometric and hyperbolic -----------------------------------------------------------

scalar_rule(math.sin, lambda x, y: _xp(x).cos(x))
scalar_rule(math.cos, lambda x, y: -_xp(x).sin(x))
scalar_rule(math.tan, lambda x, y: 1 + y * y)
# The partials of NumPy's functions, accurate near +-1, for huge x and at saturation.
scalar_rule(math.asin, lambda x, y: 1 / _xp(x).sqrt(one_minus_square(x)))
scalar_rule(math.acos, lambda x, y: -1 / _xp(x).sqrt(one_minus_square(x)))
scalar_rule(math.atan, lambda x, y: arctan_derivative(x))
scalar_rule(math.sinh, lambda x, y: _xp(x).cosh(x))
scalar_rule(math.cosh, lambda x, y: _xp(x).sinh(x))
scalar_rule(math.tanh, lambda x, y: tanh_derivative(x))
scalar_rule(math.asinh, lambda x, y: arcsinh_derivative(x))
scalar_rule(math.acosh, lambda x, y: 1 / (_xp(x).sqrt(x - 1) * _xp(x).sqrt(x + 1)))
scalar_rule(math.atanh, lambda x, y: 1 / one_minus_square(x))
scalar_rule(math.degrees, lambda x, y: 180 / math.pi)
scalar_rule(math.radians, lambda x, y: math.pi / 180)


# atan2(y, x): partials x/r^2 and -y/r^2, 0 at the origin and where an argument is infinite.
scalar_rule(
    math.atan2,
    lambda x1, x2, y: over_squared_radius(x2, x1, x2),
    lambda x1, x2, y: over_squared_radius(-x1, x1, x2),
)


def _hypot_partials(coordinates):
    """x_i / r for each coordinate, as over_hypot(x_i, hypot of the others); 0 at the origin."""
    return [
        over_hypot(x, call(math.hypot, *coordinates[:i], *coordinates[i + 1 :]))
        for i, x in enumerate(coordinates)
    ]


@rrule.register(math.hypot)
def _hypot_rrule(*coordinates):
    """hypot(*x) = r: partials x_i / r, 0 at the origin."""
    r = call(math.hypot, *coordinates)
    projectors = [ProjectTo(x) for x in coordinates]

    def hypot_pullback(dy):
        pairs = zip(projectors, _hypot_partials(coordinates), strict=True)
        return (NO_TANGENT, *(project(p * dy) for project, p in pairs))

    return r, hypot_pullback


@frule.register(math.hypot)
def _hypot_frule(tangents, *coordinates):
    r = call(math.hypot, *coordinates)
    dy = ZERO_TANGENT
    for p, dx in zip(_hypot_partials(coordinates), tangents[1:], strict=True):
        dx = unthunk(dx)
        if not is_zero(dx):
            dy = dy + p * dx
    return r, ProjectTo(r)(dy)


# ---- sums, products and distances of sequences ----------------------------------------------
# Their arguments are sequences: the cotangents are structural, one entry per element.


@rrule.register(math.fsum)
def _fsum_rrule(values):
    """fsum: every element's cotangent is dy."""
    elements = list(values)
    project = ProjectTo(values)

    def fsum_pullback(dy):
        return NO_TANGENT, project(_as_sequence_of(values, [dy] * len(elements)))

    return call(math.fsum, elements), fsum_pullback


@frule.register(math.fsum)
def _fsum_frule(tangents, values):
    return call(math.fsum, values), _sum_of_tangents(tangents[1], len(values))


def _sum_of_tangents(tangent, n):
    tangent = unthunk(tangent)
    if is_zero(tangent):
        return ZERO_TANGENT
    total = ZERO_TANGENT
    for i in range(n):
        d = unthunk(tangent[i])
        if not is_zero(d):
            total = total + d
    return total if is_zero(total) else ProjectTo(0.0)(total)


def _products_of_the_others(values):
    """prod(values) without values[i], for each i, from prefix and suffix products (no
    division, so exact when an element is 0)."""
    prefix, suffix = [1.0], [1.0]
    for v in values[:-1]:
        prefix.append(prefix[-1] * v)
    for v in values[:0:-1]:
        suffix.append(suffix[-1] * v)
    return [p * q for p, q in zip(prefix, reversed(suffix), strict=True)]


@rrule.register(math.prod)
def _prod_rrule(values, *, start=1):
    """prod(values, start=s): the cotangent of values[i] is dy times s and the other values."""
    elements = list(values)
    project = ProjectTo(values)
    y = call(math.prod, elements, start=start)

    def prod_pullback(dy):
        others = _products_of_the_others(elements) if elements else []
        return NO_TANGENT, project(_as_sequence_of(values, [start * p * dy for p in others]))

    return y, prod_pullback


@frule.register(math.prod)
def _prod_frule(tangents, values, *, start=1):
    values = list(values)
    y = call(math.prod, values, start=start)
    dvalues = tangents[1]
    if is_zero(dvalues) or not values:
        return y, ProjectTo(y)(ZERO_TANGENT)
    others = _products_of_the_others(values)
    scaled = [start * p for p in others]
    dy = ZERO_TANGENT
    for i, p in enumerate(scaled):
        d = unthunk(dvalues[i])
        if not is_zero(d):
            dy = dy + p * d
    return y, ProjectTo(y)(dy)


def _as_sequence_of(sequence, elements):
    """The cotangents of ``sequence``'s elements in its kind: stacked for an array (whose
    projection takes an array), the list itself otherwise."""
    if hasattr(sequence, "shape"):
        return array_namespace(*elements).stack(elements) if elements else ZERO_TANGENT
    return elements


@rrule.register(math.dist)
def _dist_rrule(p, q):
    """dist(p, q) = |p - q|: cotangents (p - q) dy / d and its negative; 0 where d = 0."""
    d = call(math.dist, p, q)
    project_p, project_q = ProjectTo(p), ProjectTo(q)
    safe_d = 1.0 if d == 0 else d
    unit = [(a - b) / safe_d for a, b in zip(p, q, strict=True)]

    def dist_pullback(dy):
        dp = _as_sequence_of(p, [u * dy for u in unit])
        dq = _as_sequence_of(q, [-u * dy for u in unit])
        return NO_TANGENT, project_p(dp), project_q(dq)

    return d, dist_pullback


@frule.register(math.dist)
def _dist_frule(tangents, p, q):
    d = call(math.dist, p, q)
    safe_d = 1.0 if d == 0 else d
    dy = ZERO_TANGENT
    for sign, tangent in ((1.0, tangents[1]), (-1.0, tangents[2])):
        tangent = unthunk(tangent)
        if is_zero(tangent):
            continue
        for i, (a, b) in enumerate(zip(p, q, strict=True)):
            t = unthunk(tangent[i])
            if not is_zero(t):
                dy = dy + sign * (a - b) / safe_d * t
    return d, ProjectTo(d)(dy)


# ---- special functions ----------------------------------------------------------------------

scalar_rule(math.erf, lambda x, y: _TWO_OVER_SQRT_PI * _xp(x).exp(-x * x))
scalar_rule(math.erfc, lambda x, y: -_TWO_OVER_SQRT_PI * _xp(x).exp(-x * x))


def _digamma(x):
    """digamma(x), by reflection for x < 0: digamma(1 - x) - pi cos(pi x) / sin(pi x).

    SciPy's digamma loses digits next to the poles at the negative integers (relative error
    6e-9 at -1 + 1e-8), as pi x is rounded; sinpi_cospi reduces x exactly. scipy.special
    serves Python floats, which are all that reach math.gamma and math.lgamma.
    """
    xp = _xp(x)
    negative = x < 0
    xn = xp.where(negative, x, -0.5)
    sin, cos = sinpi_cospi(xn)
    reflected = scipy.special.digamma(1 - xn) - math.pi * cos / sin
    return xp.where(negative, reflected, scipy.special.digamma(xp.where(negative, 1.0, x)))


scalar_rule(math.gamma, lambda x, y: y * _digamma(x))
scalar_rule(math.lgamma, lambda x, y: _digamma(x))

# ---- sign, remainders and the float representation ------------------------------------------

scalar_rule(math.fabs, lambda x, y: _xp(x).sign(x))
scalar_rule(
    math.copysign,
    lambda x1, x2, y: _xp(x1, x2).where(_xp(x1).signbit(x1) == _xp(x2).signbit(x2), 1.0, -1.0),
    lambda x1, x2, y: ZERO_TANGENT,
)
scalar_rule(math.fmod, lambda x1, x2, y: 1.0, lambda x1, x2, y: -_xp(x1, x2).trunc(x1 / x2))
scalar_rule(math.remainder, lambda x1, x2, y: 1.0, lambda x1, x2, y: -_xp(x1, x2).rint(x1 / x2))
# nextafter moves x by one unit in the last place: the identity in x; ulp is piecewise constant.
scalar_rule(math.nextafter, lambda x1, x2, y: 1.0, lambda x1, x2, y: ZERO_TANGENT)
scalar_rule(math.ulp, lambda x, y: ZERO_TANGENT)
# ldexp(x, n) = x * 2**n with an integer n, which has no tangent.
scalar_rule(math.ldexp, lambda x, n, y: 2.0**n, None)
# modf(x) = (fractional part, integral part); frexp(x) = (m, e) with m = x * 2**-e.
scalar_rule(math.modf, (lambda x, y: 1.0,), (lambda x, y: ZERO_TANGENT,))
scalar_rule(math.frexp, (lambda x, y: 2.0 ** -y[1],), (None,))

# ---- integer and boolean results ------------------------------------------------------------

non_differentiable(
    math.floor,
    math.ceil,
    math.trunc,
    math.isnan,
    math.isinf,
    math.isfinite,
    math.isclose,
    math.factorial,
    math.comb,
    math.perm,
    math.gcd,
    math.lcm,
    math.isqrt,
)
