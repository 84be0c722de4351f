"""Rules for NumPy's unary elementwise functions, one table row each.

Holomorphic functions are one ``scalar_rule`` row, their derivative written from the input ``x``
and the output ``y`` (whichever is cheaper: ``exp`` reuses ``y``). Functions whose derivative
is zero wherever it exists (``floor``, ``rint``, ``spacing``...) give ``ZeroTangent()`` for a
float input: their output has a tangent space, unlike the predicates of ``nondiff.py``. The
non-holomorphic functions (``abs``, ``sign``, ``angle``, ``real``, ``imag``, ``conj``) and
``nan_to_num`` are written out by hand, with the subgradients of the design: ``abs'(0) = 0``,
``sign`` and ``angle`` have derivative zero at ``0``. ``sqrt'(0)`` and ``cbrt'(0)`` are
``inf``, honestly.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.tanh, np.array([0.0, 1.0]))
>>> pullback(np.ones(2))[1]
array([1.        , 0.41997434])
>>> rrule(np.abs, 0.0)[1](1.0)
(NoTangent(), 0.0)
"""

import math

import numpy as np
import scipy.special

from ...core.define import scalar_rule
from ...core.dtypes import is_complex
from ...core.linear import register_rules
from ...core.namespace import namespace_of
from ...core.partials import in_two_forms
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.zeros import is_zero

# The partials that math.py shares.
__all__ = [
    "arcsinh_derivative",
    "arctan_derivative",
    "one_minus_square",
    "sinpi_cospi",
    "tanh_derivative",
]

_LN2 = math.log(2.0)
_LN10 = math.log(10.0)


_xp = namespace_of


def _reciprocal(v):
    """1 / v in the namespace: inf at 0 for Python floats too, where ``/`` would raise."""
    return _xp(v).divide(1.0, v)


# ---- exponentials and logarithms ------------------------------------------------------------

scalar_rule(np.exp, lambda x, y: y)


def _exp2_derivative(x, y):
    """2**(x - 1) * 2 ln 2, not y ln 2: 2**x overflows from x = 1024, its derivative only at
    1024.53. A real NumPy array (not 0-d) whose y has no infinity takes y ln 2: one product
    instead of exp2's pass, and as accurate (at most 1 unit in the last place against mpmath
    over [-1070, 1024], the other form 2)."""
    if (
        type(x) is np.ndarray
        and x.ndim
        and x.dtype.kind == "f"
        and type(y) is np.ndarray
        and y.dtype is x.dtype
        and not np.isinf(y).any()
    ):
        return y * _LN2
    return _xp(x).exp2(x - 1) * (2 * _LN2)


scalar_rule(np.exp2, _exp2_derivative)
# exp(x), not y + 1: below x = -37, expm1(x) rounds to -1 and y + 1 to 0.
scalar_rule(np.expm1, lambda x, y: _xp(x).exp(x))
scalar_rule(np.log, lambda x, y: _reciprocal(x))
# (1 / ln b) / x: x * ln 10 overflows for x near the largest float, whose log10' is normal.
scalar_rule(np.log2, lambda x, y: _xp(x).divide(1 / _LN2, x))
scalar_rule(np.log10, lambda x, y: _xp(x).divide(1 / _LN10, x))
scalar_rule(np.log1p, lambda x, y: _reciprocal(x + 1))

# ---- powers and roots -----------------------------------------------------------------------

scalar_rule(np.sqrt, lambda x, y: 0.5 / y)
scalar_rule(np.cbrt, lambda x, y: 1 / (3 * y * y))
scalar_rule(np.square, lambda x, y: 2 * x)
scalar_rule(np.reciprocal, lambda x, y: -y * y)

# ---- trigonometric and hyperbolic -----------------------------------------------------------

