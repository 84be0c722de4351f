"""``Jet``: a value with its first and second derivatives in a few parameters, on NumPy arrays.

The parameter derivatives of special functions (``hyp2f1`` in ``a``, ``b``, ``c``) come from
series, recurrences and differential equations in the parameters. Written once on jets, each
such method gives the value, the gradient and the Hessian in the parameters together, exactly
as the term-by-term derivatives would (forward-mode arithmetic truncated at second order), and
transformations of the parameters (``c - b`` in Pfaff's transformation, ``m - v`` and
``m + v + 1`` for a Legendre function) carry their derivatives by the chain rule.

A jet in ``k`` parameters holds ``value`` (shape ``S``), ``gradient`` (``(k,) + S``) and
``hessian`` (``(k, k) + S``, or ``None`` at first order, which skips its cost). Operations
broadcast like NumPy's (a jet's derivatives with its value); a plain number or array is a
constant. Values may be complex; the
gamma-function family takes real jets.

>>> a = Jet.seed(2.0, 0, 1)             # the parameter a = 2, its own derivative 1
>>> y = a * a * a                        # a**3: 8, 12, 12
>>> float(y.value), float(y.gradient[0]), float(y.hessian[0, 0])
(8.0, 12.0, 12.0)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

__all__ = [
    "Jet",
    "as_array",
    "as_jet",
    "broadcast_jets",
    "compose",
    "gradient_of",
    "hessian_of",
    "jet_exp",
    "jet_gammaln",
    "jet_log",
    "jet_power",
    "jet_rgamma",
    "jet_where",
    "parameter_jets",
    "sum_series",
    "sum_terms",
]

# Relative size of the last term of a sum: below a unit in the last place of every component.
_SETTLED = 1e-17
_MAX_TERMS = 10000


class Jet:
    """A value with its gradient and (unless first order) Hessian in ``k`` parameters."""

    __slots__ = ("gradient", "hessian", "value")
    __array_ufunc__ = None  # NumPy arrays defer to the jet's operators

    def __init__(self, value: Any, gradient: Any, hessian: Any = None) -> None:
        self.value = np.asarray(value)
        self.gradient = np.asarray(gradient)
        self.hessian = None if hessian is None else np.asarray(hessian)

    @classmethod
    def seed(cls, value: Any, index: int, k: int, order: int = 2) -> Jet:
        """The parameter ``index`` of ``k``: derivative 1 in itself, 0 in the others."""
        value = np.asarray(value)
        gradient = np.zeros((k, *value.shape))
        gradient[index] = 1
        return cls(value, gradient, np.zeros((k, *gradient.shape)) if order >= 2 else None)

    @classmethod
    def constant(cls, value: Any, k: int, order: int = 2) -> Jet:
        """``value`` as a jet with zero derivatives."""
        value = np.asarray(value)
        gradient = np.zeros((k, *value.shape))
        return cls(value, gradient, np.zeros((k, *gradient.shape)) if order >= 2 else None)

    @classmethod
    def nan(cls, shape: tuple[int, ...], k: int, order: int = 2) -> Jet:
        """NaN in every component: a value and derivatives that do not exist or were not
        found."""
        value = np.full(shape, np.nan)
        gradient = np.full((k, *shape), np.nan)
        return cls(value, gradient, np.full((k, *gradient.shape), np.nan) if order >= 2 else None)

    @property
    def k(self) -> int:
        """The number of parameters the derivatives are in."""
        return int(self.gradient.shape[0])

    @property
    def order(self) -> int:
        """2 with a Hessian, 1 without."""
        return 1 if self.hessian is None else 2

    # ---- arithmetic ---------------------------------------------------------------------

    def __add__(self, other: Any) -> Jet:
        if not isinstance(other, Jet):
            other = np.asarray(other)
            if other.ndim > self.value.ndim or other.shape != self.value.shape:
                self, other = broadcast_jets(self, other)
            return Jet(self.value + other, self.gradient, self.hessian)
        if other.value.shape != self.value.shape:
            self, other = broadcast_jets(self, other)
        return Jet(
            self.value + other.value,
            self.gradient + other.gradient,
            _second(self, other, lambda h, g: h + g),
        )

    __radd__ = __add__

    def __neg__(self) -> Jet:
        return Jet(-self.value, -self.gradient, None if self.hessian is None else -self.hessian)

    def __sub__(self, other: Any) -> Jet:
        return self + (-other)

    def __rsub__(self, other: Any) -> Jet:
        return (-self) + other

    def __mul__(self, other: Any) -> Jet:
        if not isinstance(other, Jet):
            other = np.asarray(other)
            if other.ndim and other.shape != self.value.shape:
                self, other = broadcast_jets(self, other)
            return Jet(
                self.value * other,
                self.gradient * other,
                None if self.hessian is None else self.hessian * other,
            )
        if other.value.shape != self.value.shape:
            self, other = broadcast_jets(self, other)
        u, v = self.value, other.value
        gu, gv = self.gradient, other.gradient
        gradient = gu * v + u * gv
        hessian = None
        if self.hessian is not None and other.hessian is not None:
            cross = gu[:, None] * gv[None, :]
            hessian = self.hessian * v + u * other.hessian + cross + np.swapaxes(cross, 0, 1)
        return Jet(u * v, gradient, hessian)

    __rmul__ = __mul__

    def reciprocal(self) -> Jet:
        """``1 / self``."""
        r = 1 / self.value
        return self.chain(r, -r * r, 2 * r * r * r)

    def __truediv__(self, other: Any) -> Jet:
        if not isinstance(other, Jet):
            return self * (1 / np.asarray(other))
        return self * other.reciprocal()

    def __rtruediv__(self, other: Any) -> Jet:
        return self.reciprocal() * other

    def chain(self, f0: Any, f1: Any, f2: Any) -> Jet:
        """``f(self)`` from ``f``'s value ``f0``, derivative ``f1`` and second derivative ``f2``
        at ``self.value``."""
        g = self.gradient
        hessian = None
        if self.hessian is not None:
            hessian = f1 * self.hessian + f2 * (g[:, None] * g[None, :])
        return Jet(f0, f1 * g, hessian)

    def __repr__(self) -> str:
        return f"Jet({self.value!r}, {self.gradient!r}, {self.hessian!r})"


def _second(x: Jet, y: Jet, combine: Callable[[Any, Any], Any]) -> Any:
    if x.hessian is None or y.hessian is None:
        return None
    return combine(x.hessian, y.hessian)


def as_array(x: Any) -> Any:
    """``x`` as a float64 or complex128 array: the arguments jets are evaluated at."""
    return np.asarray(x, dtype=complex if np.iscomplexobj(x) else float)


def as_jet(x: Any, k: int, order: int = 2) -> Jet:
    """``x`` itself if a jet, else the constant jet of ``x``."""
    return x if isinstance(x, Jet) else Jet.constant(x, k, order)


def jet_where(condition: Any, x: Jet, y: Jet) -> Jet:
    """Elementwise ``x`` where ``condition``, else ``y``, in every component."""
    condition, x, y = broadcast_jets(condition, x, y)
    hessian = None
    if x.hessian is not None and y.hessian is not None:
        hessian = np.where(condition, x.hessian, y.hessian)
    return Jet(
        np.where(condition, x.value, y.value), np.where(condition, x.gradient, y.gradient), hessian
    )


def jet_exp(x: Jet) -> Jet:
    """``exp(x)``."""
    e = np.exp(x.value)
    return x.chain(e, e, e)


def jet_log(x: Jet) -> Jet:
    """The principal logarithm."""
    r = 1 / x.value
    return x.chain(np.log(x.value), r, -r * r)


def jet_power(base: Any, exponent: Jet) -> Jet:
    """``base ** exponent`` for a positive (or complex) constant ``base``: ``exp(e log base)``."""
    log_base = np.log(base)
    p = np.power(base, exponent.value)
    return exponent.chain(p, p * log_base, p * log_base * log_base)


def jet_gammaln(x: Jet) -> Jet:
    """``log |gamma(x)|``, with ``digamma`` and ``trigamma`` as its derivatives."""
    return x.chain(sc.gammaln(x.value), sc.digamma(x.value), sc.polygamma(1, x.value))


def jet_rgamma(x: Jet) -> Jet:
    """``1 / gamma(x)`` for real ``x``, finite with its derivatives at the poles of gamma.

    At ``x = -n`` (n = 0, 1, ...) ``1/gamma(-n + e) = (-1)^n n! e (1 - psi(n + 1) e + ...)``,
    so the first derivative is ``(-1)^n n!`` and the second ``-2 (-1)^n n! psi(n + 1)``;
    elsewhere ``-r psi`` and ``r (psi^2 - psi')``.
    """
    v = x.value
    pole = (v <= 0) & (v == np.floor(v))
    safe = np.where(pole, 0.5, v)
    r = sc.rgamma(v)
    psi = sc.digamma(safe)
    trigamma = sc.polygamma(1, safe)
    n = np.where(pole, -v, 0.0)
    signed_factorial = np.where(np.remainder(n, 2) == 0, 1.0, -1.0) * sc.gamma(n + 1)
    f1 = np.where(pole, signed_factorial, -r * psi)
    f2 = np.where(pole, -2 * signed_factorial * sc.digamma(n + 1), r * (psi * psi - trigamma))
    return x.chain(r, f1, f2)


def broadcast_jets(*values: Any) -> list[Any]:
    """Jets and arrays broadcast to one shape (a jet's derivatives with its value)."""
    shapes = [v.value.shape if isinstance(v, Jet) else np.shape(v) for v in values]
    shape = np.broadcast_shapes(*shapes)
    out: list[Any] = []
    for v in values:
        if not isinstance(v, Jet):
            out.append(np.broadcast_to(np.asarray(v), shape))
            continue
        k, lift = v.k, (1,) * (len(shape) - v.value.ndim) + v.value.shape
        hessian = None
        if v.hessian is not None:
            hessian = np.broadcast_to(v.hessian.reshape((k, k, *lift)), (k, k, *shape))
        gradient = np.broadcast_to(v.gradient.reshape((k, *lift)), (k, *shape))
        out.append(Jet(np.broadcast_to(v.value, shape), gradient, hessian))
    return out


def parameter_jets(*parameters: Any, order: int = 2) -> list[Jet]:
    """Each of ``k`` real parameters as a float64 jet of derivative 1 in itself, 0 in the others.

    >>> a, b = parameter_jets(1.0, [2.0, 3.0], order=1)
    >>> a.gradient.tolist(), b.gradient.tolist()
    ([1.0, 0.0], [[0.0, 0.0], [1.0, 1.0]])
    """
    k = len(parameters)
    return [Jet.seed(np.asarray(p, dtype=float), i, k, order) for i, p in enumerate(parameters)]


def gradient_of(j: Jet) -> tuple[Any, ...]:
    """The jet's derivatives in each parameter (NumPy scalars for 0-d values)."""
    return tuple(_scalar(g) for g in j.gradient)


def hessian_of(j: Jet) -> tuple[Any, ...]:
    """The upper triangle of the jet's Hessian, row by row: ``(h_11, h_12, ..., h_kk)``."""
    assert j.hessian is not None  # a first-order jet has none
    k = j.k
    return tuple(_scalar(j.hessian[i, m]) for i in range(k) for m in range(i, k))


def _scalar(x: Any) -> Any:
    return x[()] if x.ndim == 0 else x


def compose(value: Any, gradient: Any, hessian: Any, inputs: list[Jet]) -> Jet:
    """``f(p_1, ..., p_m)`` from ``f``'s value, gradient (``(m,) + S``) and Hessian
    (``(m, m) + S``, or None at first order) in its ``m`` arguments, at the jets ``inputs``
    (the chain rule; ``Jet.chain`` is the case ``m = 1``).

    >>> x, y = parameter_jets(2.0, 3.0)
    >>> f = compose(6.0, [3.0, 2.0], [[0.0, 1.0], [1.0, 0.0]], [x, y])  # x y
    >>> float(f.gradient[1]), float(f.hessian[0, 1])
    (2.0, 1.0)
    """
    gradient = np.asarray(gradient)
    out_gradient = sum(gradient[i] * p.gradient for i, p in enumerate(inputs))
    out_hessian = None
    if hessian is not None and all(p.hessian is not None for p in inputs):
        hessian = np.asarray(hessian)
        out_hessian = sum(gradient[i] * p.hessian for i, p in enumerate(inputs))
        for i, p in enumerate(inputs):
            for j, q in enumerate(inputs):
                out_hessian = out_hessian + hessian[i, j] * (
                    p.gradient[:, None] * q.gradient[None, :]
                )
    return Jet(value, out_gradient, out_hessian)


def _components(j: Jet) -> list[Any]:
    return [j.value, j.gradient] + ([] if j.hessian is None else [j.hessian])


def _settled(term: Jet, total: Jet) -> Any:
    """Where every component of ``term`` is below ``_SETTLED`` of the same component of
    ``total`` (or of the largest component, 1e-30 below it, for components that are 0)."""
    parts = list(zip(_components(term), _components(total), strict=True))
    floor = np.zeros(total.value.shape)
    for _, s in parts:
        lead = tuple(range(s.ndim - total.value.ndim))
        floor = np.maximum(floor, np.max(np.abs(s), axis=lead) if lead else np.abs(s))
    floor = 1e-30 * floor
    done = np.ones(total.value.shape, dtype=bool)
    for t, s in parts:
        small = np.abs(t) <= np.maximum(_SETTLED * np.abs(s), floor)
        lead = tuple(range(t.ndim - total.value.ndim))
        done &= np.all(small, axis=lead) if lead else small
    return done


class Cancellation:
    """The largest size of each component of a jet among the terms of a sum (``see``), so
    that the components of the sum where they cancelled beyond ``limit`` of their rounding
    become NaN (``guard``) rather than a guess."""

    def __init__(self, like: Jet, limit: float = 1e-9) -> None:
        self.parts = [np.zeros(np.shape(c)) for c in _components(like)]
        self.rounding = np.finfo(float).eps / limit

    def see(self, term: Jet, where: Any = True) -> None:
        for i, c in enumerate(_components(term)):
            self.parts[i] = np.where(where, np.maximum(self.parts[i], np.abs(c)), self.parts[i])

    def guard(self, total: Jet) -> Jet:
        with np.errstate(invalid="ignore"):
            parts = [
                np.where(largest * self.rounding > np.abs(c), np.nan, c)
                for largest, c in zip(self.parts, _components(total), strict=True)
            ]
        return Jet(*parts)


def sum_series(first: Jet, ratio: Any, max_terms: int = _MAX_TERMS) -> Jet:
    """``sum_n t_n`` with ``t_0 = first`` and ``t_(n+1) = t_n ratio(n)``, on jets.

    Stops when the terms no longer change any component of the sum (checked every 4 terms);
    NaN where ``max_terms`` terms do not get there.
    """
    state = [first]

    def term(n: int) -> Jet:
        if n:
            state[0] = state[0] * ratio(n - 1)
        return state[0]

    return sum_terms(term, max_terms)


def sum_terms(term: Callable[[int], Jet], max_terms: int = _MAX_TERMS) -> Jet:
    """``sum_n term(n)`` on jets, from ``n = 0`` until the terms no longer change any component
    of the sum (checked every 4 terms, after 8); NaN where ``max_terms`` do not get there.

    >>> x = Jet.seed(0.5, 0, 1)
    >>> y = sum_terms(lambda n: jet_power(0.5, x * n))  # 1 / (1 - 2^-x)
    >>> round(float(y.value), 12)
    3.414213562373
    """
    total = term(0)
    last = total
    for n in range(1, max_terms):
        last = term(n)
        total = total + last
        if n >= 8 and n % 4 == 0 and np.all(_settled(last, total) | ~np.isfinite(total.value)):
            return total
    done = _settled(last, total)
    return jet_where(done, total, Jet.nan(done.shape, total.k, total.order))
