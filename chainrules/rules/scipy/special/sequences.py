"""Rules for functions that SciPy evaluates over a sequence of degrees or orders at once.

Each returns the values and the derivatives ``(w, w')`` over its sequence, so the derivative
of ``w`` is given, and that of ``w'`` follows from the second-order equation each solves:

* ``lqn(n, z)``: Legendre functions of the second kind ``Q_k(z)``, ``k = 0..n``, and
  ``lqmn(m, n, z)``: ``Q_k^j(z)`` for orders ``j = 0..m`` and degrees ``k = 0..n``, from
  Legendre's equation ``(1 - z^2) w'' = 2 z w' - (k (k+1) - j^2/(1 - z^2)) w`` (DLMF 14.2.2),
  which holds on both sides of ``|z| = 1`` and for complex ``z``. At ``z = +-1``, where
  ``Q`` is infinite (SciPy returns 1e300), ``w''`` is infinite too.
* ``pbdn_seq(n, z)``: ``D_k(z)``, ``k = 0..n``, complex ``z``; ``pbdv_seq(v, x)`` and
  ``pbvv_seq(v, x)``: ``D_nu(x)`` and ``V_nu(x)`` for ``nu = v - int(v), ..., v``; both
  solve Weber's equation ``w'' = (x^2/4 - nu - 1/2) w`` (DLMF 12.2.2, with
  ``D_nu = U(-nu - 1/2, .)``). SciPy's own values do not follow these sequences for
  ``pbdn_seq`` at ``n <= -2`` and for ``pbdv_seq``/``pbvv_seq`` at negative non-integer
  ``v``: there the rules raise ``ValueError`` rather than differentiate other functions.

The degrees and orders are integers, or the top order ``v`` whose derivative would move
every order of the sequence: no tangent. The functions are holomorphic in ``z``: a complex
pullback is ``conj(w') * dy``. SciPy computes on NumPy values only; the calls are passed through
``call`` (``chainrules.core.calls``) to engines so that pullbacks differentiate again.

``riccati_jn riccati_yn lmbda`` return ``(w, w')`` over a sequence of orders at one scalar
``x``, with ``w'' = (k (k+1)/x^2 - 1) w`` and ``x w'' + (2v + 1) w' + x w = 0``; a real order
of ``lmbda``, ``pbdv_seq`` or ``pbvv_seq`` moves every order of the sequence: its derivative is
the sum over the sequence of the order derivatives (of J through ``bessel_order``, of D and V
through ``parabolic_cylinder``), thunked.

>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> (q, dq), pullback = rrule(sc.lqn, 1, 0.5)
>>> bool(pullback((np.array([1.0, 0.0]), np.zeros(2)))[2] == dq[0])
True
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.calls import call
from ....core.define import fit_to_output
from ....core.dtypes import conj
from ....core.namespace import array_namespace, require_numpy
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.structure import is_differentiable_leaf
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import Thunk, unthunk
from ....core.zeros import is_zero, vanishes
from .bessel_order import bessel_order_jet
from .harmonics import scaled
from .jets import Jet, jet_power, jet_rgamma, parameter_jets
from .parabolic_cylinder import pbdv_dv, pbvv_dv

__all__: list[str] = []


def _ndim(x: Any) -> int:
    return len(getattr(x, "shape", ()))


def _sequence_rules(
    f: Any, names: tuple[str, ...], second: Any, check: Any = None, order: Any = None
) -> None:
    """Rules for ``f(*integers, z) = (w, w')``, with ``w'' = second(args, w, w')``.

    ``check(args)`` raises where SciPy's values are not the documented sequence;
    ``order(args, w)`` gives ``(dw/dv, dw'/dv)`` in a real first argument, through functions
    with rules (None: it is an integer, without tangent), thunked.
    """

    def evaluate(args: tuple) -> tuple[Any, Any, tuple, Any]:
        if check is not None:
            check(args)
        y = call(f, *args)
        z = args[-1]
        project = ProjectTo(z) if is_differentiable_leaf(z) else None
        active = order is not None and is_differentiable_leaf(args[0])
        return y, project, tuple(range(_ndim(y[0]) - _ndim(z))), active

    def sequence_rrule(*args: Any) -> tuple[Any, Any]:
        y, project, lead, active = evaluate(args)
        project_v = ProjectTo(args[0]) if active else None

        def sequence_pullback(dy: Any) -> tuple:
            dw, dwp = (unthunk(d) for d in dy)
            first: Any = NO_TANGENT
            if project_v is not None:
                first = Thunk(
                    functools.partial(_order_cotangent, order, args, y, dw, dwp, project_v)
                )
            integers = (NO_TANGENT, first) + (NO_TANGENT,) * (len(args) - 2)
            if project is None:
                return (*integers, NO_TANGENT)
            xp = array_namespace(*y)
            total: Any = ZERO_TANGENT
            if not is_zero(dw):
                total = total + xp.sum(scaled(conj(y[1]), dw), axis=lead)
            if not is_zero(dwp):
                total = total + xp.sum(scaled(conj(second(args, *y)), dwp), axis=lead)
            return (*integers, project(total))

        return y, sequence_pullback

    def sequence_frule(tangents: tuple, *args: Any) -> tuple[Any, Any]:
        y, project, _, active = evaluate(args)
        out_w: Any = ZERO_TANGENT
        out_wp: Any = ZERO_TANGENT
        if active and not vanishes(tangents[1]):
            dv, dvp = order(args, y[0])
            out_w, out_wp = dv * tangents[1], dvp * tangents[1]
        dz = tangents[len(args)]
        if project is not None and not is_zero(dz):
            out_w = out_w + scaled(y[1], dz)
            out_wp = out_wp + scaled(second(args, *y), dz)
        if is_zero(out_w) and is_zero(out_wp):
            return y, Tangent(tuple, ZERO_TANGENT, ZERO_TANGENT)
        return y, Tangent(tuple, fit_to_output(out_w, y[0]), fit_to_output(out_wp, y[1]))

    # The registry reads the rules' signatures: f's positional parameters.
    positional = inspect.Parameter.POSITIONAL_ONLY
    params = [inspect.Parameter(name, positional) for name in names]
    tangents = inspect.Parameter("tangents", positional)
    rules: tuple[tuple[Any, Any, inspect.Signature], ...] = (
        (sequence_rrule, rrule, inspect.Signature(params)),
        (sequence_frule, frule, inspect.Signature([tangents, *params])),
    )
    for rule, table, signature in rules:
        rule.__signature__ = signature
        table.register(f)(rule)


def _order_cotangent(order: Any, args: tuple, y: Any, dw: Any, dwp: Any, project: Any) -> Any:
    """``sum(dw/dv * dw + dw'/dv * dwp)`` over the sequence."""
    dv, dvp = order(args, y[0])
    xp = array_namespace(dv, dvp)
    total: Any = ZERO_TANGENT
    if not is_zero(dw):
        total = total + xp.sum(dv * dw)
    if not is_zero(dwp):
        total = total + xp.sum(dvp * dwp)
    return project(total)


# ---- Legendre functions of the second kind ----------------------------------------------------


def _legendre_second(z: Any, w: Any, wp: Any, lam: Any, square: Any) -> Any:
    """``w''`` from Legendre's equation; infinite at ``z = +-1``, where ``Q`` is."""
    xp = array_namespace(w, z)
    u = 1 - z * z
    edge = u == 0
    safe = xp.where(edge, 1.0, u)
    w, wp = xp.where(edge, 0.0, w), xp.where(edge, 0.0, wp)
    inner = (2 * z * wp - (lam - square / safe) * w) / safe
    return xp.where(edge, np.inf, inner)


def _lqn_second(args: tuple, w: Any, wp: Any) -> Any:
    k = np.arange(w.shape[0]).reshape((-1,) + (1,) * (_ndim(w) - 1))
    return _legendre_second(args[-1], w, wp, k * (k + 1), 0)


def _lqmn_second(args: tuple, w: Any, wp: Any) -> Any:
    trailing = (1,) * (_ndim(w) - 2)
    j = np.arange(w.shape[0]).reshape((-1, 1, *trailing))
    k = np.arange(w.shape[1]).reshape((1, -1, *trailing))
    return _legendre_second(args[-1], w, wp, k * (k + 1), j * j)


_sequence_rules(sc.lqn, ("n", "z"), _lqn_second)
_sequence_rules(sc.lqmn, ("m", "n", "z"), _lqmn_second)

# ---- parabolic cylinder functions over a sequence of orders -----------------------------------


def _weber_second(orders: Any) -> Any:
    def weber_second(args: tuple, w: Any, wp: Any) -> Any:
        x = args[-1]
        return (x * x / 4 - orders(args[0], w) - 0.5) * w

    return weber_second


def _integer_orders(n: Any, w: Any) -> Any:
    return np.arange(w.shape[0])


def _fractional_orders(v: Any, w: Any) -> Any:
    # v - int(v) for the orders SciPy takes (v >= 0, or an integer); floor keeps a tracked v's
    # derivative: each order moves with v
    return v - np.floor(v) + np.arange(w.shape[0])


def _check_pbdn(args: tuple) -> None:
    n, z = args
    require_numpy(sc.pbdn_seq, n, z)  # SciPy takes scalars only: adapters run it on the host
    if n <= -2:
        raise ValueError(
            f"pbdn_seq at n = {n}: SciPy's values are not D_0, ..., D_n for n <= -2, "
            "so they have no rule"
        )
    if np.imag(z) != 0:
        raise ValueError(
            f"pbdn_seq at z = {z}: SciPy's values off the real axis are not D_k(z) "
            "(its D_0 is not exp(-z^2/4)), so they have no rule"
        )


def _check_fractional(name: str) -> Any:
    def check(args: tuple) -> None:
        v = args[0]
        if v < 0 and v != np.floor(v):
            raise ValueError(
                f"{name} at v = {v}: SciPy's values are not the documented orders "
                "v - int(v), ..., v for negative non-integer v, so they have no rule"
            )

    return check


def _weber_orders(f: Any) -> Any:
    """The derivatives of ``f``'s sequence (pbdv_seq, pbvv_seq) in its top order ``v``: every
    order ``v - int(v) + k`` moves with it, so they are the order derivatives of the single
    function (``pbdv_dv``, ``pbvv_dv``, functions with rules) at each."""
    derivative = pbdv_dv if f is sc.pbdv_seq else pbvv_dv

    def weber_orders(args: tuple, w: Any) -> tuple[Any, Any]:
        v, x = args
        return call(derivative, _fractional_orders(v, w), x)

    return weber_orders


_sequence_rules(sc.pbdn_seq, ("n", "z"), _weber_second(_integer_orders), _check_pbdn)
for _f in (sc.pbdv_seq, sc.pbvv_seq):
    _sequence_rules(
        _f,
        ("v", "x"),
        _weber_second(_fractional_orders),
        _check_fractional(_f.__name__),
        _weber_orders(_f),
    )

# ---- sequences of orders: riccati_jn, riccati_yn, lmbda ---------------------------------------


def _orders_at_a_point_rules(f: Any, orders: Any, curvature: Any, order: Any = None) -> None:
    """Rules for ``f(v, x) = (w, w')``, both over a sequence of orders, at one real ``x``.

    ``orders(v, w)`` gives the sequence of orders; ``curvature(k, x, w, wp)`` is ``w''``.
    ``order((v, x), w)`` gives ``(dw/dv, dw'/dv)`` in a real ``v``, thunked (None: integer
    orders, no tangent).
    """

    def sequence_rrule(v: Any, x: Any) -> tuple[Any, Any]:
        require_numpy(f, v, x)  # SciPy takes scalars only: adapters run it on the host
        y = f(v, x)
        project = ProjectTo(x)
        project_v = ProjectTo(v) if order is not None and is_differentiable_leaf(v) else None

        def sequence_pullback(dy: Any) -> tuple[Any, Any, Any]:
            dw, dwp = (unthunk(d) for d in dy)
            first: Any = NO_TANGENT
            if project_v is not None:
                cotangent = functools.partial(_order_cotangent, order, (v, x), y)
                first = Thunk(functools.partial(cotangent, dw, dwp, project_v))
            total: Any = ZERO_TANGENT
            if not is_zero(dw):
                total = total + np.sum(y[1] * dw)
            if not is_zero(dwp):
                total = total + np.sum(curvature(orders(v, y[0]), x, *y) * dwp)
            return NO_TANGENT, first, project(total)

        return y, sequence_pullback

    def sequence_frule(tangents: tuple, v: Any, x: Any) -> tuple[Any, Any]:
        require_numpy(f, v, x)
        y = f(v, x)
        dv, dx = tangents[1:3]
        out_w: Any = ZERO_TANGENT
        out_wp: Any = ZERO_TANGENT
        if order is not None and is_differentiable_leaf(v) and not vanishes(dv):
            order_w, order_wp = order((v, x), y[0])
            out_w, out_wp = order_w * dv, order_wp * dv
        if not is_zero(dx):
            out_w = out_w + y[1] * dx
            out_wp = out_wp + curvature(orders(v, y[0]), x, *y) * dx
        if is_zero(out_w) and is_zero(out_wp):
            return y, Tangent(tuple, ZERO_TANGENT, ZERO_TANGENT)
        return y, Tangent(tuple, fit_to_output(out_w, y[0]), fit_to_output(out_wp, y[1]))

    rrule.register(f)(sequence_rrule)
    frule.register(f)(sequence_frule)


def _riccati_curvature(k: Any, x: Any, w: Any, wp: Any) -> Any:
    """``w'' = (k (k+1)/x^2 - 1) w``; at 0, ``x j_k(x)`` has ``w''(0) = 2/3`` for k = 1, else 0."""
    at_zero = x == 0
    safe = np.where(at_zero, 1.0, x)
    return np.where(at_zero, np.where(k == 1, 2 / 3, 0.0), (k * (k + 1) / (safe * safe) - 1) * w)


def _lmbda_curvature(v: Any, x: Any, w: Any, wp: Any) -> Any:
    """``x w'' + (2v + 1) w' + x w = 0`` (``w`` is ``x^-v J_v`` scaled); ``-1/(2(v+1))`` at 0."""
    at_zero = x == 0
    inner = -(2 * v + 1) * wp / np.where(at_zero, 1.0, x) - w
    return np.where(at_zero, -1 / (2 * (v + 1)), inner)


def _lmbda_orders(v: Any, w: Any) -> Any:
    # SciPy's orders: v - int(v), ..., v (its lengths are Python values).
    return v - int(v) + np.arange(len(w))


_orders_at_a_point_rules(sc.riccati_jn, _integer_orders, _riccati_curvature, None)
_orders_at_a_point_rules(sc.riccati_yn, _integer_orders, _riccati_curvature, None)


def _lmbda_order(args: tuple, w: Any) -> tuple[Any, Any]:
    """d/dv of ``Lambda_v(x) = gamma(v + 1) (2/x)^v J_v(x)`` and of ``Lambda_v'(x) = -x/(2 (v+1))
    Lambda_(v+1)(x)`` over SciPy's orders (DLMF 10.16.9 scaled; 0 at x = 0, where both are
    constant in v), on jets with the order derivatives of J."""
    v, x = args
    (nu,) = parameter_jets(_lmbda_orders(v, w), order=1)
    if x == 0:
        return np.zeros(nu.value.shape), np.zeros(nu.value.shape)

    def lam(order: Jet) -> Jet:
        return (
            jet_power(2 / x, order)
            * bessel_order_jet("jv", order, np.full(order.value.shape, x))
            / jet_rgamma(order + 1)
        )

    slope = lam(nu + 1) * (-x / 2) / (nu + 1)
    return lam(nu).gradient[0], slope.gradient[0]


_orders_at_a_point_rules(sc.lmbda, _lmbda_orders, _lmbda_curvature, _lmbda_order)
