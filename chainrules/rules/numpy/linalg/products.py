"""Rules for ``np.linalg.matrix_power``, ``multi_dot`` and ``vecdot``: products of matrices.

``matrix_power`` keeps the partial powers ``I, a, ..., a^(|n|-1)`` of the forward pass (of
``inv(a)`` for ``n < 0``) and sums the products of the derivative's terms with them;
``multi_dot`` keeps the prefix and suffix products of its chain, so that each factor's
cotangent costs two products.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.linalg.matrix_power, np.diag([2.0, 3.0]), 2)
>>> pullback(np.eye(2))[1]
array([[4., 0.],
       [0., 6.]])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ....core.dtypes import is_complex
from ....core.namespace import array_namespace
from ....core.projection import ProjectTo
from ....core.registry import frule, rrule
from ....core.tangents import NO_TANGENT, ZERO_TANGENT
from ....core.thunks import unthunk
from ....core.zeros import is_zero
from ...matrices import eye_like, mH

__all__: list[str] = []


# ---- matrix_power -----------------------------------------------------------------------


def _powers(a: Any, count: int) -> list[Any]:
    """``[I, a, a^2, ..., a^(count-1)]``, the partial products the rules reuse."""
    xp = array_namespace(a)
    powers = [xp.broadcast_to(eye_like(a), a.shape)]
    for _ in range(count - 1):
        powers.append(xp.matmul(powers[-1], a))
    return powers


def _power_base(a: Any, n: int) -> Any:
    return array_namespace(a).linalg.inv(a) if n < 0 else a


@rrule.register(np.linalg.matrix_power)
def _matrix_power_rrule(a, n):
    xp = array_namespace(a)
    project_a = ProjectTo(a)
    base = _power_base(a, n)
    m = abs(n)
    powers = _powers(base, m)
    y = xp.matmul(powers[-1], base) if m else powers[0]

    def matrix_power_pullback(dy):
        if m == 0:
            return NO_TANGENT, project_a(xp.zeros_like(a)), NO_TANGENT
        d_base = sum(
            xp.matmul(xp.matmul(mH(powers[k]), dy), mH(powers[m - 1 - k])) for k in range(m)
        )
        if n < 0:
            base_h = mH(base)
            d_base = -xp.matmul(xp.matmul(base_h, d_base), base_h)
        return NO_TANGENT, project_a(d_base), NO_TANGENT

    return y, matrix_power_pullback


@frule.register(np.linalg.matrix_power)
def _matrix_power_frule(tangents, a, n):
    xp = array_namespace(a)
    base = _power_base(a, n)
    m = abs(n)
    powers = _powers(base, m)
    y = xp.matmul(powers[-1], base) if m else powers[0]
    da = tangents[1]
    if is_zero(da):
        return y, da
    if m == 0:
        return y, xp.zeros_like(y)
    if n < 0:
        da = -xp.matmul(xp.matmul(base, da), base)
    dy = sum(xp.matmul(xp.matmul(powers[k], da), powers[m - 1 - k]) for k in range(m))
    return y, dy


# ---- multi_dot --------------------------------------------------------------------------


def _chain_factors(arrays: Any) -> tuple[list[Any], bool, bool]:
    """The factors as matrices: a 1-D first (last) array becomes a row (column)."""
    factors = list(arrays)
    first, last = factors[0].ndim == 1, factors[-1].ndim == 1
    if first:
        factors[0] = factors[0][None, :]
    if last:
        factors[-1] = factors[-1][:, None]
    return factors, first, last


def _unchain(y: Any, first: bool, last: bool) -> Any:
    if last:
        y = y[..., 0]
    if first:
        y = y[0, ...]
    return y


def _rechain(dy: Any, first: bool, last: bool) -> Any:
    if first:
        dy = dy[None, ...]
    if last:
        dy = dy[..., None]
    return dy


@rrule.register(np.linalg.multi_dot)
def _multi_dot_rrule(arrays):
    xp = array_namespace(*arrays)
    project_arrays = ProjectTo(arrays)
    factors, first, last = _chain_factors(arrays)
    k = len(factors)
    # prefix[i] = factors[0] @ ... @ factors[i - 1]; suffix[i] = factors[i + 1] @ ... @ last
    prefix: list[Any] = [None, factors[0]]
    for i in range(1, k - 1):
        prefix.append(xp.matmul(prefix[-1], factors[i]))
    suffix: list[Any] = [None] * k
    suffix[k - 2] = factors[-1]
    for i in range(k - 3, -1, -1):
        suffix[i] = xp.matmul(factors[i + 1], suffix[i + 1])
    y = xp.matmul(prefix[-1], factors[-1])

    def multi_dot_pullback(dy):
        g = _rechain(dy, first, last)
        pieces = []
        for i in range(k):
            d = g if i == 0 else xp.matmul(mH(prefix[i]), g)
            if i < k - 1:
                d = xp.matmul(d, mH(suffix[i]))
            pieces.append(d)
        if first:
            pieces[0] = pieces[0][0]
        if last:
            pieces[-1] = pieces[-1][:, 0]
        return NO_TANGENT, project_arrays(type(arrays)(pieces))

    return _unchain(y, first, last), multi_dot_pullback


@frule.register(np.linalg.multi_dot)
def _multi_dot_frule(tangents, arrays):
    xp = array_namespace(*arrays)
    factors, first, last = _chain_factors(arrays)
    dts = tangents[1]
    d_factors = [ZERO_TANGENT] * len(factors) if is_zero(dts) else list(dts)
    d_factors = [unthunk(d) for d in d_factors]  # elements of a plain tuple may be thunks
    if not is_zero(d_factors[0]) and first:
        d_factors[0] = d_factors[0][None, :]
    if not is_zero(d_factors[-1]) and last:
        d_factors[-1] = d_factors[-1][:, None]
    y, dy = factors[0], d_factors[0]
    for f, df in zip(factors[1:], d_factors[1:], strict=True):
        if is_zero(dy):
            dy = dy if is_zero(df) else xp.matmul(y, df)
        else:
            dy = xp.matmul(dy, f) + (0 if is_zero(df) else xp.matmul(y, df))
        y = xp.matmul(y, f)
    y = _unchain(y, first, last)
    return y, dy if is_zero(dy) else _unchain(dy, first, last)


# ---- vecdot -----------------------------------------------------------------------------


@rrule.register(np.linalg.vecdot)
def _vecdot_rrule(x1, x2, *, axis=-1):
    xp = array_namespace(x1, x2)
    project_1, project_2 = ProjectTo(x1), ProjectTo(x2)
    y = xp.linalg.vecdot(x1, x2, axis=axis)

    def vecdot_pullback(dy):
        g = xp.expand_dims(xp.asarray(dy), axis=axis)
        d1 = x2 * (xp.conj(g) if is_complex(g) else g)
        return NO_TANGENT, project_1(d1), project_2(x1 * g)

    return y, vecdot_pullback


@frule.register(np.linalg.vecdot)
def _vecdot_frule(tangents, x1, x2, *, axis=-1):
    xp = array_namespace(x1, x2)
    y = xp.linalg.vecdot(x1, x2, axis=axis)
    d1, d2 = tangents[1], tangents[2]
    dy: Any = ZERO_TANGENT
    if not is_zero(d1):
        dy = xp.linalg.vecdot(d1, x2, axis=axis)
    if not is_zero(d2):
        dy = dy + xp.linalg.vecdot(x1, d2, axis=axis)
    return y, dy
