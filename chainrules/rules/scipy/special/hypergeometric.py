"""Rules for the confluent and Gauss hypergeometric functions ``hyp1f1`` and ``hyp2f1``.

Derivatives in the argument are hypergeometric functions again (DLMF 13.3.15, 15.5.1):
``d/dx 1F1(a; b; x) = a/b 1F1(a+1; b+1; x)`` and
``d/dz 2F1(a, b; c; z) = ab/c 2F1(a+1, b+1; c+1; z)``, holomorphic in complex ``x``/``z``.

Derivatives in the parameters have no closed form. Those of ``hyp1f1`` in ``a`` and ``b``
are summed from the differentiated power series (after Kummer's transformation for x < 0),
for real arguments, and thunked; at complex ``x`` they are ``NotImplementedTangent``. Those of
``hyp2f1`` in ``a``, ``b``, ``c`` are ``NotImplementedTangent``: the pullback returns it for
those arguments and the frule returns it whenever a parameter's tangent is not zero.
``scipy.special`` computes on NumPy arrays only.

``hyperu'(x) = -a U(a+1, b+1, x)`` (DLMF 13.3.22) and Wright's generalized Bessel function
``wright_bessel'(x) = Phi(a, a+b, x)`` (and ``log_wright_bessel``); their derivatives in the
parameters are ``NotImplementedTangent``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.hyp1f1, 1.0, 1.0, 0.5)  # exp(x)
>>> round(float(pullback(1.0)[3]), 12)
1.6487212707
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.dtypes import is_complex
from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented

_NO_FORMULA = "no closed form, not implemented"


def _parameter(name: str, function: str) -> object:
    return not_implemented(
        f"derivative of {function} in the parameter {name} (no closed form; not implemented)"
    )


_MAX_TERMS = 5000


def _hyp1f1_series_da_db(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """d/da and d/db of sum_n t_n, t_n = (a)_n / (b)_n x**n / n!, for x >= 0.

    The derivatives of the terms follow the terms' own recurrence, so a non-positive integer
    ``a`` (a polynomial) needs no special case. Terms are all of one sign once n > -a, -b;
    the sum stops when they no longer change it (NaN after 5000 terms).
    """
    t, da_t, db_t = np.ones_like(x), np.zeros_like(x), np.zeros_like(x)
    da, db = np.zeros_like(x), np.zeros_like(x)
    for n in range(_MAX_TERMS):
        da, db = da + da_t, db + db_t
        ratio = x / ((b + n) * (n + 1))
        step = (a + n) * ratio
        t, da_t, db_t = (
            t * step,
            da_t * step + t * ratio,
            db_t * step - t * step / (b + n),
        )
        settled = (np.abs(da_t) <= 1e-17 * np.abs(da)) & (np.abs(db_t) <= 1e-17 * np.abs(db))
        if n > 2 and np.all(settled | (t == 0) & (da_t == 0) & (db_t == 0)):
            return da, db
    return np.full_like(x, np.nan), np.full_like(x, np.nan)


def hyp1f1_da_db(a: Any, b: Any, x: Any) -> tuple[Any, Any]:
    """The derivatives of ``hyp1f1(a, b, x)`` in ``a`` and ``b``, for real arguments.

    Power series for x >= 0; for x < 0 Kummer's transformation
    M(a, b, x) = exp(x) M(b - a, b, -x) first, so the series never alternates.

    >>> da, db = hyp1f1_da_db(1.0, 1.0, 0.5)
    >>> round(float(da), 12), round(float(db), 12)
    (0.731771876673, -0.731771876673)
    """
    a, b, x = np.broadcast_arrays(*(np.asarray(v, dtype=float) for v in (a, b, x)))
    flip = x < 0
    a_s = np.where(flip, b - a, a)
    x_s = np.abs(x)
    da_s, db_s = _hyp1f1_series_da_db(a_s, b, x_s)
    scale = np.exp(np.where(flip, x, 0.0))
    da = np.where(flip, -scale * da_s, da_s)
    db = np.where(flip, scale * (da_s + db_s), db_s)
    return (da[()], db[()]) if da.ndim == 0 else (da, db)


def _hyp1f1_parameter(which: int, name: str) -> Any:
    reason = f"derivative of hyp1f1 in the parameter {name} at complex x (not implemented)"

    def hyp1f1_parameter_partial(a: Any, b: Any, x: Any, y: Any) -> Any:
        if is_complex(x):
            return not_implemented(reason)
        return hyp1f1_da_db(a, b, x)[which]

    return hyp1f1_parameter_partial


# ---- confluent: 1F1(a; b; x) ----------------------------------------------------------------

parametric_rule(
    sc.hyp1f1,
    _hyp1f1_parameter(0, "a"),
    _hyp1f1_parameter(1, "b"),
    lambda a, b, x, y: np.divide(a, b) * sc.hyp1f1(np.add(a, 1), np.add(b, 1), x),
    costly=(0, 1),
)

# ---- Gauss: 2F1(a, b; c; z) -----------------------------------------------------------------

parametric_rule(
    sc.hyp2f1,
    _parameter("a", "hyp2f1"),
    _parameter("b", "hyp2f1"),
    _parameter("c", "hyp2f1"),
    lambda a, b, c, z, y: (
        np.multiply(a, b) / c * sc.hyp2f1(np.add(a, 1), np.add(b, 1), np.add(c, 1), z)
    ),
)

# ---- confluent U and Wright's generalized Bessel function --------------------------------

parametric_rule(
    sc.hyperu,
    not_implemented(f"derivative of hyperu in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of hyperu in b: {_NO_FORMULA}"),
    lambda a, b, x, y: -a * sc.hyperu(np.add(a, 1), np.add(b, 1), x),
)
parametric_rule(
    sc.wright_bessel,
    not_implemented(f"derivative of wright_bessel in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of wright_bessel in b: {_NO_FORMULA}"),
    lambda a, b, x, y: sc.wright_bessel(a, np.add(a, b), x),
)
parametric_rule(
    sc.log_wright_bessel,
    not_implemented(f"derivative of log_wright_bessel in a: {_NO_FORMULA}"),
    not_implemented(f"derivative of log_wright_bessel in b: {_NO_FORMULA}"),
    lambda a, b, x, y: np.exp(sc.log_wright_bessel(a, np.add(a, b), x) - y),
)
