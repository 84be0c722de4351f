"""Rules for NumPy's binary elementwise functions, and ``clip`` and ``where``.

The ndarray operators reach these functions (``a + b`` is ``np.add``, ``a ** b`` is
``np.power``, ``a // b`` is ``np.floor_divide``...), so their rules serve the operators too.
Most are one ``scalar_rule`` row with a partial per argument; broadcasting, un-broadcasting,
dtypes and complex conjugation come from ``scalar_rule``.

Hard points, each a documented choice:

* ``maximum``, ``minimum``, ``fmax``, ``fmin``: at a tie the cotangent is split equally
  between the two arguments (the frule agrees: the tangent is the mean). A NaN that
  ``maximum`` propagates gets the cotangent; a NaN that ``fmax`` ignores gets none.
* ``power(x, p)``: ``d/dx = p x**(p-1)`` is exact at ``x = 0`` and for a negative base with
  an integral exponent, and is ``0`` for ``p = 0``; ``d/dp = y log(x)`` is ``0`` where
  ``x = 0`` (no ``0 * log 0``), and uses ``log|x|`` for a negative real base, the derivative
  of ``Re(x**p)`` (as ChainRules does); integer exponents have no tangent.
* ``clip(a, lo, hi)`` is ``minimum(maximum(a, lo), hi)``: each element of the result is
  one of ``a``, ``lo`` or ``hi``, and the cotangent goes to the one returned. At exactly a
  bound it goes to ``a`` (as PyTorch's ``clamp``); where ``lo > hi`` the result is ``hi``.
  Array or float bounds are differentiable (summed over their broadcast, like any argument);
  integer bounds, and bounds given by keyword, get no tangent.
* ``arctan2`` and ``hypot`` have derivative ``0`` at the origin. Where an argument is infinite
  ``arctan2``'s partials are ``0`` (their limit along every way there), and ``hypot``'s are the
  limits along the ray to the point: ``sign(x)`` in the infinite argument, ``0`` in the finite
  one, and ``sign(x) / sqrt(2)`` each where both are infinite (the diagonal, as at a finite
  tie ``|x1| = |x2|``; the limit there depends on the way, so this is a choice).
* ``logaddexp(inf, inf)`` is a tie like any other: partials ``1/2`` each.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.maximum, np.array([1.0, 2.0]), np.array([1.0, 0.0]))
>>> pullback(np.ones(2))[1:]
(array([0.5, 1. ]), array([0.5, 0. ]))
"""

import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ...core.define import constant, scalar_rule
from ...core.dtypes import is_complex
from ...core.fast_paths import FastPullback, onto, register_fast_path
from ...core.namespace import array_namespace
from ...core.primals import FLOAT64
from ...core.projection import ProjectTo, projector
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import Thunk, unthunk
from ...core.zeros import is_zero

__all__ = ["over_hypot", "power_base_partial", "power_exponent_partial"]

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
    """d(x**p)/dx = p x**(p-1), and 0 where p = 0 (x**0 is constant, even at x = 0).

    >>> power_base_partial(0.0, 0.0, 1.0), power_base_partial(-2.0, 3, -8.0)
    (np.float64(0.0), np.float64(12.0))
    """
    xp = array_namespace(x, p)
    if isinstance(p, int | float | complex) and p != 0:
        if p == 2:  # x**1 is x: the square's derivative in one pass
            return p * xp.asarray(x)
        return p * xp.pow(x, p - 1)
    # Where p = 0 and x = 0, x**(p - 1) is inf and p * inf NaN: any finite power times p = 0
    # gives the right 0. Only there: elsewhere the exponent stays p - 1, so that the derivative
    # of this partial in p is right at p = 0 too.
    return p * xp.pow(x, xp.where((p == 0) & (x == 0), 1, p - 1))


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

# ---- selection: maximum, minimum, fmax, fmin ------------------------------------------------


