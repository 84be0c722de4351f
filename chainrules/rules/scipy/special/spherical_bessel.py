"""Rules for the other Bessel-type functions of ``scipy.special``: spherical, Hankel, Airy, Struve.

Derivatives in the argument ``z``, from the recurrences (DLMF 10.6.2, 10.51.2, 10.51.4, 9.2.1,
11.4.23, 11.4.25), each written through functions with rules so pullbacks differentiate again:

* ``spherical_jn yn in kn``: ``f'`` is ``f(n, z, derivative=True)``; the derivative of that is
  ``(n f'_{n-1} -+ (n+1) f'_{n+1}) / (2n+1)`` (no division by ``z``);
* ``hankel1 hankel2``: ``(H_{v-1} - H_{v+1}) / 2``; the scaled ``hankel1e = H1 exp(-iz)`` and
  ``hankel2e = H2 exp(iz)`` add ``-+ i y``;
* ``jvp yvp ivp kvp h1vp h2vp`` (the ``n``-th derivative): the derivative of order ``n + 1``;
  their values are computed here with SciPy's binomial formula written in ufuncs, so that an
  engine's arrays pass through;
* ``jve yve`` (``jv``, ``yv`` times ``exp(-|Im z|)``): holomorphic part plus the real direction
  of ``Im z``, from the real Jacobian, as for ``ive``;
* ``airy``: ``Ai' = Aip``, ``Aip' = z Ai`` (and Bi); ``airye``: plus ``+-sqrt(z)`` times the
  output from the scaling ``exp(+-2/3 z^(3/2))``;
* ``struve modstruve``: ``2 H_v' = H_{v-1} -+ H_{v+1} + (x/2)^v / (sqrt(pi) gamma(v + 3/2))``.

Derivatives in a real order ``v`` (Hankel, ``jve yve``, the ``*vp`` functions) reuse the order
derivatives of J and Y (``bessel.bessel_order_derivative``) at real ``z > 0``, thunked; at
complex ``z`` and for Struve functions they are ``NotImplementedTangent``. Integer orders and
the derivative order ``n`` have no tangent.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.airy, 0.0)
>>> [round(float(p), 6) for p in pullback((1.0, 0.0, 0.0, 0.0))[1:]]  # Ai'(0)
[-0.258819]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ..._compat import scipy_private_ufunc
from ...core.define import fit_to_output, scalar_rule
from ...core.dtypes import is_complex
from ...core.namespace import array_namespace
from ...core.parametric import numpy_only, parametric_rule
from ...core.projection import ProjectTo
from ...core.registry import frule, rrule
from ...core.structure import is_differentiable_leaf
from ...core.tangents import NO_TANGENT, ZERO_TANGENT, AbstractZero, not_implemented
from ...core.thunks import Thunk, unthunk
from ...core.zeros import vanishes
from .bessel import bessel_order_derivative

__all__ = ["bessel_derivative"]

_SQRT_PI = np.sqrt(np.pi)


def _order_not_implemented(name: str) -> Any:
    return not_implemented(
        f"derivative of {name} in the order v at complex z (no usable formula implemented)"
    )


def _real_order_derivative(name: str, v: Any, z: Any, phase: complex = 1.0) -> Any:
    """d/dv of ``jv + phase * i yv``-like combinations, by name: jv, yv, iv, kv, hankel1/2."""
    if name == "hankel1":
        return bessel_order_derivative("jv", v, z) + 1j * bessel_order_derivative("yv", v, z)
    if name == "hankel2":
        return bessel_order_derivative("jv", v, z) - 1j * bessel_order_derivative("yv", v, z)
    return bessel_order_derivative(name, v, z)


# ---- spherical Bessel functions -------------------------------------------------------------

# function: (its value ufunc, its derivative ufunc, sign of the (n+1) term, overall sign) in
# f' = s (n f_{n-1} + t (n+1) f_{n+1}) / (2n+1)
_SPHERICAL = {
    f: (scipy_private_ufunc(f"_{f.__name__}"), scipy_private_ufunc(f"_{f.__name__}_d"), t, s)
    for f, t, s in (
        (sc.spherical_jn, -1.0, 1.0),
        (sc.spherical_yn, -1.0, 1.0),
        (sc.spherical_in, 1.0, 1.0),
        (sc.spherical_kn, 1.0, -1.0),
    )
}


# The parity of j_n and i_n: f(n, -z) = (-1)**n f(n, z) for real z (DLMF 10.47(v)).
_REFLECTED = (sc.spherical_jn, sc.spherical_in)


def _spherical(f: Any, n: Any, z: Any, derivative: Any) -> Any:
    """``f(n, z, derivative)``; on an engine's arrays, SciPy's ufunc behind ``f`` (it has a rule).

    SciPy's Python wrapper converts its input to NumPy, and reflects negative real ``z``, where
    the ufuncs behind it are NaN; the reflection is repeated here for ``jn`` and ``in``, while
    ``kn`` stays NaN at negative real ``z`` on an engine's arrays.
    """
    if array_namespace(n, z) is np:
        return f(n, z, derivative=bool(derivative))
    value, slope = _SPHERICAL[f][:2]
    ufunc = slope if derivative else value
    if ufunc is None:
        raise TypeError(
            f"{f.__name__} on {type(z).__name__} values needs the ufunc SciPy computes it with "
            "(scipy.special._ufuncs), which this release of SciPy does not have"
        )
    if f not in _REFLECTED or is_complex(z):
        return ufunc(n, z)
    negative = np.less(z, 0)
    parity = np.where(np.remainder(n, 2) == 0, 1.0, -1.0)
    # d/dz f(n, -z) flips the sign once more.
    sign = np.where(negative, -parity if derivative else parity, 1.0)
    return sign * ufunc(n, np.where(negative, -z, z))


def _spherical_rules(f: Any) -> None:
    value, slope, inner, outer = _SPHERICAL[f]

    def second_derivative(n: Any, z: Any, y: Any) -> Any:
        lower = _spherical(f, np.maximum(np.subtract(n, 1), 0), z, True)
        upper = _spherical(f, np.add(n, 1), z, True)
        return outer * (n * lower + inner * np.add(n, 1) * upper) / np.add(np.multiply(2, n), 1)

    def first_derivative(n: Any, z: Any, y: Any) -> Any:
        return _spherical(f, n, z, True)

    def spherical_partial(n: Any, z: Any, *rest: Any) -> Any:
        derivative = len(rest) == 2 and rest[0]
        return (second_derivative if derivative else first_derivative)(n, z, rest[-1])

    def spherical_forward(n: Any, z: Any, derivative: Any = False) -> Any:
        return _spherical(f, n, z, derivative)

    spherical_partial.__qualname__ = f"{f.__name__}_partial"
    parametric_rule(
        f,
        None,
        spherical_partial,
        None,
        required=2,
        keywords=("derivative",),
        forward=spherical_forward,
    )
    if value is not None and slope is not None:
        parametric_rule(value, None, first_derivative)
        parametric_rule(slope, None, second_derivative)


for _f in _SPHERICAL:
    _spherical_rules(_f)

# ---- Hankel functions -----------------------------------------------------------------------


def _hankel_order_partial(name: str, scale: Any) -> Callable[..., Any]:
    def hankel_order_partial(v: Any, z: Any, y: Any) -> Any:
        if is_complex(z):
            return _order_not_implemented(name)
        return _real_order_derivative(name.removesuffix("e"), v, z) * scale(z)

    hankel_order_partial.__qualname__ = f"{name}_order_partial"
    return hankel_order_partial


def _hankel_partial(f: Any, rotation: complex) -> Callable[..., Any]:
    def hankel_partial(v: Any, z: Any, y: Any) -> Any:
        recurrence = (f(np.subtract(v, 1), z) - f(np.add(v, 1), z)) / 2
        return recurrence + rotation * y if rotation else recurrence

    hankel_partial.__qualname__ = f"{f.__name__}_partial"
    return hankel_partial


def _unscaled(z: Any) -> float:
    return 1.0


_HANKEL = {
    sc.hankel1: (0, _unscaled),
    sc.hankel2: (0, _unscaled),
    sc.hankel1e: (-1j, lambda z: np.exp(-1j * z)),
    sc.hankel2e: (1j, lambda z: np.exp(1j * z)),
}
for _f, (_rotation, _scale) in _HANKEL.items():
    parametric_rule(
        _f,
        _hankel_order_partial(_f.__name__, _scale),
        _hankel_partial(_f, _rotation),
        costly=(0,),
    )

# ---- derivatives of Bessel functions: jvp yvp ivp kvp h1vp h2vp ------------------------------


def bessel_derivative(f: Any, v: Any, z: Any, n: int) -> Any:
    """The ``n``-th derivative in ``z`` of the Bessel function ``f`` (jv yv iv kv hankel1 hankel2).

    The binomial formula of ``scipy.special.jvp`` (DLMF 10.6.7, 10.29.5) in ufuncs only:
    ``2**-n sum_i (+-1)**i C(n, i) f(v - n + 2i, z)``, times ``(-1)**n`` for ``kv``.

    >>> import scipy.special as sc
    >>> bool(np.isclose(bessel_derivative(sc.jv, 0.0, 1.5, 1), -sc.j1(1.5)))
    True
    """
    return _binomial_sum(f, v, z, n, _phase(f)) * _sign(f, n)


def _phase(f: Any) -> float:
    return 1.0 if f in (sc.iv, sc.kv) else -1.0


def _sign(f: Any, n: int) -> float:
    return -1.0 if f is sc.kv and n % 2 else 1.0


def _binomial_sum(f: Callable[..., Any], v: Any, z: Any, n: int, phase: float) -> Any:
    coefficient = 1.0
    total = f(np.subtract(v, n), z)
    for i in range(1, n + 1):
        coefficient = phase * coefficient * (n - i + 1) / i
        total = total + coefficient * f(np.add(np.subtract(v, n), 2 * i), z)
    return total / 2.0**n


def _derivative_order(rest: tuple) -> int:
    # The partials see (v, z, n, y) when n is given, (v, z, y) otherwise.
    return int(rest[0]) if len(rest) == 2 else 1


def _derivative_rule(g: Any, f: Any) -> None:
    name = g.__name__

    def derivative_forward(v: Any, z: Any, n: int = 1) -> Any:
        if int(n) != n or n < 0:
            return g(v, z, n)  # SciPy's own error for a bad order
        return bessel_derivative(f, v, z, int(n))

    def derivative_z_partial(v: Any, z: Any, *rest: Any) -> Any:
        return bessel_derivative(f, v, z, _derivative_order(rest) + 1)

    def derivative_order_partial(v: Any, z: Any, *rest: Any) -> Any:
        if is_complex(z):
            return _order_not_implemented(name)
        n = _derivative_order(rest)

        def order(w: Any, x: Any) -> Any:
            return _real_order_derivative(f.__name__, w, x)

        return _binomial_sum(order, v, z, n, _phase(f)) * _sign(f, n)

    derivative_z_partial.__qualname__ = f"{name}_partial"
    derivative_order_partial.__qualname__ = f"{name}_order_partial"
    parametric_rule(
        g,
        derivative_order_partial,
        derivative_z_partial,
        None,
        costly=(0,),
        required=2,
        keywords=("n",),
        forward=derivative_forward,
    )


for _g, _f in (
    (sc.jvp, sc.jv),
    (sc.yvp, sc.yv),
    (sc.ivp, sc.iv),
    (sc.kvp, sc.kv),
    (sc.h1vp, sc.hankel1),
    (sc.h2vp, sc.hankel2),
):
    _derivative_rule(_g, _f)

# ---- jve, yve: exp(-|Im z|) makes them non-holomorphic ---------------------------------------


def _scaled_rules(f: Any, order: str) -> None:
    """The rrule and frule of ``f(v, z) = g(v, z) exp(-|Im z|)`` with ``g`` holomorphic in z."""
    name = f"scipy.special.{f.__name__}"

    def holomorphic_part(v: Any, z: Any) -> Any:
        return (f(np.subtract(v, 1), z) - f(np.add(v, 1), z)) / 2

    def order_partial(v: Any, z: Any) -> Any:
        if is_complex(z):
            return _order_not_implemented(f.__name__)
        return bessel_order_derivative(order, v, z)

    def scaled_rrule(v: Any, z: Any) -> tuple[Any, Any]:
        y = f(v, z)
        project_v, project_z = ProjectTo(v), ProjectTo(z)
        v_active = is_differentiable_leaf(v)

        def scaled_pullback(dy: Any) -> tuple[Any, ...]:
            dy = unthunk(dy)
            if isinstance(dy, AbstractZero):
                return NO_TANGENT, project_v(ZERO_TANGENT), project_z(ZERO_TANGENT)
            # The real Jacobian: g' in both directions, and -sign(Im z) y in the direction Im z.
            sign = np.sign(np.imag(z))
            dz = np.conj(holomorphic_part(v, z)) * dy - 1j * sign * np.real(np.conj(y) * dy)
            if not is_complex(z):
                dz = np.real(dz)
            dv: Any = NO_TANGENT
            if v_active and array_namespace(v, z, dy) is not np:
                dv = numpy_only(name, 0)
            elif v_active and is_complex(z):
                dv = _order_not_implemented(f.__name__)
            elif v_active:
                dv = Thunk(lambda: project_v(order_partial(v, z) * dy))
            return NO_TANGENT, dv, project_z(dz)

        return y, scaled_pullback

    def scaled_frule(tangents: tuple, v: Any, z: Any) -> tuple[Any, Any]:
        y = f(v, z)
        dv, dz = unthunk(tangents[1]), unthunk(tangents[2])
        total: Any = ZERO_TANGENT
        if is_differentiable_leaf(v) and not vanishes(dv):
            numeric = array_namespace(v, z, dv) is np
            d = order_partial(v, z) if numeric else numpy_only(name, 0)
            if is_complex(z) or not numeric:
                return y, d
            total = total + d * dv
        if not isinstance(dz, AbstractZero):
            sign = np.sign(np.imag(z))
            total = total + holomorphic_part(v, z) * dz - sign * y * np.imag(dz)
        if isinstance(total, AbstractZero):
            return y, total
        return y, fit_to_output(total, y)

    scaled_rrule.__qualname__ = f"rrule[{f.__name__}]"
    scaled_frule.__qualname__ = f"frule[{f.__name__}]"
    rrule.register(f)(scaled_rrule)
    frule.register(f)(scaled_frule)


_scaled_rules(sc.jve, "jv")
_scaled_rules(sc.yve, "yv")

# ---- Airy functions -------------------------------------------------------------------------

scalar_rule(
    sc.airy,
    (lambda z, y: y[1],),
    (lambda z, y: z * y[0],),
    (lambda z, y: y[3],),
    (lambda z, y: z * y[2],),
)


def _airye_root(z: Any) -> Any:
    """d/dz of 2/3 z^(3/2): sqrt(z), and 0 for real z < 0, where the exponent is imaginary."""
    return np.sqrt(z) if is_complex(z) else np.sqrt(np.maximum(z, 0))


def _airye_bi_root(z: Any) -> Any:
    # exp(-|Re 2/3 z^(3/2)|) is not holomorphic: a complex partial would be wrong, so NaN.
    if is_complex(z):
        return np.full(np.shape(z), np.nan)
    return _airye_root(z)


scalar_rule(
    sc.airye,
    (lambda z, y: y[1] + _airye_root(z) * y[0],),
    (lambda z, y: z * y[0] + _airye_root(z) * y[1],),
    (lambda z, y: y[3] - _airye_bi_root(z) * y[2],),
    (lambda z, y: z * y[2] - _airye_bi_root(z) * y[3],),
)

# ---- Struve functions -----------------------------------------------------------------------


def _struve_term(v: Any, x: Any) -> Any:
    """(x/2)^v / (sqrt(pi) gamma(v + 3/2)), the term that the Struve recurrences add to Bessel's."""
    return np.power(x / 2, v) * sc.rgamma(np.add(v, 1.5)) / _SQRT_PI


_STRUVE_ORDER = not_implemented(
    "derivative of a Struve function in the order v: no closed form, not implemented"
)
parametric_rule(
    sc.struve,
    _STRUVE_ORDER,
    lambda v, x, y: (
        (sc.struve(np.subtract(v, 1), x) - sc.struve(np.add(v, 1), x) + _struve_term(v, x)) / 2
    ),
)
parametric_rule(
    sc.modstruve,
    _STRUVE_ORDER,
    lambda v, x, y: (
        (sc.modstruve(np.subtract(v, 1), x) + sc.modstruve(np.add(v, 1), x) + _struve_term(v, x))
        / 2
    ),
)
