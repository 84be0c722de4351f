"""Rules for Python's ``operator`` functions: Python floats in, Python floats out.

The arithmetic operators are one ``scalar_rule`` row each and work as well on arrays (they
broadcast and un-broadcast like the ufuncs they call); ``pow`` shares NumPy's ``power``
partials, ``abs`` shares NumPy's ``abs`` rule (``abs'(0) = 0``, complex from the real
Jacobian), and ``matmul`` is the bilinear rule of ``@`` on arrays of one or more dimensions.
Sequence concatenation and repetition (``[1.0] + [2.0]``, ``(x,) * 3``) have no rule here:
engines trace into them. ``getitem`` on an array has the rule of ``x[key]``; ``getitem`` on a
list or tuple and ``concat`` of two lists or tuples pass each element's cotangent back to
the element it came from.

>>> import operator
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(operator.mul, 3.0, 4.0)
>>> y, pullback(1.0)
(12.0, (NoTangent(), 4.0, 3.0))
"""

import operator
from typing import Any

import numpy as np

from ...core.define import scalar_rule
from ...core.lazy import is_lazy
from ...core.namespace import array_namespace
from ...core.projection import ProjectTo
from ...core.registry import frule, opt_out, rrule
from ...core.tangents import NO_TANGENT, ZERO_TANGENT
from ...core.thunks import unthunk
from ...core.zeros import is_zero
from ..numpy.arithmetic import power_base_partial, power_exponent_partial

__all__: list[str] = []

# ---- arithmetic -----------------------------------------------------------------------------

scalar_rule(operator.add, lambda x1, x2, y: 1.0, lambda x1, x2, y: 1.0)
scalar_rule(operator.sub, lambda x1, x2, y: 1.0, lambda x1, x2, y: -1.0)
scalar_rule(operator.mul, lambda x1, x2, y: x2, lambda x1, x2, y: x1)
scalar_rule(operator.truediv, lambda x1, x2, y: 1 / x2, lambda x1, x2, y: -y / x2)
scalar_rule(operator.floordiv, lambda x1, x2, y: ZERO_TANGENT, lambda x1, x2, y: ZERO_TANGENT)
# Python's % takes the sign of the divisor, like NumPy's remainder: x1 - floor(x1 / x2) * x2.
scalar_rule(
    operator.mod,
    lambda x1, x2, y: 1.0,
    lambda x1, x2, y: -array_namespace(x1, x2).floor_divide(x1, x2),
)
scalar_rule(operator.pow, power_base_partial, power_exponent_partial)
scalar_rule(operator.neg, lambda x, y: -1.0)
scalar_rule(operator.pos, lambda x, y: 1.0)

for _sequence in (list, tuple, str):
    for _table in (rrule, frule):
        opt_out(_table, operator.add, _sequence, _sequence)
        opt_out(_table, operator.mul, _sequence, int)
        opt_out(_table, operator.mul, int, _sequence)


# ---- abs ------------------------------------------------------------------------------------


@rrule.register(operator.abs)
def _abs_rrule(x):
    _, abs_pullback = rrule(np.abs, x)
    return abs(x), abs_pullback


@frule.register(operator.abs)
def _abs_frule(tangents, x):
    y = abs(x)
    _, dy = frule(tangents, np.abs, x)
    return y, ProjectTo(y)(dy)


# ---- matmul ---------------------------------------------------------------------------------
# A 1-d left operand is a row, a 1-d right operand a column; the cotangents drop those axes
# again, and projection sums the broadcast batch axes away.


def _as_matrices(xp, a, b):
    a2 = xp.expand_dims(a, axis=0) if a.ndim == 1 else a
    b2 = xp.expand_dims(b, axis=1) if b.ndim == 1 else b
    return a2, b2


def _as_matrix_cotangent(xp, dy, a, b):
    if a.ndim == 1:
        dy = xp.expand_dims(dy, axis=-2 if b.ndim > 1 else 0)
    if b.ndim == 1:
        dy = xp.expand_dims(dy, axis=-1)
    return dy