scalar_rule(np.sin, lambda x, y: _xp(x).cos(x))
scalar_rule(np.cos, lambda x, y: -_xp(x).sin(x))
scalar_rule(np.tan, lambda x, y: 1 + y * y)
scalar_rule(np.arcsin, lambda x, y: 1 / _xp(x).sqrt(one_minus_square(x)))
scalar_rule(np.arccos, lambda x, y: -1 / _xp(x).sqrt(one_minus_square(x)))
scalar_rule(np.arctan, lambda x, y: arctan_derivative(x))
scalar_rule(np.sinh, lambda x, y: _xp(x).cosh(x))
scalar_rule(np.cosh, lambda x, y: _xp(x).sinh(x))
scalar_rule(np.tanh, lambda x, y: tanh_derivative(x, y))
scalar_rule(np.arcsinh, lambda x, y: arcsinh_derivative(x))
# Two square roots, not sqrt(x*x - 1): they agree with arccosh's branch cut for complex x.
scalar_rule(np.arccosh, lambda x, y: 1 / (_xp(x).sqrt(x - 1) * _xp(x).sqrt(x + 1)))
scalar_rule(np.arctanh, lambda x, y: _reciprocal(one_minus_square(x)))


def one_minus_square(x):
    """1 - x^2, as (1 - x)(1 + x) from |x| = 1/2: exact factors near +-1, where x * x is not.

    Below 1/2, 1 - x * x: its derivative -2x, which the product's -(1 + x) + (1 - x) loses.
    """
    xp = _xp(x)
    return xp.where(xp.abs(x) < 0.5, 1 - x * x, (1 - x) * (1 + x))


# Where x * x is 10^8 below overflow, by dtype: 1 + x * x is then x * x and 1 / it normal.
_SQUARE_LIMITS = {np.dtype(np.float64): 1e150, np.dtype(np.float32): 1e15}


def arctan_derivative(x):
    """1 / (1 + x^2) as (1 / hypot(x, 1))^2 for real x: x * x overflows from |x| = 1e154.

    A float64 or float32 NumPy array (not 0-d) well within the range where x * x is finite
    takes 1 / (1 + x * x) as it stands: a third of the time of hypot, and as accurate (at
    most 2 units in the last place against mpmath, the form with hypot 3).
    """
    if type(x) is np.ndarray and x.ndim and x.size:
        limit = _SQUARE_LIMITS.get(x.dtype)
        if limit is not None and -limit <= float(x.min()) and float(x.max()) <= limit:
            d = x * x  # (a NaN fails both comparisons)
            d += 1
            return np.divide(1, d, out=d)
    xp = _xp(x)
    if is_complex(x):
        return _reciprocal(1 + x * x)
    r = 1 / xp.hypot(x, xp.ones_like(x))
    return r * r


def arcsinh_derivative(x):
    """1 / sqrt(x^2 + 1) as 1 / hypot(x, 1) for real x, which does not overflow."""
    xp = _xp(x)
    if is_complex(x):
        return 1 / xp.sqrt(x * x + 1)
    return 1 / xp.hypot(x, xp.ones_like(x))


def tanh_derivative(x, y=None):
    """sech(x)^2, not 1 - tanh(x)^2: tanh(x) rounds to +-1 from |x| = 19, where sech^2 is
    still 1e-16 (and representable up to |x| = 355).

    From |x| = 1, 4u / (1 + u)^2 with u = exp(-2|x|): 1 / cosh(x) squared would underflow
    in the second derivative's intermediate products well before sech^2 itself does. Below
    |x| = 1 that form is as accurate (u is near 1, nothing cancels), but its derivatives pass
    through |x|'s kink at 0. A real NumPy array (not 0-d), which nothing differentiates
    further, takes it everywhere, or, given ``y = np.tanh(x)`` (the rule's), takes 1 - y^2
    below |x| = 1 (see ``_sech_squared_array``).
    """
    if type(x) is np.ndarray and x.ndim and x.dtype.kind == "f":  # 0-d: NumPy gives scalars
        return _sech_squared_array(x, y)
    xp = _xp(x)
    if is_complex(x):
        sech = 1 / xp.cosh(x)
        return sech * sech
    near = xp.abs(x) < 1
    sech = 1 / xp.cosh(xp.where(near, x, 0.0))
    u = xp.exp(-2 * xp.abs(xp.where(near, 1.0, x)))
    return xp.where(near, sech * sech, 4 * u / ((1 + u) * (1 + u)))


