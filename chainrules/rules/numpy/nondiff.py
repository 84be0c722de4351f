"""NumPy functions whose outputs have no tangent: one table, declared non-differentiable.

Predicates, comparisons, logical and bitwise functions, and the functions of NumPy that
return integers, booleans or array metadata. Their rrule gives ``NoTangent()`` for every
argument and their frule gives ``NoTangent()`` as the output tangent. Functions that return
floats but are piecewise constant (``floor``, ``rint``, ``floor_divide``) are not here: their
outputs have a tangent space, and their rules (in ``elementwise.py`` and ``arithmetic.py``)
give ``ZeroTangent()``.

>>> import numpy as np
>>> from chainrules.core.registry import rrule
>>> y, pullback = rrule(np.greater, np.array([1.0, 3.0]), 2.0)
>>> y, pullback(None)
(array([False,  True]), (NoTangent(), NoTangent(), NoTangent()))
"""

import numpy as np

from ...core.define import non_differentiable

__all__: list[str] = []

# ---- predicates, comparisons, logical and bitwise functions ---------------------------------

non_differentiable(
    # predicates on values
    np.isnan,
    np.isinf,
    np.isfinite,
    np.isnat,
    np.isneginf,
    np.isposinf,
    np.isreal,
    np.iscomplex,
    np.signbit,
    np.isclose,
    np.allclose,
    np.array_equal,
    np.array_equiv,
    np.isin,
    # comparisons
    np.greater,
    np.greater_equal,
    np.less,
    np.less_equal,
    np.equal,
    np.not_equal,
    # logical
    np.logical_and,
    np.logical_or,
    np.logical_xor,
    np.logical_not,
    # bitwise and integer arithmetic
    np.bitwise_and,
    np.bitwise_or,
    np.bitwise_xor,
    np.bitwise_not,
    np.bitwise_count,
    np.left_shift,
    np.right_shift,
    np.gcd,
    np.lcm,
    # array metadata
    np.ndim,
    np.shape,
    np.size,
    np.isscalar,
    np.isrealobj,
    np.iscomplexobj,
    np.isfortran,
    np.result_type,
)

# ---- indices from sorting and selection -----------------------------------------------------

non_differentiable(
    np.argsort,
    np.argpartition,
    np.lexsort,
    np.searchsorted,
    np.argmax,
    np.argmin,
    np.nonzero,
    np.flatnonzero,
    np.argwhere,
    np.count_nonzero,
    np.ndarray.argsort,
    np.ndarray.argpartition,
    np.ndarray.searchsorted,
    np.ndarray.argmax,
    np.ndarray.argmin,
    np.ndarray.nonzero,
)
