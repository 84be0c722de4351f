"""Rules for ``logsumexp``, ``softmax`` and ``log_softmax`` of ``scipy.special``.

The derivative of y = log(sum(b * exp(a))) in ``a`` is the weighted softmax
``b * exp(a - y)``, and in ``b`` it is ``exp(a - y)``: pullbacks reuse the forward output
``y`` rather than summing again. With ``return_sign=True``, y = log|s| for the signed sum s,
and both derivatives take the sign of s; the sign output is piecewise constant and gets a
zero tangent. Where ``b == 0`` the term is absent, so its derivative in ``a`` is exactly 0
(even if every weight is 0 and y = -inf); its derivative in ``b`` is ``exp(a - y)``.
Complex ``a`` follows the holomorphic convention: the cotangent is ``conj(dy/da) * dy``.

softmax and log_softmax take real input. The values come from SciPy itself; the pullbacks
compute in the array namespace of their inputs. The rules are written once, as factories of
the forward function (``make_softmax_rules``, ``make_log_softmax_rules``,
``make_logsumexp_rules``), which ``chainrules.fastmath`` instantiates for its fast kernels.

>>> import numpy as np
>>> import scipy.special as sc
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(sc.logsumexp, np.log([1.0, 3.0]))
>>> pullback(1.0)[1]
array([0.25, 0.75])
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.special as sc

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT, Tangent
from ....core.thunks import unthunk
from ....core.zeros import is_zero

# The keywords of ``scipy.special.logsumexp`` with their defaults, in positional order.
_LOGSUMEXP_DEFAULTS = {"axis": None, "b": None, "keepdims": False, "return_sign": False}


def _logsumexp_signature(keywords: tuple[str, ...]) -> inspect.Signature:
    """``(a, *keywords)`` with SciPy's defaults, for binding the rules' arguments."""
    kind = inspect.Parameter.POSITIONAL_OR_KEYWORD
    return inspect.Signature(
        [inspect.Parameter("a", kind)]
        + [inspect.Parameter(k, kind, default=_LOGSUMEXP_DEFAULTS[k]) for k in keywords]
    )


def _reduced_axes(axis: Any, ndim: int) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    axes = axis if isinstance(axis, tuple | list) else (axis,)
    return tuple(sorted(int(ax) % ndim for ax in axes)) if ndim else ()


def _with_kept_dims(xp: Any, y: Any, shape: tuple[int, ...], axes: tuple[int, ...]) -> Any:
    """``y`` reduced over ``axes`` of ``shape``, reshaped to keep those axes with size 1."""
    kept = tuple(1 if i in axes else n for i, n in enumerate(shape))
    return xp.reshape(xp.asarray(y), kept)


def _logsumexp_weights(a: Any, b: Any, y: Any, sign: Any, axis: Any) -> tuple[Any, Any]:
    """(dy/da, dy/db): the weighted softmax ``b exp(a - y)`` and ``exp(a - y)``.

    Where every weight is 0, y = -inf: the terms do not depend on ``a`` (0, computed as
    ``b exp(a)``), and ``exp(a - y)`` is honestly infinite. Elsewhere both are plain products,
    exact at b = 0 to every order.
    """
    xp = array_namespace(a, b, y)
    shape = tuple(a.shape) if b is None else _broadcast_shape(a, b)
    axes = _reduced_axes(axis, len(shape))
    y_kept = _with_kept_dims(xp, y, shape, axes)
    y_finite = xp.where(y_kept == -xp.inf, xp.zeros_like(y_kept), y_kept)
    if xp is np:
        # Plain NumPy values: work in place in this fresh temporary (allocation dominates).
        softmax = np.subtract(a, y_finite)
        softmax = np.exp(softmax, out=softmax) if type(softmax) is np.ndarray else np.exp(softmax)
    else:
        softmax = xp.exp(a - y_finite)
    if sign is not None:
        softmax = softmax * _with_kept_dims(xp, sign, shape, axes)
    if b is None:
        return softmax, None
    return b * softmax, softmax * xp.exp(y_finite - y_kept)


def _times(xp: Any, fresh: Any, other: Any) -> Any:
    """``fresh * other``, written into ``fresh`` (a temporary of the rule) for NumPy values."""
    if xp is np and type(fresh) is np.ndarray and np.result_type(fresh, other) == fresh.dtype:
        return np.multiply(fresh, other, out=fresh)
    return fresh * other


def _broadcast_shape(a: Any, b: Any) -> tuple[int, ...]:
    return tuple(np.broadcast_shapes(tuple(getattr(a, "shape", ())), tuple(b.shape)))


def _as_array(x: Any) -> Any:
    return x if hasattr(x, "shape") else array_namespace(x).asarray(x)


# SciPy converts its inputs to NumPy arrays. For other arrays (an engine's tracked values, whose
# operations are recorded, or another library's), the values are computed with the array
# namespace instead, by the same max-shifted formulas, so that the rules stay differentiable.


def _logsumexp(a: Any, axis: Any, b: Any, keepdims: bool, return_sign: bool) -> Any:
    xp = array_namespace(a, b)
    if xp is np:
        return sc.logsumexp(a, axis=axis, b=b, keepdims=keepdims, return_sign=return_sign)
    shape = tuple(a.shape) if b is None else _broadcast_shape(a, b)
    axes = _reduced_axes(axis, len(shape))
    a = xp.broadcast_to(a, shape)
    shift = xp.max(a, axis=axes, keepdims=True)
    shift = xp.where(xp.isfinite(shift), shift, xp.zeros_like(shift))
    terms = xp.exp(a - shift) if b is None else b * xp.exp(a - shift)
    total = xp.sum(terms, axis=axes, keepdims=True)
    y = (xp.log(xp.abs(total)) if return_sign else xp.log(total)) + shift
    if not keepdims:
        reduced = tuple(n for i, n in enumerate(shape) if i not in axes)
        y, total = xp.reshape(y, reduced), xp.reshape(total, reduced)
    return (y, xp.sign(total)) if return_sign else y


def _softmax(x: Any, axis: Any) -> Any:
    xp = array_namespace(x)
    if xp is np:
        return sc.softmax(x, axis=axis)
    e = xp.exp(x - xp.max(x, axis=axis, keepdims=True))
    return e / xp.sum(e, axis=axis, keepdims=True)


def _log_softmax(x: Any, axis: Any) -> Any:
    xp = array_namespace(x)
    if xp is np:
        return sc.log_softmax(x, axis=axis)
    shifted = x - xp.max(x, axis=axis, keepdims=True)
    return shifted - xp.log(xp.sum(xp.exp(shifted), axis=axis, keepdims=True))


# ---- logsumexp ------------------------------------------------------------------------------


def _exponentials(a: Any, axis: Any, keepdims: bool) -> tuple[Any, Any, Any] | None:
    """``(y, e, total)`` for ``y = logsumexp(a, axis)`` of a float64 or float32 NumPy array
    whose maxima are finite: ``e = exp(a - max)`` and ``total`` the sum of ``e``, kept over
    the reduced axes, so that ``exp(a - y) = e / total``; else None.

    ``y`` is computed with SciPy's operations (from SciPy 1.15; earlier ones differ by
    rounding): the maxima, counted ``m`` times, left out of the sum ``s`` of the others, and
    ``y = log1p(s / m) + log(m) + max``, accurate where ``s`` is small. SciPy would compute the
    exponentials twice and the pullback a third time; here they are computed once and kept.
    """
    if type(a) is not np.ndarray or a.dtype not in _EXACT_DTYPES or a.size == 0 or a.ndim == 0:
        return None
    axes = _reduced_axes(axis, a.ndim)
    shift = a.max(axis=axes, keepdims=True)
    if not np.isfinite(shift).all():
        return None  # SciPy's special cases (infinities, NaN) take the general way
    e = np.subtract(a, shift)
    np.exp(e, out=e)
    maxima = a == shift
    np.copyto(e, 0, where=maxima)
    others = e.sum(axis=axes, keepdims=True)
    np.copyto(e, 1, where=maxima)
    # counted as integers, exact however many, then converted as NumPy's count would be
    m = np.add.reduce(maxima, axis=axes, dtype=np.intp, keepdims=True).astype(a.dtype)
    s = np.where(others == 0, others, others / m)
    y = np.log1p(s) + np.log(m) + shift
    if not keepdims:
        y = y.squeeze(axis=axes)
        y = y[()] if y.ndim == 0 else y
    return y, e, others + m


_EXACT_DTYPES = frozenset({np.dtype(np.float64), np.dtype(np.float32)})


def _softmax_times(e: Any, total: Any, axes: tuple[int, ...], n_positional: int) -> Any:
    """The pullback of ``logsumexp`` given ``e / total = exp(a - y)`` (``_exponentials``)."""
    shape = tuple(e.shape)
    kept = tuple(1 if i in axes else n for i, n in enumerate(shape))
    rest = (NO_TANGENT,) * (n_positional - 1)
    project_e = ProjectTo(e)

    def logsumexp_pullback(dy: Any) -> tuple[Any, ...]:
        if type(dy) is np.ndarray:  # NumPy's: reshaped as it is
            dy_kept = dy.reshape(kept)
        elif is_zero(dy):
            return (NO_TANGENT, ZERO_TANGENT, *rest)
        else:
            dy_kept = _with_kept_dims(array_namespace(e, dy), dy, shape, axes)
        # the small quotient first: one pass over the data, which the projection keeps when
        # it is real (a complex dy of the real output pulls back its real part)
        dx = e * (dy_kept / total)
        return (NO_TANGENT, project_e(dx), *rest)

    return logsumexp_pullback


def make_logsumexp_rules(
    f: Any,
    forward: Callable[..., Any],
    keywords: tuple[str, ...] = ("axis", "keepdims"),
    exponentials: Callable[..., Any] | None = None,
) -> None:
    """Register the rrule and frule of ``f(a, *keywords)``, a logsumexp computed by ``forward``.

    ``keywords`` are those of ``scipy.special.logsumexp`` that ``f`` takes, in its positional
    order (a subset of axis, b, keepdims, return_sign); ``forward(a, **keywords)`` computes the
    value. The rules use the output ``y``: ``dy/da = b exp(a - y)`` and ``dy/db = exp(a - y)``.
    ``exponentials(a, axis, keepdims)``, where given, computes what ``forward`` does together
    with ``exp(a - y)`` for the calls without ``b`` or ``return_sign`` that it takes
    (``_exponentials``), or returns None.
    """
    signature = _logsumexp_signature(keywords)
    defaults = {k: _LOGSUMEXP_DEFAULTS[k] for k in keywords}
    b_slot = keywords.index("b") + 2 if "b" in keywords else None  # (df, da, ...) position

    def arguments(a: Any, args: tuple, kwargs: dict) -> dict[str, Any]:
        if not args:  # keywords alone, which registration has checked: nothing to bind
            return {**defaults, **kwargs}
        bound = signature.bind(a, *args, **kwargs)
        bound.apply_defaults()
        return {k: bound.arguments[k] for k in keywords}

    def logsumexp_rrule(a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        given = arguments(a, args, kwargs)
        axis, b, return_sign = given["axis"], given.get("b"), given.get("return_sign", False)
        n_positional = 1 + len(args)
        plain = None
        if exponentials is not None and b is None and not return_sign:
            plain = exponentials(a, axis, given.get("keepdims", False))
        if plain is not None:
            out, e, total = plain
            return out, _softmax_times(e, total, _reduced_axes(axis, e.ndim), n_positional)
        out = forward(a, **given)
        y, sign = out if return_sign else (out, None)
        a_arr = _as_array(a)
        b_arr = None if b is None else _as_array(b)
        project_a = ProjectTo(a)
        project_b: Any = ProjectTo(b) if b is not None else None
        conjugate = is_complex(a_arr) or (b_arr is not None and is_complex(b_arr))
        # a keyword b gets no cotangent slot
        b_cotangent = (
            b_slot if b_slot is not None and n_positional >= b_slot and b is not None else None
        )

        def logsumexp_pullback(dy: Any) -> tuple[Any, ...]:
            if return_sign:
                dy = unthunk(dy[0])
            cotangents: list[Any] = [NO_TANGENT] * (n_positional + 1)
            if is_zero(dy):
                cotangents[1] = ZERO_TANGENT
                if b_cotangent is not None:
                    cotangents[b_cotangent] = ZERO_TANGENT
                return tuple(cotangents)
            xp = array_namespace(a_arr, dy)
            weight_a, weight_b = _logsumexp_weights(a_arr, b_arr, y, sign, axis)
            shape = tuple(weight_a.shape)
            dy_kept = _with_kept_dims(xp, dy, shape, _reduced_axes(axis, len(shape)))
            if conjugate:
                weight_a = xp.conj(weight_a)
                weight_b = None if weight_b is None else xp.conj(weight_b)
            cotangents[1] = project_a(_times(xp, weight_a, dy_kept))
            if b_cotangent is not None:
                cotangents[b_cotangent] = project_b(weight_b * dy_kept)
            return tuple(cotangents)

        return out, logsumexp_pullback

    def logsumexp_frule(tangents: tuple, a: Any, *args: Any, **kwargs: Any) -> tuple[Any, Any]:
        given = arguments(a, args, kwargs)
        axis, b, return_sign = given["axis"], given.get("b"), given.get("return_sign", False)
        out = forward(a, **given)
        y, sign = out if return_sign else (out, None)
        da = tangents[1]
        # Tangents follow the positional arguments: (df, da, daxis, db, ...).
        db: Any = ZERO_TANGENT
        if b_slot is not None and len(tangents) > b_slot and b is not None:
            db = tangents[b_slot]
        a_arr = _as_array(a)
        b_arr = None if b is None else _as_array(b)
        weight_a, weight_b = _logsumexp_weights(a_arr, b_arr, y, sign, axis)
        xp = array_namespace(weight_a)
        total: Any = ZERO_TANGENT
        if not is_zero(da):
            total = total + weight_a * da
        if not is_zero(db):
            total = total + weight_b * db
        if not is_zero(total):
            total = xp.sum(total, axis=axis, keepdims=given.get("keepdims", False))
            total = ProjectTo(y)(total)
        return out, (Tangent(tuple, total, ZERO_TANGENT) if return_sign else total)

    rrule.register(f, keywords=keywords)(logsumexp_rrule)
    frule.register(f, keywords=keywords)(logsumexp_frule)


# ---- softmax and log_softmax ----------------------------------------------------------------


def _make_rules_given_output(
    f: Any,
    forward: Callable[[Any, Any], Any],
    pullback_of: Callable[[Any, Any, Any, Any], Any],
    pushforward_of: Callable[[Any, Any, Any, Any], Any],
) -> None:
    """Register the rrule and frule of ``f(x, axis=None)``, whose derivative is known from ``y``.

    ``pullback_of(xp, y, dy, axis)`` is the transposed derivative at output ``y`` applied to a
    cotangent, ``pushforward_of(xp, y, dx, axis)`` the derivative applied to a tangent; zero
    tangents pass through untouched.
    """

    @rrule.register(f)
    def given_output_rrule(x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        project_x = ProjectTo(x)

        def given_output_pullback(dy: Any) -> tuple[Any, Any]:
            return NO_TANGENT, project_x(pullback_of(array_namespace(y, dy), y, dy, axis))

        return y, given_output_pullback

    @frule.register(f)
    def given_output_frule(tangents: tuple, x: Any, axis: Any = None) -> tuple[Any, Any]:
        y = forward(x, axis)
        dx = tangents[1]
        if is_zero(dx):
            return y, dx
        return y, ProjectTo(y)(pushforward_of(array_namespace(y, dx), y, dx, axis))


def _softmax_pullback(xp: Any, y: Any, dy: Any, axis: Any) -> Any:
    return y * (dy - xp.sum(dy * y, axis=axis, keepdims=True))


def _softmax_pushforward(xp: Any, y: Any, dx: Any, axis: Any) -> Any:
    return y * (dx - xp.sum(y * dx, axis=axis, keepdims=True))


def _log_softmax_pullback(xp: Any, y: Any, dy: Any, axis: Any) -> Any:
    return dy - xp.exp(y) * xp.sum(dy, axis=axis, keepdims=True)


def _log_softmax_pushforward(xp: Any, y: Any, dx: Any, axis: Any) -> Any:
    return dx - xp.sum(xp.exp(y) * dx, axis=axis, keepdims=True)


def make_softmax_rules(f: Any, forward: Callable[[Any, Any], Any]) -> None:
    """Register the rrule and frule of ``f(x, axis=None)``, a softmax computed by ``forward``.

    The derivative is the ideal softmax's, evaluated on the output ``y``:
    ``dx = y * (dy - sum(dy * y, axis))``.
    """
    _make_rules_given_output(f, forward, _softmax_pullback, _softmax_pushforward)


def make_log_softmax_rules(f: Any, forward: Callable[[Any, Any], Any]) -> None:
    """Register the rrule and frule of ``f(x, axis=None)``, a log_softmax computed by ``forward``.

    ``dx = dy - exp(y) * sum(dy, axis)``, from the output ``y``.
    """
    _make_rules_given_output(f, forward, _log_softmax_pullback, _log_softmax_pushforward)


make_logsumexp_rules(sc.logsumexp, _logsumexp, tuple(_LOGSUMEXP_DEFAULTS), _exponentials)
make_softmax_rules(sc.softmax, _softmax)
make_log_softmax_rules(sc.log_softmax, _log_softmax)
