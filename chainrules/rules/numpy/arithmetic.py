"""Rules for NumPy's binary elementwise functions (those that select one of their arguments,
``maximum`` and its kin, ``clip`` and ``where``, are in ``selection``).

The ndarray operators reach these functions (``a + b`` is ``np.add``, ``a ** b`` is
``np.power``, ``a // b`` is ``np.floor_divide``...), so their rules serve the operators too.
Most are one ``scalar_rule`` row with a partial per argument; broadcasting, un-broadcasting,
dtypes and complex conjugation come from ``scalar_rule``.

Hard points, each a documented choice:

* ``power(x, p)``: ``d/dx = p x**(p-1)`` is exact at ``x = 0`` and for a negative base with
  an integral exponent, and is ``0`` for ``p = 0``; ``d/dp = y log(x)`` is ``0`` where
  ``x = 0`` (no ``0 * log 0``), and uses ``log|x|`` for a negative real base, the derivative
  of ``Re(x**p)`` (as ChainRules does); integer exponents have no tangent.
* ``arctan2`` and ``hypot`` have derivative ``0`` at the origin. Where an argument is infinite
  ``arctan2``'s partials are ``0`` (their limit along every way there), and ``hypot``'s are the
  limits along the ray to the point: ``sign(x)`` in the infinite argument, ``0`` in the finite
  one, and ``sign(x) / sqrt(2)`` each where both are infinite (the diagonal, as at a finite
  tie ``|x1| = |x2|``; the limit there depends on the way, so this is a choice).
* ``logaddexp(inf, inf)`` is a tie like any other: partials ``1/2`` each.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.hypot, np.array([3.0, 0.0]), np.array([4.0, 0.0]))
>>> pullback(np.ones(2))[1:]
(array([0.6, 0. ]), array([0.8, 0. ]))
"""

import math

import numpy as np

from ...core.define import constant, scalar_rule
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace, is_numpy
from ...core.tangents import ZERO_TANGENT

__all__ = ["over_hypot", "over_squared_radius", "power_base_partial", "power_exponent_partial"]

_LN2 = math.log(2.0)

# ---- sums and products ----------------------------------------------------------------------

# Constant partials are marked, so that the pullbacks pass the cotangent through.
scalar_rule(np.add, constant(1.0), constant(1.0))
scalar_rule(np.subtract, constant(1.0), constant(-1.0))
scalar_rule(np.multiply, lambda x1, x2, y: x2, lambda x1, x2, y: x1)
# Through the namespace's divide: for Python floats 1 / 0 is inf, as for arrays, not an error.
scalar_rule(
    np.divide,
    lambda x1, x2, y: array_namespace(x1, x2).divide(1.0, x2),
    lambda x1, x2, y: -array_namespace(x1, x2).divide(y, x2),
)

# ---- powers ---------------------------------------------------------------------------------


def power_base_partial(x, p, y):
    """d(x**p)/dx = p x**(p-1), and 0 where p = 0 (x**0 is constant, even at x = 0), and where
    p is infinite and x**p = 0 (x**inf for |x| < 1, x**-inf for |x| > 1: 0 all about x), where
    p x**(p-1) would be inf * 0.

    >>> power_base_partial(0.0, 0.0, 1.0), power_base_partial(-2.0, 3, -8.0)
    (np.float64(0.0), np.float64(12.0))
    """
    xp = array_namespace(x, p)
    if isinstance(p, int | float | complex) and p != 0:
        if p == 2:  # x**1 is x: the square's derivative in one pass
            return p * xp.asarray(x)
        if p == math.inf or p == -math.inf:
            with np.errstate(invalid="ignore"):  # inf * 0, replaced
                return xp.where(y == 0, 0.0, p * xp.pow(x, p - 1))
        return p * xp.pow(x, p - 1)
    # Where p = 0 and x = 0, x**(p - 1) is inf and p * inf NaN: any finite power times p = 0
    # gives the right 0. Only there: elsewhere the exponent stays p - 1, so that the derivative
    # of this partial in p is right at p = 0 too.
    exponent = xp.where((p == 0) & (x == 0), 1, p - 1)
    if is_numpy(p) and np.isinf(p).any():
        with np.errstate(invalid="ignore"):  # inf * 0, replaced
            return xp.where(xp.isinf(p) & (y == 0), 0.0, p * xp.pow(x, exponent))
    return p * xp.pow(x, exponent)