def _selection_partials(first_wins, wins):
    """The partials of a function that returns one of its two arguments.

    ``first_wins(xp, x1, x2)`` says where the first argument is returned; at a tie both
    partials are 1/2, so the cotangent is split equally. ``wins(x1, x2)`` says the same of
    NumPy's real numbers without a NaN (``np.greater`` for ``maximum``): real NumPy arrays
    without one take it, with the same values in a third of the time (NumPy's ``where`` of
    numbers is slower than a cast). Float64 arrays beside an array of their shape or a number
    (a ReLU's ``maximum(x, 0.0)``) take the fast path below, which shares one comparison
    between the two partials.
    """

    def first(x1, x2, y):
        if _real_without_nan(x1, x2):
            return _weights(wins(x1, x2), x1 == x2)
        xp = array_namespace(x1, x2)
        return xp.where(x1 == x2, 0.5, xp.where(first_wins(xp, x1, x2), 1.0, 0.0))

    def second(x1, x2, y):
        if _real_without_nan(x1, x2):
            return _weights(wins(x2, x1), x1 == x2)
        return 1.0 - first(x1, x2, y)

    return first, second


def _weights(won, tie):
    """1.0 where ``won``, 0.5 at a ``tie``, 0.0 elsewhere (boolean arrays of one shape; None:
    no tie)."""
    weights = won.astype(np.float64)
    if tie is not None and tie.any():
        np.copyto(weights, 0.5, where=tie)
    return weights


def _real_without_nan(x1, x2):
    """Whether ``x1`` and ``x2`` are real NumPy arrays or numbers, one an array (not 0-d), and
    neither holds a NaN."""
    arrays = 0
    for x in (x1, x2):
        cls = type(x)
        if cls is np.ndarray:
            if x.dtype.kind != "f":
                return False
            arrays += x.ndim > 0
            if np.isnan(x).any():
                return False
        elif cls is float or cls is int:
            if cls is float and math.isnan(x):
                return False
        else:
            return False
    return arrays > 0


def _winners(wins, x1, x2):
    """Where each of two float arrays or numbers without a NaN wins (``wins``), and their ties
    (None without any), for ``_weights``; None where there is a NaN.

    An element that neither argument wins is a tie or a NaN: counting them tells whether
    there is any of either, so that arrays without (the frequent case) take one comparison
    each way, and no test of their own.
    """
    won, lost = wins(x1, x2), wins(x2, x1)
    settled = np.count_nonzero(won) + np.count_nonzero(lost)
    if settled == won.size:
        return won, lost, None
    tie = x1 == x2
    if settled + np.count_nonzero(tie) != won.size:
        return None
    return won, lost, tie


class _SelectionPullback(FastPullback):
    """The pullback of ``maximum``, ``minimum``, ``fmax`` or ``fmin`` at a float64 array beside
    a float64 array of its shape or a real number: the rule's partials, from one comparison of
    the arguments each way shared by the two (``_winners``) for a float64 cotangent, by
    the partials themselves for any other and where there is a NaN. A number's cotangent, a
    sum, is a thunk, as is the cotangent of an argument an engine said it will not ask for:
    their weights are made when asked for."""

    __slots__ = ("args", "wanted")
    args: tuple
    wanted: tuple[int, ...]  # the positions (from 1) of the cotangents computed at once
    partials: tuple  # on the subclass: the rule's two partials, and what wins for it
    wins: Callable[[Any, Any], Any]

    def needed(self, positions):
        self.wanted = positions

    def zeros(self):
        return NO_TANGENT, *(projector(x)(ZERO_TANGENT) for x in self.args)

    def cotangents(self, dy):
        winners = None
        if type(dy) is np.ndarray and dy.dtype is FLOAT64:
            winners = _winners(self.wins, *self.args)
        return NO_TANGENT, self.cotangent(0, winners, dy), self.cotangent(1, winners, dy)

    def cotangent(self, i, winners, dy):
        x = self.args[i]
        project = projector(x)
        if not project.has_tangent_space:
            return NO_TANGENT
        if type(x) is np.ndarray and i + 1 in self.wanted:
            if winners is None:
                return self.product(i, dy)
            weight = _weights(winners[i], winners[2])
            weight *= dy  # weight * dy, in the array made for it
            return weight
        if winners is None:
            return Thunk(lambda: project(self.product(i, dy)))
        return Thunk(lambda: project(_weights(winners[i], winners[2]) * dy))

    def product(self, i, dy):
        """The partial of argument ``i`` times ``dy``, of the output's shape and dtype."""
        return onto(self.shape, FLOAT64, self.partials[i](*self.args, None) * dy)


