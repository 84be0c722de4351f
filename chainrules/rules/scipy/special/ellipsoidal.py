"""Rules for ellipsoidal harmonics: ``ellip_harm``, ``ellip_harm_2`` and ``ellip_normal``.

The derivatives come from the Lamé polynomials of ``lame`` (eigenvector perturbation for
``h2`` and ``k2``, the product form for ``s``):

* ``ellip_harm(h2, k2, n, p, s, signm=1, signn=1)``: in ``s``, ``h2`` and ``k2``;
* ``ellip_harm_2(h2, k2, n, p, s)``, ``F = (2n+1) E(s) int_s^inf dt / (E(t)^2
  sqrt((t^2-h2)(t^2-k2)))``: ``F' = F E'/E - (2n+1) / (E sqrt((s^2-h2)(s^2-k2)))`` (the
  fundamental theorem of calculus); in ``h2``, ``k2``, ``F E_c/E + (2n+1) E dI/dc`` with the
  differentiated integrand integrated by ``scipy.integrate.quad``;
* ``ellip_normal(h2, k2, n, p)``: in ``h2`` and ``k2`` by Gauss-Legendre quadrature
  (``lame.normal_with_slopes``).

Degree ``n``, order ``p`` and the signs have no tangent. The derivatives in ``h2`` and ``k2``
are thunked and computed on NumPy values only; the derivative in ``s`` is written in
operations an engine records, when ``h2``, ``k2``, ``n``, ``p`` are plain numbers (their
Lamé coefficients are computed on NumPy values).

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.ellip_harm, 5.0, 8.0, 1, 1, 2.5)  # E = s
>>> float(y), float(pullback(1.0)[5])
(2.5, 1.0)
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import fit_to_output
from ....core.namespace import is_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import (
    NO_TANGENT,
    ZERO_TANGENT,
    NotImplementedTangent,
    not_implemented,
)
from ....core.thunks import Thunk
from ....core.zeros import vanishes
from .lame import LamePolynomial, lame_terms, lame_terms_at, normal_with_slopes, safe_polynomial

__all__: list[str] = []


# ---- the rules: partials per argument, parameter derivatives thunked -------------------------


def _ellipsoidal_rules(
    f: Any, names: tuple[str, ...], defaults: tuple, partials: Any, costly: tuple[int, ...]
) -> None:
    """Register the rrule and frule of ``f(*names)``, from its partials.

    The last ``len(defaults)`` parameters are optional, also by keyword (they get no
    cotangent). ``partials(args, y)`` returns ``{position: derivative}`` for the continuous
    arguments, each a value or a function computing it: the ``costly`` ones are thunked.
    """
    required = len(names) - len(defaults)

    def bind(args: tuple, kwargs: dict) -> tuple:
        if not required <= len(args) <= len(names):
            raise TypeError(f"{f.__name__} takes {required} to {len(names)} arguments")
        optional = zip(names[required:], defaults, strict=True)
        rest = [kwargs.get(name, default) for name, default in optional]
        return (*args, *rest[len(args) - required :])

    def prepared(args: tuple, kwargs: dict) -> tuple[Any, tuple, dict, Any]:
        full = bind(args, kwargs)
        y = call(f, *args, **kwargs)
        table = partials(full, y)
        given = [i for i in table if i < len(args) and is_differentiable_leaf(args[i])]
        active = {i: ProjectTo(args[i]) for i in given}
        return y, full, active, table

    def ellipsoidal_rrule(*args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y, _, active, table = prepared(args, kwargs)

        def ellipsoidal_pullback(dy: Any) -> tuple:
            grads: list[Any] = [NO_TANGENT] * (len(args) + 1)
            for i, project in active.items():
                if i in costly:
                    grads[i + 1] = Thunk(functools.partial(_cotangent, table[i], project, dy))
                else:
                    grads[i + 1] = _cotangent(table[i], project, dy)
            return tuple(grads)

        return y, ellipsoidal_pullback

    def ellipsoidal_frule(tangents: tuple, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        y, _, active, table = prepared(args, kwargs)
        total: Any = ZERO_TANGENT
        for i in active:
            dx = tangents[i + 1]
            if vanishes(dx):
                continue
            d = _value(table[i])
            if isinstance(d, NotImplementedTangent):
                return y, d
            total = total + d * dx
        return y, fit_to_output(total, y)

    rules: tuple[tuple[Any, Any], ...] = ((ellipsoidal_rrule, rrule), (ellipsoidal_frule, frule))
    for rule, table in rules:
        table.register(f, keywords=names[required:])(rule)


def _value(d: Any) -> Any:
    return d() if callable(d) else d


def _cotangent(d: Any, project: Any, dy: Any) -> Any:
    d = _value(d)
    return d if isinstance(d, NotImplementedTangent) else project(d * dy)


# ---- ellip_harm -------------------------------------------------------------------------------


def _refused_on_tracked(name: str, positions: tuple[int, ...]) -> dict:
    reason = not_implemented(
        f"derivative of {name} on an engine's tracked h2, k2, n or p: the Lamé coefficients "
        "are computed on NumPy values only"
    )
    return dict.fromkeys(positions, reason)


def _ellip_harm_partials(args: tuple, y: Any) -> dict:
    h2, k2, n, p, s, signm, signn = args
    if not is_numpy(h2, k2, n, p, signm, signn):
        return _refused_on_tracked("ellip_harm", (0, 1, 4))
    _, ds, dh2, dk2 = lame_terms_at(h2, k2, n, p, s, signm, signn)
    return {0: dh2, 1: dk2, 4: ds}


_ellipsoidal_rules(
    sc.ellip_harm,
    ("h2", "k2", "n", "p", "s", "signm", "signn"),
    (1, 1),
    _ellip_harm_partials,
    (),
)

# ---- ellip_harm_2: the second kind, an integral from s to infinity ---------------------------


def _second_kind_slopes(lame: LamePolynomial, n: int, s: float, value: float) -> tuple:
    """``dF/dh2``, ``dF/dk2`` at one point: ``F E_c/E + (2n+1) E dI/dc`` by quadrature."""
    from scipy.integrate import quad  # loaded when first needed (bessel_order._quad)

    h2, k2 = lame.h2, lame.k2

    def integrand(u: float, c: int) -> float:
        # t = 1/u maps (s, inf) onto (0, 1/s); dt = du/u^2.
        t = 1 / u
        e, _, dh2, dk2 = lame_terms(lame, t)
        shift = t * t - (h2, k2)[c]
        base = 1 / (e * e * np.sqrt((t * t - h2) * (t * t - k2)) * u * u)
        return base * (-2 * (dh2, dk2)[c] / e + 0.5 / shift)

    e, _, dh2, dk2 = lame_terms(lame, s)
    slopes = []
    for c, de in enumerate((dh2, dk2)):
        integral = quad(integrand, 0.0, 1 / s, args=(c,), epsabs=0.0, limit=200)[0]
        slopes.append(value * de / e + (2 * n + 1) * e * integral)
    return tuple(slopes)


def _second_kind_parameters(h2: Any, k2: Any, n: Any, p: Any, s: Any, y: Any) -> tuple:
    arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (h2, k2, n, p, s, y)))
    out = (np.full(arrays[0].shape, np.nan), np.full(arrays[0].shape, np.nan))
    for index in np.ndindex(arrays[0].shape):
        h, k, order, rank, point, value = (float(a[index]) for a in arrays)
        lame = safe_polynomial(h, k, int(order), int(rank))
        if lame is None or not point * point > k:
            continue
        with np.errstate(all="ignore"):
            slopes = _second_kind_slopes(lame, int(order), point, value)
        for o, slope in zip(out, slopes, strict=True):
            o[index] = slope
    return out


def _ellip_harm_2_partials(args: tuple, y: Any) -> dict:
    h2, k2, n, p, s = args
    if not is_numpy(h2, k2, n, p):
        return _refused_on_tracked("ellip_harm_2", (0, 1, 4))
    e, de, _, _ = lame_terms_at(h2, k2, n, p, s)
    with np.errstate(all="ignore"):
        ds = y * de / e - (2 * np.asarray(n) + 1) / (e * np.sqrt((s * s - h2) * (s * s - k2)))

    @functools.cache
    def slopes() -> tuple:
        if not is_numpy(s, y):
            return tuple(_refused_on_tracked("ellip_harm_2", (0, 1)).values())
        return _second_kind_parameters(h2, k2, n, p, s, y)

    return {0: lambda: slopes()[0], 1: lambda: slopes()[1], 4: ds}


_ellipsoidal_rules(sc.ellip_harm_2, ("h2", "k2", "n", "p", "s"), (), _ellip_harm_2_partials, (0, 1))


def _ellip_normal_partials(args: tuple, y: Any) -> dict:
    h2, k2, n, p = args
    if not is_numpy(h2, k2, n, p):
        return _refused_on_tracked("ellip_normal", (0, 1))

    @functools.cache
    def slopes() -> tuple:
        arrays = np.broadcast_arrays(*(np.asarray(a, dtype=float) for a in (h2, k2, n, p)))
        out = (np.full(arrays[0].shape, np.nan), np.full(arrays[0].shape, np.nan))
        for index in np.ndindex(arrays[0].shape):
            h, k, order, rank = (float(a[index]) for a in arrays)
            if safe_polynomial(h, k, int(order), int(rank)) is None:
                continue
            with np.errstate(all="ignore"):
                _, out[0][index], out[1][index] = normal_with_slopes(h, k, int(order), int(rank))
        return out

    return {0: lambda: slopes()[0], 1: lambda: slopes()[1]}


_ellipsoidal_rules(sc.ellip_normal, ("h2", "k2", "n", "p"), (), _ellip_normal_partials, (0, 1))