def power_exponent_partial(x, p, y):
    """d(x**p)/dp = x**p log(x); 0 where x**p = 0; log|x| for a negative real x and real y.

    Where x**p = 0, x is 0, or infinite with p < 0 (x**p log x -> 0 there), or x**p underflows:
    0, where y log x would be 0 * inf at the first two.

    >>> power_exponent_partial(0.0, 2.0, 0.0), power_exponent_partial(-1.0, 2.0, 1.0)
    (np.float64(0.0), np.float64(0.0))
    """
    xp = array_namespace(x, p)
    at_zero = (x == 0) | (y == 0)
    safe_x = xp.where(at_zero, 1.0, x)
    log_x = xp.log(safe_x + 0j) if is_complex(y) else xp.log(xp.abs(safe_x))
    return xp.where(at_zero, 0.0, y) * log_x


scalar_rule(np.power, power_base_partial, power_exponent_partial)
scalar_rule(np.float_power, power_base_partial, power_exponent_partial)

# ---- division with remainder ----------------------------------------------------------------
# The quotients are piecewise constant; the remainders are x1 - q * x2 with that quotient q
# (floored for remainder, truncated for fmod),
# read back from the remainder as round((x1 - y) / x2): exactly the integer NumPy used (1 % 0.1
# takes q = 9, where floor(1 / 0.1) is 10), and differentiable again (to zero) in namespaces
# whose floor_divide has no derivative (PyTorch's).


def _quotient(x1, x2, y):
    """The integer q of y = x1 - q * x2 that the remainder y was computed with.

    An infinite divisor leaves a finite dividend whole (q = 0) or, with the other sign, gives
    the divisor itself (NumPy's remainder(-2, inf) is inf: q = -1), where (x1 - y) / x2 would
    be inf / inf.
    """
    xp = array_namespace(x1, x2, y)
    d = x1 - y
    if isinstance(d, float):  # of numbers: the same, without arrays
        return -1.0 if math.isinf(d) else xp.round(d / x2)
    infinite = xp.isinf(d)  # only beside an infinite divisor
    return xp.where(infinite, -1.0, xp.round(d / xp.where(infinite, 1.0, x2)))


scalar_rule(np.floor_divide, lambda x1, x2, y: ZERO_TANGENT, lambda x1, x2, y: ZERO_TANGENT)
scalar_rule(np.remainder, constant(1.0), lambda x1, x2, y: -_quotient(x1, x2, y))
scalar_rule(np.fmod, constant(1.0), lambda x1, x2, y: -_quotient(x1, x2, y))
scalar_rule(
    np.divmod,
    (lambda x1, x2, y: ZERO_TANGENT, lambda x1, x2, y: ZERO_TANGENT),
    (constant(1.0), lambda x1, x2, y: -y[0]),
)

# ---- angles, norms and logs of sums ---------------------------------------------------------


def _arctan2_partials():
    """arctan2(x1, x2) = angle of (x2, x1): partials x2/r^2 and -x1/r^2, 0 at the origin and
    wherever an argument is infinite.

    Divided twice by r = hypot(x1, x2), never by x1^2 + x2^2, which overflows from 1e154 and
    underflows below 1e-154; except for real NumPy arrays whose x1^2 + x2^2 lies within
    [1e-290, 1e300], where it is as accurate (a product and a sum against a hypot and a
    second division) and a third of the time (see ``_squared_radius``).
    """

    def first(x1, x2, y):
        r2 = _squared_radius(x1, x2)
        if r2 is not None:
            return x2 / r2
        return over_squared_radius(x2, x1, x2)

    def second(x1, x2, y):
        r2 = _squared_radius(x1, x2)
        if r2 is not None:
            return np.negative(x1) / r2
        return -over_squared_radius(x1, x1, x2)

    return first, second


def over_squared_radius(v, x1, x2):
    """v / r^2 with r = hypot(x1, x2) and v one of x1, x2: 0 where r is 0 or infinite.

    At infinity |v| / r^2 <= 1 / r, so the limit is 0 along every way there: where one
    argument is infinite, where both are (arctan2 gives those points the angle of the diagonal,
    along which it is 0 too), and beside a NaN (hypot(NaN, inf) is inf: the bound holds
    whatever the NaN stands for). Without the guard, inf / inf / inf would make it NaN.
    """
    xp = array_namespace(x1, x2)
    r = xp.hypot(x1, x2)
    if isinstance(r, float):  # of numbers: the same, without arrays (a third of the time)
        return 0.0 if math.isinf(r) else v / (r or 1.0) / (r or 1.0)
    safe_r = xp.where(r == 0, 1.0, r)
    return xp.where(xp.isinf(r), 0.0, v) / safe_r / safe_r  # 0 / inf / inf: 0