def _fast_selection(general, pullback_class):
    """The fast path of ``maximum``, ``minimum``, ``fmax`` and ``fmin``: a float64 array (not
    0-d) beside a float64 array of its shape or a Python or NumPy real number."""
    f = pullback_class.f

    def selection_rrule(x1, x2, *rest, **kwargs):
        if rest or kwargs or not _array_beside_like(x1, x2):
            return general(x1, x2, *rest, **kwargs)
        pullback = pullback_class()
        pullback.args, pullback.wanted, pullback.rest = (x1, x2), (1, 2), ()
        y = f(x1, x2)
        pullback.shape = y.shape
        return y, pullback

    return selection_rrule


def _array_beside_like(x1, x2):
    """Whether one of ``x1``, ``x2`` is a float64 array (not 0-d) and the other a float64
    array of its shape or a real number of Python or NumPy."""
    first, second = type(x1), type(x2)
    if first is np.ndarray:
        if x1.dtype is not FLOAT64 or not x1.ndim:
            return False
        if second is np.ndarray:
            return x2.dtype is FLOAT64 and x2.shape == x1.shape
        return second in _REAL_NUMBERS
    return second is np.ndarray and x2.dtype is FLOAT64 and x2.ndim > 0 and first in _REAL_NUMBERS


_REAL_NUMBERS = frozenset({float, int, np.float64})

# maximum and minimum propagate a NaN, fmax and fmin return the other argument.
for _f, _first_wins, _wins in [
    (np.maximum, lambda xp, a, b: (a > b) | xp.isnan(a), np.greater),
    (np.minimum, lambda xp, a, b: (a < b) | xp.isnan(a), np.less),
    (np.fmax, lambda xp, a, b: (a > b) | xp.isnan(b), np.greater),
    (np.fmin, lambda xp, a, b: (a < b) | xp.isnan(b), np.less),
]:
    _partials = _selection_partials(_first_wins, _wins)
    scalar_rule(_f, *_partials)
    register_fast_path(_f, _fast_selection, _SelectionPullback, partials=_partials, wins=_wins)
del _f, _first_wins, _wins, _partials

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
        return _over_squared_radius(x2, x1, x2)

    def second(x1, x2, y):
        r2 = _squared_radius(x1, x2)
        if r2 is not None:
            return np.negative(x1) / r2
        return -_over_squared_radius(x1, x1, x2)

    return first, second


def _over_squared_radius(v, x1, x2):
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


# ---- clip -----------------------------------------------------------------------------------


def _clip_bounds(bounds, min, max):
    """lo and hi from clip's positional bounds (a_min, a_max) or its keywords min and max."""
    a_min, a_max = (*bounds, None, None)[:2]
    return (min if a_min is None else a_min), (max if a_max is None else a_max)


def _clip_sources(xp, a, lo, hi):
    """Where clip returns ``hi``, and where it returns ``lo`` (None for an absent bound).

    A NaN in ``a`` compares false with both, so it is returned and keeps its cotangent.
    Between two numbers ``lo <= hi`` (the frequent ``clip(x, -1.0, 1.0)``) a NumPy array is
    above ``hi`` or below ``lo`` where it compares so: two passes, not five.
    """
    if type(a) is np.ndarray and type(lo) in _NUMBERS and type(hi) in _NUMBERS and lo <= hi:
        return a > hi, a < lo
    # A Python bound as an array: array-api-compat before 1.13 takes none in torch's maximum.
    raised = a if lo is None else xp.maximum(a, lo if hasattr(lo, "shape") else xp.asarray(lo))
    to_hi = None if hi is None else raised > hi
    to_lo = None if lo is None else a < lo
    if to_lo is not None and to_hi is not None:
        to_lo = to_lo & ~to_hi
    return to_hi, to_lo


_NUMBERS = (float, int, np.float64)


def _select(xp, mask, chosen, other):
    return other if mask is None else xp.where(mask, chosen, other)


def _passed_back(xp, dy, to_lo, to_hi):
    """``dy`` where clip returned ``a``, 0 elsewhere: as ``_select`` twice, or, for a finite
    NumPy array of the masks' shape, ``dy`` times where ``a`` was returned (NumPy's ``where``
    on a scattered mask takes twice a product's time; the product's zeros are signed), the
    mask cast to ``dy``'s dtype and multiplied in place (a product with the boolean mask casts
    it on the way, slower)."""
    if type(dy) is np.ndarray and dy.dtype.kind == "f" and to_lo is not None and to_hi is not None:
        if dy.shape == to_lo.shape == to_hi.shape and np.isfinite(dy).all():
            returned = np.logical_or(to_lo, to_hi)
            np.logical_not(returned, out=returned)
            product = returned.astype(dy.dtype)
            product *= dy
            return product
    return _select(xp, to_lo, 0.0, _select(xp, to_hi, 0.0, dy))