def _sech_squared_array(x, y):
    """sech(x)^2 of a real array, with ``y = np.tanh(x)`` where the rule has it.

    Below |x| = 1, 1 - y^2 is as accurate as the exponential form (y^2 is at most 0.58, so
    tanh's own rounding error is magnified at most 2.8 times, and nothing cancels) and a
    tenth of its cost, NumPy's ``exp`` being the most of it: there ``1 - y * y``, and the
    exponential form for the elements from |x| = 1 on (``in_two_forms``).
    """
    u = np.abs(x)
    if type(y) is np.ndarray and y.dtype is x.dtype and y.shape == x.shape:
        found = in_two_forms(u, lambda: 1 - y * y, _sech_squared_from_abs)
        if found is not None:
            return found
    return _sech_squared_from_abs(u)


def _sech_squared_from_abs(u):
    """4 exp(-2u) / (1 + exp(-2u))^2 for ``u = |x|``, computed in place in ``u``."""
    u *= -2
    np.exp(u, out=u)
    den = u + 1
    den *= den
    u *= 4
    u /= den
    return u


# ---- linear ---------------------------------------------------------------------------------

scalar_rule(np.negative, lambda x, y: -1.0)
scalar_rule(np.positive, lambda x, y: 1.0)
scalar_rule(np.deg2rad, lambda x, y: math.pi / 180)
scalar_rule(np.radians, lambda x, y: math.pi / 180)
scalar_rule(np.rad2deg, lambda x, y: 180 / math.pi)
scalar_rule(np.degrees, lambda x, y: 180 / math.pi)


# ---- special functions ----------------------------------------------------------------------


def sinpi_cospi(x):
    """sin(pi x) and cos(pi x) for real x, exact at the integers and halves, for huge x too.

    pi * x is rounded, and from |x| = 1e16 its sine is noise; x reduced modulo 2 is exact
    instead, and then reflected to [-1/4, 1/4] (exact steps), where sin and cos are accurate.
    rint has derivative 0, so each branch differentiates to the right pi cos(pi x), -pi sin.
    """
    xp = _xp(x)
    r = x - 2 * xp.rint(x / 2)  # in [-1, 1]
    a = xp.abs(r)
    side = xp.sign(r)
    u = r - 0.5 * side  # in [-1/4, 1/4] where 1/4 <= |r| <= 3/4
    v = side - r  # in [-1/4, 1/4] where |r| >= 3/4
    near, far = a <= 0.25, a >= 0.75
    sin = xp.where(
        near, xp.sin(math.pi * r), xp.where(far, xp.sin(math.pi * v), side * xp.cos(math.pi * u))
    )
    cos = xp.where(
        near, xp.cos(math.pi * r), xp.where(far, -xp.cos(math.pi * v), -side * xp.sin(math.pi * u))
    )
    return sin, cos


# sinc'(x) = sum over k >= 1 of (-1)^k 2k pi^2k x^(2k-1) / (2k+1)!: x times a polynomial in
# x^2, whose terms fall below 1e-21 of the first by k = 12 for |x| < 0.4.
_SINC_SERIES = tuple(
    (-1) ** k * 2 * k * math.pi ** (2 * k) / math.factorial(2 * k + 1) for k in range(1, 13)
)
_SINC_SERIES_BELOW = 0.4