def _squared_radius(x1, x2):
    """``x1 * x1 + x2 * x2`` of real NumPy arrays (one of them not 0-d) where every element
    lies within [1e-290, 1e300], far from underflow and overflow (a NaN fails both); else
    None."""
    if not all(type(x) is np.ndarray and x.dtype.kind == "f" for x in (x1, x2)):
        return None
    if not (x1.ndim or x2.ndim) or not (x1.size and x2.size):
        return None
    with np.errstate(over="ignore"):  # an overflow fails the test below, quietly
        r2 = x1 * x1
        r2 = r2 + x2 * x2  # the broadcast shape
    if r2.dtype != np.float64 or not (r2.min() >= 1e-290 and r2.max() <= 1e300):
        return None
    return r2


def over_hypot(a, b):
    """a / hypot(a, b), written so that its derivatives do not cancel; 0 at the origin.

    a / r differentiates to 1/r - a^2/r^3, which cancels where |a| >> |b| (to b^2/r^3). Where
    |a| >= |b| it is sign(a) / sqrt(1 + (b/a)^2), whose derivative is one product; elsewhere
    (a/|b|) / sqrt(1 + (a/b)^2), whose derivative's two terms differ by a factor 2 at least.

    At infinity it is its limit along the ray to the point: sign(a) where a alone is infinite,
    0 where b alone is; where both are, sign(a) / sqrt(2), the diagonal's (arctan2 gives those
    points the diagonal's angle), as at any tie |a| = |b|: a documented choice, since the limit
    there depends on the way. A NaN gives NaN.

    >>> float(over_hypot(3.0, 4.0)), float(over_hypot(-4.0, 3.0)), float(over_hypot(0.0, 0.0))
    (0.6, -0.8, 0.0)
    """
    if isinstance(a, float) and isinstance(b, float):
        return _over_hypot_of_numbers(a, b)
    xp = array_namespace(a, b)
    big = xp.abs(a) >= xp.abs(b)  # false beside a NaN: the second form, which gives NaN
    # Each form divides the smaller argument by the larger; the other form's values are
    # replaced (0 over 1), so that neither divides an infinity by an infinity nor squares a
    # huge quotient. Both infinite: the first form with the diagonal's ratio, 1. The origin
    # takes the first form too, with b / 1 = 0 and sign(0) = 0.
    ratio = big & xp.isfinite(b)
    a_safe = xp.where(ratio & (a != 0), a, 1.0)
    s = xp.where(ratio, b, xp.where(big, 1.0, 0.0)) / a_safe
    small = xp.where(big, 0.0, a)
    b_safe = xp.where(big, 1.0, b)
    t = small / b_safe
    a_larger = xp.sign(a) / xp.sqrt(1 + s * s)
    return xp.where(big, a_larger, small / xp.abs(b_safe) / xp.sqrt(1 + t * t))


def _over_hypot_of_numbers(a, b):
    """``over_hypot`` of two floats: its forms and their numbers, without arrays."""
    if abs(a) >= abs(b):
        if a == 0:
            return 0.0
        s = 1.0 if math.isinf(b) else b / a
        return math.copysign(1.0, a) / math.sqrt(1 + s * s)
    t = a / b
    return a / abs(b) / math.sqrt(1 + t * t)


scalar_rule(np.arctan2, *_arctan2_partials())


def _hypot_partial(a, b, y):
    """d hypot(a, b) / da = a / y, as ``over_hypot`` writes it. A real NumPy result (not 0-d)
    whose elements are all normal and finite takes ``a / y`` as it stands: one division
    instead of a dozen passes, and as accurate (at most 1 unit in the last place against
    mpmath, ``over_hypot`` 2). At a zero, subnormal or infinite ``y``, ``over_hypot``."""
    if type(y) is np.ndarray and y.ndim and y.dtype.kind == "f" and y.size:
        if type(a) is float or (type(a) is np.ndarray and a.dtype is y.dtype):
            if y.min() >= np.finfo(y.dtype).tiny and y.max() < np.inf:  # (a NaN fails both)
                return a / y
    return over_hypot(a, b)


