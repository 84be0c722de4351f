"""The Lamé polynomials behind SciPy's ellipsoidal harmonics, with their derivatives.

SciPy's ``ellip_harm(h2, k2, n, p, s)`` is ``E(s) = sigma s^e R(s) P(1 - s^2/h2)``: a sign
``sigma`` (``signm``, ``signn``), ``e`` 0 or 1, ``R`` the product of ``sqrt|s^2 - h2|``
and/or ``sqrt|s^2 - k2|`` as the type (K, L, M, N) of ``(n, p)`` asks, and ``P`` a
polynomial whose coefficients ``b`` are an eigenvector of a tridiagonal matrix ``A``, linear
in ``(h2, k2)`` (Romain's recurrences; Dassios, *Ellipsoidal Harmonics*, 2012), scaled so
that ``P`` is monic in ``s^2``. This module rebuilds ``b`` and differentiates:

* in ``s``, the product form (NaN at the cusps ``s^2 = h2, k2`` of the types that carry
  those square roots);
* in ``h2`` and ``k2``, the eigenvector: ``(A - a) db - da b = -dA b``, with the change of
  the last coefficient fixed by the scaling, one bordered linear solve per parameter;
* the normalization ``ellip_normal``, ``8 int_0^h int_h^k (y^2 - x^2) E(y)^2 E(x)^2 /
  sqrt((k^2-y^2)(y^2-h^2)(h^2-x^2)(k^2-x^2))``: with ``x = h sin(alpha)`` and
  ``y^2 = h^2 cos^2(beta) + k^2 sin^2(beta)`` it is the integral of an analytic function over
  a fixed square, differentiated under the integral sign and summed by Gauss-Legendre rules.

Everything here computes on NumPy values, except that ``lame_terms`` evaluates at any
``s`` (an engine's tracked values included) in array operations.

>>> lame = lame_polynomial(5.0, 8.0, 2, 1)  # E = s^2 - (h2 + k2 + sqrt(h2^2 - h2 k2 + k2^2))/3
>>> [round(float(t), 6) for t in lame_terms(lame, 2.0)]  # E, dE/ds, dE/dh2, dE/dk2
[-2.666667, 4.0, -0.380952, -0.595238]
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = [
    "LamePolynomial",
    "lame_polynomial",
    "lame_terms",
    "lame_terms_at",
    "normal_with_slopes",
    "safe_polynomial",
]


@dataclass(frozen=True)
class LamePolynomial:
    """The Lamé polynomial of ``(h2, k2, n, p)`` and its derivatives in ``h2`` and ``k2``.

    ``kind`` is K, L, M or N; ``power`` the exponent ``e`` of ``s``; ``b`` the coefficients of
    ``P`` in ``lambda = 1 - s^2/h2`` (constant first); ``db[0]``, ``db[1]`` their derivatives
    in ``h2`` and ``k2``.
    """

    kind: str
    power: int
    h2: float
    k2: float
    b: np.ndarray
    db: np.ndarray

    @property
    def roots(self) -> tuple[int, ...]:
        """Which of ``h2`` (0) and ``k2`` (1) enter ``R`` as ``sqrt|s^2 - c|``."""
        return {"K": (), "L": (0,), "M": (1,), "N": (0, 1)}[self.kind]


def _kind(n: int, p: int) -> tuple[str, int, int]:
    """The type, the rank of the eigenvalue (from 1) and the size of the matrix."""
    r = n // 2
    if p - 1 < r + 1:
        return "K", p, r + 1
    if p - 1 < (n - r) + (r + 1):
        return "L", p - (r + 1), n - r
    if p - 1 < 2 * (n - r) + (r + 1):
        return "M", p - (n - r) - (r + 1), n - r
    return "N", p - 2 * (n - r) - (r + 1), r


def _recurrence(h2: float, k2: float, n: int, kind: str, size: int) -> tuple:
    """Diagonal, upper and lower diagonals of ``A``: linear in ``(alpha, beta, gamma)``."""
    r, j = n // 2, np.arange(size, dtype=float)
    alpha, beta = h2, k2 - h2
    gamma = alpha - beta
    odd = n % 2 == 1
    if kind == "K":
        upper = -(2 * j + 2) * (2 * j + 1) * beta
        lower = -alpha * (2 * r - 2 * j) * (2 * r + 2 * j + (3 if odd else 1))
        if odd:
            diagonal = ((2 * r + 1) * (2 * r + 2) - 4 * j * j) * alpha + (2 * j + 1) ** 2 * beta
        else:
            diagonal = 2 * r * (2 * r + 1) * alpha - 4 * j * j * gamma
    elif kind == "L":
        upper = -(2 * j + 2) * (2 * j + 3) * beta
        lower = -alpha * (2 * r - 2 * j - (0 if odd else 2)) * (2 * r + 2 * j + 3)
        if odd:
            diagonal = (2 * r + 1) * (2 * r + 2) * alpha - (2 * j + 1) ** 2 * gamma
        else:
            diagonal = (2 * r * (2 * r + 1) - (2 * j + 1) ** 2) * alpha + (2 * j + 2) ** 2 * beta
    elif kind == "M":
        upper = -(2 * j + 2) * (2 * j + 1) * beta
        lower = -alpha * (2 * r - 2 * j - (0 if odd else 2)) * (2 * r + 2 * j + 3)
        if odd:
            diagonal = ((2 * r + 1) * (2 * r + 2) - (2 * j + 1) ** 2) * alpha + 4 * j * j * beta
        else:
            diagonal = 2 * r * (2 * r + 1) * alpha - (2 * j + 1) ** 2 * gamma
    else:
        upper = -(2 * j + 2) * (2 * j + 3) * beta
        lower = -alpha * (2 * r - 2 * j - 2) * (2 * r + 2 * j + (5 if odd else 3))
        if odd:
            diagonal = (2 * r + 1) * (2 * r + 2) * alpha - (2 * j + 2) ** 2 * gamma
        else:
            diagonal = (2 * r * (2 * r + 1) - (2 * j + 2) ** 2) * alpha + (2 * j + 1) ** 2 * beta
    return diagonal, upper[:-1], lower[:-1]


def _matrix(h2: float, k2: float, n: int, kind: str, size: int) -> np.ndarray:
    diagonal, upper, lower = _recurrence(h2, k2, n, kind, size)
    return np.diag(diagonal) + np.diag(upper, 1) + np.diag(lower, -1)


@functools.lru_cache(maxsize=256)
def lame_polynomial(h2: float, k2: float, n: int, p: int) -> LamePolynomial:
    """The coefficients of ``ellip_harm(h2, k2, n, p, .)`` and their parameter derivatives.

    The tridiagonal ``A`` is made symmetric by a diagonal similarity (its off-diagonal
    products are positive for ``0 < h2 < k2``), the eigenvalue of rank ``p`` within the type
    taken in increasing order, as SciPy does.

    >>> lame = lame_polynomial(5.0, 8.0, 2, 1)  # P = s^2 - 20/3, in lambda = 1 - s^2/5
    >>> lame.kind, lame.b.round(6).tolist()
    ('K', [-1.666667, -5.0])
    """
    kind, rank, size = _kind(n, p)
    diagonal, upper, lower = _recurrence(h2, k2, n, kind, size)
    scale = np.concatenate([[1.0], np.cumprod(np.sqrt(upper / lower))])
    off = upper * scale[:-1] / scale[1:]
    values, vectors = np.linalg.eigh(np.diag(diagonal) + np.diag(off, 1) + np.diag(off, -1))
    eigenvalue, b = values[rank - 1], vectors[:, rank - 1] / scale
    last = (-h2) ** (size - 1)
    b = b * (last / b[-1])
    a = _matrix(h2, k2, n, kind, size)
    bordered = np.zeros((size + 1, size + 1))
    bordered[:size, :size] = a - eigenvalue * np.eye(size)
    bordered[:size, size] = -b
    bordered[size, size - 1] = 1.0
    # A is linear and homogeneous in (h2, k2): its derivatives are A at (1, 0) and (0, 1).
    last_slopes = ((size - 1) * last / h2 if size > 1 else 0.0, 0.0)
    db = np.empty((2, size))
    for i, unit in enumerate(((1.0, 0.0), (0.0, 1.0))):
        rhs = np.concatenate([-_matrix(*unit, n, kind, size) @ b, [last_slopes[i]]])
        db[i] = np.linalg.solve(bordered, rhs)[:size]
    power = n - 2 * (n // 2) if kind in "KN" else 1 - n + 2 * (n // 2)
    return LamePolynomial(kind, power, h2, k2, b, db)


def _horner(coefficients: np.ndarray, x: Any) -> Any:
    total = 0 * x + coefficients[-1]
    for c in coefficients[-2::-1]:
        total = total * x + c
    return total


def _slope(coefficients: np.ndarray) -> np.ndarray:
    """Coefficients of the derivative of the polynomial with these coefficients."""
    if coefficients.size == 1:
        return np.zeros(1)
    return coefficients[1:] * np.arange(1, coefficients.size)


def _sign(lame: LamePolynomial, signm: Any, signn: Any) -> Any:
    signs = {"K": 1.0, "L": np.sign(signm), "M": np.sign(signn)}
    return signs.get(lame.kind, np.sign(signm) * np.sign(signn))


def lame_terms(lame: LamePolynomial, s: Any, sign: Any = 1.0) -> tuple[Any, Any, Any, Any]:
    """``E``, ``dE/ds``, ``dE/dh2``, ``dE/dk2`` at ``s`` (partial derivatives, ``s`` fixed)."""
    lam = 1 - s * s / lame.h2
    poly = _horner(lame.b, lam)
    dpoly = _horner(_slope(lame.b), lam)
    root, ds_root, dc_root = 0 * s + 1.0, 0 * s, [0 * s, 0 * s]
    for c in lame.roots:
        u = s * s - (lame.h2, lame.k2)[c]
        q = np.sqrt(np.abs(u))
        # d sqrt|u| = sqrt|u| du / (2u); at the cusp u = 0 this is 0/0: NaN.
        ratio = q / u
        ds_root = ds_root * q + root * s * ratio
        dc_root = [d * q for d in dc_root]
        dc_root[c] = dc_root[c] - root * ratio / 2
        root = root * q
    head = s if lame.power else 0 * s + 1.0
    value = sign * head * root * poly
    ds = sign * (
        lame.power * root * poly + head * (ds_root * poly - root * dpoly * 2 * s / lame.h2)
    )
    dh2 = dc_root[0] * poly + root * (_horner(lame.db[0], lam) + dpoly * s * s / lame.h2**2)
    dk2 = dc_root[1] * poly + root * _horner(lame.db[1], lam)
    return value, ds, sign * head * dh2, sign * head * dk2


def lame_terms_at(
    h2: Any, k2: Any, n: Any, p: Any, s: Any, signm: Any = 1, signn: Any = 1
) -> tuple[Any, Any, Any, Any]:
    """``lame_terms`` over broadcast NumPy parameters; ``s`` may be an engine's array.

    One polynomial per distinct ``(h2, k2, n, p)``; NaN where SciPy's function is NaN
    (``p`` outside ``1..2n+1``, or not ``0 < h2 < k2``).

    >>> [float(t) for t in lame_terms_at(5.0, 8.0, 1, 1, 2.5)]
    [2.5, 1.0, 0.0, 0.0]
    """
    arrays = np.broadcast_arrays(*(np.asarray(a) for a in (h2, k2, n, p)))
    combos = sorted({tuple(c) for c in zip(*(a.ravel().tolist() for a in arrays), strict=True)})
    results: list[Any] = [None] * 4
    for combo in combos:
        lame = safe_polynomial(float(combo[0]), float(combo[1]), int(combo[2]), int(combo[3]))
        if lame is None:
            values: tuple = (0 * s + np.nan,) * 4
        else:
            with np.errstate(all="ignore"):
                values = lame_terms(lame, s, _sign(lame, signm, signn))
        if len(combos) == 1:
            return values
        mask = functools.reduce(
            np.logical_and, (a == v for a, v in zip(arrays, combo, strict=True))
        )
        for i, v in enumerate(values):
            results[i] = np.where(mask, v, np.nan if results[i] is None else results[i])
    return tuple(results)


def safe_polynomial(h2: float, k2: float, n: int, p: int) -> LamePolynomial | None:
    """``lame_polynomial``, or None where SciPy's function is NaN (invalid ``p``, ``h2 >= k2``).

    >>> safe_polynomial(8.0, 5.0, 1, 1) is None
    True
    """
    if not (n >= 0 and 1 <= p <= 2 * n + 1 and 0 < h2 < k2):
        return None
    with np.errstate(all="ignore"):
        return lame_polynomial(h2, k2, n, p)


# ---- the normalization: a double integral over a fixed square ---------------------------------


def _along(lame: LamePolynomial, head: tuple, roots: dict, lam: tuple) -> tuple[Any, Any, Any]:
    """``E`` and its total derivatives in ``h2``, ``k2`` along a change of variables.

    Each of ``head`` (``s^e``), ``roots[c]`` (``u = s^2 - c``) and ``lam`` is a triple
    (value, d/dh2, d/dk2) of the substituted, smooth expressions.
    """
    poly, dpoly = _horner(lame.b, lam[0]), _horner(_slope(lame.b), lam[0])
    value = head[0] * poly
    slopes = [head[1] * poly, head[2] * poly]
    for i in (0, 1):
        slopes[i] = slopes[i] + head[0] * (dpoly * lam[i + 1] + _horner(lame.db[i], lam[0]))
    for c in lame.roots:
        u = roots[c]
        q = np.sqrt(np.abs(u[0]))
        slopes = [s * q + value * q * u[i + 1] / (2 * u[0]) for i, s in enumerate(slopes)]
        value = value * q
    return value, slopes[0], slopes[1]


def _normal_integrand(lame: LamePolynomial, alpha: Any, beta: Any) -> tuple[Any, Any, Any]:
    """The integrand of ``ellip_normal`` in ``(alpha, beta)`` and its ``h2``, ``k2`` slopes."""
    h2, k2 = lame.h2, lame.k2
    sa, ca, sb, cb = np.sin(alpha) ** 2, np.cos(alpha) ** 2, np.sin(beta) ** 2, np.cos(beta) ** 2
    x, y2 = np.sqrt(h2 * sa), h2 * cb + k2 * sb
    y, zero = np.sqrt(y2), 0 * sa
    heads = {
        "x": (x, x / (2 * h2), zero) if lame.power else (zero + 1, zero, zero),
        "y": (y, cb / (2 * y), sb / (2 * y)) if lame.power else (zero + 1, zero, zero),
    }
    ex, ex_h, ex_k = _along(
        lame,
        heads["x"],
        {0: (-h2 * ca, -ca, zero), 1: (h2 * sa - k2, sa, zero - 1)},
        (ca, zero, zero),
    )
    ey, ey_h, ey_k = _along(
        lame,
        heads["y"],
        {0: ((k2 - h2) * sb, -sb, sb), 1: (-(k2 - h2) * cb, cb, -cb)},
        (-(k2 - h2) * sb / h2, k2 * sb / h2**2, -sb / h2),
    )
    gap, v = y2 - h2 * sa, k2 - h2 * sa
    weight = 8 / (y * np.sqrt(v))
    value = gap * ey**2 * ex**2 * weight
    slopes = []
    for dgap, dey, dex, dy2, dv in (
        (cb - sa, ey_h, ex_h, cb, -sa),
        (sb, ey_k, ex_k, sb, zero + 1),
    ):
        product = dgap * ey**2 * ex**2 + gap * 2 * ey * ex * (dey * ex + ey * dex)
        slopes.append(product * weight - value * (dy2 / (2 * y2) + dv / (2 * v)))
    return value, slopes[0], slopes[1]


@functools.lru_cache(maxsize=256)
def normal_with_slopes(h2: float, k2: float, n: int, p: int) -> tuple[float, float, float]:
    """``ellip_normal`` and its derivatives in ``h2``, ``k2``, by Gauss-Legendre rules.

    The integrand is analytic on the square, so the rules converge fast: the number of
    nodes doubles until two successive rules agree to 1e-13.

    >>> [round(t / np.pi, 6) for t in normal_with_slopes(5.0, 8.0, 1, 1)]  # 4 pi h2 k2 / 3
    [53.333333, 10.666667, 6.666667]
    """
    lame = lame_polynomial(h2, k2, n, p)
    previous = None
    for count in (16, 32, 64, 128, 256, 512):
        nodes, weights = np.polynomial.legendre.leggauss(count)
        angles, w = (nodes + 1) * np.pi / 4, weights * np.pi / 4
        alpha, beta = np.meshgrid(angles, angles, indexing="ij")
        terms = np.array(
            [np.einsum("i,ij,j->", w, t, w) for t in _normal_integrand(lame, alpha, beta)]
        )
        if previous is not None and np.all(np.abs(terms - previous) <= 1e-13 * np.abs(terms[0])):
            break
        previous = terms
    return float(terms[0]), float(terms[1]), float(terms[2])