def _bound_cotangent(xp, project, mask, dy):
    """A bound's cotangent: the sum of ``dy`` where clip returned it, as a thunk."""
    return Thunk(lambda: project(xp.where(mask, dy, 0.0)))


@rrule.register(np.clip)
def _clip_rrule(a, *bounds, min=None, max=None):
    """clip(a, lo, hi): the cotangent goes to whichever of ``a``, ``lo``, ``hi`` is returned."""
    if len(bounds) > 2:
        return None  # an ``out`` array, given by position: a write no rule can describe
    lo, hi = _clip_bounds(bounds, min, max)
    xp = array_namespace(a, lo, hi)
    projectors = [ProjectTo(a), *(ProjectTo(b) for b in bounds)]
    to_hi, to_lo = _clip_sources(xp, a, lo, hi)
    masks = (to_lo, to_hi)

    def clip_pullback(dy):
        cotangents = [projectors[0](_passed_back(xp, dy, to_lo, to_hi))]
        for bound, mask, project in zip(bounds, masks, projectors[1:], strict=False):
            if bound is None or not project.has_tangent_space:
                cotangents.append(project(ZERO_TANGENT))
            else:  # computed when asked for: an engine never asks for a constant's
                cotangents.append(_bound_cotangent(xp, project, mask, dy))
        return NO_TANGENT, *cotangents

    return np.clip(a, lo, hi), clip_pullback


@frule.register(np.clip)
def _clip_frule(tangents, a, *bounds, min=None, max=None):
    if len(bounds) > 2:
        return None
    lo, hi = _clip_bounds(bounds, min, max)
    xp = array_namespace(a, lo, hi)
    y = np.clip(a, lo, hi)
    to_hi, to_lo = _clip_sources(xp, a, lo, hi)
    da, *dbounds = (_value_or_zero(t) for t in tangents[1 : 2 + len(bounds)])
    dlo, dhi = (*dbounds, 0.0, 0.0)[:2]
    return y, _fit(xp, _select(xp, to_hi, dhi, _select(xp, to_lo, dlo, da)), y)


# ---- where ----------------------------------------------------------------------------------


@rrule.register(np.where)
def _where_rrule(condition, x=None, y=None):
    """where(condition, x, y): the cotangent goes to x where condition holds, else to y.

    The condition has no tangent. With the condition alone, ``where`` returns indices, which
    have no tangent either.
    """
    if x is None and y is None:
        out = np.where(condition)
        return out, lambda dy: (NO_TANGENT, NO_TANGENT)
    xp = array_namespace(x, y)
    condition = xp.asarray(condition)  # a NumPy mask selects in other namespaces too
    project_x, project_y = ProjectTo(x), ProjectTo(y)

    def where_pullback(dy):
        dx = project_x(xp.where(condition, dy, 0.0))
        return NO_TANGENT, NO_TANGENT, dx, project_y(xp.where(condition, 0.0, dy))

    return xp.where(condition, x, y), where_pullback


@frule.register(np.where)
def _where_frule(tangents, condition, x=None, y=None):
    if x is None and y is None:
        return np.where(condition), NO_TANGENT
    xp = array_namespace(x, y)
    out = xp.where(condition, x, y)
    dx, dy = (_value_or_zero(t) for t in tangents[2:4])
    return out, _fit(xp, xp.where(condition, dx, dy), out)


def _value_or_zero(t):
    """A tangent as a value that ``where`` can select from: zeros (and None) become 0.0."""
    t = unthunk(t)
    return 0.0 if is_zero(t) else t


def _fit(xp, dy, y):
    """``dy`` broadcast to the shape of ``y`` and projected onto its tangent space."""
    shape = tuple(getattr(y, "shape", ()))
    if tuple(getattr(dy, "shape", ())) != shape:
        dy = xp.broadcast_to(xp.asarray(dy), shape)
    return ProjectTo(y)(dy)