@rrule.register(operator.matmul)
def _matmul_rrule(a, b):
    """a @ b: the pullback is (dy @ b^H, a^H @ dy), with the 1-d and batch conventions of @."""
    xp = array_namespace(a, b)
    project_a, project_b = ProjectTo(a), ProjectTo(b)

    def matmul_pullback(dy):
        a2, b2 = _as_matrices(xp, a, b)
        dy2 = _as_matrix_cotangent(xp, dy, a, b)
        da = xp.matmul(dy2, xp.conj(xp.matrix_transpose(b2)))
        db = xp.matmul(xp.conj(xp.matrix_transpose(a2)), dy2)
        if a.ndim == 1:
            da = xp.squeeze(da, axis=-2)
        if b.ndim == 1:
            db = xp.squeeze(db, axis=-1)
        return NO_TANGENT, project_a(da), project_b(db)

    return xp.matmul(a, b), matmul_pullback


@frule.register(operator.matmul)
def _matmul_frule(tangents, a, b):
    """d(a @ b) = da @ b + a @ db."""
    xp = array_namespace(a, b)
    y = xp.matmul(a, b)
    da, db = (unthunk(t) for t in tangents[1:3])
    dy = ZERO_TANGENT
    if not is_zero(da):
        dy = dy + xp.matmul(da, b)
    if not is_zero(db):
        dy = dy + xp.matmul(a, db)
    return y, ProjectTo(y)(dy)


# ---- getitem and concat ---------------------------------------------------------------------
# On arrays, getitem is x[key] and has its rule; on lists and tuples the cotangent of the
# result goes back to the elements it was read from. Keys have no tangent. Other containers
# (dicts, strings) have no rule here.


def _is_array(a):
    """NumPy arrays, the tracked arrays of engines that stand for them, and dask arrays (whose
    ``x[key]`` is lazy, and has the same rule)."""
    return isinstance(a, np.ndarray) or hasattr(a, "__array_namespace__") or is_lazy(a)


def _elements(dy, n):
    """The cotangents of the ``n`` elements of a sequence, from the sequence's cotangent."""
    if is_zero(dy):
        return [ZERO_TANGENT] * n
    return [unthunk(t) for t in dy]


@rrule.register(operator.getitem)
def _getitem_rrule(a, key):
    if _is_array(a):
        return rrule(np.ndarray.__getitem__, a, key)
    if not isinstance(a, list | tuple) or not isinstance(key, int | slice):
        return None
    project_a = ProjectTo(a)
    n = len(a)

    def getitem_pullback(dy):
        items = [ZERO_TANGENT] * n
        if isinstance(key, slice):
            items[key] = _elements(dy, len(range(*key.indices(n))))
        else:
            items[key] = dy
        return NO_TANGENT, project_a(type(a)(items)), NO_TANGENT

    return a[key], getitem_pullback


@frule.register(operator.getitem)
def _getitem_frule(tangents, a, key):
    if _is_array(a):
        return frule(tangents, np.ndarray.__getitem__, a, key)
    if not isinstance(a, list | tuple) or not isinstance(key, int | slice):
        return None
    y = a[key]
    items = _elements(unthunk(tangents[1]), len(a))
    return y, ProjectTo(y)(type(y)(items[key]) if isinstance(key, slice) else items[key])


@rrule.register(operator.concat)
def _concat_rrule(a, b):
    if not (isinstance(a, list | tuple) and isinstance(b, list | tuple)):
        return None
    project_a, project_b = ProjectTo(a), ProjectTo(b)
    n = len(a)

    def concat_pullback(dy):
        items = _elements(dy, n + len(b))
        return NO_TANGENT, project_a(type(a)(items[:n])), project_b(type(b)(items[n:]))

    return operator.concat(a, b), concat_pullback


@frule.register(operator.concat)
def _concat_frule(tangents, a, b):
    if not (isinstance(a, list | tuple) and isinstance(b, list | tuple)):
        return None
    y: Any = operator.concat(a, b)
    items = _elements(unthunk(tangents[1]), len(a)) + _elements(unthunk(tangents[2]), len(b))
    return y, ProjectTo(y)(type(y)(items))
