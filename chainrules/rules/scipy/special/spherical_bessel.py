"""Rules for the spherical Bessel functions ``spherical_jn yn in kn`` of ``scipy.special``.

The derivative in ``z`` is ``(n f_{n-1} -+ (n+1) f_{n+1}) / (2n+1)`` (DLMF 10.51.2, 10.51.4;
no division by ``z``, unlike SciPy's ``derivative=True``, which cancels at small ``z``), and
the derivative of that the same recurrence of those derivatives,
written through functions with rules so pullbacks differentiate again. The integer order
``n`` has no tangent.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.spherical_jn, 0, 0.0)
>>> abs(float(pullback(1.0)[2]))  # j0'(0) = -j1(0)
0.0
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ...._compat import scipy_private_ufunc
from ....core.dtypes import is_complex
from ....core.namespace import is_numpy
from ....core.parametric import parametric_rule

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
    if is_numpy(n, z):
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

    def recurrence(n: Any, z: Any, derivative: bool) -> Any:
        # f_n' from the values f_{n-1}, f_{n+1}: SciPy's derivative=True is no better than
        # f_{n-1} - (n+1)/z f_n, which cancels at small z (spherical_in(1, 1e-200, True) = 1,
        # true 1/3); f_n'' likewise from the f'_{n+-1} of this recurrence.
        def slope(m: Any) -> Any:
            return first_derivative(m, z) if derivative else _spherical(f, m, z, False)

        lower, upper = slope(np.maximum(np.subtract(n, 1), 0)), slope(np.add(n, 1))
        # n f_{n-1} is 0 at n = 0, also where f_0 is infinite (yn, kn at 0).
        lower = np.where(np.greater(n, 0), np.multiply(n, lower), 0.0)
        return outer * (lower + inner * np.add(n, 1) * upper) / np.add(np.multiply(2, n), 1)

    def first_derivative(n: Any, z: Any, y: Any = None) -> Any:
        return recurrence(n, z, False)

    def second_derivative(n: Any, z: Any, y: Any = None) -> Any:
        return recurrence(n, z, True)

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