scalar_rule(
    np.hypot,
    lambda x1, x2, y: _hypot_partial(x1, x2, y),
    lambda x1, x2, y: _hypot_partial(x2, x1, y),
)


def _sigmoid(d):
    """1 / (1 + exp(-d)), from exp of a non-positive argument on both sides of 0.

    The partials of logaddexp are sigmoids of the difference of the arguments. Written so,
    and not as ``exp(x1 - y)``, their own derivatives (second derivatives of logaddexp) keep
    their accuracy at saturation, where ``1 - exp(x1 - y)`` would cancel to 0.

    A real NumPy array takes the same numbers without ``where``: the numerator is the larger
    of e and (d >= 0), which is 1 where d >= 0 (e <= 1 there) and e elsewhere; in place,
    seven passes in a third of the time of NumPy's ``where``s.
    """
    if type(d) is np.ndarray and d.dtype.kind == "f":
        e = np.abs(d)
        np.negative(e, out=e)
        np.exp(e, out=e)
        numerator = np.maximum(e, d >= 0)
        e += 1
        numerator /= e
        return numerator
    xp = array_namespace(d)
    positive = d >= 0
    e = xp.exp(xp.where(positive, -d, d))
    return xp.where(positive, 1 / (1 + e), e / (1 + e))


def _difference(x1, x2):
    """x1 - x2, the argument of logaddexp's sigmoids; 0 where both are one infinity.

    logaddexp(inf, inf) is inf, and -inf at -inf: a tie, whose partials are 1/2 each, as at
    any tie (their limit along the diagonal), where inf - inf would make them NaN. NumPy's
    arrays and numbers subtract as they are (quietly) and mend the rare NaN; other arrays
    (tracked values among them) replace those infinities first, leaving the derivative
    elsewhere as it is.
    """
    if type(x1) is float and type(x2) is float:
        return 0.0 if x1 == x2 else x1 - x2
    if type(x1) in _NUMPY_REALS and type(x2) in _NUMPY_REALS:
        with np.errstate(invalid="ignore"):
            d = np.subtract(x1, x2)
        if np.isnan(np.min(d, initial=np.inf)):  # a NaN argument, or equal infinities
            d = np.where(x1 == x2, 0.0, d)
            return d if d.ndim else d[()]
        return d
    xp = array_namespace(x1, x2)
    same_infinity = (x1 == x2) & xp.isinf(x1)
    return xp.where(same_infinity, 0.0, x1) - xp.where(same_infinity, 0.0, x2)


_NUMPY_REALS = frozenset({np.ndarray, float, int, np.float64, np.float32, np.float16})

scalar_rule(
    np.logaddexp,
    lambda x1, x2, y: _sigmoid(_difference(x1, x2)),
    lambda x1, x2, y: _sigmoid(_difference(x2, x1)),
)
scalar_rule(
    np.logaddexp2,
    lambda x1, x2, y: _sigmoid(_difference(x1, x2) * _LN2),
    lambda x1, x2, y: _sigmoid(_difference(x2, x1) * _LN2),
)

# ---- sign and bit manipulation --------------------------------------------------------------


def _copysign_partial(x1, x2, y):
    """copysign(x1, x2) = +-x1: the partial is 1 where the signs agree, -1 where they differ."""
    xp = array_namespace(x1, x2)
    return xp.where(xp.signbit(x1) == xp.signbit(x2), 1.0, -1.0)


scalar_rule(np.copysign, _copysign_partial, lambda x1, x2, y: ZERO_TANGENT)
# ldexp(x1, n) = x1 * 2**n with an integer n, which has no tangent.
scalar_rule(np.ldexp, lambda x1, x2, y: array_namespace(y).asarray(2.0**x2), None)
# heaviside(x1, h) is 0, h or 1; it is h exactly where x1 = 0.
scalar_rule(
    np.heaviside,
    lambda x1, x2, y: ZERO_TANGENT,
    lambda x1, x2, y: array_namespace(x1).where(x1 == 0, 1.0, 0.0),
)
# nextafter(x1, x2) is x1 moved by one unit in the last place: the identity in x1.
scalar_rule(np.nextafter, constant(1.0), lambda x1, x2, y: ZERO_TANGENT)