def _sinc_derivative(x, y):
    """d/dx sin(pi x) / (pi x) = (cos(pi x) - sinc(x)) / x, by its series near 0.

    The quotient cancels to 0 at x = 0 (losing all digits near it), so below |x| = 0.4 the
    series is used, with the right second derivative -pi^2/3 at 0 too. Each branch is
    evaluated at an argument safe for it (no inf or NaN in the other's gradient).
    """
    xp = _xp(x)
    small = xp.abs(x) < _SINC_SERIES_BELOW
    xs = xp.where(small, x, 0.0)
    xb = xp.where(small, 1.0, x)
    x2 = xs * xs
    series = 0.0 * x2 + _SINC_SERIES[-1]
    for coefficient in _SINC_SERIES[-2::-1]:
        series = series * x2 + coefficient
    if is_complex(x):
        sin, cos = xp.sin(math.pi * xb), xp.cos(math.pi * xb)
    else:
        sin, cos = sinpi_cospi(xb)
    quotient = (cos - sin / (math.pi * xb)) / xb
    return xp.where(small, xs * series, quotient)


scalar_rule(np.sinc, _sinc_derivative)
# i0 takes real input only; scipy.special.i1 serves NumPy inputs, which are all that reach it.
scalar_rule(np.i0, lambda x, y: scipy.special.i1(x))

# ---- zero derivative ------------------------------------------------------------------------
# Piecewise constant: the derivative is zero wherever it exists, and the output is a float with
# a tangent space, so float inputs get ZeroTangent() (integer inputs get NoTangent()).

for _step in (np.floor, np.ceil, np.trunc, np.rint, np.fix, np.spacing):
    scalar_rule(_step, lambda x, y: ZERO_TANGENT)


def _rounded(a, positional_decimals, decimals):
    """np.round(a, decimals), with decimals given by position (at most one) or by keyword."""
    if len(positional_decimals) > 1:
        raise TypeError("rules for numpy.round take a and decimals, not out")
    return np.round(a, positional_decimals[0] if positional_decimals else decimals)


def _round_rrule(a, *positional_decimals, decimals=0):
    """round(a, decimals): zero derivative; ``decimals``, positional or keyword, has none."""
    zero = ProjectTo(a)(ZERO_TANGENT)
    cotangents = (NO_TANGENT, zero) + (NO_TANGENT,) * len(positional_decimals)

    def round_pullback(dy):
        return cotangents

    return _rounded(a, positional_decimals, decimals), round_pullback


def _round_frule(tangents, a, *positional_decimals, decimals=0):
    y = _rounded(a, positional_decimals, decimals)
    return y, ProjectTo(y)(ZERO_TANGENT)


for _round in (np.round, np.around):
    rrule.register(_round)(_round_rrule)
    frule.register(_round)(_round_frule)

# ---- several outputs ------------------------------------------------------------------------

# modf(x) = (fractional part, integral part); the integral part is piecewise constant.
scalar_rule(np.modf, (lambda x, y: 1.0,), (lambda x, y: ZERO_TANGENT,))
# frexp(x) = (m, e) with x = m * 2**e: m = x * 2**-e; the integer exponent has no tangent.
scalar_rule(np.frexp, (lambda x, y: 2.0 ** -y[1],), (None,))


# ---- absolute value and sign ----------------------------------------------------------------
# abs(z) = |z| has the real Jacobian row sign(z)^H: d|z| = Re(conj(s) dz) with s = z/|z|
# (NumPy's sign of a complex number), so its pullback is s * dy; abs'(0) = 0 as sign(0) = 0.


def _abs_rules(f):
    def abs_rrule(x):
        xp = _xp(x)
        project_x = ProjectTo(x)
        s = xp.sign(x)

        def abs_pullback(dy):
            return NO_TANGENT, project_x(s * xp.real(dy))

        return f(x), abs_pullback

    def abs_frule(tangents, x):
        xp = _xp(x)
        y = f(x)
        dx = tangents[1]
        if is_zero(dx):
            return y, ProjectTo(y)(ZERO_TANGENT)
        return y, ProjectTo(y)(xp.real(xp.conj(xp.sign(x)) * dx))

    rrule.register(f)(abs_rrule)
    frule.register(f)(abs_frule)


_abs_rules(np.abs)
_abs_rules(np.fabs)


