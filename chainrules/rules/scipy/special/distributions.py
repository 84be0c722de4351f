"""Rules for distribution functions built on the incomplete gamma and beta functions.

``chdtr(v, x) = gammainc(v/2, x/2)``, ``gdtr(a, b, x) = gammainc(b, a x)``,
``pdtr(k, m) = gammaincc(floor(k) + 1, m)`` and ``stdtr(df, t)`` (through ``betainc``), with
their complements. Derivatives in the argument are densities; derivatives in the shape
parameters come from ``incomplete`` (quadrature on NumPy values, thunked). ``pdtr`` takes the
integer part of ``k``, so its derivative in ``k`` is 0. ``scipy.special`` computes on NumPy
arrays only.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.chdtr, 2.0, 1.0)  # 1 - exp(-x/2)
>>> round(float(pullback(1.0)[2]), 12)
0.303265329856
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ...core.parametric import parametric_rule
from .incomplete import betainc_da_db, gammainc_da


def gamma_density(a: Any, x: Any) -> Any:
    return np.exp(sc.xlogy(np.subtract(a, 1), x) - x - sc.gammaln(a))


def student_density(df: Any, t: Any) -> Any:
    log_norm = sc.gammaln((df + 1) / 2) - sc.gammaln(df / 2) - np.log(df * np.pi) / 2
    return np.exp(log_norm - (df + 1) / 2 * np.log1p(t * t / df))


def stdtr_ddf(df: Any, t: Any, y: Any) -> Any:
    """The derivative of ``stdtr(df, t)`` in ``df``.

    For ``t >= 0``, ``stdtr = 1/2 + betainc(1/2, df/2, w) / 2`` with ``w = t^2/(df + t^2)``
    (and ``1 - betainc(df/2, 1/2, 1 - w) / 2``, the same): both forms are differentiated, each
    where its incomplete beta function is accurate, ``w`` small (small ``|t|``) or ``1 - w``
    small (large ``|t|``). ``w`` and ``1 - w = df/(df + t^2)`` are formed apart, so that
    neither rounds to 1; the density's inverse square root is cancelled by hand against
    ``dw/d(df) = -t^2/(df + t^2)^2``. At ``t = 0``, 1/2 for every ``df``: 0.
    """
    zero = np.equal(t, 0)
    t = np.where(zero, 1.0, t)
    t2 = t * t
    w, z = t2 / (df + t2), df / (df + t2)  # z = 1 - w
    half, w, z = np.broadcast_arrays(np.divide(df, 2), w, z)
    small = w < 0.5
    d_parameter = np.empty(w.shape)
    d_parameter[small] = betainc_da_db(0.5, half[small], w[small])[1]
    d_parameter[~small] = -betainc_da_db(half[~small], 0.5, z[~small])[0]
    # the density of w times dw/d(df): -|t| z^(df/2 - 1) / (B(df/2, 1/2) (df + t^2)^(3/2))
    slope = np.exp(sc.xlogy(df / 2 - 1, z) - sc.betaln(df / 2, 0.5)) * np.abs(t) / (df + t2) ** 1.5
    return np.where(zero, 0.0, np.sign(t) * (d_parameter / 2 - slope) / 2)


# ---- chi-squared and gamma ------------------------------------------------------------------

parametric_rule(
    sc.chdtr,
    lambda v, x, y: gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2,
    lambda v, x, y: gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2,
    costly=(0,),
)
parametric_rule(
    sc.chdtrc,
    lambda v, x, y: -gammainc_da(np.divide(v, 2), np.divide(x, 2)) / 2,
    lambda v, x, y: -gamma_density(np.divide(v, 2), np.divide(x, 2)) / 2,
    costly=(0,),
)
parametric_rule(
    sc.gdtr,
    lambda a, b, x, y: x * gamma_density(b, np.multiply(a, x)),
    lambda a, b, x, y: gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: a * gamma_density(b, np.multiply(a, x)),
    costly=(1,),
)
parametric_rule(
    sc.gdtrc,
    lambda a, b, x, y: -x * gamma_density(b, np.multiply(a, x)),
    lambda a, b, x, y: -gammainc_da(b, np.multiply(a, x)),
    lambda a, b, x, y: -a * gamma_density(b, np.multiply(a, x)),
    costly=(1,),
)

# ---- Poisson: the integer part of k ---------------------------------------------------------

parametric_rule(
    sc.pdtr,
    lambda k, m, y: 0.0 * y,
    lambda k, m, y: -gamma_density(np.floor(k) + 1, m),
)
parametric_rule(
    sc.pdtrc,
    lambda k, m, y: 0.0 * y,
    lambda k, m, y: gamma_density(np.floor(k) + 1, m),
)

# ---- Student's t ----------------------------------------------------------------------------

parametric_rule(
    sc.stdtr,
    stdtr_ddf,
    lambda df, t, y: student_density(df, t),
    costly=(0,),
)
