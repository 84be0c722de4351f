"""Rules for the orthogonal polynomials of ``scipy.special``: ``eval_legendre`` and its kin.

The derivative in ``x`` of each polynomial is a polynomial of the next lower degree of the
same or a neighbouring family (DLMF 18.9.15, 18.9.19-21, 18.9.25, 18.9.28, 18.7.9):

* Jacobi: ``P_n^(a,b)' = (n + a + b + 1)/2 P_{n-1}^(a+1,b+1)``; shifted Jacobi
  ``G_n^(p,q)' = n G_{n-1}^(p+2,q+1)``;
* Gegenbauer: ``C_n^(a)' = 2a C_{n-1}^(a+1)``, hence Legendre ``P_n' = C_{n-1}^(3/2)`` and
  Chebyshev ``U_n' = 2 C_{n-1}^(2)``, ``T_n' = n U_{n-1}``;
* Laguerre: ``L_n^(a)' = -L_{n-1}^(a+1)``; Hermite ``H_n' = 2n H_{n-1}``, ``He_n' = n He_{n-1}``;
* the shifted and rescaled forms (``sh_*`` on ``2x - 1``, ``chebyc``, ``chebys`` on ``x/2``)
  by the chain rule.

No formula divides by ``1 - x**2``, so the endpoints ``x = +-1`` are regular, and each
derivative is again a function with a rule, so pullbacks differentiate again. The degree ``n``
is an integer: it has no tangent. The continuous parameters have derivatives that are finite
sums over all lower degrees; the Laguerre one, ``sum_{k < n} L_k^(alpha) / (n - k)``, is
implemented, the others (``alpha`` and ``beta`` of Jacobi, Gegenbauer's ``alpha``, ``p`` and
``q``) are ``NotImplementedTangent`` with the reason. Complex ``x`` is supported
where SciPy accepts it; the polynomials are holomorphic.

``assoc_laguerre(x, n, k)`` is ``eval_genlaguerre(n, k, x)`` with the argument first, and the
same partials: ``-L_{n-1}^{(k+1)}(x)`` in ``x``, the finite sum over lower degrees in ``k``.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.eval_legendre, 2, 1.0)  # P_2 = (3x^2 - 1)/2
>>> float(y), float(pullback(1.0)[2])
(1.0, 3.0)
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.special as sc

from ....core.parametric import parametric_rule
from ....core.tangents import not_implemented

__all__ = ["genlaguerre_dalpha", "genlaguerre_dx"]


def _below(n: Any) -> Any:
    """The degree ``n - 1``, clamped at 0 where ``n = 0`` (whose derivative is masked out)."""
    return np.maximum(np.subtract(n, 1), 0)


def _positive(n: Any) -> Any:
    """1 where the degree is positive, 0 for the constant polynomial of degree 0."""
    return np.greater(n, 0).astype(float)


def _parameter(name: str, parameter: str) -> Any:
    return not_implemented(
        f"derivative of {name} in the parameter {parameter}: a finite sum over all lower "
        "degrees, not implemented"
    )


# ---- Gegenbauer family: Legendre, Chebyshev -------------------------------------------------


def _legendre_dx(n: Any, x: Any, y: Any) -> Any:
    return _positive(n) * sc.eval_gegenbauer(_below(n), 1.5, x)


def _chebyt_dx(n: Any, x: Any, y: Any) -> Any:
    return n * sc.eval_chebyu(_below(n), x)


def _chebyu_dx(n: Any, x: Any, y: Any) -> Any:
    return 2 * _positive(n) * sc.eval_gegenbauer(_below(n), 2.0, x)


def _gegenbauer_dx(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    return 2 * alpha * _positive(n) * sc.eval_gegenbauer(_below(n), np.add(alpha, 1), x)


parametric_rule(sc.eval_legendre, None, _legendre_dx)
parametric_rule(sc.eval_chebyt, None, _chebyt_dx)
parametric_rule(sc.eval_chebyu, None, _chebyu_dx)
parametric_rule(sc.eval_chebyc, None, lambda n, x, y: n * sc.eval_chebys(_below(n), x))
parametric_rule(sc.eval_chebys, None, lambda n, x, y: _chebyu_dx(n, x / 2, y) / 2)
parametric_rule(sc.eval_gegenbauer, None, _parameter("eval_gegenbauer", "alpha"), _gegenbauer_dx)
parametric_rule(sc.eval_sh_legendre, None, lambda n, x, y: 2 * _legendre_dx(n, 2 * x - 1, y))
parametric_rule(sc.eval_sh_chebyt, None, lambda n, x, y: 2 * _chebyt_dx(n, 2 * x - 1, y))
parametric_rule(sc.eval_sh_chebyu, None, lambda n, x, y: 2 * _chebyu_dx(n, 2 * x - 1, y))

# ---- Jacobi ---------------------------------------------------------------------------------


def _jacobi_dx(n: Any, alpha: Any, beta: Any, x: Any, y: Any) -> Any:
    scale = (np.add(n, 1) + np.add(alpha, beta)) / 2
    lower = sc.eval_jacobi(_below(n), np.add(alpha, 1), np.add(beta, 1), x)
    return _positive(n) * scale * lower


def _sh_jacobi_dx(n: Any, p: Any, q: Any, x: Any, y: Any) -> Any:
    return n * sc.eval_sh_jacobi(_below(n), np.add(p, 2), np.add(q, 1), x)


parametric_rule(
    sc.eval_jacobi,
    None,
    _parameter("eval_jacobi", "alpha"),
    _parameter("eval_jacobi", "beta"),
    _jacobi_dx,
)
parametric_rule(
    sc.eval_sh_jacobi,
    None,
    _parameter("eval_sh_jacobi", "p"),
    _parameter("eval_sh_jacobi", "q"),
    _sh_jacobi_dx,
)

# ---- Laguerre and Hermite -------------------------------------------------------------------


def genlaguerre_dx(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    return -_positive(n) * sc.eval_genlaguerre(_below(n), np.add(alpha, 1), x)


def genlaguerre_dalpha(n: Any, alpha: Any, x: Any, y: Any) -> Any:
    """``sum_{k < n} L_k^(alpha)(x) / (n - k)``, the derivative in ``alpha`` for integer ``n``."""
    degrees = np.asarray(n)
    if np.any(degrees != np.floor(degrees)):
        return _parameter("eval_genlaguerre", "alpha at a non-integer degree")
    total = 0 * y
    for k in range(int(np.max(degrees, initial=0))):
        weight = np.greater(degrees, k) / np.maximum(degrees - k, 1)
        total = total + weight * sc.eval_genlaguerre(k, alpha, x)
    return total


parametric_rule(sc.eval_laguerre, None, lambda n, x, y: genlaguerre_dx(n, 0.0, x, y))
parametric_rule(sc.eval_genlaguerre, None, genlaguerre_dalpha, genlaguerre_dx)
parametric_rule(sc.eval_hermite, None, lambda n, x, y: 2 * n * sc.eval_hermite(_below(n), x))
parametric_rule(sc.eval_hermitenorm, None, lambda n, x, y: n * sc.eval_hermitenorm(_below(n), x))

# ---- generalized Laguerre polynomials, argument first ------------------------------------------


def _laguerre_dx(x: Any, n: Any, *rest: Any) -> Any:
    """``d/dx L_n^(k)(x) = -L_{n-1}^(k+1)(x)``; ``rest`` is ``(k, y)`` or ``(y,)``."""
    k = rest[0] if len(rest) == 2 else 0.0
    return genlaguerre_dx(n, k, x, rest[-1])


def _laguerre_dk(x: Any, n: Any, k: Any, y: Any) -> Any:
    return genlaguerre_dalpha(n, k, x, y)


parametric_rule(sc.assoc_laguerre, _laguerre_dx, None, _laguerre_dk, keywords=("k",), required=2)