def _sign_rrule(x):
    """sign(x): zero derivative for real x; for complex z, s = z/|z| moves with arg(z).

    ds = i s Im(conj(s) dz) / |z|, a real-linear map that is its own adjoint, so the pullback
    is i s Im(conj(s) dy) / |z|; it is 0 at z = 0, where sign is not differentiable.
    """
    xp = _xp(x)
    project_x = ProjectTo(x)
    s = xp.sign(x)

    def sign_pullback(dy):
        if not xp.isdtype(s.dtype, "complex floating"):
            return NO_TANGENT, project_x(ZERO_TANGENT)
        return NO_TANGENT, project_x(_sign_jvp(xp, x, s, dy))

    return s, sign_pullback


def _sign_frule(tangents, x):
    xp = _xp(x)
    s = xp.sign(x)
    dx = tangents[1]
    if is_zero(dx) or not xp.isdtype(s.dtype, "complex floating"):
        return s, ProjectTo(s)(ZERO_TANGENT)
    return s, ProjectTo(s)(_sign_jvp(xp, x, s, dx))


def _sign_jvp(xp, z, s, dz):
    r = xp.abs(z)
    at_zero = r == 0
    safe_r = xp.where(at_zero, 1.0, r)
    return xp.where(at_zero, 0.0, 1j * s * xp.imag(xp.conj(s) * dz) / safe_r)


rrule.register(np.sign)(_sign_rrule)
frule.register(np.sign)(_sign_frule)

# ---- complex parts --------------------------------------------------------------------------
# real, imag and conj are real-linear: their pullbacks are the adjoint maps, dy -> dy,
# dy -> i dy and dy -> conj(dy). For real x, real and conj are the identity and imag is 0.


def _register_real_linear(f, name, primal, tangent, adjoint, also=()):
    """Register the rules of ``f``, a real-linear map, as ``{name}_rrule`` and ``{name}_frule``.

    ``primal(x)`` computes ``f``; ``tangent(x, dx)`` maps a tangent and ``adjoint(x, dy)`` a
    cotangent (neither is called on a zero).
    """

    def real_linear_rrule(x):
        project_x = ProjectTo(x)

        def real_linear_pullback(dy):
            return NO_TANGENT, project_x(adjoint(x, dy))

        return primal(x), real_linear_pullback

    def real_linear_frule(tangents, x):
        y = primal(x)
        dx = tangents[1]
        if is_zero(dx):
            return y, ProjectTo(y)(ZERO_TANGENT)
        return y, ProjectTo(y)(tangent(x, dx))

    register_rules(f, real_linear_rrule, real_linear_frule, also=also)


# x.real and x.imag are keyed by their descriptors, as shape.py keys x.T.
_register_real_linear(
    np.real,
    "real",
    np.real,
    lambda x, dx: _xp(dx).real(dx),
    lambda x, dy: dy,
    also=(np.ndarray.real,),
)
_register_real_linear(
    np.imag,
    "imag",
    np.imag,
    lambda x, dx: _xp(dx).imag(dx),
    lambda x, dy: 1j * dy,
    also=(np.ndarray.imag,),
)
_register_real_linear(
    np.conj,
    "conj",
    lambda x: _xp(x).conj(x),
    lambda x, dx: _xp(x).conj(dx),
    lambda x, dy: _xp(x).conj(dy),
)


@rrule.register(np.angle)
def _angle_rrule(z, *, deg=False):
    """angle(z): d angle = Im(conj(z) dz) / |z|^2, so the pullback is i z dy / |z|^2.

    Real inputs have derivative zero (the angle is 0 or pi); at z = 0 it is 0 as well.
    """
    xp = _xp(z)
    project_z = ProjectTo(z)
    scale = 180 / math.pi if deg else 1.0

    def angle_pullback(dy):
        if not _is_complex_array(xp, z):
            return NO_TANGENT, project_z(ZERO_TANGENT)
        r2, safe_r2 = _abs2(xp, z)
        return NO_TANGENT, project_z(xp.where(r2 == 0, 0.0, 1j * z * (scale * dy) / safe_r2))

    return np.angle(z, deg=deg), angle_pullback


@frule.register(np.angle)
def _angle_frule(tangents, z, *, deg=False):
    xp = _xp(z)
    y = np.angle(z, deg=deg)
    dz = tangents[1]
    if is_zero(dz) or not _is_complex_array(xp, z):
        return y, ProjectTo(y)(ZERO_TANGENT)
    scale = 180 / math.pi if deg else 1.0
    r2, safe_r2 = _abs2(xp, z)
    dy = xp.where(r2 == 0, 0.0, scale * xp.imag(xp.conj(z) * dz) / safe_r2)
    return y, ProjectTo(y)(dy)


def _abs2(xp, z):
    r2 = xp.real(z * xp.conj(z))
    return r2, xp.where(r2 == 0, 1.0, r2)


def _is_complex_array(xp, x):
    return isinstance(x, complex) or xp.isdtype(xp.asarray(x).dtype, "complex floating")


# ---- nan_to_num -----------------------------------------------------------------------------
# Identity where the input is finite, constant where it is replaced; complex numbers have their
# real and imaginary parts replaced separately. The options of angle and nan_to_num are taken
# by keyword, so that the pullback returns one cotangent per positional argument.


def _finite_parts_tangent(xp, x, dx):
    if not _is_complex_array(xp, x):
        return xp.where(xp.isfinite(x), dx, 0.0)
    real = xp.where(xp.isfinite(xp.real(x)), xp.real(dx), 0.0)
    imag = xp.where(xp.isfinite(xp.imag(x)), xp.imag(dx), 0.0)
    return real + 1j * imag


@rrule.register(np.nan_to_num)
def _nan_to_num_rrule(x, *, copy=True, nan=0.0, posinf=None, neginf=None):
    xp = _xp(x)
    project_x = ProjectTo(x)

    def nan_to_num_pullback(dy):
        return NO_TANGENT, project_x(_finite_parts_tangent(xp, x, dy))

    # Always a copy: copy=False would overwrite x, and rules never mutate their inputs.
    y = np.nan_to_num(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)
    return y, nan_to_num_pullback


@frule.register(np.nan_to_num)
def _nan_to_num_frule(tangents, x, *, copy=True, nan=0.0, posinf=None, neginf=None):
    xp = _xp(x)
    y = np.nan_to_num(x, copy=True, nan=nan, posinf=posinf, neginf=neginf)
    dx = tangents[1]
    if is_zero(dx):
        return y, ProjectTo(y)(ZERO_TANGENT)
    return y, ProjectTo(y)(_finite_parts_tangent(xp, x, dx))


# ---- array methods --------------------------------------------------------------------------
# x.clip has np.clip's rules, whose bounds likewise get no tangent.


@rrule.register(np.ndarray.clip)
def _clip_method_rrule(a, *bounds, min=None, max=None):
    return rrule(np.clip, a, *bounds, min=min, max=max)


@frule.register(np.ndarray.clip)
def _clip_method_frule(tangents, a, *bounds, min=None, max=None):
    return frule(tangents, np.clip, a, *bounds, min=min, max=max)


# ---- real_if_close --------------------------------------------------------------------------
# When the imaginary parts are negligible the result is np.real(x), with its rule; otherwise x
# is returned unchanged and the rule is the identity.


@rrule.register(np.real_if_close)
def _real_if_close_rrule(a, *tol_arg, tol=100):
    y = np.real_if_close(a, *tol_arg) if tol_arg else np.real_if_close(a, tol=tol)
    project_a = ProjectTo(a)
    no_tangents = (NO_TANGENT,) * len(tol_arg)

    def real_if_close_pullback(dy):
        return NO_TANGENT, project_a(dy), *no_tangents

    return y, real_if_close_pullback


@frule.register(np.real_if_close)
def _real_if_close_frule(tangents, a, *tol_arg, tol=100):
    y = np.real_if_close(a, *tol_arg) if tol_arg else np.real_if_close(a, tol=tol)
    da = tangents[1]
    if is_zero(da):
        return y, ProjectTo(y)(ZERO_TANGENT)
    return y, ProjectTo(y)(da)
